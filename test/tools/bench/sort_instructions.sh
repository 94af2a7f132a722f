#!/usr/bin/env bash
# test/tools/bench/sort_instructions.sh: `make bench BENCH_ONLY=sort_instructions`.
# Instructions (valgrind --tool=callgrind) that ORDER BY, CREATE INDEX and a
# merge join of BENCH_INSTRUCTION_ROWS (500,000) ids of each shape of the
# sort benchmark (sort_tables.sql) execute,
# in a single-user backend: those of the statement run twice less those of
# it run once (under 100,000 ids, 11 times less once, over 10), so that what
# a backend does once (loading the library, the catalog's rows) is not
# counted, which took ulid 1 million instructions
# more than built-in uuid (sorts of 10,000 ids: 7% of a sort).
# A count does not change with what else the machine runs, so it shows the
# differences of a few tenths of a percent that times on a shared machine
# cannot resolve (they are not times: cache misses do not count).
# JIT is off, as in bench.sh's server (the single-user backend does not take
# its options): a merge join estimated at many rows was compiled.
# glibc's memset and memcpy take their vector loops, not rep stosb and rep
# movsb (GLIBC_TUNABLES): callgrind counts each step of a rep string
# instruction, one a byte: clearing a table of 128 kB counted 131,088
# instructions (7,200 with the loop) where it takes 1.5 to 2 microseconds
# either way, and an ORDER BY of 1,000 ids in runs, which clears one, 1.21
# times uuid v4's instructions (1.08 with the loops; uuid v4's own count
# the same).  Run by
# bench.sh in a throwaway cluster of its own (test/lib/cluster.sh: PGHOST),
# which it stops to start its backends.
set -euo pipefail
# (a copy of the files that fails, in instructions(), ends the run)
shopt -s inherit_errexit
cd "$(dirname "$0")/../../.."
command -v valgrind >/dev/null || { echo "valgrind is not installed: run 'sudo apt-get install valgrind'"; exit 1; }
bindir=${ULID_SERVER_BINDIR:-$("${PG_CONFIG:-pg_config}" --bindir)}
rows=${BENCH_INSTRUCTION_ROWS:-500000}
# a statement of few ids counts the work of its backend's history too (a
# CREATE INDEX of 1,000 ids the catalog's rows the one before added and
# rolled back: 3.52 and then 3.72 million instructions for the same index):
# under 100,000 ids, the mean of 10 runs after the first
repeats=1
[ "$rows" -ge 100000 ] || repeats=10
data=$PGHOST/data
# the single-user backends run as the server's user, in a directory it can
# read (test/lib/throwaway.sh)
. test/lib/throwaway.sh
throwaway_dir ulid-instructions
out=$tmp run_as=("${as_owner[@]}")
trap 'rm -rf "$out"' EXIT

# the tables of the sort benchmarks, at this size: s_<pos>, one a shape
# (uuid v4 first, then the shapes others are also reported against)
psql -X -q -v ON_ERROR_STOP=1 >/dev/null <<EOF
\\i test/tools/bench/prologue.sql
\\i test/tools/bench/sort_tables.sql
SELECT pg_temp.make_tables($rows);
-- core's class for uuid as an extension has one: an index records in
-- pg_depend that it depends on its operator class, but not on a class of
-- core's, pinned at initdb (the ratio under the table)
CREATE OPERATOR bench.< (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = pg_catalog.uuid_lt);
CREATE OPERATOR bench.<= (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = pg_catalog.uuid_le);
CREATE OPERATOR bench.= (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = pg_catalog.uuid_eq);
CREATE OPERATOR bench.>= (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = pg_catalog.uuid_ge);
CREATE OPERATOR bench.> (LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = pg_catalog.uuid_gt);
CREATE OPERATOR CLASS bench.uuid_unpinned_ops FOR TYPE uuid USING btree AS
	OPERATOR 1 bench.<, OPERATOR 2 bench.<=, OPERATOR 3 bench.=,
	OPERATOR 4 bench.>=, OPERATOR 5 bench.>,
	FUNCTION 1 pg_catalog.uuid_cmp(uuid, uuid),
	FUNCTION 2 pg_catalog.uuid_sortsupport(internal),
	FUNCTION 4 pg_catalog.btequalimage(oid);
\\copy (SELECT pos, shape, coalesce(reference, 0), type FROM shapes LEFT JOIN like_for_like USING (pos) WHERE type IN ('uuid', 'ulid') ORDER BY pos <> 1, pos NOT IN (SELECT reference FROM like_for_like), pos) TO '$out/shapes'
EOF
"${run_as[@]}" "$bindir/pg_ctl" -D "$data" -m fast -w stop >/dev/null
# every page all-visible and frozen, in a backend alone: a VACUUM while the
# server ran could find an older snapshot open (autovacuum's), and leave
# a table's pages to be checked tuple by tuple at each scan (an ORDER BY of
# 100,000 ids 5,000 a millisecond: 137.95 million instructions, 129.76
# after VACUUM in a backend alone, uuid v4's 134.73)
echo "VACUUM (FREEZE, ANALYZE);" | "${run_as[@]}" "$bindir/postgres" --single -D "$data" postgres >/dev/null
# under 100,000 ids, every backend starts from these files: a CREATE INDEX
# rolled back leaves its catalog rows (pg_class, pg_attribute, pg_depend...)
# dead in their tables and indexes, and the next one counted works past them
# (1,000 ids: one index counted 3.04, 3.05 and 3.10 million instructions as
# the measurements before it varied; 3.053 at every run from these files).
# Over, that is under 0.01% of a statement, and the copies would be of
# gigabytes.
[ "$repeats" = 1 ] || cp -a "$data" "$out/files"

