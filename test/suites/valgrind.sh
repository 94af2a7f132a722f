#!/usr/bin/env bash
# test/suites/valgrind.sh: what `make valgrind` runs.  The regression suite against a
# server started under valgrind (memcheck); fails if valgrind reports any
# error.  Suppressions: test/suites/valgrind.supp, plus PostgreSQL's own
# src/tools/valgrind.supp if VALGRIND_SUPP names it.  Slow: minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "valgrind is not installed: apt-get install valgrind"; exit 1; }
make -s >/dev/null
make -s install >/dev/null
logs=$(mktemp -d /tmp/ulid-valgrind.XXXXXX)
chmod 777 "$logs"
supp="--suppressions=$PWD/test/suites/valgrind.supp"
[ -n "${VALGRIND_SUPP:-}" ] && supp="$supp --suppressions=$VALGRIND_SUPP"
export ULID_SERVER_WRAPPER="valgrind --quiet --trace-children=yes --leak-check=no --read-var-info=no $supp --log-file=$logs/valgrind.%p.log"
status=0
test/lib/cluster.sh make -s installcheck || status=$?
errors=$(cat "$logs"/valgrind.*.log | grep -cE '^==[0-9]+== [A-Z]' || true)
in_ulid=$(grep -l ulid "$logs"/valgrind.*.log | wc -l || true)
echo "valgrind: $(ls "$logs" | wc -l) processes, $errors errors, $in_ulid logs mentioning ulid (logs in $logs)"
[ "$status" = 0 ] && [ "$errors" = 0 ]
