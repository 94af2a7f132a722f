#!/usr/bin/env bash
# test/demo.sh: build, install, and show the extension at work in a
# throwaway cluster (what `make demo` runs).
set -euo pipefail
cd "$(dirname "$0")/.."
test/deps.sh demo
make -s >/dev/null
test/lib/install_if_needed.sh demo || exit 2
test/cluster.sh psql -X -q -f test/demo.sql
