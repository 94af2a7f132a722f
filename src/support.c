/*
 * support.c
 *		Backend glue shared by the ulid and ulid_flake types.
 */
#include "support.h"

#include <time.h>

#include "miscadmin.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "datatype/timestamp.h"

/* Unix ms of the PostgreSQL epoch, 2000-01-01T00:00:00Z. */
#define POSTGRES_EPOCH_UNIX_MS \
	((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * 1000)

/*
 * pg_strong_random costs a system or OpenSSL call whatever the size, which
 * would dominate the cost of an id.  Draw a batch and hand it out.  The
 * batch remembers the process that drew it: a buffer inherited across a
 * fork is thrown away, so no two processes ever share random bytes.
 */
#define RANDOM_BATCH_BYTES 4096

static uint8_t random_batch[RANDOM_BATCH_BYTES];
static size_t random_batch_left = 0;	/* not handed out yet, at the end */
static int	random_batch_owner = 0;

static void
refill_random_batch(void)
{
	if (!pg_strong_random(random_batch, sizeof(random_batch)))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate random values")));
	random_batch_left = RANDOM_BATCH_BYTES;
}

void
ulid_random_fill(uint8_t *buf, size_t len)
{
	uint8_t    *next;

	Assert(len <= RANDOM_BATCH_BYTES);
	/* a batch inherited across a fork counts as empty */
	reset_if_inherited(&random_batch_owner, &random_batch_left, sizeof(random_batch_left));
	if (random_batch_left < len)
		refill_random_batch();
	next = random_batch + RANDOM_BATCH_BYTES - random_batch_left;
	memcpy(buf, next, len);
	/* a byte handed out is never handed out again */
	memset(next, 0, len);
	random_batch_left -= len;
}

int64
ulid_clock_now_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (int64) now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

void
report_time_out_of_range(int64 unix_ms, const char *type_name)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("timestamp out of range for type %s", type_name),
			 errdetail("Unix time " INT64_FORMAT " ms cannot be stored in a %s.",
					   unix_ms, type_name)));
}

void
check_argument_range(const char *what, int64 value, int64 min, int64 max,
					 const char *type_name)
{
	if (value < min || value > max)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("%s " INT64_FORMAT " is out of range for type %s",
						what, value, type_name),
				 errdetail("It must be between " INT64_FORMAT " and " INT64_FORMAT ".",
						   min, max)));
}

void
report_clock_out_of_range(int64 unix_ms, const char *type_name)
{
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("the system clock is out of range for type %s", type_name),
			 errdetail("Unix time " INT64_FORMAT " ms cannot be stored in a %s.",
					   unix_ms, type_name)));
}

void
reset_if_inherited(int *owner, void *state, size_t size)
{
	if (*owner != MyProcPid)
	{
		memset(state, 0, size);
		*owner = MyProcPid;
	}
}

/*
 * Polls of the clock before wait_for_clock_after() starts to sleep between
 * them: about a millisecond of spinning on a vDSO clock, a few under a
 * slower one (libfaketime).
 */
#define WAIT_SPIN_POLLS 20000
#define WAIT_SLEEP_US 100

void
wait_for_clock_after(int64 unix_ms)
{
	int64		start_ms = ulid_clock_now_ms();
	int			polls = 0;

	/*
	 * The wait is normally the rest of the current millisecond, shorter
	 * than a sleep's granularity, so poll the clock.  A clock that runs slow
	 * or stands still must not cost a whole CPU, so after a while sleep
	 * between polls.  A clock that went back would keep us here for as long
	 * as it was set back: stop, and let the caller move on from its last id.
	 */
	for (;;)
	{
		int64		now_ms = ulid_clock_now_ms();

		if (now_ms > unix_ms || now_ms < start_ms)
			return;
		CHECK_FOR_INTERRUPTS();
		if (++polls > WAIT_SPIN_POLLS)
			pg_usleep(WAIT_SLEEP_US);
	}
}

/* The Unix millisecond of a finite ts, floored (times before 2000 too). */
int64
unix_ms_floor(TimestampTz ts)
{
	int64		ms = ts / 1000;

	if (ts % 1000 < 0)
		ms--;
	return ms + POSTGRES_EPOCH_UNIX_MS;
}

int64
timestamptz_to_unix_ms(TimestampTz ts, int64 min_ms, int64 max_ms,
					   const char *type_name)
{
	int64		ms;

	if (TIMESTAMP_NOT_FINITE(ts))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range for type %s", type_name),
				 errdetail("An infinite timestamp has no %s.", type_name)));

	ms = unix_ms_floor(ts);
	if (ms < min_ms || ms > max_ms)
		report_time_out_of_range(ms, type_name);
	return ms;
}

TimestampTz
unix_ms_to_timestamptz(int64 unix_ms)
{
	/* callers pass at most 2^48 ms, far inside timestamptz's range */
	return (unix_ms - POSTGRES_EPOCH_UNIX_MS) * 1000;
}

/*
 * What users paste into a ulid or a ulid_flake by mistake, and how it
 * converts: a uuid's text into a ulid, a bigint's into a ulid_flake.  The
 * name of that type, or NULL.
 */
static const char *
pasted_type(const char *text, size_t len, int expected_len)
{
	static const int hyphens[] = {8, 13, 18, 23};

	if (expected_len == ULID_TEXT_LEN)
	{
		if (len != 36 || strspn(text, "0123456789abcdefABCDEF-") != len)
			return NULL;
		for (size_t i = 0; i < lengthof(hyphens); i++)
			if (text[hyphens[i]] != '-')
				return NULL;
		return "uuid";
	}
	return len > 0 && strspn(text, "0123456789") == len ? "bigint" : NULL;
}

bool
report_bad_text(codec_status status, const char *chars, size_t len,
				const char *type_name, int expected_len, Node *escontext)
{
	/* the input need not be NUL-terminated (a text datum is not) */
	char	   *text = pnstrdup(chars, len);
	int			nchars = pg_mbstrlen_with_len(text, (int) len);
	const char *other = pasted_type(text, len, expected_len);

	if (status == CODEC_OVERFLOW)
		ereturn(escontext, false,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value \"%s\" is out of range for type %s",
						text, type_name),
				 errdetail("The first character of a %s must be between 0 and 7.",
						   type_name)));
	/* the right number of characters, some not ASCII: a bad character */
	if (status == CODEC_BAD_LENGTH && nchars != expected_len)
		ereturn(escontext, false,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type %s: \"%s\"",
						type_name, text),
				 errdetail("A %s has %d characters, this input has %d.",
						   type_name, expected_len, nchars),
				 other ? errhint("To convert a %s, cast it: '%s'::%s::%s.",
								 other, text, other, type_name) : 0));
	ereturn(escontext, false,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for type %s: \"%s\"",
					type_name, text),
			 errdetail("Only the Crockford base32 characters 0-9 and A-Z without I, L, O and U are allowed.")));
}

void
report_generator_overflow(const char *type_name)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("%s generator overflow: no more values in this millisecond",
					type_name),
			 errhint("A monotonic generator has used up the randomness of its millisecond: generate in another millisecond.")));
}
