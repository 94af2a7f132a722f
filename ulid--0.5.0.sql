/* ulid--0.5.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION ulid" to load this file. \quit

--
-- ulid: 16 bytes, stored, compared, hashed and sent exactly like uuid.
-- Functions whose semantics are identical to uuid's call core's, from C
-- functions of the module (ULID_CALLS_CORE in src/): LANGUAGE internal
-- aliases of core's functions would cost every query a lookup of each by
-- name (see src/support.h).
--
-- The operators live in the extension's schema, as citext's, hstore's and
-- pgx_ulid's do: pg_dump prints them there, as OPERATOR(public.=), and a
-- dump of a pgx_ulid database, full of those, restores only where the same
-- names mean the same operators.  "id = $1" therefore needs that schema on
-- the search_path, like any extension's operators.  The min/max aggregates
-- live in pg_catalog, beside core's, so that "min(id)" resolves whatever
-- the search_path.  The extension is not relocatable: its scripts name the
-- schema (@extschema@).
--
-- The extension is trusted, so this script runs as a superuser on behalf of
-- any database owner.  Nothing in it may resolve through the search_path,
-- where another role could have planted a look-alike: every type, function
-- and operator that is not the extension's own is written pg_catalog.name,
-- and there is no DO block.  What depends on the server's major is chosen
-- when the extension is built: the lines between "-- @if pg14" and
-- "-- @endif" are installed on PostgreSQL 14 and later only (Makefile).
--

CREATE TYPE ulid;

CREATE FUNCTION ulid_in(pg_catalog.cstring) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_out(ulid) RETURNS pg_catalog.cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_recv(pg_catalog.internal) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_send(ulid) RETURNS pg_catalog.bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE ulid (
	INPUT = ulid_in,
	OUTPUT = ulid_out,
	RECEIVE = ulid_recv,
	SEND = ulid_send,
	LIKE = pg_catalog.uuid
);
COMMENT ON TYPE ulid IS 'Universally Unique Lexicographically Sortable Identifier (128 bits)';

-- comparison

CREATE FUNCTION ulid_eq(ulid, ulid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ne(ulid, ulid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_lt(ulid, ulid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_le(ulid, ulid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_gt(ulid, ulid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ge(ulid, ulid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_cmp(ulid, ulid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_sortsupport(pg_catalog.internal) RETURNS pg_catalog.void
	AS 'MODULE_PATHNAME', 'ulid_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_hash(ulid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_hash_extended(ulid, pg_catalog.int8) RETURNS pg_catalog.int8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR @extschema@.= (
	LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_eq,
	COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR @extschema@.<> (
	LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ne,
	COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR @extschema@.< (
	LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_lt,
	COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR @extschema@.<= (
	LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_le,
	COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR @extschema@.> (
	LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_gt,
	COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR @extschema@.>= (
	LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ge,
	COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

CREATE OPERATOR CLASS ulid_ops
	DEFAULT FOR TYPE ulid USING btree AS
		OPERATOR 1 @extschema@.<,
		OPERATOR 2 @extschema@.<=,
		OPERATOR 3 @extschema@.=,
		OPERATOR 4 @extschema@.>=,
		OPERATOR 5 @extschema@.>,
		FUNCTION 1 ulid_cmp(ulid, ulid),
		FUNCTION 2 ulid_sortsupport(pg_catalog.internal),
		FUNCTION 4 pg_catalog.btequalimage(pg_catalog.oid);

CREATE OPERATOR CLASS ulid_ops
	DEFAULT FOR TYPE ulid USING hash AS
		OPERATOR 1 @extschema@.=,
		FUNCTION 1 ulid_hash(ulid),
		FUNCTION 2 ulid_hash_extended(ulid, pg_catalog.int8);

CREATE FUNCTION ulid_smaller(ulid, ulid) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_larger(ulid, ulid) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE AGGREGATE pg_catalog.min(ulid) (
	SFUNC = ulid_smaller, STYPE = ulid, COMBINEFUNC = ulid_smaller,
	SORTOP = OPERATOR(@extschema@.<), PARALLEL = SAFE
);
CREATE AGGREGATE pg_catalog.max(ulid) (
	SFUNC = ulid_larger, STYPE = ulid, COMBINEFUNC = ulid_larger,
	SORTOP = OPERATOR(@extschema@.>), PARALLEL = SAFE
);

-- casts (none implicit)

CREATE CAST (ulid AS pg_catalog.uuid) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (pg_catalog.uuid AS ulid) WITHOUT FUNCTION AS ASSIGNMENT;

CREATE FUNCTION ulid_to_bytea(ulid) RETURNS pg_catalog.bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_from_bytea(pg_catalog.bytea) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (ulid AS pg_catalog.bytea) WITH FUNCTION ulid_to_bytea(ulid);

-- text: the same contexts as the I/O casts they replace, without the cstring
CREATE FUNCTION ulid_to_text(ulid) RETURNS pg_catalog.text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_from_text(pg_catalog.text) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (ulid AS pg_catalog.text) WITH FUNCTION ulid_to_text(ulid) AS ASSIGNMENT;
CREATE CAST (pg_catalog.text AS ulid) WITH FUNCTION ulid_from_text(pg_catalog.text);
CREATE CAST (pg_catalog.bytea AS ulid) WITH FUNCTION ulid_from_bytea(pg_catalog.bytea);

-- validation

CREATE FUNCTION ulid_is_valid(pg_catalog.text) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_is_valid(pg_catalog.text) IS 'true when the text is a valid ulid (26 Crockford base32 characters, first at most 7)';

-- time: accessors, casts, range bounds (IMMUTABLE: they do not depend on TimeZone)

CREATE FUNCTION ulid_timestamp(ulid) RETURNS pg_catalog.timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_unix_ms(ulid) RETURNS pg_catalog.int8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_randomness(ulid) RETURNS pg_catalog.bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_lower(pg_catalog.timestamptz) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_upper(pg_catalog.timestamptz) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_from_parts(unix_ms pg_catalog.int8, randomness pg_catalog.bytea) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_lower(pg_catalog.timestamptz) IS 'lowest ulid of the millisecond of the given time';
COMMENT ON FUNCTION ulid_upper(pg_catalog.timestamptz) IS 'highest ulid of the millisecond of the given time';

CREATE CAST (ulid AS pg_catalog.timestamptz) WITH FUNCTION ulid_timestamp(ulid);
CREATE CAST (pg_catalog.timestamptz AS ulid) WITH FUNCTION ulid_lower(pg_catalog.timestamptz);

-- generators

CREATE FUNCTION ulid_generate() RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
CREATE FUNCTION ulid_generate_random() RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION ulid_generate(pg_catalog.timestamptz) RETURNS ulid
	AS 'MODULE_PATHNAME', 'ulid_generate_at' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION gen_ulid() RETURNS ulid
	AS 'MODULE_PATHNAME', 'ulid_generate_random' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION gen_monotonic_ulid() RETURNS ulid
	AS 'MODULE_PATHNAME', 'ulid_generate_shared' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION ulid_generate() IS 'new ulid, strictly increasing within this session';
COMMENT ON FUNCTION ulid_generate_random() IS 'new ulid with 80 fresh random bits';
COMMENT ON FUNCTION gen_monotonic_ulid() IS 'new ulid, strictly increasing across the server (as pgx_ulid''s)';
COMMENT ON FUNCTION ulid_generate(pg_catalog.timestamptz) IS 'new ulid for the given time; strictly increasing within this session while the same millisecond is asked for';

--
-- The server-wide generators (gen_monotonic_ulid, ulid_flake_generate and
-- ulid_flake_generate_scalable) keep their state in shared memory, and in
-- this sequence a high-water mark: a Unix millisecond at or above every id
-- they gave out in this database, logged ahead and flushed before use, so
-- that after a restart, a crash or a failover they continue above it,
-- whatever the clock says.  They write it as its owner; like nextval(),
-- they are PARALLEL UNSAFE and refused in read-only transactions.  pg_dump
-- keeps its value (a configuration sequence), and the role that creates the
-- extension may set it, so that its restores can.
--
CREATE SEQUENCE ulid_high_water_mark AS pg_catalog.int8 MINVALUE 0 START 0 NO CYCLE;
COMMENT ON SEQUENCE ulid_high_water_mark IS 'server-wide ulid generators: a Unix millisecond at or above every id they gave out in this database';
SELECT pg_catalog.pg_extension_config_dump('@extschema@.ulid_high_water_mark', '');
GRANT SELECT, UPDATE ON SEQUENCE ulid_high_water_mark TO @extowner@;

--
-- ulid_flake: a non-negative int8 with a base32 text form.  Functions whose
-- semantics are identical to int8's call core's, as ulid's call uuid's.
--

CREATE TYPE ulid_flake;

CREATE FUNCTION ulid_flake_in(pg_catalog.cstring) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_out(ulid_flake) RETURNS pg_catalog.cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_recv(pg_catalog.internal) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_send(ulid_flake) RETURNS pg_catalog.bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE ulid_flake (
	INPUT = ulid_flake_in,
	OUTPUT = ulid_flake_out,
	RECEIVE = ulid_flake_recv,
	SEND = ulid_flake_send,
	LIKE = pg_catalog.int8
);
COMMENT ON TYPE ulid_flake IS 'Ulid-Flake: 64-bit time-ordered identifier (43-bit ms since 2024, 20 random bits)';

CREATE FUNCTION ulid_flake_eq(ulid_flake, ulid_flake) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_ne(ulid_flake, ulid_flake) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_lt(ulid_flake, ulid_flake) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_le(ulid_flake, ulid_flake) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_gt(ulid_flake, ulid_flake) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_ge(ulid_flake, ulid_flake) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_cmp(ulid_flake, ulid_flake) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_sortsupport(pg_catalog.internal) RETURNS pg_catalog.void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_hash(ulid_flake) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_hash_extended(ulid_flake, pg_catalog.int8) RETURNS pg_catalog.int8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_smaller(ulid_flake, ulid_flake) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_larger(ulid_flake, ulid_flake) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR @extschema@.= (
	LEFTARG = ulid_flake, RIGHTARG = ulid_flake, FUNCTION = ulid_flake_eq,
	COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR @extschema@.<> (
	LEFTARG = ulid_flake, RIGHTARG = ulid_flake, FUNCTION = ulid_flake_ne,
	COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR @extschema@.< (
	LEFTARG = ulid_flake, RIGHTARG = ulid_flake, FUNCTION = ulid_flake_lt,
	COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR @extschema@.<= (
	LEFTARG = ulid_flake, RIGHTARG = ulid_flake, FUNCTION = ulid_flake_le,
	COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR @extschema@.> (
	LEFTARG = ulid_flake, RIGHTARG = ulid_flake, FUNCTION = ulid_flake_gt,
	COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR @extschema@.>= (
	LEFTARG = ulid_flake, RIGHTARG = ulid_flake, FUNCTION = ulid_flake_ge,
	COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

CREATE OPERATOR CLASS ulid_flake_ops
	DEFAULT FOR TYPE ulid_flake USING btree AS
		OPERATOR 1 @extschema@.<,
		OPERATOR 2 @extschema@.<=,
		OPERATOR 3 @extschema@.=,
		OPERATOR 4 @extschema@.>=,
		OPERATOR 5 @extschema@.>,
		FUNCTION 1 ulid_flake_cmp(ulid_flake, ulid_flake),
		FUNCTION 2 ulid_flake_sortsupport(pg_catalog.internal),
		FUNCTION 4 pg_catalog.btequalimage(pg_catalog.oid);

CREATE OPERATOR CLASS ulid_flake_ops
	DEFAULT FOR TYPE ulid_flake USING hash AS
		OPERATOR 1 @extschema@.=,
		FUNCTION 1 ulid_flake_hash(ulid_flake),
		FUNCTION 2 ulid_flake_hash_extended(ulid_flake, pg_catalog.int8);

CREATE AGGREGATE pg_catalog.min(ulid_flake) (
	SFUNC = ulid_flake_smaller, STYPE = ulid_flake, COMBINEFUNC = ulid_flake_smaller,
	SORTOP = OPERATOR(@extschema@.<), PARALLEL = SAFE
);
CREATE AGGREGATE pg_catalog.max(ulid_flake) (
	SFUNC = ulid_flake_larger, STYPE = ulid_flake, COMBINEFUNC = ulid_flake_larger,
	SORTOP = OPERATOR(@extschema@.>), PARALLEL = SAFE
);

-- casts: to bigint is the same bits; from bigint rejects negative values
CREATE FUNCTION ulid_flake_from_bigint(pg_catalog.int8) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (ulid_flake AS pg_catalog.int8) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (pg_catalog.int8 AS ulid_flake) WITH FUNCTION ulid_flake_from_bigint(pg_catalog.int8) AS ASSIGNMENT;

CREATE FUNCTION ulid_flake_to_text(ulid_flake) RETURNS pg_catalog.text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_from_text(pg_catalog.text) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (ulid_flake AS pg_catalog.text) WITH FUNCTION ulid_flake_to_text(ulid_flake) AS ASSIGNMENT;
CREATE CAST (pg_catalog.text AS ulid_flake) WITH FUNCTION ulid_flake_from_text(pg_catalog.text);

CREATE FUNCTION ulid_flake_is_valid(pg_catalog.text) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_flake_timestamp(ulid_flake) RETURNS pg_catalog.timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_unix_ms(ulid_flake) RETURNS pg_catalog.int8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_randomness(ulid_flake, scalable pg_catalog.bool DEFAULT false) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_node_id(ulid_flake) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_lower(pg_catalog.timestamptz) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_upper(pg_catalog.timestamptz) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_from_parts(unix_ms pg_catalog.int8, randomness pg_catalog.int4, node_id pg_catalog.int4 DEFAULT NULL)
	RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE CAST (ulid_flake AS pg_catalog.timestamptz) WITH FUNCTION ulid_flake_timestamp(ulid_flake);
CREATE CAST (pg_catalog.timestamptz AS ulid_flake) WITH FUNCTION ulid_flake_lower(pg_catalog.timestamptz);

CREATE FUNCTION ulid_flake_generate() RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION ulid_flake_generate(pg_catalog.timestamptz) RETURNS ulid_flake
	AS 'MODULE_PATHNAME', 'ulid_flake_generate_at' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION ulid_flake_generate_scalable() RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL UNSAFE;
CREATE FUNCTION ulid_flake_generate_scalable(node_id pg_catalog.int4) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION ulid_flake_generate() IS 'new ulid_flake (stand-alone layout), strictly increasing across the server';
COMMENT ON FUNCTION ulid_flake_generate(pg_catalog.timestamptz) IS 'new ulid_flake for the given time; strictly increasing within this session while the same millisecond is asked for';
COMMENT ON FUNCTION ulid_flake_generate_scalable() IS 'new ulid_flake (scalable layout) for node ulid.flake_node_id, strictly increasing across the server';

--
-- Time as timestamp without time zone: the UTC wall time, which does not
-- depend on TimeZone, so IMMUTABLE (generated columns and index expressions
-- can use it), as pgx_ulid's casts give it.  Explicit, as to timestamptz.
--
CREATE FUNCTION ulid_to_timestamp(ulid) RETURNS pg_catalog.timestamp
	AS 'MODULE_PATHNAME', 'ulid_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timestamp_to_ulid(pg_catalog.timestamp) RETURNS ulid
	AS 'MODULE_PATHNAME', 'ulid_lower' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (ulid AS pg_catalog.timestamp) WITH FUNCTION ulid_to_timestamp(ulid);
CREATE CAST (pg_catalog.timestamp AS ulid) WITH FUNCTION timestamp_to_ulid(pg_catalog.timestamp);

-- pgx_ulid's other function names, so that its users' schemas restore
CREATE FUNCTION ulid_to_timestamptz(ulid) RETURNS pg_catalog.timestamptz
	AS 'MODULE_PATHNAME', 'ulid_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timestamptz_to_ulid(pg_catalog.timestamptz) RETURNS ulid
	AS 'MODULE_PATHNAME', 'ulid_lower' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_from_uuid(pg_catalog.uuid) RETURNS ulid
	AS 'MODULE_PATHNAME', 'ulid_same_bytes' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_to_uuid(ulid) RETURNS pg_catalog.uuid
	AS 'MODULE_PATHNAME', 'ulid_same_bytes' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- function-style casts, as core's types have them: text(id), ulid('...')
CREATE FUNCTION text(ulid) RETURNS pg_catalog.text
	AS 'MODULE_PATHNAME', 'ulid_to_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid(pg_catalog.text) RETURNS ulid
	AS 'MODULE_PATHNAME', 'ulid_from_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION text(ulid_flake) RETURNS pg_catalog.text
	AS 'MODULE_PATHNAME', 'ulid_flake_to_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake(pg_catalog.text) RETURNS ulid_flake
	AS 'MODULE_PATHNAME', 'ulid_flake_from_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake(pg_catalog.int8) RETURNS ulid_flake
	AS 'MODULE_PATHNAME', 'ulid_flake_from_bigint' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

--
-- Cross-type comparisons with the type underneath: ulid with uuid, ulid_flake
-- with bigint.  A dump written by pgx_ulid, whose casts to uuid are implicit,
-- holds views with "ulid_col = uuid_col" and no cast; and "flake_id > 42"
-- should work as it does for bigint.  Each operator calls core's function on
-- the same bytes, and joins the type's btree and hash families, so that an
-- index on our column answers it, and the hash family has core's uuid
-- (bigint) hash functions, so that it can hash-join.
--
-- Core's own bigint operators are NOT in ulid_flake's families: the planner
-- merges two "=" clauses into one equivalence class only when their
-- operators belong to the same btree families, so a second family holding
-- "bigint = bigint" (but not "bigint = integer") would cost every bigint
-- query of the database its deductions (a.id = b.aid AND b.aid = 5 no
-- longer giving a.id = 5).  Core's uuid operators are in ulid's families:
-- uuid has no cross-type operators in core, so every "uuid = uuid" clause
-- still has the same families and nothing changes (sql/plans.sql plans both
-- kinds of query with and without the extension), and a foreign key from a
-- uuid column to a ulid key needs "uuid = uuid" in the key's family (a
-- pgx_ulid database, whose casts are implicit, can have one).  ulid_flake's
-- families are incomplete, which amvalidate reports; so that nothing needs
-- the missing members, the cross-type "=" operators are not MERGES and form
-- no equivalence classes, for both types.
--
CREATE FUNCTION ulid_eq_uuid(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ne_uuid(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_lt_uuid(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_le_uuid(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_gt_uuid(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ge_uuid(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_cmp_uuid(ulid, pg_catalog.uuid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME', 'ulid_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_eq_ulid(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_ne_ulid(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_lt_ulid(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_le_ulid(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_gt_ulid(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_ge_ulid(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_cmp_ulid(pg_catalog.uuid, ulid) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME', 'ulid_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR @extschema@.= (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_eq_uuid,
	COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES
);
CREATE OPERATOR @extschema@.<> (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_ne_uuid,
	COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR @extschema@.< (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_lt_uuid,
	COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR @extschema@.<= (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_le_uuid,
	COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR @extschema@.> (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_gt_uuid,
	COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR @extschema@.>= (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_ge_uuid,
	COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
CREATE OPERATOR @extschema@.= (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_eq_ulid,
	COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES
);
CREATE OPERATOR @extschema@.<> (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_ne_ulid,
	COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR @extschema@.< (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_lt_ulid,
	COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR @extschema@.<= (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_le_ulid,
	COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR @extschema@.> (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_gt_ulid,
	COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR @extschema@.>= (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_ge_ulid,
	COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
ALTER OPERATOR FAMILY ulid_ops USING btree ADD
		OPERATOR 1 @extschema@.< (ulid, pg_catalog.uuid),
		OPERATOR 2 @extschema@.<= (ulid, pg_catalog.uuid),
		OPERATOR 3 @extschema@.= (ulid, pg_catalog.uuid),
		OPERATOR 4 @extschema@.>= (ulid, pg_catalog.uuid),
		OPERATOR 5 @extschema@.> (ulid, pg_catalog.uuid),
		FUNCTION 1 (ulid, pg_catalog.uuid) ulid_cmp_uuid(ulid, pg_catalog.uuid),
		OPERATOR 1 @extschema@.< (pg_catalog.uuid, ulid),
		OPERATOR 2 @extschema@.<= (pg_catalog.uuid, ulid),
		OPERATOR 3 @extschema@.= (pg_catalog.uuid, ulid),
		OPERATOR 4 @extschema@.>= (pg_catalog.uuid, ulid),
		OPERATOR 5 @extschema@.> (pg_catalog.uuid, ulid),
		FUNCTION 1 (pg_catalog.uuid, ulid) uuid_cmp_ulid(pg_catalog.uuid, ulid),
		OPERATOR 1 pg_catalog.< (pg_catalog.uuid, pg_catalog.uuid),
		OPERATOR 2 pg_catalog.<= (pg_catalog.uuid, pg_catalog.uuid),
		OPERATOR 3 pg_catalog.= (pg_catalog.uuid, pg_catalog.uuid),
		OPERATOR 4 pg_catalog.>= (pg_catalog.uuid, pg_catalog.uuid),
		OPERATOR 5 pg_catalog.> (pg_catalog.uuid, pg_catalog.uuid),
		FUNCTION 1 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_cmp(pg_catalog.uuid, pg_catalog.uuid),
		FUNCTION 2 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_sortsupport(pg_catalog.internal);
ALTER OPERATOR FAMILY ulid_ops USING hash ADD
		OPERATOR 1 @extschema@.= (ulid, pg_catalog.uuid),
		OPERATOR 1 @extschema@.= (pg_catalog.uuid, ulid),
		OPERATOR 1 pg_catalog.= (pg_catalog.uuid, pg_catalog.uuid),
		FUNCTION 1 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_hash(pg_catalog.uuid),
		FUNCTION 2 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_hash_extended(pg_catalog.uuid, pg_catalog.int8);

CREATE FUNCTION ulid_flake_eq_int8(ulid_flake, pg_catalog.int8) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_flake_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_ne_int8(ulid_flake, pg_catalog.int8) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_flake_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_lt_int8(ulid_flake, pg_catalog.int8) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_flake_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_le_int8(ulid_flake, pg_catalog.int8) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_flake_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_gt_int8(ulid_flake, pg_catalog.int8) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_flake_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_ge_int8(ulid_flake, pg_catalog.int8) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_flake_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_cmp_int8(ulid_flake, pg_catalog.int8) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME', 'ulid_flake_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_eq_ulid_flake(pg_catalog.int8, ulid_flake) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_flake_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_ne_ulid_flake(pg_catalog.int8, ulid_flake) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_flake_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_lt_ulid_flake(pg_catalog.int8, ulid_flake) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_flake_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_le_ulid_flake(pg_catalog.int8, ulid_flake) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_flake_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_gt_ulid_flake(pg_catalog.int8, ulid_flake) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_flake_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_ge_ulid_flake(pg_catalog.int8, ulid_flake) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME', 'ulid_flake_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_cmp_ulid_flake(pg_catalog.int8, ulid_flake) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME', 'ulid_flake_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR @extschema@.= (
	LEFTARG = ulid_flake, RIGHTARG = pg_catalog.int8, FUNCTION = ulid_flake_eq_int8,
	COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES
);
CREATE OPERATOR @extschema@.<> (
	LEFTARG = ulid_flake, RIGHTARG = pg_catalog.int8, FUNCTION = ulid_flake_ne_int8,
	COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR @extschema@.< (
	LEFTARG = ulid_flake, RIGHTARG = pg_catalog.int8, FUNCTION = ulid_flake_lt_int8,
	COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR @extschema@.<= (
	LEFTARG = ulid_flake, RIGHTARG = pg_catalog.int8, FUNCTION = ulid_flake_le_int8,
	COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR @extschema@.> (
	LEFTARG = ulid_flake, RIGHTARG = pg_catalog.int8, FUNCTION = ulid_flake_gt_int8,
	COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR @extschema@.>= (
	LEFTARG = ulid_flake, RIGHTARG = pg_catalog.int8, FUNCTION = ulid_flake_ge_int8,
	COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
CREATE OPERATOR @extschema@.= (
	LEFTARG = pg_catalog.int8, RIGHTARG = ulid_flake, FUNCTION = int8_eq_ulid_flake,
	COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES
);
CREATE OPERATOR @extschema@.<> (
	LEFTARG = pg_catalog.int8, RIGHTARG = ulid_flake, FUNCTION = int8_ne_ulid_flake,
	COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR @extschema@.< (
	LEFTARG = pg_catalog.int8, RIGHTARG = ulid_flake, FUNCTION = int8_lt_ulid_flake,
	COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR @extschema@.<= (
	LEFTARG = pg_catalog.int8, RIGHTARG = ulid_flake, FUNCTION = int8_le_ulid_flake,
	COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR @extschema@.> (
	LEFTARG = pg_catalog.int8, RIGHTARG = ulid_flake, FUNCTION = int8_gt_ulid_flake,
	COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR @extschema@.>= (
	LEFTARG = pg_catalog.int8, RIGHTARG = ulid_flake, FUNCTION = int8_ge_ulid_flake,
	COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
ALTER OPERATOR FAMILY ulid_flake_ops USING btree ADD
		OPERATOR 1 @extschema@.< (ulid_flake, pg_catalog.int8),
		OPERATOR 2 @extschema@.<= (ulid_flake, pg_catalog.int8),
		OPERATOR 3 @extschema@.= (ulid_flake, pg_catalog.int8),
		OPERATOR 4 @extschema@.>= (ulid_flake, pg_catalog.int8),
		OPERATOR 5 @extschema@.> (ulid_flake, pg_catalog.int8),
		FUNCTION 1 (ulid_flake, pg_catalog.int8) ulid_flake_cmp_int8(ulid_flake, pg_catalog.int8),
		OPERATOR 1 @extschema@.< (pg_catalog.int8, ulid_flake),
		OPERATOR 2 @extschema@.<= (pg_catalog.int8, ulid_flake),
		OPERATOR 3 @extschema@.= (pg_catalog.int8, ulid_flake),
		OPERATOR 4 @extschema@.>= (pg_catalog.int8, ulid_flake),
		OPERATOR 5 @extschema@.> (pg_catalog.int8, ulid_flake),
		FUNCTION 1 (pg_catalog.int8, ulid_flake) int8_cmp_ulid_flake(pg_catalog.int8, ulid_flake);
ALTER OPERATOR FAMILY ulid_flake_ops USING hash ADD
		OPERATOR 1 @extschema@.= (ulid_flake, pg_catalog.int8),
		OPERATOR 1 @extschema@.= (pg_catalog.int8, ulid_flake),
		FUNCTION 1 (pg_catalog.int8, pg_catalog.int8) pg_catalog.hashint8(pg_catalog.int8),
		FUNCTION 2 (pg_catalog.int8, pg_catalog.int8) pg_catalog.hashint8extended(pg_catalog.int8, pg_catalog.int8);

--
-- Time ranges by id: "id <@ tstzrange(a, b)", for both types.  A planner
-- support function turns it into a range of ids that a btree or BRIN index
-- on id answers (ulid_range_min(r) <= id <= ulid_range_max(r)), rechecking
-- the operator on each row.
--
CREATE FUNCTION ulid_time_range_support(pg_catalog.internal) RETURNS pg_catalog.internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_range_min(pg_catalog.tstzrange) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_range_max(pg_catalog.tstzrange) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_range_min(pg_catalog.tstzrange) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_range_max(pg_catalog.tstzrange) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_range_min(pg_catalog.tstzrange) IS 'lowest ulid whose time is in the range';
COMMENT ON FUNCTION ulid_range_max(pg_catalog.tstzrange) IS 'highest ulid whose time is in the range';
CREATE FUNCTION ulid_in_time_range(ulid, pg_catalog.tstzrange) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT ulid_time_range_support;
CREATE FUNCTION ulid_flake_in_time_range(ulid_flake, pg_catalog.tstzrange) RETURNS pg_catalog.bool
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
	SUPPORT ulid_time_range_support;
CREATE OPERATOR @extschema@.<@ (
	LEFTARG = ulid, RIGHTARG = pg_catalog.tstzrange, FUNCTION = ulid_in_time_range,
	RESTRICT = pg_catalog.contsel, JOIN = pg_catalog.contjoinsel
);
CREATE OPERATOR @extschema@.<@ (
	LEFTARG = ulid_flake, RIGHTARG = pg_catalog.tstzrange, FUNCTION = ulid_flake_in_time_range,
	RESTRICT = pg_catalog.contsel, JOIN = pg_catalog.contjoinsel
);

--
-- BRIN: minmax (default) everywhere; minmax-multi and bloom where core has
-- them (PostgreSQL 14 and later).  The support functions are core's.
--

CREATE OPERATOR CLASS ulid_minmax_ops
	DEFAULT FOR TYPE ulid USING brin AS
		OPERATOR 1 @extschema@.<, OPERATOR 2 @extschema@.<=, OPERATOR 3 @extschema@.=, OPERATOR 4 @extschema@.>=, OPERATOR 5 @extschema@.>,
		FUNCTION 1 pg_catalog.brin_minmax_opcinfo(pg_catalog.internal),
		FUNCTION 2 pg_catalog.brin_minmax_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 3 pg_catalog.brin_minmax_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 4 pg_catalog.brin_minmax_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal);

CREATE OPERATOR CLASS ulid_flake_minmax_ops
	DEFAULT FOR TYPE ulid_flake USING brin AS
		OPERATOR 1 @extschema@.<, OPERATOR 2 @extschema@.<=, OPERATOR 3 @extschema@.=, OPERATOR 4 @extschema@.>=, OPERATOR 5 @extschema@.>,
		FUNCTION 1 pg_catalog.brin_minmax_opcinfo(pg_catalog.internal),
		FUNCTION 2 pg_catalog.brin_minmax_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 3 pg_catalog.brin_minmax_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 4 pg_catalog.brin_minmax_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal);

-- @if pg14
CREATE FUNCTION ulid_minmax_multi_distance(pg_catalog.internal, pg_catalog.internal) RETURNS pg_catalog.float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR CLASS ulid_minmax_multi_ops
	FOR TYPE ulid USING brin AS
		OPERATOR 1 @extschema@.<, OPERATOR 2 @extschema@.<=, OPERATOR 3 @extschema@.=, OPERATOR 4 @extschema@.>=, OPERATOR 5 @extschema@.>,
		FUNCTION 1 pg_catalog.brin_minmax_multi_opcinfo(pg_catalog.internal),
		FUNCTION 2 pg_catalog.brin_minmax_multi_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 3 pg_catalog.brin_minmax_multi_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.int4),
		FUNCTION 4 pg_catalog.brin_minmax_multi_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 5 pg_catalog.brin_minmax_multi_options(pg_catalog.internal),
		FUNCTION 11 ulid_minmax_multi_distance(pg_catalog.internal, pg_catalog.internal);
CREATE OPERATOR CLASS ulid_bloom_ops
	FOR TYPE ulid USING brin AS
		OPERATOR 1 @extschema@.=,
		FUNCTION 1 pg_catalog.brin_bloom_opcinfo(pg_catalog.internal),
		FUNCTION 2 pg_catalog.brin_bloom_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 3 pg_catalog.brin_bloom_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.int4),
		FUNCTION 4 pg_catalog.brin_bloom_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 5 pg_catalog.brin_bloom_options(pg_catalog.internal),
		FUNCTION 11 ulid_hash(ulid);

CREATE FUNCTION ulid_flake_minmax_multi_distance(pg_catalog.internal, pg_catalog.internal) RETURNS pg_catalog.float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR CLASS ulid_flake_minmax_multi_ops
	FOR TYPE ulid_flake USING brin AS
		OPERATOR 1 @extschema@.<, OPERATOR 2 @extschema@.<=, OPERATOR 3 @extschema@.=, OPERATOR 4 @extschema@.>=, OPERATOR 5 @extschema@.>,
		FUNCTION 1 pg_catalog.brin_minmax_multi_opcinfo(pg_catalog.internal),
		FUNCTION 2 pg_catalog.brin_minmax_multi_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 3 pg_catalog.brin_minmax_multi_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.int4),
		FUNCTION 4 pg_catalog.brin_minmax_multi_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 5 pg_catalog.brin_minmax_multi_options(pg_catalog.internal),
		FUNCTION 11 ulid_flake_minmax_multi_distance(pg_catalog.internal, pg_catalog.internal);
CREATE OPERATOR CLASS ulid_flake_bloom_ops
	FOR TYPE ulid_flake USING brin AS
		OPERATOR 1 @extschema@.=,
		FUNCTION 1 pg_catalog.brin_bloom_opcinfo(pg_catalog.internal),
		FUNCTION 2 pg_catalog.brin_bloom_add_value(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 3 pg_catalog.brin_bloom_consistent(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal, pg_catalog.int4),
		FUNCTION 4 pg_catalog.brin_bloom_union(pg_catalog.internal, pg_catalog.internal, pg_catalog.internal),
		FUNCTION 5 pg_catalog.brin_bloom_options(pg_catalog.internal),
		FUNCTION 11 ulid_flake_hash(ulid_flake);
-- @endif

-- @if pg18
-- btree skip scan (PostgreSQL 18): core's skip support for uuid and int8
CREATE FUNCTION ulid_skipsupport(pg_catalog.internal) RETURNS pg_catalog.void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_skipsupport(pg_catalog.internal) RETURNS pg_catalog.void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
ALTER OPERATOR FAMILY ulid_ops USING btree ADD
		FUNCTION 6 (ulid, ulid) ulid_skipsupport(pg_catalog.internal);
ALTER OPERATOR FAMILY ulid_flake_ops USING btree ADD
		FUNCTION 6 (ulid_flake, ulid_flake) ulid_flake_skipsupport(pg_catalog.internal);
-- @endif
