#!/usr/bin/env bash
# test/suites/sort_fuzz.sh: the sort support against tables drawn at random
# (test/tools/sort_fuzz.c: runs, random ids, uuids, extremes, copies, in
# many orders, 1 to 2,000,000 ids), sorted by each path that uses its
# abbreviated keys, each checked against the order of the bytes:
#
#   - ORDER BY, a sort of tuples and a sort of the values alone (PostgreSQL
#     15 sorts a single column as datums), serial or in two workers (each
#     sorts a part of the table): no id after one greater;
#   - a merge join of the table with itself: as many rows as a hash join,
#     and no "mergejoin input data is out of order";
#   - CREATE INDEX, serial or parallel: amcheck's bt_index_check.
#
# Each trial draws its work_mem (64 kB to 1 GB: sorts in memory and on disk,
# anchor tables of every size) and which of the index build and the merge
# join it runs.  SORT_FUZZ_TRIALS trials (default 64, 16 in a run of the
# suite inside another: on each major of the matrix) from seed
# SORT_FUZZ_SEED (default 1), or for SORT_FUZZ_SECONDS; the seeds are fixed,
# so that a run of make test repeats the last.
#
# The ids are drawn around the server's time, and the sort support keys
# them by the time its transaction began: a failing trial says both, and
# keeps its ids in test/output/sort_fuzz/.  SORT_FUZZ_AT=DRAWN:SORTED (and
# its seed) replays it: in a cluster of its own whose clock (libfaketime)
# stands at SORTED while the trial sorts.
# Prints TAP.
set -uo pipefail
cd "$(dirname "$0")/../.."
. test/lib/tap.sh
trials=${SORT_FUZZ_TRIALS:-64}
[ -n "${ULID_NESTED_RUN:-}" ] && trials=${SORT_FUZZ_TRIALS:-16}
seed=${SORT_FUZZ_SEED:-1}
seconds=${SORT_FUZZ_SECONDS:-}
db=${SORT_FUZZ_DB:-ulid_sort_fuzz}
at=${SORT_FUZZ_AT:-}
if [ -n "$at" ] && [ -z "${SORT_FUZZ_CLOCK:-}" ]; then
	faketime=$(compgen -G '/usr/lib/*/faketime/libfaketime.so.1' | head -1)
	[ -n "$faketime" ] || { echo "not ok 1 - a replay needs libfaketime: run 'sudo apt-get install libfaketime'"; exit 1; }
	SORT_FUZZ_CLOCK=$(mktemp "${TMPDIR:-/tmp}/ulid-sort-fuzz-clock.XXXXXX")
	trap 'rm -f "$SORT_FUZZ_CLOCK"' EXIT
	echo +0 >"$SORT_FUZZ_CLOCK"
	chmod 644 "$SORT_FUZZ_CLOCK"
	export SORT_FUZZ_CLOCK
	ULID_SERVER_WRAPPER="env TZ=UTC LD_PRELOAD=$faketime FAKETIME_TIMESTAMP_FILE=$SORT_FUZZ_CLOCK FAKETIME_NO_CACHE=1" \
		test/lib/cluster.sh "$0"
	exit
fi
[ -n "$at" ] && trials=1 seconds=
keep=test/output/sort_fuzz
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ulid-sort-fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$keep"

${CC:-cc} -O2 -Wall -Wextra -Werror -Isrc -o "$tmp/sort_fuzz" test/tools/sort_fuzz.c src/codec.c ||
	{ echo "not ok 1 - the generator builds"; exit 1; }
