#!/usr/bin/env bash
# test/bench/bench.sh: what `make bench` runs.  Builds and installs the
# extension, starts a throwaway cluster and runs the benchmarks in one
# session.  BENCH_ROWS (default 5000000) and BENCH_RUNS (default 5).
set -euo pipefail
cd "$(dirname "$0")/../.."
test/deps.sh bench
make -s >/dev/null
make -s install >/dev/null
rows=${BENCH_ROWS:-5000000}
runs=${BENCH_RUNS:-5}
echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)," \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "Server: $("$(${PG_CONFIG:-pg_config} --bindir)/postgres" --version); N = $rows, medians of $runs runs"
export ULID_SERVER_OPTS="-c shared_buffers=2GB -c work_mem=256MB -c maintenance_work_mem=1GB -c max_wal_size=8GB -c checkpoint_timeout=1h -c jit=off"
export PGOPTIONS="-c bench.rows=$rows -c bench.runs=$runs"
test/cluster.sh psql -X -f test/bench/bench.sql
