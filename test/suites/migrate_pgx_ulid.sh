#!/usr/bin/env bash
# test/suites/migrate_pgx_ulid.sh: a real pg_dump of a database that used
# pgx_ulid restores here, with every object and index working (issue 20).
#
# The source: a server of its own, a relocated copy of the server of
# PG_CONFIG (test/lib/relocated.sh) in which the test-only stand-in of
# pgx_ulid (test/migration/pgx_standin/: pgx_ulid's SQL surface, its
# operators in the extension's schema, its casts IMPLICIT, on this
# extension's C functions) is installed instead of this extension; the real
# installation is only read.  On it, the application schema
# test/migration/pgx_app.sql is built twice, as pgx_ulid's users have it:
#
#   public      CREATE EXTENSION ulid (pgx_ulid's release packages name it
#               so), in schema public;
#   extensions  CREATE EXTENSION pgx_ulid (its name when built with pgrx,
#               and in Pigsty's and Neon's packages) in a schema
#               "extensions" on the database's search_path (Supabase's way).
#
# Each is dumped with the pg_dump of PG_CONFIG (it prints every operator
# outside pg_catalog as OPERATOR(schema.op)), in plain and custom format, and
# restored into a new database of the test cluster (PGHOST..., with this
# extension installed; test/lib/cluster.sh) by its owner, who is not a
# superuser: psql -v ON_ERROR_STOP=1, pg_restore --exit-on-error.  The only
# changes are the README's: the extension's name (sed on the plain dump; on
# the custom one, the extension and its schema created first, and left out
# of pg_restore's list).  The roles (pg_dumpall --globals-only) and the
# database's search_path (pg_dump --create) are created as on the source.
#
# Then, for each restored database: the same objects as the source; the
# same answers as the source to the same queries (every table's rows, views,
# the materialized view, functions); the same behaviour (CHECKs on tables
# and domains, foreign keys, the exclusion constraint, RLS policies,
# triggers, partition routing, DEFAULT generators); and the plans: views
# and functions use the btree and hash indexes, joins on ulids hash- and
# merge-join, a partial index serves a query written after the restore;
# amcheck on every btree index.  A restore that fails fails every check
# after it, names the statement that failed and lists, as comments, every
# statement of the dump that fails here.  Prints TAP.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
. test/lib/tap.sh
# check, counting the failures: the exit status says whether any failed
eval "tap_$(declare -f check)"
failed=0
check() {
	tap_check "$@"
	[ "$2" = "$3" ] || failed=$((failed + 1))
}
. test/lib/throwaway.sh
. test/lib/relocated.sh
PG_CONFIG=${PG_CONFIG:-pg_config}
bindir=$("$PG_CONFIG" --bindir)
major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
# Before 14, SQL functions have no BEGIN ATOMIC: their bodies are kept as
# text and parsed when they run, with the session's search_path (empty in a
# restore: a materialized view over one does not refresh, even into
# pgx_ulid) and without pgx_ulid's implicit casts.  The application is
# written for 14 and later.
if [ "$major" -lt 14 ]; then
	echo "1..0 # SKIP PostgreSQL $major has no BEGIN ATOMIC functions, which the application uses"
	exit 0
fi
standin=$root/test/migration/pgx_standin
if [ ! -f "$("$PG_CONFIG" --pkglibdir)/ulid.so" ]; then
	echo "not ok 1 - ulid is not installed for $PG_CONFIG (make install PG_CONFIG=$PG_CONFIG)"
	echo "1..1"
	exit 1
fi

