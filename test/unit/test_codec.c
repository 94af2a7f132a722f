/*
 * test_codec.c
 *		Unit tests of the Crockford base32 codec against the shared vectors,
 *		plus exhaustive checks of the alphabet and random round trips.
 *
 * Usage: test_codec VECTOR_DIR
 */
#include "codec.h"
#include "unit.h"

static const char *alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

static const char *
status_name(codec_status s)
{
	switch (s)
	{
		case CODEC_OK:
			return "ok";
		case CODEC_BAD_LENGTH:
			return "invalid_length";
		case CODEC_BAD_CHARACTER:
			return "invalid_character";
		case CODEC_OVERFLOW:
			return "overflow";
	}
	return "?";
}

static void
test_ulid_vectors(const char *dir)
{
	csv_row		h,
				r;
	FILE	   *f = open_vectors(dir, "ulid_vectors.csv", &h);
	int			c_id = csv_column(&h, "id"),
				c_in = csv_column(&h, "input"),
				c_canon = csv_column(&h, "canonical"),
				c_hex = csv_column(&h, "hex32");

	while (csv_next(f, &r))
	{
		unsigned char expected[ULID_BYTES];
		uint8_t		bytes[ULID_BYTES];
		char		text[ULID_TEXT_LEN + 1] = {0};
		const char *in = r.field[c_in];
		codec_status s = ulid_decode(in, strlen(in), bytes);

		hex_to_bytes(r.field[c_hex], expected, sizeof(expected));
		unit_check(s == CODEC_OK && memcmp(bytes, expected, ULID_BYTES) == 0,
				   "%s: decode %s -> %s (%s)", r.field[c_id], in, r.field[c_hex],
				   status_name(s));
		ulid_encode(expected, text);
		unit_check(strcmp(text, r.field[c_canon]) == 0,
				   "%s: encode %s -> %s (got %s)", r.field[c_id], r.field[c_hex],
				   r.field[c_canon], text);
	}
	fclose(f);
}

static void
test_ulid_flake_vectors(const char *dir)
{
	csv_row		h,
				r;
	FILE	   *f = open_vectors(dir, "ulid_flake_vectors.csv", &h);
	int			c_id = csv_column(&h, "id"),
				c_in = csv_column(&h, "input"),
				c_canon = csv_column(&h, "canonical"),
				c_int = csv_column(&h, "int64");

	while (csv_next(f, &r))
	{
		uint64_t	expected = strtoull(r.field[c_int], NULL, 10);
		uint64_t	value = 0;
		char		text[ULID_FLAKE_TEXT_LEN + 1] = {0};
		const char *in = r.field[c_in];
		codec_status s = ulid_flake_decode(in, strlen(in), &value);

		unit_check(s == CODEC_OK && value == expected,
				   "%s: decode %s -> %s (%s, got %llu)", r.field[c_id], in,
				   r.field[c_int], status_name(s), (unsigned long long) value);
		ulid_flake_encode(expected, text);
		unit_check(strcmp(text, r.field[c_canon]) == 0,
				   "%s: encode %s -> %s (got %s)", r.field[c_id], r.field[c_int],
				   r.field[c_canon], text);
	}
	fclose(f);
}

static void
test_invalid_vectors(const char *dir)
{
	csv_row		h,
				r;
	FILE	   *f = open_vectors(dir, "invalid_inputs.csv", &h);
	int			c_id = csv_column(&h, "id"),
				c_fmt = csv_column(&h, "format"),
				c_hex = csv_column(&h, "input_utf8_hex"),
				c_class = csv_column(&h, "error_class");

	while (csv_next(f, &r))
	{
		unsigned char in[256];
		size_t		len = hex_to_bytes(r.field[c_hex], in, sizeof(in));
		codec_status s;

		if (strcmp(r.field[c_fmt], "ulid") == 0)
		{
			uint8_t		bytes[ULID_BYTES];

			s = ulid_decode((const char *) in, len, bytes);
		}
		else if (strcmp(r.field[c_fmt], "ulid_flake") == 0)
		{
			uint64_t	value;

			s = ulid_flake_decode((const char *) in, len, &value);
		}
		else
			continue;			/* integer forms are checked in SQL */
		unit_check(strcmp(status_name(s), r.field[c_class]) == 0,
				   "%s: %s rejects %s as %s (got %s)", r.field[c_id],
				   r.field[c_fmt], r.field[c_hex], r.field[c_class],
				   status_name(s));
	}
	fclose(f);
}

