#!/usr/bin/env bash
# test/tools/bench/sort_instructions.sh: `make bench BENCH_ONLY=sort_instructions`.
# Instructions (valgrind --tool=callgrind) that ORDER BY, CREATE INDEX and a
# merge join of BENCH_INSTRUCTION_ROWS (500,000) ids of each shape of the
# sort benchmark (sort_tables.sql) execute,
# in a single-user backend: those of the statement run twice less those of
# it run once, so that what a backend does once (loading the library, the
# catalog's rows) is not counted, which took ulid 1 million instructions
# more than built-in uuid (sorts of 10,000 ids: 7% of a sort).
# A count does not change with what else the machine runs, so it shows the
# differences of a few tenths of a percent that times on a shared machine
# cannot resolve (they are not times: cache misses do not count).
# glibc's memset and memcpy take their vector loops, not rep stosb and rep
# movsb (GLIBC_TUNABLES): callgrind counts each step of a rep string
# instruction, one a byte: clearing a table of 128 kB counted 131,088
# instructions (7,200 with the loop) where it takes 1.5 to 2 microseconds
# either way, and an ORDER BY of 1,000 ids in runs, which clears one, 1.21
# times uuid v4's instructions (1.08 with the loops; uuid v4's own count
# the same).  Run by
# bench.sh against its throwaway cluster (PGHOST), which it stops and starts
# again.
set -euo pipefail
cd "$(dirname "$0")/../../.."
command -v valgrind >/dev/null || { echo "valgrind is not installed: run 'sudo apt-get install valgrind'"; exit 1; }
bindir=$("${PG_CONFIG:-pg_config}" --bindir)
rows=${BENCH_INSTRUCTION_ROWS:-500000}
data=$PGHOST/data
run_as=()
[ "$(id -u)" = 0 ] && run_as=(runuser -u postgres --)
out=$(mktemp -d /tmp/ulid-instructions.XXXXXX)
chmod 777 "$out"
trap 'rm -rf "$out"' EXIT

# the tables of the sort benchmarks, at this size: s_<pos>, one a shape
# (uuid v4 first, then the shapes others are also reported against)
psql -X -q -v ON_ERROR_STOP=1 >/dev/null <<EOF
\\i test/tools/bench/prologue.sql
\\i test/tools/bench/sort_tables.sql
SELECT pg_temp.make_tables($rows);
\\copy (SELECT pos, shape, coalesce(reference, 0) FROM shapes LEFT JOIN like_for_like USING (pos) WHERE type IN ('uuid', 'ulid') ORDER BY pos <> 1, pos NOT IN (SELECT reference FROM like_for_like), pos) TO '$out/shapes'
VACUUM ANALYZE;
EOF
"${run_as[@]}" "$bindir/pg_ctl" -D "$data" -m fast -w stop >/dev/null

string_loops=glibc.cpu.x86_rep_stosb_threshold=1000000000:glibc.cpu.x86_rep_movsb_threshold=1000000000
# instructions of the statements in file $1, in a backend of their own
instructions() {
	"${run_as[@]}" env GLIBC_TUNABLES="$string_loops" \
		valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$bindir/postgres" --single -D "$data" -c work_mem=2GB -c maintenance_work_mem=2GB \
		-c max_parallel_maintenance_workers=0 -c enable_hashjoin=off -c enable_nestloop=off \
		postgres <"$1" 2>&1 | sed -n 's/.*Collected : *//p'
}
# instructions of the statement $1, once, warm: run twice less run once
warm_instructions() {
	# one statement a line: the single-user backend's input
	tr ';' '\n' <<<"$1" | sed '/^ *$/d; s/$/;/' >"$out/once.sql"
	cat "$out/once.sql" "$out/once.sql" >"$out/twice.sql"
	echo $(($(instructions "$out/twice.sql") - $(instructions "$out/once.sql")))
}

echo "Instructions (valgrind --tool=callgrind) each statement executed, millions, $rows ids;"
echo "in parentheses, times those of uuid v4 (the gen_random_uuid() values) and,"
echo "for shapes 11 to 13, times those of uuid v4 sorted alike (shapes 25 to 27)"
echo
echo "| ids | ORDER BY | CREATE INDEX | merge join |"
echo "|---|---:|---:|---:|"
declare -A counts
while IFS=$'\t' read -r pos shape reference; do
	t=s_$pos
	row="| $shape |"
	statements=("SELECT id FROM $t ORDER BY id OFFSET $rows;"
		"BEGIN; CREATE INDEX ${t}_id ON $t (id); ROLLBACK;"
		"SELECT count(*) FROM $t a JOIN $t b ON a.id = b.id;")
	for op in 0 1 2; do
		count=$(warm_instructions "${statements[op]}")
		counts[$pos.$op]=$count
		row+=$(awk -v c="$count" -v b="${counts[1.$op]}" -v a="${counts[$reference.$op]:-}" \
			'BEGIN { printf " %.1f (%.3f×%s) |", c / 1e6, c / b, a ? sprintf(", %.3f× alike", c / a) : "" }')
	done
	echo "$row"
done <"$out/shapes"
"${run_as[@]}" "$bindir/pg_ctl" -D "$data" -l "$PGHOST/server.log" -o "${ULID_SERVER_OPTS:-}" -w start >/dev/null
