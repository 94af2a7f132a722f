/*
 * sort_fuzz.c
 *		The ids of one trial of the sort fuzzer (test/suites/sort_fuzz.sh).
 *
 *	  sort_fuzz SEED NOW_MS [IDS]
 *
 * prints, one a line in the text form, the ids of a table made of one to
 * five shapes of the kinds users have, drawn from SEED, in an order drawn
 * too; standard error gets one line that says what was drawn.  NOW_MS is
 * the server's time (the sort support keys the ids of a window around it
 * otherwise than those outside).  IDS fixes the number of ids, else drawn,
 * from 1 to 2,000,000.
 *
 * The shapes: monotonic runs (one to 64 generators a millisecond, 1 to
 * 50,000 ids each, increments of 1 or random, carries out of the last 8
 * bytes and across the bits the sort support's parts and fields are cut
 * at), random ids at any rate (or back-filled: random, but the id after
 * one of its millisecond that id + 1), uuid v4 and v7 values, and the
 * extremes;
 * their milliseconds consecutive, stepped, scattered or going back, near
 * now, the window's edges, 1970 or the end of time; some ids copied.  The
 * orders: shuffled, sorted, reversed, as inserted, loads interleaved,
 * nearly sorted, shuffled in blocks.
 *
 * Pure C, with the project's codec for the text form.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"

#define MS_MAX			((UINT64_C(1) << 48) - 1)
#define MAX_IDS			2000000
/* the sort support's window (src/ulid.c): 2^40 ms, starting 2^40 - 2^37 before now */
#define WINDOW_BEFORE	((INT64_C(1) << 40) - (INT64_C(1) << 37))
#define WINDOW_LENGTH	(INT64_C(1) << 40)
/* the random bits of the first 8 bytes below an id's part (src/ulid.c: PART_SHIFT) */
#define IN_PART_MASK	((UINT64_C(1) << 10) - 1)

typedef struct id128
{
	uint64_t	high;			/* the first 8 bytes: millisecond, 16 random bits */
	uint64_t	low;
} id128;

static id128 *ids;
static size_t id_count;
static uint64_t rng_state;
static int64_t now_ms;
static char description[4096];

