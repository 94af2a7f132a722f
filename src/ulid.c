/*
 * ulid.c
 *		The 16-byte ulid type: text I/O, casts, accessors and generators.
 *
 * A ulid is stored exactly like a uuid: 16 bytes, big-endian, compared with
 * memcmp.  Comparison, hashing and the binary wire format are therefore
 * core's uuid functions, bound in the extension script; this file holds what
 * has no uuid counterpart, and the sort support, which is made for how ulids
 * are distributed.
 */
#include "support.h"

#include "common/hashfn.h"
#include "lib/hyperloglog.h"
#include "utils/builtins.h"
#include "utils/sortsupport.h"

typedef struct pg_ulid
{
	uint8_t		data[ULID_BYTES];
} pg_ulid;

#define DatumGetUlidP(X)		((pg_ulid *) DatumGetPointer(X))
#define PG_GETARG_ULID_P(n)		DatumGetUlidP(PG_GETARG_DATUM(n))
#define PG_RETURN_ULID_P(X)		PG_RETURN_POINTER(X)

#define TYPE_NAME "ulid"

static pg_ulid *
new_ulid(void)
{
	return (pg_ulid *) palloc(sizeof(pg_ulid));
}

static int64
ulid_time_ms(const pg_ulid *id)
{
	return (int64) load_be(id->data, ULID_TIME_BYTES);
}

static pg_ulid *
ulid_with_fill(int64 unix_ms, uint8_t fill)
{
	pg_ulid    *result = new_ulid();
	uint8_t		randomness[ULID_RANDOM_BYTES];

	memset(randomness, fill, sizeof(randomness));
	ulid_from_time_and_random((uint64_t) unix_ms, randomness, result->data);
	return result;
}

static pg_ulid *
ulid_with_fresh_randomness(int64 unix_ms)
{
	pg_ulid    *result = new_ulid();
	uint8_t		randomness[ULID_RANDOM_BYTES];

	ulid_random_fill(randomness, sizeof(randomness));
	ulid_from_time_and_random((uint64_t) unix_ms, randomness, result->data);
	return result;
}

static int64
timestamptz_to_ulid_ms(TimestampTz ts)
{
	return timestamptz_to_unix_ms(ts, 0, ULID_MAX_UNIX_MS, TYPE_NAME);
}

/* A new ulid from len bytes of text, or NULL after a (soft) error report. */
static pg_ulid *
ulid_from_chars(const char *chars, size_t len, Node *escontext)
{
	pg_ulid    *result = new_ulid();
	codec_status status = ulid_decode(chars, len, result->data);

	if (status != CODEC_OK)
	{
		report_bad_text(status, chars, len, TYPE_NAME, ULID_TEXT_LEN, escontext);
		return NULL;
	}
	return result;
}

PG_FUNCTION_INFO_V1(ulid_in);
Datum
ulid_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	pg_ulid    *result = ulid_from_chars(str, strlen(str), fcinfo->context);

	if (result == NULL)
		PG_RETURN_NULL();
	PG_RETURN_ULID_P(result);
}

PG_FUNCTION_INFO_V1(ulid_out);
Datum
ulid_out(PG_FUNCTION_ARGS)
{
	pg_ulid    *id = PG_GETARG_ULID_P(0);
	char	   *result = palloc(ULID_TEXT_LEN + 1);

	ulid_encode(id->data, result);
	result[ULID_TEXT_LEN] = '\0';
	PG_RETURN_CSTRING(result);
}

/*
 * The casts to and from text decode from and encode into the text datum
 * itself, skipping the cstring, the extra copy and the strlen() that a
 * cast through the I/O functions would cost.
 */
PG_FUNCTION_INFO_V1(ulid_from_text);
Datum
ulid_from_text(PG_FUNCTION_ARGS)
{
	text	   *txt = PG_GETARG_TEXT_PP(0);

	PG_RETURN_ULID_P(ulid_from_chars(VARDATA_ANY(txt), VARSIZE_ANY_EXHDR(txt), NULL));
}

PG_FUNCTION_INFO_V1(ulid_to_text);
Datum
ulid_to_text(PG_FUNCTION_ARGS)
{
	pg_ulid    *id = PG_GETARG_ULID_P(0);
	text	   *result = palloc(VARHDRSZ + ULID_TEXT_LEN);

	SET_VARSIZE(result, VARHDRSZ + ULID_TEXT_LEN);
	ulid_encode(id->data, VARDATA(result));
	PG_RETURN_TEXT_P(result);
}

