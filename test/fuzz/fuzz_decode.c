/*
 * fuzz_decode.c
 *		libFuzzer target for the text decoders of codec.c, built once per
 *		entry point: -DFUZZ_ULID (ulid_decode) or -DFUZZ_ULID_FLAKE
 *		(ulid_flake_decode).
 *
 * Every input is judged by an independent oracle: the grammar (exact
 * length, alphabet in either case, first character at most '7') and, for
 * accepted input, a slow bit-by-bit reference decode.  The decoder must
 * reject exactly what the grammar rejects, with the right status, decode to
 * the reference value, and re-encode to the input up to case.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"

#if defined(FUZZ_ULID)
#define TEXT_LEN	ULID_TEXT_LEN
#define VALUE_BYTES	ULID_BYTES
#elif defined(FUZZ_ULID_FLAKE)
#define TEXT_LEN	ULID_FLAKE_TEXT_LEN
#define VALUE_BYTES	8
#else
#error "define FUZZ_ULID or FUZZ_ULID_FLAKE"
#endif

static const char alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

static int
digit_of(unsigned char c)
{
	const char *hit = (c != 0) ? strchr(alphabet, toupper(c)) : NULL;

	return hit ? (int) (hit - alphabet) : -1;
}

static codec_status
oracle(const uint8_t *text, size_t len)
{
	if (len != TEXT_LEN)
		return CODEC_BAD_LENGTH;
	for (size_t i = 0; i < len; i++)
		if (digit_of(text[i]) < 0)
			return CODEC_BAD_CHARACTER;
	return digit_of(text[0]) > 7 ? CODEC_OVERFLOW : CODEC_OK;
}

/* 5 * TEXT_LEN bits, of which the last 8 * VALUE_BYTES make the value */
static void
reference_decode(const uint8_t *text, uint8_t out[VALUE_BYTES])
{
	int			skip = 5 * TEXT_LEN - 8 * VALUE_BYTES;

	memset(out, 0, VALUE_BYTES);
	for (int bit = skip; bit < 5 * TEXT_LEN; bit++)
	{
		int			digit = digit_of(text[bit / 5]);
		int			b = (digit >> (4 - bit % 5)) & 1;
		int			o = bit - skip;

		out[o / 8] |= (uint8_t) (b << (7 - o % 8));
	}
}

static codec_status
decode_and_encode(const uint8_t *data, size_t size, uint8_t value[VALUE_BYTES],
				  char text[TEXT_LEN])
{
	codec_status status;
#if defined(FUZZ_ULID)
	status = ulid_decode((const char *) data, size, value);
	if (status == CODEC_OK)
		ulid_encode(value, text);
#else
	uint64_t	v = 0;

	status = ulid_flake_decode((const char *) data, size, &v);
	if (status == CODEC_OK)
	{
		for (int i = VALUE_BYTES - 1; i >= 0; i--, v >>= 8)
			value[i] = (uint8_t) v;
		ulid_flake_encode(((uint64_t) value[0] << 56) | ((uint64_t) value[1] << 48) |
						  ((uint64_t) value[2] << 40) | ((uint64_t) value[3] << 32) |
						  ((uint64_t) value[4] << 24) | ((uint64_t) value[5] << 16) |
						  ((uint64_t) value[6] << 8) | value[7], text);
	}
#endif
	return status;
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t		value[VALUE_BYTES],
				expected[VALUE_BYTES];
	char		text[TEXT_LEN];
	codec_status want = oracle(data, size);
	codec_status got = decode_and_encode(data, size, value, text);

	if (got != want)
		abort();				/* accepts or rejects against the grammar */
	if (got != CODEC_OK)
		return 0;
	reference_decode(data, expected);
	if (memcmp(value, expected, VALUE_BYTES) != 0)
		abort();				/* wrong value */
	for (size_t i = 0; i < TEXT_LEN; i++)
		if (text[i] != toupper(data[i]))
			abort();			/* encode(decode(x)) is not x up to case */
	return 0;
}
