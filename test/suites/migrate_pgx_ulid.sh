#!/usr/bin/env bash
# test/suites/migrate_pgx_ulid.sh: a plain pg_dump of a database that used pgx_ulid
# (test/migration/pgx_ulid_dump.sql: tables with public.ulid columns, both
# generators as DEFAULTs, a generated id::timestamp column, views using its
# functions and casts and an uncast ulid = uuid, a hash and an expression
# index, a foreign key, COPY data) restores with ON_ERROR_STOP, as the
# database owner, into a database where only this extension is available;
# then every value, generated column, view and index answers as before.
# The same dump with the extension named pgx_ulid (some installs) restores
# after the README's sed.  Prints TAP.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib/tap.sh
dump=test/migration/pgx_ulid_dump.sql

psql -X -q -v ON_ERROR_STOP=1 -c "CREATE ROLE app LOGIN" -c "CREATE DATABASE pgx_restore OWNER app"
# q SQL [-c SQL...]: the rows, dates in ISO and UTC
q() {
	local first=$1
	shift
	psql -X -q -At -v ON_ERROR_STOP=1 -d "${db:-pgx_restore}" -c "SET DateStyle = ISO" \
		-c "SET TimeZone = UTC" -c "$first" "$@" 2>&1
}

check "the dump restores with ON_ERROR_STOP, as the database owner (not a superuser)" \
	"$(psql -X -q -v ON_ERROR_STOP=1 -U app -d pgx_restore -f "$dump" 2>&1 >/dev/null && echo restored)" restored

# the times are those of test/vectors/ulid_vectors.csv
check "users: ids, names and the generated id::timestamp column" \
	"$(q "SELECT string_agg(id || ' ' || name || ' ' || created_at, ', ' ORDER BY id) FROM users")" \
	"01ARZ3NDEKTSV4RRFFQ69G5FAV alice 2016-07-30 23:54:10.259, 01JQ4T23H220KM7X0B3V1109DQ bob 2025-03-24 19:28:50.21, 01JQ4T8BHJR0A5YKX7SVTVX0YN carol 2025-03-24 19:32:15.026"
check "events: the generated ulid_to_timestamptz(id) column" \
	"$(q "SELECT string_agg(happened_at::text, ', ' ORDER BY id) FROM events")" \
	"2017-10-24 01:29:36.371+00, 2017-10-24 01:29:36.371+00, 2025-03-24 19:28:50.21+00, 2025-03-24 19:32:15.026+00"
check "view event_times: casts and pgx_ulid's functions" \
	"$(q "SELECT string_agg(concat_ws(' ', at_utc, at, as_uuid, as_bytea, name), ', ' ORDER BY id) FROM event_times WHERE name = 'bob'")" \
	"2025-03-24 19:28:50.21 2025-03-24 19:28:50.21+00 0195c9a1-0e22-1027-43f4-0b1ec21025b7 \\x0195c9a10e22102743f40b1ec21025b7 bob, 2025-03-24 19:32:15.026 2025-03-24 19:32:15.026+00 0195c9a4-2e32-c014-5f4f-a7cef5be83d5 \\x0195c9a42e32c0145f4fa7cef5be83d5 bob"
check "view legacy_matches: ulid = uuid without a cast (pgx_ulid's implicit cast)" \
	"$(q "SELECT string_agg(id || '=' || legacy_id, ', ' ORDER BY id) FROM legacy_matches")" \
	"01BX5ZZKBKACTAV9WEVGEMMVRZ=015f4bff-cd73-5334-ada7-8edc1d4a6f1f, 01JQ4T23H220KM7X0B3V1109DQ=0195c9a1-0e22-1027-43f4-0b1ec21025b7"
check "view user_ranges: timestamptz_to_ulid, timestamp_to_ulid, ulid_to_uuid, ulid_from_uuid" \
	"$(q "SELECT string_agg(name, ' ' ORDER BY name) FROM user_ranges")" "bob carol"
