/*
 * generator.c
 *		Monotonic ULID and Ulid-Flake state machines; see generator.h.
 */
#include "generator.h"

#define RANDOM_HI_MASK	UINT64_C(0xFFFF)

/* The two words of a ULID (see ulid_generator) from its parts. */
static void
ulid_words(uint64_t unix_ms, const uint8_t randomness[ULID_RANDOM_BYTES],
		   uint64_t *hi, uint64_t *lo)
{
	*hi = (unix_ms << 16) | load_be(randomness, 2);
	*lo = load_be(randomness + 2, 8);
}

static void
ulid_words_to_bytes(uint64_t hi, uint64_t lo, uint8_t out[ULID_BYTES])
{
	store_be64(hi, out);
	store_be64(lo, out + 8);
}

void
ulid_from_time_and_random(uint64_t unix_ms,
						  const uint8_t randomness[ULID_RANDOM_BYTES],
						  uint8_t out[ULID_BYTES])
{
	uint64_t	hi,
				lo;

	ulid_words(unix_ms, randomness, &hi, &lo);
	ulid_words_to_bytes(hi, lo, out);
}

/*
 * The next ULID of a generator whose next id is for millisecond ms:
 * continuing the last id's millisecond (+1) when same_ms, else fresh.
 */
static gen_status
ulid_generator_step(ulid_generator *gen, int64_t ms, bool same_ms,
					random_source random, uint8_t out[ULID_BYTES])
{
	if (same_ms)
	{
		if (gen->lo == UINT64_MAX && (gen->hi & RANDOM_HI_MASK) == RANDOM_HI_MASK)
			return GEN_OVERFLOW;
		gen->lo++;
		if (gen->lo == 0)
			gen->hi++;
	}
	else
	{
		uint8_t		fresh[ULID_RANDOM_BYTES];

		if (ms < 0 || ms > ULID_MAX_UNIX_MS)
			return GEN_TIME_OUT_OF_RANGE;
		random(fresh, sizeof(fresh));
		ulid_words((uint64_t) ms, fresh, &gen->hi, &gen->lo);
		gen->started = true;
	}
	ulid_words_to_bytes(gen->hi, gen->lo, out);
	return GEN_OK;
}

static int64_t
ulid_generator_last_ms(const ulid_generator *gen)
{
	return (int64_t) (gen->hi >> 16);
}

gen_status
ulid_generator_next(ulid_generator *gen, int64_t now_ms,
					random_source random, uint8_t out[ULID_BYTES])
{
	/* the same millisecond, or the clock went back: last value + 1 */
	return ulid_generator_step(gen, now_ms,
							   gen->started && now_ms <= ulid_generator_last_ms(gen),
							   random, out);
}

void
ulid_generator_raise(ulid_generator *gen, int64_t floor_ms, random_source random)
{
	if (floor_ms < 0 || (gen->started && ulid_generator_last_ms(gen) > floor_ms))
		return;					/* no ULID at or below it, or already above */
	if (floor_ms >= ULID_MAX_UNIX_MS)
	{
		/* nothing above it: the next id overflows */
		gen->hi = ((uint64_t) ULID_MAX_UNIX_MS << 16) | RANDOM_HI_MASK;
		gen->lo = UINT64_MAX;
	}
	else
	{
		uint8_t		fresh[ULID_RANDOM_BYTES];

		random(fresh, sizeof(fresh));
		ulid_words((uint64_t) floor_ms + 1, fresh, &gen->hi, &gen->lo);
	}
	gen->started = true;
}

gen_status
ulid_generator_at(ulid_generator *gen, int64_t ms,
				  random_source random, uint8_t out[ULID_BYTES])
{
	return ulid_generator_step(gen, ms,
							   gen->started && ms == ulid_generator_last_ms(gen),
							   random, out);
}

bool
ulid_flake_ms_from_unix(int64_t unix_ms, int64_t *flake_ms)
{
	/* compare before subtracting so that no input can overflow */
	if (unix_ms < ULID_FLAKE_EPOCH_UNIX_MS ||
		unix_ms > ULID_FLAKE_EPOCH_UNIX_MS + ULID_FLAKE_MAX_MS)
		return false;
	*flake_ms = unix_ms - ULID_FLAKE_EPOCH_UNIX_MS;
	return true;
}

static int64_t
ulid_flake_generator_last_unix_ms(const ulid_flake_generator *gen)
{
	return gen->ms + ULID_FLAKE_EPOCH_UNIX_MS;
}

int64_t
ulid_flake_retry_ms(const ulid_flake_generator *gen, int64_t now_unix_ms,
					bool *wait)
{
	int64_t		last_unix_ms = ulid_flake_generator_last_unix_ms(gen);

	*wait = now_unix_ms >= last_unix_ms;
	return last_unix_ms + 1;
}

