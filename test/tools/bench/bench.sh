#!/usr/bin/env bash
# test/tools/bench/bench.sh: what `make bench` runs.  Builds and installs the
# extension, starts a throwaway cluster and runs the benchmarks, each in one
# session with the cases interleaved, reporting medians and ratios to uuid,
# gen_random_uuid() and bigint/bigserial measured in the same run.
#
#   BENCH_ROWS (5000000)       generators, bulk inserts, text I/O
#   BENCH_BRIN_ROWS (10000000) BRIN vs btree
#   BENCH_RUNS (5)             runs of each case
#   BENCH_SORT_SIZES (100,1000,1000000) rows sorted, each size in turn
#                              (under 100,000: each sort 100,000 / N times,
#                              no index builds)
#   BENCH_SORT_MEMORY (4MB,2GB) work_mem of the sorts, each in turn (4MB:
#                              PostgreSQL's defaults, maintenance_work_mem 64MB)
#   BENCH_SORT_RUNS (5)        runs of each sort case
#   BENCH_SORT_SHAPES (all)    the shapes sorted, by number, e.g. 3,8 (and
#                              uuid v4, shape 1, always; 16 and 17, uuidv7()
#                              values, on PostgreSQL 18 and later)
#   BENCH_SORT_WORKERS (0)     parallel workers a sort may use (2:
#                              PostgreSQL's defaults)
#   BENCH_PGBENCH_SECONDS (30), BENCH_PGBENCH_RUNS (3)
#   BENCH_INSTRUCTION_ROWS (500000)  ids of each sort counted in instructions
#   BENCH_ONLY                 one of: generate, query, sort, pgbench,
#                              sort_instructions
set -euo pipefail
cd "$(dirname "$0")/../../.."
test/lib/deps.sh bench
make -s >/dev/null
test/lib/install_if_needed.sh bench
rows=${BENCH_ROWS:-5000000}
runs=${BENCH_RUNS:-5}
only=${BENCH_ONLY:-}
echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)," \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "Server: $("$(${PG_CONFIG:-pg_config} --bindir)/postgres" --version); N = $rows, medians of $runs runs"
export ULID_SERVER_OPTS="-c shared_preload_libraries=ulid -c shared_buffers=4GB -c work_mem=256MB -c maintenance_work_mem=1GB -c max_wal_size=8GB -c checkpoint_timeout=1h -c jit=off"
export PGOPTIONS="-c bench.rows=$rows -c bench.runs=$runs -c bench.brin_rows=${BENCH_BRIN_ROWS:-10000000}"
sort_options="-c bench.sort_sizes=${BENCH_SORT_SIZES:-100,1000,1000000} -c bench.sort_memory=${BENCH_SORT_MEMORY:-4MB,2GB} -c bench.runs=${BENCH_SORT_RUNS:-5} -c bench.sort_shapes=${BENCH_SORT_SHAPES:-} -c bench.sort_workers=${BENCH_SORT_WORKERS:-0}"
if [ "$only" != sort_instructions ]; then
	test/lib/cluster.sh bash -c "
		set -e
		[ -z '$only' ] || [ '$only' = generate ] && psql -X -f test/tools/bench/bench.sql
		[ -z '$only' ] || [ '$only' = query ] && psql -X -f test/tools/bench/bench_query.sql
		[ -z '$only' ] || [ '$only' = sort ] && PGOPTIONS=\"\$PGOPTIONS $sort_options\" psql -X -f test/tools/bench/bench_sort.sql
		[ -z '$only' ] || [ '$only' = pgbench ] && test/tools/bench/pgbench.sh
		true"
fi
# in a cluster of its own, which it stops for single-user backends under
# valgrind, and whose files it copies
if [ -z "$only" ] || [ "$only" = sort_instructions ]; then
	test/lib/cluster.sh test/tools/bench/sort_instructions.sh
fi
