/* ulid--0.4.0--0.5.0.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ulid UPDATE TO '0.5.0'" to load this file. \quit

--
-- Like every script of this trusted extension, this one runs as a superuser
-- and resolves nothing through the search_path but the extension's own
-- objects: everything else is named with pg_catalog.  Here they are named
-- with @extschema@ too; the build appends statements of ulid--0.5.0.sql,
-- where they are not, which CREATE EXTENSION and ALTER EXTENSION run with
-- the search_path @extschema@, then pg_temp (pg_catalog first, implicitly).
--

-- The server-wide generators' high-water mark (see ulid--0.5.0.sql).  It
-- starts empty: the first id after the update writes it.
CREATE SEQUENCE @extschema@.ulid_high_water_mark AS pg_catalog.int8 MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE @extschema@.ulid_high_water_mark IS 'server-wide ulid generators: a Unix millisecond at or above every id they gave out in this database';
SELECT pg_catalog.pg_extension_config_dump('@extschema@.ulid_high_water_mark', '');
GRANT SELECT, UPDATE ON SEQUENCE @extschema@.ulid_high_water_mark TO @extowner@;

-- They write it, as nextval() writes a sequence: not in parallel mode.
ALTER FUNCTION @extschema@.gen_monotonic_ulid() PARALLEL UNSAFE;
ALTER FUNCTION @extschema@.ulid_flake_generate() PARALLEL UNSAFE;
ALTER FUNCTION @extschema@.ulid_flake_generate_scalable() PARALLEL UNSAFE;
ALTER FUNCTION @extschema@.ulid_flake_generate_scalable(pg_catalog.int4) PARALLEL UNSAFE;