# --- the source server ---------------------------------------------------
throwaway_dir ulid-pgx-source
cleanup() {
	if [ -n "${ULID_KEEP_SOURCE:-}" ]; then
		echo "# kept: the source server in $tmp (socket there, port 5432), its dumps in $tmp/out"
		return
	fi
	"${as_owner[@]}" "$rbin/pg_ctl" -D "$tmp/data" -m immediate -w stop >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
relocated_server "$PG_CONFIG" "$tmp/pg"
# the stand-in instead of this extension, under both of pgx_ulid's names
# (the links to the installation's files of those names removed first: a
# copy onto a link would write into the installation)
rm -f "$rshare"/extension/ulid.control "$rshare"/extension/ulid--*.sql \
	"$rshare"/extension/pgx_ulid.control "$rshare"/extension/pgx_ulid--*.sql
for name in ulid pgx_ulid; do
	cp "$standin/pgx_ulid.control" "$rshare/extension/$name.control"
	cp "$standin/pgx_ulid--0.2.2.sql" "$rshare/extension/$name--0.2.2.sql"
	chmod a+r "$rshare/extension/$name.control" "$rshare/extension/$name--0.2.2.sql"
done
mkdir "$tmp/out" && chmod 777 "$tmp/out"
init_cluster "$rbin" "$tmp/data" >"$tmp/out/initdb.log" 2>&1 || { cat "$tmp/out/initdb.log"; exit 1; }
# pgx_ulid's gen_monotonic_ulid() needs its library preloaded, so does this
# library's on PostgreSQL 13 to 16
cat >>"$tmp/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$tmp'
port = 5432
fsync = off
lc_messages = 'C'
shared_preload_libraries = 'ulid'
EOF
"${as_owner[@]}" "$rbin/pg_ctl" -D "$tmp/data" -l "$tmp/out/source.log" -w start >/dev/null ||
	{ cat "$tmp/out/source.log"; exit 1; }
# the servers: source (src) and destination (dst, the test cluster)
src=(-h "$tmp" -p 5432)
dst=(-h "$PGHOST" -p "$PGPORT")
out=$tmp/out
# who restores: the database owner, not a superuser
restorer=pgx_app
# ULID_PGX_SELFTEST=1 checks the suite itself: the dumps are restored into
# the source server, where the stand-in is, by a superuser (the stand-in is
# not trusted), and every check must pass
if [ -n "${ULID_PGX_SELFTEST:-}" ]; then
	dst=("${src[@]}")
	restorer=postgres
fi

# roles: what pg_dumpall --globals-only carries, on both servers
make_roles() {
	psql -X -q "$@" -U postgres -d postgres -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
SELECT 'CREATE ROLE pgx_app LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'pgx_app') \gexec
SELECT 'CREATE ROLE pgx_web' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'pgx_web') \gexec
SQL
}
make_roles "${src[@]}"
make_roles "${dst[@]}"

# q SERVER DB [PSQL-ARGS...]: run the arguments' -c and -f as postgres on
# the server named (src or dst), UTC and ISO dates, an error as "ERROR
# <sqlstate>"
q() {
	local -n server=$1
	local db=$2
	shift 2
	psql -X -q -At "${server[@]}" -U postgres -d "$db" -v VERBOSITY=sqlstate \
		-c "SET TimeZone = UTC" -c "SET DateStyle = ISO" -c "SET extra_float_digits = 0" "$@" 2>&1 |
		sed -E 's/^(psql:[^ ]*: )?ERROR: +([0-9A-Z]{5})/ERROR \2/'
}

# --- the application, on the stand-in --------------------------------------
build_source() {
	local placement=$1 db=pgx_src_$1
	psql -X -q "${src[@]}" -U postgres -d postgres -v ON_ERROR_STOP=1 -c "CREATE DATABASE $db OWNER pgx_app" >/dev/null
	if [ "$placement" = public ]; then
		psql -X -q "${src[@]}" -U postgres -d "$db" -v ON_ERROR_STOP=1 -c "CREATE EXTENSION ulid" >/dev/null
	else
		psql -X -q "${src[@]}" -U pgx_app -d "$db" -v ON_ERROR_STOP=1 \
			-c "CREATE SCHEMA extensions" -c "GRANT USAGE ON SCHEMA extensions TO PUBLIC" \
			-c "ALTER DATABASE $db SET search_path = \"\$user\", public, extensions" >/dev/null
		psql -X -q "${src[@]}" -U postgres -d "$db" -v ON_ERROR_STOP=1 \
			-c "CREATE EXTENSION pgx_ulid SCHEMA extensions" >/dev/null
	fi
	sed -e "s/@ext@/$placement/g" -e '/@pgx_ulid_cannot_restore/d' test/migration/pgx_app.sql |
		psql -X -q "${src[@]}" -U pgx_app -d "$db" -v ON_ERROR_STOP=1 -b >"$out/$db.log" 2>&1 &&
		psql -X -q "${src[@]}" -U postgres -d "$db" -c "ANALYZE" >/dev/null 2>&1
}

