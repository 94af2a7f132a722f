/*
 * test_generator.c
 *		Unit tests of the monotonic generators with a fake clock and a fake
 *		random source, against monotonic_vectors.csv and further cases.
 *
 * Usage: test_generator VECTOR_DIR
 */
#include "generator.h"
#include "unit.h"

/* The fake random source hands out queued bytes and counts what it gave. */
static uint8_t fake_bytes[64];
static size_t fake_len;
static size_t fake_pos;
static int	fake_underrun;

static void
fake_queue(const uint8_t *bytes, size_t len)
{
	if (len > 0)
		memcpy(fake_bytes, bytes, len);
	fake_len = len;
	fake_pos = 0;
	fake_underrun = 0;
}

static void
fake_random(uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
	{
		if (fake_pos < fake_len)
			buf[i] = fake_bytes[fake_pos++];
		else
		{
			buf[i] = 0;
			fake_underrun = 1;
		}
	}
}

static void
uint_to_bytes(uint64_t v, int n, uint8_t *out)
{
	for (int i = n - 1; i >= 0; i--, v >>= 8)
		out[i] = (uint8_t) v;
}

static int
int_after(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? atoi(p + strlen(key)) : -1;
}

/* One ULID row: the fake source offers the expected randomness. */
static void
ulid_row(ulid_generator *gen, const char *step, int64_t clock,
		 const char *result, const char *error)
{
	uint8_t		out[ULID_BYTES],
				expected[ULID_BYTES];
	char		text[ULID_TEXT_LEN + 1] = {0};
	int			wants_fresh = strstr(step, "fresh") != NULL;
	gen_status	s;

	if (*result)
	{
		ulid_decode(result, strlen(result), expected);
		fake_queue(expected + ULID_TIME_BYTES, ULID_RANDOM_BYTES);
		s = ulid_generator_next(gen, clock, fake_random, out);
		ulid_encode(out, text);
		unit_check(s == GEN_OK && strcmp(text, result) == 0 &&
				   (fake_pos == ULID_RANDOM_BYTES) == wants_fresh,
				   "ulid: %s -> %s (got %s, drew %zu random bytes)",
				   step, result, text, fake_pos);
	}
	else
	{
		/* overflow: start from the "previous" value named in the row */
		const char *prev = strstr(error, "previous ");
		ulid_generator before;

		ulid_decode(prev + 9, ULID_TEXT_LEN, expected);
		gen->started = true;
		gen->hi = gen->lo = 0;
		for (int i = 0; i < 8; i++)
		{
			gen->hi = (gen->hi << 8) | expected[i];
			gen->lo = (gen->lo << 8) | expected[i + 8];
		}
		before = *gen;
		fake_queue(NULL, 0);
		s = ulid_generator_next(gen, clock, fake_random, out);
		unit_check(s == GEN_OVERFLOW && memcmp(&before, gen, sizeof(before)) == 0,
				   "ulid: %s -> overflow, state unchanged", step);
	}
}

/*
 * One Ulid-Flake row.  A "new ms" row offers the expected random field as
 * fresh bytes; a "same ms, n=N" row offers N as the increment.
 */