check "pgx_ulid's README: users created on a day, by id" \
	"$(q "SELECT string_agg(name, ' ' ORDER BY name) FROM users WHERE id BETWEEN '2025-03-24'::timestamp::ulid AND '2025-03-25'::timestamp::ulid")" \
	"bob carol"
check "the expression index on id::timestamp answers" \
	"$(q "SET enable_seqscan = off" -c "EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id::timestamp >= '2025-01-01'" | grep -o 'events_happened' | head -1)" \
	events_happened
check "the hash index on user_id answers" \
	"$(q "SET enable_seqscan = off" -c "SELECT count(*) FROM events WHERE user_id = '01ARZ3NDEKTSV4RRFFQ69G5FAV'" -c "EXPLAIN (COSTS OFF) SELECT * FROM events WHERE user_id = '01ARZ3NDEKTSV4RRFFQ69G5FAV'" | grep -o '^2$\|events_user_id' | paste -sd' ')" \
	"2 events_user_id"
psql -X -q -d pgx_restore -c "CREATE EXTENSION IF NOT EXISTS amcheck" >/dev/null 2>&1 || true
if [ "$(q "SELECT count(*) FROM pg_extension WHERE extname = 'amcheck'")" = 1 ]; then
	check "btree indexes pass amcheck" \
		"$(q "SELECT count(*) FROM (SELECT bt_index_check(c.oid, true) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'btree' AND i.indrelid IN ('users'::regclass, 'events'::regclass)) s")" 3
fi
check "the foreign key holds" \
	"$(psql -X -q -At -v VERBOSITY=verbose -d pgx_restore -c "INSERT INTO events (user_id) VALUES ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')" 2>&1 | sed -nE 's/^ERROR: +([0-9A-Z]{5}).*/\1/p')" 23503
q "INSERT INTO users (name) VALUES ('dave')" >/dev/null
q "INSERT INTO events (user_id) SELECT id FROM users, generate_series(1, 3) WHERE name = 'dave'" >/dev/null
check "DEFAULTs generate: gen_ulid() for users, gen_monotonic_ulid() for events, created_at follows" \
	"$(q "SELECT (SELECT abs(extract(epoch FROM created_at - (now() AT TIME ZONE 'UTC'))) < 60 FROM users WHERE name = 'dave'),
	             (SELECT count(*) FROM events e JOIN users u ON u.id = e.user_id WHERE u.name = 'dave'),
	             (SELECT min(e.id) FROM events e JOIN users u ON u.id = e.user_id WHERE u.name = 'dave')
	               > (SELECT max(id) FROM events WHERE payload IS NOT NULL)")" \
	"t|3|t"

# some installs named the extension pgx_ulid: the README's recipe
psql -X -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE pgx_named OWNER app"
sed -e 's/^CREATE EXTENSION IF NOT EXISTS ulid /CREATE EXTENSION IF NOT EXISTS pgx_ulid /' \
	-e 's/^COMMENT ON EXTENSION ulid /COMMENT ON EXTENSION pgx_ulid /' "$dump" >"${TMPDIR:-/tmp}/pgx_named.sql"
check "a dump of pgx_ulid installed as pgx_ulid restores after the README's sed" \
	"$(sed -e 's/^CREATE EXTENSION IF NOT EXISTS pgx_ulid /CREATE EXTENSION IF NOT EXISTS ulid /' \
		-e 's/^COMMENT ON EXTENSION pgx_ulid /COMMENT ON EXTENSION ulid /' "${TMPDIR:-/tmp}/pgx_named.sql" |
		psql -X -q -v ON_ERROR_STOP=1 -U app -d pgx_named 2>&1 >/dev/null && echo restored)" restored
rm -f "${TMPDIR:-/tmp}/pgx_named.sql"
check "... with the same values" \
	"$(db=pgx_named q "SELECT string_agg(id || name || created_at, ',' ORDER BY id) FROM users")" \
	"$(q "SELECT string_agg(id || name || created_at, ',' ORDER BY id) FROM users WHERE name <> 'dave'")"
echo "1..$n"