# --- restoring -----------------------------------------------------------
# new_db NAME PLACEMENT: a database owned by pgx_app, search_path as on the source
new_db() {
	psql -X -q "${dst[@]}" -U postgres -d postgres -v ON_ERROR_STOP=1 -c "CREATE DATABASE $1 OWNER pgx_app" >/dev/null
	if [ "$2" = extensions ]; then
		psql -X -q "${dst[@]}" -U postgres -d postgres -v ON_ERROR_STOP=1 \
			-c "ALTER DATABASE $1 SET search_path = \"\$user\", public, extensions" >/dev/null
	fi
}

# the README's sed, for a dump of pgx_ulid installed as pgx_ulid
rename_plain() {
	sed -e 's/^CREATE EXTENSION IF NOT EXISTS pgx_ulid /CREATE EXTENSION IF NOT EXISTS ulid /' \
		-e 's/^COMMENT ON EXTENSION pgx_ulid /COMMENT ON EXTENSION ulid /' "$@"
}

# restore_plain PLACEMENT DB: prints "restored", or the first error and the
# statement that failed
restore_plain() {
	local file=$out/$1.sql
	[ "$1" = extensions ] && { rename_plain "$file" >"$out/$1.renamed.sql"; file=$out/$1.renamed.sql; }
	if psql -X -q "${dst[@]}" -U "$restorer" -d "$2" -v ON_ERROR_STOP=1 -b -f "$file" >"$out/$2.log" 2>&1; then
		echo restored
	else
		first_error "$out/$2.log"
	fi
}
# restore_custom PLACEMENT DB
restore_custom() {
	local list=() file=$out/$1.dump
	if [ "$1" = extensions ]; then
		# the extension under its name here, in its schema, made first;
		# the dump's entries for them left out of the list
		psql -X -q "${dst[@]}" -U "$restorer" -d "$2" -v ON_ERROR_STOP=1 \
			-c "CREATE SCHEMA extensions" -c "CREATE EXTENSION ulid SCHEMA extensions" >"$out/$2.log" 2>&1 ||
			{ first_error "$out/$2.log"; return; }
		"$bindir/pg_restore" -l "$file" |
			grep -vE ' (EXTENSION - pgx_ulid|COMMENT - EXTENSION pgx_ulid|SCHEMA - extensions) ' >"$out/$2.list"
		list=(-L "$out/$2.list")
	fi
	if "$bindir/pg_restore" "${dst[@]}" -U "$restorer" -d "$2" --exit-on-error "${list[@]}" "$file" >>"$out/$2.log" 2>&1; then
		echo restored
	else
		first_error "$out/$2.log"
	fi
}
# errors_of LOG: the errors of a psql -b or pg_restore log, one a line:
# "message | the statement that failed" (blanks squeezed)
errors_of() {
	awk 'function flush() { if (msg != "") print msg " | " stmt; msg = ""; stmt = ""; mode = "" }
		/ERROR: / { flush(); msg = $0; sub(/^.*ERROR: +/, "", msg); mode = "msg"; next }
		/^(psql:[^ ]*: )?STATEMENT: / { stmt = $0; sub(/^.*STATEMENT: +/, "", stmt); mode = "stmt"; next }
		/^Command was: / { stmt = $0; sub(/^Command was: +/, "", stmt); mode = "stmt"; next }
		/^(psql:|pg_restore: )/ || /^$/ { if (mode == "stmt") flush(); next }
		mode == "stmt" { stmt = stmt " " $0 }
		END { flush() }' "$1" | tr -s ' \t' ' '
}
first_error() {
	errors_of "$1" | head -1 | cut -c1-500
	[ -s "$1" ] || echo "(no output)"
}
# every statement of a plain dump that fails here, not stopping at the
# first, as TAP comments; errors that only follow from an earlier one (an
# object of the dump that could not be made does not exist) left out
every_failure() {
	local db=pgx_all_failures file=$out/$1.sql made
	[ "$1" = extensions ] && file=$out/$1.renamed.sql
	psql -X -q "${dst[@]}" -U postgres -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1
	new_db "$db" "$1"
	psql -X -q "${dst[@]}" -U "$restorer" -d "$db" -b -f "$file" >"$out/$db.log" 2>&1
	made=$(sed -nE -e 's/^CREATE (TABLE|VIEW|MATERIALIZED VIEW|FUNCTION|AGGREGATE|DOMAIN|TYPE) public\.([a-z_0-9]+).*/\2/p' \
		-e 's/^CREATE (UNIQUE )?INDEX ([a-z_0-9]+) ON .*/\2/p' "$file" | sort -u | paste -sd'|')
	local consequence="^(relation|type|function|aggregate) \"?public\.($made)\b[^|]*does not exist"
	errors_of "$out/$db.log" | grep -vE "$consequence" | cut -c1-400 | sed 's/^/#   /'
	echo "#   ($(errors_of "$out/$db.log" | wc -l) errors in all, $(errors_of "$out/$db.log" | grep -cE "$consequence") of them on objects an earlier error left unmade)"
	psql -X -q "${dst[@]}" -U postgres -d postgres -c "DROP DATABASE $db" >/dev/null 2>&1
}