PG_FUNCTION_INFO_V1(ulid_is_valid);
Datum
ulid_is_valid(PG_FUNCTION_ARGS)
{
	text	   *txt = PG_GETARG_TEXT_PP(0);
	uint8_t		ignored[ULID_BYTES];

	PG_RETURN_BOOL(ulid_decode(VARDATA_ANY(txt), VARSIZE_ANY_EXHDR(txt),
							   ignored) == CODEC_OK);
}

/*
 * Sort support.
 *
 * The comparator compares the two halves of the ids as big-endian 64-bit
 * integers: memcmp order, without the call.
 *
 * The abbreviated key must keep the order of the ids (a key that differs
 * decides the comparison) while telling apart as many ids as it can.  The
 * first 8 bytes, which core's uuid uses, fail on bulk-generated ulids: the
 * ids a monotonic generator makes within one millisecond differ only in their
 * last bits, so hundreds of them share one key, and a tie costs more than no
 * abbreviation at all (tuplesort fetches both full values from the tuples and
 * compares again).  So the key is built for that shape:
 *
 *	- the top KEY_TIME_BITS hold the millisecond, relative to the first id
 *	  converted (half the range either side of it, about 17 years); ids
 *	  outside that get key 0 or the highest key;
 *	- the low KEY_RANDOM_BITS hold the randomness, relative to the first id
 *	  seen of the same millisecond, its anchor.  Ids less than NEAR_ANCHOR
 *	  (2^21) from it get the key of the anchor plus their distance: a
 *	  monotonic run of up to two million ids per millisecond gets keys that
 *	  decide every comparison.  Ids farther below or above it (another
 *	  generator's run, fresh randomness) get the top FAR_BITS of their
 *	  randomness, in a range below or above the near ones.
 *
 * That keeps the order: ids of different milliseconds are ordered by the
 * time field; within a millisecond the random field is a non-decreasing
 * function of the randomness, since an anchor, once set, never changes.  The
 * anchors of a window of ANCHOR_WINDOW_MS milliseconds around the first id
 * are kept in chunks allocated when first used, at most ANCHOR_MAX_CHUNKS of
 * them; a millisecond without a slot (outside the window, or met after the
 * chunks ran out) never gets one, and its ids use the top bits of their
 * randomness.
 *
 * Ties remain where many ids of one millisecond lie far from its anchor and
 * share their top bits.  When the keys seen so far are fewer than one per
 * ABBREV_MAX_IDS_PER_KEY ids, abbreviation is given up: measured on shuffled
 * ids, it stops paying at about two ids per key.  Core's rule for uuid gives
 * up only at one key per 2,000 ids, which keeps bulk-generated ulids on the
 * slowest path.
 */
#define KEY_RANDOM_BITS			24
#define FAR_BITS				22
#define NEAR_ANCHOR				(UINT64CONST(1) << (FAR_BITS - 1))
#define NEAR_ANCHOR_KEY			((UINT64CONST(1) << FAR_BITS) + NEAR_ANCHOR)
#define ABOVE_ANCHOR_KEYS		(UINT64CONST(1) << (FAR_BITS + 1))
#define KEY_TIME_BITS			(64 - KEY_RANDOM_BITS)
#define ANCHOR_CHUNK_SLOTS		1024
#define ANCHOR_WINDOW_CHUNKS	4096	/* 4M ms (70 minutes) */
#define ANCHOR_WINDOW_MS		((int64) ANCHOR_CHUNK_SLOTS * ANCHOR_WINDOW_CHUNKS)
#define ANCHOR_MAX_CHUNKS		64	/* 1 MB */
#define ABBREV_MAX_IDS_PER_KEY	2.0
#define ABBREV_MIN_INPUT		1000
#define ABBREV_ENOUGH_KEYS		100000.0

/* the randomness of an anchor: its top 16 bits, bit 16 set once it is set */
typedef struct anchor
{
	uint64		random_high;
	uint64		random_low;
} anchor;

#define ANCHOR_SET	(UINT64CONST(1) << 16)

typedef struct ulid_sort_state
{
	int64		input_count;
	bool		estimating;		/* still counting distinct keys */
	hyperLogLogState distinct_keys;
	int64		first_ms;		/* of the first id converted, or -1 */
	MemoryContext context;		/* of the sort support */
	int			chunks_used;
	anchor	   *chunks[ANCHOR_WINDOW_CHUNKS];
} ulid_sort_state;

