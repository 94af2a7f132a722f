#!/usr/bin/env bash
# test/suites/sort_mutants.sh: the sort suite (sql/sort.sql) must fail
# against each mutant of the sort support below: a key that loses a bit or
# misplaces ids, a fallback or converter picked wrongly.  Each mutant
# replaces one piece of src/ulid.c, found exactly once; one that no longer
# applies fails too, so a change of the code must update it.
#
# Nothing is written outside a temporary directory: the server runs from a
# relocated copy of it (test/lib/relocated.sh) whose ulid.so is the mutant's.
# Mutants that change speed alone are not here (make bench shows those),
# but for the anchor table's size and where the estimate ends, which the
# suite's DEBUG lines show: a converter that hands every id on to the next,
# the leaner converter keying plainly the ids of milliseconds that could
# still get an anchor, latent anchors kept once anchoring stopped (none can
# become active then, and a latent anchor keys every id as its plain key),
# the leaner converter blind to the other ways of a slot (it hands their
# ids on to the first converter, which finds their anchors), anchors given
# up in the sample put back after it (each id of a refused part would look
# for its anchor among those kept), a copy of a latent anchor's id making it
# active in the leaner converter (the copy's key is the anchor's either way),
# ways_for_other_ms()'s tests but those mutated below (the test of ids near
# an anchor is a fast way out for ids one a millisecond, which the ratio of
# active anchors implies; the load of anchors, but its 32 for batches, and
# after the sample the test that the slot's anchor is active, spare sorts
# whose ids ways would not key better), and
# lay_out_anchors()'s ways given back (a table laid out with ways, or with a
# fourth of the slots, keys the same; given back where two active anchors
# share a millisecond, the rebuild fails, and the table keeps its ways), and
# the sample's ids of a run in insertion order counted as pairs from the
# third on (it meets them in ulid_abbrev_convert only once the estimate is
# over, after the DEBUG line that would show the table's layout), and
# activate_replayed() leaving counted an id whose anchor the replay gave up
# (another part of its millisecond took the anchor's way: rare, and it takes
# 4 such ids to change the sample's decision), runs kept in a row past
# their third id whatever the order of the ids kept, or never (the keys are
# the same; kept, a run of ids in insertion order ties up to its 16th id),
# the fourth id of a run kept in a row counted as a pair as the sample
# takes it (its later ids count; it takes 4 runs of exactly 4 at the
# sample's end to change its decision), chains kept with no end (a chain
# stops at 16, where the sample takes the ids kept; its ids tie as their
# anchor either way), the ids kept out of order at one id below
# the one before (a few such ids before runs in insertion order tie the
# runs whole up to the sample's end), and the table of the last id kept of
# each part blind to the part in a slot (a run's anchor is then made
# active at its last id kept less often: never where it should not be), and
# a latent anchor moved down to an id below it as the sample catches up
# after it moved up to one above (its near keys, which start at its own,
# then end there too: the ids after it tie with it), and the sample's
# converter of runs keeping the anchor it keyed the id before near once the
# table moved (it then reads the table freed, whose copy of an active
# anchor is the same, in the sort's arena: the keys do not change), or
# taking it for an id of other first 8 bytes (such an id goes on to the
# first converter, which keys it the same), and sample_runs_missed()
# counting an id that made its anchor active as a pair, or not as near it,
# or taking the id after one of its part (the sample's decisions change
# with those counts where it met few runs else, which no case's sample
# did), or the slot of a table with ways (it would take the first way where
# free beside its part's anchor in another, which no case has), and the
# converter that keys ids outside the window at once never taken over
# there (the same keys), and the sample's table grown for its latent
# anchors past 2^ANCHOR_LATENT_SLOT_BITS slots, or however many of its
# anchors are active (no case's DEBUG line changes: make bench shows them),
# and the converter of runs for a table with ways never picked, keeping its
# anchors by other bits, or keeping them when the table moves (the same
# keys, as above), and the probe of the renewed sample's set of parts
# refused stopping at a part's first slot (a part whose slot another took
# is then lost: about 10 of the 830 or so parts of case w20 share a slot,
# and it tests the copies of 50 of them).
set -uo pipefail
cd "$(dirname "$0")/../.."
. test/lib/tap.sh
. test/lib/relocated.sh
# once per machine: not inside another run of the suite (ULID_NESTED_RUN:
# the matrix's, the dist suite's, non_root's)
if [ -n "${ULID_NESTED_RUN:-}" ]; then
	echo "ok 1 # SKIP run once, by make test on the machine's PostgreSQL"
	exit 0
