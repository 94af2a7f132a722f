/* ulid--0.2.0--0.3.0.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ulid UPDATE TO '0.3.0'" to load this file. \quit

--
-- Like every script of this trusted extension, this one runs as a superuser
-- and resolves nothing through the search_path: the extension's own objects
-- are named with @extschema@, everything else with pg_catalog.
--

-- No LEAKPROOF that core's counterparts (uuid_hash, hashint8, uuid_out,
-- int8out) do not carry.
ALTER FUNCTION @extschema@.ulid_hash(@extschema@.ulid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.ulid_hash_extended(@extschema@.ulid, pg_catalog.int8) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.ulid_to_text(@extschema@.ulid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.ulid_flake_hash(@extschema@.ulid_flake) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.ulid_flake_hash_extended(@extschema@.ulid_flake, pg_catalog.int8) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.ulid_flake_to_text(@extschema@.ulid_flake) NOT LEAKPROOF;

-- The server-wide flake generators keep their state in shared memory, so a
-- parallel worker may run them; the back-filling generators now keep the
-- last id of the session to stay monotonic within a millisecond, so it may
-- not.
ALTER FUNCTION @extschema@.ulid_flake_generate() PARALLEL SAFE;
ALTER FUNCTION @extschema@.ulid_flake_generate_scalable() PARALLEL SAFE;
ALTER FUNCTION @extschema@.ulid_flake_generate_scalable(pg_catalog.int4) PARALLEL SAFE;
ALTER FUNCTION @extschema@.ulid_generate(pg_catalog.timestamptz) PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.ulid_flake_generate(pg_catalog.timestamptz) PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.ulid_generate(pg_catalog.timestamptz) IS 'new ulid for the given time; strictly increasing within this session while the same millisecond is asked for';
COMMENT ON FUNCTION @extschema@.ulid_flake_generate(pg_catalog.timestamptz) IS 'new ulid_flake for the given time; strictly increasing within this session while the same millisecond is asked for';
