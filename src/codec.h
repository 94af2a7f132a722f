/*
 * codec.h
 *		Crockford base32 text form of ULID (128 bits) and Ulid-Flake (64 bits).
 *
 * Pure C with no PostgreSQL headers, so that it can be unit-tested and
 * fuzzed on its own.  Both types use the same alphabet and the same rule
 * for the first character (at most '7'), so they share one decoder and one
 * encoder that work on groups of up to 12 characters held in a uint64.
 */
#ifndef ULID_CODEC_H
#define ULID_CODEC_H

#include <stddef.h>
#include <stdint.h>

/* Nothing declared below is for other modules (see Makefile). */
#ifdef __GNUC__
#pragma GCC visibility push(hidden)
#endif

#define ULID_BYTES			16
#define ULID_TEXT_LEN		26
#define ULID_TIME_BYTES		6
#define ULID_RANDOM_BYTES	10

#define ULID_FLAKE_TEXT_LEN	13

typedef enum codec_status
{
	CODEC_OK = 0,
	CODEC_BAD_LENGTH,			/* not exactly 26 (13) bytes */
	CODEC_BAD_CHARACTER,		/* a byte outside the alphabet */
	CODEC_OVERFLOW				/* first character above '7' */
} codec_status;

/* Text (exactly len bytes, not NUL-terminated) to 16 big-endian bytes. */
extern codec_status ulid_decode(const char *text, size_t len,
								uint8_t out[ULID_BYTES]);

/* 16 big-endian bytes to 26 upper-case characters (no NUL is written). */
extern void ulid_encode(const uint8_t in[ULID_BYTES], char out[ULID_TEXT_LEN]);

/* Text (exactly len bytes) to a value in 0 .. 2^63-1. */
extern codec_status ulid_flake_decode(const char *text, size_t len,
									  uint64_t *out);

/* A value in 0 .. 2^63-1 to 13 upper-case characters (no NUL is written). */
extern void ulid_flake_encode(uint64_t value, char out[ULID_FLAKE_TEXT_LEN]);

/*
 * Big-endian byte order, shared by the codec, the generators and the types.
 * The loops run a constant number of times at every call site; unrolled,
 * they are straight-line code (GCC does not unroll them at -O2 by itself).
 */
#if defined(__GNUC__)
#define ULID_UNROLLED _Pragma("GCC unroll 16")
#else
#define ULID_UNROLLED
#endif

/*
 * The n (at most 8) bytes at in, most significant first.  Eight bytes are
 * one load and a byte swap where the compiler has them: GCC merges the
 * unrolled loop into those as a rule, but not always (in the sort's
 * near_twin_found() it stayed 24 instructions, a third of that function's
 * cost an id).
 */
static inline uint64_t
load_be(const uint8_t *in, int n)
{
	uint64_t	value = 0;

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (__builtin_constant_p(n) && n == 8)
	{
		__builtin_memcpy(&value, in, 8);
		return __builtin_bswap64(value);
	}
#endif
	ULID_UNROLLED
	for (int i = 0; i < n; i++)
		value = (value << 8) | in[i];
	return value;
}

static inline void
store_be64(uint64_t value, uint8_t *out)
{
	ULID_UNROLLED
	for (int i = 7; i >= 0; i--)
	{
		out[i] = (uint8_t) value;
		value >>= 8;
	}
}

#ifdef __GNUC__
#pragma GCC visibility pop
#endif

#endif							/* ULID_CODEC_H */