static void
flake_row(ulid_flake_generator *gen, flake_layout layout, const char *step,
		  int64_t clock, const char *result, const char *error)
{
	int			node_id = layout == FLAKE_SCALABLE ? int_after(step, "sid=") : 0;
	int			n = int_after(step, "n=");
	uint64_t	out = 0,
				expected = 0;
	char		text[ULID_FLAKE_TEXT_LEN + 1] = {0};
	uint8_t		bytes[4];
	ulid_flake_generator before = *gen;
	gen_status	s;

	if (layout == FLAKE_SCALABLE && node_id < 0)
		node_id = 5;			/* the rows after the first keep sid 5 */
	if (strstr(step, "fresh generator"))
		memset(gen, 0, sizeof(*gen));
	if (*result)
		ulid_flake_decode(result, strlen(result), &expected);

	if (strstr(step, "new ms"))
	{
		int			rand_bits = ULID_FLAKE_LOW_BITS - (int) layout;

		uint_to_bytes((expected >> layout) & ((1u << rand_bits) - 1),
					  (rand_bits + 7) / 8, bytes);
		fake_queue(bytes, (rand_bits + 7) / 8);
	}
	else
	{
		bytes[0] = (uint8_t) (n > 0 ? n : 1);
		fake_queue(bytes, 1);
	}
	s = ulid_flake_generator_next(gen, clock, layout, 1, node_id, fake_random, &out);
	ulid_flake_encode(out, text);

	if (*result)
		unit_check(s == GEN_OK && out == expected && !fake_underrun,
				   "%s: %s -> %s (got %s)",
				   layout ? "scalable" : "stand-alone", step, result, text);
	else if (strstr(error, "out of range"))
		unit_check(s == GEN_TIME_OUT_OF_RANGE && gen->started == false,
				   "%s: %s -> time out of range",
				   layout ? "scalable" : "stand-alone", step);
	else if (strstr(error, "not an error"))
	{
		/*
		 * The clock went back: the generator must stay in the last
		 * millisecond.  The field is full from the row before, so that
		 * shows as an overflow, not a range error or a fresh draw.
		 */
		unit_check(s == GEN_OVERFLOW && memcmp(&before, gen, sizeof(before)) == 0,
				   "%s: %s -> kept the last millisecond (full: overflow)",
				   layout ? "scalable" : "stand-alone", step);
	}
	else
		unit_check(s == GEN_OVERFLOW && memcmp(&before, gen, sizeof(before)) == 0,
				   "%s: %s -> overflow, state unchanged",
				   layout ? "scalable" : "stand-alone", step);
}

static void
test_monotonic_vectors(const char *dir)
{
	csv_row		h,
				r;
	FILE	   *f = open_vectors(dir, "monotonic_vectors.csv", &h);
	int			c_fmt = csv_column(&h, "format"),
				c_step = csv_column(&h, "step"),
				c_clock = csv_column(&h, "clock_ms"),
				c_res = csv_column(&h, "result"),
				c_err = csv_column(&h, "error");
	ulid_generator ulid_gen = {0};
	ulid_flake_generator flake_gen = {0},
				scalable_gen = {0};

	while (csv_next(f, &r))
	{
		const char *fmt = r.field[c_fmt];
		int64_t		clock = strtoll(r.field[c_clock], NULL, 10);

		if (strcmp(fmt, "ulid") == 0)
			ulid_row(&ulid_gen, r.field[c_step], clock, r.field[c_res], r.field[c_err]);
		else if (strcmp(fmt, "ulid_flake") == 0)
			flake_row(&flake_gen, FLAKE_STANDALONE, r.field[c_step], clock,
					  r.field[c_res], r.field[c_err]);
		else if (strcmp(fmt, "ulid_flake_scalable") == 0)
			flake_row(&scalable_gen, FLAKE_SCALABLE, r.field[c_step], clock,
					  r.field[c_res], r.field[c_err]);
	}
	fclose(f);
}

static void
test_ulid_edges(void)
{
	ulid_generator gen = {0};
	uint8_t		out[ULID_BYTES],
				zeros[ULID_RANDOM_BYTES] = {0};

	fake_queue(zeros, sizeof(zeros));
	unit_check(ulid_generator_next(&gen, -1, fake_random, out) == GEN_TIME_OUT_OF_RANGE &&
			   !gen.started, "ulid: a clock before 1970 is out of range");
	unit_check(ulid_generator_next(&gen, ULID_MAX_UNIX_MS + 1, fake_random, out) == GEN_TIME_OUT_OF_RANGE,
			   "ulid: a clock past 2^48-1 ms is out of range");
	unit_check(ulid_generator_next(&gen, ULID_MAX_UNIX_MS, fake_random, out) == GEN_OK &&
			   out[0] == 0xFF && out[5] == 0xFF && out[6] == 0,
			   "ulid: 2^48-1 ms is in range");

	/* carry from the low word into the high word */
	gen.started = true;
	gen.hi = (UINT64_C(1000) << 16) | 0x00FF;
	gen.lo = UINT64_MAX;
	fake_queue(NULL, 0);
	unit_check(ulid_generator_next(&gen, 1000, fake_random, out) == GEN_OK &&
			   gen.hi == ((UINT64_C(1000) << 16) | 0x0100) && gen.lo == 0 &&
			   out[6] == 0x01 && out[7] == 0x00 && out[15] == 0,
			   "ulid: +1 carries from bit 64 into bit 65 of the randomness");
}

