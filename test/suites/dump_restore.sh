#!/usr/bin/env bash
# test/suites/dump_restore.sh: pg_dump / pg_restore (custom and plain formats) of
# tables keyed by ulid and ulid_flake with btree, hash and BRIN indexes and
# generated DEFAULTs, into new databases: every value and index identical.
# Also installs into a non-public schema as a database owner who is not a
# superuser (the extension is trusted).  Prints TAP.
set -euo pipefail
bindir=$("${PG_CONFIG:-pg_config}" --bindir)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

psql -X -q -v ON_ERROR_STOP=1 -c "CREATE ROLE app_owner LOGIN" -c "CREATE DATABASE dump_src OWNER app_owner"
psql -X -q -v ON_ERROR_STOP=1 -U app_owner -d dump_src <<'SQL'
CREATE SCHEMA ids;
CREATE EXTENSION ulid SCHEMA ids;
SET search_path = public, ids;
CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT ulid_generate(), note text,
                     created timestamptz GENERATED ALWAYS AS (ulid_timestamp(id)) STORED);
CREATE TABLE tickets (id ulid_flake PRIMARY KEY DEFAULT ulid_flake_generate(), order_id ulid);
INSERT INTO orders (note) SELECT 'n' || i FROM generate_series(1, 20000) i;
INSERT INTO orders VALUES ('00000000000000000000000000', 'min'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'max');
INSERT INTO tickets (order_id) SELECT id FROM orders;
INSERT INTO tickets VALUES ('0000000000000', NULL), ('7ZZZZZZZZZZZZ', NULL);
CREATE INDEX orders_hash ON orders USING hash (id);
CREATE INDEX orders_brin ON orders USING brin (id);
CREATE INDEX tickets_brin ON tickets USING brin (id);
CREATE INDEX tickets_order ON tickets (order_id);
SQL

# a fingerprint of every value, and of what each index returns
fingerprint() {
	psql -X -At -d "$1" -v ON_ERROR_STOP=1 <<'SQL'
SET search_path = public, ids;
SET enable_seqscan = off;
SELECT md5(string_agg(id::text || note || created::text, ',' ORDER BY id)) FROM orders;
SELECT md5(string_agg(id::text || coalesce(order_id::text, '-'), ',' ORDER BY id)) FROM tickets;
SELECT count(*) FROM orders WHERE id >= ulid_lower('2000-01-01Z');
SELECT count(*) FROM tickets WHERE id >= ulid_flake_lower('2024-01-02Z');
SELECT string_agg(indexrelid::regclass::text || ':' || pg_get_indexdef(indexrelid), ';'
                  ORDER BY indexrelid::regclass::text)
  FROM pg_index WHERE indrelid IN ('orders'::regclass, 'tickets'::regclass);
SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'orders'::regclass ORDER BY adnum;
SQL
}
before=$(fingerprint dump_src)

. "$(dirname "$0")/../lib/tap.sh"

check "non-superuser owner installed ulid into schema ids" \
	"$(psql -X -At -d dump_src -c "SELECT extname || ' ' || nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = extnamespace WHERE extname = 'ulid'")" \
	"ulid ids"

"$bindir/pg_dump" -Fc -d dump_src -f "$tmp/custom.dump"
psql -X -q -c "CREATE DATABASE dump_custom OWNER app_owner"
"$bindir/pg_restore" -d dump_custom --exit-on-error "$tmp/custom.dump"
check "custom format: values, index answers and definitions identical" "$before" "$(fingerprint dump_custom)"

"$bindir/pg_dump" -Fp -d dump_src -f "$tmp/plain.sql"
psql -X -q -c "CREATE DATABASE dump_plain OWNER app_owner"
psql -X -q -v ON_ERROR_STOP=1 -d dump_plain -f "$tmp/plain.sql" >/dev/null
check "plain format: values, index answers and definitions identical" "$before" "$(fingerprint dump_plain)"

"$bindir/pg_dump" -Fc --data-only -d dump_src -f "$tmp/data.dump"
check "a data-only dump holds the ulid text form" \
	"$("$bindir/pg_restore" -f - "$tmp/data.dump" | grep -c '^7ZZZZZZZZZZZZZZZZZZZZZZZZZ	max')" "1"

check "restored btree indexes pass amcheck" \
	"$(psql -X -q -At -d dump_custom -c "CREATE EXTENSION amcheck" -c "WITH b AS MATERIALIZED (SELECT i.indexrelid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'btree' AND i.indrelid IN ('orders'::regclass, 'tickets'::regclass)) SELECT count(bt_index_check(indexrelid, true) IS NULL) FROM b")" "3"

