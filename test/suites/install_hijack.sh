#!/usr/bin/env bash
# test/suites/install_hijack.sh: the install and update scripts cannot be hijacked.
#
# The extension is trusted, so CREATE EXTENSION and ALTER EXTENSION UPDATE
# run its scripts as a superuser on behalf of a database owner.  Before every
# install and update, a database owner who is not a superuser, and a role
# that may only create objects in the target schema, plant look-alikes where
# a script could resolve them: functions named like every function and type
# the scripts name (and like format/current_setting/set_config, which the
# released 0.1.0 and 0.2.0 called unqualified), with signatures that would
# beat core's on an unqualified call, in the target schema and in public;
# then operators on the extension's types and on the types they are compared
# with.  Each look-alike counts its calls in a sequence (which a rollback
# does not undo) and, if it runs as a superuser, makes its planter one.
#
# Asserted: no look-alike ran, no role gained a privilege, and what was
# installed equals a fresh install in an untouched database.  Prints TAP.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib/tap.sh

sql() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

# every name the scripts qualify with pg_catalog, and the old unqualified calls
names=$( (grep -ohE 'pg_catalog\.[a-z_0-9]+' ulid--*.sql | sed 's/^pg_catalog\.//'
	printf '%s\n' format current_setting set_config) | sort -u | paste -sd, -)

sql <<'SQL'
CREATE ROLE hj_owner LOGIN;
CREATE ROLE hj_planter LOGIN;
CREATE DATABASE hj_clean;
SQL

# plant SCHEMA: look-alike functions of every name in SCHEMA (run as the
# planter, in the planter's own session).
plant_functions() {
	local db=$1 role=$2 schema=$3
	sql -d "$db" -U "$role" -v schema="$schema" -v names="$names" <<'SQL'
SET hj.schema = :'schema';
SET hj.names = :'names';
DO $plant$
DECLARE
	s text := pg_catalog.current_setting('hj.schema');
	n text;
	args text;
BEGIN
	-- an exact-type match beats core's variadic or polymorphic signatures
	FOREACH n IN ARRAY pg_catalog.string_to_array(pg_catalog.current_setting('hj.names'), ',') LOOP
		FOREACH args IN ARRAY ARRAY['', 'text', 'text, text', 'text, text, text',
		                            'text, text, text, text', 'text, integer',
		                            'anyelement', 'anyelement, anyelement',
		                            'oid', 'integer', 'bigint'] LOOP
			EXECUTE pg_catalog.format($f$
				CREATE FUNCTION %I.%I(%s) RETURNS text LANGUAGE plpgsql AS $body$
				BEGIN
					PERFORM public.hijack_trap(%L, %L);
					-- answer as core's would, so that the hijacked script completes
					RETURN pg_catalog.%I(%s)::text;
				EXCEPTION WHEN OTHERS THEN
					RETURN NULL;
				END $body$ $f$, s, n, args, s || '.' || n || '(' || args || ')', session_user, n,
				(SELECT pg_catalog.string_agg('$' || i, ', ')
				   FROM pg_catalog.generate_series(1, pg_catalog.array_length(
				          pg_catalog.string_to_array(args, ','), 1)) i));
		END LOOP;
	END LOOP;
END
$plant$;
SQL
}

# plant_operators DB ROLE SCHEMA: operators on the extension's types (and on
# what they are compared with) in SCHEMA, once the types exist.  Not, in the
# extension's own schema, those on its types: 0.4.0 moves its operators
# there from pg_catalog, and one of those names taken makes the update
# fail, with nothing run (checked on its own below).
plant_operators() {
	local db=$1 role=$2 schema=$3 ext=$4
	sql -d "$db" -U "$role" -v schema="$schema" -v ext="$ext" <<'SQL' || echo "# no operators planted in $schema"
SET hj.schema = :'schema';
SET hj.ext = :'ext';
DO $plant$
DECLARE
	s text := pg_catalog.current_setting('hj.schema');
	e text := pg_catalog.current_setting('hj.ext');
	pair text[];
	op text;
	fn text;
BEGIN
	FOREACH pair SLICE 1 IN ARRAY ARRAY[
		[e || '.ulid', e || '.ulid'], [e || '.ulid', 'uuid'], ['uuid', e || '.ulid'],
		[e || '.ulid', 'text'], [e || '.ulid_flake', e || '.ulid_flake'],
		[e || '.ulid_flake', 'bigint'], ['bigint', e || '.ulid_flake'],
		['integer', 'integer'], ['text', 'text']] LOOP
		CONTINUE WHEN s = e AND pair::text ~ 'ulid';
		fn := pg_catalog.format('%I.hj_op_%s', s, pg_catalog.md5(pair::text));
		EXECUTE pg_catalog.format($f$
			CREATE FUNCTION %s(%s, %s) RETURNS boolean LANGUAGE plpgsql AS $body$
			BEGIN
				PERFORM public.hijack_trap(%L, %L);
				RETURN true;
			END $body$ $f$, fn, pair[1], pair[2], 'operator on ' || pair::text, session_user);
		FOREACH op IN ARRAY ARRAY['=', '<>', '<', '<=', '>', '>='] LOOP
			BEGIN
				EXECUTE pg_catalog.format('CREATE OPERATOR %I.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = %s)',
				               s, op, pair[1], pair[2], fn);
			EXCEPTION WHEN duplicate_function THEN
				NULL;	-- the extension's own, in its own schema
			END;
		END LOOP;
	END LOOP;
END
$plant$;
SQL
}