static void
test_flake_edges(void)
{
	ulid_flake_generator gen = {0};
	uint64_t	out = 0;
	uint8_t		bytes[6] = {0x00, 0x00, 0x10, 0, 0, 7};
	int64_t		t = ULID_FLAKE_EPOCH_UNIX_MS + 5000;

	fake_queue(bytes, 3);
	ulid_flake_generator_next(&gen, t, FLAKE_STANDALONE, 3, 0, fake_random, &out);
	unit_check(out == ((UINT64_C(5000) << 20) | 0x10), "flake: fresh value 0x10 at ms 5000");

	/* a zero increment is redrawn: n is never 0 */
	fake_queue(bytes + 3, 3);
	ulid_flake_generator_next(&gen, t, FLAKE_STANDALONE, 1, 0, fake_random, &out);
	unit_check(out == ((UINT64_C(5000) << 20) | (0x10 + 7)) && fake_pos == 3,
			   "flake: a zero increment is drawn again (n = 7)");

	/* three entropy bytes: n up to 2^24 - 1 */
	bytes[0] = 0x00;
	bytes[1] = 0x01;
	bytes[2] = 0x00;
	fake_queue(bytes, 3);
	ulid_flake_generator_next(&gen, t, FLAKE_STANDALONE, 3, 0, fake_random, &out);
	unit_check(out == ((UINT64_C(5000) << 20) | (0x17 + 256)) && fake_pos == 3,
			   "flake: ulid.flake_entropy_bytes = 3 draws three bytes (n = 256)");

	/* clock back with room left: keep the millisecond, add n */
	bytes[0] = 9;
	fake_queue(bytes, 1);
	ulid_flake_generator_next(&gen, t - 2000, FLAKE_STANDALONE, 1, 0, fake_random, &out);
	unit_check(out == ((UINT64_C(5000) << 20) | (0x117 + 9)),
			   "flake: a clock 2 s back keeps the last millisecond and adds n");

	/* scalable: node id in the low 5 bits, randomness above it */
	memset(&gen, 0, sizeof(gen));
	bytes[0] = 0x12;
	bytes[1] = 0x34;
	fake_queue(bytes, 2);
	ulid_flake_generator_next(&gen, t, FLAKE_SCALABLE, 1, 31, fake_random, &out);
	unit_check(out == ((UINT64_C(5000) << 20) | (0x1234 << 5) | 31),
			   "flake scalable: node 31, random 0x1234");

	memset(&gen, 0, sizeof(gen));
	unit_check(ulid_flake_generator_next(&gen, ULID_FLAKE_EPOCH_UNIX_MS + ULID_FLAKE_MAX_MS,
										 FLAKE_STANDALONE, 1, 0, fake_random, &out) == GEN_OK &&
			   (out >> 20) == (uint64_t) ULID_FLAKE_MAX_MS && (out >> 63) == 0,
			   "flake: the last millisecond (2302-09-27) is in range, sign bit clear");
}

static void
test_flake_pack(void)
{
	ulid_flake_generator gen = {0},
				back;
	int			wrong = 0;

	ulid_flake_generator_unpack(ulid_flake_generator_pack(&gen), &back);
	unit_check(ulid_flake_generator_pack(&gen) == 0 && !back.started,
			   "flake state: a fresh generator packs to 0 and back");
	for (int64_t ms = 0; ms <= ULID_FLAKE_MAX_MS; ms = ms * 3 + 1)
		for (uint32_t r = 0; r < (1u << 20); r = r * 5 + 1)
		{
			gen.started = true;
			gen.ms = ms;
			gen.randomness = r;
			ulid_flake_generator_unpack(ulid_flake_generator_pack(&gen), &back);
			if (!back.started || back.ms != ms || back.randomness != r)
				wrong++;
		}
	gen.ms = ULID_FLAKE_MAX_MS;
	gen.randomness = (1u << 20) - 1;
	ulid_flake_generator_unpack(ulid_flake_generator_pack(&gen), &back);
	unit_check(wrong == 0 && back.ms == ULID_FLAKE_MAX_MS && back.randomness == (1u << 20) - 1,
			   "flake state: pack/unpack round trips up to the largest ms and field (%d wrong)", wrong);
}