static int
ulid_fast_cmp(Datum x, Datum y, SortSupport ssup)
{
	const uint8_t *a = DatumGetUlidP(x)->data;
	const uint8_t *b = DatumGetUlidP(y)->data;
	uint64		a_half = load_be(a, 8),
				b_half = load_be(b, 8);

	if (a_half == b_half)
	{
		a_half = load_be(a + 8, 8);
		b_half = load_be(b + 8, 8);
	}
	return (a_half > b_half) - (a_half < b_half);
}

/* The anchor slot of a millisecond, or NULL when it has none. */
static anchor *
anchor_slot(ulid_sort_state *state, int64 unix_ms)
{
	int64		index = unix_ms - state->first_ms + ANCHOR_WINDOW_MS / 2;
	anchor	  **chunk;

	if (index < 0 || index >= ANCHOR_WINDOW_MS)
		return NULL;
	chunk = &state->chunks[index / ANCHOR_CHUNK_SLOTS];
	if (*chunk == NULL)
	{
		if (state->chunks_used == ANCHOR_MAX_CHUNKS)
			return NULL;
		*chunk = MemoryContextAllocZero(state->context,
										sizeof(anchor) * ANCHOR_CHUNK_SLOTS);
		state->chunks_used++;
	}
	return &(*chunk)[index % ANCHOR_CHUNK_SLOTS];
}

/* high:low minus the smaller small_high:small_low (128 bits), at most cap */
static uint64
capped_difference(uint64 high, uint64 low, uint64 small_high, uint64 small_low,
				  uint64 cap)
{
	if (high == small_high || (high == small_high + 1 && low < small_low))
		return Min(low - small_low, cap);
	return cap;
}

/* the top bits of 80-bit randomness */
static inline uint64
random_prefix(uint64 random_high, uint64 random_low, int bits)
{
	return ((random_high << 48) | (random_low >> 16)) >> (64 - bits);
}

/* The random field of the key, for a millisecond with this anchor slot. */
static uint64
random_field(anchor *slot, uint64 random_high, uint64 random_low)
{
	uint64		distance;

	if (slot == NULL)
		return random_prefix(random_high, random_low, KEY_RANDOM_BITS);
	if (!(slot->random_high & ANCHOR_SET))
	{
		slot->random_high = random_high | ANCHOR_SET;
		slot->random_low = random_low;
		return NEAR_ANCHOR_KEY;
	}
	random_high |= ANCHOR_SET;
	if (random_high > slot->random_high ||
		(random_high == slot->random_high && random_low >= slot->random_low))
	{
		distance = capped_difference(random_high, random_low,
									 slot->random_high, slot->random_low, NEAR_ANCHOR);
		if (distance < NEAR_ANCHOR)
			return NEAR_ANCHOR_KEY + distance;
		return ABOVE_ANCHOR_KEYS + random_prefix(random_high, random_low, FAR_BITS);
	}
	distance = capped_difference(slot->random_high, slot->random_low,
								 random_high, random_low, NEAR_ANCHOR + 1);
	if (distance <= NEAR_ANCHOR)
		return NEAR_ANCHOR_KEY - distance;
	return random_prefix(random_high, random_low, FAR_BITS);
}

static Datum
ulid_abbrev_convert(Datum original, SortSupport ssup)
{
	ulid_sort_state *state = ssup->ssup_extra;
	const uint8_t *id = DatumGetUlidP(original)->data;
	uint64		high = load_be(id, 8);
	int64		unix_ms = (int64) (high >> 16);
	int64		time_field;
	uint64		key;

	if (state->first_ms < 0)
		state->first_ms = unix_ms;
	time_field = unix_ms - state->first_ms + (INT64CONST(1) << (KEY_TIME_BITS - 1));
	if (time_field < 1)
		key = 0;
	else if (time_field >= (INT64CONST(1) << KEY_TIME_BITS))
		key = PG_UINT64_MAX;
	else
		key = ((uint64) time_field << KEY_RANDOM_BITS) |
			random_field(anchor_slot(state, unix_ms), high & 0xFFFF,
						 load_be(id + 8, 8));

	state->input_count++;
	if (state->estimating)
		addHyperLogLog(&state->distinct_keys,
					   DatumGetUInt32(hash_uint32((uint32) key ^ (uint32) (key >> 32))));
	return UInt64GetDatum(key);
}

