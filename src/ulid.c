/*
 * ulid.c
 *		The 16-byte ulid type: text I/O, casts, accessors and generators.
 *
 * A ulid is stored exactly like a uuid: 16 bytes, big-endian, compared with
 * memcmp.  Comparison, hashing, the binary wire format, skip support and
 * BRIN distances are therefore core's uuid functions, called from C
 * functions of the module (ULID_CALLS_CORE); the rest of this file is what
 * has no uuid counterpart, and the sort support, which is made for how ulids
 * are distributed.
 */
#include "support.h"

#include <math.h>

#include "access/xact.h"
#include "lib/hyperloglog.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/sortsupport.h"

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

/*
 * Sort support.
 *
 * The comparator compares the two halves of the ids as big-endian 64-bit
 * integers: memcmp order, without the call.
 *
 * The abbreviated key must keep the order of the ids (a key that differs
 * decides the comparison) while telling apart as many ids as it can.  Core's
 * key for uuid, the first 8 bytes, is as good as a key gets when those bytes
 * already differ, as they do for uuids converted to ulid and for ids of
 * different milliseconds.  It fails on bulk-generated ulids: the ids a
 * monotonic generator makes within one millisecond differ only in their last
 * bits, so hundreds of them share one key, and a tie costs more than no
 * abbreviation at all (tuplesort fetches both full values and compares
 * again).  So the key space is cut in three, each part keeping the order:
 *
 *	- ids of a millisecond in the window, 2^40 ms (35 years) starting 30
 *	  years before the transaction began, get keys from 2^62 to 2^63 - 1:
 *	  the millisecond in 40 bits, relative to the window, then a field of 22
 *	  bits (core's key has 16 bits of randomness), described below;
 *	- ids before the window keep their first 8 bytes, which are below 2^62;
 *	- ids after it keep their first 8 bytes less the last bit, from 2^63 up.
 *
 * Ids whose first bytes are random (uuids converted to ulid: their
 * "millisecond" is random over 9,000 years) fall outside the window almost
 * all, and get core's key at less than core's cost.
 *
 * Within the window, an id's plain field is made of the top 21 bits of its
 * randomness.  The ids of a millisecond fall in 64 *parts* by the top 6 of
 * them, and a part's keys are 2^16 apart: the next 15 bits place an id
 * within them, a margin of 2^14 keys from either edge (plain_key()).  A
 * part that has an *anchor* (the first of its ids the sort met) gives the
 * ids near it (its first 8 bytes, their last 8 bytes at most
 * NEAR_ANCHOR away) the anchor's plain field plus their distance: the ids
 * one monotonic generator makes in one millisecond, which share their plain
 * field (and their part), get fields that decide their order.  The near
 * ids' fields lie in a range around the anchor's, within its part's, from
 * the lowest to the highest near field; the other ids of the part keep
 * their plain field, except that one below the anchor gets at most the
 * lowest near field and one above it at least the highest.  That keeps the
 * order whatever the range, so the range may be narrowed while no id near
 * the anchor has been keyed: until then the anchor is *latent*, and an id
 * far from it that was keyed with a plain field inside the range narrows
 * the range to leave that field outside.  A latent anchor's ids all have
 * their plain field (the anchor's own is its plain field, distance 0), so a
 * latent anchor can be dropped at any time; the first id near it (not a
 * copy of it) makes it *active*, and that is for good.  A part never gets
 * an anchor after one of its ids was keyed without.  The runs of several
 * generators in one millisecond (bulk loads at once) get an anchor each,
 * unless they share a part (ANCHOR_WAYS).
 *
 * Anchors pay only when ids of one millisecond come in runs, as bulk-
 * generated ids and rows inserted a batch at a time do.  The first
 * ANCHOR_SAMPLE ids in the window are anchored in a table whose slots (one
 * a millisecond, its parts' anchors in its ways) are found by a hash of the
 * millisecond (by blocks of 16), and which grows with the milliseconds they
 * bring: if none of them was near an anchor (and not a copy of it), no
 * part gets an anchor after that (but in the table of blocks, where the
 * ids up to the end of the estimate show short runs the sample missed over
 * a span where they may hide, short_runs_watch()), the latent anchors are
 * dropped, and where no anchor is left (ids one per millisecond, random
 * within it, uuid v7 values, a few copies of each) every id is keyed from
 * its first bytes alone, in fewer instructions than core's key.  Among ids
 * in runs over n milliseconds, shuffled, a sample of 1,024 meets about
 * 1024^2 / 2n pairs of a run (the birthday bound): 8 at 65,536
 * milliseconds; it finds fewer near an anchor (short_runs_may_hide()).  In
 * the sample's table, a part takes a free way of its slot, else the way of
 * the latent anchor of another (which is dropped, its part refused an
 * anchor for good); one whose ways all hold active anchors is refused one
 * (where another millisecond's anchor holds them, once the table has grown
 * as far as the sample's may).  Where the sample found one to three (fewer
 * than ANCHOR_SAMPLE_MIN_HITS: short runs over many milliseconds), or more
 * of one run a millisecond, each met by few of its ids, over a span as wide
 * as SHORT_RUNS_MIN_SPAN (short_runs_only()), the milliseconds of its span
 * get anchors of 8 bytes from then on, in a table of their own, if the span
 * fits it (short_runs_start()); else anchoring stops as above, its active
 * anchors kept.  Where the sample found more runs, lay_out_anchors() lays
 * the table out for them: a bulk load's runs span few milliseconds, and get
 * a slot for each millisecond of their span, found with a mask, in a table
 * that grows to twice the span of the active anchors, up to
 * ANCHOR_MAX_BYTES; a millisecond whose span with them would not fit that is
 * out of reach, for good (ids made one at a time a year before the load).
 * Runs far apart (batches over a year) keep a hashed table, which grows
 * with their anchors up to that largest size.  Until
 * the estimate ends, the last part's anchor is remembered, since ids in
 * insertion order come a part at a time.
 *
 * Abbreviation is given up by core's rule for uuid: when the keys seen so
 * far are fewer than one per ABBREV_MAX_IDS_PER_KEY ids (counted after the
 * sample's, whose keys the estimate skips).  Until then it pays, even with
 * ties: measured on a table of ids 10 times each (one key per 10 ids), the
 * sort took 1.25 times as long without abbreviation, and 1.5 times when
 * abbreviation was given up half-way (as 0.3.0 did at two ids per key).
 * The estimate ends once more than ABBREV_ENOUGH_KEYS keys were seen, as
 * core's does, or as soon as the keys are more than a quarter of the ids
 * counted: at 2,560 ids (tuplesort's check then) on most sorts of runs, at
 * 10,240 (the first check once abbreviation may be given up) while the
 * sample lasts or short runs are watched for.
 * Then a converter without the estimate's work takes over.
 */
#define KEY_TIME_BITS			40
#define KEY_RANDOM_BITS			22
#define FIELD_MASK				((UINT64CONST(1) << KEY_RANDOM_BITS) - 1)
/*
 * The ids of a millisecond fall in 64 parts by their top 6 random bits (the
 * ids of a part share their first 8 bytes but the last 10 bits), and an
 * anchor is a part's: its near keys stay within the keys of its part, so
 * that the runs of several generators in one millisecond (bulk loads at
 * once) each get an anchor of their own, unless they share a part.  A run
 * crosses no part: one generator's ids of a millisecond share their first 8
 * bytes.  With 32 parts (5 bits), two of four loads at once shared a part
 * in one millisecond of 6, and the second's ids tied: 10,000 ids of four
 * loads took 1.127 times uuid v4's instructions to sort, 1.053 with 64.
 * A part's 65,536 keys are as many as the ids of a block of the table of
 * blocks, which fill them (short_run_key()); more parts would also leave a
 * run's anchor less room on either side (8,192 keys with 128).
 */
#define PART_BITS				6
#define PART_SHIFT				(16 - PART_BITS)	/* an id's part: its first 8 bytes >> this */
#define PART_FIELD_MASK			((UINT64CONST(1) << (KEY_RANDOM_BITS - PART_BITS)) - 1)
/* a plain field's random bits below the part, and their margin (plain_key()) */
#define PLAIN_BITS_IN_PART		(KEY_RANDOM_BITS - PART_BITS - 1)
#define PLAIN_LOW_BITS			(PART_BITS + PLAIN_BITS_IN_PART - 16)	/* of the last 8 bytes */
#define PLAIN_FIELD_MARGIN		(UINT64CONST(1) << (PLAIN_BITS_IN_PART - 1))
#define WINDOW_KEYS				(UINT64CONST(1) << 62)
#define AFTER_WINDOW_KEYS		(UINT64CONST(1) << 63)
#define WINDOW_BEFORE_NOW_MS	((INT64CONST(1) << KEY_TIME_BITS) - (INT64CONST(1) << 37))
/* so that the first 8 bytes of an id before the window are below 2^62 */
#define WINDOW_START_MAX_MS		((INT64CONST(1) << 46) - (INT64CONST(1) << KEY_TIME_BITS))
/*
 * Ids with the anchor's first 8 bytes, their last 8 bytes at most 65,535
 * from its, are near it as far as its part's keys reach: 16,384 to 49,151
 * on either side (plain fields keep a margin of 16,384 from the part's
 * edges).  An id far from an active anchor whose plain field is within
 * that of the anchor's ties with others (one in 64 of random ids).
 */
#define NEAR_ANCHOR				((UINT64CONST(1) << 16) - 1)
#define ANCHOR_SAMPLE			1024
#define ANCHOR_SAMPLE_MIN_HITS	4
#define ANCHOR_MIN_SLOTS		64
#define ANCHOR_BLOCK_BITS		4	/* hashed, 16 milliseconds side by side */
#define ANCHOR_BLOCK			(1 << ANCHOR_BLOCK_BITS)
#define ANCHOR_TURN_SHIFT		24	/* bits of the hash no table's block takes */
#define ANCHOR_SAMPLE_SLOT_BITS	12	/* 4,096 slots at most, hashed, for the sample */
#define ANCHOR_NO_RUN_SLOT_BITS	8	/* 256 until it meets an id of a run */
#define ANCHOR_LATENT_SLOT_BITS	10	/* 1,024 at most where its runs are compact */
#define LATENT_SHARE			8	/* fewer than one anchor made in 8 active */
#define RUN_ANCHORS				16	/* sample_runs_key()'s, in a table with ways */
#define ANCHOR_MAX_BYTES		(INT64CONST(4) * 1024 * 1024) /* 131,072 slots */
#define MS_BITS_LOG2			16	/* 8 kB */
#define MS_BITS					(1 << MS_BITS_LOG2)
#define GOLDEN_RATIO_64			UINT64CONST(0x9E3779B97F4A7C15)	/* 2^64 / phi */
#define ABBREV_MAX_IDS_PER_KEY	2000.0
#define ABBREV_MIN_INPUT		10000
#define EARLY_END_INPUT			INT64CONST(2500)	/* tuplesort's check of 2,560 ids */
#define ABBREV_ENOUGH_KEYS		100000.0
#define MIXED_SHARE				16	/* one id in 16 or more of each kind */
#define PLAIN_MIXED_SHARE		5	/* one id in 5 or more: plain keys, no branch */
#define OTHER_WAYS_SHARE		8	/* one id in 8 or more in other ways */
#define OUTSIDE_SHARE			10	/* one id in 10 or more outside the window
									 * (ulid_abbrev_convert_sample_runs_outside()) */
#define VICTIMS					64	/* latent anchors given up, kept a while */
#define VICTIMS_UNTIL			128 /* kept while the sample is this short, or
									 * found runs */
#define SPARSE_PARTS_LOG2		15	/* parts of renewed samples refused, */
#define SPARSE_PARTS_KEPT		(1 << (SPARSE_PARTS_LOG2 - 1))	/* kept exactly
																 * up to this */
#define REFUSALS_RECORDED		512 /* the sample's refusals, recorded
									 * (refuse()) */
#define TWIN_MIN_BITS			6	/* the twins' table (ulid_abbrev_convert_deferred()) */
#define TWIN_MAX_BITS			11
#define DEFERRED_CHAIN			3	/* ids in a chain kept (kept_near_twin()) */
#define DEFERRED_RUN			16	/* ids of a run kept in a row, out of order,
									 * or in a chain, crowded */
#define DEFERRED_DESCENTS		8	/* out of order: one id in 8 below the one before */
#define DEFERRED_APART			UINT64CONST(2)	/* how far from its twin one apart */
#define DEFERRED_CROWDED		16	/* first 8 bytes a millisecond (kept_crowded()) */
#define KEPT_APART				0x80	/* chained[]: kept apart from its twin */

/*
 * A slot of the anchor table, 32 bytes: an anchor, kept as what keys the ids
 * of its millisecond.  Its first 8 bytes once it is active, else the free
 * mark of the slot (the first 8 bytes of an id of millisecond 0 or 1,
 * whichever's slot it is not: no id that looks into its own slot has them;
 * mixed_key() loads slot 0 for ids outside the window, see there); what the
 * last 8 bytes of an id near it add up to its key with (modulo 2^64); the
 * lowest key of the ids near it and how far above that the highest is; and
 * its plain field.  A free slot has 0 for the lowest near key, which no
 * window key is.  The rest of the anchor follows from these (anchor_key(),
 * anchor_low(), anchor_high()), so that a slot takes 32 bytes, as before
 * latent anchors: 1,024 slots fit a first-level cache of 32 kB.
 */
typedef struct anchor
{
	uint64		held;
	uint64		key_offset;
	uint64		lowest_near;
	uint32		near_width;
	uint32		field;
} anchor;

/*
 * An active anchor the sample's converter of runs keyed an id near
 * (sample_runs_key()), or (the table moved) the table's first slot, and
 * whether it is in another way than its slot's first.
 */
typedef struct run_anchor
{
	const anchor *slot;
	bool		other_way;
} run_anchor;

typedef struct ulid_sort_state
{
	int64		input_count;
	bool		estimating;		/* still counting distinct keys */
	int64		hashed_count;	/* ids whose keys it counted */
	hyperLogLogState distinct_keys;
	uint64		window_start;	/* the first 8 bytes of the window's first id */
	MemoryContext context;		/* the sort's, for the anchor table */
	bool		anchoring;		/* new milliseconds still get anchors here */
	int			sampled;		/* ids of the window seen, up to ANCHOR_SAMPLE */
	int64		sample_from;	/* input_count as the sample began */
	int64		last_in_window; /* in a renewed sample, input_count at its
								 * last id of the window */
	int			sampled_near;	/* of them, ids near an anchor not equal to it */
	int			sampled_pairs;	/* of those, the second of two ids in a row
								 * of one part (sample()) */
	bool		last_near;		/* the last id sampled was near its anchor */
	bool		sample_renewed; /* (renew_sample()): it counts ids that come
								 * close (sample_counts()) */
	int			anchors_made;	/* milliseconds given an anchor */
	bool		scattered;		/* anchors anywhere: runs far apart */
	int64		outside_count;	/* ids outside the window */
	int64		unanchored_count;	/* ids in it of milliseconds without anchor */
	bool		mixed;			/* many ids near anchors and many not */
	bool		plain_mixed;	/* enough of each to key them without a branch */
	bool		runs_outside;	/* if mixed: few ids of the window without
								 * anchor, or anchors scattered */
	bool		runs_unanchored;	/* if mixed: few ids outside the window */
	bool		lean_ways;		/* many ids of anchors in other ways */
	bool		runs_by_part;	/* run_anchors kept by part: all in use */
	anchor	   *anchors;		/* NULL until an id is in the window */
	void	   *anchors_memory;	/* its memory (anchor_table_alloc()) */
	int			slot_bits;		/* the table has 2^slot_bits slots */
	int			ways;			/* and ways: 1 a slot, or ANCHOR_WAYS */
	uint64		slot_mask;		/* 2^slot_bits - 1 */
	int			way_bits;		/* log2(ways): a slot's first way is its
								 * number << this */
	int			entry_shift;	/* converter_slot_index(): first 8 bytes >> */
	uint64		entry_mask;		/* this, masked: its first way */
	uint64		slot_factor;	/* a millisecond's block: times this, */
	int			slot_shift;		/* shifted right by this, masked */
	int			turn_shift;		/* and its place in it turned by hash >> this */
	int			max_slot_bits;
	int			sample_slot_bits;	/* the sample's table, its ways included,
									 * grows up to this */
	int			active_count;	/* active anchors */
	int64		lowest_ms;		/* the span of their milliseconds */
	int64		highest_ms;
	int64		sampled_lowest_ms;	/* in the sample, the span of its active */
	int64		sampled_highest_ms; /* anchors (sample_runs_compact()) */
	int64		reach_from;		/* milliseconds that may still get anchors: */
	uint64		reach_count;	/* this many from reach_from */
	const uint64 *refused;		/* a bitmap of parts refused an anchor */
	const uint64 *denied;		/* its bits restore_victims() keeps
								 * (note_denied(), refuse_out_of_reach()) */
	int64	   *sparse_parts;	/* NULL, or the parts renewed samples refused
								 * (+ 1, hashed; refuse_sparse_part()) */
	int64	   *refusals;		/* the parts refused in the sample, */
	int64		refusal_count;	/* how many (past REFUSALS_RECORDED: more) */
	uint64		victim_bits;	/* their parts' victim_bit()s */
	int			victim_next;	/* the next to take, in turn */
	int			victims_put_back;	/* by restore_victims() */
	int			sparse_count;	/* the parts in sparse_parts */
	int64		other_way_ids;	/* ids whose anchor anchor_of() found in
								 * another way than the slot */
	int64	   *victim_tags;	/* VICTIMS: their parts + 1, or 0 */
	anchor	   *victims;		/* VICTIMS: the sample's latent anchors given up */
	int64		last_part;		/* the part last looked up, or -1 */
	anchor	   *last_anchor;	/* and its anchor */
	run_anchor	run_anchors[RUN_ANCHORS];	/* sample_runs_key()'s: the last
											 * keyed in the first, or one for
											 * each low 4 bits of a part */
	char	   *arena;			/* the arena it holds, or NULL */
	char	   *arena_next;		/* and its free bytes */
	uint64	   *short_runs;		/* NULL, or a block a millisecond (below) */
	int64		short_runs_from;	/* the millisecond of its first entry */
	uint64		short_runs_max;	/* its entries at most: the anchor table's bytes */
	uint64		short_runs_count;	/* its entries */
	int64		short_runs_made;	/* milliseconds it gave an anchor */
	int64		watched_near;	/* ids the watch found near another */
	uint64	   *watched;		/* NULL, or the watch's tags (short_runs_watch()) */
	uint64	   *keyed_plainly;	/* and the span's milliseconds keyed plainly */
	pg_ulid    *deferred;		/* the sample's ids keyed before it looks at
								 * them (ulid_abbrev_convert_deferred()), */
	uint16	   *twins;			/* the last of them of each first 8 bytes
								 * (its number: index + 1), */
	uint8	   *chained;		/* for each, its place in a chain of ids kept
								 * near their twins, and KEPT_APART
								 * (kept_near_twin()), */
	int			deferred_count;	/* how many ids, */
	int			kept_near;		/* of them, kept near their twins, */
	int			twin_shift;		/* twins hashed into 2^(64 - twin_shift) slots, */
	int			twins_full;		/* which take this many ids (-1: caught up), */
	int64		kept_lowest_ms; /* the span of the milliseconds of the first */
	int64		kept_highest_ms;
	uint16		spanned_upto;	/* this many (kept_crowded()), */
	uint16		ordered_upto;	/* the first ones looked at for their order */
	uint16		kept_descents;	/* and how many of them came below the one
								 * before (kept_out_of_order()) */
	bool		catching_up;	/* catch_up() hands the ids to the sample, */
	bool		replaying_counted;	/* this one counts near its anchor */
} ulid_sort_state;

static int
ulid_fast_cmp(Datum x, Datum y, SortSupport ssup)
{
	const uint8_t *a = DatumGetUlidP(x)->data;
	const uint8_t *b = DatumGetUlidP(y)->data;
	uint64		a_half = load_be(a, 8),
				b_half = load_be(b, 8);

	if (a_half == b_half)
	{
		a_half = load_be(a + 8, 8);
		b_half = load_be(b + 8, 8);
	}
	return (a_half > b_half) - (a_half < b_half);
}

/*
 * The slot of a millisecond.  In a table laid out for a span, its own, as
 * long as the milliseconds span no more than the table's slots (factor 1,
 * shift 0, turned by 0: the millisecond, masked).  Else by a hash, in blocks:
 * the 16 milliseconds of a block take 16 slots side by side, found by a hash
 * of the block (Fibonacci hashing: by their low bits alone, runs an hour
 * apart would share 1,024 slots of 131,072), and turned within them by other
 * bits of that hash (milliseconds at regular intervals share their low bits,
 * and would share a sixteenth of the slots).  So the anchors of a bulk load
 * lie side by side, as in a table laid out for its span: each millisecond
 * hashed alone, two loads a year apart took 1.08 to 1.10 times uuid v4's
 * time in memory, 1.02 to 1.04 times in blocks.  A table that grows splits
 * its blocks, and keeps milliseconds of different slots apart.
 */
static inline size_t
slot_index(const ulid_sort_state *state, uint64 part)
{
	uint64		unix_ms = part >> PART_BITS;
	uint64		hash = (unix_ms >> ANCHOR_BLOCK_BITS) * state->slot_factor;
	uint64		turn = hash >> state->turn_shift;

	return (((hash >> state->slot_shift) << ANCHOR_BLOCK_BITS |
			 ((unix_ms + turn) & (ANCHOR_BLOCK - 1))) & state->slot_mask) << state->way_bits;
}

/*
 * The slot of an id's millisecond for the converters after the sample,
 * by its first 8 bytes: in a table laid out for a span (spanned), the
 * millisecond masked, as slot_index() finds it, without the multiply and
 * the shifts by the state's fields.  Those took 10 of the 40 instructions
 * an id of a run took in the leaner converter: with converters of their own
 * for such tables, an ORDER BY of 1,000,000 ids 500 a millisecond took 0.9%
 * fewer instructions, of 100,000 ids half in runs, half one a millisecond
 * a year before them, 0.9% fewer.  (A branch on the table's layout in one
 * converter, for each id, took 0.6% more than without either.)  The layout
 * does not change once the sample is over: a table grows as it is, hashed
 * or not.
 */
static pg_attribute_always_inline size_t
converter_slot_index(const ulid_sort_state *state, uint64 high, bool spanned)
{
	Assert(spanned == (state->slot_factor == 1));
	if (spanned)
		return (high >> state->entry_shift) & state->entry_mask;
	return slot_index(state, high >> PART_SHIFT);
}

