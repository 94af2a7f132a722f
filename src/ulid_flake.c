/*
 * ulid_flake.c
 *		The 8-byte ulid_flake type: text I/O, casts, accessors, generators.
 *
 * A ulid_flake is a non-negative int8, so comparison, min and max, hashing,
 * sort and skip support, BRIN distances and send are core's int8 functions,
 * called from C functions of the module (ULID_CALLS_CORE).  The rest of this
 * file is what differs: the base32 text form, a receive function that
 * rejects the sign bit, and the Ulid-Flake layout.
 */
#include "support.h"

#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#define TYPE_NAME "ulid_flake"

static int64
flake_unix_ms(int64 value)
{
	return (value >> ULID_FLAKE_LOW_BITS) + ULID_FLAKE_EPOCH_UNIX_MS;
}

/* A stand-alone Ulid-Flake of a (range-checked) Unix ms. */
static int64
standalone_flake(int64 unix_ms, uint32 randomness)
{
	return (int64) ulid_flake_compose(unix_ms - ULID_FLAKE_EPOCH_UNIX_MS, randomness,
									  FLAKE_STANDALONE, 0);
}

static int64
timestamptz_to_flake_unix_ms(TimestampTz ts)
{
	return timestamptz_to_unix_ms(ts, ULID_FLAKE_EPOCH_UNIX_MS,
								  ULID_FLAKE_EPOCH_UNIX_MS + ULID_FLAKE_MAX_MS,
								  TYPE_NAME);
}

/* Raise 22003 for an argument outside 0 .. max. */
static void
check_in_range(const char *what, int64 value, int64 max)
{
	check_argument_range(what, value, 0, max, TYPE_NAME);
}

/* A value from len bytes of text; false after a (soft) error report. */
static bool
ulid_flake_from_chars(const char *chars, size_t len, int64 *value, Node *escontext)
{
	codec_status status = ulid_flake_decode(chars, len, (uint64_t *) value);

	if (status != CODEC_OK)
		return report_bad_text(status, chars, len, TYPE_NAME, ULID_FLAKE_TEXT_LEN,
							   escontext);
	return true;
}

PG_FUNCTION_INFO_V1(ulid_flake_in);
Datum
ulid_flake_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	int64		value;

	if (!ulid_flake_from_chars(str, strlen(str), &value, fcinfo->context))
		PG_RETURN_NULL();
	PG_RETURN_INT64(value);
}

PG_FUNCTION_INFO_V1(ulid_flake_out);
Datum
ulid_flake_out(PG_FUNCTION_ARGS)
{
	char	   *result = palloc(ULID_FLAKE_TEXT_LEN + 1);

	ulid_flake_encode((uint64_t) PG_GETARG_INT64(0), result);
	result[ULID_FLAKE_TEXT_LEN] = '\0';
	PG_RETURN_CSTRING(result);
}

/* Casts to and from text without a cstring in between (see ulid.c). */
PG_FUNCTION_INFO_V1(ulid_flake_from_text);
Datum
ulid_flake_from_text(PG_FUNCTION_ARGS)
{
	text	   *txt = PG_GETARG_TEXT_PP(0);
	int64		value;

	ulid_flake_from_chars(VARDATA_ANY(txt), VARSIZE_ANY_EXHDR(txt), &value, NULL);
	PG_RETURN_INT64(value);
}

PG_FUNCTION_INFO_V1(ulid_flake_to_text);
Datum
ulid_flake_to_text(PG_FUNCTION_ARGS)
{
	text	   *result = palloc(VARHDRSZ + ULID_FLAKE_TEXT_LEN);

	SET_VARSIZE(result, VARHDRSZ + ULID_FLAKE_TEXT_LEN);
	ulid_flake_encode((uint64_t) PG_GETARG_INT64(0), VARDATA(result));
	PG_RETURN_TEXT_P(result);
}

