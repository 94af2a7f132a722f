/*
 * ulid.c
 *		The 16-byte ulid type: text I/O, casts, accessors and generators.
 *
 * A ulid is stored exactly like a uuid: 16 bytes, big-endian, compared with
 * memcmp.  Comparison, hashing, sort support and the binary wire format are
 * therefore core's uuid functions, bound in the extension script; this file
 * holds only what has no uuid counterpart.
 */
#include "support.h"

#include "utils/builtins.h"

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