/*
 * The anchors of a millisecond's parts.  Its slot holds one; where a part
 * met an id while another part of its millisecond had an anchor, the table
 * is rebuilt with ANCHOR_WAYS slots a millisecond, its *ways*, side by side:
 * way w of slot n is entry (n << way_bits) + w, and the converters take a
 * slot's first way for the slot.  So the tables of ids made by one
 * generator at a time keep a slot a millisecond.  (With the slots first,
 * then the other three ways of each, an id of another way read three cache
 * lines: an ORDER BY of 100,000 ids of four loads at once, 5 a millisecond
 * each, met 1.058 million first-level cache misses, 0.938 million with the
 * ways side by side and the table aligned, anchor_table_alloc().)
 * (Four bulk loads at once took 1.64 times uuid v4's time to sort in memory
 * with one anchor a millisecond, which keyed one load of the four.  Four
 * ways in every table cost ids 500 a millisecond 1.3% more instructions to
 * sort, 5 a millisecond 5%, in a prototype: memory to clear, and cache
 * lines to read, for ways they do not use.)  The sample's table takes them
 * too where a part finds its slot held by another millisecond's anchor, and
 * the table is full enough, and so does a table of scattered anchors after
 * the sample, where that anchor is active (ways_for_other_ms()): one way a
 * slot, the anchors
 * of batches scattered over a year met in the sample's table, the part
 * that lost its slot was refused an anchor for good, and the 100 ids of
 * its batch tied (an ORDER BY of 100,000 such ids met 47,000 ties, 6% of
 * its instructions).  A table laid out for a span gives them back where it
 * can (lay_out_anchors()).
 */
#define ANCHOR_WAYS				4

/* The slots of the table, the ways included, and their count in bits. */
static inline size_t
table_slots(const ulid_sort_state *state)
{
	return (size_t) state->ways << state->slot_bits;
}

static inline int
table_bits(const ulid_sort_state *state)
{
	return state->slot_bits + pg_leftmost_one_pos32(state->ways);
}

/* The bits, its ways included, of the largest table the budget allows. */
static inline int
budget_bits(const ulid_sort_state *state)
{
	return state->max_slot_bits + pg_leftmost_one_pos32(state->ways);
}

/* Way w of slot i: the slot itself, then the others (where the table has them). */
static inline anchor *
way_of(const ulid_sort_state *state, size_t i, int w)
{
	return &state->anchors[i + w];
}

/* Whether the slot holds the active anchor of an id with these first 8 bytes. */
static inline bool
holds(const anchor *slot, uint64 high)
{
	return (slot->held ^ high) < (UINT64CONST(1) << PART_SHIFT);
}

/*
 * The first way of slot i whose anchor's first 8 bytes differ from an id's
 * in bits below limit alone, else the slot: the ways tested at once and the
 * match picked without a branch.  Which way holds the anchor of an id of
 * four loads at once is a toss of four, and a loop over the ways, which
 * stopped at the way, was mispredicted so: an ORDER BY of 1,000 such ids in
 * memory took 1.17 times uuid v4's time with it, 1.10 without (100,000 ids:
 * 1.09 and 1.04; medians of six rounds, the two builds taking turns), though
 * it took 1.4% fewer instructions.
 */
static inline anchor *
way_holding(const ulid_sort_state *state, size_t i, uint64 high, uint64 limit)
{
	anchor	   *slot = &state->anchors[i];
	uint32		match;

	if (state->ways == 1)
		return slot;
	StaticAssertStmt(ANCHOR_WAYS == 4, "the ways are tested four at once");
	match = (uint32) ((slot[0].held ^ high) < limit) |
		(uint32) ((slot[1].held ^ high) < limit) << 1 |
		(uint32) ((slot[2].held ^ high) < limit) << 2 |
		(uint32) ((slot[3].held ^ high) < limit) << 3;
	/* (no match: 4, masked to the slot) */
	return &slot[pg_rightmost_one_pos32(match | 16) & 3];
}

/* The way of slot i that holds the active anchor of an id's part (holds()). */
static inline anchor *
active_way(const ulid_sort_state *state, size_t i, uint64 high)
{
	return way_holding(state, i, high, UINT64CONST(1) << PART_SHIFT);
}

/* The way of slot i whose active anchor has an id's first 8 bytes. */
static inline const anchor *
way_of_active(const ulid_sort_state *state, size_t i, uint64 high)
{
	return way_holding(state, i, high, 1);
}

/*
 * Empties slot (or way) i of the table: it holds the first 8 bytes of an id
 * of a millisecond of another slot, which no id that looks into this one
 * has: 0, millisecond 0's, except in millisecond 0's own slot, slot 0 in
 * either layout, and its ways, which hold millisecond 1's (slot 1).  So a
 * table made zeroed has all its slots free once slot 0's ways are.
 */
static void
free_slot(ulid_sort_state *state, size_t i)
{
	memset(&state->anchors[i], 0, sizeof(anchor));
	if (i < (size_t) state->ways)
		state->anchors[i].held = UINT64CONST(1) << 16;
}

/*
 * An id's first 8 bytes less those of the window's first id: its
 * millisecond relative to the window (wrapped around 2^64 for an id before
 * it), then its first 16 random bits.
 */
static inline uint64
window_offset(const ulid_sort_state *state, uint64 high)
{
	return high - state->window_start;
}

/* Whether an id is in the window, by its window_offset(). */
static inline bool
within_window(uint64 offset)
{
	return offset < (UINT64CONST(1) << (KEY_TIME_BITS + 16));
}

/* The part of an anchor, from its keys (none for a free slot). */
static inline int64
anchor_part(const ulid_sort_state *state, const anchor *slot)
{
	return (int64) (((slot->lowest_near & ~WINDOW_KEYS) >> (KEY_RANDOM_BITS - PART_BITS)) +
					(state->window_start >> PART_SHIFT));
}

/* An anchor's own key, and its last 8 bytes (its key less the offset). */
static inline uint64
anchor_key(const anchor *slot)
{
	return (slot->lowest_near & ~PART_FIELD_MASK) | slot->field;
}

static inline uint64
anchor_low(const anchor *slot)
{
	return anchor_key(slot) - slot->key_offset;
}

/* The millisecond of an anchor's part. */
static inline int64
anchor_ms(const ulid_sort_state *state, const anchor *slot)
{
	return anchor_part(state, slot) >> PART_BITS;
}

/*
 * An anchor's first 8 bytes, active or latent: its part, and the top bits
 * of its plain field within the part, less the margin.
 */
static inline uint64
anchor_high(const ulid_sort_state *state, const anchor *slot)
{
	return (uint64) anchor_part(state, slot) << PART_SHIFT |
		(slot->field - PLAIN_FIELD_MARGIN) >> PLAIN_LOW_BITS;
}

/*
 * A millisecond's hash of this many bits: Fibonacci hashing, the top bits of
 * its product with 2^64 over the golden ratio, which spreads milliseconds at
 * regular intervals.
 */
static inline uint64
ms_hash(int64 unix_ms, int bits)
{
	return ((uint64) unix_ms * GOLDEN_RATIO_64) >> (64 - bits);
}

/*
 * A bitmap of parts (or of milliseconds), small enough to stay in the
 * cache, marked by a hash of the part (by their low bits, milliseconds at
 * regular intervals would share few bits).  A part that shares its bit
 * with one marked looks marked too.
 */
static inline uint64
ms_bit(int64 unix_ms)
{
	return ms_hash(unix_ms, MS_BITS_LOG2);
}

/*
 * The bitmaps of parts refused and denied are this one, with no bit set,
 * until a sort marks a part in one: then it takes a bitmap of its own
 * (writable_bitmap()).  Cleared for each sort that anchors, the two took 16
 * kB of the 28 kB an ORDER BY of 100 ids of four loads at once cleared, a
 * first-level cache miss for each 64 bytes, where most such sorts refuse no
 * part.
 */
static const uint64 no_part_marked[MS_BITS / 64];

static void *anchor_alloc_zero(ulid_sort_state *state, size_t size);

static pg_noinline void
own_bitmap(ulid_sort_state *state, const uint64 **bitmap)
{
	*bitmap = anchor_alloc_zero(state, MS_BITS / 8);
}

static inline uint64 *
writable_bitmap(ulid_sort_state *state, const uint64 **bitmap)
{
	if (unlikely(*bitmap == no_part_marked))
		own_bitmap(state, bitmap);
	return unconstify(uint64 *, *bitmap);
}

/*
 * The slot of sparse_parts that holds a part, or the free one it would take
 * (open addressing, linear probing: at most half the slots are taken).
 */
static size_t
sparse_part_slot(const ulid_sort_state *state, int64 part)
{
	size_t		i = ms_hash(part, SPARSE_PARTS_LOG2);

	while (state->sparse_parts[i] != 0 && state->sparse_parts[i] != part + 1)
		i = (i + 1) & ((1 << SPARSE_PARTS_LOG2) - 1);
	return i;
}

/* Whether a renewed sample refused a part (refuse_sparse_part()). */
static pg_noinline bool
refused_sparse(const ulid_sort_state *state, int64 part)
{
	return state->sparse_parts[sparse_part_slot(state, part)] != 0;
}

/*
 * Whether a part was refused an anchor: the bitmap marks parts, and the
 * parts renewed samples refused are kept apart (refuse_sparse_part()).
 */
static inline bool
is_refused(const ulid_sort_state *state, int64 part)
{
	uint64		bit = ms_bit(part);

	return (state->refused[bit / 64] & (UINT64CONST(1) << (bit % 64))) != 0 ||
		(state->sparse_count > 0 && refused_sparse(state, part));
}

/* Marks a part in a bitmap of the sort's own (taken here where it has none). */
static inline void
mark_part(ulid_sort_state *state, const uint64 **bitmap, int64 part)
{
	uint64		bit = ms_bit(part);

	writable_bitmap(state, bitmap)[bit / 64] |= UINT64CONST(1) << (bit % 64);
}

/* Marks a part refused in the bitmap. */
static inline void
mark_refused(ulid_sort_state *state, int64 part)
{
	mark_part(state, &state->refused, part);
}

/*
 * An id of the sample keyed plainly: where its part's bit of the bitmap is
 * set (refused, or another part refused that shares the bit), that bit must
 * stay set, for an anchor of the part made later would not keep clear of the
 * id's key.  restore_victims() makes the bitmap again without the parts it
 * gives their anchors back, and keeps these bits: where it did not, an id
 * whose part only shared its bit with a refused one kept its plain key, its
 * part got an anchor after the sample, and the ids between the two passed
 * it (1,000,000 ids of two loads a year apart, shuffled: 1 misplaced in
 * about 17 shuffles, and a merge join gave up, its input out of order).
 */
static inline void
note_denied(ulid_sort_state *state, int64 part)
{
	if (is_refused(state, part))
		mark_part(state, &state->denied, part);
}

/*
 * Refuses a part an anchor for good where a rebuild drops its latent anchor
 * out of reach: not recorded (the layout's own refusals filled the record at
 * shape 19 of make bench, and no anchor the sample gave up could go back),
 * but its bit kept as note_denied() keeps one.  The anchor's id had its
 * plain key; and the reach may widen after the rebuild: lay_out_anchors()
 * sets it for the table's ways, and again once the table gave them back.
 * Where restore_victims() made the bitmap again without the bit, the part,
 * within reach again, got a new anchor whose near keys passed the dropped
 * one's key (runs of about 3,500 a millisecond, 42 ms apart, shuffled,
 * work_mem at 4 MB: 1 to 3 ids of 677,162 misplaced; found by the sort
 * fuzzer, test/suites/sort_fuzz.sh).
 */
static inline void
refuse_out_of_reach(ulid_sort_state *state, int64 part)
{
	mark_refused(state, part);
	note_denied(state, part);	/* (refused now: its bit kept) */
}

/*
 * Refuses a part an anchor.  Until the sample's end, the part is recorded
 * too (the first REFUSALS_RECORDED, and how many in all), so that
 * restore_victims() can make the bitmap again without the parts it gives
 * their anchors back: a bit of the bitmap marks other parts too.
 */
static void
refuse(ulid_sort_state *state, int64 part)
{
	mark_refused(state, part);
	if (state->refusal_count < REFUSALS_RECORDED)
		state->refusals[state->refusal_count] = part;
	state->refusal_count++;
}

/* Whether a slot holds an anchor, and whether that anchor is active. */
static inline bool
is_anchor(const anchor *slot)
{
	return slot->lowest_near != 0;
}

static inline bool
is_active(const ulid_sort_state *state, const anchor *slot)
{
	return holds(slot, anchor_high(state, slot));
}

/*
 * A latent anchor is dropped, and its part refused an anchor for good: its
 * ids were keyed with their plain keys, which an anchor made later would
 * not keep clear of.
 */
static void
drop_latent(ulid_sort_state *state, anchor *slot)
{
	refuse(state, anchor_part(state, slot));
	free_slot(state, slot - state->anchors);
}

/* The bit of victim_bits that marks a part kept by keep_victim(). */
static inline uint64
victim_bit(int64 part)
{
	return UINT64CONST(1) << ms_hash(part, 6);
}

/*
 * A latent anchor given up, for another part's or for want of a way, in the
 * sample: kept as it was among the last VICTIMS, so that the next id of its
 * part, if near it, puts it back (restore_victim()), as if it had never
 * left, and so does the sample's end if none came (restore_victims()).  In
 * the small table of the sample's first ids two milliseconds often meet in
 * a slot before a run's second id comes: a run of 500 among 10,000 ids,
 * half one a millisecond a year older, lost its anchor so, and its ids tied
 * (1.13 times uuid v4's instructions to sort, 1.05 with it kept).  Kept
 * only early in the sample (VICTIMS_UNTIL) until it finds a run: ids one a
 * millisecond give up most of their latent anchors, and kept all through
 * the sample, a sort of 1,000 of them took about 2% more instructions than
 * with none kept past VICTIMS_UNTIL, 0.2% to 0.3% so (the refusals
 * recorded included).
 */
static pg_noinline void
keep_victim(ulid_sort_state *state, const anchor *slot, int64 part)
{
	int			i = state->victim_next;

	state->victims[i] = *slot;
	state->victim_tags[i] = part + 1;
	state->victim_bits |= victim_bit(part);
	state->victim_next = (i + 1) % VICTIMS;
}

/*
 * A latent anchor given up for the anchor of taker (a part, or -1): its
 * part is refused one, and kept a while unless another part of its
 * millisecond took its way.  (Those met ids at once: random ids, or bulk
 * loads at once, whose parts would take the ways back from each other.
 * Kept, a sort of 1,000 ids of ulid_generate_random() took 0.3% more
 * instructions, and four loads at once gained nothing.)
 */
static inline void
give_up_latent(ulid_sort_state *state, const anchor *slot, int64 taker)
{
	int64		part = anchor_part(state, slot);

	refuse(state, part);
	if (state->anchoring && state->sampled < ANCHOR_SAMPLE &&
		(state->sampled < VICTIMS_UNTIL || state->sampled_near > 0) &&
		(taker < 0 || part >> PART_BITS != taker >> PART_BITS))
		keep_victim(state, slot, part);
}

/*
 * The arenas: memory kept for the backend, for the refused bitmap and the
 * anchor tables of a sort.  Allocated with each sort and freed at its end,
 * they took a small sort's memory past glibc's trim threshold (128 kB): its
 * heap shrank at the end of each sort and grew again at the next, and an
 * ORDER BY of 1,000 ids in runs of 20 spent 23% of its time in the kernel
 * (1.36 times uuid v4's time, 1.02 times with an arena).  A sort takes a
 * free arena at its first id in the window, and gives it back when its
 * memory goes (a callback of its context: when the sort ends, for a query
 * at its node's end, or on an error; a cursor, or the query of a loop,
 * holds it as long as it is open).  ARENA_COUNT of them serve the sorts
 * open at once in a backend: the two of a merge join, those of a loop over
 * a query that sorts, and the sorts inside it (a loop's query and a merge
 * join inside the loop take 3); a sort past them takes its tables from its
 * own memory.  An arena costs nothing until a sort first takes it, 304 kB
 * (1.2 MB for the 4).  A sort's tables take its arena's bytes in turn, the
 * table a rebuild replaces included: the sample's, growing fourfold from
 * ANCHOR_MIN_SLOTS, take less than 4/3 of the largest it may have (where
 * it takes ways, the same bytes again at most, and as a rule those of a
 * small table: the ids of a millisecond meet early).  A table past what
 * is left (as a rule, a sort's tables once the sample is over, but small
 * ones laid out for a span) comes from the sort's memory.  (The callback
 * is the arena's, not in the sort's state, which anchor_table_rebuild()
 * copies and restores.)
 */
#define ARENA_BYTES		(sizeof(uint64) * (MS_BITS / 32) + sizeof(int64) * REFUSALS_RECORDED + \
						 (sizeof(int64) + sizeof(anchor)) * VICTIMS + \
						 2 * sizeof(anchor) * (1 << ANCHOR_SAMPLE_SLOT_BITS) + \
						 (size_t) PG_CACHE_LINE_SIZE * ARENA_TABLES + \
						 sizeof(pg_ulid) * (ANCHOR_SAMPLE + 1) + ANCHOR_SAMPLE + \
						 sizeof(uint16) * (2 << TWIN_MAX_BITS))
#define ARENA_COUNT		4
/* the sample's tables, each a cache line more (anchor_table_alloc()) */
#define ARENA_TABLES	8

typedef struct sort_arena
{
	char	   *memory;			/* ARENA_BYTES, made when first taken */
	bool		held;
	MemoryContextCallback release;
} sort_arena;

static sort_arena arenas[ARENA_COUNT];

static void
arena_give_back(void *arg)
{
	((sort_arena *) arg)->held = false;
}

static void
arena_take(ulid_sort_state *state)
{
	if (state->arena != NULL)
		return;
	for (int i = 0; i < ARENA_COUNT; i++)
	{
		sort_arena *arena = &arenas[i];

		if (arena->held)
			continue;
		if (arena->memory == NULL)
			arena->memory = MemoryContextAlloc(TopMemoryContext, ARENA_BYTES);
		arena->release.func = arena_give_back;
		arena->release.arg = arena;
		MemoryContextRegisterResetCallback(state->context, &arena->release);
		arena->held = true;
		state->arena = arena->memory;
		state->arena_next = arena->memory;
		return;
	}
}

/* size bytes from the sort's arena if it holds one and they fit */
static void *
anchor_alloc(ulid_sort_state *state, size_t size)
{
	void	   *memory;

	if (state->arena == NULL ||
		size > (size_t) (state->arena + ARENA_BYTES - state->arena_next))
		return MemoryContextAlloc(state->context, size);
	memory = state->arena_next;
	state->arena_next += size;
	return memory;
}

static void *
anchor_alloc_zero(ulid_sort_state *state, size_t size)
{
	return memset(anchor_alloc(state, size), 0, size);
}

/* Frees a table, but one in the arena: its bytes go back with the arena. */
static void
anchor_free(const ulid_sort_state *state, void *memory)
{
	uintptr_t	address = (uintptr_t) memory;

	if (state->arena == NULL || address < (uintptr_t) state->arena ||
		address >= (uintptr_t) state->arena + ARENA_BYTES)
		pfree(memory);
}

/* The first free way of slot i, or NULL. */
static anchor *
free_way(const ulid_sort_state *state, size_t i)
{
	for (int w = 0; w < state->ways; w++)
		if (!is_anchor(way_of(state, i, w)))
			return way_of(state, i, w);
	return NULL;
}

/*
 * The way of slot i that holds an anchor of a part, active or latent, else
 * its first free way (where ulid_abbrev_convert would make the part's
 * anchor), else NULL.  One walk of the ways: that way and free_way() in
 * turn took an ORDER BY of 100,000 ids of four loads at once, 5 a
 * millisecond each, 0.3% more instructions, ulid_abbrev_convert_anchoring()
 * looking up the way for the first two ids of each run.  (Not inlined:
 * most tables have no other way.)
 */
static pg_noinline anchor *
way_of_part_or_free(const ulid_sort_state *state, size_t i, int64 part)
{
	anchor	   *free = NULL;

	for (int w = 0; w < state->ways; w++)
	{
		anchor	   *slot = way_of(state, i, w);

		if (!is_anchor(slot))
			free = free != NULL ? free : slot;
		else if (anchor_part(state, slot) == part)
			return slot;
	}
	return free;
}

/*
 * The way of slot i a new anchor takes: a free one, else one that holds a
 * latent anchor; NULL where all hold active ones.  (The slot first, and the
 * rest not inlined: most tables have no other way.)
 */
static pg_noinline anchor *
other_way_for_anchor(const ulid_sort_state *state, size_t i)
{
	anchor	   *slot = free_way(state, i);

	for (int w = 0; slot == NULL && w < state->ways; w++)
		if (!is_active(state, way_of(state, i, w)))
			slot = way_of(state, i, w);
	return slot;
}

static inline anchor *
way_for_anchor(const ulid_sort_state *state, size_t i)
{
	anchor	   *slot = &state->anchors[i];

	if (!is_anchor(slot))
		return slot;
	if (state->ways == 1)
		return is_active(state, slot) ? NULL : slot;
	return other_way_for_anchor(state, i);
}

/*
 * Whether a part may still get an anchor, refused ones aside: while
 * anchoring lasts, one whose millisecond's span with the active anchors of
 * the table's span fits the largest table (any, while the sample lasts, and
 * where the anchors are scattered).  Since active anchors stay, and the
 * largest table only shrinks once the reach is set (anchor_table_take_ways();
 * lay_out_anchors() gives it its ways' slots back before), a part out of
 * reach stays so.
 */
static inline bool
within_reach(const ulid_sort_state *state, int64 part)
{
	return (uint64) ((part >> PART_BITS) - state->reach_from) < state->reach_count;
}

static void
set_reach(ulid_sort_state *state)
{
	int64		max_span = (int64) 1 << state->max_slot_bits;

	state->reach_from = state->highest_ms - max_span + 1;
	state->reach_count = (uint64) (2 * max_span - 1 - (state->highest_ms - state->lowest_ms));
}

/*
 * A table of this many slots, its ways included, zeroed, at a cache line's
 * start: a slot's four ways take two lines, the slot and its second way in
 * the first.  (From memory aligned to 16 bytes, a slot took three lines,
 * and a way two at times: an ORDER BY of 100,000 ids of four loads at once,
 * 5 a millisecond each, met 1.042 million first-level cache misses, 0.938
 * million aligned.)
 */
