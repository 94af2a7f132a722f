#!/usr/bin/env bash
# test/suites/flake_server.sh: the server-wide ulid_flake state, and the setting
# that names the server, across what a server lives through.
#
# On a server of its own, restarted with and without
# shared_preload_libraries:
# - the spare shared memory taken by a lock storm that a role with only
#   CONNECT can run, and then all of it (test/lib/shmem_hog.c): the flake
#   generators work when the library was loaded before, or is preloaded; on
#   13 to 16 without preload and loaded only after, they fail with 53200 and
#   a HINT naming shared_preload_libraries (17+ keeps the state in a DSM
#   segment the lock table cannot reach), and the session that loaded the
#   library still answers statement_timeout and pg_cancel_backend;
# - a restart: every id generated after it is above every id before it;
# - ulid.flake_node_id: only a superuser (or a role granted it) sets it;
#   ALTER SYSTEM and postgresql.conf reach fresh sessions.
# Prints TAP.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib/tap.sh
. test/lib/throwaway.sh

PG_CONFIG=${PG_CONFIG:-pg_config}
bindir=$("$PG_CONFIG" --bindir)
major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')

make -s -f test/lib/Makefile PG_CONFIG="$PG_CONFIG" >/dev/null

throwaway_dir ulid-flake-server
cleanup() {
	"${as_owner[@]}" "$bindir/pg_ctl" -D "$tmp/data" -m immediate -w stop >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
init_cluster "$bindir" "$tmp/data" >/dev/null
cat >>"$tmp/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$tmp'
port = 5432
fsync = off
lc_messages = 'C'
EOF
# where the server can read it, whoever owns the checkout
hog=$tmp/shmem_hog.so
cp test/lib/shmem_hog.so "$hog"
chmod 755 "$hog"

export PGHOST=$tmp PGPORT=5432 PGUSER=postgres PGDATABASE=flakes

# restart [POSTGRES OPTIONS]: a fresh server process, nothing loaded yet
restart() {
	"${as_owner[@]}" "$bindir/pg_ctl" -D "$tmp/data" -m fast -w stop >/dev/null 2>&1 || true
	"${as_owner[@]}" "$bindir/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w -o "${1:-}" start >/dev/null
}
sql() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
# outcome SQL...: the last row, or the error with its SQLSTATE and HINT
outcome() {
	psql -X -q -At -v ON_ERROR_STOP=1 -v VERBOSITY=verbose "$@" 2>&1 |
		sed -nE 's/^ERROR: +([0-9A-Z]{5}): (.*)/ERROR \1: \2/p; s/^HINT: +(.*)/HINT: \1/p; /^(ERROR|HINT|DETAIL|LOCATION|WARNING)/!p' |
		tr '\n' ' ' | sed 's/ $//'
}
free_bytes() {
	sql -d postgres -c "SELECT coalesce(sum(allocated_size), 0) FROM pg_shmem_allocations WHERE name IS NULL"
}
lock_storm() {
	# what a role with only CONNECT can do: the lock table grows into the
	# spare room until "out of shared memory"
	psql -X -q -d postgres -U storm \
		-c "SELECT count(pg_advisory_xact_lock(i)) FROM generate_series(1, 200000) i" >/dev/null 2>&1 || true
}

restart
sql -d postgres <<'SQL'
CREATE ROLE storm LOGIN;
CREATE ROLE app LOGIN;
CREATE DATABASE flakes;
SQL
sql -c "CREATE EXTENSION ulid" -c "GRANT CREATE ON SCHEMA public TO app"
generated='SELECT ulid_flake_generate() IS NOT NULL AND ulid_flake_generate_scalable(3) IS NOT NULL AND gen_monotonic_ulid() IS NOT NULL'

# 1. no preload, the library loaded before the storm: the state was reserved
restart
sql -c "SELECT ulid_generate() IS NOT NULL" >/dev/null
lock_storm
sql -d postgres -c "LOAD '$hog'"
check "no preload, loaded before a lock storm and the rest taken ($(free_bytes) bytes left): server-wide generators" \
	"$(outcome -c "$generated")" t

# 2. no preload, the room taken before the first load
restart
lock_storm
left=$(free_bytes)
sql -d postgres -c "LOAD '$hog'"
if [ "$major" -ge 17 ]; then
	expected=t
else
	expected="ERROR 53200: could not reserve shared memory for the server-wide ulid generators HINT: Add ulid to shared_preload_libraries and restart the server."
fi
check "no preload, a lock storm left $left bytes, then none; first load after it: server-wide generators" \
	"$(outcome -c "$generated")" "$expected"
check "... while the rest of the extension works" \
	"$(outcome -c "SELECT ulid_generate() IS NOT NULL, '00CMXB6TAK4SA'::ulid_flake::bigint")" "t|14246757444195114"
# The load that found no room must leave the session's interrupt handling
# as it was (on an assert-enabled build a wrong holdoff count is a crash):
# statement_timeout and pg_cancel_backend still stop it.
started=$(sql -c "SELECT pg_postmaster_start_time()")
check "... the session whose load found no room still honours statement_timeout" \
	"$(outcome -c "SELECT ulid_generate() IS NOT NULL" -c "SET statement_timeout = '300ms'" -c "SELECT pg_sleep(20)")" \
	"t ERROR 57014: canceling statement due to statement timeout"
t0=$SECONDS
outcome -c "SELECT ulid_generate() IS NOT NULL" -c "SELECT pg_sleep(20)" >"$tmp/cancelled.out" &
sleeper=$!
for _ in $(seq 100); do
	[ "$(sql -c "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(20)'")" = 1 ] && break
	sleep 0.1
done
sql -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(20)'" >/dev/null
wait "$sleeper" || true
check "... and pg_cancel_backend (in $((SECONDS - t0)) s)" \
	"$(cat "$tmp/cancelled.out")" "t ERROR 57014: canceling statement due to user request"
check "... and the server did not restart" \
	"$(sql -c "SELECT pg_postmaster_start_time()")" "$started"

# 3. preloaded: reserved at server start
restart "-c shared_preload_libraries=ulid"
lock_storm
sql -d postgres -c "LOAD '$hog'"
check "preloaded, after a lock storm and the rest taken ($(free_bytes) bytes left): server-wide generators" \
	"$(outcome -c "$generated")" t

# 4. a restart: the state is not kept, ids go on above the old ones because
#    the clock has moved on (README: what a restart and a failover keep)
sql <<'SQL'
CREATE TABLE before_restart AS
SELECT ulid_flake_generate() AS standalone, ulid_flake_generate_scalable(3) AS scalable
FROM generate_series(1, 5000);
SQL
restart
check "after a restart, every new id is above every old one (stand-alone, scalable)" \
	"$(sql -c "SELECT (SELECT min(ulid_flake_generate()) FROM generate_series(1, 5000)) > max(standalone),
	                  (SELECT min(ulid_flake_generate_scalable(3)) FROM generate_series(1, 5000)) > max(scalable)
	           FROM before_restart")" "t|t"

# 5. ulid.flake_node_id names the server: a superuser's to set
check "a role that is not a superuser cannot SET ulid.flake_node_id" \
	"$(outcome -U app -c "SELECT ulid_generate() IS NOT NULL" -c "SET ulid.flake_node_id = 3")" \
	"t ERROR 42501: permission denied to set parameter \"ulid.flake_node_id\""
check "... set before the library is loaded, the value is dropped when it loads" \
	"$(outcome -U app -c "SET ulid.flake_node_id = 3" -c "SELECT ulid_flake_generate() IS NOT NULL" \
		-c "SELECT current_setting('ulid.flake_node_id')")" "t -1"
check "... and passes the node id as an argument instead" \
	"$(outcome -U app -c "SELECT ulid_flake_node_id(ulid_flake_generate_scalable(5))")" 5
if [ "$major" -ge 15 ]; then
	sql -c "GRANT SET ON PARAMETER ulid.flake_node_id TO app"
	check "... unless granted SET on the parameter" \
		"$(outcome -U app -c "SET ulid.flake_node_id = 4" -c "SELECT ulid_flake_node_id(ulid_flake_generate_scalable())")" 4
	sql -c "REVOKE SET ON PARAMETER ulid.flake_node_id FROM app"
fi

# ALTER SYSTEM from a fresh session: 17+ accepts a setting of a library that
# is not loaded; before 17 the session must load it first (README says so)
if [ "$major" -ge 17 ]; then
	expected="ALTER SYSTEM"
else
	expected="ERROR 42704: unrecognized configuration parameter \"ulid.flake_node_id\""
fi
check "ALTER SYSTEM SET ulid.flake_node_id in a fresh session" \
	"$(psql -X -At -v VERBOSITY=verbose -c "ALTER SYSTEM SET ulid.flake_node_id = 7" 2>&1 |
		sed -nE 's/^ERROR: +([0-9A-Z]{5}): (.*)/ERROR \1: \2/p; /^ALTER/p')" "$expected"
sql -c "LOAD 'ulid'" -c "ALTER SYSTEM SET ulid.flake_node_id = 7" -c "SELECT pg_reload_conf()" >/dev/null
sleep 1
check "after LOAD 'ulid', ALTER SYSTEM and a reload: a fresh session generates for node 7" \
	"$(outcome -U app -c "SELECT ulid_flake_node_id(ulid_flake_generate_scalable())")" 7

sql -c "LOAD 'ulid'" -c "ALTER SYSTEM RESET ulid.flake_node_id" >/dev/null
echo "ulid.flake_node_id = 9" >>"$tmp/data/postgresql.conf"
sql -c "SELECT pg_reload_conf()" >/dev/null
sleep 1
check "in postgresql.conf, after a reload: a fresh session generates for node 9" \
	"$(outcome -U app -c "SELECT ulid_flake_node_id(ulid_flake_generate_scalable())")" 9

# 6. a library upgrade without a restart: backends of a library whose
#    generator state has another layout (here the same sources built with
#    layout 3) never share it, nor keep one of their own: they refuse, and
#    say to restart
other=$tmp/other
mkdir -p "$other/src"
cp src/*.c src/*.h "$other/src/"
cp Makefile ulid.control ulid--*.sql "$other/"
make -s -C "$other" PG_CONFIG="$PG_CONFIG" \
	PG_CPPFLAGS='-DULID_VERSION="\"next\"" -DULID_SHARED_STATE_LAYOUT=3' ulid.so >"$tmp/other.log" 2>&1 ||
	{ echo "not ok - the library with layout 3 does not build:"; sed 's/^/# /' "$tmp/other.log"; exit 1; }
cp "$other/ulid.so" "$tmp/ulid_next.so"
chmod 755 "$tmp/ulid_next.so"
# (a member of the extension, as the generators are: it keeps their mark)
sql -c "CREATE FUNCTION next_flake() RETURNS bigint AS '$tmp/ulid_next.so', 'ulid_flake_generate' LANGUAGE C VOLATILE" \
	-c "ALTER EXTENSION ulid ADD FUNCTION next_flake()"
refused="ERROR 55000: the server-wide ulid generators are in use by another version of the ulid library HINT: Restart the server after installing a new version of the ulid library."
restart
sql -c "SELECT ulid_flake_generate() IS NOT NULL" >/dev/null
check "a library of another layout, loaded beside this one's running backends, refuses to generate" \
	"$(outcome -c "SELECT next_flake()")" "$refused"
check "... while this library's backends go on" "$(outcome -c "$generated")" t
restart
check "after a restart, the library loaded first generates" "$(outcome -c "SELECT next_flake() > 0")" t
check "... and this one refuses" "$(outcome -c "SELECT ulid_flake_generate()")" "$refused"
