#!/usr/bin/env bash
# test/lib/install_if_needed.sh COMMAND: makes sure the server of PG_CONFIG
# has the extension as built in this tree (for make demo, make test, make
# bench).  Does nothing when the installed files are the built ones; installs
# when it may write the server's directories; otherwise prints the exact
# command to run and exits 1.  Never writes outside the tree unless it
# installs.
set -uo pipefail
cd "$(dirname "$0")/../.."
PG_CONFIG=${PG_CONFIG:-pg_config}
command=${1:-test}
pkglibdir=$("$PG_CONFIG" --pkglibdir)
extdir=$("$PG_CONFIG" --sharedir)/extension

installed_is_built() {
	cmp -s ulid.so "$pkglibdir/ulid.so" && cmp -s ulid.control "$extdir/ulid.control" || return 1
	for script in build/ulid--*.sql; do
		cmp -s "$script" "$extdir/${script#build/}" || return 1
	done
}

installed_is_built && exit 0
if [ -w "$pkglibdir" ] && [ -w "$extdir" ]; then
	mkdir -p test/output
	make -s install >test/output/install.log 2>&1 && exit 0
	cat test/output/install.log
fi
pg_config_arg=
[ "$PG_CONFIG" = pg_config ] || pg_config_arg=" PG_CONFIG=$PG_CONFIG"
echo "The server ($pkglibdir) does not have this build of ulid installed, and this user cannot write there:"
echo "  run 'sudo make install$pg_config_arg', then 'make $command' again."
exit 1