static void
anchor_table_alloc(ulid_sort_state *state, size_t slots)
{
	state->anchors_memory = anchor_alloc_zero(state, sizeof(anchor) * slots +
											  PG_CACHE_LINE_SIZE);
	state->anchors = (anchor *) TYPEALIGN(PG_CACHE_LINE_SIZE, state->anchors_memory);
}

/*
 * What the run_anchors point at until the sample's converter of runs keys an
 * id near an anchor, and once the table moved: not a slot of the table.  A
 * latent anchor or a free slot holds its slot's free mark, and slot 0's is
 * the first 8 bytes of ids of millisecond 1, which look into another slot:
 * pointed at slot 0, the converter took such an id, outside the window, for
 * near slot 0's latent anchor, and gave it a key in the window.  This one,
 * zeroed, holds the first 8 bytes of ids of millisecond 0, which no window
 * holds (window_start is millisecond 1 at least), and no id is near it but
 * a copy of its anchor (last 8 bytes 0), which sample_runs_key() hands on
 * to sample_runs_missed(), which keys an id outside the window first.
 */
static const anchor no_run_anchor;

/*
 * Points the run_anchors in use (the first, or all where kept by part) at
 * no_run_anchor: none of them is then left in a table moved, nor unset.
 */
static void
run_anchors_reset(ulid_sort_state *state)
{
	int			in_use = state->runs_by_part ? RUN_ANCHORS : 1;

	for (int k = 0; k < in_use; k++)
		state->run_anchors[k] = (run_anchor) {&no_run_anchor, false};
}

/*
 * A new table of 2^slot_bits slots, its milliseconds hashed or not, with
 * ways (1 a slot, or ANCHOR_WAYS), holding the anchors of the old one; a
 * latent one is dropped where its slot's ways are taken, or out of reach
 * (within_reach(): it could not become active), or given up for an active
 * one (in one pass: two, the active anchors first, took a
 * sort of 1,000 ids 5 random ones a millisecond 0.8% more instructions).
 * A table that only grows keeps milliseconds in different slots apart
 * (hashed, its blocks split: slot_index()).  Returns false, and keeps the
 * old table (refused parts aside), where an active anchor would find its
 * slot's ways taken by active ones.
 */
static bool
anchor_table_rebuild(ulid_sort_state *state, int slot_bits, bool hashed, int ways)
{
	ulid_sort_state old = *state;
	size_t		old_slots = old.anchors ? table_slots(&old) : 0;

	/* zeroed, all its slots are free once slot 0's ways are */
	anchor_table_alloc(state, (size_t) ways << slot_bits);
	state->slot_bits = slot_bits;
	state->ways = ways;
	for (int w = 0; w < ways; w++)
		free_slot(state, way_of(state, 0, w) - state->anchors);
	state->slot_mask = ((uint64) 1 << slot_bits) - 1;
	state->way_bits = pg_leftmost_one_pos32(ways);
	/* (the first 8 bytes >> 16: the millisecond) */
	state->entry_shift = PART_SHIFT + PART_BITS - state->way_bits;
	state->entry_mask = state->slot_mask << state->way_bits;
	state->slot_factor = hashed ? GOLDEN_RATIO_64 : 1;
	state->slot_shift = hashed ? 64 - (slot_bits - ANCHOR_BLOCK_BITS) : 0;
	state->turn_shift = hashed ? ANCHOR_TURN_SHIFT : 63;	/* (63: by 0) */
	for (size_t i = 0; i < old_slots; i++)
	{
		const anchor *moved = &old.anchors[i];
		int64		part;
		size_t		to;
		bool		active;
		anchor	   *slot;
		uint64		free_mark;

		if (!is_anchor(moved))
			continue;
		part = anchor_part(state, moved);
		to = slot_index(state, part);
		active = is_active(state, moved);
		slot = active ? way_for_anchor(state, to) :
			within_reach(state, part) ? free_way(state, to) : NULL;
		if (slot == NULL && active)
		{
			anchor_free(state, state->anchors_memory);
			*state = old;
			return false;
		}
		if (slot == NULL && !within_reach(state, part))
		{
			refuse_out_of_reach(state, part);
			continue;
		}
		if (slot == NULL)
		{
			give_up_latent(state, moved, -1);
			continue;
		}
		if (is_anchor(slot))	/* latent, given up for the active one */
			give_up_latent(state, slot, part);
		free_mark = slot->held;
		*slot = *moved;
		if (!active)
			slot->held = free_mark;
	}
	if (old.anchors)
		anchor_free(state, old.anchors_memory);
	run_anchors_reset(state);
	return true;
}

/* The slot bits of a hashed table grown fourfold, to cap bits at most. */
static inline int
fourfold_slot_bits(const ulid_sort_state *state, int cap)
{
	return state->slot_bits + Min(2, cap - table_bits(state));
}

/*
 * Whether the sample's active anchors, one at least, span at most half the
 * milliseconds of its table: the hash of consecutive blocks spreads them
 * over its blocks without a collision as a rule (none in 20,000 spans of
 * 33 blocks drawn at random in a table of 64 blocks; one collision in one
 * span of 9 blocks in 16, about), so the table need not grow for them at
 * an eighth (below; a part that finds another millisecond's active anchor
 * in its slot still grows it, place_anchor_grown()).  Grown so all the
 * same, the table of a sort of 1,000 ids 5 a millisecond (200
 * milliseconds, 200 anchors) grew to 4,096 slots, 128 kB cleared: its
 * ORDER BY met 9,074 first-level misses (cachegrind; uuid v4's 5,281),
 * 6,317 so, with 1.1% fewer instructions.
 */
static inline bool
sample_runs_compact(const ulid_sort_state *state)
{
	return state->sampled < ANCHOR_SAMPLE && state->active_count > 0 &&
		2 * (state->sampled_highest_ms - state->sampled_lowest_ms + 1) <=
		((int64) 1 << state->slot_bits);
}

/*
 * Whether fewer than one in LATENT_SHARE of the anchors the sample made are
 * active: the others are latent, as a rule those of ids alone in their
 * millisecond.  Where its runs are compact (sample_runs_compact()), its
 * table grows only for a part that meets another millisecond's active anchor
 * in its slot (place_anchor_grown()), and such ids give up one another's
 * latent anchors as they collide: of 1,000 ids, half 500 a millisecond, half
 * one a millisecond a year before, shuffled, 2 in 5 of those alone did, in
 * 64 then 256 slots.  Grown for them at an eighth too, up to
 * 2^ANCHOR_LATENT_SLOT_BITS slots (32 kB), its ORDER BY took 3.4% fewer
 * instructions and 6% less time (6,365 first-level misses, 6,259 before); up
 * to 4,096 slots, 2.5% fewer instructions and 9,184 misses; up to 256, none
 * fewer.  5 a millisecond, shuffled, grows so early in the sample, where few
 * of its milliseconds met their second id yet: 0.2% fewer instructions, 3%
 * fewer misses.
 */
static inline bool
sample_latent_crowded(const ulid_sort_state *state)
{
	return !state->scattered &&
		state->anchors_made > LATENT_SHARE * state->active_count;
}

/*
 * Makes room for an anchor of a part, within reach.  A table laid out for a
 * span is rebuilt with twice as many slots as the milliseconds of the
 * active anchors and of the part would span (at most 2^max_slot_bits).
 * The sample's table, hashed, starts at ANCHOR_MIN_SLOTS and grows fourfold
 * once an eighth as many parts as it has slots (its ways included) got
 * anchors, but where its runs are compact (sample_runs_compact()) and one
 * anchor in 8 or more is active (else up to 2^ANCHOR_LATENT_SLOT_BITS:
 * sample_latent_crowded()), or
 * sooner for a part whose slot holds another millisecond's active anchor
 * (place_anchor_grown()) (doubling, an ORDER BY of 100 ids one per
 * millisecond took 3% more instructions: a rebuild more, and memory to
 * clear), up to 2^ANCHOR_NO_RUN_SLOT_BITS until an id near an anchor
 * came, and
 * 2^ANCHOR_SAMPLE_SLOT_BITS after (larger, ids one per millisecond, or
 * random within it, would only make it too big for the cache).  Made at
 * that size from the start, it cost small sorts more than the sort: an
 * ORDER BY of 100 ids took 29 to 30 microseconds, 11 for uuid (now 11 for
 * runs, 12.6 for ids one per millisecond); of 1,000 ids one per
 * millisecond, growing to the largest size, 143 against 61 (now 73).
 * The table of scattered anchors (lay_out_anchors()) goes on growing so
 * after the sample (its last step may double it), up to the largest, once a
 * sixteenth as many parts as it has slots got anchors; it may take ways
 * then too, with a fourth of its slots (anchor_table_take_ways()).  Made
 * the largest at once (4 MB
 * where work_mem is 16 MB or more), its memory, cleared and faulted in for
 * each sort, cost sorts of a few thousand ids more than the sort: a merge
 * join of 10,000 ids in batches of 100 over a year took 10.1 to 11.0 ms
 * with work_mem at 2 GB, 4.6 to 4.7 growing (uuid v4: 4.8 to 5.2).  Grown,
 * some runs of a large table find their slot taken while it is small:
 * growing at an eighth, sorts of 1,000,000 such ids took 0.8% more
 * instructions, at a sixteenth 0.4% (batches at random times 0.95%).
 * anchor_table_grown_bits() gives the new table's slot bits, or 0 where the
 * table has room (or may grow no more).
 */
static inline int
anchor_table_grown_bits(const ulid_sort_state *state, int64 part)
{
	int64		span;
	int64		unix_ms = part >> PART_BITS;

	if (state->slot_factor != 1)
	{
		int			cap = state->scattered ? budget_bits(state) : state->sample_slot_bits;
		size_t		slots_an_anchor = state->scattered ? 16 : 8;

		if (table_bits(state) >= cap ||
			(size_t) state->anchors_made < table_slots(state) / slots_an_anchor)
			return 0;
		if (!sample_runs_compact(state))
			return fourfold_slot_bits(state, cap);
		if (sample_latent_crowded(state) && table_bits(state) < ANCHOR_LATENT_SLOT_BITS)
			return fourfold_slot_bits(state, Min(cap, ANCHOR_LATENT_SLOT_BITS));
		return 0;
	}
	span = Max(state->highest_ms, unix_ms) - Min(state->lowest_ms, unix_ms) + 1;
	if (span > ((int64) 1 << state->slot_bits) && state->slot_bits < state->max_slot_bits)
		return Min((int) pg_ceil_log2_64((uint64) (2 * span)), state->max_slot_bits);
	return 0;
}

static inline void
anchor_table_make_room(ulid_sort_state *state, int64 part)
{
	int			slot_bits = anchor_table_grown_bits(state, part);

	if (slot_bits > 0)
		anchor_table_rebuild(state, slot_bits, state->slot_factor != 1, state->ways);
}

/*
 * The plain key of an id of the window, from its window_offset() and its
 * last 8 bytes: WINDOW_KEYS, its millisecond relative to the window in
 * KEY_TIME_BITS, then its plain field: its part (the top 6 of its 80 random
 * bits) and, 2^14 above its part's lowest key, the next 15 (10 of its first
 * 8 bytes and 5 of its last 8).  The margin of 2^14 keys at either edge of
 * the part leaves an anchor room for the near keys of a run of that many ids
 * on either side: with a field of the top 22 bits, an anchor whose bits
 * below its part were all ones (or zeros) had none above (or below) it, and
 * its run's ids all tied with it (the 10,000 ids of two such runs of 5,000
 * took 2.2 times the instructions of two runs elsewhere in their part).
 * It costs 3 instructions an id (ids one per millisecond: +0.2%).
 */
static inline uint64
plain_key(uint64 offset, uint64 low)
{
	uint64		bits = offset << PLAIN_LOW_BITS | low >> (64 - PLAIN_LOW_BITS);

	/* the bits above those in the part doubled: shifted up by one */
	return (WINDOW_KEYS + PLAIN_FIELD_MARGIN) + bits +
		(bits & ~((UINT64CONST(1) << PLAIN_BITS_IN_PART) - 1));
}

/*
 * A latent anchor for slot, from the plain key and the last 8 bytes of its
 * id: near ids up to NEAR_ANCHOR on either side, as long as their keys keep
 * the anchor's part and their last 8 bytes do not wrap around 2^64.
 */
static void
anchor_set(anchor *slot, uint64 plain, uint64 low)
{
	uint64		field = plain & PART_FIELD_MASK;
	uint64		below = Min(Min(NEAR_ANCHOR, field), low);
	uint64		above = Min(Min(NEAR_ANCHOR, PART_FIELD_MASK - field), PG_UINT64_MAX - low);

	slot->key_offset = plain - low;
	slot->lowest_near = plain - below;
	slot->near_width = (uint32) (below + above);
	slot->field = (uint32) field;
}

/*
 * The part of a window key, relative to the window, with WINDOW_KEYS' bit:
 * the keys of a part's ids, and its anchor's lowest near key, share it, a
 * free slot's (0) is no part's.  (Compared so, not by anchor_part(), a sort
 * of 1,000 ids one per millisecond took 1% fewer instructions.)
 */
static inline uint64
key_part(uint64 key)
{
	return key >> (KEY_RANDOM_BITS - PART_BITS);
}

/* Whether a slot holds an anchor of the part of an id with this plain key. */
static inline bool
holds_part(const anchor *slot, uint64 plain)
{
	return key_part(slot->lowest_near) == key_part(plain);
}

/* The anchor of a part, of an id with this plain key, or NULL. */
static inline anchor *
anchor_of(ulid_sort_state *state, int64 part, uint64 plain)
{
	anchor	   *slot;
	size_t		i;

	if (state->anchors == NULL)
	{
		arena_take(state);
		state->refused = no_part_marked;
		state->denied = no_part_marked;
		state->refusals = anchor_alloc(state, sizeof(int64) * REFUSALS_RECORDED);
		state->victim_tags = anchor_alloc_zero(state, sizeof(int64) * VICTIMS);
		state->victims = anchor_alloc(state, sizeof(anchor) * VICTIMS);
		anchor_table_rebuild(state, pg_leftmost_one_pos32(ANCHOR_MIN_SLOTS), true, 1);
	}
	i = slot_index(state, part);
	slot = &state->anchors[i];
	if (holds_part(slot, plain))
		return slot;
	if (state->ways == 1)
		return NULL;
	/* the other ways of a slot lie side by side */
	slot = way_of(state, i, 1);
	for (int w = 1; w < state->ways; w++, slot++)
		if (holds_part(slot, plain))
		{
			state->other_way_ids++;
			return slot;
		}
	return NULL;
}

/*
 * The table takes ways (above), its slots as they are (but the sample's and
 * a table of scattered anchors, below), where the budget allows four times
 * their bytes: the largest table it may grow to has a
 * fourth of the slots from then on (which still spans the active anchors:
 * the table spans them).  Else the part is refused an anchor, as before.
 * The sample's table keeps to its bytes, sample_slot_bits, with a fourth of
 * its slots if need be: those of 4 slots share one (blocks of a table a
 * fourth the size, slot_index()), and with one anchor each, fit its ways.
 * So does a table of scattered anchors after the sample, for another
 * millisecond's part or its own, with a fourth of its slots (but
 * ANCHOR_MIN_SLOTS: a block of the hash has 16): it grows with its anchors
 * up to the largest (at which it had no bytes for ways before), and the
 * table of ways grows as it would have.  (Its ids of new milliseconds
 * then go to the first converter, not anchor_in_place(), which takes a
 * table of one way.)
 * (Four times the bytes of the largest, 512 kB, left its arena: an ORDER BY
 * of 1,000 ids, 5 random ones a millisecond, took 70% more instructions,
 * 1.0 million of them clearing memory.)
 */
static bool
anchor_table_take_ways(ulid_sort_state *state)
{
	int			ways_bits = pg_leftmost_one_pos32(ANCHOR_WAYS);
	int			slot_bits = state->slot_bits;

	if (state->sampled < ANCHOR_SAMPLE)
		slot_bits = Min(slot_bits, state->sample_slot_bits - ways_bits);
	else if (state->scattered)
		slot_bits = Max(slot_bits - ways_bits, pg_leftmost_one_pos32(ANCHOR_MIN_SLOTS));
	if (slot_bits + ways_bits > state->max_slot_bits)
		return false;
	anchor_table_rebuild(state, slot_bits, state->slot_factor != 1, ANCHOR_WAYS);
	state->max_slot_bits -= ways_bits;
	state->sample_slot_bits = Min(state->sample_slot_bits, state->max_slot_bits);
	if (state->anchoring && state->reach_count != PG_UINT64_MAX)
		set_reach(state);
	return true;
}

/*
 * Whether a part whose slot holds another millisecond's anchor takes ways.
 * Else it is refused an anchor, or takes a latent one's slot, as before.
 *
 * In the sample's table: once the sample met a run, where the table may not
 * grow (at sample_slot_bits), with an anchor made for every 16 slots or
 * more, and an active one for every 16 made.  (Taken at any collision, a
 * sort of 10,000 ids in two loads a year apart took 1.1% more
 * instructions: where victims (keep_victim()) kept its anchors, half its
 * ids went to the other ways; 10,000 ids half in runs, half one a
 * millisecond a year before them, 1.4% more: a rebuild for anchors that
 * never become active.)  At an anchor for every 32 slots while the runs
 * found have few ids each (fewer than 4 of the sample's ids near each
 * active anchor): those are batches, many more of which come (at 16,
 * 100,000 ids in batches of 100 over a year lost 11 anchors between the
 * sample's 137th id and its 267th, 133 to 242 anchors in 4,096 slots, and
 * their ids tied), where a bulk load's runs, with many ids each, are all
 * met by then.
 *
 * After the sample: in a table of scattered anchors, where that anchor is
 * active (anchor_table_take_ways() keeps the table's bytes).  Batches at
 * random times over a year lost their anchors to other batches' active
 * ones as the table filled, and their ids tied (1,000,000 ids in batches
 * of 100: 3.2% of an ORDER BY's instructions).  Not where it is latent (the
 * part takes its slot): batches at regular intervals, which the table's
 * hash spreads without a collision of active anchors, took 0.4% more
 * instructions with ways taken for those.
 */
static inline bool
ways_for_other_ms(const ulid_sort_state *state, const anchor *slot)
{
	size_t		slots_an_anchor;

	if (state->sampled >= ANCHOR_SAMPLE)
		return state->scattered && is_active(state, slot);
	if (state->sampled_near == 0 ||
		table_bits(state) < state->sample_slot_bits ||
		state->active_count * 16 < state->anchors_made)
		return false;
	slots_an_anchor = state->sampled_near < 4 * state->active_count ? 32 : 16;
	return (size_t) state->anchors_made * slots_an_anchor >= table_slots(state);
}

/*
 * The slot for a new anchor of a part: a free way of its millisecond's
 * slot, else one with another part's latent anchor, given up; or NULL where
 * the ways all hold active anchors.
 */
static pg_attribute_always_inline anchor *
place_anchor(ulid_sort_state *state, int64 part)
{
	anchor	   *slot;
	size_t		i;

	anchor_table_make_room(state, part);
	i = slot_index(state, part);
	slot = &state->anchors[i];
	/* another part of its millisecond, or another millisecond, has the slot */
	if (state->ways == 1 && is_anchor(slot) &&
		(anchor_ms(state, slot) == part >> PART_BITS ||
		 ways_for_other_ms(state, slot)) &&
		anchor_table_take_ways(state))
		i = slot_index(state, part);	/* (it may have fewer slots) */
	slot = way_for_anchor(state, i);
	/*
	 * A latent anchor is dropped as drop_latent() would, but the slot is set
	 * by the caller and keeps its free mark: clearing it first cost a sort
	 * of 1,000 ids one per millisecond 0.8% of its instructions.
	 */
	if (slot != NULL && is_anchor(slot))
		give_up_latent(state, slot, part);
	return slot;
}

/*
 * The slot for a new anchor of a part that place_anchor() found none for,
 * in the sample's table grown (fourfold, up to sample_slot_bits) until
 * another millisecond's active anchor no longer has the part's slot; or
 * NULL where it may not grow, or grew in vain.  In a small table the
 * milliseconds of runs apart often share a slot: the 64 slots of the
 * sample's first table are 4 blocks of 16, and where the blocks of two
 * loads a year apart share theirs, each of the one load's milliseconds
 * shares its slot with one of the other's.  A part that found the other's
 * active anchor in its slot was refused an anchor for good, and its run's
 * ids tied: 10,000 ids of two such loads took 1.079 times uuid v4's
 * instructions to sort, 1.003 with the table grown.  (Not inlined, and
 * called only where place_anchor() found no slot: tested in place_anchor()
 * for every new anchor, it cost sorts of 1,000 ids one a millisecond 0.4%
 * to 0.5% more instructions.)
 */
static pg_noinline anchor *
place_anchor_grown(ulid_sort_state *state, int64 part)
{
	const anchor *slot = &state->anchors[slot_index(state, part)];
	bool		grown = false;

	while (state->ways == 1 && table_bits(state) < state->sample_slot_bits &&
		   is_anchor(slot) && is_active(state, slot) &&
		   anchor_ms(state, slot) != part >> PART_BITS &&
		   anchor_table_rebuild(state, fourfold_slot_bits(state, state->sample_slot_bits),
								true, 1))
	{
		grown = true;
		slot = &state->anchors[slot_index(state, part)];
	}
	return grown ? place_anchor(state, part) : NULL;
}

/*
 * While anchoring lasts, an id of a part without anchor becomes its latent
 * anchor (its key, the plain key given, is that of an id near it), unless
 * the part is out of reach of the active anchors (or refused one), in the
 * slot place_anchor() finds (or place_anchor_grown(), in the sample); a
 * part whose ways all hold active anchors is refused one.  Out of reach, it
 * stays so.  Returns the anchor, or NULL.  (Inlined in its two callers:
 * called from them, an ORDER BY of 1,000 ids, half 500 a millisecond, half
 * one a millisecond a year before them, shuffled, took 0.64% more
 * instructions.)
 */
static pg_attribute_always_inline anchor *
make_anchor(ulid_sort_state *state, int64 part, uint64 plain, uint64 low)
{
	anchor	   *slot;

	if (!state->anchoring || is_refused(state, part) ||
		!within_reach(state, part))
		return NULL;
	slot = place_anchor(state, part);
	if (slot == NULL && state->sampled < ANCHOR_SAMPLE)
		slot = place_anchor_grown(state, part);
	if (slot == NULL)
	{
		refuse(state, part);
		return NULL;
	}
	anchor_set(slot, plain, low);
	state->anchors_made++;
	return slot;
}