/* int8's wire format, but a value with the sign bit set is not a ulid_flake */
PG_FUNCTION_INFO_V1(ulid_flake_recv);
Datum
ulid_flake_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int64		value = pq_getmsgint64(buf);

	check_in_range("value", value, PG_INT64_MAX);
	PG_RETURN_INT64(value);
}

/* What a ulid_flake shares with int8, and with int8 values (ulid--*.sql). */
ULID_CALLS_CORE(ulid_flake_send, int8send);
ULID_CALLS_CORE(ulid_flake_eq, int8eq);
ULID_CALLS_CORE(ulid_flake_ne, int8ne);
ULID_CALLS_CORE(ulid_flake_lt, int8lt);
ULID_CALLS_CORE(ulid_flake_le, int8le);
ULID_CALLS_CORE(ulid_flake_gt, int8gt);
ULID_CALLS_CORE(ulid_flake_ge, int8ge);
ULID_CALLS_CORE(ulid_flake_cmp, btint8cmp);
ULID_CALLS_CORE(ulid_flake_sortsupport, btint8sortsupport);
ULID_CALLS_CORE(ulid_flake_hash, hashint8);
ULID_CALLS_CORE(ulid_flake_hash_extended, hashint8extended);
ULID_CALLS_CORE(ulid_flake_smaller, int8smaller);
ULID_CALLS_CORE(ulid_flake_larger, int8larger);
#if ULID_HAVE_BRIN_MINMAX_MULTI
ULID_CALLS_CORE(ulid_flake_minmax_multi_distance, brin_minmax_multi_distance_int8);
#endif
#if ULID_HAVE_SKIP_SUPPORT
ULID_CALLS_CORE(ulid_flake_skipsupport, btint8skipsupport);
#endif

PG_FUNCTION_INFO_V1(ulid_flake_is_valid);
Datum
ulid_flake_is_valid(PG_FUNCTION_ARGS)
{
	text	   *txt = PG_GETARG_TEXT_PP(0);
	uint64_t	ignored;

	PG_RETURN_BOOL(ulid_flake_decode(VARDATA_ANY(txt), VARSIZE_ANY_EXHDR(txt),
									 &ignored) == CODEC_OK);
}

PG_FUNCTION_INFO_V1(ulid_flake_from_bigint);
Datum
ulid_flake_from_bigint(PG_FUNCTION_ARGS)
{
	int64		value = PG_GETARG_INT64(0);

	check_in_range("value", value, PG_INT64_MAX);
	PG_RETURN_INT64(value);
}

PG_FUNCTION_INFO_V1(ulid_flake_timestamp);
Datum
ulid_flake_timestamp(PG_FUNCTION_ARGS)
{
	PG_RETURN_TIMESTAMPTZ(unix_ms_to_timestamptz(flake_unix_ms(PG_GETARG_INT64(0))));
}

PG_FUNCTION_INFO_V1(ulid_flake_unix_ms);
Datum
ulid_flake_unix_ms(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(flake_unix_ms(PG_GETARG_INT64(0)));
}

PG_FUNCTION_INFO_V1(ulid_flake_randomness);
Datum
ulid_flake_randomness(PG_FUNCTION_ARGS)
{
	int64		value = PG_GETARG_INT64(0);
	flake_layout layout = PG_GETARG_BOOL(1) ? FLAKE_SCALABLE : FLAKE_STANDALONE;

	PG_RETURN_INT32((int32) ((value >> (int) layout) & ULID_FLAKE_RANDOM_MAX(layout)));
}

PG_FUNCTION_INFO_V1(ulid_flake_node_id);
Datum
ulid_flake_node_id(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32((int32) (PG_GETARG_INT64(0) & ULID_FLAKE_MAX_NODE_ID));
}

int64
ulid_flake_datum_unix_ms(Datum id)
{
	return flake_unix_ms(DatumGetInt64(id));
}