static bool
ulid_abbrev_abort(int memtupcount, SortSupport ssup)
{
	ulid_sort_state *state = ssup->ssup_extra;
	double		distinct_keys;

	if (!state->estimating || state->input_count < ABBREV_MIN_INPUT)
		return false;
	distinct_keys = estimateHyperLogLog(&state->distinct_keys);
	if (distinct_keys * ABBREV_MAX_IDS_PER_KEY < (double) state->input_count)
		return true;
	/* as core's rule for uuid: past that, abbreviation has paid for itself */
	if (distinct_keys > ABBREV_ENOUGH_KEYS)
		state->estimating = false;
	return false;
}

PG_FUNCTION_INFO_V1(ulid_sortsupport);
Datum
ulid_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = ulid_fast_cmp;
	/* an 8-byte key needs an 8-byte Datum */
#if SIZEOF_DATUM == 8
	if (ssup->abbreviate)
	{
		ulid_sort_state *state = MemoryContextAllocZero(ssup->ssup_cxt,
														sizeof(ulid_sort_state));

		state->first_ms = -1;
		state->estimating = true;
		state->context = ssup->ssup_cxt;
		initHyperLogLog(&state->distinct_keys, 10);
		ssup->ssup_extra = state;
		ssup->comparator = ssup_datum_unsigned_cmp;
		ssup->abbrev_converter = ulid_abbrev_convert;
		ssup->abbrev_abort = ulid_abbrev_abort;
		ssup->abbrev_full_comparator = ulid_fast_cmp;
	}
#endif
	PG_RETURN_VOID();
}

PG_FUNCTION_INFO_V1(ulid_smaller);
Datum
ulid_smaller(PG_FUNCTION_ARGS)
{
	pg_ulid    *a = PG_GETARG_ULID_P(0);
	pg_ulid    *b = PG_GETARG_ULID_P(1);

	PG_RETURN_ULID_P(memcmp(a->data, b->data, ULID_BYTES) <= 0 ? a : b);
}

PG_FUNCTION_INFO_V1(ulid_larger);
Datum
ulid_larger(PG_FUNCTION_ARGS)
{
	pg_ulid    *a = PG_GETARG_ULID_P(0);
	pg_ulid    *b = PG_GETARG_ULID_P(1);

	PG_RETURN_ULID_P(memcmp(a->data, b->data, ULID_BYTES) >= 0 ? a : b);
}

PG_FUNCTION_INFO_V1(ulid_from_bytea);
Datum
ulid_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *bytes = PG_GETARG_BYTEA_PP(0);
	pg_ulid    *result;

	if (VARSIZE_ANY_EXHDR(bytes) != ULID_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid length for type ulid: %zu bytes",
						(size_t) VARSIZE_ANY_EXHDR(bytes)),
				 errdetail("A ulid is exactly %d bytes.", ULID_BYTES)));
	result = new_ulid();
	memcpy(result->data, VARDATA_ANY(bytes), ULID_BYTES);
	PG_RETURN_ULID_P(result);
}

static bytea *
bytes_to_bytea(const uint8_t *data, int len)
{
	bytea	   *result = palloc(VARHDRSZ + len);

	SET_VARSIZE(result, VARHDRSZ + len);
	memcpy(VARDATA(result), data, len);
	return result;
}

