/*
 * codec.c
 *		Crockford base32 for ULID and Ulid-Flake; see codec.h.
 *
 * Decoding is table driven: every input byte is looked up once and packed
 * straight into a group that fits a uint64, and the lookups are OR-ed
 * together so that one test rejects any byte outside the alphabet.  A ULID
 * is 10 time characters (48 bits once the first character is known to be
 * at most 7) followed by two groups of 8 random characters (40 bits each);
 * a Ulid-Flake is one group of 13 characters (63 bits).  Encoding is the
 * mirror image, two characters per table lookup.  With the group sizes
 * constant the compiler unrolls every loop, and nothing is allocated.
 */
#include "codec.h"

#include <string.h>

#define INVALID_DIGIT 0xFF

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
 * The alphabet as arithmetic, so that it can build constant tables:
 * digits, then letters skipping I, L, O and U.
 */
#define SYMBOL(d) ((char) ((d) < 10 ? '0' + (d) : \
	'A' + (d) - 10 + ((d) >= 18) + ((d) >= 20) + ((d) >= 22) + ((d) >= 27)))

/* Two characters for every 10-bit value: encoding takes one lookup a pair. */
#define PAIR(v)		{SYMBOL((v) >> 5), SYMBOL((v) & 31)}
#define PAIR4(v)	PAIR(v), PAIR((v) + 1), PAIR((v) + 2), PAIR((v) + 3)
#define PAIR16(v)	PAIR4(v), PAIR4((v) + 4), PAIR4((v) + 8), PAIR4((v) + 12)
#define PAIR64(v)	PAIR16(v), PAIR16((v) + 16), PAIR16((v) + 32), PAIR16((v) + 48)
#define PAIR256(v)	PAIR64(v), PAIR64((v) + 64), PAIR64((v) + 128), PAIR64((v) + 192)

static const char symbol_pairs[1024][2] = {
	/* the comparisons in SYMBOL() are constant here, by design */
	/* cppcheck-suppress comparisonError */
	PAIR256(0), PAIR256(256), PAIR256(512), PAIR256(768)
};

/*
 * Decode n characters into a uint64, OR-ing every lookup into *seen: valid
 * digits are below 32, so a high bit there means a byte outside the
 * alphabet (and the value, garbled by it, is thrown away).  The groups of a
 * ULID do not depend on each other, which lets the CPU work on them at once.
 */
static inline uint64_t
text_to_uint64(const unsigned char *s, int n, unsigned *seen)
{
	uint64_t	value = 0;
	unsigned	bad = 0;

	ULID_UNROLLED
	for (int i = 0; i < n; i++)
	{
		unsigned	d = digit_value[s[i]];

		bad |= d;
		value = (value << 5) | d;
	}
	*seen |= bad;
	return value;
}

static inline codec_status
check_digits(const unsigned char *s, unsigned seen)
{
	if (seen & ~31u)
		return CODEC_BAD_CHARACTER;
	if (digit_value[s[0]] > MAX_FIRST_DIGIT)
		return CODEC_OVERFLOW;
	return CODEC_OK;
}

/* Encode the low 5 * n bits of value as n characters, a pair at a time. */
static inline void
uint64_to_text(uint64_t value, int n, char *out)
{
	int			i = n;

	ULID_UNROLLED
	for (; i >= 2; i -= 2)
	{
		memcpy(out + i - 2, symbol_pairs[value & 1023], 2);
		value >>= 10;
	}
	if (i == 1)
		out[0] = SYMBOL((int) (value & 31));
}

/*
 * A ULID's text is three groups: 10 characters for the 48 time bits, and
 * 8 + 8 characters for the two 40-bit halves of the randomness.  In two
 * 64-bit words: hi = time (48) | random_hi (top 16 of 40), lo = the rest.
 */
#define MASK(bits) ((UINT64_C(1) << (bits)) - 1)

codec_status
ulid_decode(const char *text, size_t len, uint8_t out[ULID_BYTES])
{
	const unsigned char *s = (const unsigned char *) text;
	unsigned	seen = 0;
	uint64_t	time,
				random_hi,
				random_lo;
	codec_status status;

	if (len != ULID_TEXT_LEN)
		return CODEC_BAD_LENGTH;
	time = text_to_uint64(s, 10, &seen);
	random_hi = text_to_uint64(s + 10, 8, &seen);
	random_lo = text_to_uint64(s + 18, 8, &seen);
	status = check_digits(s, seen);
	if (status != CODEC_OK)
		return status;

	store_be64((time << 16) | (random_hi >> 24), out);
	store_be64((random_hi << 40) | random_lo, out + 8);
	return CODEC_OK;
}

void
ulid_encode(const uint8_t in[ULID_BYTES], char out[ULID_TEXT_LEN])
{
	uint64_t	hi = load_be(in, 8);
	uint64_t	lo = load_be(in + 8, 8);

	uint64_to_text(hi >> 16, 10, out);
	uint64_to_text(((hi & MASK(16)) << 24) | (lo >> 40), 8, out + 10);
	uint64_to_text(lo & MASK(40), 8, out + 18);
}

codec_status
ulid_flake_decode(const char *text, size_t len, uint64_t *out)
{
	const unsigned char *s = (const unsigned char *) text;
	unsigned	seen = 0;
	uint64_t	value;
	codec_status status;

	if (len != ULID_FLAKE_TEXT_LEN)
		return CODEC_BAD_LENGTH;
	value = text_to_uint64(s, ULID_FLAKE_TEXT_LEN, &seen);
	status = check_digits(s, seen);
	if (status != CODEC_OK)
		return status;

	/* 3 + 12 * 5 = 63 bits: fits, sign bit clear */
	*out = value;
	return CODEC_OK;
}

void
ulid_flake_encode(uint64_t value, char out[ULID_FLAKE_TEXT_LEN])
{
	uint64_to_text(value, ULID_FLAKE_TEXT_LEN, out);
}