static void
test_flake_retry(void)
{
	ulid_flake_generator gen = {true, 5000, (1u << 20) - 1};
	int64_t		last = ULID_FLAKE_EPOCH_UNIX_MS + 5000;
	bool		wait = false;
	int64_t		retry;

	retry = ulid_flake_retry_ms(&gen, last, &wait);
	unit_check(retry == last + 1 && wait,
			   "flake overflow, clock at the last ms: wait for the next ms");
	retry = ulid_flake_retry_ms(&gen, last + 3, &wait);
	unit_check(retry == last + 1 && wait,
			   "flake overflow, clock already past: retry at once (the wait is empty)");
	retry = ulid_flake_retry_ms(&gen, last - 3600000, &wait);
	unit_check(retry == last + 1 && !wait,
			   "flake overflow, clock set back an hour: move on to the next ms without waiting");
}

/*
 * Back-filling: a millisecond asked for again continues from the last id;
 * any other, earlier or later, starts fresh at that millisecond (it does not
 * keep the last one as the clock-driven generators do).
 */
static void
test_at(void)
{
	ulid_generator ugen = {0};
	ulid_flake_generator fgen = {0};
	uint8_t		out[ULID_BYTES],
				fresh[ULID_RANDOM_BYTES] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
	uint8_t		bytes[3] = {0x0F, 0xFF, 0xF0};
	uint64_t	fout = 0;
	int64_t		t = ULID_FLAKE_EPOCH_UNIX_MS + 7000;

	fake_queue(fresh, sizeof(fresh));
	ulid_generator_at(&ugen, 5000, fake_random, out);
	fake_queue(NULL, 0);
	unit_check(ulid_generator_at(&ugen, 5000, fake_random, out) == GEN_OK &&
			   out[5] == 0x88 && out[15] == 10 && fake_pos == 0,
			   "ulid at: the same ms again is the last id + 1, no randomness drawn");
	fake_queue(fresh, sizeof(fresh));
	unit_check(ulid_generator_at(&ugen, 4000, fake_random, out) == GEN_OK &&
			   out[4] == 0x0F && out[5] == 0xA0 && out[15] == 9 && fake_pos == sizeof(fresh),
			   "ulid at: an earlier ms starts fresh at that ms (4000 = 0x0FA0)");
	unit_check(ulid_generator_at(&ugen, ULID_MAX_UNIX_MS + 1, fake_random, out) == GEN_TIME_OUT_OF_RANGE,
			   "ulid at: past 2^48-1 ms is out of range");

	/* flake: fresh 0xFFFF0 of 0xFFFFF, then increments until the ms is full */
	fake_queue(bytes, 3);
	ulid_flake_generator_at(&fgen, t, 1, fake_random, &fout);
	unit_check(fout == ((UINT64_C(7000) << 20) | 0xFFFF0),
			   "flake at: fresh value at ms 7000");
	bytes[0] = 0x0F;
	fake_queue(bytes, 1);
	unit_check(ulid_flake_generator_at(&fgen, t, 1, fake_random, &fout) == GEN_OK &&
			   fout == ((UINT64_C(7000) << 20) | 0xFFFFF),
			   "flake at: the same ms again adds n (15), filling the field");
	bytes[0] = 1;
	fake_queue(bytes, 1);
	unit_check(ulid_flake_generator_at(&fgen, t, 1, fake_random, &fout) == GEN_OVERFLOW &&
			   fgen.randomness == 0xFFFFF && fgen.ms == 7000,
			   "flake at: a full millisecond is GEN_OVERFLOW, state unchanged");
	fake_queue(bytes, 3);
	unit_check(ulid_flake_generator_at(&fgen, t - 1000, 1, fake_random, &fout) == GEN_OK &&
			   (fout >> 20) == 6000,
			   "flake at: an earlier ms starts fresh at that ms (6000)");
	unit_check(ulid_flake_generator_at(&fgen, ULID_FLAKE_EPOCH_UNIX_MS - 1, 1, fake_random, &fout) ==
			   GEN_TIME_OUT_OF_RANGE, "flake at: before 2024 is out of range");
}