# --- what must answer as on the source -------------------------------------
# NAME|SQL, one a line: compared between source and destination
queries=$(cat <<'EOF'
orgs|SELECT string_agg(concat_ws(' ', id, name, legacy_uuid), ',' ORDER BY id) FROM orgs
users|SELECT md5(string_agg(concat_ws(' ', id, org_id, email, invited_by, legacy_id, created_at), ',' ORDER BY id)) || ' ' || count(*) FROM users
docs|SELECT md5(string_agg(concat_ws(' ', id, org_id, author_id, related, span, title), ',' ORDER BY id)) || ' ' || count(*) FROM docs
events|SELECT md5(string_agg(concat_ws(' ', id, user_id, doc_id, kind, happened_at, tableoid::regclass), ',' ORDER BY id)) || ' ' || count(*) FROM events
imports|SELECT md5(string_agg(concat_ws(' ', id, source_id, label), ',' ORDER BY id)) || ' ' || count(*) FROM imports
partitions|SELECT string_agg(tableoid::regclass || ' ' || n, ', ' ORDER BY tableoid::regclass::text) FROM (SELECT tableoid, count(*) n FROM events GROUP BY 1) s
legacy_accounts|SELECT md5(string_agg(legacy_id || ' ' || user_id, ',' ORDER BY legacy_id)) || ' ' || count(*) FROM legacy_accounts
bookings|SELECT md5(string_agg(concat_ws(' ', id, room, slot), ',' ORDER BY slot)) || ' ' || count(*) FROM bookings
audit|SELECT string_agg(concat_ws(' ', doc_id, old_title, new_title), ',' ORDER BY doc_id) FROM audit
view recent_events|SELECT md5(string_agg(concat_ws(' ', id, kind, email, at), ',' ORDER BY id)) || ' ' || count(*) FROM recent_events
view org_docs|SELECT md5(string_agg(concat_ws(' ', name, id, title, created, hex, author_key), ',' ORDER BY id)) || ' ' || count(*) FROM org_docs
view user_legacy|SELECT md5(string_agg(concat_ws(' ', id, email, legacy_id, as_uuid, back, cast_uuid, as_bytea, cast_bytea, at, cast_at, lowest_of_ms, cast_lowest), ',' ORDER BY id)) || ' ' || count(*) FROM user_legacy
view doc_links|SELECT md5(string_agg(doc_id || ' ' || related_id || ' ' || title, ',' ORDER BY doc_id, related_id)) || ' ' || count(*) FROM doc_links
view first_event_per_user|SELECT md5(string_agg(concat_ws(' ', user_id, id, kind, previous), ',' ORDER BY user_id)) || ' ' || count(*) FROM first_event_per_user
view daily_users|SELECT string_agg(day || ' ' || n, ',' ORDER BY day) FROM daily_users
view doc_nullif|SELECT md5(string_agg(concat_ws(' ', id, author_id, org), ',' ORDER BY id)) || ' ' || count(*) FROM doc_nullif -- @pgx_ulid_cannot_restore
view spans|SELECT string_agg(concat_ws(' ', id, first_id, last_id, span), ',' ORDER BY id) FROM spans
matview user_activity|SELECT md5(string_agg(concat_ws(' ', user_id, n, latest, latest_week, last_event, first_at), ',' ORDER BY user_id)) || ' ' || count(*) FROM user_activity
aggregate max(ulid), the users' own|SELECT max(id) || ' ' || max(id) FILTER (WHERE kind = 'view') FROM events WHERE id < '01KDVDNA000000000000000000'
matview refreshed concurrently|REFRESH MATERIALIZED VIEW CONCURRENTLY user_activity; SELECT count(*) || ' ' || sum(n) FROM user_activity
function user_events|SELECT string_agg(id || ' ' || kind, ',' ORDER BY id) FROM user_events((SELECT id FROM users WHERE email = 'user7@example.com'))
function events_between|SELECT count(*) || ' ' || min(id::text) || ' ' || max(id::text) FROM events_between('2025-03-01', '2025-04-01')
function doc_count|SELECT string_agg(name || ' ' || doc_count(id), ',' ORDER BY id) FROM orgs
function next_page|SELECT string_agg(title, ',') FROM next_page('01JZ1MH2000000000000000000', 5)
function hex_id|SELECT hex_id('01ARZ3NDEKTSV4RRFFQ69G5FAV')
function legacy_key|SELECT legacy_key(id::uuid) FROM orgs WHERE name = 'org1'
pgx_ulid's README: by day, by id|SELECT count(*) FROM users WHERE id BETWEEN '2024-03-01'::timestamp::ulid AND '2024-04-01'::timestamp::ulid
ulid[] containment|SELECT count(*) FROM docs WHERE related @> ARRAY[(SELECT id::ulid FROM docs WHERE title = 'doc 100')]
EOF
)
queries=$(grep -v '@pgx_ulid_cannot_restore' <<<"$queries")
# NAME|SQL run in a transaction that is rolled back: the behaviour
probes=$(cat <<'EOF'
CHECK inviter first|UPDATE users u SET invited_by = (SELECT max(v.id::text)::ulid FROM users v WHERE v.org_id = u.org_id) WHERE email = 'user1@example.com'
CHECK of a domain|INSERT INTO docs (id, org_id, author_id, title) SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV', org_id, id, 'old' FROM users LIMIT 1
CHECK on a composite|UPDATE docs SET span = ROW(id, '00000000000000000000000000')::ulid_span WHERE title = 'doc 8'
CHECK with = ANY (ulid[])|UPDATE docs SET related = related || id WHERE title = 'doc 9'
foreign key|INSERT INTO events (user_id, kind) VALUES ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'x')
foreign key uuid -> ulid|INSERT INTO legacy_accounts VALUES (gen_random_uuid(), '00000000-0000-0000-0000-000000000001')
foreign key uuid -> ulid, a match|INSERT INTO legacy_accounts SELECT gen_random_uuid(), id::uuid FROM users WHERE email = 'user2@example.com' RETURNING 'inserted'
unique (org_id, email)|INSERT INTO users (org_id, email) SELECT org_id, email FROM users WHERE email = 'user3@example.com'
exclusion constraint|INSERT INTO bookings (room, slot) SELECT 9, slot FROM bookings LIMIT 1
partition routing|INSERT INTO events (id, user_id, kind) SELECT '01JQ4T23H220KM7X0B3V1109DQ', id, 'x' FROM users LIMIT 1 RETURNING tableoid::regclass
no partition before 2024|INSERT INTO events (id, user_id, kind) SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV', id, 'x' FROM users LIMIT 1
row level security: read|SET ROLE pgx_web; SELECT set_config('app.org_id', (SELECT id::text FROM orgs WHERE name = 'org2'), true) IS NOT NULL; SELECT count(*), count(*) FILTER (WHERE org_id <> current_setting('app.org_id')::ulid) FROM docs
row level security: write|SET ROLE pgx_web; SELECT set_config('app.org_id', (SELECT id::text FROM orgs WHERE name = 'org2'), true) IS NOT NULL; INSERT INTO docs (org_id, author_id, title) SELECT org_id, id, 'x' FROM users WHERE org_id <> current_setting('app.org_id')::ulid LIMIT 1
row level security: allowed write|SET ROLE pgx_web; SELECT set_config('app.org_id', (SELECT id::text FROM orgs WHERE name = 'org2'), true) IS NOT NULL; INSERT INTO docs (org_id, author_id, title) SELECT org_id, id, 'x' FROM users WHERE org_id = current_setting('app.org_id')::ulid LIMIT 1 RETURNING title
trigger: inviter in another org|UPDATE users SET invited_by = (SELECT id FROM users WHERE email = 'user1@example.com') WHERE email = 'user59@example.com'
trigger: audit|UPDATE docs SET title = 'renamed' WHERE title = 'doc 200'; SELECT count(*) FROM audit WHERE new_title = 'renamed'
DEFAULT gen_monotonic_ulid()|INSERT INTO users (org_id, email) SELECT id, 'new@example.com' FROM orgs WHERE name = 'org1' RETURNING id > (SELECT max(id::text)::ulid FROM users WHERE email <> 'new@example.com'), abs(extract(epoch FROM created_at - (now() AT TIME ZONE 'UTC'))) < 60
DEFAULT gen_ulid()|INSERT INTO orgs (name) VALUES ('new') RETURNING id::timestamptz > now() - interval '1 minute'
DEFAULT gen_random_uuid() for a ulid|INSERT INTO imports (source_id) VALUES ('00000000-0000-0000-0000-00000000000a') RETURNING id IS NOT NULL
a uuid inserted into a ulid column by a function|SELECT import_row('0195c9a1-0e22-1027-43f4-0b1ec21025b7', 'probe')
EOF
)
probe_expected=$(cat <<'EOF'
ERROR 23514
ERROR 23514
ERROR 23514
ERROR 23514
ERROR 23503
ERROR 23503
inserted
ERROR 23505
ERROR 23P01
events_2025
ERROR 23514
t|100|0
t|ERROR 42501
t|x
ERROR P0001
1
t|t
t
t
01JQ4T23H220KM7X0B3V1109DQ
EOF
)
run_queries() {
	local server=$1 db=$2 name sql
	while IFS='|' read -r name sql; do
		echo "$(q "$server" "$db" -c "$sql" | paste -sd'|')"
	done <<<"$queries"
}
run_probes() {
	local server=$1 db=$2 name sql stmts x
	while IFS='|' read -r name sql; do
		stmts=()
		IFS=';' read -ra x <<<"$sql"
		for s in "${x[@]}"; do stmts+=(-c "$s"); done
		echo "$(q "$server" "$db" -c "BEGIN" "${stmts[@]}" -c "ROLLBACK" 2>&1 | sed -E 's/^(ERROR [0-9A-Z]{5}).*/\1/' | grep -vx 'SET' | paste -sd'|')"
	done <<<"$probes"
}
# object inventory: the database's own objects (not the extension's)
inventory() {
	q "$1" "$2" -f - <<'SQL'
SELECT 'relation ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'public' AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')
UNION ALL SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || contype::text FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
 WHERE n.nspname = 'public' AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')