Datum
ulid_flake_datum_bound(int64 unix_ms, bool highest)
{
	return Int64GetDatum(standalone_flake(unix_ms,
										  highest ? ULID_FLAKE_RANDOM_MAX(FLAKE_STANDALONE) : 0));
}

PG_FUNCTION_INFO_V1(ulid_flake_lower);
Datum
ulid_flake_lower(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(ulid_flake_datum_bound(timestamptz_to_flake_unix_ms(PG_GETARG_TIMESTAMPTZ(0)),
										   false));
}

PG_FUNCTION_INFO_V1(ulid_flake_upper);
Datum
ulid_flake_upper(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(ulid_flake_datum_bound(timestamptz_to_flake_unix_ms(PG_GETARG_TIMESTAMPTZ(0)),
										   true));
}

/* Not STRICT: a NULL node_id means the stand-alone layout. */
PG_FUNCTION_INFO_V1(ulid_flake_from_parts);
Datum
ulid_flake_from_parts(PG_FUNCTION_ARGS)
{
	int64		unix_ms;
	int64		randomness;
	flake_layout layout = PG_ARGISNULL(2) ? FLAKE_STANDALONE : FLAKE_SCALABLE;
	int64		node_id = 0;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	unix_ms = PG_GETARG_INT64(0);
	randomness = PG_GETARG_INT32(1);

	check_argument_range("unix_ms", unix_ms, ULID_FLAKE_EPOCH_UNIX_MS,
						 ULID_FLAKE_EPOCH_UNIX_MS + ULID_FLAKE_MAX_MS, TYPE_NAME);
	check_in_range("randomness", randomness, ULID_FLAKE_RANDOM_MAX(layout));
	if (layout == FLAKE_SCALABLE)
	{
		node_id = PG_GETARG_INT32(2);
		check_in_range("node_id", node_id, ULID_FLAKE_MAX_NODE_ID);
	}
	PG_RETURN_INT64((int64) ulid_flake_compose(unix_ms - ULID_FLAKE_EPOCH_UNIX_MS,
											   (uint32) randomness, layout, (int) node_id));
}

/*
 * Back-filling: this backend remembers the last id it generated for a given
 * time, and continues from it while the same millisecond is asked for, so
 * that repeated calls never collide; when that millisecond is full, 54000.
 */
static ulid_flake_generator at_state;
static int	at_state_owner;

PG_FUNCTION_INFO_V1(ulid_flake_generate_at);
Datum
ulid_flake_generate_at(PG_FUNCTION_ARGS)
{
	int64		unix_ms = timestamptz_to_flake_unix_ms(PG_GETARG_TIMESTAMPTZ(0));
	uint64_t	out;

	reset_if_inherited(&at_state_owner, &at_state, sizeof(at_state));
	if (ulid_flake_generator_at(&at_state, unix_ms, ulid_flake_entropy_bytes_setting,
								ulid_random_fill, &out) != GEN_OK)
		report_generator_overflow(TYPE_NAME);
	PG_RETURN_INT64((int64) out);
}

/*
 * The generator's own state, not the clock, ran past the type's last
 * millisecond: after the clock was set back, the server-wide generators
 * moved on from their last id, and there is no millisecond left above it.
 */
static void
report_generator_past_end(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("ulid_flake generator has no millisecond left above its last id"),
			 errdetail("Its last id is at the last millisecond a %s can hold (%s), ahead of the system clock.",
					   TYPE_NAME, timestamptz_to_str(unix_ms_to_timestamptz(ULID_FLAKE_EPOCH_UNIX_MS + ULID_FLAKE_MAX_MS)))));
}