/* Whether a part's millisecond is within the span of the active anchors. */
static inline bool
within_span(const ulid_sort_state *state, int64 part)
{
	return part >> PART_BITS >= state->lowest_ms &&
		part >> PART_BITS <= state->highest_ms;
}

/* An anchor active, for good: its slot holds its first 8 bytes. */
static inline void
make_active(ulid_sort_state *state, anchor *slot, uint64 owner)
{
	slot->held = owner;
	state->active_count++;
}

/*
 * A latent anchor becomes active, or is dropped where its part is out of
 * reach of the active anchors.  Returns its slot, which moves when the
 * table grows to take it, or NULL.
 */
static anchor *
activate(ulid_sort_state *state, anchor *slot, uint64 owner)
{
	int64		part = (int64) (owner >> PART_SHIFT);

	if (!within_reach(state, part))
	{
		drop_latent(state, slot);
		return NULL;
	}
	make_active(state, slot, owner);
	if (state->sampled < ANCHOR_SAMPLE)
	{
		int64		ms = part >> PART_BITS;

		state->sampled_lowest_ms = state->active_count == 1 ? ms :
			Min(state->sampled_lowest_ms, ms);
		state->sampled_highest_ms = state->active_count == 1 ? ms :
			Max(state->sampled_highest_ms, ms);
		return slot;
	}
	if (state->scattered)
		return slot;
	/*
	 * Within the span of the active anchors, the reach and the table stay
	 * as they are (a rebuild that failed is tried again by the next anchor
	 * made, or as the span grows).  Redone for each anchor, they took 0.7%
	 * of an ORDER BY of 100,000 ids 5 a millisecond.
	 */
	if (within_span(state, part))
		return slot;
	state->lowest_ms = Min(state->lowest_ms, part >> PART_BITS);
	state->highest_ms = Max(state->highest_ms, part >> PART_BITS);
	set_reach(state);
	anchor_table_make_room(state, part);
	return active_way(state, slot_index(state, part), owner);
}

/*
 * 1 if the id is above the anchor with these first 8 bytes, else 0, without
 * a branch: for ids random within their millisecond it is a coin toss, and
 * mispredicted half the time it cost ulid_generate_random() ids 1.5% of an
 * ORDER BY.
 */
static inline uint64
above_anchor(const anchor *slot, uint64 anchor_high, uint64 high, uint64 low)
{
	uint64		anchor_last = anchor_low(slot);

#ifdef PG_INT128_TYPE
	return (uint64) ((((uint128) high << 64) | low) > (((uint128) anchor_high << 64) | anchor_last));
#else
	return (uint64) (high > anchor_high) |
		((uint64) (high == anchor_high) & (uint64) (low > anchor_last));
#endif
}

/*
 * The key of an id near an anchor with these first 8 bytes, and whether the
 * id is near it.
 */
static inline uint64
near_key(const anchor *slot, uint64 low)
{
	return low + slot->key_offset;
}

static inline bool
is_near_key(const anchor *slot, uint64 key)
{
	return key - slot->lowest_near <= slot->near_width;
}

/* A latent anchor kept by keep_victim() back in a slot, with its free mark. */
static void
put_back(anchor *slot, const anchor *kept)
{
	uint64		free_mark = slot->held;

	*slot = *kept;
	slot->held = free_mark;
}

/*
 * The latent anchor keep_victim() kept for a refused part, back in the
 * table as it was, while the sample lasts; or NULL.  (Anchoring lasts as
 * long: at the sample's end, restore_victims() puts back those kept where
 * the table is laid out for runs, and the others are dropped.)  An id of
 * the part takes its anchor out of the kept ones, near it or not.
 */
static pg_noinline anchor *
restore_victim(ulid_sort_state *state, int64 part, uint64 high, uint64 low)
{
	anchor	   *slot;
	anchor		kept;
	uint64		bits = 0;
	int			k;

	Assert(state->anchoring);
	if (!within_reach(state, part))
		return NULL;
	for (k = 0; k < VICTIMS && state->victim_tags[k] != part + 1; k++)
		;
	if (k == VICTIMS)
		return NULL;
	kept = state->victims[k];
	state->victim_tags[k] = 0;
	for (int j = 0; j < VICTIMS; j++)
		if (state->victim_tags[j] != 0)
			bits |= victim_bit(state->victim_tags[j] - 1);
	state->victim_bits = bits;
	/* an id far from it keeps its plain key, which near keys could pass */
	if (high != anchor_high(state, &kept) ||
		!is_near_key(&kept, near_key(&kept, low)))
		return NULL;
	slot = place_anchor(state, part);
	if (slot != NULL)
		put_back(slot, &kept);
	return slot;
}

/* Whether the table holds an anchor of a part, active or latent. */
static bool
holds_anchor_of(const ulid_sort_state *state, int64 part)
{
	const anchor *slot = way_of_part_or_free(state, slot_index(state, part), part);

	return slot != NULL && is_anchor(slot);
}

/*
 * The latent anchors kept by keep_victim() at the sample's end, back in the
 * table lay_out_anchors() made, in a free way of their slot, where they are
 * within its reach: no id of their part came since they were given up (it
 * would have taken its anchor out of the kept ones), so their ids have their
 * plain keys, which their ranges of near keys leave out, as when they were
 * given up.  Their parts are no longer refused: the bitmap is made again
 * from the parts the sample refused (a bit of it marks other parts too), but
 * those that hold anchors now (and those restore_victim() put back), with
 * the bits note_denied() and refuse_out_of_reach() kept.  Where
 * the sample refused more parts than it recorded, none is put back.
 *
 * In the first small tables of the sample, the milliseconds of runs meet in
 * a slot before a run's second id comes, and at 1,000,000 ids 500 a
 * millisecond (2,000 of them: about one id of each in the sample), the
 * second comes after the sample as a rule: 10 of the 2,000 runs lost their
 * anchor so, and their 5,000 ids tied (9 M instructions of an ORDER BY).
 */
static void
restore_victims(ulid_sort_state *state)
{
	uint64	   *refused;

	if (state->refusal_count > REFUSALS_RECORDED)
		return;
	for (int k = 0; k < VICTIMS; k++)
	{
		int64		part = state->victim_tags[k] - 1;
		anchor	   *slot;

		if (part < 0 || !within_reach(state, part))
			continue;
		slot = free_way(state, slot_index(state, part));
		if (slot == NULL)
			continue;
		put_back(slot, &state->victims[k]);
		state->victims_put_back++;
	}
	if (state->victims_put_back == 0)
		return;
	refused = writable_bitmap(state, &state->refused);
	memset(refused, 0, MS_BITS / 8);
	for (int r = 0; r < state->refusal_count; r++)
		if (!holds_anchor_of(state, state->refusals[r]))
			mark_refused(state, state->refusals[r]);
	for (int w = 0; w < MS_BITS / 64; w++)
		refused[w] |= state->denied[w];
}

/*
 * Whether an id is near the active anchor of its slot (it has the anchor's
 * first 8 bytes), and its key if it is.
 */
static inline bool
near_active_anchor(const anchor *slot, uint64 high, uint64 low, uint64 *key)
{
	*key = near_key(slot, low);
	return high == slot->held && is_near_key(slot, *key);
}

/*
 * The key of an id of the anchor's part that is not near it: its
 * plain key, at most the lowest near key below the anchor, at least the
 * highest above it.
 */
static inline uint64
far_key(const anchor *slot, uint64 plain, uint64 above)
{
	uint64		highest = slot->lowest_near + slot->near_width;
	uint64		mask = -above;	/* picked without a branch (above_anchor) */

	return (Max(plain, highest) & mask) | (Min(plain, slot->lowest_near) & ~mask);
}

/*
 * The key of an id of the part of an active anchor, not near it.  Not
 * inlined: inlined, it cost the leaner converter's path for the ids near
 * the anchor 2 instructions an id of a run (registers saved for it).
 */
static pg_noinline uint64
far_from_active_anchor(const ulid_sort_state *state, const anchor *slot,
					   uint64 high, uint64 low)
{
	return far_key(slot, plain_key(window_offset(state, high), low),
				   above_anchor(slot, slot->held, high, low));
}

/*
 * The key of an id that catch_up() hands over near a latent anchor (with its
 * first 8 bytes, not a copy of it): an id kept near its twin
 * (kept_near_twin()), or one whose twin the twins' table lost (another id
 * took its slot).  It had its plain key, which is the anchor's own as a rule
 * (the ids share their plain field but where the run crosses a multiple of
 * 2^59).  The anchor stays latent, moved up to the id where the id is above
 * it, and its near keys start at its own: the ids of the run up to it (these
 * two among them) key as its own key, tied, those above it by their distance.
 * Where the id is below it and its near keys still reach below its own, it
 * moves down to the id instead, and its near keys end at its own: the ids of
 * a run in descending order, kept (a pair the other way round in a row,
 * kept_near_twin()), key as their anchor, tied, and those after them below by
 * their distance (moved up, the run tied whole: 1,000 ids, 100 shuffled over
 * 20 milliseconds, then 900 in descending order, 1.26 times the instructions
 * of the run kept live, 1.10 times core's functions').  Either way every id
 * kept keys as the anchor now does, its own plain key, and its near keys stay
 * within last 8 bytes 0 to 2^64 - 1, as anchor_set() keeps them (an anchor
 * moved down from 5 to 4 kept 5 near keys below, and an id of last 8 bytes
 * all ones took the lowest of them; moved up from 2^64 - 3 to 2^64 - 2, an id
 * of last 8 bytes 0 took the highest: misplaced).  Where the plain keys
 * differ, the anchor is dropped and its part refused, and the ids of its run
 * tie.  (Dropped in every case, a run of 14,000 ids in a millisecond with an
 * id of another part, shuffled among 14,000 ids one a millisecond, tied whole
 * where the id of the other part took the run's slot in the twins' table: its
 * ORDER BY took 2.06 times uuid v4's instructions, 1.87 so, the ids below the
 * moved anchor tied.)  Counted as a near hit where the id was kept apart from
 * its twin (kept_near_twin()), whose anchor becomes active once the sample
 * took all the ids kept (activate_replayed(): active at once, it would key
 * the chain's next id apart from its plain key), or kept in a row from its
 * run's DEFERRED_CHAIN-th id on, whose anchor becomes active at the run's
 * last id kept (sample_deferred()); else not (an anchor whose twin was lost,
 * or a run's first ids kept in a row, which wait for the next id of the run).
 */
static uint64
replayed_near_latent(ulid_sort_state *state, anchor *slot, uint64 high,
					 uint64 low)
{
	uint64		key = plain_key(window_offset(state, high), low);
	uint64		highest = slot->lowest_near + slot->near_width;

	if (key != anchor_key(slot))
	{
		drop_latent(state, slot);
		state->last_anchor = NULL;
		return key;
	}
	if (low < anchor_low(slot) && slot->lowest_near < key)
	{
		uint64		below = Min(key - slot->lowest_near, low);

		slot->key_offset = key - low;
		slot->lowest_near = key - below;
		slot->near_width = (uint32) below;
		return key;
	}
	if (low > anchor_low(slot))
		slot->key_offset = key - low;
	slot->lowest_near = key;
	slot->near_width = (uint32) Min(highest - key, PG_UINT64_MAX - anchor_low(slot));
	return key;
}

/*
 * The key of an id of the part of an anchor, active or latent, while
 * the table may change.  An id near a latent anchor that is not a copy of it
 * makes it active (as catch_up() hands the ids kept over, see
 * replayed_near_latent()); an id far from it, keyed with its plain key,
 * narrows its range of near keys to leave that key out.  *near_hit says
 * whether the id was near the anchor and not a copy of it, and counts for
 * the sample.
 */
static uint64
key_while_anchoring(ulid_sort_state *state, uint64 high, uint64 low,
					bool *near_hit)
{
	anchor	   *slot = state->last_anchor;
	uint64		owner;
	uint64		key = near_key(slot, low);
	uint64		plain;
	uint64		above;

	/* an id of a run near its active anchor first, which holds its bytes */
	if (high == slot->held && is_near_key(slot, key))
	{
		*near_hit = low != anchor_low(slot);
		return key;
	}
	*near_hit = false;
	owner = anchor_high(state, slot);
	if (high == owner && is_near_key(slot, key))
	{
		if (low != anchor_low(slot) && slot->held != owner)
		{
			/* (all anchors are latent then) */
			if (state->catching_up)
			{
				key = replayed_near_latent(state, slot, high, low);
				*near_hit = state->replaying_counted && state->last_anchor != NULL;
				return key;
			}
			state->last_anchor = activate(state, slot, owner);
			*near_hit = state->last_anchor != NULL;
			if (!*near_hit)
				return plain_key(window_offset(state, high), low);
		}
		return key;
	}
	plain = plain_key(window_offset(state, high), low);
	above = above_anchor(slot, owner, high, low);
	if (slot->held != owner)	/* latent */
	{
		uint64		highest = slot->lowest_near + slot->near_width;

		if (above && plain < highest)
			slot->near_width = (uint32) (plain - slot->lowest_near);
		else if (!above && plain > slot->lowest_near)
		{
			slot->near_width = (uint32) (highest - plain);
			slot->lowest_near = plain;
		}
	}
	return far_key(slot, plain, above);
}

/*
 * Anchoring in the sample's table stops for good: the latent anchors are
 * dropped (their ids have their plain keys; no part gets an anchor
 * there from now on, but may in the table of blocks, short_runs_start()).
 */
static void
stop_anchoring(ulid_sort_state *state)
{
	state->anchoring = false;
	state->reach_count = 0;
	state->last_part = -1;
	for (size_t i = 0; i < table_slots(state); i++)
		if (is_anchor(&state->anchors[i]) && !is_active(state, &state->anchors[i]))
			free_slot(state, i);
}

static int
compare_ms(const void *a, const void *b)
{
	int64		x = *(const int64 *) a;
	int64		y = *(const int64 *) b;

	return (x > y) - (x < y);
}

/*
 * The milliseconds of the table's active anchors, sorted, in memory of the
 * caller's to free, and how many.
 */
static int64 *
sorted_active_ms(const ulid_sort_state *state, int *count)
{
	int64	   *sorted = palloc(sizeof(int64) * Max(state->active_count, 1));

	*count = 0;
	for (size_t i = 0; i < table_slots(state); i++)
	{
		const anchor *slot = &state->anchors[i];

		if (is_anchor(slot) && is_active(state, slot))
			sorted[(*count)++] = anchor_ms(state, slot);
	}
	qsort(sorted, *count, sizeof(int64), compare_ms);
	return sorted;
}

/*
 * Whether two anchors, active or latent, share a millisecond: the anchors
 * of a millisecond lie in the ways of its slot (a table of one way holds
 * one a millisecond).  One look at each slot: they were gathered and
 * sorted before.
 */
static bool
ways_share_ms(const ulid_sort_state *state)
{
	if (state->ways == 1)
		return false;
	for (size_t i = 0; i < table_slots(state); i += state->ways)
		for (int w = 1; w < state->ways; w++)
		{
			const anchor *a = way_of(state, i, w);

			for (int v = 0; v < w; v++)
			{
				const anchor *b = way_of(state, i, v);

				if (is_anchor(a) && is_anchor(b) &&
					anchor_ms(state, a) == anchor_ms(state, b))
					return true;
			}
		}
	return false;
}

/* The table laid out with ways a slot, at the fewest slot bits it fits in. */
static bool
lay_out_with(ulid_sort_state *state, int slot_bits, int max_slot_bits, int ways)
{
	for (int bits = Min(slot_bits, max_slot_bits); bits <= max_slot_bits; bits++)
		if (anchor_table_rebuild(state, bits, false, ways))
		{
			state->max_slot_bits = max_slot_bits;
			return true;
		}
	return false;
}

/*
 * The sample found runs, and the table is laid out for them.  Where three
 * quarters of the active anchors or more lie in a span the largest table
 * takes (a bulk load), its slots are the milliseconds of that span, and
 * milliseconds out of its reach get no anchor (ids made one at a time a
 * year before it would only take the slots of the runs); the active anchors
 * outside it keep their slots, in a table large enough for that.  Laid out
 * so, a table that took ways gives them back where no two active anchors
 * share a millisecond (runs of 5 a millisecond, whose sample took them for
 * other milliseconds, took 7.8% more instructions with them kept), and the
 * largest table its slots: its reach is set here first.  It starts at a
 * quarter more than the span (ANCHOR_MIN_SLOTS at least), which a shuffled
 * sample's span misses by about a thousandth of the input's at either end,
 * and grows to twice the span where an id falls outside: made twice the
 * span, an ORDER BY of 100,000 ids 5 a millisecond (a span of 20,000
 * milliseconds: 65,536 slots, 2 MB to clear, against 32,768) took 0.8% more
 * instructions; made 2,048 slots at least (64 kB to clear, four times that
 * with ways), sorts of 10,000 ids of runs took 0.5% more, of four loads at
 * once 1.9%.  Else the runs are far apart (batches inserted over a year): the
 * table stays hashed, any millisecond may get an anchor, and it grows with
 * its anchors up to the largest size (anchor_table_make_room()).  Its
 * slots only split, so it keeps the anchors apart.
 */
static void
lay_out_anchors(ulid_sort_state *state)
{
	int64		max_span = (int64) 1 << state->max_slot_bits;
	int			count;
	int64	   *active_ms = sorted_active_ms(state, &count);
	int			best = 0;
	bool		one_way = state->ways > 1 && !ways_share_ms(state);

	for (int lowest = 0, highest = 0; highest < count; highest++)
	{
		while (active_ms[highest] - active_ms[lowest] >= max_span)
			lowest++;
		if (highest - lowest + 1 > best)
		{
			best = highest - lowest + 1;
			state->lowest_ms = active_ms[lowest];
			state->highest_ms = active_ms[highest];
		}
	}
	pfree(active_ms);
	state->last_part = -1;		/* the table moves */
	if (best * 4 >= count * 3)
	{
		int64		span = state->highest_ms - state->lowest_ms + 1;
		int			span_bits = (int) pg_ceil_log2_64((uint64) (span + span / 4));
		int			slot_bits = Max(span_bits, pg_leftmost_one_pos32(ANCHOR_MIN_SLOTS));

		/*
		 * The reach first, so that the layout gives up the sample's latent
		 * anchors out of it: they would take the slots of milliseconds of
		 * the span (theirs modulo the table's slots), and the latent anchor
		 * of a run there, not yet made active, was given up for good where
		 * the other came first (1,000,000 ids, half runs of 500 a
		 * millisecond, half one a millisecond a year before them: 141 of
		 * the runs' 1,000 anchors, whose ids tied).  (The reach of the
		 * table's ways: laid out with one way, it may grow fourfold.)
		 */
		set_reach(state);
		if ((one_way &&
			 lay_out_with(state, slot_bits,
						  state->max_slot_bits + pg_leftmost_one_pos32(ANCHOR_WAYS), 1)) ||
			lay_out_with(state, slot_bits, state->max_slot_bits, state->ways))
		{
			set_reach(state);
			return;
		}
		/* scattered: any millisecond is within reach */
		state->reach_from = 0;
		state->reach_count = PG_UINT64_MAX;
	}
	state->scattered = true;
}

/*
 * Short runs in a large table: a sample that found one to three ids near an
 * anchor (ANCHOR_SAMPLE_MIN_HITS) among ids of many milliseconds, as ids made
 * a few a millisecond by one generator and shuffled give it (about 4 for
 * 100,000 milliseconds of 5 ids: the birthday bound).  Anchors of 32 bytes
 * for each of those milliseconds would make a table out of the cache, and
 * ties cost less than that: 500,000 ids 5 a millisecond took 1.43 times uuid
 * v4's time in memory with ties, 1.33 to 1.41 with such anchors (and 1.05 to
 * 1.07 with these, 1 MB for 100,000 milliseconds).  So each millisecond of
 * the sample's span gets an entry of 8 bytes, in a table found by the
 * millisecond alone: the *block* of its anchor, the first 64 of its 80 random
 * bits (the 16 of its first 8 bytes, then its last 8 bytes less their last 16
 * bits).  Ids of the anchor's block (within 65,535 of each other, the ids of
 * a short run but where it crosses a block) get the block's lowest near key
 * plus their last 16 bits; the other ids of the millisecond their plain key,
 * at most the lowest near key below the block and at least the highest above
 * it.  The near keys fill the block's part (which has as many keys), so the
 * anchor's own key is not its plain key: an anchor of this table is never
 * dropped, and its part must not have been keyed before (its near keys stay
 * within its part's, so the other parts of its millisecond keep their plain
 * keys).  Every part the sample met has an anchor of the sample's table, or
 * was refused one (the bitmap): the latent anchors are dropped, their
 * milliseconds' entries marked for plain keys (up to 1,024 milliseconds, of
 * the 100,000 or more of such a table), the active ones stay in that table,
 * and their milliseconds' entries say so (an id of another part of such a
 * millisecond gets its plain key).  Milliseconds outside the table's span, a
 * quarter wider than the sample's, get plain keys.  The table takes what the
 * anchor table could (at most a quarter of work_mem and ANCHOR_MAX_BYTES).
 */
#define SHORT_RUNS_NONE			0	/* no id of the millisecond keyed yet */
#define SHORT_RUNS_PLAIN		1	/* plain keys (refused an anchor) */
#define SHORT_RUNS_SAMPLED		2	/* an active anchor of the sample's table */
#define SHORT_RUN_LOW_BITS		16

/* An id's block: the first 64 of its 80 random bits. */
static inline uint64
short_run_block(uint64 high, uint64 low)
{
	return high << 48 | low >> SHORT_RUN_LOW_BITS;
}

/*
 * The key of an id of a millisecond whose anchor has this block, from its
 * plain key and its block.
 */
static inline uint64
short_run_key(uint64 anchor_block, uint64 plain, uint64 block, uint64 low)
{
	uint64		anchor_field = anchor_block >> (64 - KEY_RANDOM_BITS);
	uint64		lowest_near;

	/*
	 * The lowest key of the anchor's part, whose keys its near keys fill (the
	 * ids of the other parts keep their plain keys).
	 */
	StaticAssertStmt(PART_FIELD_MASK == NEAR_ANCHOR &&
					 NEAR_ANCHOR == (UINT64CONST(1) << SHORT_RUN_LOW_BITS) - 1,
					 "the near keys of a block are the keys of its part");
	lowest_near = (plain & ~FIELD_MASK) | (anchor_field & ~PART_FIELD_MASK);
	if (block == anchor_block)
		return lowest_near + (low & NEAR_ANCHOR);
	return block < anchor_block ? Min(plain, lowest_near) : Max(plain, lowest_near + NEAR_ANCHOR);
}