string_loops=glibc.cpu.x86_rep_stosb_threshold=1000000000:glibc.cpu.x86_rep_movsb_threshold=1000000000
# instructions of the statements in file $1, in a backend of their own
instructions() {
	[ ! -d "$out/files" ] || { rm -rf "$data" && cp -a "$out/files" "$data"; }
	"${run_as[@]}" env GLIBC_TUNABLES="$string_loops" \
		valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$bindir/postgres" --single -D "$data" -c work_mem=2GB -c maintenance_work_mem=2GB \
		-c max_parallel_maintenance_workers=0 -c enable_hashjoin=off -c enable_nestloop=off -c jit=off \
		postgres <"$1" 2>&1 | sed -n 's/.*Collected : *//p'
}
# instructions of the statement $1, once, warm: run 1 + repeats times less
# run once, over the repeats
warm_instructions() {
	# one statement a line: the single-user backend's input
	tr ';' '\n' <<<"$1" | sed '/^ *$/d; s/$/;/' >"$out/once.sql"
	for _ in $(seq 0 "$repeats"); do cat "$out/once.sql"; done >"$out/more.sql"
	echo $((($(instructions "$out/more.sql") - $(instructions "$out/once.sql")) / repeats))
}

echo "Instructions (valgrind --tool=callgrind) each statement executed, millions, $rows ids;"
echo "in parentheses, times those of uuid v4 (the gen_random_uuid() values) and,"
echo "for shapes 11 to 13, times those of uuid v4 sorted alike (shapes 25 to 27),"
echo "and for ulid, times those of core's uuid functions on the same ids"
echo
echo "| ids | ORDER BY | CREATE INDEX | merge join |"
echo "|---|---:|---:|---:|"
declare -A counts
# the three statements over table $1: as a user writes them, or ($2) with
# ulid's operator class named, or with core's uuid functions
statements_of() {
	local t=$1 using='' opclass='' eq='='
	case $2 in
	named) opclass=' ulid_ops' ;;
	core) using=' USING OPERATOR(bench.<)' opclass=' bench.ulid_core_ops' eq='OPERATOR(bench.=)' ;;
	esac
	statements=("SELECT id FROM $t ORDER BY id$using OFFSET $rows;"
		"BEGIN; CREATE INDEX ${t}_id ON $t (id$opclass); ROLLBACK;"
		"SELECT count(*) FROM $t a JOIN $t b ON a.id $eq b.id;")
}
while IFS=$'\t' read -r pos shape reference type; do
	t=s_$pos
	row="| $shape |"
	statements_of "$t" ''
	ours=("${statements[@]}")
	statements_of "$t" named
	named=("${statements[@]}")
	statements_of "$t" core
	for op in 0 1 2; do
		count=$(warm_instructions "${ours[op]}")
		counts[$pos.$op]=$count
		core='' mine=$count
		if [ "$type" = ulid ]; then
			core=$(warm_instructions "${statements[op]}")
			# core's operator class is named, and ulid's found as the type's
			# default, by a scan of pg_opclass at each CREATE INDEX (65,000
			# instructions, 2% of an index of 1,000 ids): named too against core's
			if [ "$op" = 1 ]; then
				mine=$(warm_instructions "${named[op]}")
				counts[$pos.named]=$mine
			fi
		fi
		row+=$(awk -v c="$count" -v b="${counts[1.$op]}" -v a="${counts[$reference.$op]:-}" -v k="$core" -v m="$mine" \
			'BEGIN { printf " %.1f (%.3f×%s%s) |", c / 1e6, c / b, a ? sprintf(", %.3f× alike", c / a) : "",
				k ? sprintf(", %.3f× core", m / k) : "" }')
	done
	echo "$row"
done <"$out/shapes"
# uuid v4's CREATE INDEX with its class named, core's and a copy of it that
# is not pinned, against ulid's named, on the same ids (shape 3)
pinned=$(warm_instructions "BEGIN; CREATE INDEX s_1_id ON s_1 (id uuid_ops); ROLLBACK;")
unpinned=$(warm_instructions "BEGIN; CREATE INDEX s_1_id ON s_1 (id bench.uuid_unpinned_ops); ROLLBACK;")
echo
awk -v p="$pinned" -v u="$unpinned" -v m="${counts[3.named]}" 'BEGIN {
	printf "CREATE INDEX, the operator class named: uuid v4 with uuid_ops %.3f million; with a copy of it\n", p / 1e6
	printf "not pinned, as an extension'"'"'s class is, %.3f million (%.3f×); the same ids as ulid with\n", u / 1e6, u / p
	printf "ulid_ops %.3f million (%.3f× the copy)\n", m / 1e6, m / u }'
