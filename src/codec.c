/*
 * codec.c
 *		Crockford base32 for ULID and Ulid-Flake; see codec.h.
 *
 * Decoding is table driven: every input byte is looked up once, the
 * lookups are OR-ed together so that one test rejects any byte outside
 * the alphabet, and the 5-bit digits are then packed into groups that
 * each fit a uint64.  A ULID is 10 time characters (48 bits once the first
 * character is known to be at most 7) followed by two groups of 8 random
 * characters (40 bits each); a Ulid-Flake is one group of 13 characters
 * (63 bits).  Encoding is the mirror image.  With the group sizes constant
 * the compiler unrolls every loop, and nothing is allocated.
 */
#include "codec.h"

#define INVALID_DIGIT 0xFF

static const char alphabet[32] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/*
 * Digit value of every byte; INVALID_DIGIT for bytes outside the alphabet.
 * Lower case is accepted; the excluded letters I, L, O and U, and every
 * byte above 0x7F, are not.
 */
static const uint8_t digit_value[256] = {
#define X INVALID_DIGIT
	/* 0x00 - 0x2F: control characters, space, punctuation */
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	/* 0x30 - 0x3F: '0' - '9', then punctuation */
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, X, X, X, X, X, X,
	/* 0x40 - 0x4F: '@' A B C D E F G H I J K L M N O */
	X, 10, 11, 12, 13, 14, 15, 16, 17, X, 18, 19, X, 20, 21, X,
	/* 0x50 - 0x5F: P Q R S T U V W X Y Z, then punctuation */
	22, 23, 24, 25, 26, X, 27, 28, 29, 30, 31, X, X, X, X, X,
	/* 0x60 - 0x6F: '`' a b c d e f g h i j k l m n o */
	X, 10, 11, 12, 13, 14, 15, 16, 17, X, 18, 19, X, 20, 21, X,
	/* 0x70 - 0x7F: p q r s t u v w x y z, then punctuation, DEL */
	22, 23, 24, 25, 26, X, 27, 28, 29, 30, 31, X, X, X, X, X,
	/* 0x80 - 0xFF: not ASCII */
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
#undef X
};

/* The largest digit the first character may carry (3 of its 5 bits). */
#define MAX_FIRST_DIGIT 7

/*
 * Look up len bytes into digits[]; reject the text if any byte is outside
 * the alphabet or the first digit would overflow the type.
 */
static inline codec_status
text_to_digits(const char *text, size_t len, uint8_t *digits)
{
	const unsigned char *s = (const unsigned char *) text;
	unsigned	seen = 0;

	for (size_t i = 0; i < len; i++)
	{
		digits[i] = digit_value[s[i]];
		seen |= digits[i];
	}
	/* valid digits are below 32, so any high bit means a bad byte */
	if (seen & ~31u)
		return CODEC_BAD_CHARACTER;
	if (digits[0] > MAX_FIRST_DIGIT)
		return CODEC_OVERFLOW;
	return CODEC_OK;
}

static inline uint64_t
digits_to_uint64(const uint8_t *digits, int n)
{
	uint64_t	value = 0;

	for (int i = 0; i < n; i++)
		value = (value << 5) | digits[i];
	return value;
}

static inline void
uint64_to_text(uint64_t value, int n, char *out)
{
	for (int i = n - 1; i >= 0; i--)
	{
		out[i] = alphabet[value & 31];
		value >>= 5;
	}
}

static inline void
uint64_to_bytes(uint64_t value, int n, uint8_t *out)
{
	for (int i = n - 1; i >= 0; i--)
	{
		out[i] = (uint8_t) value;
		value >>= 8;
	}
}

static inline uint64_t
bytes_to_uint64(const uint8_t *in, int n)
{
	uint64_t	value = 0;

	for (int i = 0; i < n; i++)
		value = (value << 8) | in[i];
	return value;
}

/*
 * A ULID's text is three groups: 10 characters for the 6 time bytes, and
 * 8 + 8 characters for the two halves (5 bytes each) of the randomness.
 */
codec_status
ulid_decode(const char *text, size_t len, uint8_t out[ULID_BYTES])
{
	uint8_t		digits[ULID_TEXT_LEN];
	codec_status status;

	if (len != ULID_TEXT_LEN)
		return CODEC_BAD_LENGTH;
	status = text_to_digits(text, len, digits);
	if (status != CODEC_OK)
		return status;

	uint64_to_bytes(digits_to_uint64(digits, 10), 6, out);
	uint64_to_bytes(digits_to_uint64(digits + 10, 8), 5, out + 6);
	uint64_to_bytes(digits_to_uint64(digits + 18, 8), 5, out + 11);
	return CODEC_OK;
}

void
ulid_encode(const uint8_t in[ULID_BYTES], char out[ULID_TEXT_LEN])
{
	uint64_to_text(bytes_to_uint64(in, 6), 10, out);
	uint64_to_text(bytes_to_uint64(in + 6, 5), 8, out + 10);
	uint64_to_text(bytes_to_uint64(in + 11, 5), 8, out + 18);
}

codec_status
ulid_flake_decode(const char *text, size_t len, uint64_t *out)
{
	uint8_t		digits[ULID_FLAKE_TEXT_LEN];
	codec_status status;

	if (len != ULID_FLAKE_TEXT_LEN)
		return CODEC_BAD_LENGTH;
	status = text_to_digits(text, len, digits);
	if (status != CODEC_OK)
		return status;

	/* 3 + 12 * 5 = 63 bits: fits, sign bit clear */
	*out = digits_to_uint64(digits, ULID_FLAKE_TEXT_LEN);
	return CODEC_OK;
}

void
ulid_flake_encode(uint64_t value, char out[ULID_FLAKE_TEXT_LEN])
{
	uint64_to_text(value, ULID_FLAKE_TEXT_LEN, out);
}