void
ulid_flake_generator_raise(ulid_flake_generator *gen, int64_t floor_unix_ms,
						   flake_layout layout)
{
	int64_t		floor_ms;

	if (floor_unix_ms < ULID_FLAKE_EPOCH_UNIX_MS)
		return;					/* no Ulid-Flake lies at or below it */
	if (!ulid_flake_ms_from_unix(floor_unix_ms, &floor_ms))
		floor_ms = ULID_FLAKE_MAX_MS;
	if (gen->started && gen->ms > floor_ms)
		return;
	gen->started = true;
	gen->ms = floor_ms;
	gen->randomness = ULID_FLAKE_RANDOM_MAX(layout);
}

/* bit 63 marks a started generator; below it the ms and the random field */
#define PACKED_STARTED (UINT64_C(1) << 63)

uint64_t
ulid_flake_generator_pack(const ulid_flake_generator *gen)
{
	if (!gen->started)
		return 0;
	return PACKED_STARTED | ((uint64_t) gen->ms << ULID_FLAKE_LOW_BITS) | gen->randomness;
}

void
ulid_flake_generator_unpack(uint64_t packed, ulid_flake_generator *gen)
{
	gen->started = (packed & PACKED_STARTED) != 0;
	gen->ms = (int64_t) ((packed & ~PACKED_STARTED) >> ULID_FLAKE_LOW_BITS);
	gen->randomness = (uint32_t) (packed & ((UINT64_C(1) << ULID_FLAKE_LOW_BITS) - 1));
}

/* A uniform value in [0, 2^bits - 1] from ceil(bits / 8) random bytes. */
static uint32_t
random_bits(random_source random, int bits)
{
	uint8_t		buf[4];
	int			nbytes = (bits + 7) / 8;

	random(buf, nbytes);
	return (uint32_t) load_be(buf, nbytes) & ((UINT32_C(1) << bits) - 1);
}

uint32_t
ulid_flake_fresh_randomness(random_source random, flake_layout layout)
{
	return random_bits(random, ULID_FLAKE_RANDOM_BITS(layout));
}

uint64_t
ulid_flake_compose(int64_t flake_ms, uint32_t randomness, flake_layout layout,
				   int node_id)
{
	uint64_t	value = ((uint64_t) flake_ms << ULID_FLAKE_LOW_BITS) |
		((uint64_t) randomness << (int) layout);

	if (layout == FLAKE_SCALABLE)
		value |= (uint64_t) node_id;
	return value;
}

/* As ulid_generator_step, for a Ulid-Flake: the same millisecond adds n. */
static gen_status
ulid_flake_generator_step(ulid_flake_generator *gen, int64_t unix_ms, bool same_ms,
						  flake_layout layout, int entropy_bytes, int node_id,
						  random_source random, uint64_t *out)
{
	uint32_t	rand_max = ULID_FLAKE_RANDOM_MAX(layout);
	int64_t		flake_ms;

	if (same_ms)
	{
		uint32_t	n;

		do
			n = random_bits(random, 8 * entropy_bytes);
		while (n == 0);
		if (n > rand_max - gen->randomness)
			return GEN_OVERFLOW;
		gen->randomness += n;
	}
	else
	{
		if (!ulid_flake_ms_from_unix(unix_ms, &flake_ms))
			return GEN_TIME_OUT_OF_RANGE;
		gen->randomness = ulid_flake_fresh_randomness(random, layout);
		gen->ms = flake_ms;
		gen->started = true;
	}
	*out = ulid_flake_compose(gen->ms, gen->randomness, layout, node_id);
	return GEN_OK;
}

gen_status
ulid_flake_generator_next(ulid_flake_generator *gen, int64_t now_unix_ms,
						  flake_layout layout, int entropy_bytes, int node_id,
						  random_source random, uint64_t *out)
{
	/* the same millisecond, or the clock went back: add n >= 1 */
	return ulid_flake_generator_step(gen, now_unix_ms,
									 gen->started &&
									 now_unix_ms <= ulid_flake_generator_last_unix_ms(gen),
									 layout, entropy_bytes, node_id, random, out);
}

gen_status
ulid_flake_generator_at(ulid_flake_generator *gen, int64_t unix_ms,
						int entropy_bytes, random_source random, uint64_t *out)
{
	return ulid_flake_generator_step(gen, unix_ms,
									 gen->started &&
									 unix_ms == ulid_flake_generator_last_unix_ms(gen),
									 FLAKE_STANDALONE, entropy_bytes, 0, random, out);
}
