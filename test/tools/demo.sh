#!/usr/bin/env bash
# test/tools/demo.sh: build, install, and show the extension at work in a
# throwaway cluster (what `make demo` runs).
set -euo pipefail
cd "$(dirname "$0")/../.."
test/lib/deps.sh demo
make -s >/dev/null
test/lib/install_if_needed.sh demo || exit 2
test/lib/cluster.sh psql -X -q -f test/tools/demo.sql
