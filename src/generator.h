/*
 * generator.h
 *		Monotonic ULID and Ulid-Flake generators as plain state machines.
 *
 * No PostgreSQL headers: the clock reading and the source of randomness
 * come in as arguments, so the unit tests can drive them with a fake clock
 * and fake random bytes.  The backend glue (support.c) supplies the real
 * clock and pg_strong_random.
 */
#ifndef ULID_GENERATOR_H
#define ULID_GENERATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"

/* Nothing declared below is for other modules (see Makefile). */
#ifdef __GNUC__
#pragma GCC visibility push(hidden)
#endif

/* ULID: 48-bit Unix milliseconds. */
#define ULID_MAX_UNIX_MS		((INT64_C(1) << 48) - 1)

/* Ulid-Flake: 43-bit milliseconds since 2024-01-01T00:00:00Z. */
#define ULID_FLAKE_EPOCH_UNIX_MS	INT64_C(1704067200000)
#define ULID_FLAKE_TIME_BITS		43
#define ULID_FLAKE_MAX_MS			((INT64_C(1) << ULID_FLAKE_TIME_BITS) - 1)
#define ULID_FLAKE_LOW_BITS			20	/* randomness (+ node id) */
#define ULID_FLAKE_NODE_BITS		5	/* scalable layout only */
#define ULID_FLAKE_MAX_NODE_ID		((1 << ULID_FLAKE_NODE_BITS) - 1)

typedef enum gen_status
{
	GEN_OK = 0,
	GEN_OVERFLOW,				/* randomness exhausted in this millisecond */
	GEN_TIME_OUT_OF_RANGE		/* clock outside what the format can hold */
} gen_status;

/* Fills buf with len random bytes. */
typedef void (*random_source) (uint8_t *buf, size_t len);

/*
 * Last ULID generated, as two words: hi = time << 16 | top 16 random bits,
 * lo = low 64 random bits.
 */
typedef struct ulid_generator
{
	bool		started;
	uint64_t	hi;
	uint64_t	lo;
} ulid_generator;

/*
 * Next monotonic ULID for clock reading now_ms.  A new millisecond gets
 * fresh randomness; the same millisecond, or a clock that went back, keeps
 * the last millisecond and adds 1 to the randomness.  On GEN_OVERFLOW and
 * GEN_TIME_OUT_OF_RANGE the state is unchanged and out is not written.
 */
extern gen_status ulid_generator_next(ulid_generator *gen, int64_t now_ms,
									  random_source random,
									  uint8_t out[ULID_BYTES]);

/*
 * Next ULID for millisecond ms, given rather than read from a clock
 * (back-filling): +1 while the same millisecond is asked for again, fresh
 * randomness for any other, earlier or later.  Same statuses as above.
 */
extern gen_status ulid_generator_at(ulid_generator *gen, int64_t ms,
									random_source random,
									uint8_t out[ULID_BYTES]);

/*
 * Make every later id greater than every ULID at or below Unix millisecond
 * floor_ms (a high-water mark read back after a restart): a generator whose
 * last id is at or below it continues as if it had just generated an id at
 * floor_ms + 1, with fresh randomness.  A generator already above it is left
 * as it is.
 */
extern void ulid_generator_raise(ulid_generator *gen, int64_t floor_ms,
								 random_source random);

/* A ULID from a time and ten random bytes (no state, no range check). */
extern void ulid_from_time_and_random(uint64_t unix_ms,
									  const uint8_t randomness[ULID_RANDOM_BYTES],
									  uint8_t out[ULID_BYTES]);

/* Ulid-Flake layouts: how many low bits hold the node id. */
typedef enum flake_layout
{
	FLAKE_STANDALONE = 0,		/* 20 random bits */
	FLAKE_SCALABLE = ULID_FLAKE_NODE_BITS	/* 15 random bits + 5 node bits */
} flake_layout;

#define ULID_FLAKE_RANDOM_BITS(layout)	(ULID_FLAKE_LOW_BITS - (int) (layout))
#define ULID_FLAKE_RANDOM_MAX(layout)	((UINT32_C(1) << ULID_FLAKE_RANDOM_BITS(layout)) - 1)

/*
 * A Ulid-Flake from its fields: milliseconds since the flake epoch, the
 * random field, and in the scalable layout the node id.  No range checks.
 */
extern uint64_t ulid_flake_compose(int64_t flake_ms, uint32_t randomness,
								   flake_layout layout, int node_id);

/* A fresh, uniform random field for the layout. */
extern uint32_t ulid_flake_fresh_randomness(random_source random,
											flake_layout layout);

/* Last Ulid-Flake generated in one layout. */
typedef struct ulid_flake_generator
{
	bool		started;
	int64_t		ms;				/* since the flake epoch */
	uint32_t	randomness;		/* right-aligned random field */
} ulid_flake_generator;

/*
 * Next monotonic Ulid-Flake for Unix clock reading now_unix_ms.  A new
 * millisecond gets fresh randomness; the same millisecond, or a clock that
 * went back, keeps the last millisecond and adds n, uniform in
 * [1, 2^(8 * entropy_bytes) - 1].  node_id is ignored in the stand-alone
 * layout.  On any status but GEN_OK the state is unchanged.
 */
extern gen_status ulid_flake_generator_next(ulid_flake_generator *gen,
											int64_t now_unix_ms,
											flake_layout layout,
											int entropy_bytes,
											int node_id,
											random_source random,
											uint64_t *out);

/*
 * Next stand-alone Ulid-Flake for Unix millisecond unix_ms, given rather
 * than read from a clock: adds n while the same millisecond is asked for
 * again, fresh randomness for any other.  GEN_OVERFLOW when the millisecond
 * is full (there is no next millisecond to move on to).
 */
extern gen_status ulid_flake_generator_at(ulid_flake_generator *gen,
										  int64_t unix_ms, int entropy_bytes,
										  random_source random, uint64_t *out);

/*
 * After GEN_OVERFLOW: the Unix ms at which to try again.  When the clock is
 * at the last id's millisecond, that is the next millisecond, to be waited
 * for.  When the clock is behind it (it was set back), waiting could take
 * as long as the clock was set back, so the generator moves on to the
 * millisecond after the last id at once; *wait says which.
 */
extern int64_t ulid_flake_retry_ms(const ulid_flake_generator *gen,
								   int64_t now_unix_ms, bool *wait);

/*
 * A generator's state in one 64-bit word (0 for a generator that has not
 * started), so that processes can share it through an atomic variable.
 */
extern uint64_t ulid_flake_generator_pack(const ulid_flake_generator *gen);
extern void ulid_flake_generator_unpack(uint64_t packed, ulid_flake_generator *gen);

/*
 * As ulid_generator_raise, for a Ulid-Flake generator of a layout: a last id
 * at or below Unix millisecond floor_unix_ms becomes the last id that
 * millisecond can hold, so that the next one is in a later millisecond.
 */
extern void ulid_flake_generator_raise(ulid_flake_generator *gen,
									   int64_t floor_unix_ms,
									   flake_layout layout);

/* Unix ms to the flake's time field; false when out of range. */
extern bool ulid_flake_ms_from_unix(int64_t unix_ms, int64_t *flake_ms);

#ifdef __GNUC__
#pragma GCC visibility pop
#endif

#endif							/* ULID_GENERATOR_H */