/*
 * The span of the table of blocks: that of the sample's anchors, a quarter
 * wider.  Returns false where that span is past what the table may take.
 */
static bool
short_runs_span(ulid_sort_state *state)
{
	uint64		max_count = state->short_runs_max;
	int64		lowest = PG_INT64_MAX;
	int64		highest = PG_INT64_MIN;
	uint64		span;

	for (size_t i = 0; i < table_slots(state); i++)
		if (is_anchor(&state->anchors[i]))
		{
			lowest = Min(lowest, anchor_ms(state, &state->anchors[i]));
			highest = Max(highest, anchor_ms(state, &state->anchors[i]));
		}
	if (lowest > highest)
		return false;
	span = (uint64) (highest - lowest) + 1;
	if (span > max_count)
		return false;
	state->short_runs_count = Min(span + span / 4, max_count);
	state->short_runs_from = lowest - (int64) (state->short_runs_count - span) / 2;
	return true;
}

/* The table of blocks is made, for its span, all its entries NONE. */
static void
short_runs_make(ulid_sort_state *state)
{
	state->short_runs = anchor_alloc_zero(state, sizeof(uint64) * state->short_runs_count);
}

/*
 * The sample found short runs: the table of blocks is made, the sample's
 * milliseconds marked, and anchoring stops.
 */
static void
short_runs_start(ulid_sort_state *state)
{
	short_runs_make(state);
	for (size_t i = 0; i < table_slots(state); i++)
		if (is_anchor(&state->anchors[i]))
		{
			uint64	   *entry = &state->short_runs[anchor_ms(state, &state->anchors[i]) -
												state->short_runs_from];

			if (is_active(state, &state->anchors[i]))
				*entry = SHORT_RUNS_SAMPLED;
			else if (*entry != SHORT_RUNS_SAMPLED)
				*entry = SHORT_RUNS_PLAIN;
		}
	stop_anchoring(state);
}

/*
 * Whether the runs the sample found (ANCHOR_SAMPLE_MIN_HITS or more) are
 * short runs all the same, for the table of blocks: no two of its anchors
 * share a millisecond (one run a millisecond: the table of blocks keys one
 * block a millisecond, and the ids of four loads at once in the others
 * would tie), its ids near an active anchor are fewer than 4 for each (runs
 * of a few ids: a block holds the ids of a run that cross none of its
 * edges, a run of thousands crosses one now and then, and its ids past it
 * would tie), and the table of blocks would span SHORT_RUNS_MIN_SPAN
 * milliseconds or more.  There a table of anchors takes 32 bytes a
 * millisecond, 1 MB for 20,000, which misses the caches for nearly every id
 * (the table of blocks 200 kB): an ORDER BY of 100,000 ids 5 a millisecond,
 * shuffled, took 1.11 times uuid v4's time in memory with anchors.  Simulated
 * (cachegrind, a cache of 2 MB behind the first level), against uuid v4's:
 * 1.013 times its instructions, 208,000 more first-level misses and 66,000
 * more of the second with anchors; 1.007, 142,000 and 26,000 with blocks.
 * Over a narrower span the sample's milliseconds are more of the span
 * (their latent anchors' milliseconds keyed plainly, short_runs_start()):
 * 40,000 such ids (a table of blocks of 10,000 milliseconds) took 1.034
 * times uuid v4's instructions with blocks, 1.018 with anchors, and about
 * as long, their misses fewer.
 */
#define SHORT_RUNS_MIN_SPAN		16384

static bool
short_runs_only(ulid_sort_state *state)
{
	if (state->sampled_near >= 4 * state->active_count ||
		!short_runs_span(state) || state->short_runs_count < SHORT_RUNS_MIN_SPAN)
		return false;
	return !ways_share_ms(state);
}

/*
 * Short runs the sample missed: a sample that found no id near another among
 * ids of many milliseconds (about half the shuffles of 1,000,000 ids 5 a
 * millisecond, and any of 2 a millisecond, by the birthday bound), over a
 * span where runs may hide (short_runs_may_hide()).  The ids after it, up to
 * the end of the estimate (10,240 ids on most data: it does not end at 2,560
 * while the watch is on), are watched: each is keyed plainly, its
 * millisecond marked so in a bitmap over the span of the table of blocks,
 * and its tag kept in a slot found by a hash of its millisecond, in place of
 * the last id's.  An id whose tag differs from that slot's in its last 16
 * bits alone is near the last id of its millisecond (the same first 8 bytes
 * and block, not a copy).  Where WATCHED_MIN_NEAR ids or more were (about
 * 100 of 9,216 such ids 5 a millisecond over 200,000 milliseconds), the
 * table of blocks is made when the estimate ends, with every millisecond
 * keyed so far marked for plain keys (the sample's too).  A slot keeps an id
 * for about 4,096 ids, so about two fifths of the pairs of a millisecond
 * within the watch are found; ids one a millisecond, random within it, or
 * copies of each find none.  The slots take 32 kB, the bitmap an eighth of a
 * byte a millisecond.
 */
#define WATCHED_BITS			12	/* 4,096 slots */
#define WATCHED_MIN_NEAR		8
#define WATCHED_MIN_SPAN		32768	/* ms the table of blocks spans */

static inline void
mark_keyed_plainly(ulid_sort_state *state, int64 unix_ms)
{
	uint64		i = (uint64) (unix_ms - state->short_runs_from);

	if (i < state->short_runs_count)
		state->keyed_plainly[i / 64] |= UINT64CONST(1) << (i % 64);
}

/* The words of the bitmap of milliseconds keyed plainly, a bit each. */
static inline uint64
keyed_plainly_words(const ulid_sort_state *state)
{
	return (state->short_runs_count + 63) / 64;
}

/*
 * An id's tag: a hash of its first 8 bytes and its block (48 bits: two ids
 * of other milliseconds or blocks share it once in 2^48), then its last 16
 * bits.
 */
static inline uint64
watched_tag(uint64 high, uint64 low)
{
	uint64		hash = (high * GOLDEN_RATIO_64 ^ low >> SHORT_RUN_LOW_BITS) *
		UINT64CONST(0xff51afd7ed558ccd);

	return (hash & ~NEAR_ANCHOR) | (low & NEAR_ANCHOR);
}

/*
 * Whether short runs may have hidden from a sample that found no id near an
 * anchor: where the table of blocks would span WATCHED_MIN_SPAN milliseconds
 * or more.  Among runs of 2 over n milliseconds, shuffled, a sample of 1,024
 * ids meets about 1024^2 / 4n pairs (the birthday bound), and finds fewer:
 * until it finds one its table has 256 slots, and a millisecond that takes
 * the slot of another's latent anchor refuses that one's part.  Simulated
 * (2,000 shuffles each), over 26,214 milliseconds (the table spans a quarter
 * more than the sample) it found 3.7 on average and none once in 44, whose
 * runs then tie, as with core's key; over 13,107, 7.7 and once in 2,000
 * (runs of 3 over 26,000: 5.1, once in 170); 30 shuffles of runs of 2 or 3
 * over 26,000 or 15,000 milliseconds found some each time.  Over fewer
 * milliseconds, anchoring stops at once, and the estimate may end at 2,560
 * ids: the watch kept it on to 10,240, and the first converter with it
 * (10,000 ids one per millisecond took 1.054 times uuid v4's instructions,
 * 1.001 without).  The span is not halved to miss fewer runs of 2: sorts of
 * 13,000 to 26,000 ids one per millisecond, random within it or of the uuid
 * v7 layout, which have none, would pay for the watch again.  A sample that
 * is not a fair one (ids of a few milliseconds first, runs between them
 * after: the sort suite's case w5) may miss runs the watch would have
 * found: they tie too.
 */
static inline bool
short_runs_may_hide(const ulid_sort_state *state)
{
	return state->short_runs_count >= WATCHED_MIN_SPAN;
}

/*
 * The sample found no id near an anchor: its milliseconds are marked keyed
 * plainly, anchoring stops, and the watch starts.
 */
static void
short_runs_watch(ulid_sort_state *state)
{
	state->keyed_plainly = anchor_alloc_zero(state, keyed_plainly_words(state) * sizeof(uint64));
	state->watched = anchor_alloc_zero(state, sizeof(uint64) << WATCHED_BITS);
	for (size_t i = 0; i < table_slots(state); i++)
		if (is_anchor(&state->anchors[i]))
			mark_keyed_plainly(state, anchor_ms(state, &state->anchors[i]));
	stop_anchoring(state);
}

/* The key of an id watched for short runs: its plain key. */
static uint64
short_runs_watch_key(ulid_sort_state *state, uint64 high, uint64 low, uint64 offset)
{
	int64		unix_ms = (int64) (high >> 16);
	uint64	   *last = &state->watched[ms_hash(unix_ms, WATCHED_BITS)];
	uint64		tag = watched_tag(high, low);

	state->watched_near += (*last ^ tag) <= NEAR_ANCHOR && *last != tag;
	*last = tag;
	mark_keyed_plainly(state, unix_ms);
	return plain_key(offset, low);
}

/*
 * At the end of the estimate, the watch is over: where it found short runs,
 * the table of blocks is made, the milliseconds keyed plainly marked so.
 */
static void
short_runs_watch_end(ulid_sort_state *state)
{
	if (state->watched_near >= WATCHED_MIN_NEAR)
	{
		short_runs_make(state);
		/* (set bits only: the watch marks a few thousand of the span's) */
		for (uint64 word = 0; word < keyed_plainly_words(state); word++)
			for (uint64 bits = state->keyed_plainly[word]; bits != 0; bits &= bits - 1)
				state->short_runs[word * 64 + pg_rightmost_one_pos64(bits)] = SHORT_RUNS_PLAIN;
	}
	anchor_free(state, state->watched);
	anchor_free(state, state->keyed_plainly);
	state->watched = NULL;
	state->keyed_plainly = NULL;
}

/*
 * The key of an id of the window whose millisecond's entry i in the table of
 * blocks, anchor_block, is no block: the first id of a millisecond of its
 * span makes the anchor, unless the millisecond was refused one (or its
 * block is one of the marks); a millisecond refused one keys its ids
 * plainly; one of an active anchor of the sample's table looks there.  (Not
 * inlined: short_runs_key() saves no registers for it.)
 */
static pg_noinline uint64
short_runs_entry_key(ulid_sort_state *state, uint64 high, uint64 low,
					 uint64 plain, uint64 i, uint64 anchor_block)
{
	int64		part = (int64) (high >> PART_SHIFT);
	uint64		block = short_run_block(high, low);

	if (anchor_block == SHORT_RUNS_NONE)
	{
		anchor_block = block;
		if (block <= SHORT_RUNS_SAMPLED || is_refused(state, part))
			anchor_block = SHORT_RUNS_PLAIN;
		else
			state->short_runs_made++;
		state->short_runs[i] = anchor_block;
	}
	if (anchor_block == SHORT_RUNS_PLAIN)
		return plain;
	if (anchor_block == SHORT_RUNS_SAMPLED)
	{
		const anchor *slot = active_way(state, slot_index(state, part), high);
		uint64		key;

		if (near_active_anchor(slot, high, low, &key))
			return key;
		if (!holds(slot, high))
			return plain;
		return far_from_active_anchor(state, slot, high, low);
	}
	return short_run_key(anchor_block, plain, block, low);
}

/*
 * The key of an id of the window once the table of blocks is made: its
 * plain key outside the table's span, else by its millisecond's entry, a
 * block here (the ids of a millisecond after its first), the others by
 * short_runs_entry_key().  (In one function, called for each id and
 * saving registers for the entries that are no block, it took 67
 * instructions an id of 1,000,000 ids 5 a millisecond, 50 so: their ORDER
 * BY in memory went from 1.040 to 1.028 times uuid v4's instructions.)
 */
static pg_attribute_always_inline uint64
short_runs_key(ulid_sort_state *state, uint64 high, uint64 low, uint64 offset)
{
	uint64		i = (uint64) ((int64) (high >> 16) - state->short_runs_from);
	uint64		plain = plain_key(offset, low);
	uint64		anchor_block;

	if (i >= state->short_runs_count)
		return plain;
	anchor_block = state->short_runs[i];
	if (anchor_block <= SHORT_RUNS_SAMPLED)
		return short_runs_entry_key(state, high, low, plain, i, anchor_block);
	return short_run_key(anchor_block, plain, short_run_block(high, low), low);
}

/* The sample lasts while anchoring does and it has not taken all its ids. */
static inline bool
sample_lasts(const ulid_sort_state *state)
{
	return state->anchoring && state->sampled < ANCHOR_SAMPLE;
}

/*
 * One more id of the sample.  It counts if it is near its anchor without
 * being equal to it: the anchor itself, and copies of it (a column where
 * each id comes 10 times), gain nothing from anchors.  Returns whether the
 * sample is over.
 *
 * A near id that comes right after an id of its part which was not near
 * (paired: the part of the id before, the first of the two) counts as a
 * pair, which does not lay the table out for runs.  Ids back-filled with
 * ulid_generate(timestamptz) over rows taken in another order than their
 * times are random ids in their milliseconds, but for two rows in a row of
 * one millisecond: the second is the first's id + 1, and the pair its
 * plain key ties once.  Counted as runs, a few pairs in the sample laid the
 * table out for runs, and every id after it looked for an anchor: an
 * ORDER BY of 10,000 ids 50 a millisecond over 200 milliseconds took 1.25
 * times uuid v4's instructions, 1.03 so, 0.995 with kept_near_twin() (500
 * a millisecond over 20 milliseconds 1.14 -> 1.07 -> 1.007, core's uuid
 * functions 1.08; 100,000 of them over 200 milliseconds 1.09 -> 0.99 ->
 * 0.97).  A run in insertion order counts from its third id on (the
 * second's is a pair); one in another order, or after other ids of its
 * millisecond, counts from its second.
 */
static pg_noinline bool sample_end(ulid_sort_state *state);

/*
 * Whether the sample counts an id of the window: a renewed one
 * (renew_sample()) counts those that come within MIXED_SHARE ids of the
 * last before them.  The converted uuids in the window, few and far
 * between, are not counted, and get no latent anchor: their parts are
 * refused one (refuse_sparse_part()).  Counted, they filled the renewed
 * sample before the ids made since came (it ended after 108 of them,
 * among 500,000 converted uuids, and found too few runs); given latent
 * anchors, they took each other's slots, and the refusals filled the
 * record that puts back at the sample's end the anchors it gave up.
 */
static inline bool
sample_counts(ulid_sort_state *state)
{
	bool		close;

	if (!state->sample_renewed || !sample_lasts(state))
		return true;
	close = state->input_count - state->last_in_window <= MIXED_SHARE;
	state->last_in_window = state->input_count;
	return close;
}

/*
 * Whether the sample's ids of the window came among MIXED_SHARE times as
 * many ids or more: among uuids converted to ulid, of which 0.4% fall in
 * the window, scattered over its 35 years.
 */
static inline bool
sample_sparse(const ulid_sort_state *state)
{
	return state->input_count - state->sample_from >=
		(int64) ANCHOR_SAMPLE * MIXED_SHARE;
}

/*
 * A part of a converted uuid in the window, as the sample is renewed or
 * while the renewed sample lasts, is refused an anchor for good: kept
 * exactly, up to SPARSE_PARTS_KEPT parts, else in the bitmap, where a part
 * shares its bit with others (a converted uuid in every 250 ids fills 3% of
 * its bits every 500,000 ids, and the parts of the runs that come after
 * them that share those bits would lose their anchors).
 */
static void
refuse_sparse_part(ulid_sort_state *state, int64 part)
{
	size_t		i;

	if (state->sparse_parts == NULL)
		state->sparse_parts = MemoryContextAllocZero(state->context,
													 sizeof(int64) << SPARSE_PARTS_LOG2);
	if (state->sparse_count >= SPARSE_PARTS_KEPT)
	{
		refuse_out_of_reach(state, part);
		return;
	}
	i = sparse_part_slot(state, part);
	state->sparse_count += state->sparse_parts[i] == 0;
	state->sparse_parts[i] = part + 1;
}

/*
 * The sample found no run among ids of the window that came few and far
 * between, the converted uuids that fall in it: it starts again, where the
 * ids to come are (the rows added since a column was converted come after
 * its rows).  Stopped there for good, anchoring missed the runs of the ids
 * made since: 500,000 converted uuids, then 500,000 ids 500 a millisecond
 * (1,000,000 ids in all), took an ORDER BY 1.31 times uuid v4's
 * instructions in their order, 1.60 shuffled (their ids tied).  Every part
 * the sample met has a latent anchor (none is active: no id came near one)
 * or was refused one; the latent anchors are dropped, their parts refused
 * one for good (refuse_sparse_part(): their ids have their plain keys),
 * and the victims given up (their parts are refused).  The new sample's
 * refusals are not recorded (the record is past REFUSALS_RECORDED since
 * the first ended), so restore_victims() does not make the bitmap again at
 * its end, which would drop the first's: the anchors it gives up go back
 * while it lasts (restore_victim()), not at its end (0.09% of the ORDER BY
 * of the shuffled runs above).  A sample over ids of the window that come
 * often (ids made one a millisecond since) stops anchoring as before:
 * renewed, each id would pay the sample's books.
 */
static void
renew_sample(ulid_sort_state *state)
{
	Assert(state->active_count == 0);
	for (size_t i = 0; i < table_slots(state); i++)
		if (is_anchor(&state->anchors[i]))
		{
			refuse_sparse_part(state, anchor_part(state, &state->anchors[i]));
			free_slot(state, i);
		}
	memset(state->victim_tags, 0, sizeof(int64) * VICTIMS);
	state->anchors_made = 0;
	state->sampled = 0;
	state->sampled_pairs = 0;
	state->last_near = false;
	state->last_part = -1;
	state->sample_from = state->input_count;
	state->last_in_window = state->input_count;
	state->sample_renewed = true;
	elog(DEBUG1, "ulid sort support: the sample found no run among ids of the window few and far between; it starts again after " INT64_FORMAT " ids (%d parts kept refused)",
		 state->input_count, state->sparse_count);
}

static inline bool
sample(ulid_sort_state *state, bool near_hit, bool paired)
{
	if (near_hit && state->sampled_near++ == 0)
		state->sample_slot_bits = Min(state->max_slot_bits, ANCHOR_SAMPLE_SLOT_BITS);
	state->sampled_pairs += near_hit && paired && !state->last_near;
	state->last_near = near_hit;
	if (++state->sampled < ANCHOR_SAMPLE)
		return false;
	return sample_end(state);
}

/*
 * The sample is over: the table is laid out for its runs, or short runs are
 * watched for, or anchoring stops.  Returns true.  (Apart from sample(),
 * and not inlined: once a sort.  Whole, sample() was not inlined once it
 * had two callers, and its call saved and restored registers for every id
 * of the sample, about 18 instructions.)
 */
static pg_noinline bool
sample_end(ulid_sort_state *state)
{
	/*
	 * No id puts a kept one back after it (each id of a refused part would
	 * look): restore_victims() puts them back at once, where the table is
	 * laid out for runs.
	 */
	state->victim_bits = 0;
	if (state->sample_renewed)
		elog(DEBUG1, "ulid sort support: the renewed sample ends after " INT64_FORMAT " ids, %d of them near their anchors, active anchors: %d",
			 state->input_count, state->sampled_near, state->active_count);
	if (state->sampled_near - state->sampled_pairs >= ANCHOR_SAMPLE_MIN_HITS &&
		!short_runs_only(state))
	{
		lay_out_anchors(state);
		restore_victims(state);
	}
	else if (!short_runs_span(state) ||
			 (state->sampled_near == 0 &&
			  (!state->estimating || !short_runs_may_hide(state))))
	{
		if (state->sampled_near == 0 && state->active_count == 0 &&
			sample_sparse(state))
			renew_sample(state);
		else
			stop_anchoring(state);
	}
	else if (state->sampled_near > 0)
		short_runs_start(state);
	else
		short_runs_watch(state);
	/* (recorded for restore_victims() alone) */
	state->refusal_count = REFUSALS_RECORDED + 1;
	return true;
}

/* The key of an id outside the window: its first 8 bytes, kept in order. */
static inline uint64
outside_window_key(const ulid_sort_state *state, uint64 high)
{
	return high < state->window_start ? high : AFTER_WINDOW_KEYS | (high >> 1);
}

/*
 * The hash of a key for the estimate of distinct keys: murmur3's 64-bit
 * finalizer.  Core's uuid folds its key to 32 bits first, which is fine for
 * random bytes; folded, keys of the window that differ in their millisecond
 * but share their last bits (anchored runs) collide: 163,840 distinct keys
 * were estimated at 16,807 to 78,914, and an estimate that had to reach
 * ABBREV_ENOUGH_KEYS never ended.
 */
static inline uint32
key_hash(uint64 key)
{
	key ^= key >> 33;
	key *= UINT64CONST(0xff51afd7ed558ccd);
	key ^= key >> 33;
	key *= UINT64CONST(0xc4ceb9fe1a85ec53);
	key ^= key >> 33;
	return (uint32) key;
}

/* A key the estimate counts: its hash, to the estimate of distinct keys. */
static inline void
count_key(ulid_sort_state *state, uint64 key)
{
	state->hashed_count++;
	addHyperLogLog(&state->distinct_keys, key_hash(key));
}

/*
 * The key of an id outside the window while the estimate lasts, as
 * ulid_abbrev_convert gives it, for the converters before it.
 */
static pg_attribute_always_inline Datum
estimated_outside_key(ulid_sort_state *state, uint64 high)
{
	uint64		key = outside_window_key(state, high);

	state->outside_count++;
	state->input_count++;
	count_key(state, key);
	return UInt64GetDatum(key);
}

static void choose_lean_converter(SortSupport ssup, ulid_sort_state *state);
static Datum ulid_abbrev_convert_plain_counted(Datum original, SortSupport ssup);
static Datum ulid_abbrev_convert_sample_runs(Datum original, SortSupport ssup);
static Datum ulid_abbrev_convert_sample_runs_outside(Datum original, SortSupport ssup);
static Datum ulid_abbrev_convert_sample_runs_ways(Datum original, SortSupport ssup);

/* Whether the sample's converter once it found a run is installed. */
static inline bool
converts_sample_runs(SortSupport ssup)
{
	return ssup->abbrev_converter == ulid_abbrev_convert_sample_runs ||
		ssup->abbrev_converter == ulid_abbrev_convert_sample_runs_outside ||
		ssup->abbrev_converter == ulid_abbrev_convert_sample_runs_ways;
}