/*
 * Every byte value at every position of an otherwise valid text: accepted
 * exactly when it is in the alphabet (either case) and, in the first
 * position, at most '7'.
 */
static void
test_every_byte(void)
{
	int			wrong_ulid = 0,
				wrong_flake = 0;

	for (int pos = 0; pos < ULID_TEXT_LEN; pos++)
		for (int b = 0; b < 256; b++)
		{
			char		text[ULID_TEXT_LEN];
			uint8_t		bytes[ULID_BYTES];
			uint64_t	value;
			const char *hit = (b != 0) ? strchr(alphabet, toupper(b)) : NULL;
			int			valid = hit != NULL && (pos > 0 || hit - alphabet <= 7);

			memset(text, '0', sizeof(text));
			text[pos] = (char) b;
			if ((ulid_decode(text, ULID_TEXT_LEN, bytes) == CODEC_OK) != valid)
				wrong_ulid++;
			if (pos < ULID_FLAKE_TEXT_LEN &&
				(ulid_flake_decode(text, ULID_FLAKE_TEXT_LEN, &value) == CODEC_OK) != valid)
				wrong_flake++;
		}
	unit_check(wrong_ulid == 0, "ulid: every byte at every position (%d wrong)", wrong_ulid);
	unit_check(wrong_flake == 0, "ulid_flake: every byte at every position (%d wrong)", wrong_flake);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t
next_random(void)
{
	/* xorshift64*: deterministic, good enough to spread bits */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

/* encode then decode is the identity; lower case decodes the same */
static void
test_round_trips(void)
{
	int			wrong = 0;

	for (int i = 0; i < 100000; i++)
	{
		uint8_t		in[ULID_BYTES],
					out[ULID_BYTES],
					out_lower[ULID_BYTES];
		char		text[ULID_TEXT_LEN];
		uint64_t	v = next_random() >> 1,
					v_out = 0;
		char		ftext[ULID_FLAKE_TEXT_LEN];

		for (int j = 0; j < ULID_BYTES; j++)
			in[j] = (uint8_t) next_random();
		ulid_encode(in, text);
		if (ulid_decode(text, ULID_TEXT_LEN, out) != CODEC_OK || memcmp(in, out, ULID_BYTES) != 0)
			wrong++;
		for (int j = 0; j < ULID_TEXT_LEN; j++)
			text[j] = (char) tolower((unsigned char) text[j]);
		if (ulid_decode(text, ULID_TEXT_LEN, out_lower) != CODEC_OK || memcmp(in, out_lower, ULID_BYTES) != 0)
			wrong++;

		ulid_flake_encode(v, ftext);
		if (ulid_flake_decode(ftext, ULID_FLAKE_TEXT_LEN, &v_out) != CODEC_OK || v != v_out)
			wrong++;
	}
	unit_check(wrong == 0, "100000 random round trips of each type (%d wrong)", wrong);
}

static void
test_lengths(void)
{
	char		text[64];
	int			wrong = 0;

	memset(text, '0', sizeof(text));
	for (size_t len = 0; len < sizeof(text); len++)
	{
		uint8_t		bytes[ULID_BYTES];
		uint64_t	value;

		if ((ulid_decode(text, len, bytes) == CODEC_BAD_LENGTH) != (len != ULID_TEXT_LEN))
			wrong++;
		if ((ulid_flake_decode(text, len, &value) == CODEC_BAD_LENGTH) != (len != ULID_FLAKE_TEXT_LEN))
			wrong++;
	}
	unit_check(wrong == 0, "only lengths 26 and 13 are accepted (%d wrong)", wrong);
}

int
main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "test/vectors";

	test_ulid_vectors(dir);
	test_ulid_flake_vectors(dir);
	test_invalid_vectors(dir);
	test_every_byte();
	test_lengths();
	test_round_trips();
	return unit_done();
}
