#!/usr/bin/env bash
# test/demo.sh: build, install, and show the extension at work in a
# throwaway cluster (what `make demo` runs).
set -euo pipefail
cd "$(dirname "$0")/.."
test/deps.sh demo
make -s >/dev/null
make -s install >/dev/null || {
	echo "Could not install into $(${PG_CONFIG:-pg_config} --pkglibdir): run 'sudo make install', then 'make demo'."
	exit 1
}
test/cluster.sh psql -X -q -f test/demo.sql