static Datum
ulid_abbrev_convert(Datum original, SortSupport ssup)
{
	ulid_sort_state *state = ssup->ssup_extra;
	const uint8_t *id = DatumGetUlidP(original)->data;
	uint64		high = load_be(id, 8);
	int64		part = (int64) (high >> PART_SHIFT);
	uint64		offset = window_offset(state, high);
	uint64		key;
	bool		sampled = false;

	if (within_window(offset) && state->short_runs != NULL)
		key = short_runs_key(state, high, load_be(id + 8, 8), offset);
	else if (within_window(offset) && state->watched != NULL)
		key = short_runs_watch_key(state, high, load_be(id + 8, 8), offset);
	else if (within_window(offset))
	{
		uint64		low = load_be(id + 8, 8);
		bool		near_hit = false;
		bool		made = false;
		bool		paired = part == state->last_part && !state->catching_up;	/* (sample()) */
		bool		counted = sample_counts(state);

		/* ids in insertion order share their part with the last one */
		if (part != state->last_part)
		{
			state->last_anchor = anchor_of(state, part, plain_key(offset, low));
			state->last_part = part;
			if (state->last_anchor == NULL && !counted)
				refuse_sparse_part(state, part);
			else if (state->last_anchor == NULL)
			{
				state->last_anchor = make_anchor(state, part, plain_key(offset, low), low);
				made = state->last_anchor != NULL;
				/* the 0 test spares the hash's multiply after the sample */
				if (!made && state->victim_bits != 0 &&
					(state->victim_bits & victim_bit(part)))
					state->last_anchor = restore_victim(state, part, high, low);
				if (state->last_anchor == NULL && sample_lasts(state))
					note_denied(state, part);
			}
		}
		/* (an id made an anchor keeps its plain key) */
		if (state->last_anchor != NULL && !made)
			key = key_while_anchoring(state, high, low, &near_hit);
		else
		{
			key = plain_key(offset, low);
			state->unanchored_count += !made;
		}
		sampled = sample_lasts(state) && counted;
		/* a sample over that left no anchor (and no watch) */
		if (sampled && sample(state, near_hit, paired) && !state->anchoring &&
			state->active_count == 0 && state->watched == NULL)
			ssup->abbrev_converter = ulid_abbrev_convert_plain_counted;
		else if (!sample_lasts(state) && converts_sample_runs(ssup))
			ssup->abbrev_converter = ulid_abbrev_convert;
	}
	else
	{
		key = outside_window_key(state, high);
		state->outside_count++;
	}

	state->input_count++;
	if (!state->estimating)		/* called by a leaner one: the table changed */
		choose_lean_converter(ssup, state);
	else if (!sampled)
	{
		/*
		 * (The sample's ids are not counted: the thousands after them tell
		 * as much, and a sort of fewer ids never asks.  Every id of a sort
		 * of 1,000 ids one per millisecond is in the sample, and counted,
		 * its ORDER BY took 3% more instructions.)
		 */
		count_key(state, key);
	}
	return UInt64GetDatum(key);
}

/*
 * The converter once the estimate is over, while the sample lasts: ids
 * outside the window are keyed here, the others by ulid_abbrev_convert.
 */
static Datum
ulid_abbrev_convert_sampling(Datum original, SortSupport ssup)
{
	ulid_sort_state *state = ssup->ssup_extra;
	uint64		high = load_be(DatumGetUlidP(original)->data, 8);

	if (!within_window(window_offset(state, high)))
	{
		state->outside_count++; /* (sample_sparse()) */
		state->input_count++;
		return UInt64GetDatum(outside_window_key(state, high));
	}
	return ulid_abbrev_convert(original, ssup);
}

/*
 * The sample, deferred.  The first converter looks up each id of the sample
 * in the anchor table, and keeps its books on anchors, refusals and the
 * anchors given up: about 200 instructions an id, where core's key for uuid
 * takes 52 with its hash.  A sort of 1,000 ids one a millisecond took 1.12
 * times uuid v4's time, of 1,000 in the uuid v7 layout 1.29 (their parts of
 * a millisecond take the table's ways), and every id of a sort that small
 * is in the sample.  Yet the sample's keys are the ids' plain keys until an
 * id comes near another of its first 8 bytes: an id makes its part's latent
 * anchor (its plain key), or is far from it (plain, the anchor's range
 * narrowed to leave it out), or is of a part refused one.  So the first
 * converter is ulid_abbrev_convert_deferred: it gives an id of the window
 * its plain key, keeps it, and keeps the last id of each first 8 bytes in a
 * small table, its *twin* (hashed, 64 to 2,048 slots as the ids kept grow,
 * at most half full; its number among them, near_twin()), until an id comes
 * near its twin (not a copy of it, nor one kept_near_twin() keeps), the
 * sample's last id comes, or the estimate asks for the counts: then
 * catch_up() hands the ids kept to the sample in their order, and
 * ulid_abbrev_convert goes on.  The sample keys them as it would have, but
 * an id near a latent anchor (kept near its twin, or whose twin another id
 * of the slot had taken): it had its plain key, so the anchor moves up (or
 * down) to it, or is dropped and the part refused (replayed_near_latent()).
 * A sort with no more ids of the window than the sample, and none near
 * its twin but those kept, never looks.
 */
static inline uint16 *
twin_of(const ulid_sort_state *state, uint64 high)
{
	return &state->twins[(high * GOLDEN_RATIO_64) >> state->twin_shift];
}

/*
 * Whether an id is near the twin of its slot, number n among the ids kept
 * (its index + 1), not a copy of it.  A free slot has 0: deferred[-1], 16
 * zero bytes, which no id of the window is near, and no branch on it (ids
 * without runs fill a slot in four).  The slots held the twin's 16 bytes
 * before: a sort of 1,000 ids of the window without runs cleared 53 kB of
 * tables as the table grew to 32 kB, and met 41% more first-level cache
 * misses than uuid v4's sort of as many (cachegrind), 14% now; with a test
 * of the slot's number before the look, 3.8% more mispredicted branches.
 */
static inline bool
near_twin(const ulid_sort_state *state, uint16 n, uint64 high, uint64 low)
{
	const uint8_t *twin = state->deferred[n - 1].data;
	uint64		twin_low = load_be(twin + 8, 8);

	return load_be(twin, 8) == high && twin_low != low &&
		low - twin_low + NEAR_ANCHOR <= 2 * NEAR_ANCHOR;
}

/* The first 8 bytes of the id kept at index i. */
static inline uint64
kept_high(const ulid_sort_state *state, int i)
{
	return load_be(state->deferred[i].data, 8);
}

/*
 * Whether the ids kept came out of the order of their first 8 bytes: one in
 * DEFERRED_DESCENTS or more below the one before, as ids back-filled in
 * their rows' order are (a quarter to a half of them), and ids in insertion
 * order are not, even with a few ids out of order among them (2 ids of a
 * later millisecond before runs of 5 a millisecond: kept whole, the runs
 * tied in fives up to the sample's end, and an ORDER BY of 10,000 of them
 * took about 5% more instructions).  Each id looked at once (ordered_upto),
 * up to as many as decide it for the sample's ids.
 */
static bool
kept_out_of_order(ulid_sort_state *state)
{
	int			count = state->deferred_count;
	int			i = state->ordered_upto;
	int			descents = state->kept_descents;

	/* (in locals: the ids' bytes may alias the state's fields) */
	for (; i + 1 < count && descents * DEFERRED_DESCENTS < ANCHOR_SAMPLE; i++)
		descents += kept_high(state, i + 1) < kept_high(state, i);
	state->ordered_upto = (uint16) i;
	state->kept_descents = (uint16) descents;
	return descents * DEFERRED_DESCENTS >= count;
}

/*
 * Whether the ids kept are crowded: DEFERRED_CROWDED first 8 bytes or more
 * (ids kept not near their twins) a millisecond of their span, as
 * back-filled ids over few milliseconds are (a generator's runs have one a
 * millisecond, four loads at once four; each id looked at once).
 */
static bool
kept_crowded(ulid_sort_state *state)
{
	int			count = state->deferred_count;
	int			i = state->spanned_upto;
	int64		lowest = state->kept_lowest_ms;
	int64		highest = state->kept_highest_ms;

	/*
	 * In locals, as in kept_out_of_order().  The millisecond is the first 8
	 * bytes shifted, as the window's keys take it: ulid_time_ms()'s load of
	 * 6 bytes cost 8 instructions more an id, 0.5% of a sort of 1,000
	 * back-filled ids.
	 */
	if (i == 0)
		lowest = highest = (int64) (kept_high(state, 0) >> 16);
	for (; i < count; i++)
	{
		int64		ms = (int64) (kept_high(state, i) >> 16);

		lowest = Min(lowest, ms);
		highest = Max(highest, ms);
	}
	state->spanned_upto = (uint16) i;
	state->kept_lowest_ms = lowest;
	state->kept_highest_ms = highest;
	return count - state->kept_near >= DEFERRED_CROWDED * (highest - lowest + 1);
}

/*
 * Whether an id near its twin, number n, is kept too (with its plain key,
 * the twin's as a rule) while the sample waits: where the twin and the ids
 * kept near their twins before it (its chain: chained[], written on this
 * path alone) are fewer than DEFERRED_CHAIN, and it is the twin + 1 with
 * the twin the last id kept (in a row), or else within DEFERRED_APART of
 * the twin (apart, kept between it and the id or not); in a row, in a
 * chain of fewer than DEFERRED_RUN where the ids kept came out of order;
 * any other, in a chain of fewer than DEFERRED_RUN where they are crowded.
 * Ids back-filled with ulid_generate(timestamptz) over rows taken in
 * another order than their times are random in their milliseconds, but for
 * rows in a row of one millisecond, each the id before + 1.
 *
 * In a row: a sort of 1,000 of those ids over 20 milliseconds met such a pair
 * among its first ids, and the sample that took the ids kept there took 1.36
 * times uuid v4's time, 0.97 so (core's functions 0.98).  The sample keys a
 * run's ids kept as the highest of them (the anchor moved up to it,
 * replayed_near_latent()), tied: a run in insertion order waits for its
 * fourth id and ties its first three (a run in descending order as well, its
 * anchor moved down to the lowest, below).  Such ids do not count for the
 * sample: the next id of the run does, where there is one.  Where the ids
 * kept came out of order (kept_out_of_order()), a run goes on being kept up
 * to its DEFERRED_RUN-th id: back-filled over 2 milliseconds, half the ids of
 * such a table follow one of their millisecond, in runs of 4 and more among
 * 1,000 ids, and the sample that took the ids kept at a run's fourth took
 * 1.27 times uuid v4's instructions for an ORDER BY of 1,000 (core's
 * functions 1.14), 1.15 so; of 100, 1.32 -> 1.10 (core's 1.12).  Ids in
 * insertion order keep the rule of three: a generator's runs of 5 a
 * millisecond, kept whole, tie in fives up to the sample's end (an ORDER BY
 * of 10,000 took 3.3% more instructions), where the sample that takes them at
 * a run's fourth keys the later ids apart.  The ids of a run kept from its
 * DEFERRED_CHAIN-th on count for the sample as it takes them, as they would
 * have counted live (sample_deferred()).
 *
 * Apart, as where those ids are shuffled: the 1,000 ids took 1.28 times uuid
 * v4's time in a loop of sorts, 1.25 in make bench (1.24 times its
 * instructions), the sample taking the ids kept at the first pair; 1.02 to
 * 1.04, 1.03 so (1.008).  A pair the other way round in a row (the id + 1,
 * then the id) is one apart too: taken for a run, it had the sample take the
 * ids kept there, in one shuffled table of those 1,000 ids in 50 (1.24 times
 * the instructions of core's functions, 0.99 so), and a run in descending
 * order is kept as the first ids of a run in insertion order are, its first
 * three tied (replayed_near_latent() moves its anchor down to the lowest of
 * them).  Pairs apart are runs of 2 for the sample all the same (a
 * generator's 2 a millisecond, shuffled over 14,000 milliseconds, want their
 * table of blocks): it counts such ids as it takes them (replaying_counted),
 * ties each chain's ids and those of its part that come later on the side its
 * anchor moved from (below the highest of them where it moved up, above the
 * lowest where it moved down), and makes their anchors active once it took
 * them all (activate_replayed()).  In runs of 5 a millisecond, shuffled, that
 * ties a few ids more (0.4% more instructions); in runs of hundreds, the
 * first id near its twin is seldom within 2 of it.  Over 2 milliseconds,
 * shuffled, runs of 4 and more are common: the 1,000 ids took 1.29 times uuid
 * v4's instructions (core's functions 1.13), the sample taking the ids kept
 * at the first id of a run that was not within 2 of its twin, or its fourth.
 * So where the ids kept are crowded (kept_crowded(): 16 first 8 bytes or more
 * a millisecond), whose runs anchors seldom key apart (a part of a
 * millisecond has one anchor, and a part of such a millisecond holds several
 * runs), any id near its twin is kept, up to DEFERRED_RUN in a chain: 1.29 ->
 * 1.15 (1.02 times core's functions' instructions).
 */
static inline bool
kept_near_twin(ulid_sort_state *state, uint16 n, uint64 low)
{
	uint64		twin_low = load_be(state->deferred[n - 1].data + 8, 8);
	int			chain = (state->chained[n - 1] & ~KEPT_APART) + 1;
	bool		in_a_row = n == state->deferred_count;
	bool		next = in_a_row && low - twin_low == 1;
	bool		close = !next && chain < DEFERRED_CHAIN &&
		low - twin_low + DEFERRED_APART <= 2 * DEFERRED_APART;

	if (chain >= DEFERRED_RUN)
		return false;
	if (next && chain >= DEFERRED_CHAIN && !kept_out_of_order(state))
		return false;
	if (!next && !close && !kept_crowded(state))
		return false;
	state->kept_near++;
	state->chained[state->deferred_count] = (uint8) (chain | (next ? 0 : KEPT_APART));
	return true;
}

/*
 * The twins' table made with 2^bits slots (free: 0),
 * from the ids kept, and how many ids it may take: at most half its slots,
 * and the sample's ids but its last.
 */
static void
twins_make(ulid_sort_state *state, int bits)
{
	StaticAssertStmt(ANCHOR_SAMPLE <= PG_UINT16_MAX, "a twin's number fits its slot");
	state->twins = anchor_alloc_zero(state, sizeof(uint16) << bits);
	state->twin_shift = 64 - bits;
	state->twins_full = bits < TWIN_MAX_BITS ? 1 << (bits - 1) : ANCHOR_SAMPLE - 1;
	for (int i = 0; i < state->deferred_count; i++)
		*twin_of(state, kept_high(state, i)) = (uint16) (i + 1);
}

/*
 * The latent anchor an id kept came near, when catch_up() handed it over
 * (replayed_near_latent()), made active, as the id would have made it; NULL
 * where the replay gave it up to another part, or it is out of reach.
 */
static anchor *
activate_replayed(ulid_sort_state *state, const pg_ulid *ulid)
{
	uint64		high = load_be(ulid->data, 8);
	uint64		low = load_be(ulid->data + 8, 8);
	anchor	   *slot = anchor_of(state, (int64) (high >> PART_SHIFT),
								 plain_key(window_offset(state, high), low));

	if (slot != NULL && slot->held != high && anchor_high(state, slot) == high)
		slot = activate(state, slot, high);
	return slot != NULL && slot->held == high ? slot : NULL;
}

/*
 * The slot of the part of the id kept at index i in a table of the last id
 * kept of each part (its index + 1, 0 free): 2^TWIN_MAX_BITS slots, at
 * least twice the ids kept, found by the part's hash, then the next
 * slots.
 */
static uint16 *
part_slot(const ulid_sort_state *state, uint16 *last_of_part, int i)
{
	uint64		part = kept_high(state, i) >> PART_SHIFT;
	size_t		mask = ((size_t) 1 << TWIN_MAX_BITS) - 1;
	size_t		slot = (size_t) ((part * GOLDEN_RATIO_64) >> (64 - TWIN_MAX_BITS));

	while (last_of_part[slot] != 0 && kept_high(state, last_of_part[slot] - 1) >> PART_SHIFT != part)
		slot = (slot + 1) & mask;
	return &last_of_part[slot];
}

/* The table of the last id kept of each part, of the count ids kept. */
static void
last_of_parts(const ulid_sort_state *state, int count, uint16 *last_of_part)
{
	StaticAssertStmt(2 * ANCHOR_SAMPLE <= (1 << TWIN_MAX_BITS), "the table is at most half full");
	memset(last_of_part, 0, sizeof(uint16) << TWIN_MAX_BITS);
	for (int i = 0; i < count; i++)
		*part_slot(state, last_of_part, i) = (uint16) (i + 1);
}

/*
 * Whether the id kept at index i (chained[i]: chain) is the last id kept of
 * a run kept in a row that counts for the sample (kept past its
 * DEFERRED_CHAIN-th id), with no id of its part kept after it: made active
 * there, its anchor would key such an id (kept apart from its twin where
 * the ids kept are crowded, or whose twin another id took) apart from the
 * plain key it had (77 ids of 980 misplaced in sort case w16c).  A chain
 * kept apart has its KEPT_APART bit.  last_of_part: the last id kept of
 * each part, made at the first such run (last_of_parts()).
 */
static bool
ends_counted_run(const ulid_sort_state *state, int i, int count, uint8 chain,
				 uint16 *last_of_part, bool *made)
{
	if (chain < DEFERRED_CHAIN || (chain & KEPT_APART) ||
		(i + 1 < count && state->chained[i + 1] == chain + 1))
		return false;
	if (!*made)
		last_of_parts(state, count, last_of_part);
	*made = true;
	return *part_slot(state, last_of_part, i) == i + 1;
}

/*
 * The ids kept go to the sample, and the first converter goes on.  The ids
 * kept apart, and those of a run kept in a row from its DEFERRED_CHAIN-th
 * on, count as near their anchor (replaying_counted), never as a pair
 * (sample(): the first of them was the id that took the ids kept, live); a
 * run in a row makes its anchor active at its last id kept, as its next id
 * would have, live (latent until the replay's end, its way was taken by the
 * first id of another part of its slot: a run of 6 in one millisecond lost
 * its anchor to one 2^32 milliseconds away, sort case p); the ids kept
 * apart make theirs active once the replay took them all
 * (activate_replayed()).  An id whose anchor is gone then is not counted.
 */
static void
sample_deferred(SortSupport ssup, ulid_sort_state *state)
{
	int			count = state->deferred_count;
	uint16		near[ANCHOR_SAMPLE];	/* the ids counted near (key_while_anchoring()) */
	int			near_count = 0;
	uint16		last_of_part[1 << TWIN_MAX_BITS];	/* (ends_counted_run()) */
	bool		made = false;

	state->deferred_count = 0;
	state->twins_full = -1;		/* (never again) */
	state->input_count -= count;	/* (counted again) */
	state->catching_up = true;
	for (int i = 0; i < count; i++)
	{
		int			sampled_near = state->sampled_near;
		uint8		chain = state->chained[i];

		state->replaying_counted = (chain & KEPT_APART) || chain >= DEFERRED_CHAIN;
		(void) ulid_abbrev_convert(PointerGetDatum(&state->deferred[i]), ssup);
		if (state->sampled_near > sampled_near)
			near[near_count++] = (uint16) i;
		if (ends_counted_run(state, i, count, chain, last_of_part, &made))
			(void) activate_replayed(state, &state->deferred[i]);
	}
	state->catching_up = false;
	for (int i = 0; i < near_count; i++)
		state->sampled_near -= activate_replayed(state, &state->deferred[near[i]]) == NULL;
	state->last_part = -1;
	ssup->abbrev_converter = ulid_abbrev_convert;
}

/*
 * The near key of an id near the latent anchor in slot, of its first 8
 * bytes and not a copy of its id, which it makes active; else 0 (the slot
 * holds another part's anchor, or the id is far from it, or a copy).
 * (Within reach, it stays active; activate() makes the table room.)
 */
static pg_attribute_always_inline uint64
latent_made_active(ulid_sort_state *state, uint64 high, uint64 low, anchor *slot)
{
	uint64		key = near_key(slot, low);

	if (anchor_high(state, slot) != high || !is_near_key(slot, key) ||
		low == anchor_low(slot))
		return 0;
	(void) activate(state, slot, high);
	return key;
}

/*
 * The plain key of an id that makes its part's latent anchor in the free
 * slot; 0 where the table must grow first.
 */
static pg_attribute_always_inline uint64
latent_made(ulid_sort_state *state, uint64 high, uint64 low, anchor *slot)
{
	uint64		key;

	if (anchor_table_grown_bits(state, (int64) (high >> PART_SHIFT)) != 0)
		return 0;
	key = plain_key(window_offset(state, high), low);
	anchor_set(slot, key, low);
	state->anchors_made++;
	return key;
}

/*
 * The key of an id of a part within reach, not refused, without active
 * anchor (i: its slot): the id makes its part an anchor in the first free
 * way of its slot (where that needs no rebuild; active at once within the
 * span of the active anchors, below), or makes its part's
 * latent anchor there active if near it, and not a copy of its id, as
 * ulid_abbrev_convert would; else 0 (no window key), for
 * ulid_abbrev_convert: a slot that needs the table to grow first, ways all
 * held by other parts, an id of its part's anchor's part far from it, or a
 * copy.  Where ids go on making anchors after the sample (runs of 5 a
 * millisecond), the first two ids of each millisecond went on to
 * ulid_abbrev_convert: an ORDER BY of 100,000 took 1.8% more instructions.
 * In a table with ways, all of them did (before 0.5.0's last change): an
 * ORDER BY of 100,000 ids of four loads at once, 5 a millisecond each, took
 * 1.116 times uuid v4's instructions, 1.092 so (the ids of one load, 1.013).
 */
static pg_attribute_always_inline uint64
anchor_in_place(ulid_sort_state *state, uint64 high, uint64 low, anchor *slot)
{
	int64		part = (int64) (high >> PART_SHIFT);
	uint64		key;

	Assert(state->anchoring);	/* (within reach) */
	/* the anchor ulid_abbrev_convert looked up last may change, or move */
	state->last_part = -1;
	if (is_anchor(slot))		/* latent, or of another part */
		return latent_made_active(state, high, low, slot);
	key = latent_made(state, high, low, slot);
	/*
	 * Within the span of the active anchors of a table laid out for runs,
	 * the anchor is active at once: the next id of its run comes as a rule,
	 * and would only make it so (those of runs of 5, shuffled, took the
	 * slower path twice, and an ORDER BY of 100,000 ids of four loads at
	 * once, 5 a millisecond each, 2.3% more instructions).  Its range
	 * is the part's, as a latent anchor's is until narrowed: the ids of
	 * another run in the part key at its edges (they tie with one another,
	 * as they would with the anchor latent).  Out of the span it stays
	 * latent: an id alone would make the table grow, and narrow the reach.
	 * (Within reach and the span, activate() would only test both again:
	 * 0.35% more instructions there.)
	 */
	if (key != 0 && !state->scattered && within_span(state, part))
		make_active(state, slot, high);
	return key;
}

