/*
 * support.h
 *		Backend glue shared by the ulid and ulid_flake types: randomness,
 *		the clock, timestamptz conversion, input error reports, settings.
 */
#ifndef ULID_SUPPORT_H
#define ULID_SUPPORT_H

#include "postgres.h"

#include "fmgr.h"
#include "nodes/nodes.h"
#include "port/atomics.h"
#include "utils/timestamp.h"

#include "codec.h"
#include "compat.h"
#include "generator.h"

/* Nothing declared below is for other modules (see Makefile). */
#ifdef __GNUC__
#pragma GCC visibility push(hidden)
#endif

/* Settings (module.c). */
typedef enum flake_overflow_policy
{
	FLAKE_OVERFLOW_WAIT,
	FLAKE_OVERFLOW_ERROR
} flake_overflow_policy;

extern int	ulid_flake_node_id_setting;
extern int	ulid_flake_entropy_bytes_setting;
extern int	ulid_flake_overflow_setting;

#define ULID_FLAKE_NODE_ID_UNSET (-1)

/*
 * The server-wide generator states (shared_state.c): the Ulid-Flake
 * generator of a layout, and the next ULID of gen_monotonic_ulid().
 * reserve_shared_state() is called from _PG_init: it reserves the memory at
 * server start when the library is preloaded, and otherwise as soon as the
 * library is loaded into any backend.
 */
extern pg_atomic_uint64 *flake_shared_state(flake_layout layout);
extern gen_status shared_ulid_next(Oid fn_oid, int64 now_ms, uint8_t out[ULID_BYTES]);
extern void reserve_shared_state(void);

/*
 * The high-water mark of the server-wide generators (shared_state.c).  A
 * generator first checks that it may write (not read-only, not parallel),
 * then hands out an id only when covered_by_mark(); when that returns false
 * it has moved the mark and the id must be computed again.  fn_oid is the
 * generator's: the mark's sequence is in its schema.
 */
extern void check_server_wide_generation(Oid fn_oid);
extern bool covered_by_mark(Oid fn_oid, int64 unix_ms);

/* Random bytes from this process's pg_strong_random batch. */
extern void ulid_random_fill(uint8_t *buf, size_t len);

/* Wall clock, Unix milliseconds. */
extern int64 ulid_clock_now_ms(void);

/*
 * timestamptz <-> Unix milliseconds.  The first floors to the millisecond
 * and raises 22008 for infinite timestamps and for times outside
 * [min_ms, max_ms], naming type_name.
 */
extern int64 timestamptz_to_unix_ms(TimestampTz ts, int64 min_ms, int64 max_ms,
									const char *type_name);
extern TimestampTz unix_ms_to_timestamptz(int64 unix_ms);

/* The Unix millisecond of a finite ts, floored.  Never raises. */
extern int64 unix_ms_floor(TimestampTz ts);

/*
 * What time ranges (time_range.c) need of each type: an id's Unix
 * millisecond, and the lowest or highest id of a millisecond (in range).
 */
extern int64 ulid_datum_unix_ms(Datum id);
extern Datum ulid_datum_bound(int64 unix_ms, bool highest);
extern int64 ulid_flake_datum_unix_ms(Datum id);
extern Datum ulid_flake_datum_bound(int64 unix_ms, bool highest);

/* Raise 22008 for a Unix millisecond outside what type_name can hold. */
extern void report_time_out_of_range(int64 unix_ms, const char *type_name);

/*
 * Raise 22003 when the argument what (a number the caller passed, named as
 * in the SQL signature) is outside min .. max for type_name.
 */
extern void check_argument_range(const char *what, int64 value, int64 min,
								 int64 max, const char *type_name);

/* Raise 22003 for a wall clock outside what type_name can hold. */
extern void report_clock_out_of_range(int64 unix_ms, const char *type_name);

/*
 * Wait until the wall clock has passed unix_ms (normally < 1 ms), or has
 * gone back since the wait began.  Interruptible; spins about a millisecond,
 * then sleeps between polls.
 */
extern void wait_for_clock_after(int64 unix_ms);

/*
 * Zero the size bytes of process-local state when the process is not the one
 * that last used it (*owner is its pid): a backend forked from a process
 * that had used the state must not continue it.
 */
extern void reset_if_inherited(int *owner, void *state, size_t size);

/*
 * Report a failed decode of the len bytes at chars as type_name: 22003 for
 * an overflowing first character, 22P02 otherwise.  Soft (returns false)
 * when escontext asks for it on PostgreSQL 16 and later.
 */
extern bool report_bad_text(codec_status status, const char *chars, size_t len,
							const char *type_name, int expected_len,
							Node *escontext);

/* Raise the 54000 error of a monotonic generator that ran out of room. */
extern void report_generator_overflow(const char *type_name);

#ifdef __GNUC__
#pragma GCC visibility pop
#endif

/*
 * ULID_CALLS_CORE(name, core); defines the C function name, which calls
 * core's function core: for the many functions where ulid is uuid and
 * ulid_flake is int8 (comparisons, hashes, send and receive, sort and skip
 * support, BRIN distances).  Their SQL functions could name core's directly
 * (LANGUAGE internal), but fmgr finds such a function, when its oid is not a
 * builtin's, by comparing its name with every builtin's, one by one, each
 * time it looks the function up: at every planner estimate and every
 * executor set-up of a comparison.  A C function it finds by its oid, in a
 * hash table.  (Ends as PG_FUNCTION_INFO_V1 does, so that it takes a ";".)
 */
#define ULID_CALLS_CORE(name, core) \
	PG_FUNCTION_INFO_V1(name); \
	Datum \
	name(PG_FUNCTION_ARGS) \
	{ \
		return core(fcinfo); \
	} \
	extern int	no_such_variable

#endif							/* ULID_SUPPORT_H */
