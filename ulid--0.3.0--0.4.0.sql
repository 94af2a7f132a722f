/* ulid--0.3.0--0.4.0.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ulid UPDATE TO '0.4.0'" to load this file. \quit

--
-- Like every script of this trusted extension, this one runs as a superuser
-- and resolves nothing through the search_path: the extension's own objects
-- are named with @extschema@, everything else with pg_catalog.
--

-- The operators move from pg_catalog to the extension's schema, where
-- pg_dump prints them and where pgx_ulid's dumps look for them (see
-- ulid--0.4.0.sql).  Views, indexes and constraints that use them follow,
-- since they refer to the operators by OID.
ALTER OPERATOR pg_catalog.= (@extschema@.ulid, @extschema@.ulid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.<> (@extschema@.ulid, @extschema@.ulid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.< (@extschema@.ulid, @extschema@.ulid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.<= (@extschema@.ulid, @extschema@.ulid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.> (@extschema@.ulid, @extschema@.ulid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.>= (@extschema@.ulid, @extschema@.ulid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.= (@extschema@.ulid_flake, @extschema@.ulid_flake) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.<> (@extschema@.ulid_flake, @extschema@.ulid_flake) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.< (@extschema@.ulid_flake, @extschema@.ulid_flake) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.<= (@extschema@.ulid_flake, @extschema@.ulid_flake) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.> (@extschema@.ulid_flake, @extschema@.ulid_flake) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.>= (@extschema@.ulid_flake, @extschema@.ulid_flake) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.= (@extschema@.ulid, pg_catalog.uuid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.<> (@extschema@.ulid, pg_catalog.uuid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.< (@extschema@.ulid, pg_catalog.uuid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.<= (@extschema@.ulid, pg_catalog.uuid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.> (@extschema@.ulid, pg_catalog.uuid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.>= (@extschema@.ulid, pg_catalog.uuid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.= (pg_catalog.uuid, @extschema@.ulid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.<> (pg_catalog.uuid, @extschema@.ulid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.< (pg_catalog.uuid, @extschema@.ulid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.<= (pg_catalog.uuid, @extschema@.ulid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.> (pg_catalog.uuid, @extschema@.ulid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.>= (pg_catalog.uuid, @extschema@.ulid) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.= (@extschema@.ulid_flake, pg_catalog.int8) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.<> (@extschema@.ulid_flake, pg_catalog.int8) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.< (@extschema@.ulid_flake, pg_catalog.int8) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.<= (@extschema@.ulid_flake, pg_catalog.int8) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.> (@extschema@.ulid_flake, pg_catalog.int8) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.>= (@extschema@.ulid_flake, pg_catalog.int8) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.= (pg_catalog.int8, @extschema@.ulid_flake) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.<> (pg_catalog.int8, @extschema@.ulid_flake) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.< (pg_catalog.int8, @extschema@.ulid_flake) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.<= (pg_catalog.int8, @extschema@.ulid_flake) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.> (pg_catalog.int8, @extschema@.ulid_flake) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.>= (pg_catalog.int8, @extschema@.ulid_flake) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.<@ (@extschema@.ulid, pg_catalog.tstzrange) SET SCHEMA @extschema@;
ALTER OPERATOR pg_catalog.<@ (@extschema@.ulid_flake, pg_catalog.tstzrange) SET SCHEMA @extschema@;

-- Core's own bigint comparisons leave ulid_flake's families: as members of
-- a second btree family, "bigint = bigint" no longer merged with
-- "bigint = integer" into one equivalence class, in every query of the
-- database.  The hash family keeps core's hash functions, which let a
-- cross-type "=" hash-join.  (uuid's stay in ulid's: see ulid--0.4.0.sql.)
ALTER OPERATOR FAMILY @extschema@.ulid_flake_ops USING btree DROP
		OPERATOR 1 (pg_catalog.int8, pg_catalog.int8),
		OPERATOR 2 (pg_catalog.int8, pg_catalog.int8),
		OPERATOR 3 (pg_catalog.int8, pg_catalog.int8),
		OPERATOR 4 (pg_catalog.int8, pg_catalog.int8),
		OPERATOR 5 (pg_catalog.int8, pg_catalog.int8),
		FUNCTION 1 (pg_catalog.int8, pg_catalog.int8),
		FUNCTION 2 (pg_catalog.int8, pg_catalog.int8);
ALTER OPERATOR FAMILY @extschema@.ulid_flake_ops USING hash DROP OPERATOR 1 (pg_catalog.int8, pg_catalog.int8);

-- Without core's bigint operators in the family, a merge join on
-- "ulid_flake = bigint" would need a bigint sort operator our family does
-- not have: the cross-type "=" are no longer MERGES, for both types alike.  ALTER OPERATOR cannot take MERGES back,
-- and a user's views may depend on the operators, so the flag is cleared in
-- the catalog, as core's own contrib update scripts have done.
UPDATE pg_catalog.pg_operator SET oprcanmerge = false
WHERE oid OPERATOR(pg_catalog.=) ANY (ARRAY[
	'@extschema@.=(@extschema@.ulid, pg_catalog.uuid)',
	'@extschema@.=(pg_catalog.uuid, @extschema@.ulid)',
	'@extschema@.=(@extschema@.ulid_flake, pg_catalog.int8)',
	'@extschema@.=(pg_catalog.int8, @extschema@.ulid_flake)']::pg_catalog.regoperator[]);
