#!/usr/bin/env bash
# test/suites/pg_upgrade_check.sh: a database using ulid and ulid_flake through
# pg_upgrade to a newer PostgreSQL major (what `make pg-upgrade-check` runs;
# not part of `make test`, which has one major only).
#
#   OLD_PG_CONFIG  the server to upgrade from (default: pg_config)
#   NEW_PG_CONFIG  the server to upgrade to (required)
#
# The extension must be installed into both (make install PG_CONFIG=...).
# Builds an old cluster with tables keyed by both types, btree, hash and
# BRIN indexes, a view, DEFAULT generators and the extension in its own
# schema; runs pg_upgrade; then checks that every value, every index and
# the extension's catalog entries came through; after the update the
# README gives for after pg_upgrade, the extension has the objects of a
# fresh install on the new major.
# Prints TAP.
set -euo pipefail
. "$(dirname "$0")/../lib/tap.sh"

OLD_PG_CONFIG=${OLD_PG_CONFIG:-pg_config}
: "${NEW_PG_CONFIG:?set NEW_PG_CONFIG to the pg_config of the newer server}"
for pgc in "$OLD_PG_CONFIG" "$NEW_PG_CONFIG"; do
	if [ ! -f "$("$pgc" --sharedir)/extension/ulid.control" ]; then
		echo "1..0 # SKIP ulid is not installed for $pgc (make install PG_CONFIG=$pgc)"
		exit 0
	fi
done
old_bin=$("$OLD_PG_CONFIG" --bindir)
new_bin=$("$NEW_PG_CONFIG" --bindir)