dropdb --if-exists "$db" 2>/dev/null; createdb "$db" || exit 1
psql() { command psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" "$@"; }
psql -c 'CREATE EXTENSION ulid; CREATE EXTENSION amcheck;
	CREATE UNLOGGED TABLE t (id ulid, pad int DEFAULT 0)' || exit 1

# draw VAR WORD...: sets VAR to one of the words, by bash's RANDOM (seeded
# by the trial; not in a subshell, which would draw from a seed of its own)
draw() { local -n var=$1; shift; local words=("$@"); var=${words[RANDOM % ${#words[@]}]}; }

# trial SEED: one table, its sorts; says what failed on standard output
trial() {
	local seed=$1 now_ms drawn work_mem maintenance_work_mem index workers gather join result
	RANDOM=$seed
	draw work_mem 64kB 256kB 1MB 4MB 4MB 16MB 64MB 256MB 1GB
	draw maintenance_work_mem 1MB 4MB 64MB 1GB
	draw index true false
	draw workers 0 0 2
	draw gather 0 0 2
	draw join true false
	now_ms=${at%:*}
	[ -n "$at" ] || now_ms=$(psql -c 'SELECT (extract(epoch FROM now()) * 1000)::int8')
	drawn=$("$tmp/sort_fuzz" "$seed" "$now_ms" 2>&1 >"$tmp/ids")
	echo "$drawn; work_mem $work_mem, ORDER BY workers $gather, index build $index (workers $workers), merge join $join" >"$tmp/drawn"
	psql -c 'TRUNCATE t' -c "\\copy t (id) FROM '$tmp/ids'" || { echo "the ids load"; return 1; }
	if [ -n "$at" ]; then
		local sorted=${at#*:}
		date -u --date="@${sorted%???}.${sorted: -3}" +'%Y-%m-%d %H:%M:%S.%3N' >"$SORT_FUZZ_CLOCK"
	fi
	result=$(psql 2>&1 <<SQL
SET client_min_messages = warning;
DROP INDEX IF EXISTS t_id;
-- one transaction: its start is the time every sort keys by
BEGIN;
SELECT 'sorted at ' || (extract(epoch FROM now()) * 1000)::int8 AS sorted_at \gset
\echo :sorted_at
SET synchronize_seqscans = off;
-- the ORDER BYs in parallel (each worker sorts a part of the table with a
-- sort support of its own), where drawn
SET max_parallel_workers_per_gather = $gather;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET work_mem = '$work_mem';
SET maintenance_work_mem = '$maintenance_work_mem';
SET max_parallel_maintenance_workers = $workers;
-- tuples (id and pad), then the values alone
SELECT 'ORDER BY tuples: ' || count(*) FILTER (WHERE prev::bytea > id::bytea) || ' misplaced'
  FROM (SELECT id, pad, lag(id) OVER (ORDER BY id) AS prev FROM t) s WHERE pad = 0;
SELECT 'ORDER BY values: ' || count(*) FILTER (WHERE prev::bytea > id::bytea) || ' misplaced'
  FROM (SELECT id, lag(id) OVER (ORDER BY id) AS prev FROM t) s;
SET max_parallel_workers_per_gather = 0;
\if $join
SET enable_sort = off;
SELECT sum(c * c) AS pairs, sum(c * c) <= 20000000 AS join_small FROM (SELECT count(*) AS c FROM t GROUP BY id) g \gset
RESET enable_sort;
-- (not where the copies would join to more than 20 million rows)
\if :join_small
SET enable_hashjoin = off;
SET enable_nestloop = off;
SELECT 'merge join: ' || count(*) || ' rows, of ' || :pairs FROM t a JOIN t b USING (id);
RESET enable_hashjoin;
RESET enable_nestloop;
\endif
\endif
\if $index
CREATE INDEX t_id ON t (id);
SELECT 'index: checked' FROM (SELECT bt_index_check('t_id', true)) c;
DROP INDEX t_id;
\endif
COMMIT;
SQL
)
	local status=$?
	[ -z "$at" ] || echo +0 >"$SORT_FUZZ_CLOCK"
	echo "$result" | grep -v '^sorted at ' | paste -sd';' | sed 's/;/; /g'
	# (the replay's line, from what the trial drew and when it sorted)
	echo "SORT_FUZZ_SEED=$seed SORT_FUZZ_AT=$now_ms:$(echo "$result" | sed -n 's/^sorted at //p')" >"$tmp/replay"
	[ $status = 0 ] && ! echo "$result" | grep -qvE '^sorted at [0-9]+$|: 0 misplaced$|^merge join: ([0-9]+) rows, of \1$|^index: checked$'
}

start=$SECONDS
t=0
while { [ -n "$seconds" ] && [ $((SECONDS - start)) -lt "$seconds" ]; } ||
	{ [ -z "$seconds" ] && [ "$t" -lt "$trials" ]; }; do
	result=$(trial "$seed")
	status=$?
	if [ $status = 0 ]; then
		echo "ok $((n + 1)) - $result" | cut -c1-200
		echo "#   $(cat "$tmp/drawn")"
	else
		cp "$tmp/ids" "$keep/seed-$seed.ids"
		echo "not ok $((n + 1)) - seed $seed: $result" | cut -c1-400
		echo "#   $(cat "$tmp/drawn")"
		echo "#   ids kept in $keep/seed-$seed.ids; replay: make sort-fuzz $(cat "$tmp/replay")"
	fi
	n=$((n + 1))
	seed=$((seed + 1))
	t=$((t + 1))
done
dropdb "$db"