# members DB SCHEMA: every member of the extension with its definition,
# schema names replaced, so that installs in different schemas compare.
members() {
	sql -d "$1" -v schema="$2" <<'SQL'
SET search_path = pg_catalog;
SELECT regexp_replace(pg_describe_object(classid, objid, 0) || ' ' || coalesce(
         (SELECT pg_get_functiondef(p.oid) FROM pg_proc p
           WHERE classid = 'pg_proc'::regclass AND p.oid = objid AND p.prokind = 'f'),
         (SELECT format('%s %s %s %s %s', oprcode::regprocedure, oprrest, oprjoin,
                        oprcom::regoperator, oprnegate::regoperator)
            FROM pg_operator WHERE classid = 'pg_operator'::regclass AND oid = objid),
         (SELECT string_agg(amopopr::regoperator::text, ' ' ORDER BY amopstrategy)
            FROM pg_opclass c JOIN pg_amop a ON a.amopfamily = c.opcfamily
           WHERE classid = 'pg_opclass'::regclass AND c.oid = objid),
         (SELECT format('%s %s', castfunc::regprocedure, castcontext)
            FROM pg_cast WHERE classid = 'pg_cast'::regclass AND oid = objid),
         (SELECT format('%s %s %s', typinput, typlen, typbyval)
            FROM pg_type WHERE classid = 'pg_type'::regclass AND oid = objid), ''),
       '\m' || :'schema' || '\.', '@.', 'g')
FROM pg_depend
WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
  AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
ORDER BY 1;
SQL
}

# step DB ROLE STATEMENT: an install or update, which must succeed
step() {
	local out
	out=$(sql -d "$1" -U "$2" -c "$3" 2>&1 | grep -v WARNING) || true
	check "$2 in $1: $3" "${out:-done}" done
}

step hj_clean postgres "CREATE EXTENSION ulid"
clean=$(members hj_clean public)

# new_database DB OWNER: a database with the call counter the look-alikes use
new_database() {
	sql -c "CREATE DATABASE $1 OWNER $2"
	sql -d "$1" <<'SQL'
CREATE SEQUENCE public.hijack_calls;
GRANT USAGE ON SEQUENCE public.hijack_calls TO PUBLIC;
-- what every look-alike does: count the call (a rollback keeps the count),
-- say so, and, run as a superuser, make its planter one
CREATE FUNCTION public.hijack_trap(what text, planter text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_catalog.nextval('public.hijack_calls');
	RAISE WARNING 'look-alike % ran as %', what, current_user;
	IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
		EXECUTE pg_catalog.format('ALTER ROLE %I SUPERUSER', planter);
	END IF;
END
$$;
SQL
}

# verdict DB SCHEMA WHAT: nothing ran, nobody gained, the install is clean
verdict() {
	local db=$1 schema=$2 what=$3
	check "$what: look-alike calls" \
		"$(sql -d "$db" -c "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM public.hijack_calls" |
			sed 's/^0$/none/')" none
	check "$what: superusers besides postgres" \
		"$(sql -c "SELECT coalesce(string_agg(rolname, ','), 'none') FROM pg_roles WHERE rolsuper AND rolname <> 'postgres'")" none
	check "$what: installed objects equal a fresh install's" "$(members "$db" "$schema")" "$clean"
}

# 1. A database owner who is not a superuser, in a schema of its own and in
#    public: install 0.1.0, update step by step; install the default.
new_database hj_owner_db hj_owner
sql -d hj_owner_db -U hj_owner -c "CREATE SCHEMA ids"
plant_functions hj_owner_db hj_owner ids
plant_functions hj_owner_db hj_owner public
step hj_owner_db hj_owner "CREATE EXTENSION ulid SCHEMA ids VERSION '0.1.0'"
plant_operators hj_owner_db hj_owner ids ids
plant_operators hj_owner_db hj_owner public ids
step hj_owner_db hj_owner "ALTER EXTENSION ulid UPDATE TO '0.2.0'"
step hj_owner_db hj_owner "ALTER EXTENSION ulid UPDATE"
verdict hj_owner_db ids "database owner, 0.1.0 -> 0.2.0 -> default in schema ids"

