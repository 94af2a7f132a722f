#!/usr/bin/env bash
# test/suites/clock_steps.sh: the ulid_flake generators under a clock that stands
# still and then steps back, on a server run under libfaketime.
#
# With ulid.flake_entropy_bytes = 2 about sixteen ids fill a millisecond,
# and ulid.flake_overflow = 'wait' waits for the next one.  The clock is
# frozen: the wait must cost little CPU (it sleeps after about a millisecond
# of polling).  Then the clock is set back an hour: the wait must end at
# once (the generator moves on from its last id) rather than wait for the
# clock to catch up, and every id is still distinct and increasing; also
# with six sessions racing, each of which must decide to wait on the real
# clock.  Prints TAP.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib/tap.sh

if [ "${1:-}" != --inner ]; then
	lib=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -1)
	if [ -z "$lib" ]; then
		echo "not ok 1 - libfaketime is not installed: run 'sudo apt-get install libfaketime' (or 'make test' as root)"
		exit 1
	fi
	clock=$(mktemp -d "${TMPDIR:-/tmp}/ulid-clock.XXXXXX")
	chmod 755 "$clock"
	trap 'rm -rf "$clock"' EXIT
	echo "+0" >"$clock/faketime"
	chmod 644 "$clock/faketime"
	ULID_SERVER_WRAPPER="env LD_PRELOAD=$lib FAKETIME_TIMESTAMP_FILE=$clock/faketime FAKETIME_NO_CACHE=1" \
		test/lib/cluster.sh "$0" --inner "$clock/faketime"
	exit $?
fi
clock_file=$2
set_clock() { echo "$1" >"$clock_file"; }

createdb clock_steps
export PGDATABASE=clock_steps
psql -X -q -c "CREATE EXTENSION ulid"

# 50 ids from one statement, in a session of its own, in the background
out=$(mktemp)
trap 'rm -f "$out"' EXIT
set_clock "2026-06-01 00:00:00"		# no "@": the clock stands still
PGAPPNAME=clock_wait psql -X -q -At -c "SET ulid.flake_entropy_bytes = 2" -c "
	SELECT count(DISTINCT id), count(*) FILTER (WHERE id <= prev)
	FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
	      FROM (SELECT n, ulid_flake_generate() AS id FROM generate_series(1, 50) n) g) s" \
	>"$out" 2>&1 &
waiter=$!

pid=
for _ in $(seq 1 50); do
	pid=$(psql -X -At -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'clock_wait' AND state = 'active'")
	[ -n "$pid" ] && break
	sleep 0.1
done
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
sleep 0.5
before=$(cpu_ticks)
sleep 2
used=$(($(cpu_ticks) - before))
hz=$(getconf CLK_TCK)
# (a busy wait takes a whole CPU, 100%; the sleeping one 12 to 21% here,
# most of it libfaketime reading its file at every clock read)
check "a wait on a clock that stands still sleeps: CPU used in 2 s ($((used * 100 / (2 * hz)))%) below 40%" \
	"$([ "$used" -lt $((2 * hz * 2 / 5)) ] && echo yes || echo "no ($used of $((2 * hz)) ticks)")" yes
check "... and the statement is still waiting" \
	"$(kill -0 "$waiter" 2>/dev/null && echo waiting || echo "ended: $(cat "$out")")" waiting

set_clock "@2026-05-31 23:00:00"	# an hour back, running again
for _ in $(seq 1 100); do
	kill -0 "$waiter" 2>/dev/null || break
	sleep 0.1
done
check "the clock set back an hour: the wait ends within 10 s" \
	"$(kill -0 "$waiter" 2>/dev/null && echo "still waiting" || echo ended)" ended
kill "$waiter" 2>/dev/null || true
wait "$waiter" 2>/dev/null || true
check "... with 50 distinct ids, each above the one before" "$(cat "$out")" "50|0"
check "ids generated after the step are above those before it" \
	"$(psql -X -q -At -c "SET ulid.flake_entropy_bytes = 2" -c "
		CREATE TEMP TABLE t AS SELECT n, ulid_flake_generate() AS id FROM generate_series(1, 200) n;
		SELECT count(*) FILTER (WHERE id <= prev) FROM (SELECT id, lag(id) OVER (ORDER BY n) prev FROM t) s")" 0

# Six sessions at once (more than the cores, so that they are preempted
# between an overflow and the next try), the clock still an hour behind the
# generator: each overflow moves on from the last id at once.  Whether to
# wait is decided on the real clock, not on one raised to the last id;
# otherwise a session that lost a race to another would wait for the clock
# to catch up, an hour.
psql -X -q -c "CREATE TABLE pair (session int, id ulid_flake)"
for session in 1 2 3 4 5 6; do
	(
		start=$(date +%s%N)
		status=0
		timeout 20 psql -X -q -At -c "SET ulid.flake_entropy_bytes = 2" \
			-c "INSERT INTO pair SELECT $session, ulid_flake_generate() FROM generate_series(1, 10000)" \
			>/dev/null 2>&1 || status=$?
		echo "$status $((($(date +%s%N) - start) / 1000000))" >"$out.$session"
	) &
done
wait
for session in 1 2 3 4 5 6; do
	read -r status ms <"$out.$session"
	check "six sessions, the clock an hour behind: session $session's 10,000 ids in $ms ms (under 5 s)" \
		"$([ "$status" = 0 ] && [ "$ms" -lt 5000 ] && echo yes || echo "no (exit $status after $ms ms)")" yes
	rm -f "$out.$session"
done
check "... 60,000 distinct ids, none from before the step's time" \
	"$(psql -X -q -At -c "SELECT count(DISTINCT id), count(*) FILTER (WHERE ulid_flake_timestamp(id) < '2026-06-01Z') FROM pair")" "60000|0"
