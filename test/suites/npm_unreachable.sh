#!/usr/bin/env bash
# test/suites/npm_unreachable.sh: with the npm registry out of reach, the
# packages step (test/lib/deps.sh) does not stop make test: it goes on, and
# leaves the one line the node_postgres suite then fails with, saying what
# could not be had and how to get it.  Runs on a copy of test/lib and
# test/clients without node_modules.  Prints TAP.
set -uo pipefail
cd "$(dirname "$0")/../.."
. test/lib/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/test/clients"
cp -r test/lib "$tmp/test/"
cp test/clients/package.json test/clients/package-lock.json "$tmp/test/clients/"
npm_config_registry=http://127.0.0.1:9 "$tmp/test/lib/deps.sh" test --no-install >"$tmp/deps.log" 2>&1
check "the packages step, the npm registry out of reach: exit status" "$?" 0
check "... the line the node_postgres suite fails with" "$(cat "$tmp/test/output/npm.missing" 2>&1)" \
	"npm could not fetch the packages locked in test/clients (ECONNREFUSED): run 'npm ci --prefix test/clients' where the npm registry is reachable"
echo "1..$n"
