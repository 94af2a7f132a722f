#!/usr/bin/env bash
# test/suites/high_water_mark.sh: the server-wide generators (ulid_flake_generate,
# ulid_flake_generate_scalable, gen_monotonic_ulid) never repeat an id and
# never go back, across what a server lives through with its clock behind
# (libfaketime, a fixed offset given to each server process):
# - a clean restart with the clock set back an hour;
# - kill -9 of every server process under 8 writers, then a start with the
#   clock two hours back, and 8 writers again;
# - a streaming standby, its clock three hours back, refusing to generate,
#   then promoted after the primary was killed under 8 writers;
# - pg_dump and pg_restore into a new cluster whose clock is behind, and
#   pg_upgrade of that cluster into another (same major).
# Each time every new id is checked against every id committed before and
# every id a client received before (from RETURNING, committed or not).
# Prints TAP.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib/tap.sh
. test/lib/throwaway.sh

PG_CONFIG=${PG_CONFIG:-pg_config}
bindir=$("$PG_CONFIG" --bindir)
faketime=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -1)
if [ -z "$faketime" ]; then
	echo "not ok 1 - libfaketime is not installed: run 'sudo apt-get install libfaketime' (or 'make test' as root)"
	exit 1
fi

throwaway_dir ulid-high-water
cleanup() {
	for d in "$tmp"/*/PG_VERSION; do
		"${as_owner[@]}" "$bindir/pg_ctl" -D "$(dirname "$d")" -m immediate -w stop >/dev/null 2>&1 || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

export PGUSER=postgres PGDATABASE=marks PGHOST=$tmp
sql() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

# configure NAME PORT: the settings of every cluster here
configure() {
	cat >>"$tmp/$1/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$tmp'
port = $2
fsync = off
lc_messages = 'C'
max_connections = 30
EOF
}

# start NAME OFFSET: the cluster's server under libfaketime, its clock
# OFFSET from the real one (libfaketime's syntax: +0, -1h, ...)
start() {
	"${as_owner[@]}" env LD_PRELOAD="$faketime" FAKETIME="$2" DONT_FAKE_MONOTONIC=1 \
		"$bindir/pg_ctl" -D "$tmp/$1" -l "$tmp/$1.log" -w start >/dev/null 2>&1
}
stop() { "${as_owner[@]}" "$bindir/pg_ctl" -D "$tmp/$1" -m fast -w stop >/dev/null; }

# crash NAME: kill -9 of the postmaster and of every process it started
crash() {
	local pm
	pm=$(head -1 "$tmp/$1/postmaster.pid")
	pkill -9 -P "$pm" || true
	kill -9 "$pm"
	while kill -0 "$pm" 2>/dev/null; do sleep 0.1; done
	sleep 0.5
}

# The table every writer inserts into; the ids of the three generators.
schema='
CREATE EXTENSION ulid;
CREATE TABLE w (phase int NOT NULL,
                f ulid_flake PRIMARY KEY DEFAULT ulid_flake_generate(),
                s ulid_flake UNIQUE DEFAULT ulid_flake_generate_scalable(7),
                u ulid UNIQUE DEFAULT gen_monotonic_ulid());'

# writers PORT PHASE SECONDS: 8 sessions inserting single rows (autocommit)
# for SECONDS, or until the server goes away; each client logs (line by
# line, so that nothing is lost when it is stopped) the ids it received to $tmp/received.PHASE.N, its errors to $tmp/errors.PHASE.N
writers() {
	local port=$1 phase=$2 seconds=$3 i
	local script=$tmp/insert.$phase.sql
	for _ in $(seq 1 200000); do
		echo "INSERT INTO w (phase) VALUES ($phase) RETURNING f, s, u;"
	done >"$script"
	for i in $(seq 1 8); do
		timeout "$seconds" stdbuf -oL psql -X -q -At -p "$port" -f "$script" \
			>"$tmp/received.$phase.$i" 2>"$tmp/errors.$phase.$i" &
	done
}
# wait_writers: until the 8 writers are done
wait_writers() { wait; }

# received PHASES...: the ids clients received in those phases, as
# "f|s|u" lines
received() {
	local p
	for p in "$@"; do cat "$tmp"/received."$p".* 2>/dev/null; done | grep -E '^[0-9A-Z]{13}\|[0-9A-Z]{13}\|[0-9A-Z]{26}$' || true
}

# errors PHASE: what the writers of PHASE reported other than the server
# going away (which the crashes cause), or "none"
errors() {
	local found
	found=$(cat "$tmp"/errors."$1".* | grep -v -E 'server closed the connection|terminated abnormally|connection to server .* failed|the connection to the server was lost|before or while processing|No such file or directory|Is the server running|Connection refused|connection lost|^\s*$' | sort | uniq -c | head -5 || true)
	echo "${found:-none}"
}

# above PORT PHASE EARLIER_PHASES...: for each generator, how many ids of
# PHASE are at or below the highest id committed in EARLIER_PHASES or
# received by a client in them; "f=0 s=0 u=0" is the bar
above() {
	local port=$1 phase=$2
	shift 2
	sql -p "$port" -c "CREATE TEMP TABLE seen (f ulid_flake, s ulid_flake, u ulid)" \
		-c "\\copy seen FROM stdin (DELIMITER '|')" \
		-c "SELECT format('f=%s s=%s u=%s',
		        count(*) FILTER (WHERE f <= (SELECT greatest(max(f), (SELECT max(f) FROM seen)) FROM w WHERE phase < $phase)),
		        count(*) FILTER (WHERE s <= (SELECT greatest(max(s), (SELECT max(s) FROM seen)) FROM w WHERE phase < $phase)),
		        count(*) FILTER (WHERE u <= (SELECT greatest(max(u), (SELECT max(u) FROM seen)) FROM w WHERE phase < $phase)))
		    FROM w WHERE phase = $phase" < <(received "$@")
}

# first_after PORT PHASE: how far the first ulid_flake of PHASE is above the
# last one of the phases before it, in ms
first_after() {
	sql -p "$1" -c "SELECT ulid_flake_unix_ms(min(f)) - (SELECT ulid_flake_unix_ms(max(f)) FROM w WHERE phase < $2)
	                 FROM w WHERE phase = $2"
}

#
# 1. A clean restart with the clock set back an hour.
#
init_cluster "$bindir" "$tmp/p" >/dev/null
configure p 5432
start p +0
createdb -p 5432 marks
sql -p 5432 -c "$schema"
sql -p 5432 -c "INSERT INTO w (phase) SELECT 1 FROM generate_series(1, 20000)"
lead=$(sql -p 5432 -c "SELECT (SELECT last_value FROM ulid_high_water_mark) - greatest(ulid_flake_unix_ms(max(f)), ulid_flake_unix_ms(max(s)), ulid_unix_ms(max(u))) FROM w")
check "20,000 ids of each generator: the mark is ${lead} ms above the last of them" \
	"$([ "$lead" -ge 0 ] && [ "$lead" -le 1000 ] && echo "within the lead" || echo "outside 0..1000")" "within the lead"
stop p
start p -1h
ahead=$(sql -p 5432 -c "SELECT round(extract(epoch FROM (SELECT ulid_flake_timestamp(max(f)) FROM w) - now()))")
check "after a restart with the clock an hour back, the last id is ${ahead} s ahead of the server's clock" \
	"$([ "$ahead" -gt 3000 ] && echo behind || echo "not behind")" behind
sql -p 5432 -c "INSERT INTO w (phase) SELECT 2 FROM generate_series(1, 20000)"
check "every new id is above every id before the restart" "$(above 5432 2 1)" "f=0 s=0 u=0"
gap=$(first_after 5432 2)
check "the first new ulid_flake is above the last old one by at most the mark's lead (1 s): ${gap} ms" \
	"$([ "$gap" -ge 1 ] && [ "$gap" -le 1001 ] && echo yes)" yes

sql -p 5432 -d postgres -c "CREATE ROLE app LOGIN" -c "CREATE ROLE tenant LOGIN" \
	-c "CREATE DATABASE tenant OWNER tenant"
sql -p 5432 -c "GRANT INSERT, SELECT ON w TO app"
check "a role with no right on the mark's sequence generates (the mark is written as its owner)" \
	"$(sql -p 5432 -U app -c "INSERT INTO w (phase) SELECT 2 FROM generate_series(1, 3000) RETURNING 1" | wc -l)" 3000
check "... but cannot set the mark itself" \
	"$(psql -X -q -At -p 5432 -U app -v VERBOSITY=terse -c "SELECT setval('ulid_high_water_mark', 1)" 2>&1)" \
	"ERROR:  permission denied for sequence ulid_high_water_mark"
# a database owner (the extension is trusted) sets its own mark to 2200
sql -p 5432 -U tenant -d tenant -c "CREATE EXTENSION ulid" \
	-c "SELECT setval('ulid_high_water_mark', ulid_flake_unix_ms('2200-01-01'::timestamptz::ulid_flake))" >/dev/null
check "a database owner who sets the mark to 2200 moves the ids of that database" \
	"$(sql -p 5432 -U tenant -d tenant -c "SELECT extract(year FROM ulid_flake_generate()::timestamptz)")" 2200
check "... and of no other: each database has generators of its own (years of a new ulid_flake and ulid, and of the clock)" \
	"$(sql -p 5432 -c "SELECT extract(year FROM ulid_flake_generate()::timestamptz), extract(year FROM gen_monotonic_ulid()::timestamptz)")" \
	"$(sql -p 5432 -c "SELECT extract(year FROM now()), extract(year FROM now())")"
sql -p 5432 -c "SELECT setval('ulid_high_water_mark', 1)" >/dev/null
lead=$(sql -p 5432 -c "INSERT INTO w (phase) VALUES (2)" \
	-c "SELECT last_value - (SELECT ulid_flake_unix_ms(max(f)) FROM w) FROM ulid_high_water_mark")
check "a mark set back by hand is written again: ${lead} ms above the last id" \
	"$([ "$lead" -ge 0 ] && [ "$lead" -le 1000 ] && echo "within the lead" || echo "outside 0..1000")" "within the lead"

# the scripts of 0.4.0 (no mark) with this library, and a look-alike
# sequence that another role planted in the extension's schema
sql -p 5432 -d postgres -c "CREATE DATABASE old"
sql -p 5432 -d old -c "CREATE EXTENSION ulid VERSION '0.4.0'" -c "GRANT CREATE ON SCHEMA public TO app"
sql -p 5432 -d old -U app -c "CREATE SEQUENCE ulid_high_water_mark"
check "the 0.4.0 scripts: the generators go on, with a warning, and leave a look-alike sequence alone" \
	"$(psql -X -q -At -p 5432 -d old -v VERBOSITY=terse -c "SELECT ulid_flake_generate() IS NOT NULL" \
		-c "SELECT last_value, is_called FROM ulid_high_water_mark" 2>&1)" \
	'WARNING:  sequence "public.ulid_high_water_mark" does not exist
t
1|f'

#
# 2. kill -9 under 8 writers, then the clock two hours back.
#
writers 5432 3 4
sleep 3
crash p
wait_writers
start p -2h
check "8 writers killed with the server: ids they received" \
	"$([ "$(received 3 | wc -l)" -gt 1000 ] && echo "over 1000" || received 3 | wc -l)" "over 1000"
got=$(received 3 | wc -l)
committed=$(sql -p 5432 -c "SELECT count(*) FROM w WHERE phase = 3")
check "... after crash recovery their rows are there: $committed committed, $got received (up to 8 received in a commit the crash cut)" \
	"$([ "$committed" -ge $((got - 8)) ] && echo there || echo missing)" there
writers 5432 4 3
wait_writers
check "8 writers after the crash, the clock two hours back: errors" "$(errors 4)" none
check "... $(sql -p 5432 -c "SELECT count(*) FROM w WHERE phase = 4") rows, every id above every id committed or received before" \
	"$(above 5432 4 1 2 3)" "f=0 s=0 u=0"

#
# 3. A standby whose clock is three hours behind, promoted.
#
"${as_owner[@]}" "$bindir/pg_basebackup" -h "$tmp" -p 5432 -U postgres -D "$tmp/s" -R -X stream >/dev/null
sed -i '/^port = /d' "$tmp/s/postgresql.conf"
echo "port = 5433" >>"$tmp/s/postgresql.conf"
start s -3h
check "the standby refuses to generate (it could not write the mark)" \
	"$(psql -X -q -At -p 5433 -v VERBOSITY=terse -c "SELECT ulid_flake_generate()" 2>&1)" \
	"ERROR:  cannot execute ulid_flake_generate() in a read-only transaction"
writers 5432 5 30
# the primary killed once the standby has replayed some of their rows
for _ in $(seq 1 100); do
	[ "$(sql -p 5433 -c "SELECT count(*) > 1000 FROM w WHERE phase = 5")" = t ] && break
	sleep 0.2
done
crash p
wait_writers
"${as_owner[@]}" "$bindir/pg_ctl" -D "$tmp/s" -w promote >/dev/null
got=$(sql -p 5433 -c "SELECT count(*) FROM w WHERE phase = 5")
check "the standby promoted after the primary was killed under 8 writers: it has $got of their rows" \
	"$([ "$got" -gt 1000 ] && echo "over 1000" || echo "$got")" "over 1000"
writers 5433 6 3
wait_writers
check "8 writers on the promoted standby, its clock three hours behind: errors" "$(errors 6)" none
check "... $(sql -p 5433 -c "SELECT count(*) FROM w WHERE phase = 6") rows, every id above every id the old primary committed or handed out" \
	"$(above 5433 6 1 2 3 4 5)" "f=0 s=0 u=0"

#
# 4. pg_dump and pg_restore into a new cluster, five hours behind; then
#    pg_upgrade of it into another, six hours behind.
#
"${as_owner[@]}" "$bindir/pg_dump" -h "$tmp" -p 5433 -Fc -f "$tmp/marks.dump" marks
mark=$(sql -p 5433 -c "SELECT last_value FROM ulid_high_water_mark")
init_cluster "$bindir" "$tmp/r" >/dev/null
configure r 5434
start r -5h
sql -p 5434 -d postgres -c "CREATE ROLE app LOGIN"
createdb -p 5434 marks
"${as_owner[@]}" "$bindir/pg_restore" -h "$tmp" -p 5434 -d marks --exit-on-error "$tmp/marks.dump"
check "pg_dump keeps the mark: restored as it was" \
	"$(sql -p 5434 -c "SELECT last_value FROM ulid_high_water_mark")" "$mark"
sql -p 5434 -c "INSERT INTO w (phase) SELECT 7 FROM generate_series(1, 20000)"
check "after the restore, five hours behind: every new id above every restored one" \
	"$(above 5434 7)" "f=0 s=0 u=0"
mark=$(sql -p 5434 -c "SELECT last_value FROM ulid_high_water_mark")
stop r
init_cluster "$bindir" "$tmp/u" >/dev/null
configure u 5435
"${as_owner[@]}" "$bindir/pg_upgrade" -b "$bindir" -B "$bindir" -d "$tmp/r" -D "$tmp/u" \
	-s "$tmp" -p 5434 -P 5435 >"$tmp/pg_upgrade.log" 2>&1 ||
	{ echo "# pg_upgrade failed:"; sed 's/^/# /' "$tmp/pg_upgrade.log" | tail -20; }
start u -6h
check "pg_upgrade keeps the mark" \
	"$(sql -p 5435 -c "SELECT last_value FROM ulid_high_water_mark")" "$mark"
sql -p 5435 -c "INSERT INTO w (phase) SELECT 8 FROM generate_series(1, 20000)"
check "after pg_upgrade, six hours behind: every new id above every earlier one" \
	"$(above 5435 8)" "f=0 s=0 u=0"
check "every id of the run is unique, per generator: distinct f, s, u of all rows" \
	"$(sql -p 5435 -c "SELECT format('%s %s %s', count(DISTINCT f), count(DISTINCT s), count(DISTINCT u)) FROM w")" \
	"$(sql -p 5435 -c "SELECT format('%s %s %s', count(*), count(*), count(*)) FROM w")"
echo "1..$n"