/*
 * Whether the ids converted so far hold one outside the window in
 * OUTSIDE_SHARE or more: the sample's converter of runs then keys such ids
 * before any look at the table (ulid_abbrev_convert_sample_runs_outside).
 */
static inline bool
many_outside(const ulid_sort_state *state)
{
	return state->outside_count * OUTSIDE_SHARE >= state->input_count;
}

/*
 * The key of an id outside the window in ulid_abbrev_convert_sample_runs,
 * as ulid_abbrev_convert gives it; where the ids so far hold one outside
 * the window in OUTSIDE_SHARE or more, the converter that keys such ids at
 * once takes over.  The ids the deferred sample kept decide it first
 * (catch_up()), but the sample meets a run's second id early, often before
 * any id outside: of 5 tables of 1,000 ids, half uuid v4 converted to
 * ulid, half 500 a millisecond, shuffled, one went on without it, its
 * ids outside looked up in the table and handed on to ulid_abbrev_convert:
 * its ORDER BY took 1.8% more instructions than the others', 0.2% more so.
 */
static Datum
sample_runs_outside_key(SortSupport ssup, ulid_sort_state *state, uint64 high)
{
	Datum		key = estimated_outside_key(state, high);

	if (many_outside(state))
		ssup->abbrev_converter = ulid_abbrev_convert_sample_runs_outside;
	return key;
}

/*
 * An id ulid_abbrev_convert_sample_runs found no active anchor near, with
 * the slot it looked up (its part's, where no active anchor held its first
 * 8 bytes), in a table of one way: the first id of its part the sample
 * takes makes the part's latent anchor, in the slot where it is free
 * (latent_made()), else where make_anchor() places it (another part's
 * anchor holds the slot); the second, near that anchor, makes it active
 * (latent_made_active()).  Each gets its key and the books of
 * ulid_abbrev_convert, which would have done the same, and so does an id
 * outside the window (sample_runs_outside_key()); any other id goes on to
 * it: of the part of the id before (a pair, for the sample), the sample's
 * last, of an anchor's part but not near it, of a part refused one
 * (make_anchor() refused it, or had: ulid_abbrev_convert finds it so), or
 * where the table must grow first.  There, its look-up of
 * the part's anchor and its tests of states the sample does not have took
 * about 150 of the 225 instructions of an id whose slot was free: an ORDER
 * BY of 1,000 ids, half 500 a millisecond, half one a millisecond a year
 * before them, shuffled (each of those makes a latent anchor that never
 * becomes active, about 2 in 5 in the slot of another's), took 1.89%
 * fewer instructions so (1.095 times uuid v4's -> 1.075), of 1,000 ids 5 a
 * millisecond, shuffled, 1.76% fewer (1.066 -> 1.048); batches of 100 ids
 * at random times, whose ids far from their anchor come here first, 0.17%
 * more.
 */
static pg_noinline Datum
sample_runs_missed(Datum original, SortSupport ssup, const anchor *looked_up)
{
	ulid_sort_state *state = ssup->ssup_extra;
	const uint8_t *id = DatumGetUlidP(original)->data;
	uint64		high = load_be(id, 8);
	uint64		low = load_be(id + 8, 8);
	int64		part = (int64) (high >> PART_SHIFT);
	uint64		offset = window_offset(state, high);
	anchor	   *slot = unconstify(anchor *, looked_up);
	bool		near = false;
	uint64		key = 0;

	Assert(state->short_runs == NULL && state->watched == NULL);
	if (!within_window(offset))
		return sample_runs_outside_key(ssup, state, high);
	if (state->ways != 1 || part == state->last_part ||
		state->sampled >= ANCHOR_SAMPLE - 1)
		return ulid_abbrev_convert(original, ssup);
	Assert(slot == &state->anchors[slot_index(state, part)]);
	if (!is_anchor(slot))
	{
		if (!is_refused(state, part))
			key = latent_made(state, high, low, slot);
	}
	else if ((key = latent_made_active(state, high, low, slot)) != 0)
		near = true;
	else if (!holds_part(slot, plain_key(offset, low)))
	{
		/* another part's anchor holds the slot */
		key = plain_key(offset, low);
		slot = make_anchor(state, part, key, low);
	}
	if (slot == NULL || key == 0)
		return ulid_abbrev_convert(original, ssup);
	state->last_part = part;
	state->last_anchor = slot;
	(void) sample(state, near, false);
	state->input_count++;
	return UInt64GetDatum(key);
}

/*
 * The first converter while the sample lasts once it found a run: an id near
 * the active anchor of its slot (not a copy of it) gets its key here, as
 * ulid_abbrev_convert would give it, and counts for the sample (which it does
 * not end); every other id goes on to ulid_abbrev_convert.  That keeps books
 * an id of a run does not need, in a function whose registers cost it 19
 * instructions: an ORDER BY of 1,000 ids 500 a millisecond took 3% fewer
 * instructions so.  An id of the run of the id before (in insertion order,
 * or reversed) finds its anchor without a look at the table: the anchor
 * last keyed an id near holds its first 8 bytes (an active anchor stays in
 * its slot until the table moves; then no_run_anchor takes its place).
 * That look, a hash and four ways, took
 * about 45 instructions an id, the test takes 3: an ORDER BY of 1,000 ids 500
 * a millisecond in reverse order took 3% fewer instructions, of 1,000 in
 * runs of 5 a millisecond, shuffled, 0.3% more.  by_part: the anchor keyed
 * an id of the same low bits of its part near last, not the id before
 * (ulid_abbrev_convert_sample_runs_ways).
 */
static pg_attribute_always_inline Datum
sample_runs_key(Datum original, SortSupport ssup, bool outside, bool by_part)
{
	ulid_sort_state *state = ssup->ssup_extra;
	const uint8_t *id = DatumGetUlidP(original)->data;
	uint64		high = load_be(id, 8);
	uint64		low = load_be(id + 8, 8);
	run_anchor *run = &state->run_anchors[by_part ?
										  (high >> PART_SHIFT) & (RUN_ANCHORS - 1) : 0];
	const anchor *slot = run->slot;
	bool		other_way;
	uint64		key;

	if (outside && !within_window(window_offset(state, high)))
		return estimated_outside_key(state, high);
	if (slot->held == high)
		other_way = run->other_way;
	else
	{
		size_t		i = slot_index(state, (int64) (high >> PART_SHIFT));

		slot = way_of_active(state, i, high);
		other_way = slot != &state->anchors[i];
	}
	/* (the sample's last id ends it there) */
	if (!near_active_anchor(slot, high, low, &key) || low == anchor_low(slot) ||
		state->sampled == ANCHOR_SAMPLE - 1)
		return sample_runs_missed(original, ssup, slot);
	run->slot = slot;
	run->other_way = other_way;
	state->other_way_ids += other_way;	/* (as anchor_of() counts them) */
	Assert(state->estimating && sample_lasts(state) && state->sampled_near > 0);
	state->sampled++;
	state->sampled_near++;
	state->input_count++;
	return UInt64GetDatum(key);
}

static Datum
ulid_abbrev_convert_sample_runs(Datum original, SortSupport ssup)
{
	return sample_runs_key(original, ssup, false, false);
}

/*
 * The same where the ids kept held one outside the window in OUTSIDE_SHARE
 * or more (uuids converted to ulid among runs): such an id is keyed at
 * once, not after a look at the table (4 instructions more an id, 45 fewer
 * an id outside: an ORDER BY of 1,000 ids half of them uuids converted, half
 * 500 a millisecond, took 1.8% fewer instructions).
 */
static Datum
ulid_abbrev_convert_sample_runs_outside(Datum original, SortSupport ssup)
{
	return sample_runs_key(original, ssup, true, false);
}

/*
 * The same where the table has ways as the sample's converter of runs
 * takes over: runs of one millisecond share its slot (loads at once), and
 * an id is of the run of the id before once in as many runs.  The anchor
 * to try first is the one keyed an id of its part's low bits near last,
 * of RUN_ANCHORS: of 1,000 ids of four loads at once, 500 a millisecond
 * each, shuffled, 3 in 4 looked their anchor up in the table (a hash and
 * four ways, about 45 instructions), and an ORDER BY took 1.013 times the
 * instructions of uuid v4's, 0.989 so (-2.34%).  Kept by part in the other
 * converter too, sorts of ids of a run shuffled with ids alone (a year
 * before, or uuids converted) or of runs of 5 a millisecond took 0.6% to
 * 0.75% more; looked up by part only where the anchor of the id before
 * missed, up to 1.1% more (the converter grew, and its code with it), and
 * that look in a function of its own, 2% to 3% more.
 */
static Datum
ulid_abbrev_convert_sample_runs_ways(Datum original, SortSupport ssup)
{
	return sample_runs_key(original, ssup, false, true);
}

/*
 * Installs the sample's converter once it found a run: the one for ids
 * outside the window where they are many, else the one for a table with
 * ways where it has them (which then keeps all of run_anchors), else the
 * first.
 */
static void
convert_sample_runs(SortSupport ssup, ulid_sort_state *state)
{
	if (many_outside(state))
		ssup->abbrev_converter = ulid_abbrev_convert_sample_runs_outside;
	else if (state->ways != 1)
	{
		state->runs_by_part = true;
		run_anchors_reset(state);
		ssup->abbrev_converter = ulid_abbrev_convert_sample_runs_ways;
	}
	else
		ssup->abbrev_converter = ulid_abbrev_convert_sample_runs;
}

/*
 * sample_deferred(), then the first converter's key of this id, which came
 * near its twin, or was the sample's last: where the sample goes on with an
 * active anchor (this id's, or one of the ids kept apart,
 * activate_replayed()), the sample's converter of runs goes on with it.
 */
static pg_noinline Datum
catch_up(Datum original, SortSupport ssup)
{
	ulid_sort_state *state = ssup->ssup_extra;
	Datum		key;

	sample_deferred(ssup, state);
	key = ulid_abbrev_convert(original, ssup);
	if (ssup->abbrev_converter == ulid_abbrev_convert && state->estimating &&
		sample_lasts(state) && state->active_count > 0)
		convert_sample_runs(ssup, state);
	return key;
}

static Datum ulid_abbrev_convert_deferred(Datum original, SortSupport ssup);

/* An id kept (its slot of the twins' table: twin), with its plain key. */
static inline Datum
keep(ulid_sort_state *state, const pg_ulid *ulid, uint16 *twin, uint64 offset,
	 uint64 low)
{
	state->deferred[state->deferred_count++] = *ulid;
	*twin = (uint16) state->deferred_count;
	state->input_count++;
	return UInt64GetDatum(plain_key(offset, low));
}

/*
 * An id near its twin (slot twin; its offset in the window and last 8
 * bytes, as its caller loaded them): kept where kept_near_twin() says so,
 * else catch_up().  (Not inlined: with the call it returns from,
 * ulid_abbrev_convert_deferred saved 6 registers on every id, 9
 * instructions an id of ids one a millisecond.)
 */
static pg_noinline Datum
near_twin_found(Datum original, SortSupport ssup, uint16 *twin, uint64 offset,
				uint64 low)
{
	ulid_sort_state *state = ssup->ssup_extra;

	if (!kept_near_twin(state, *twin, low))
		return catch_up(original, ssup);
	return keep(state, DatumGetUlidP(original), twin, offset, low);
}

/*
 * An id of the window where the twins' table is full: it grows eightfold
 * (the first id makes it), up to 2^TWIN_MAX_BITS slots; at the sample's last
 * id, catch_up().  (Fourfold, a sort of 1,000 ids put 670 of them back in
 * a new table, 0.4% of its instructions; eightfold 290, and it clears 5 kB
 * of tables, not 7.)
 */
static pg_noinline Datum
twins_full(Datum original, SortSupport ssup)
{
	ulid_sort_state *state = ssup->ssup_extra;

	if (state->twins == NULL)
	{
		arena_take(state);
		state->deferred = anchor_alloc(state, sizeof(pg_ulid) * (ANCHOR_SAMPLE + 1));
		state->chained = anchor_alloc_zero(state, ANCHOR_SAMPLE);
		/* deferred[-1], the twin of a free slot (near_twin()) */
		memset(state->deferred, 0, sizeof(pg_ulid));
		state->deferred++;
		twins_make(state, TWIN_MIN_BITS);
	}
	else if (state->twin_shift > 64 - TWIN_MAX_BITS)
		twins_make(state, Min(64 - state->twin_shift + 3, TWIN_MAX_BITS));
	else
		return catch_up(original, ssup);
	return ulid_abbrev_convert_deferred(original, ssup);
}

static Datum
ulid_abbrev_convert_deferred(Datum original, SortSupport ssup)
{
	ulid_sort_state *state = ssup->ssup_extra;
	const pg_ulid *ulid = DatumGetUlidP(original);
	uint64		high = load_be(ulid->data, 8);
	uint64		low = load_be(ulid->data + 8, 8);
	uint64		offset = window_offset(state, high);
	uint16	   *twin;

	if (!within_window(offset))
		return estimated_outside_key(state, high);
	if (state->deferred_count == state->twins_full)
		return twins_full(original, ssup);
	twin = twin_of(state, high);
	if (near_twin(state, *twin, high, low))
		return near_twin_found(original, ssup, twin, offset, low);
	return keep(state, ulid, twin, offset, low);
}

/* The converter once the estimate is over, with the table of blocks. */
static Datum
ulid_abbrev_convert_short_runs(Datum original, SortSupport ssup)
{
	ulid_sort_state *state = ssup->ssup_extra;
	const uint8_t *id = DatumGetUlidP(original)->data;
	uint64		high = load_be(id, 8);
	uint64		offset = window_offset(state, high);

	if (!within_window(offset))
		return UInt64GetDatum(outside_window_key(state, high));
	return UInt64GetDatum(short_runs_key(state, high, load_be(id + 8, 8), offset));
}

/*
 * The key of an id whose part may still get an anchor, once the sample is
 * over, its slot i given: anchor_in_place()'s, else ulid_abbrev_convert's.
 * (Not inlined: its registers cost the leaner converter 5 instructions an
 * id of a run.  Its slot is the leaner converter's: found again, it cost
 * 100,000 ids 5 a millisecond 0.3% of an ORDER BY; its first and last 8
 * bytes given too, ids of runs 0.14%, a register saved for them.)
 */
static pg_noinline Datum
ulid_abbrev_convert_anchoring(Datum original, SortSupport ssup, size_t i)
{
	ulid_sort_state *state = ssup->ssup_extra;
	const uint8_t *id = DatumGetUlidP(original)->data;
	uint64		high = load_be(id, 8);
	anchor	   *slot = &state->anchors[i];
	uint64		key = 0;

	if (state->ways > 1)
		slot = way_of_part_or_free(state, i, (int64) (high >> PART_SHIFT));
	if (slot != NULL)
		key = anchor_in_place(state, high, load_be(id + 8, 8), slot);
	if (key != 0)
		return UInt64GetDatum(key);
	return ulid_abbrev_convert(original, ssup);
}

/*
 * ulid_abbrev_convert_lean's key for an id of a part without active anchor:
 * its plain key, or ulid_abbrev_convert_anchoring's where the part may still
 * get one (i: its slot).
 */
static inline Datum
lean_unanchored(Datum original, SortSupport ssup, uint64 high, uint64 low,
				size_t i)
{
	ulid_sort_state *state = ssup->ssup_extra;
	int64		part = (int64) (high >> PART_SHIFT);
	uint64		offset = window_offset(state, high);

	if (!within_window(offset))
		return UInt64GetDatum(outside_window_key(state, high));
	if (within_reach(state, part) && !is_refused(state, part))
		return ulid_abbrev_convert_anchoring(original, ssup, i);
	return UInt64GetDatum(plain_key(offset, low));
}

/*
 * ulid_abbrev_convert_lean's key for an id of another part than the active
 * anchor of its slot, where the table has ways: its part's anchor may be in
 * one of them.  (Not inlined, for the registers, as ulid_abbrev_convert_lean
 * is not.)
 */
static pg_noinline Datum
lean_other_way(Datum original, SortSupport ssup, uint64 high, uint64 low, size_t i)
{
	ulid_sort_state *state = ssup->ssup_extra;
	const anchor *slot = active_way(state, i, high);
	uint64		key;

	if (near_active_anchor(slot, high, low, &key))
		return UInt64GetDatum(key);
	/* (the slot itself where no way holds it) */
	if (slot != &state->anchors[i])
		return UInt64GetDatum(far_from_active_anchor(state, slot, high, low));
	return lean_unanchored(original, ssup, high, low, i);
}

/*
 * ulid_abbrev_convert_lean's key for an id not near the active anchor of
 * its slot i, if any.  (Not inlined: with its paths in it, the leaner
 * converter saved a register and set up a frame for every id of a run, 8
 * of its 30 instructions: ORDER BY of 100,000 ids in runs, in a table laid
 * out for a span or hashed, took 0.5% to 0.7% more instructions.)
 */
static pg_noinline Datum
lean_not_near(Datum original, SortSupport ssup, uint64 high, uint64 low, size_t i)
{
	ulid_sort_state *state = ssup->ssup_extra;
	const anchor *slot = &state->anchors[i];

	if (holds(slot, high))
		return UInt64GetDatum(far_from_active_anchor(state, slot, high, low));
	if (state->ways > 1)
		return lean_other_way(original, ssup, high, low, i);
	return lean_unanchored(original, ssup, high, low, i);
}

/*
 * The converter once the estimate and the sample are over: the same keys as
 * ulid_abbrev_convert's, without the count and the estimate.  An id of the
 * millisecond of its slot's active anchor is keyed first, without a look at
 * the window; an id of a latent anchor, or of a millisecond that may still
 * get one, goes to ulid_abbrev_convert_anchoring (in place where it can,
 * else ulid_abbrev_convert).  (Not inlined into mixed_key(),
 * whose ids it keys seldom, and which would save registers for it on every
 * id.)
 *
 * Where the estimate found one id in OTHER_WAYS_SHARE or more of an anchor
 * in another way than its slot (bulk loads at once: 3 of 4), a version of
 * its own (ways) looks for the id's active anchor in the other ways of the
 * slot next, in line; else an id of another way goes to lean_not_near(),
 * then lean_other_way() and active_way().  An ORDER BY of 100,000 ids
 * of four loads at once took 2.7% fewer instructions with it (10,000 ids
 * 1.8%, 1,000,000 2.4%); but the registers of its loop cost every id a
 * frame, and one of two loads a year apart (a table of scattered anchors
 * with ways, few ids in the other ways) took 0.5% more with it.
 */
static pg_attribute_always_inline Datum
lean_key(Datum original, SortSupport ssup, bool spanned, bool ways)
{
	ulid_sort_state *state = ssup->ssup_extra;
	const uint8_t *id = DatumGetUlidP(original)->data;
	uint64		high = load_be(id, 8);
	uint64		low = load_be(id + 8, 8);
	size_t		i = converter_slot_index(state, high, spanned);
	const anchor *slot = &state->anchors[i];
	uint64		key;

	Assert(!ways || state->ways == ANCHOR_WAYS);
	if (ways)
		slot = way_of_active(state, i, high);
	/* an id of a run first: it has the anchor's first 8 bytes */
	if (near_active_anchor(slot, high, low, &key))
		return UInt64GetDatum(key);
	return lean_not_near(original, ssup, high, low, i);
}

static pg_noinline Datum
ulid_abbrev_convert_lean(Datum original, SortSupport ssup)
{
	return lean_key(original, ssup, false, false);
}

static pg_noinline Datum
ulid_abbrev_convert_lean_spanned(Datum original, SortSupport ssup)
{
	return lean_key(original, ssup, true, false);
}

static pg_noinline Datum
ulid_abbrev_convert_lean_ways(Datum original, SortSupport ssup)
{
	return lean_key(original, ssup, false, true);
}

static pg_noinline Datum
ulid_abbrev_convert_lean_ways_spanned(Datum original, SortSupport ssup)
{
	return lean_key(original, ssup, true, true);
}

/*
 * The converter once anchoring stopped with no active anchor left (ids one
 * per millisecond, random within it, uuid v7 values, converted uuids, a few
 * copies of each): every id keyed from its first bytes, in fewer
 * instructions than core's key for uuid.  (Where a fifth or more of the ids
 * are outside the window and as many in it, ulid_abbrev_convert_plain_mixed.)
 */
static Datum
ulid_abbrev_convert_plain(Datum original, SortSupport ssup)
{
	ulid_sort_state *state = ssup->ssup_extra;
	const uint8_t *id = DatumGetUlidP(original)->data;
	uint64		offset = window_offset(state, load_be(id, 8));

	if (!within_window(offset))
		return UInt64GetDatum(outside_window_key(state, load_be(id, 8)));
	/* (the first byte of the last 8 is all plain_key() takes of them) */
	return UInt64GetDatum(plain_key(offset, (uint64) id[8] << 56));
}

/*
 * ulid_abbrev_convert_plain for a table that mixes ids outside the window
 * with ids in it, shuffled (uuids converted to ulid, and ids made since, at
 * most a few a millisecond): both keys are made, and one picked without a
 * branch.  Which kind an id is cannot be predicted there: with half of each,
 * a branch on it was mispredicted for one id in two, and cost an ORDER BY
 * in memory 2% (1.02x of uuid v4's time, 1.00x without the branch); with a
 * third of ids outside the window, 1%.  With a fifth, the branch cost no
 * more than the 11 instructions this takes on top.
 */
static inline uint64
plain_or_outside_key(const ulid_sort_state *state, uint64 high, uint64 offset,
					 uint8_t next_byte)
{
	uint64		mask = -(uint64) within_window(offset);

	return (plain_key(offset, (uint64) next_byte << 56) & mask) |
		(outside_window_key(state, high) & ~mask);
}

static Datum
ulid_abbrev_convert_plain_mixed(Datum original, SortSupport ssup)
{
	ulid_sort_state *state = ssup->ssup_extra;
	const uint8_t *id = DatumGetUlidP(original)->data;
	uint64		high = load_be(id, 8);

	return UInt64GetDatum(plain_or_outside_key(state, high,
											   window_offset(state, high), id[8]));
}