/*
 * Next value of the server-wide monotonic generator of a layout (see
 * shared_state.c), applying the settings: the increment's entropy, and on
 * overflow either wait for the next millisecond or raise an error.  The new
 * state is committed with compare-and-swap, so no two sessions ever hand
 * out the same id and every id is greater than the one before it; and only
 * once the database's high-water mark covers it, so that this holds across
 * a restart too.
 *
 * After an overflow the next try is for the millisecond after the last
 * id's.  Whether that means waiting is decided on the real clock: when it
 * is behind the last id (it was set back, or other sessions moved the
 * generator on from it), the generator moves on at once; only a clock at
 * the last id's millisecond is waited for.  Deciding on a clock reading
 * already raised to the last id would wait for as long as the clock was
 * set back.
 */
static int64
generate_monotonic(Oid fn_oid, flake_layout layout, int node_id)
{
	int			entropy_bytes = ulid_flake_entropy_bytes_setting;
	pg_atomic_uint64 *shared;
	int64		not_before_ms = 0;	/* see GEN_OVERFLOW below */

	if (layout == FLAKE_SCALABLE && entropy_bytes > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("ulid.flake_entropy_bytes = %d is too large for the scalable layout",
						entropy_bytes),
				 errdetail("The scalable layout has 15 random bits: increments of up to 65535 would fill a millisecond with one id or two."),
				 errhint("Use ulid.flake_entropy_bytes = 1 for ulid_flake_generate_scalable().")));
	check_server_wide_generation(fn_oid);
	shared = flake_shared_state(layout);

	for (;;)
	{
		uint64		seen = pg_atomic_read_u64(shared);
		int64		clock_ms = ulid_clock_now_ms();
		int64		now_ms = Max(clock_ms, not_before_ms);
		ulid_flake_generator gen;
		uint64_t	out;
		bool		wait;

		ulid_flake_generator_unpack(seen, &gen);
		switch (ulid_flake_generator_next(&gen, now_ms, layout, entropy_bytes,
										  node_id, ulid_random_fill, &out))
		{
			case GEN_OK:
				if (!covered_by_mark(fn_oid, gen.ms + ULID_FLAKE_EPOCH_UNIX_MS))
					break;		/* the mark moved: again */
				if (pg_atomic_compare_exchange_u64(shared, &seen,
												   ulid_flake_generator_pack(&gen)))
					return (int64) out;
				break;			/* another session went first: again */
			case GEN_TIME_OUT_OF_RANGE:
				if (now_ms > clock_ms)
					report_generator_past_end();
				report_clock_out_of_range(clock_ms, TYPE_NAME);
				break;
			case GEN_OVERFLOW:
				if (ulid_flake_overflow_setting == FLAKE_OVERFLOW_ERROR)
					report_generator_overflow(TYPE_NAME);
				not_before_ms = ulid_flake_retry_ms(&gen, clock_ms, &wait);
				if (wait)
					wait_for_clock_after(not_before_ms - 1);
				break;
		}
	}
}

PG_FUNCTION_INFO_V1(ulid_flake_generate);
Datum
ulid_flake_generate(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(generate_monotonic(fcinfo->flinfo->fn_oid, FLAKE_STANDALONE, 0));
}

PG_FUNCTION_INFO_V1(ulid_flake_generate_scalable);
Datum
ulid_flake_generate_scalable(PG_FUNCTION_ARGS)
{
	int			node_id;

	if (PG_NARGS() > 0)
	{
		node_id = PG_GETARG_INT32(0);
		check_in_range("node_id", node_id, ULID_FLAKE_MAX_NODE_ID);
	}
	else
	{
		node_id = ulid_flake_node_id_setting;
		if (node_id == ULID_FLAKE_NODE_ID_UNSET)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("ulid.flake_node_id is not set"),
					 errhint("Give each writer node its own id from 0 to 31, e.g. ALTER SYSTEM SET ulid.flake_node_id = 7, or pass it: ulid_flake_generate_scalable(7).")));
	}
	PG_RETURN_INT64(generate_monotonic(fcinfo->flinfo->fn_oid, FLAKE_SCALABLE, node_id));
}