static void
describe(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void
describe(const char *fmt, ...)
{
	size_t		used = strlen(description);
	va_list		args;

	va_start(args, fmt);
	vsnprintf(description + used, sizeof(description) - used, fmt, args);
	va_end(args);
}

/* splitmix64 */
static uint64_t
next_random(void)
{
	uint64_t	z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* 0 .. n - 1 (n > 0) */
static uint64_t
below(uint64_t n)
{
	return next_random() % n;
}

/* lo .. hi, about evenly on a log scale (1 <= lo <= hi) */
static uint64_t
log_uniform(uint64_t lo, uint64_t hi)
{
	int			lo_bits = 64 - __builtin_clzll(lo);
	int			hi_bits = 64 - __builtin_clzll(hi);
	int			bits = lo_bits + (int) below((uint64_t) (hi_bits - lo_bits + 1));
	uint64_t	value = (bits >= 64 ? next_random() : next_random() & ((UINT64_C(1) << bits) - 1)) |
		(UINT64_C(1) << (bits - 1));

	return value < lo ? lo : value > hi ? hi : value;
}

/* true with probability percent / 100 */
static int
chance(int percent)
{
	return (int) below(100) < percent;
}

static void
push(uint64_t high, uint64_t low)
{
	if (id_count < MAX_IDS)
		ids[id_count++] = (id128) {high, low};
}

static uint64_t
clamp_ms(int64_t ms)
{
	return ms < 0 ? 0 : (uint64_t) ms > MS_MAX ? MS_MAX : (uint64_t) ms;
}

/* where a shape's first millisecond is */
static uint64_t
first_ms(void)
{
	int64_t		window_start = now_ms - WINDOW_BEFORE;
	int64_t		edge_distance = (int64_t) log_uniform(1, UINT64_C(1) << 30) * (chance(50) ? 1 : -1);

	switch (below(10))
	{
		case 0:
		case 1:
			describe(" near now");
			return clamp_ms(now_ms - (int64_t) log_uniform(1, UINT64_C(1) << 26));
		case 2:
			describe(" in the last years");
			return clamp_ms(now_ms - (int64_t) log_uniform(1, UINT64_C(1) << 36));
		case 3:
			describe(" at the window's start%+lld", (long long) edge_distance);
			return clamp_ms(window_start + edge_distance);
		case 4:
			describe(" at the window's end%+lld", (long long) edge_distance);
			return clamp_ms(window_start + WINDOW_LENGTH + edge_distance);
		case 5:
			describe(" in the future");
			return clamp_ms(now_ms + (int64_t) log_uniform(1, UINT64_C(1) << 40));
		case 6:
			describe(" before the window");
			return below(UINT64_C(1) << 40);
		case 7:
			describe(" near 1970");
			return log_uniform(1, UINT64_C(1) << 20) - 1;
		case 8:
			describe(" near the end of time");
			return MS_MAX - log_uniform(1, UINT64_C(1) << 20) + 1;
		default:
			describe(" anywhere");
			return below(MS_MAX + 1);
	}
}

/* How a shape's milliseconds go on from the first: the j-th of them. */
typedef struct ms_walk
{
	uint64_t	first;
	int			kind;			/* 0 consecutive, 1 stepped, 2 scattered, 3 going back */
	uint64_t	step;			/* kind 1 */
	uint64_t	span;			/* kind 2 */
} ms_walk;

static ms_walk
draw_walk(void)
{
	static const int kinds[] = {0, 0, 0, 0, 1, 1, 2, 2, 3};
	ms_walk		walk = {first_ms(), kinds[below(sizeof(kinds) / sizeof(kinds[0]))], 0, 0};

	switch (walk.kind)
	{
		case 0:
			describe(", consecutive");
			break;
		case 1:
			walk.step = log_uniform(2, UINT64_C(1) << 32);
			describe(", every %llu ms", (unsigned long long) walk.step);
			break;
		case 2:
			walk.span = log_uniform(2, UINT64_C(1) << 40);
			describe(", scattered over %llu ms", (unsigned long long) walk.span);
			break;
		default:
			describe(", going back");
			break;
	}
	return walk;
}

static uint64_t
walk_ms(const ms_walk *walk, uint64_t j)
{
	switch (walk->kind)
	{
		case 0:
			return (walk->first + j) & MS_MAX;
		case 1:
			return (walk->first + j * walk->step) & MS_MAX;
		case 2:
			return (walk->first + below(walk->span)) & MS_MAX;
		default:
			return (walk->first - j) & MS_MAX;
	}
}

/*
 * The randomness a generator starts a millisecond with: random, or with its
 * last 8 bytes near a carry, or its 16 random bits of the first 8 at the
 * edges where the sort support cuts them (parts of 10 bits, fields).
 */
static void
run_start(uint64_t ms, int crafted, uint64_t span, uint64_t *high, uint64_t *low)
{
	static const uint16_t edges[] = {0x0000, 0xFFFF, 0x03FF, 0x0400, 0xFC00, 0x7FFF, 0x8000,
	0x07FF, 0xF7FF, 0x01FF, 0x0200};
	uint64_t	random16 = next_random() & 0xFFFF;

	*low = next_random();
	if (crafted && chance(50))
		*low = -(span / 2 + below(span + 1));	/* carries half-way */
	else if (crafted && chance(30))
		*low = chance(50) ? below(1 + span) : -below(1 + span);
	if (crafted && chance(60))
		random16 = edges[below(sizeof(edges) / sizeof(edges[0]))];
	*high = ms << 16 | random16;
}

/* 128-bit addition of a 64-bit increment */
static void
add(uint64_t *high, uint64_t *low, uint64_t increment)
{
	uint64_t	before = *low;

	*low += increment;
	if (*low < before)
		(*high)++;
}

/* A bulk load's monotonic runs: what make_runs() draws. */
typedef struct load
{
	int			gens;			/* generators at once, 1 to 64 */
	uint64_t	run;			/* ids a millisecond, each */
	int			uneven;			/* or 1 to twice as many */
	uint64_t	max_increment;	/* 1, or random increments up to this */
	int			crafted;		/* starts at edges (run_start()) */
	uint64_t	chunk;			/* the generators take turns, this many ids each */
} load;

static load
draw_load(size_t count)
{
	load		l;
	int			increments = chance(60) ? 0 : chance(25) ? 1 : 2;

	l.gens = chance(60) ? 1 : chance(85) ? (int) log_uniform(2, 8) : (int) log_uniform(9, 64);
	l.run = log_uniform(1, count < 50000 ? count : 50000);
	l.uneven = chance(30);
	l.max_increment = increments == 0 ? 1 : increments == 1 ? log_uniform(2, 8) :
		log_uniform(9, UINT64_C(1) << 48);
	l.crafted = chance(35);
	l.chunk = log_uniform(1, l.run);
	return l;
}

/*
 * Monotonic runs: the load's generators each make its run of ids in each
 * millisecond of the walk (fresh randomness each millisecond, then
 * increments), inserted in turns, a chunk of each generator at a time.
 */
static void
make_runs(size_t count, const load *l)
{
	size_t		end = id_count + count;
	ms_walk		walk;

	describe(" runs: %d generator(s) of %llu%s a ms, increments up to %llu%s, in chunks of %llu,",
			 l->gens, (unsigned long long) l->run, l->uneven ? " or so" : "",
			 (unsigned long long) l->max_increment, l->crafted ? ", starts at edges" : "",
			 (unsigned long long) l->chunk);
	walk = draw_walk();
	for (uint64_t j = 0; id_count < end && id_count < MAX_IDS; j++)
	{
		uint64_t	ms = walk_ms(&walk, j);
		uint64_t	high[64],
					low[64],
					left[64];
		int			busy = l->gens;

		for (int g = 0; g < l->gens; g++)
		{
			left[g] = l->uneven ? 1 + below(2 * l->run) : l->run;
			run_start(ms, l->crafted, left[g] * l->max_increment, &high[g], &low[g]);
		}
		while (busy > 0 && id_count < end)
		{
			busy = 0;
			for (int g = 0; g < l->gens && id_count < end; g++)
			{
				for (uint64_t k = 0; k < l->chunk && left[g] > 0 && id_count < end; k++, left[g]--)
				{
					push(high[g], low[g]);
					add(&high[g], &low[g], l->max_increment == 1 ? 1 : 1 + below(l->max_increment));
				}
				busy += left[g] > 0;
			}
		}
	}
}

/*
 * Random ids (ulid_generate_random()), rate a millisecond; or back-filled
 * (ulid_generate(t) over rows taken in another order than t): each id's
 * millisecond drawn among those the rate fills, and an id of the
 * millisecond of the id before it that id + 1.
 */
static void
make_random(size_t count)
{
	uint64_t	per_ms = chance(50) ? log_uniform(1, 1 << 14) : 1;
	uint64_t	ms_per = per_ms > 1 ? 1 : log_uniform(1, UINT64_C(1) << 20);
	int			back_filled = per_ms > 1 && chance(30);
	uint64_t	ms_count = (count + per_ms - 1) / per_ms;
	uint64_t	last = UINT64_MAX;
	uint64_t	high = 0,
				low = 0;
	ms_walk		walk;

	describe(" random%s: %llu a ms every %llu ms,", back_filled ? ", back-filled" : "",
			 (unsigned long long) per_ms, (unsigned long long) ms_per);
	walk = draw_walk();
	for (size_t j = 0; j < count; j++)
	{
		uint64_t	i = back_filled ? below(ms_count) : j / per_ms;

		if (back_filled && i == last)
			add(&high, &low, 1);
		else
		{
			high = walk_ms(&walk, i * ms_per) << 16 | (next_random() & 0xFFFF);
			low = next_random();
		}
		last = i;
		push(high, low);
	}
}

/* uuid v4 values cast to ulid */
static void
make_uuid_v4(size_t count)
{
	describe(" uuid v4");
	for (size_t j = 0; j < count; j++)
	{
		uint64_t	high = (next_random() & ~UINT64_C(0xF000)) | 0x4000;
		uint64_t	low = (next_random() >> 2) | UINT64_C(0x8000000000000000);

		push(high, low);
	}
}

/* uuid v7 values: 12 bits of a sub-millisecond counter, or random (rand_a) */
static void
make_uuid_v7(size_t count)
{
	uint64_t	per_ms = log_uniform(1, 1 << 12);
	int			counter = chance(50);
	ms_walk		walk;

	describe(" uuid v7: %llu a ms, rand_a %s,", (unsigned long long) per_ms,
			 counter ? "a counter" : "random");
	walk = draw_walk();
	for (size_t j = 0; j < count; j++)
	{
		uint64_t	rand_a = counter ? (j % per_ms) * 4096 / per_ms : next_random() & 0xFFF;

		push(walk_ms(&walk, j / per_ms) << 16 | 0x7000 | rand_a,
			 (next_random() >> 2) | UINT64_C(0x8000000000000000));
	}
}

/*
 * The ends of the range, of the window, of a millisecond; each a few times.
 * One id in 6 takes other random bits within the part of its first 8 bytes
 * (the anchor table tells parts apart, and its free slots hold the first 8
 * bytes of millisecond 0 or 1: two converters once took such ids for
 * anchored), one in 6 last 8 bytes within 2^20 of either end; the others
 * are the extremes themselves.
 */
static void
make_extremes(size_t count)
{
	uint64_t	window_start = clamp_ms(now_ms - WINDOW_BEFORE);
	uint64_t	ms[] = {0, 1, MS_MAX, MS_MAX - 1, window_start - 1, window_start, window_start + 1,
		window_start + WINDOW_LENGTH - 1, window_start + WINDOW_LENGTH,
	(uint64_t) now_ms, (uint64_t) now_ms + 1};
	uint64_t	randomness[][2] = {{0, 0}, {0xFFFF, ~UINT64_C(0)}, {0, 1}, {0xFFFF, ~UINT64_C(0) - 1},
	{0x8000, 0}, {0x7FFF, ~UINT64_C(0)}, {0x03FF, ~UINT64_C(0)}, {0x0400, 0}};

	describe(" extremes");
	/* (88 ids and some near them: 2,000 are enough) */
	if (count > 2000)
		count = 2000;
	for (size_t j = 0; j < count; j++)
	{
		uint64_t   *r = randomness[below(sizeof(randomness) / sizeof(randomness[0]))];
		uint64_t	random16 = r[0];
		uint64_t	low = r[1];

		switch (below(6))
		{
			case 0:
				random16 = (random16 & ~IN_PART_MASK) | (next_random() & IN_PART_MASK);
				break;
			case 1:
				low = chance(50) ? below(1 << 20) : -below(1 << 20);
				break;
		}
		push((ms[below(sizeof(ms) / sizeof(ms[0]))] & MS_MAX) << 16 | random16, low);
	}
}

/* each id of the last shape, times copies, next to each other */
static void
copy_shape(size_t from, uint64_t copies)
{
	size_t		count = id_count - from;

	if (count > (MAX_IDS - from) / copies)
		count = (MAX_IDS - from) / copies;
	describe(", each %llu times", (unsigned long long) copies);
	/* from the last: an id is read before its place is written */
	for (size_t j = count; j-- > 0;)
	{
		id128		id = ids[from + j];

		for (uint64_t c = 0; c < copies; c++)
			ids[from + j * copies + c] = id;
	}
	id_count = from + count * copies;
}

static int
compare_ids(const void *a, const void *b)
{
	const id128 *x = a,
			   *y = b;

	if (x->high != y->high)
		return x->high < y->high ? -1 : 1;
	return (x->low > y->low) - (x->low < y->low);
}

static void
shuffle(id128 *from, size_t count)
{
	for (size_t j = count; j > 1; j--)
	{
		size_t		k = below(j);
		id128		swap = from[j - 1];

		from[j - 1] = from[k];
		from[k] = swap;
	}
}

static void
reverse(id128 *from, size_t count)
{
	for (size_t j = 0; j < count / 2; j++)
	{
		id128		swap = from[j];

		from[j] = from[count - 1 - j];
		from[count - 1 - j] = swap;
	}
}

/* the order the sort meets the ids in */
static void
order_ids(void)
{
	int			how = (int) below(20);

	if (how < 9)
	{
		describe(" order: shuffled");
		shuffle(ids, id_count);
	}
	else if (how < 11)
	{
		describe(" order: sorted");
		qsort(ids, id_count, sizeof(id128), compare_ids);
	}
	else if (how < 13)
	{
		describe(" order: reversed");
		qsort(ids, id_count, sizeof(id128), compare_ids);
		reverse(ids, id_count);
	}
	else if (how < 16)
		describe(" order: as made");
	else if (how < 18)
	{
		uint64_t	swaps = log_uniform(1, id_count / 10 + 1);

		describe(" order: sorted but %llu swaps", (unsigned long long) swaps);
		qsort(ids, id_count, sizeof(id128), compare_ids);
		for (uint64_t s = 0; s < swaps && id_count > 1; s++)
		{
			size_t		a = below(id_count),
						b = below(id_count);
			id128		swap = ids[a];

			ids[a] = ids[b];
			ids[b] = swap;
		}
	}
	else
	{
		/* blocks as made, the blocks shuffled (a table's pages, updates) */
		size_t		block = log_uniform(2, id_count / 2 + 2);
		size_t		blocks = (id_count + block - 1) / block;
		size_t	   *order = malloc(sizeof(size_t) * blocks);
		id128	   *moved = malloc(sizeof(id128) * id_count);
		size_t		at = 0;

		describe(" order: blocks of %zu shuffled", block);
		for (size_t j = 0; j < blocks; j++)
			order[j] = j;
		for (size_t j = blocks; j > 1; j--)
		{
			size_t		k = below(j),
						swap = order[j - 1];

			order[j - 1] = order[k];
			order[k] = swap;
		}
		for (size_t j = 0; j < blocks; j++)
		{
			size_t		from = order[j] * block,
						n = from + block > id_count ? id_count - from : block;

			memcpy(moved + at, ids + from, n * sizeof(id128));
			at += n;
		}
		memcpy(ids, moved, id_count * sizeof(id128));
		free(order);
		free(moved);
	}
}

int
main(int argc, char **argv)
{
	size_t		total;
	int			shapes;
	double		weights[5],
				weight_sum = 0;
	char		text[ULID_TEXT_LEN + 1];
	load		last_load;
	int			made_load = 0;

	if (argc < 3)
	{
		fprintf(stderr, "usage: %s SEED NOW_MS [IDS]\n", argv[0]);
		return 2;
	}
	rng_state = strtoull(argv[1], NULL, 10);
	now_ms = strtoll(argv[2], NULL, 10);
	next_random();
	if (argc > 3)
		total = strtoull(argv[3], NULL, 10);
	else
	{
		switch (below(4))
		{
			case 0:
				total = log_uniform(1, 5000);
				break;
			case 1:
				total = log_uniform(5000, 60000);
				break;
			case 2:
				total = log_uniform(60000, 600000);
				break;
			default:
				total = log_uniform(600000, MAX_IDS);
				break;
		}
	}
	if (total > MAX_IDS)
		total = MAX_IDS;
	ids = malloc(sizeof(id128) * MAX_IDS);
	shapes = chance(40) ? 1 : chance(50) ? 2 : (int) (3 + below(3));
	for (int s = 0; s < shapes; s++)
		weight_sum += weights[s] = 1 + (double) below(1000);
	describe("seed %s, %zu ids:", argv[1], total);
	for (int s = 0; s < shapes && id_count < total; s++)
	{
		size_t		from = id_count;
		size_t		count = s == shapes - 1 ? total - id_count :
			(size_t) (total * weights[s] / weight_sum);
		uint64_t	copies = chance(12) ? log_uniform(2, 12) : 1;
		int			kind = (int) below(20);

		count = (count + copies - 1) / copies;
		if (count == 0)
			continue;
		if (kind < 10 && made_load && chance(50))
		{
			/* another load like the last, at another time */
			describe(" the same");
			make_runs(count, &last_load);
		}
		else if (kind < 10)
		{
			last_load = draw_load(count);
			made_load = 1;
			make_runs(count, &last_load);
		}
		else if (kind < 14)
			make_random(count);
		else if (kind < 17)
			make_uuid_v4(count);
		else if (kind < 19)
			make_uuid_v7(count);
		else
			make_extremes(count);
		if (copies > 1)
			copy_shape(from, copies);
		describe(";");
	}
	order_ids();
	fprintf(stderr, "%s\n", description);
	text[ULID_TEXT_LEN] = '\n';
	for (size_t j = 0; j < id_count; j++)
	{
		uint8_t		bytes[ULID_BYTES];

		store_be64(ids[j].high, bytes);
		store_be64(ids[j].low, bytes + 8);
		ulid_encode(bytes, text);
		fwrite(text, 1, ULID_TEXT_LEN + 1, stdout);
	}
	free(ids);
	return 0;
}