check "a generated DEFAULT still works after restore" \
	"$(psql -X -q -At -d dump_custom -c "SET search_path = public, ids" -c "INSERT INTO orders (note) VALUES ('after') RETURNING id > (SELECT max(id) FROM orders WHERE note <> 'max' AND note <> 'after') AND id::timestamptz > now() - interval '1 minute'")" "t"

check "restored: operators resolve with the extension's schema on the search_path" \
	"$(psql -X -q -At -d dump_plain -c "SET search_path = public, ids" -c "SELECT count(*) FROM orders o JOIN tickets t ON t.order_id = o.id WHERE o.id >= (SELECT min(order_id) FROM tickets) AND t.id <> '0000000000000'")" "20002"

# A plain dump taken under 0.3.0, whose operators were in pg_catalog (the
# dump names them unqualified): restored as the README says, by creating the
# extension at the dump's version first, then updating.
psql -X -q -c "CREATE DATABASE dump_old OWNER app_owner" -c "CREATE DATABASE dump_old_restored OWNER app_owner"
psql -X -q -v ON_ERROR_STOP=1 -U app_owner -d dump_old >/dev/null <<'SQL'
CREATE SCHEMA ids;
CREATE EXTENSION ulid SCHEMA ids VERSION '0.3.0';
SET search_path = public, ids;
CREATE TABLE accounts (id ulid PRIMARY KEY CHECK (id > '00000000000000000000000000'), fid ulid_flake);
INSERT INTO accounts SELECT ulid_from_parts(1767225600000 + i, '\x00000000000000000001'), i::bigint FROM generate_series(1, 100) i;
CREATE VIEW recent AS SELECT id FROM accounts WHERE id >= '01KDVDNA020000000000000000' AND fid <> 7;
SQL
"$bindir/pg_dump" -Fp -d dump_old -f "$tmp/old.sql"
check "a 0.3.0 dump, with the README's sed: restored at 0.3.0, then ALTER EXTENSION ulid UPDATE" \
	"$(sed "s/^\(CREATE EXTENSION IF NOT EXISTS ulid WITH SCHEMA [^;]*\);$/\1 VERSION '0.3.0';/" "$tmp/old.sql" |
		psql -X -q -At -v ON_ERROR_STOP=1 -U app_owner -d dump_old_restored 2>&1 >/dev/null
	   psql -X -q -At -v ON_ERROR_STOP=1 -U app_owner -d dump_old_restored -c "ALTER EXTENSION ulid UPDATE" \
		-c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'" \
		-c "SELECT count(*) FROM recent" 2>&1 | paste -sd' ')" "$(make -s print-version) 98"
"$bindir/pg_dump" -Fp -d dump_old_restored -f "$tmp/new.sql"
check "... and a dump of it now names the operators in the extension's schema" \
	"$(grep -o 'OPERATOR(ids\.[^)]*)' "$tmp/new.sql" | sort -u | paste -sd' ')" "OPERATOR(ids.<>) OPERATOR(ids.>) OPERATOR(ids.>=)"
check "... which restores as it is" \
	"$(psql -X -q -c "CREATE DATABASE dump_new OWNER app_owner" && psql -X -q -At -v ON_ERROR_STOP=1 -U app_owner -d dump_new -f "$tmp/new.sql" 2>&1 >/dev/null
	   psql -X -q -At -d dump_new -c "SELECT count(*) FROM recent")" 98

# privileges: a role with none gets permission errors (42501), nothing else
psql -X -q -c "CREATE ROLE nobody LOGIN" -c "CREATE DATABASE no_ulid"
sqlstate() {
	psql -X -q -At -U nobody -d "$1" -v VERBOSITY=verbose -c "$2" 2>&1 |
		sed -n 's/^ERROR:  \([0-9A-Z]\{5\}\): .*/\1/p' | head -1
}
check "no USAGE on schema ids: calling ids.ulid_generate() gives" \
	"$(sqlstate dump_src "SELECT ids.ulid_generate()")" "42501"
check "no SELECT on a ulid-keyed table: reading it gives" "$(sqlstate dump_src "SELECT * FROM orders")" "42501"
check "not the database owner: CREATE EXTENSION ulid gives" \
	"$(sqlstate no_ulid "CREATE EXTENSION ulid")" "42501"
check "not the extension owner: DROP EXTENSION ulid gives" "$(sqlstate dump_src "DROP EXTENSION ulid")" "42501"
psql -X -q -U app_owner -d dump_src -c "GRANT USAGE ON SCHEMA ids TO nobody"
check "with USAGE on ids: the functions are executable by anyone" \
	"$(psql -X -q -At -U nobody -d dump_src -c "SELECT pg_typeof(ids.ulid_generate())::text")" "ids.ulid"

echo "1..$n"
for db in dump_src dump_custom dump_plain dump_old dump_old_restored dump_new no_ulid; do dropdb "$db"; done
psql -X -q -c "DROP ROLE nobody" -c "DROP ROLE app_owner"