/* ulid <-> uuid as functions (pgx_ulid's names): the same 16 bytes */
PG_FUNCTION_INFO_V1(ulid_same_bytes);
Datum
ulid_same_bytes(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

PG_FUNCTION_INFO_V1(ulid_to_bytea);
Datum
ulid_to_bytea(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(bytes_to_bytea(PG_GETARG_ULID_P(0)->data, ULID_BYTES));
}

PG_FUNCTION_INFO_V1(ulid_timestamp);
Datum
ulid_timestamp(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMPTZ(unix_ms_to_timestamptz(ulid_time_ms(PG_GETARG_ULID_P(0))));
}

PG_FUNCTION_INFO_V1(ulid_unix_ms);
Datum
ulid_unix_ms(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(ulid_time_ms(PG_GETARG_ULID_P(0)));
}

PG_FUNCTION_INFO_V1(ulid_randomness);
Datum
ulid_randomness(PG_FUNCTION_ARGS)
{
	pg_ulid    *id = PG_GETARG_ULID_P(0);

	PG_RETURN_BYTEA_P(bytes_to_bytea(id->data + ULID_TIME_BYTES,
									 ULID_RANDOM_BYTES));
}

int64
ulid_datum_unix_ms(Datum id)
{
	return ulid_time_ms(DatumGetUlidP(id));
}

Datum
ulid_datum_bound(int64 unix_ms, bool highest)
{
	return PointerGetDatum(ulid_with_fill(unix_ms, highest ? 0xFF : 0x00));
}

PG_FUNCTION_INFO_V1(ulid_lower);
Datum
ulid_lower(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(ulid_datum_bound(timestamptz_to_ulid_ms(PG_GETARG_TIMESTAMPTZ(0)), false));
}

PG_FUNCTION_INFO_V1(ulid_upper);
Datum
ulid_upper(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(ulid_datum_bound(timestamptz_to_ulid_ms(PG_GETARG_TIMESTAMPTZ(0)), true));
}

PG_FUNCTION_INFO_V1(ulid_from_parts);
Datum
ulid_from_parts(PG_FUNCTION_ARGS)
{
	int64		unix_ms = PG_GETARG_INT64(0);
	bytea	   *randomness = PG_GETARG_BYTEA_PP(1);
	pg_ulid    *result;

	check_argument_range("unix_ms", unix_ms, 0, ULID_MAX_UNIX_MS, TYPE_NAME);
	if (VARSIZE_ANY_EXHDR(randomness) != ULID_RANDOM_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid length of ulid randomness: %zu bytes",
						(size_t) VARSIZE_ANY_EXHDR(randomness)),
				 errdetail("The randomness of a ulid is exactly %d bytes.",
						   ULID_RANDOM_BYTES)));
	result = new_ulid();
	ulid_from_time_and_random((uint64_t) unix_ms,
							  (const uint8_t *) VARDATA_ANY(randomness),
							  result->data);
	PG_RETURN_ULID_P(result);
}

PG_FUNCTION_INFO_V1(ulid_generate_random);
Datum
ulid_generate_random(PG_FUNCTION_ARGS)
{
	int64		now_ms = ulid_clock_now_ms();

	if (now_ms < 0 || now_ms > ULID_MAX_UNIX_MS)
		report_clock_out_of_range(now_ms, TYPE_NAME);
	PG_RETURN_ULID_P(ulid_with_fresh_randomness(now_ms));
}

/*
 * This backend's monotonic generators: the last ULID that ulid_generate()
 * and ulid_generate(timestamptz) handed out.
 */
static struct
{
	ulid_generator clock;
	ulid_generator at;
}			session;
static int	session_owner;

/* Raise the error of a generator that could not give an id for ms. */
static void
check_generated(gen_status status, int64 ms)
{
	if (status == GEN_OVERFLOW)
		report_generator_overflow(TYPE_NAME);
	else if (status == GEN_TIME_OUT_OF_RANGE)
		report_clock_out_of_range(ms, TYPE_NAME);
}

static pg_ulid *
generate_monotonic(ulid_generator *gen, int64 ms, bool clock_driven)
{
	pg_ulid    *result = new_ulid();

	reset_if_inherited(&session_owner, &session, sizeof(session));
	if (clock_driven)
		check_generated(ulid_generator_next(gen, ms, ulid_random_fill, result->data), ms);
	else
		check_generated(ulid_generator_at(gen, ms, ulid_random_fill, result->data), ms);
	return result;
}

PG_FUNCTION_INFO_V1(ulid_generate);
Datum
ulid_generate(PG_FUNCTION_ARGS)
{
	PG_RETURN_ULID_P(generate_monotonic(&session.clock, ulid_clock_now_ms(), true));
}

/* Back-filling: monotonic while the same millisecond is asked for. */
PG_FUNCTION_INFO_V1(ulid_generate_at);
Datum
ulid_generate_at(PG_FUNCTION_ARGS)
{
	PG_RETURN_ULID_P(generate_monotonic(&session.at,
										timestamptz_to_ulid_ms(PG_GETARG_TIMESTAMPTZ(0)),
										false));
}

/*
 * gen_monotonic_ulid(), as pgx_ulid's: one generator for the whole server,
 * so an id is greater than every id generated before it in any session.
 */
PG_FUNCTION_INFO_V1(ulid_generate_shared);
Datum
ulid_generate_shared(PG_FUNCTION_ARGS)
{
	int64		now_ms = ulid_clock_now_ms();
	pg_ulid    *result = new_ulid();

	check_generated(shared_ulid_next(now_ms, result->data), now_ms);
	PG_RETURN_ULID_P(result);
}