. "$(dirname "$0")/../lib/throwaway.sh"
throwaway_dir ulid-upgrade
cleanup() {
	for d in old new; do
		"${as_owner[@]}" "$old_bin/pg_ctl" -D "$tmp/$d" -m immediate -w stop >/dev/null 2>&1 || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

new_cluster() {
	local bin=$1 dir=$2
	init_cluster "$bin" "$dir" --data-checksums >/dev/null
	cat >>"$dir/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$tmp'
port = 5432
fsync = off
EOF
}
start() { "${as_owner[@]}" "$1/pg_ctl" -D "$2" -l "$2.log" -w start >/dev/null; }
stop() { "${as_owner[@]}" "$1/pg_ctl" -D "$2" -w stop >/dev/null; }
q() { psql -X -q -At -h "$tmp" -p 5432 -U postgres -d app -v ON_ERROR_STOP=1 "$@"; }

# What must come through: every value, the answers of the indexes and the
# view, and the extension's objects (name and schema of each; array types
# are left out, since they are members of the extension from PostgreSQL 17
# on and pg_upgrade to 17 adds them, as a fresh install there has them).
fingerprint() {
	q <<'SQL'
SET search_path = public, ids;
SET enable_seqscan = off;
SELECT 'rows ' || count(*) || ' ' || md5(string_agg(id::text || ' ' || fid::text || ' ' || n, ',' ORDER BY n)) FROM orders;
SELECT 'btree ' || count(*) FROM orders WHERE id BETWEEN ids.ulid_lower('2026-01-01Z') AND ids.ulid_upper('2026-01-02Z');
SELECT 'hash ' || n FROM orders WHERE fid = ids.ulid_flake_from_parts(1767225600000 + 4242 * 60000, 4242);
SELECT 'brin ' || count(*) FROM orders WHERE fid >= ids.ulid_flake_lower('2026-01-03Z');
SELECT 'view ' || row(s.*)::text FROM summary s;
SELECT 'extension ' || extversion || ' in ' || extnamespace::regnamespace FROM pg_extension WHERE extname = 'ulid';
SELECT 'objects ' || count(*) || ' ' || md5(string_agg(pg_describe_object(classid, objid, 0), ', ' ORDER BY pg_describe_object(classid, objid, 0) COLLATE "C"))
FROM pg_depend WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
  AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
  AND pg_describe_object(classid, objid, 0) !~ '\[\]$';
SQL
}

new_cluster "$old_bin" "$tmp/old"
start "$old_bin" "$tmp/old"
psql -X -q -h "$tmp" -p 5432 -U postgres -d postgres -c "CREATE DATABASE app"
q <<'SQL'
CREATE SCHEMA ids;
CREATE EXTENSION ulid SCHEMA ids;
SET search_path = public, ids;
CREATE TABLE orders (
	id ids.ulid PRIMARY KEY DEFAULT ids.ulid_generate(),
	fid ids.ulid_flake NOT NULL DEFAULT ids.ulid_flake_generate(),
	n int);
INSERT INTO orders
SELECT ids.ulid_from_parts(1767225600000 + i * 60000, substring(decode(md5(i::text), 'hex') FOR 10)),
       ids.ulid_flake_from_parts(1767225600000 + i * 60000, i), i
FROM generate_series(1, 10000) i;
CREATE INDEX orders_fid_hash ON orders USING hash (fid);
CREATE INDEX orders_fid_brin ON orders USING brin (fid);
CREATE VIEW summary AS
SELECT min(id) AS first, max(fid) AS last, count(*) FILTER (WHERE id < ids.ulid_lower('2026-01-05Z')) AS early
FROM orders;
SQL
# and a database still at 0.4.0, whose comparisons were LANGUAGE internal
# aliases of core's functions (below: updated after pg_upgrade)
psql -X -q -h "$tmp" -p 5432 -U postgres -d postgres -c "CREATE DATABASE app_040"
q -d app_040 -c "CREATE SCHEMA ids" -c "CREATE EXTENSION ulid VERSION '0.4.0' SCHEMA ids"
before=$(fingerprint)
mark=$(q -c "SELECT ids.ulid_flake_generate() IS NOT NULL" -c "SELECT last_value FROM ids.ulid_high_water_mark" | tail -1)
versions="PostgreSQL $(q -c 'SHOW server_version')"
stop "$old_bin" "$tmp/old"

new_cluster "$new_bin" "$tmp/new"
if ! (cd "$tmp" && "${as_owner[@]}" "$new_bin/pg_upgrade" -b "$old_bin" -B "$new_bin" \
	-d "$tmp/old" -D "$tmp/new" >"$tmp/pg_upgrade.log" 2>&1); then
	echo "not ok 1 - pg_upgrade"
	{ tail -n 5 "$tmp/pg_upgrade.log"
	  grep -h -B3 -A8 -i error "$tmp"/new/pg_upgrade_output.d/*/log/pg_upgrade_dump_*.log 2>/dev/null; } | sed 's/^/# /'
	exit 1
fi
start "$new_bin" "$tmp/new"
versions="$versions to $(q -c 'SHOW server_version')"
echo "# $versions"

check "pg_upgrade ran" ok ok
check "the server-wide generators' high-water mark came through" \
	"$(q -c "SELECT last_value FROM ids.ulid_high_water_mark")" "$mark"
after=$(fingerprint)
while IFS= read -r line; do
	key=${line%% *}
	[ "$key" = objects ] && continue	# below: as a fresh install on the new major
	check "$key after pg_upgrade" "$(grep "^$key " <<<"$after")" "$line"
done <<<"$before"

# The extension's objects, as on a fresh install on the new major: those
# the new major brings (BRIN minmax-multi and bloom from 14, skip support
# from 18) come with the update the README gives for after pg_upgrade.
members() {
	q -d "$1" -c "SELECT pg_describe_object(classid, objid, 0) FROM pg_depend
		WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
		  AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
		  AND pg_describe_object(classid, objid, 0) !~ '\[\]$' ORDER BY 1" | LC_ALL=C sort
}
q -c "CREATE DATABASE fresh" >/dev/null
q -d fresh -c "CREATE SCHEMA ids" -c "CREATE EXTENSION ulid SCHEMA ids" >/dev/null
fresh=$(members fresh)
missing=$(LC_ALL=C comm -13 <(members app) <(echo "$fresh") | paste -sd, -)
echo "# missing after pg_upgrade, before the update: ${missing:-none}"
version=$(q -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")
check "ALTER EXTENSION ulid UPDATE TO '$version-pg_upgrade', then UPDATE" \
	"$(q -c "ALTER EXTENSION ulid UPDATE TO '$version-pg_upgrade'" -c "ALTER EXTENSION ulid UPDATE" \
		-c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'" 2>&1)" "$version"
check "... the objects of a fresh install on the new major: $(echo "$fresh" | wc -l)" \
	"$(diff <(members app) <(echo "$fresh") | grep '^[<>]' | paste -sd, -)" ""
check "... and its operator classes pass amvalidate" \
	"$(q -c "SET client_min_messages = warning" -c "SELECT string_agg(c.opcname || '/' || a.amname, ',' ORDER BY 1) FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
		WHERE c.opcnamespace = 'ids'::regnamespace AND a.amname = 'brin' AND NOT amvalidate(c.oid)" 2>/dev/null)" ""
if [ -n "$(q -c "SELECT 1 FROM pg_opclass WHERE opcname = 'ulid_minmax_multi_ops'")" ]; then
	check "... a minmax-multi index builds and answers" \
		"$(q -c "CREATE INDEX orders_id_multi ON orders USING brin (id ids.ulid_minmax_multi_ops)" \
			-c "SET enable_seqscan = off" -c "SET search_path = public, ids" \
			-c "SELECT count(*) FROM orders WHERE id >= ulid_lower('2026-01-05Z')")" \
		"$(q -c "SET search_path = public, ids" -c "SELECT count(*) FROM orders WHERE id::timestamptz >= '2026-01-05Z'")"
fi
check "operators resolve with the extension's schema on the search_path, min/max without" \
	"$(q -c "SET search_path = public, ids" -c "SELECT count(*) FROM orders a JOIN orders b ON a.id = b.id WHERE a.fid < b.fid OR a.id <> b.id OR a.id > (SELECT max(id) FROM orders)")" "0"
if q -c "CREATE EXTENSION IF NOT EXISTS amcheck" >/dev/null 2>&1; then
	check "the primary key index is intact (amcheck)" \
		"$(q -c "SELECT count(*) FROM (SELECT bt_index_check('orders_pkey', true)) s")" "1"
fi
check "DEFAULT generators after pg_upgrade" \
	"$(q -c "SET search_path = public, ids" -c "INSERT INTO orders (n) VALUES (0) RETURNING id > (SELECT max(id) FROM orders WHERE n > 0) AND fid > (SELECT max(fid) FROM orders WHERE n > 0)")" "t"

# The database at 0.4.0: one ALTER EXTENSION ulid UPDATE gives it the
# objects of a fresh install on the new major (what pg_upgrade from a major
# without them left out included) and the same function definitions.
definitions() {
	q -d "$1" -c "SELECT p.oid::regprocedure || ' ' || md5(pg_get_functiondef(p.oid)) FROM pg_proc p
		JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
		WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid') AND p.prokind = 'f'" | LC_ALL=C sort
}
check "a database at 0.4.0: ALTER EXTENSION ulid UPDATE after pg_upgrade" \
	"$(q -d app_040 -c "ALTER EXTENSION ulid UPDATE" -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'" 2>&1)" "$version"
check "... the objects of a fresh install on the new major" \
	"$(diff <(members app_040) <(echo "$fresh") | grep '^[<>]' | paste -sd, -)" ""
check "... and its functions' definitions: $(definitions fresh | wc -l)" \
	"$(diff <(definitions app_040) <(definitions fresh) | grep '^[<>]' | paste -sd, -)" ""
echo "1..$n"