/*
 * The converter while the estimate goes on past a sample that left no
 * anchor (and no table of blocks, no watch): the plain key, as
 * ulid_abbrev_convert_plain_mixed makes it, counted.  ulid_abbrev_convert
 * looked into the empty table for each id there: about 150 instructions an
 * id, where this takes 58 and the count's hash 26 (core's key for uuid, with
 * its hash, about 72).  The estimate goes on there while the keys counted
 * are a quarter of the ids or fewer (ids each many times, as in a foreign
 * key): for 1,000,000 ids that are 200 ids 5,000 times each, up to the
 * abort of abbreviation at 655,360 ids.  This converter alone took the
 * ORDER BY of 10,000 ids, 1,000 one per millisecond 10 times each,
 * shuffled, from 14.81 to 14.30 million instructions where the estimate
 * went on past 2,560 ids.
 */
static Datum
ulid_abbrev_convert_plain_counted(Datum original, SortSupport ssup)
{
	ulid_sort_state *state = ssup->ssup_extra;
	const uint8_t *id = DatumGetUlidP(original)->data;
	uint64		high = load_be(id, 8);
	uint64		offset = window_offset(state, high);
	uint64		key = plain_or_outside_key(state, high, offset, id[8]);

	state->outside_count += !within_window(offset);
	state->input_count++;
	count_key(state, key);
	return UInt64GetDatum(key);
}

/*
 * The converters in front of ulid_abbrev_convert_lean for a table that mixes
 * ids near their active anchors (runs) with ids no anchor may key: ids
 * outside the window (uuids converted to ulid), and ids in it of
 * milliseconds out of reach of the anchors, or met once anchoring stopped
 * (ids made one at a time, a year before a bulk load).  Which kind an id is
 * cannot be predicted there: a branch on it, mispredicted for one id in two,
 * and waiting behind it for a slot of the table out of the first-level
 * cache, cost such a table 2 to 3.5% of an ORDER BY.  So both keys are made
 * and one picked without a branch, with one test, true for both kinds; the
 * other ids go on to ulid_abbrev_convert_lean.  A kind the estimate met
 * seldom is left out, and goes on to it too: where it met fewer than one id
 * in MIXED_SHARE of the window without an anchor (runs and converted
 * uuids), or the anchors are scattered (none is out of reach), the plain
 * key and its tests are not made (plain_in_window false): with them, such a
 * table's ORDER BY of 100,000 ids took 3.3% more instructions (92 an id
 * here, 50 without).  Else, where it met fewer ids outside the window (runs
 * and ids made one at a time before them), the key outside the window and
 * the mask that picks it are not made (outside_window false): 1% of such an
 * ORDER BY.
 */
static pg_attribute_always_inline Datum
mixed_key(Datum original, SortSupport ssup, bool plain_in_window,
		  bool outside_window, bool spanned)
{
	ulid_sort_state *state = ssup->ssup_extra;
	const uint8_t *id = DatumGetUlidP(original)->data;
	uint64		high = load_be(id, 8);
	int64		part = (int64) (high >> PART_SHIFT);
	uint64		offset = window_offset(state, high);
	uint64		in_window = within_window(offset);

	/*
	 * An id outside the window has no anchor, but the slot is loaded all the
	 * same: its index, from random bytes, would be a random line of the
	 * table, out of the cache for most.  Slot 0 is loaded for it instead
	 * (its index masked off), a line the cache keeps: perf put the mixed
	 * table's converter at 3.6% of an ORDER BY's samples against 5.3%.  Slot
	 * 0 is not that id's own slot: free, it holds the free mark of
	 * millisecond 1 (free_slot()), the first 8 bytes of ids outside the
	 * window, and 00000000010000000000000000 is near it (key 0: below ids
	 * of millisecond 0).  So an id is near only in the window: where ids
	 * outside it are keyed here (outside_window), such an id fails the test
	 * below (in_window 0, near 1) and goes on to the leaner converter, which
	 * looks into its own slot; elsewhere near is masked (masked there too,
	 * the converter of runs and ids outside the window saved a register
	 * for it: 9 instructions more an id, with a frame).  no_run_anchor,
	 * which no id outside the window is wrongly near, would serve too, but
	 * GCC picked it with a branch on the window, the one these converters
	 * avoid, in code 13 to 18 instructions longer.
	 */
	const anchor *slot = &state->anchors[converter_slot_index(state, high,
															  spanned) &
										 -in_window];
	uint64		key = near_key(slot, load_be(id + 8, 8));

	/*
	 * All tests are made: with &&, a branch on the first, mispredicted for
	 * half the ids, cost such a table 3% of an ORDER BY in memory.  (Where
	 * the table has ways, an id out of reach may have an active anchor in
	 * another way than the slot: the leaner converter looks.)
	 */
	uint64		near = (uint64) (high == slot->held) & (uint64) is_near_key(slot, key);
	uint64		near_mask;
	uint64		unanchored = 0;
	uint64		other;

	if (!outside_window)
		near &= in_window;
	near_mask = -near;

	if (plain_in_window)
		unanchored = in_window & (uint64) !holds(slot, high) &
			(uint64) !within_reach(state, part) & (uint64) (state->ways == 1);
	/*
	 * Keyed here: an id near its anchor, or of the window without one (if
	 * plain_in_window), or outside the window (if outside_window), the three
	 * excluding each other (an id near its anchor holds its slot, and is in
	 * the window).  Every other id goes on.
	 */
	if ((outside_window ? in_window : 1) != near + unanchored)
		return spanned ? ulid_abbrev_convert_lean_spanned(original, ssup) :
			ulid_abbrev_convert_lean(original, ssup);
	if (!outside_window)
		other = plain_key(offset, (uint64) id[8] << 56);
	else if (!plain_in_window)
		other = outside_window_key(state, high);
	else
	{
		uint64		window_mask = -in_window;

		other = (plain_key(offset, (uint64) id[8] << 56) & window_mask) |
			(outside_window_key(state, high) & ~window_mask);
	}
	return UInt64GetDatum((key & near_mask) | (other & ~near_mask));
}

static Datum
ulid_abbrev_convert_mixed(Datum original, SortSupport ssup)
{
	return mixed_key(original, ssup, true, true, false);
}

static Datum
ulid_abbrev_convert_runs_outside(Datum original, SortSupport ssup)
{
	return mixed_key(original, ssup, false, true, false);
}

static Datum
ulid_abbrev_convert_runs_unanchored(Datum original, SortSupport ssup)
{
	return mixed_key(original, ssup, true, false, false);
}

static Datum
ulid_abbrev_convert_mixed_spanned(Datum original, SortSupport ssup)
{
	return mixed_key(original, ssup, true, true, true);
}

static Datum
ulid_abbrev_convert_runs_outside_spanned(Datum original, SortSupport ssup)
{
	return mixed_key(original, ssup, false, true, true);
}

static Datum
ulid_abbrev_convert_runs_unanchored_spanned(Datum original, SortSupport ssup)
{
	return mixed_key(original, ssup, true, false, true);
}

/*
 * The converters once the sample is over, for a hashed table and for one
 * laid out for a span (converter_slot_index()): the leaner one, and those in
 * front of it for mixed tables.
 */
typedef struct lean_converter_set
{
	Datum		(*lean) (Datum original, SortSupport ssup);
	Datum		(*lean_ways) (Datum original, SortSupport ssup);
	Datum		(*mixed) (Datum original, SortSupport ssup);
	Datum		(*runs_outside) (Datum original, SortSupport ssup);
	Datum		(*runs_unanchored) (Datum original, SortSupport ssup);
} lean_converter_set;

static const lean_converter_set lean_converters[2] = {
	{ulid_abbrev_convert_lean, ulid_abbrev_convert_lean_ways, ulid_abbrev_convert_mixed,
	 ulid_abbrev_convert_runs_outside, ulid_abbrev_convert_runs_unanchored},
	{ulid_abbrev_convert_lean_spanned, ulid_abbrev_convert_lean_ways_spanned,
	 ulid_abbrev_convert_mixed_spanned,
	 ulid_abbrev_convert_runs_outside_spanned, ulid_abbrev_convert_runs_unanchored_spanned}
};

static inline const lean_converter_set *
lean_converters_for(const ulid_sort_state *state)
{
	return &lean_converters[state->slot_factor == 1];
}

/*
 * Once the estimate is over, the leaner converter: ulid_abbrev_convert_lean
 * needs the sample over (and so the table made).
 */
static void
choose_lean_converter(SortSupport ssup, ulid_sort_state *state)
{
	if (state->short_runs != NULL)
		ssup->abbrev_converter = ulid_abbrev_convert_short_runs;
	else if (sample_lasts(state))
		ssup->abbrev_converter = ulid_abbrev_convert_sampling;
	else if (!state->anchoring && state->active_count == 0)
		ssup->abbrev_converter = state->plain_mixed ?
			ulid_abbrev_convert_plain_mixed : ulid_abbrev_convert_plain;
	else
	{
		const lean_converter_set *set = lean_converters_for(state);

		ssup->abbrev_converter = !state->mixed ?
			(state->lean_ways ? set->lean_ways : set->lean) :
			state->runs_outside ? set->runs_outside :
			state->runs_unanchored ? set->runs_unanchored : set->mixed;
	}
}

/* Whether count is one id in share or more, and leaves as many. */
static bool
mixed_at_least(const ulid_sort_state *state, int64 count, int share)
{
	return count > state->input_count / share &&
		count < state->input_count - state->input_count / share;
}

/*
 * The estimate is over: the watch for short runs ends, and a leaner
 * converter takes over, chosen by what the ids so far showed.
 */
static void
end_estimate(SortSupport ssup, ulid_sort_state *state)
{
	char		active[160] = "";
	char		put_back[64] = "";
	const lean_converter_set *set;

	state->estimating = false;
	if (state->watched != NULL)
		short_runs_watch_end(state);
	/* (scattered, ids in the window may all get anchors) */
	state->mixed = mixed_at_least(state, state->outside_count +
								  (state->scattered ? 0 : state->unanchored_count),
								  MIXED_SHARE);
	state->plain_mixed = mixed_at_least(state, state->outside_count, PLAIN_MIXED_SHARE);
	/* (scattered, no id of the window is out of reach) */
	state->runs_outside = state->scattered ||
		state->unanchored_count <= state->input_count / MIXED_SHARE;
	state->runs_unanchored =
		state->outside_count <= state->input_count / MIXED_SHARE;
	state->lean_ways = state->ways > 1 &&
		state->other_way_ids > state->input_count / OTHER_WAYS_SHARE;
	choose_lean_converter(ssup, state);
	set = lean_converters_for(state);
	/* once a sort; the sort suite shows when, with what, and which converter */
	if (state->short_runs != NULL && state->watched_near > 0)
		snprintf(active, sizeof(active), ", short runs after the sample (" INT64_FORMAT " ids near the last of their millisecond): anchors in " INT64_FORMAT " of " UINT64_FORMAT " milliseconds",
				 state->watched_near, state->short_runs_made, state->short_runs_count);
	else if (state->short_runs != NULL)
		snprintf(active, sizeof(active), ", short runs: anchors in " INT64_FORMAT " of " UINT64_FORMAT " milliseconds",
				 state->short_runs_made, state->short_runs_count);
	else if (state->active_count > 0 && state->scattered)
		snprintf(active, sizeof(active), ", active anchors: %d (scattered, a table of %zu slots)",
				 state->active_count, table_slots(state));
	else if (state->active_count > 0)
		snprintf(active, sizeof(active), ", active anchors: %d", state->active_count);
	if (state->victims_put_back > 0)
		snprintf(put_back, sizeof(put_back), ", latent anchors put back after the sample: %d",
				 state->victims_put_back);
	elog(DEBUG1, "ulid sort support: the leaner key converter takes over after " INT64_FORMAT " ids%s%s%s%s",
		 state->input_count, active, put_back,
		 ssup->abbrev_converter == set->lean_ways ? ", runs in the other ways of their slots" :
		 ssup->abbrev_converter == set->mixed ? ", runs and other ids mixed" :
		 ssup->abbrev_converter == set->runs_outside ? ", runs and ids outside the window mixed" :
		 ssup->abbrev_converter == set->runs_unanchored ? ", runs and ids of the window without anchor mixed" :
		 ssup->abbrev_converter == ulid_abbrev_convert_plain ? ", no anchor: plain keys" :
		 ssup->abbrev_converter == ulid_abbrev_convert_plain_mixed ? ", ids in and outside the window mixed, no anchor: plain keys" : "",
		 state->anchors != NULL && state->arena == NULL ?
		 ", tables in the sort's memory (other sorts held the arenas)" : "");
}

/*
 * Whether the keys are more than a quarter of the ids counted: then core's
 * rule to give abbreviation up could fail only after ABBREV_MAX_IDS_PER_KEY
 * / 4 times as many ids, nearly all copies of ids seen (which cost ties
 * whether abbreviated or not), so the estimate may end.  Where it would
 * fail, abbreviation kept costs less than given up: 1,000,000 ids, 200 ids
 * one a millisecond 5,000 times each, shuffled, took 1,508 million
 * instructions to ORDER BY with abbreviation given up at 655,360 ids, 1,322
 * million with it kept (uuid v4 alike: 1,545 to 1,566).  With half the ids
 * (before), the 10,000 ids of 1,000 one a millisecond 10 times each were at
 * the edge at the check of 2,560 ids (about 785 keys of 1,536 ids counted),
 * which the estimate's hashes decided, and with them the window, which
 * moves with the clock: the estimate went on in about one sort of 8, and
 * the sort took 14.81 million instructions where it ended in 13.78 (uuid v4
 * alike: 14.02).
 */
#define KEYS_SHARE_TO_END		4

static bool
keys_enough_to_end(const ulid_sort_state *state, double distinct_keys)
{
	return distinct_keys > (double) state->hashed_count / KEYS_SHARE_TO_END;
}

/*
 * keys_enough_to_end() at the check of 2,560 ids, without the whole estimate
 * where it can: estimateHyperLogLog() takes 140 thousand instructions there
 * (a pow() for each of its 1,024 registers), 1% of a sort of 10,000 ids.
 * Where a register is empty and its raw estimate is at most 2.5 times the
 * registers, the estimate is the linear count of its empty registers (its
 * small range correction); where the raw estimate is above, it is that or
 * more (its large range correction only raises it).  So where that count
 * says the keys are enough, so does the estimate: it is the count, or more
 * than 2.5 times the registers, more than a quarter of the ids where they
 * are fewer than 10 times the registers.  Else the estimate decides.  (This
 * follows core's estimateHyperLogLog(), the same from 13 to 18.)
 */
static bool
keys_enough_to_end_early(ulid_sort_state *state)
{
	hyperLogLogState *keys = &state->distinct_keys;
	double		registers = (double) keys->nRegisters;
	Size		empty = 0;

	for (Size i = 0; i < keys->nRegisters; i++)
		empty += keys->hashesArr[i] == 0;
	if (empty > 0 &&
		(double) state->hashed_count < 2.5 * KEYS_SHARE_TO_END * registers &&
		keys_enough_to_end(state, registers * log(registers / (double) empty)))
		return true;
	return keys_enough_to_end(state, estimateHyperLogLog(keys));
}

/*
 * Whether one id in MIXED_SHARE or fewer so far was in the window: uuids
 * converted to ulid (0.4% of which fall in it), and a few ids made since.
 */
static inline bool
few_in_window(const ulid_sort_state *state)
{
	return state->input_count - state->outside_count <= state->input_count / MIXED_SHARE;
}

static bool
ulid_abbrev_abort(int memtupcount, SortSupport ssup)
{
	ulid_sort_state *state = ssup->ssup_extra;
	double		distinct_keys;

	if (!state->estimating || state->input_count < EARLY_END_INPUT)
		return false;
	/* (what follows reads the sample's counts) */
	if (state->deferred_count > 0)
		sample_deferred(ssup, state);

	/*
	 * Before ABBREV_MIN_INPUT ids, abbreviation is kept, but the estimate
	 * may end where the keys are enough (keys_enough_to_end()): sorts of a
	 * few thousand ids are then keyed by the leaner converter from the check
	 * of 2,560 ids on.
	 * Not while the sample lasts or the watch for short runs is on: both
	 * need the ids up to the end of the estimate (a sample that ends after
	 * it starts no watch); but while the sample lasts among few ids of the
	 * window (uuids converted to ulid), whose short runs would cost little,
	 * and whose hashing cost an ORDER BY of 10,000 converted uuids 3.8% more
	 * instructions (1.006 times uuid v4's, 0.968 without; CREATE INDEX
	 * 1.003 and 0.984).  Those are tested first, and the keys at that
	 * check only (not at 5,120 tuples, where they are rarely enough if
	 * they were not before): an estimate takes 140 thousand instructions
	 * (keys_enough_to_end_early()).  Where ids go on making anchors (runs of
	 * 5 a millisecond, batches of a large table), the leaner converter
	 * makes them (anchor_in_place(), or hands them back to the first),
	 * which costs less than the first converter and the estimate's hashing
	 * for every id up to 10,240: 10,000 ids 5 a millisecond took 4.7% fewer
	 * instructions so, 100,000 0.07% more (the ids handed back, before
	 * anchor_in_place()), 100,000 in batches over a year 0.74% fewer.
	 * (By memtupcount, which counts NULLs as tuplesort's checks do;
	 * input_count does not.)
	 */
	if (state->input_count < ABBREV_MIN_INPUT)
	{
		if (memtupcount < 2 * EARLY_END_INPUT && state->watched == NULL &&
			(!sample_lasts(state) || few_in_window(state)) &&
			keys_enough_to_end_early(state))
			end_estimate(ssup, state);
		return false;
	}
	distinct_keys = estimateHyperLogLog(&state->distinct_keys);
	if (distinct_keys < (double) state->hashed_count / ABBREV_MAX_IDS_PER_KEY + 0.5)
	{
		elog(DEBUG1, "ulid sort support: abbreviated keys given up after " INT64_FORMAT " ids: too few distinct keys",
			 state->input_count);
		return true;
	}
	/*
	 * Past ABBREV_ENOUGH_KEYS keys, abbreviation has paid for itself (core's
	 * rule for uuid); core's uuid goes on hashing its keys up to 163,840
	 * ids, a percent of an ORDER BY.
	 */
	if (distinct_keys > ABBREV_ENOUGH_KEYS || keys_enough_to_end(state, distinct_keys))
		end_estimate(ssup, state);
	return false;
}

/*
 * The anchor table may take a quarter of work_mem, and at most
 * ANCHOR_MAX_BYTES; tuplesort does not count it, so this keeps the sort
 * within a quarter more than it was given.  (An index build, which is given
 * maintenance_work_mem, is held to the same.)
 */
static int
anchor_max_slot_bits(void)
{
	int64		bytes = Min((int64) work_mem * 1024 / 4, ANCHOR_MAX_BYTES);
	int			bits = pg_leftmost_one_pos64((uint64) Max(bytes / (int64) sizeof(anchor), 1));

	return Max(bits, pg_leftmost_one_pos32(ANCHOR_MIN_SLOTS));
}

/* What a ulid shares with uuid, and with uuid values (ulid--*.sql). */
ULID_CALLS_CORE(ulid_recv, uuid_recv);
ULID_CALLS_CORE(ulid_send, uuid_send);
ULID_CALLS_CORE(ulid_eq, uuid_eq);
ULID_CALLS_CORE(ulid_ne, uuid_ne);
ULID_CALLS_CORE(ulid_lt, uuid_lt);
ULID_CALLS_CORE(ulid_le, uuid_le);
ULID_CALLS_CORE(ulid_gt, uuid_gt);
ULID_CALLS_CORE(ulid_ge, uuid_ge);
ULID_CALLS_CORE(ulid_cmp, uuid_cmp);
ULID_CALLS_CORE(ulid_hash, uuid_hash);
ULID_CALLS_CORE(ulid_hash_extended, uuid_hash_extended);
#if ULID_HAVE_BRIN_MINMAX_MULTI
ULID_CALLS_CORE(ulid_minmax_multi_distance, brin_minmax_multi_distance_uuid);
#endif
#if ULID_HAVE_SKIP_SUPPORT
ULID_CALLS_CORE(ulid_skipsupport, uuid_skipsupport);
#endif

PG_FUNCTION_INFO_V1(ulid_sortsupport);
Datum
ulid_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = ulid_fast_cmp;
	/* an 8-byte key needs an 8-byte Datum */
#if SIZEOF_DATUM == 8
	if (ssup->abbreviate)
	{
		MemoryContext old_context = MemoryContextSwitchTo(ssup->ssup_cxt);
		ulid_sort_state *state = palloc0(sizeof(ulid_sort_state));
		int64		now_ms = GetCurrentTransactionStartTimestamp() / 1000 +
			(int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * 1000;

		state->estimating = true;
		initHyperLogLog(&state->distinct_keys, 10);
		/* (from 1 on: a free slot of the anchor table holds 0) */
		state->window_start = (uint64) Max(Min(now_ms - WINDOW_BEFORE_NOW_MS, WINDOW_START_MAX_MS), 1) << 16;
		state->context = ssup->ssup_cxt;
		state->anchoring = true;
		state->reach_count = PG_UINT64_MAX;
		state->last_part = -1;
		state->max_slot_bits = anchor_max_slot_bits();
		state->short_runs_max = (sizeof(anchor) << state->max_slot_bits) / sizeof(uint64);
		state->sample_slot_bits = Min(state->max_slot_bits, ANCHOR_NO_RUN_SLOT_BITS);
		MemoryContextSwitchTo(old_context);

		ssup->ssup_extra = state;
		ssup->comparator = ssup_datum_unsigned_cmp;
		ssup->abbrev_converter = ulid_abbrev_convert_deferred;
		ssup->abbrev_abort = ulid_abbrev_abort;
		ssup->abbrev_full_comparator = ulid_fast_cmp;
	}
#endif
	PG_RETURN_VOID();
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
 * so an id is greater than every id generated before it in any session,
 * and, through the database's high-water mark, before a restart.
 */
PG_FUNCTION_INFO_V1(ulid_generate_shared);
Datum
ulid_generate_shared(PG_FUNCTION_ARGS)
{
	int64		now_ms;
	pg_ulid    *result = new_ulid();

	check_server_wide_generation(fcinfo->flinfo->fn_oid);
	now_ms = ulid_clock_now_ms();
	check_generated(shared_ulid_next(fcinfo->flinfo->fn_oid, now_ms, result->data), now_ms);
	PG_RETURN_ULID_P(result);
}