UNION ALL SELECT 'index ' || indexrelid::regclass || ' ' || (pg_get_indexdef(indexrelid) ~ ' WHERE ')::text FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
UNION ALL SELECT 'policy ' || tablename || ' ' || policyname || ' ' || cmd || ' ' || array_to_string(roles, ',') FROM pg_policies
UNION ALL SELECT 'trigger ' || tgrelid::regclass || ' ' || tgname FROM pg_trigger WHERE NOT tgisinternal
UNION ALL SELECT 'function ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = 'public' AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
UNION ALL SELECT 'type ' || t.oid::regtype || ' ' || t.typtype::text FROM pg_type t
 WHERE t.typnamespace = 'public'::regnamespace AND (t.typtype = 'd' OR (t.typtype = 'c' AND (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c'))
UNION ALL SELECT 'rls ' || relname FROM pg_class WHERE relrowsecurity
ORDER BY 1
SQL
}

# uses DESCRIPTION DB SETTINGS SQL NODE: the plan of SQL, after the
# settings (statements separated by ";"), has NODE (an extended regular
# expression); else the check shows the plan
uses() {
	local settings=() s x plan
	IFS=';' read -ra s <<<"$3"
	for x in "${s[@]}"; do settings+=(-c "$x"); done
	plan=$(q dst "$2" "${settings[@]}" -c "EXPLAIN (COSTS OFF) $4")
	if grep -qE -- "$5" <<<"$plan"; then
		x=$(grep -oE -- "$5" <<<"$plan" | head -1 | sed 's/ $//')
		check "$1" "$x" "$x"
	else
		check "$1" "$(sed -E 's/^ +//' <<<"$plan" | paste -sd' ' | cut -c1-400)" "$5"
	fi
}
# an index scan, plain or bitmap, of the index named by the regex $1
scan_of() { echo "(Index Scan|Index Only Scan|Bitmap Index Scan) (Backward )?(using|on) $1( |$)"; }
btree_indexes="FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
	JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'btree' AND n.nspname = 'public' AND c.relkind = 'i'"

# from_source FUNCTION DB: FUNCTION's answer on the source, computed once
# (the source does not change: the probes roll back)
from_source() {
	[ -f "$out/$2.$1" ] || "$1" src "$2" >"$out/$2.$1"
	cat "$out/$2.$1"
}

# checks of one restored database against the source database
check_restored() {
	local label=$1 db=$2 srcdb=$3
	local mine theirs missing extra
	mine=$(inventory dst "$db" | LC_ALL=C sort)
	theirs=$(from_source inventory "$srcdb" | LC_ALL=C sort)
	missing=$(LC_ALL=C comm -13 <(echo "$mine") <(echo "$theirs"))
	extra=$(LC_ALL=C comm -23 <(echo "$mine") <(echo "$theirs"))
	check "$label: the same objects as the source ($(grep -c . <<<"$theirs"))" \
		"$( [ -z "$missing$extra" ] && echo same || echo "missing $(grep -c . <<<"$missing") ($(head -5 <<<"$missing" | paste -sd',')...), extra $(grep -c . <<<"$extra") ($(head -5 <<<"$extra" | paste -sd','))")" \
		same
	local got expected
	got=$(run_queries dst "$db")
	expected=$(from_source run_queries "$srcdb")
	local i=0 name
	while IFS='|' read -r name _; do
		i=$((i + 1))
		check "$label: $name" "$(sed -n "${i}p" <<<"$got")" "$(sed -n "${i}p" <<<"$expected")"
	done <<<"$queries"
	got=$(run_probes dst "$db")
	expected=$(from_source run_probes "$srcdb")
	i=0
	while IFS='|' read -r name _; do
		i=$((i + 1))
		check "$label: behaviour: $name" "$(sed -n "${i}p" <<<"$got")" "$(sed -n "${i}p" <<<"$expected")"
	done <<<"$probes"
	# the plans
	local off="SET enable_seqscan = off"
	uses "$label: plan: a range on id in a restored view uses the btree index" "$db" "$off" \
		"SELECT * FROM recent_events WHERE id < '01JQ4T23H220KM7X0B3V1109DQ'" "$(scan_of events_2025_pkey)"
	uses "$label: plan: equality on id in a restored view uses the primary key" "$db" "$off" \
		"SELECT * FROM org_docs WHERE id = '01JQ4T23H220KM7X0B3V1109DQ'" "$(scan_of docs_pkey)"
	uses "$label: plan: a restored SQL function (inlined) uses the hash index on user_id" "$db" "$off" \
		"SELECT * FROM user_events('01JQ4T23H220KM7X0B3V1109DQ')" "$(scan_of 'events_[0-9a-z]+_user_id_idx')"
	uses "$label: plan: a restored SQL function's range on id uses the btree index" "$db" "$off" \
		"SELECT * FROM events_between('2025-03-01', '2025-04-01')" "$(scan_of events_2025_pkey)"
	uses "$label: plan: a restored view's join on ulids can hash-join" "$db" "SET enable_nestloop = off; SET enable_mergejoin = off" \
		"SELECT * FROM org_docs" 'Hash Join'
	uses "$label: plan: a restored view's join on ulids can merge-join" "$db" "SET enable_nestloop = off; SET enable_hashjoin = off" \
		"SELECT * FROM recent_events" 'Merge Join'
	uses "$label: plan: a restored partial index serves a query written after the restore" "$db" "$off" \
		"SELECT * FROM docs WHERE author_id = '01JQ4T23H220KM7X0B3V1109DQ' AND id > '01K00000000000000000000000'" "$(scan_of docs_recent_author)"
	uses "$label: plan: the restored expression index on (id::timestamp)::date answers" "$db" "$off" \
		"SELECT * FROM users WHERE (id::timestamp)::date = '2024-03-01'" "$(scan_of users_created_day)"
	uses "$label: plan: a restored GIN index on ulid[] answers @>" "$db" "$off" \
		"SELECT * FROM docs WHERE related @> '{01JQ4T23H220KM7X0B3V1109DQ}'" "$(scan_of docs_related)"
	check "$label: every btree index passes amcheck (bt_index_check with heapallindexed)" \
		"$(q dst "$db" -c "CREATE EXTENSION IF NOT EXISTS amcheck" -c "SELECT count(bt_index_check(c.oid, true)) $btree_indexes")" \
		"$(q src "$srcdb" -c "SELECT count(*) $btree_indexes")"
}

start=$(date +%s)
for placement in ${ULID_PGX_PLACEMENTS:-public extensions}; do
	check "$placement: the application schema builds on the pgx_ulid stand-in" \
		"$(build_source "$placement" && echo built || sed -n '/ERROR/{p;q}' "$out/pgx_src_$placement.log")" built
	check "$placement: the source answers the behaviour probes as expected" \
		"$(run_probes src "pgx_src_$placement")" "$probe_expected"
	check "$placement: pg_dump, plain and custom format" \
		"$("$bindir/pg_dump" "${src[@]}" -U postgres -d "pgx_src_$placement" -Fp -f "$out/$placement.sql" 2>&1 &&
			"$bindir/pg_dump" "${src[@]}" -U postgres -d "pgx_src_$placement" -Fc -f "$out/$placement.dump" 2>&1 && echo dumped)" dumped
	check "$placement: the dump names the extension's operators OPERATOR($placement.op)" \
		"$([ "$(grep -c "OPERATOR($placement\.[=<>]*)" "$out/$placement.sql")" -gt 20 ] && echo "more than 20 lines")" "more than 20 lines"
	for format in ${ULID_PGX_FORMATS:-plain custom}; do
		db=pgx_${placement}_$format
		new_db "$db" "$placement"
		result=$("restore_$format" "$placement" "$db")
		check "$placement, $format: restores as the database owner, stopping at the first error" "$result" restored
		if [ "$result" != restored ] && [ "$format" = plain ]; then
			echo "# every statement of the $placement dump that fails here (error | statement):"
			every_failure "$placement"
		fi
		check_restored "$placement, $format" "$db" "pgx_src_$placement"
	done
done
echo "# $(($(date +%s) - start)) s"
echo "1..$n"
[ "$failed" = 0 ]