/*
 * Raising a generator to a high-water mark read back after a restart: the
 * next id is above every id at or below the mark, whatever the clock says;
 * a generator already above it is left alone.
 */
static void
test_raise(void)
{
	ulid_generator ugen = {0};
	ulid_flake_generator fgen = {0};
	uint8_t		out[ULID_BYTES],
				fresh[ULID_RANDOM_BYTES] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0};
	uint64_t	fout = 0;
	int64_t		mark = ULID_FLAKE_EPOCH_UNIX_MS + 90000;
	gen_status	status;
	bool		wait = true;

	ulid_generator_raise(&ugen, -1, fake_random);
	unit_check(!ugen.started, "ulid raise: a mark below 0 covers no ULID");
	fake_queue(fresh, sizeof(fresh));
	ulid_generator_raise(&ugen, 5000, fake_random);
	fake_queue(NULL, 0);
	status = ulid_generator_next(&ugen, 1000, fake_random, out);
	unit_check(status == GEN_OK && load_be(out, 6) == 5001 && out[15] == 0xF1,
			   "ulid raise: with the clock behind, the next id is the mark + 1 ms (%llu), fresh + 1",
			   (unsigned long long) load_be(out, 6));
	fake_queue(fresh, sizeof(fresh));
	ulid_generator_raise(&ugen, 4000, fake_random);
	unit_check(fake_pos == 0 && ulid_generator_next(&ugen, 1000, fake_random, out) == GEN_OK &&
			   load_be(out, 6) == 5001 && out[15] == 0xF2,
			   "ulid raise: a mark below the last id changes nothing");
	ulid_generator_raise(&ugen, ULID_MAX_UNIX_MS, fake_random);
	unit_check(ulid_generator_next(&ugen, 1000, fake_random, out) == GEN_OVERFLOW,
			   "ulid raise: a mark at the last millisecond leaves no id above it");

	ulid_flake_generator_raise(&fgen, ULID_FLAKE_EPOCH_UNIX_MS - 1, FLAKE_STANDALONE);
	unit_check(!fgen.started, "flake raise: a mark before 2024 covers no Ulid-Flake");
	ulid_flake_generator_raise(&fgen, mark, FLAKE_STANDALONE);
	fake_queue(fresh, 1);
	unit_check(ulid_flake_generator_next(&fgen, mark - 3600000, FLAKE_STANDALONE, 1, 0,
										 fake_random, &fout) == GEN_OVERFLOW,
			   "flake raise: the mark's millisecond is full");
	fake_queue(fresh, 3);
	status = ulid_flake_generator_next(&fgen, ulid_flake_retry_ms(&fgen, mark - 3600000, &wait),
									   FLAKE_STANDALONE, 1, 0, fake_random, &fout);
	unit_check(status == GEN_OK && !wait && (int64_t) (fout >> 20) == 90001,
			   "flake raise: with the clock an hour behind, the next id is at the mark + 1 ms (%lld)",
			   (long long) (fout >> 20));
	ulid_flake_generator_raise(&fgen, mark - 10, FLAKE_STANDALONE);
	unit_check(fgen.ms == 90001, "flake raise: a mark below the last id changes nothing");
	fgen.started = false;
	ulid_flake_generator_raise(&fgen, mark, FLAKE_SCALABLE);
	unit_check(fgen.ms == 90000 && fgen.randomness == (1u << 15) - 1,
			   "flake raise: the scalable layout's field is 15 bits");
	ulid_flake_generator_raise(&fgen, INT64_MAX, FLAKE_STANDALONE);
	unit_check(fgen.ms == ULID_FLAKE_MAX_MS && fgen.randomness == (1u << 20) - 1,
			   "flake raise: a mark past 2302 leaves the generator at its last id");
}

int
main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "test/vectors";

	test_monotonic_vectors(dir);
	test_ulid_edges();
	test_flake_edges();
	test_flake_pack();
	test_flake_retry();
	test_at();
	test_raise();
	return unit_done();
}