fi
PG_CONFIG=${PG_CONFIG:-pg_config}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ulid-mutants.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

# description => what is replaced => by what
mapfile -t mutants <<'EOF'
the comparator ignores the last 8 bytes => if (a_half == b_half) => if (a_half == b_half && a_half == 0)
a plain key loses the millisecond's last bit => uint64		bits = offset << => uint64		bits = (offset & ~(UINT64CONST(1) << 16)) <<
a plain key's millisecond overlaps its field => bits = offset << PLAIN_LOW_BITS | => bits = offset << (PLAIN_LOW_BITS - 1) |
plain keys without their margin below => (UINT64CONST(1) << (PLAIN_BITS_IN_PART - 1)) => UINT64CONST(0)
plain keys without their margin above => (UINT64CONST(1) << (PLAIN_BITS_IN_PART - 1)) => (UINT64CONST(1) << PLAIN_BITS_IN_PART)
an anchor's first 8 bytes read without the margin => (slot->field - PLAIN_FIELD_MARGIN) >> PLAIN_LOW_BITS => slot->field >> PLAIN_LOW_BITS
ids after the window keyed below it => AFTER_WINDOW_KEYS | (high >> 1) => (high >> 1)
the window twice as long => return offset < (UINT64CONST(1) << (KEY_TIME_BITS + 16)); => return offset < (UINT64CONST(1) << (KEY_TIME_BITS + 17));
an anchor's range of near keys one wider => return key - slot->lowest_near <= slot->near_width; => return key - slot->lowest_near <= slot->near_width + 1;
the near keys one above the anchor's => slot->key_offset = plain - low; => slot->key_offset = plain - low + 1;
ids far from an anchor keyed on the wrong side => mask = -above; => mask = -(above ^ 1);
a latent anchor's range not narrowed above => slot->near_width = (uint32) (plain - slot->lowest_near); => (void) 0;
a free slot holds the mark of its own millisecond => state->anchors[i].held = UINT64CONST(1) << 16; => state->anchors[i].held = 0;
refused milliseconds forgotten => return (state->refused[bit / 64] & (UINT64CONST(1) << (bit % 64))) != 0 || => return false ||
ids far from an active anchor keyed plainly after the estimate => if (holds(slot, high)) => if (false)
the mode: plain keys with active anchors left => else if (!state->anchoring && state->active_count == 0) => else if (!state->anchoring)
the mode: the mixed converter never picked => ssup->abbrev_converter = !state->mixed ? => ssup->abbrev_converter = true ?
the converters of a table laid out for a span picked for a hashed one => return &lean_converters[state->slot_factor == 1]; => return &lean_converters[1];
the converters of a table laid out for a span look in the slot of another millisecond => return (high >> state->entry_shift) & state->entry_mask; => return (high >> (state->entry_shift + 1)) & state->entry_mask;
the mode: abbreviation given up on any data => if (distinct_keys < (double) state->hashed_count / ABBREV_MAX_IDS_PER_KEY + 0.5) => if (true)
the mode: no table of blocks where the sample found short runs => short_runs_start(state); => stop_anchoring(state);
the mode: no table of blocks where the watch found short runs => state->watched_near >= WATCHED_MIN_NEAR => state->watched_near >= 1000000
the mode: the estimate ends at 2,560 ids while the watch for short runs is on => state->watched == NULL && => true &&
the mode: no table of blocks where the sample found more than 3 short runs over a wide span => !short_runs_only(state)) => true)
the renewed sample: the parts of the latent anchors dropped not refused => 			refuse_sparse_part(state, anchor_part(state, &state->anchors[i])); => 			(void) 0;
the renewed sample: the part of an id it does not count not refused => refuse_sparse_part(state, part); => (void) 0;
the renewed sample: the parts it refused looked up nowhere => (state->sparse_count > 0 && refused_sparse(state, part)) => false
the renewed sample: every id counted => 	return close; => 	return true;
the mode: the sample never renewed => 			sample_sparse(state)) => 			false)
the mode: the sample counts pairs in a row as runs => state->sampled_pairs += near_hit && paired && !state->last_near; => (void) 0;
the mode: the table of blocks for two loads at once of short runs => return !ways_share_ms(state); => return true;
the mode: the table of blocks for a run met by many of the sample's ids => if (state->sampled_near >= 4 * state->active_count || => if (
the mode: the table of blocks for short runs over half the span => state->short_runs_count < SHORT_RUNS_MIN_SPAN) => state->short_runs_count < SHORT_RUNS_MIN_SPAN / 2)
the mode: short runs watched for over any span => return state->short_runs_count >= WATCHED_MIN_SPAN; => return true;
the mode: short runs watched for over twice the span => return state->short_runs_count >= WATCHED_MIN_SPAN; => return state->short_runs_count >= 2 * WATCHED_MIN_SPAN;
the mode: short runs watched for over half the span => return state->short_runs_count >= WATCHED_MIN_SPAN; => return state->short_runs_count >= WATCHED_MIN_SPAN / 2;
the mode: the estimate ends at 2,560 ids while the sample lasts => (!sample_lasts(state) || few_in_window(state)) && => true &&
the mode: the estimate goes on to 10,240 ids while the sample lasts among few ids of the window => || few_in_window(state)) && => || false) &&
the mode: the estimate ends at 2,560 ids wherever the linear count of registers is at hand => keys_enough_to_end(state, registers * log(registers / (double) empty))) => true)
the table of blocks keys the sample's anchored milliseconds plainly => if (anchor_block == SHORT_RUNS_PLAIN) => if (anchor_block <= SHORT_RUNS_SAMPLED)
the table of blocks keys ids on the wrong side of the anchor => return block < anchor_block ? => return block > anchor_block ?
an id near a latent anchor that does not make it active => state->last_anchor = activate(state, slot, owner); => (void) owner;
an active anchor dropped where the rebuilt table has its ways taken => if (slot == NULL && active) => if (false)
the fast path of a mixed table takes an id for near its anchor by the distance alone => (uint64) (high == slot->held) & => (uint64) 1 &
the fast path of a mixed table takes an id outside the window for near the free mark of slot 0 => near &= in_window; => near &= 1;
the sample's converter of runs looks first into the table's first slot, not at no anchor => {&no_run_anchor, false} => {state->anchors, false}
plain keys of a mixed table picked without the window's test => mask = -(uint64) within_window(offset); => mask = ~(uint64) 0;
the table of blocks keys the sample's anchored milliseconds as blocks => if (anchor_block <= SHORT_RUNS_SAMPLED) => if (anchor_block < SHORT_RUNS_SAMPLED)
the table of blocks keys the milliseconds refused an anchor as blocks => if (anchor_block <= SHORT_RUNS_SAMPLED) => if (anchor_block == SHORT_RUNS_NONE)
the table of blocks gives a refused part a block => if (block <= SHORT_RUNS_SAMPLED || is_refused(state, part)) => if (block <= SHORT_RUNS_SAMPLED)
the watch counts copies of an id as near it => <= NEAR_ANCHOR && *last != tag; => <= NEAR_ANCHOR;
the watch leaves the milliseconds it keyed unmarked => mark_keyed_plainly(state, unix_ms); => (void) unix_ms;
an anchor's near keys leave its part => Min(Min(NEAR_ANCHOR, PART_FIELD_MASK - field) => Min(Min(NEAR_ANCHOR, FIELD_MASK - field)
the ways of slot 0 hold the mark of millisecond 0 => if (i < (size_t) state->ways) => if (i == 0)
the other ways: an id takes the anchor of the first => return &slot[pg_rightmost_one_pos32(match | 16) & 3]; => return &slot[match != 0];
the ways of a slot: the first two swapped => return &state->anchors[i + w]; => return &state->anchors[i + (w ^ 1)];
an anchor active at once holds the first 8 bytes of another id => 		make_active(state, slot, high); => 		make_active(state, slot, high + 1);
the mixed converter keys plainly ids out of reach whose anchor is in another way => & (uint64) (state->ways == 1); => ;
the converters of ids outside the window key the other ids of the window as outside it => (outside_window ? in_window : 1) => (outside_window ? 0 : 1)
the converter of runs and ids of the window without anchor keys ids outside the window as in it => (outside_window ? in_window : 1) => in_window
the converter of runs and ids of the window without anchor keys those ids as outside the window => other = plain_key(offset, (uint64) id[8] << 56); => other = outside_window_key(state, high);
the mode: the converter of runs and ids outside the window never picked => state->runs_outside = state->scattered || => state->runs_outside = false &&
the mode: the converter of runs and ids outside the window picked where the estimate met many ids of the window without anchor => state->runs_outside = state->scattered || => state->runs_outside = true ||
the mode: the converter of runs and ids of the window without anchor never picked => state->runs_unanchored = => state->runs_unanchored = false &&
the mode: the converter of runs and ids of the window without anchor picked where the estimate met many ids outside the window => state->runs_unanchored = => state->runs_unanchored = true ||
the leaner converter keys an id near a latent anchor, and leaves it latent => (void) activate(state, slot, high); => (void) 0;
the leaner converter takes an id of the slot's latent anchor's part with other first 8 bytes for near it => if (anchor_high(state, slot) != high || !is_near_key(slot, key) || => if (!is_near_key(slot, key) ||
the leaner converter takes an id far from the latent anchor of its part for near it => if (anchor_high(state, slot) != high || !is_near_key(slot, key) || => if (anchor_high(state, slot) != high ||
the leaner converter makes an anchor over the one its slot holds => if (is_anchor(slot))		/* latent, or of another part */ => if (false)
the leaner converter counts an anchor it does not make => anchor_set(slot, key, low); => (void) 0;
the way of a part's anchor, or else a free one, never the part's => 		else if (anchor_part(state, slot) == part) => 		else if (false)
the table of blocks places near keys in the part of the id keyed => (anchor_field & ~PART_FIELD_MASK) => (plain & ~PART_FIELD_MASK)
the table of blocks places near keys from the anchor's plain field, past its part => (anchor_field & ~PART_FIELD_MASK); => anchor_field;
an anchor made once the table took ways, with fewer slots, goes to its old slot => i = slot_index(state, part);	/* (it may have fewer slots) */ => (void) 0;
a part takes the anchor of another part of its millisecond => return key_part(slot->lowest_near) == key_part(plain); => return key_part(slot->lowest_near) >> PART_BITS == key_part(plain) >> PART_BITS;
the table of scattered anchors stops growing with the sample => int			cap = state->scattered ? budget_bits(state) : state->sample_slot_bits; => int			cap = state->sample_slot_bits;
the sample's table grows at an eighth where the span of its runs fits half of it => !sample_runs_compact(state)) => true)
the sample's table never grows for its latent anchors where its runs are compact => if (sample_latent_crowded(state) && table_bits(state) < ANCHOR_LATENT_SLOT_BITS) => if (false)
the table of scattered anchors grows at an eighth, as the sample's => size_t		slots_an_anchor = state->scattered ? 16 : 8; => size_t		slots_an_anchor = 8;
a kept anchor put back after a far id of its part was keyed plainly => state->victim_tags[k] = 0; => (void) 0;
the converter of runs in the other ways of their slots never picked => state->lean_ways = state->ways > 1 && => state->lean_ways = false &&
the refused bitmap made again at the sample's end without the parts still refused => if (!holds_anchor_of(state, state->refusals[r])) => if (false)
the refused bitmap made again from the parts recorded where the sample refused more => if (state->refusal_count > REFUSALS_RECORDED) => if (false)
the refused bitmap made again without the bits that kept an id of the sample keyed plainly => 					note_denied(state, part); => 					(void) part;
the refused bitmap made again without the parts whose latent anchors a rebuild dropped out of reach => note_denied(state, part);	/* (refused now => (void) part;	/* (refused now
a hashed table never takes ways for another millisecond's anchor, in the sample or after => ways_for_other_ms(state, slot)) && => false) &&
the sample's table takes ways for another millisecond's anchor while it may grow => table_bits(state) < state->sample_slot_bits || => false ||
the sample's table takes ways for another millisecond's anchor where few anchors are active => state->active_count * 16 < state->anchors_made) => false)
the sample's table takes ways for another millisecond's anchor at an anchor for every 16 slots while runs are still being found => slots_an_anchor = state->sampled_near < 4 * state->active_count ? 32 : 16; => slots_an_anchor = 16;
a table of scattered anchors never takes ways for another millisecond's active anchor after the sample => return state->scattered && is_active(state, slot); => return false;
a table of scattered anchors takes ways after the sample at four times its bytes => else if (state->scattered) => else if (false)
a rebuilt table takes the latent anchors of milliseconds out of reach => within_reach(state, part) ? free_way(state, to) : NULL; => free_way(state, to);
the sample's table never grows for a part whose slot holds another millisecond's active anchor => if (slot == NULL && state->sampled < ANCHOR_SAMPLE) => if (false)
the sample's table grown for a part whose slot held another millisecond's active anchor, the part refused one all the same => return grown ? place_anchor(state, part) : NULL; => return NULL;
the mode: plain keys counted while the estimate goes on with active anchors left => 			state->active_count == 0 && state->watched == NULL) => 			state->watched == NULL)
the mode: plain keys counted while the watch for short runs is on => state->active_count == 0 && state->watched == NULL) => state->active_count == 0)
the mode: the estimate ends where the keys are half the ids counted, not a quarter => #define KEYS_SHARE_TO_END		4 => #define KEYS_SHARE_TO_END		2
the mode: the estimate ends where the keys are an eighth of the ids counted => #define KEYS_SHARE_TO_END		4 => #define KEYS_SHARE_TO_END		8
the deferred sample: an id near a latent anchor with its plain key drops it as the sample catches up => 	if (key != anchor_key(slot)) => 	if (true)
the deferred sample: a latent anchor not moved up to an id above it with its plain key as the sample catches up => 	if (low > anchor_low(slot)) => 	if (false)
the deferred sample: a latent anchor keeps near keys below it for an id near it with its plain key as the sample catches up => 	slot->lowest_near = key; => 	(void) key;
the deferred sample: a latent anchor not moved down to an id below it with its plain key as the sample catches up => 	if (low < anchor_low(slot) && slot->lowest_near < key) => 	if (false)
the deferred sample: a latent anchor left where it is for an id kept 1 from it as the sample catches up => 	if (low < anchor_low(slot) && slot->lowest_near < key) => 	if (low - anchor_low(slot) + 1 <= 2) return key; if (low < anchor_low(slot) && slot->lowest_near < key)
the deferred sample: a latent anchor moved down keeps near keys one above its own => 		slot->near_width = (uint32) below; => 		slot->near_width = (uint32) below + 1;
the deferred sample takes a pair the other way round in a row for a run => 	bool		close = !next && chain < DEFERRED_CHAIN && => 	bool		close = !in_a_row && chain < DEFERRED_CHAIN &&
the deferred sample: a latent anchor moved down keeps near keys below last 8 bytes 0 => 		uint64		below = Min(key - slot->lowest_near, low); => 		uint64		below = key - slot->lowest_near;
the deferred sample: a latent anchor moved up keeps near keys above last 8 bytes 2^64 - 1 => 	slot->near_width = (uint32) Min(highest - key, PG_UINT64_MAX - anchor_low(slot)); => 	slot->near_width = (uint32) (highest - key);
the deferred sample: an id near a latent anchor, keyed plainly, makes it active as the sample catches up => 			if (state->catching_up) => 			if (false)
the deferred sample does not keep the ids it keyed, for the sample => state->deferred[state->deferred_count++] = *ulid; => (void) ulid;
the deferred sample never catches up at an id near its twin => 	if (near_twin(state, *twin, high, low)) => 	if (false)
the deferred sample's twins numbered as the ids kept before them => 	*twin = (uint16) state->deferred_count; => 	*twin = (uint16) (state->deferred_count - 1);
the deferred sample keeps an id near the last one kept however far => 	bool		next = in_a_row && low - twin_low == 1; => 	bool		next = in_a_row;
the deferred sample keeps an id near its twin kept before the last however far => 		low - twin_low + DEFERRED_APART <= 2 * DEFERRED_APART; => 		true;
the deferred sample keeps an id near its twin without its place in the chain => 	state->chained[state->deferred_count] = (uint8) (chain | (next ? 0 : KEPT_APART)); => 	(void) chain;
the deferred sample does not mark the ids it keeps apart => (uint8) (chain | (next ? 0 : KEPT_APART)); => (uint8) chain;
the deferred sample counts the ids kept in a row near a latent anchor as it catches up => *near_hit = state->replaying_counted && state->last_anchor != NULL; => *near_hit = state->last_anchor != NULL;
the deferred sample does not count the ids kept apart near a latent anchor as it catches up => *near_hit = state->replaying_counted && state->last_anchor != NULL; => *near_hit = false;
the deferred sample leaves the anchors of ids kept apart latent => 		state->sampled_near -= activate_replayed(state, &state->deferred[near[i]]) == NULL; => 		(void) near;
the deferred sample leaves the anchor of a run kept in a row latent at its last id => 		if (ends_counted_run(state, i, count, chain, last_of_part, &made)) => 		if (false)
the deferred sample makes the anchor of a chain kept apart active at its last id => 	if (chain < DEFERRED_CHAIN || (chain & KEPT_APART) || => 	if (chain < DEFERRED_CHAIN ||
the deferred sample makes a run's anchor active at its last id kept with an id of its part kept after it => 	return *part_slot(state, last_of_part, i) == i + 1; => 	return true;
the deferred sample keeps any id near its twin where the ids kept are not crowded => 	return count - state->kept_near >= => 	return true || count - state->kept_near >=
the deferred sample does not count the ids of a run kept in a row from its fourth => state->replaying_counted = (chain & KEPT_APART) || chain >= DEFERRED_CHAIN; => state->replaying_counted = (chain & KEPT_APART);
the deferred sample makes an anchor active at an id kept apart as it catches up => *near_hit = state->replaying_counted && state->last_anchor != NULL; => if ((*near_hit = state->replaying_counted && state->last_anchor != NULL)) state->last_anchor = activate(state, slot, owner);
the converter of runs in the sample takes its last id, which does not end it => 		state->sampled == ANCHOR_SAMPLE - 1) => 		false)
the converter of runs in the sample goes on after it => else if (!sample_lasts(state) && converts_sample_runs(ssup)) => else if (false)
the converter of runs in the sample takes ids of the window for ids outside it => if (outside && !within_window(window_offset(state, high))) => if (outside && within_window(window_offset(state, high)))
the converter of runs in the sample counts the ids of the anchor it keyed the id before near in the first way => 		other_way = run->other_way; => 		other_way = false;
the sample's table laid out gives its ways back where latent anchors share a millisecond with others => if (is_anchor(a) && is_anchor(b) && => if (is_active(state, a) && is_active(state, b) &&
the deferred sample's ids counted twice => 	state->input_count -= count;	/* (counted again) */ => 	(void) count;
the plain keys counted key the ids of the window as outside it => uint64		key = plain_or_outside_key(state, high, offset, id[8]); => uint64		key = outside_window_key(state, high);
the sample's converter of runs forgets the anchor it made or made active => state->last_anchor = slot; => state->last_anchor = NULL;
the sample's converter of runs makes a refused part's latent anchor => if (!is_refused(state, part)) => if (true)
the sample's converter of runs counts an id that made its part's latent anchor as near it => (void) sample(state, near, false); => (void) sample(state, true, false);
the sample's converter of runs takes the sample's last id => 		state->sampled >= ANCHOR_SAMPLE - 1) => 		false)
the sample's converter of runs makes anchors for ids outside the window => return sample_runs_outside_key(ssup, state, high); => (void) 0;
the sample's converter of runs makes another anchor for a part whose anchor holds the slot => else if (!holds_part(slot, plain_key(offset, low))) => else if (true)
the sample's converter of runs keeps the slot it looked up where the anchor it made moved => slot = make_anchor(state, part, key, low); => (void) make_anchor(state, part, key, low);
EOF

# The mutants run on two workers (the machine's two cores: the suite's
# sorts keep one busy), each with a copy of the tree and a relocated server
# of its own under $tmp/wN; each mutant recompiles src/ulid.c alone.
worker=$tmp/w0
mkdir -p "$worker/tree"
tar -c --exclude=./.git --exclude=./test/clients --exclude=./test/output . | tar -x -C "$worker/tree"
make -C "$worker/tree" -s with_llvm=no >"$worker/build.log" 2>&1 ||
	{ cat "$worker/build.log"; echo "not ok 1 - the tree builds"; exit 1; }
cp "$worker/tree/src/ulid.c" "$tmp/ulid.c.orig"
cp -a "$worker" "$tmp/w1"

# use_worker N: the tree and server of worker N
use_worker() {
	worker=$tmp/w$1 tree=$tmp/w$1/tree
	relocated_server "$PG_CONFIG" "$worker/server"
	rm -f "$rlib/ulid.so"
}

# run_sort_suite: the sort suite against the ulid.so of $tree, its cluster
# under $worker; its status.  It takes seconds: a mutant that makes a sort
# loop for ever is stopped after 2 minutes, its server with it.
run_sort_suite() {
	local status
	cp "$tree/ulid.so" "$rlib/ulid.so"
	TMPDIR=$worker ULID_SERVER_BINDIR=$rbin ULID_SERVER_OPTS="-c jit=off" timeout 120 \
		test/lib/cluster.sh make -C "$tree" -s installcheck REGRESS="setup sort" \
		PG_CONFIG="$PG_CONFIG" >"$worker/regress.log" 2>&1
	status=$?
	for data in "$worker"/ulid-cluster.*/data; do
		[ -f "$data/postmaster.pid" ] && kill -9 "$(head -1 "$data/postmaster.pid")" 2>/dev/null
	done
	[ "$status" = 124 ] && echo "timed out after 2 minutes" >>"$worker/regress.log"
	return "$status"
}

# what the suite said of a mutant: how many lines changed and the first, or
# how it ended
first_difference() {
	if [ -f "$tree/regression.diffs" ]; then
		# (lines added or removed: a DEBUG line may be missing)
		grep -vE '^(\+\+\+|---) /' "$tree/regression.diffs" | grep -E '^[-+]' >"$worker/changed"
		echo "$(wc -l <"$worker/changed") lines differ, the first:" \
			"$(head -1 "$worker/changed" | cut -c1-100)"
	else
		tail -1 "$worker/regress.log" | cut -c1-100
	fi
}

# try_mutant I: mutant I in the worker's tree; its TAP line without the
# number goes to $tmp/result.I ("not ok" where it applies not exactly
# once, does not build, or the suite passes against it)
try_mutant() {
	local line=${mutants[$1]} description old new rest found result
	description=${line%% => *} rest=${line#* => }
	old=${rest%% => *} new=${rest#* => }
	cp "$tmp/ulid.c.orig" "$tree/src/ulid.c"
	found=$(OLD=$old perl -0777 -ne 'print scalar(() = /\Q$ENV{OLD}\E/g)' "$tree/src/ulid.c")
	rm -f "$tree/regression.diffs"
	if [ "$found" != 1 ]; then
		result="not ok - $description: the mutant applies: expected found 1 times, got found $found times"
	elif ! OLD=$old NEW=$new perl -0777 -pi -e 's/\Q$ENV{OLD}\E/$ENV{NEW}/' "$tree/src/ulid.c" ||
		! make -C "$tree" -s with_llvm=no >"$worker/build.log" 2>&1; then
		result="not ok - $description: the mutant builds: $(grep -m1 error "$worker/build.log")"
	elif run_sort_suite; then
		result="not ok - $description: the sort suite fails: it passed"
	else
		result="ok - $description: the sort suite fails: $(first_difference)"
	fi
	echo "$result" >"$tmp/result.$1"
}

# without a mutant it passes, or no failure below would tell anything
use_worker 0
run_sort_suite
passed=$(grep -m1 -oE 'All 2 tests passed' "$worker/regress.log")
check "unmutated: the sort suite passes" "$passed" "All 2 tests passed"
[ -n "$passed" ] || { sed 's/^/# /' "$worker/regress.log"; exit 1; }

for w in 0 1; do
	(
		[ $w = 0 ] || use_worker $w
		for ((i = w; i < ${#mutants[@]}; i += 2)); do
			try_mutant $i
		done
	) &
done
wait

# the results in the list's order; survivors counts the mutants not caught
survivors=0
for i in "${!mutants[@]}"; do
	result=$(cat "$tmp/result.$i" 2>/dev/null || echo "not ok - ${mutants[$i]%% => *}: no result")
	[ "${result%% - *}" = ok ] || survivors=$((survivors + 1))
	echo "${result%% - *} $((n += 1)) - ${result#* - }"
done
echo "1..$n"
[ "$survivors" = 0 ]