# The repair after pg_upgrade from an older major, with the look-alikes in
# place: the objects this major brought (BRIN minmax-multi and bloom from
# 14, skip support from 18) taken out, as a database pg_upgrade brought from
# 13 lacks them, then the update to the -pg_upgrade twin and back puts them
# back (on 13 there is nothing to put back).
version=$(sql -d hj_owner_db -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")
sql -d hj_owner_db >/dev/null <<'SQL'
SET client_min_messages = warning;
-- as pg_upgrade leaves it: not members, not there
DELETE FROM pg_depend
 WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
   AND pg_describe_object(classid, objid, 0) ~ '(minmax_multi|bloom|skipsupport)';
DROP OPERATOR FAMILY IF EXISTS ids.ulid_minmax_multi_ops USING brin;
DROP OPERATOR FAMILY IF EXISTS ids.ulid_bloom_ops USING brin;
DROP OPERATOR FAMILY IF EXISTS ids.ulid_flake_minmax_multi_ops USING brin;
DROP OPERATOR FAMILY IF EXISTS ids.ulid_flake_bloom_ops USING brin;
DROP FUNCTION IF EXISTS ids.ulid_minmax_multi_distance(internal, internal),
	ids.ulid_flake_minmax_multi_distance(internal, internal),
	ids.ulid_skipsupport(internal), ids.ulid_flake_skipsupport(internal) CASCADE;
SQL
step hj_owner_db hj_owner "ALTER EXTENSION ulid UPDATE TO '$version-pg_upgrade'"
step hj_owner_db hj_owner "ALTER EXTENSION ulid UPDATE"
verdict hj_owner_db ids "database owner, the objects of a newer major put back after pg_upgrade"

sql -d hj_owner_db -U hj_owner -c "DROP EXTENSION IF EXISTS ulid CASCADE" 2>/dev/null
step hj_owner_db hj_owner "CREATE EXTENSION ulid"
verdict hj_owner_db public "database owner, default version in public"

# 2. A role that may only create objects in the target schema (and in
#    public); the superuser, then the database owner, installs and updates.
new_database hj_schema_db hj_owner
sql -d hj_schema_db <<'SQL'
CREATE SCHEMA shared;
GRANT CREATE, USAGE ON SCHEMA shared, public TO hj_planter;
SQL
plant_functions hj_schema_db hj_planter shared
plant_functions hj_schema_db hj_planter public
step hj_schema_db postgres "CREATE EXTENSION ulid SCHEMA shared VERSION '0.2.0'"
plant_operators hj_schema_db hj_planter shared shared
plant_operators hj_schema_db hj_planter public shared
step hj_schema_db postgres "ALTER EXTENSION ulid UPDATE"
verdict hj_schema_db shared "CREATE on the schema, superuser installs 0.2.0 and updates"

sql -d hj_schema_db -c "DROP EXTENSION IF EXISTS ulid CASCADE" 2>/dev/null
step hj_schema_db hj_owner "CREATE EXTENSION ulid SCHEMA shared VERSION '0.1.0'"
step hj_schema_db hj_owner "ALTER EXTENSION ulid UPDATE"
verdict hj_schema_db shared "CREATE on the schema, database owner installs 0.1.0 and updates"

# 3. A look-alike in the extension's schema with the name of an operator the
#    update moves there: the update fails, and nothing runs.
new_database hj_taken_db hj_owner
sql -d hj_taken_db -U hj_owner -c "CREATE SCHEMA ids"
step hj_taken_db hj_owner "CREATE EXTENSION ulid SCHEMA ids VERSION '0.2.0'"
sql -d hj_taken_db -U hj_owner >/dev/null <<'SQL'
CREATE FUNCTION ids.taken(ids.ulid, uuid) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	PERFORM public.hijack_trap('ids.=(ulid, uuid)', 'hj_owner');
	RETURN true;
END $$;
CREATE OPERATOR ids.= (LEFTARG = ids.ulid, RIGHTARG = uuid, FUNCTION = ids.taken);
SQL
check "an operator name the update needs, taken: the update fails" \
	"$(sql -d hj_taken_db -U hj_owner -c "ALTER EXTENSION ulid UPDATE" 2>&1 | grep -o '^ERROR: .*' | head -1)" \
	'ERROR:  duplicate key value violates unique constraint "pg_operator_oprname_l_r_n_index"'
check "... with no look-alike run, and the version kept" \
	"$(sql -d hj_taken_db -c "SELECT (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM public.hijack_calls), extversion FROM pg_extension WHERE extname = 'ulid'")" \
	"0|0.2.0"

# the look-alikes are real: called directly, each one counts and reports
sql -d hj_schema_db -U hj_planter -c "SELECT shared.format('%s', 'a', 'b')" >/dev/null 2>&1
check "a planted look-alike, called directly, is counted" \
	"$(sql -d hj_schema_db -c "SELECT last_value FROM public.hijack_calls")" 1
