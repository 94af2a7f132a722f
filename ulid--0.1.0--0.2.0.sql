/* ulid--0.1.0--0.2.0.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ulid UPDATE TO '0.2.0'" to load this file. \quit

--
-- The operators and min/max aggregates move to pg_catalog so that they
-- resolve whatever the search_path.  SET SCHEMA keeps their OIDs, so the
-- operator classes, indexes, views and constraints that use them are
-- untouched.
--

ALTER OPERATOR @extschema@.= (ulid, ulid) SET SCHEMA pg_catalog;
ALTER OPERATOR @extschema@.<> (ulid, ulid) SET SCHEMA pg_catalog;
ALTER OPERATOR @extschema@.< (ulid, ulid) SET SCHEMA pg_catalog;
ALTER OPERATOR @extschema@.<= (ulid, ulid) SET SCHEMA pg_catalog;
ALTER OPERATOR @extschema@.> (ulid, ulid) SET SCHEMA pg_catalog;
ALTER OPERATOR @extschema@.>= (ulid, ulid) SET SCHEMA pg_catalog;
ALTER AGGREGATE @extschema@.min(ulid) SET SCHEMA pg_catalog;
ALTER AGGREGATE @extschema@.max(ulid) SET SCHEMA pg_catalog;

ALTER OPERATOR @extschema@.= (ulid_flake, ulid_flake) SET SCHEMA pg_catalog;
ALTER OPERATOR @extschema@.<> (ulid_flake, ulid_flake) SET SCHEMA pg_catalog;
ALTER OPERATOR @extschema@.< (ulid_flake, ulid_flake) SET SCHEMA pg_catalog;
ALTER OPERATOR @extschema@.<= (ulid_flake, ulid_flake) SET SCHEMA pg_catalog;
ALTER OPERATOR @extschema@.> (ulid_flake, ulid_flake) SET SCHEMA pg_catalog;
ALTER OPERATOR @extschema@.>= (ulid_flake, ulid_flake) SET SCHEMA pg_catalog;
ALTER AGGREGATE @extschema@.min(ulid_flake) SET SCHEMA pg_catalog;
ALTER AGGREGATE @extschema@.max(ulid_flake) SET SCHEMA pg_catalog;

-- The Ulid-Flake generator state has been server-wide since 0.1.0.
COMMENT ON FUNCTION ulid_flake_generate() IS 'new ulid_flake (stand-alone layout), strictly increasing across the server';
COMMENT ON FUNCTION ulid_flake_generate_scalable() IS 'new ulid_flake (scalable layout) for node ulid.flake_node_id, strictly increasing across the server';
