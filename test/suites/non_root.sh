#!/usr/bin/env bash
# test/suites/non_root.sh: the README's path for a user who is not root, run by
# root with a throwaway OS user (make test runs it as root only).  A clone
# of the committed tree, owned by that user:
#   0. make without the server's headers: says what to install, and as
#      root too, installing nothing (make deps, demo and test install);
#   1. make demo with an older build installed: says exactly what to run,
#      writes nothing outside the tree;
#   2. root runs 'make install' in the clone (the README's one sudo step);
#   3. make demo and make test as the user: they work, write nothing outside
#      the tree, and make test's last line is its summary;
#   4. make test with a build that fails: the summary is still the last line;
#   5. root's make demo in a clone the postgres user cannot read.
set -uo pipefail
cd "$(dirname "$0")/../.."
. test/lib/tap.sh
if [ "$(id -u)" != 0 ]; then
	echo "ok 1 # SKIP run as root: it tests the path of another user"
	exit 0
fi
# once per machine: not inside another run of the suite (ULID_NESTED_RUN:
# the matrix's, the dist suite's; its own make test as the user sets it)
if [ -n "${ULID_NESTED_RUN:-}" ]; then
	echo "ok 1 # SKIP run once, by make test on the machine's PostgreSQL"
	exit 0
fi
PG_CONFIG=${PG_CONFIG:-pg_config}
user=ulid_newcomer
id "$user" >/dev/null 2>&1 || useradd --create-home "$user"
tmp=$(mktemp -d /tmp/ulid-newcomer.XXXXXX)
tree=$tmp/ulid
trap 'rm -rf "$tmp"; make -s install >/dev/null' EXIT
git clone -q "$PWD" "$tree"
# the locked npm packages, as the user would have fetched them
[ -d test/clients/node_modules ] && cp -a test/clients/node_modules "$tree/test/clients/"
chown -R "$user" "$tmp"
chmod 755 "$tmp"

as_user() { runuser -u "$user" -- env HOME="/home/$user" PG_CONFIG="$PG_CONFIG" "$@"; }
server_files() {
	md5sum "$("$PG_CONFIG" --pkglibdir)/ulid.so" "$("$PG_CONFIG" --sharedir)"/extension/ulid* | md5sum
}

# 0. no server headers (a fresh machine): a pg_config that points at none, and
# PGXS's include directory with it; make says what to install, builds nothing
fake_pg_config=$tmp/pg_config
printf '#!/bin/sh\n[ "$1" = --includedir-server ] && exec echo /nonexistent/server\nexec "%s" "$@"\n' \
	"$(command -v "$PG_CONFIG")" >"$fake_pg_config"
chmod 755 "$fake_pg_config"
as_user make -C "$tree" -s PG_CONFIG="$fake_pg_config" includedir_server=/nonexistent/server \
	>"$tmp/headers.log" 2>&1
check "no server headers: make's exit status" "$?" 2
check "... it says what to install" "$(grep -m1 'apt-get' "$tmp/headers.log")" \
	"  sudo apt-get install -y postgresql-server-dev-$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')"
check "... and compiled nothing" "$(find "$tree/src" -name '*.o' -o -name '*.bc' | wc -l) objects" "0 objects"
# root's make and make install change nothing on the system either: they
# name the command (make deps, make demo and make test install)
for target in all install; do
	make -C "$tree" -s PG_CONFIG="$fake_pg_config" includedir_server=/nonexistent/server $target \
		>"$tmp/headers-root.log" 2>&1
	check "no server headers, root's make $target: exit status" "$?" 2
	check "... it installs nothing and names the command" \
		"$(grep -c '^Installing' "$tmp/headers-root.log") installs; $(grep -m1 'apt-get' "$tmp/headers-root.log")" \
		"0 installs;   apt-get install -y postgresql-server-dev-$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')"
done

# 1. the installed build is not this one (a change to the control file's comment)
echo "# $tmp" >>"$tree/ulid.control"
before=$(server_files)
as_user make -C "$tree" -s demo >"$tmp/demo1.log" 2>"$tmp/demo1.err"
check "make demo, another build installed: exit status" "$?" 2
check "... its last line says what to run" "$(tail -1 "$tmp/demo1.log")" \
	"  run 'sudo make install$([ "$PG_CONFIG" = pg_config ] || echo " PG_CONFIG=$PG_CONFIG")', then 'make demo' again."
check "... and it wrote nothing outside the tree" "$(server_files)" "$before"

as_user git -C "$tree" checkout -q ulid.control

# 2. sudo make install
make -C "$tree" -s install >/dev/null 2>&1
check "root: make install in the user's clone" "$?" 0

# 3. make demo and make test as the user
before=$(server_files)
as_user make -C "$tree" -s demo >"$tmp/demo2.log" 2>"$tmp/demo2.err"
check "make demo as the user: exit status" "$?" 0
check "... it shows the extension at work, with only the error it means to show" \
	"$(grep -c '01ARZ3NDEKTSV4RRFFQ69G5FAV' "$tmp/demo2.log") lines with the spec's example id, $(cat "$tmp/demo2.log" "$tmp/demo2.err" | grep -c 'ERROR:') error" \
	"2 lines with the spec's example id, 1 error"
check "... wrote nothing outside the tree" "$(server_files)" "$before"
as_user ULID_NESTED_RUN=1 make -C "$tree" -s test >"$tmp/test.log" 2>/dev/null
status=$?
last=$(tail -1 "$tmp/test.log")
check "make test as the user: its last line is the summary, nothing failed" \
	"$(echo "$last" | sed -E 's/^[0-9]+ passed, /N passed, /')" "N passed, 0 failed"
check "... exit status" "$status" 0
check "... wrote nothing outside the tree" "$(server_files)" "$before"
[ "$status" = 0 ] || grep -E '^[a-z_]+ +[0-9]+ passed, [1-9]' "$tmp/test.log" | sed 's/^/# /'

# 4. a build that fails
echo 'this is not C' >>"$tree/src/ulid.c"
as_user make -C "$tree" -s test >"$tmp/broken.log" 2>/dev/null
check "make test, the build failing: the last line is the summary" "$(tail -1 "$tmp/broken.log")" "0 passed, 1 failed"

# 5. root, in a clone the server's user cannot read (as in /root): the
# servers it starts as postgres run without complaint
as_user git -C "$tree" checkout -q src/ulid.c
chmod 700 "$tree"
make -C "$tree" -s demo >"$tmp/demo3.log" 2>"$tmp/demo3.err"
check "root: make demo in a directory postgres cannot read: exit status" "$?" 0
check "... complaints" "$(grep -i 'could not\|permission denied' "$tmp/demo3.log" "$tmp/demo3.err")" ""
echo "1..$n"
