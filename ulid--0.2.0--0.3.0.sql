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

-- Sort support of its own (was core's uuid_sortsupport): an abbreviated key
-- made for monotonic runs of ids within one millisecond.  The function has
-- been the extension's own since 0.1.0.
CREATE OR REPLACE FUNCTION @extschema@.ulid_sortsupport(pg_catalog.internal) RETURNS pg_catalog.void
	AS 'MODULE_PATHNAME', 'ulid_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- gen_monotonic_ulid() gets pgx_ulid's meaning: strictly increasing across
-- the server (it was per session).  The function has been the extension's
-- own since 0.1.0, so replacing it cannot pick up another role's.
CREATE OR REPLACE FUNCTION @extschema@.gen_monotonic_ulid() RETURNS @extschema@.ulid
	AS 'MODULE_PATHNAME', 'ulid_generate_shared' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.gen_monotonic_ulid() IS 'new ulid, strictly increasing across the server (as pgx_ulid''s)';

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
-- should work as it does for bigint.  Each operator is core's own function on
-- the same bytes, and joins the type's btree and hash families, so an index
-- on either type answers it.  Their families hold core's uuid (bigint)
-- comparisons too, as a complete cross-type family must; core's own
-- families, whose OIDs are lower, stay the ones the planner picks for those.
--
CREATE FUNCTION ulid_eq_uuid(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'uuid_eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ne_uuid(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'uuid_ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_lt_uuid(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'uuid_lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_le_uuid(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'uuid_le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_gt_uuid(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'uuid_gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ge_uuid(ulid, pg_catalog.uuid) RETURNS pg_catalog.bool
	AS 'uuid_ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_cmp_uuid(ulid, pg_catalog.uuid) RETURNS pg_catalog.int4
	AS 'uuid_cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_eq_ulid(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
	AS 'uuid_eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_ne_ulid(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
	AS 'uuid_ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_lt_ulid(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
	AS 'uuid_lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_le_ulid(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
	AS 'uuid_le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_gt_ulid(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
	AS 'uuid_gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_ge_ulid(pg_catalog.uuid, ulid) RETURNS pg_catalog.bool
	AS 'uuid_ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_cmp_ulid(pg_catalog.uuid, ulid) RETURNS pg_catalog.int4
	AS 'uuid_cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR pg_catalog.= (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_eq_uuid,
	COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR pg_catalog.<> (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_ne_uuid,
	COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR pg_catalog.< (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_lt_uuid,
	COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR pg_catalog.<= (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_le_uuid,
	COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR pg_catalog.> (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_gt_uuid,
	COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR pg_catalog.>= (
	LEFTARG = ulid, RIGHTARG = pg_catalog.uuid, FUNCTION = ulid_ge_uuid,
	COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
CREATE OPERATOR pg_catalog.= (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_eq_ulid,
	COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR pg_catalog.<> (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_ne_ulid,
	COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR pg_catalog.< (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_lt_ulid,
	COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR pg_catalog.<= (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_le_ulid,
	COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR pg_catalog.> (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_gt_ulid,
	COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR pg_catalog.>= (
	LEFTARG = pg_catalog.uuid, RIGHTARG = ulid, FUNCTION = uuid_ge_ulid,
	COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
ALTER OPERATOR FAMILY ulid_ops USING btree ADD
		OPERATOR 1 pg_catalog.< (ulid, pg_catalog.uuid),
		OPERATOR 2 pg_catalog.<= (ulid, pg_catalog.uuid),
		OPERATOR 3 pg_catalog.= (ulid, pg_catalog.uuid),
		OPERATOR 4 pg_catalog.>= (ulid, pg_catalog.uuid),
		OPERATOR 5 pg_catalog.> (ulid, pg_catalog.uuid),
		FUNCTION 1 (ulid, pg_catalog.uuid) ulid_cmp_uuid(ulid, pg_catalog.uuid),
		OPERATOR 1 pg_catalog.< (pg_catalog.uuid, ulid),
		OPERATOR 2 pg_catalog.<= (pg_catalog.uuid, ulid),
		OPERATOR 3 pg_catalog.= (pg_catalog.uuid, ulid),
		OPERATOR 4 pg_catalog.>= (pg_catalog.uuid, ulid),
		OPERATOR 5 pg_catalog.> (pg_catalog.uuid, ulid),
		FUNCTION 1 (pg_catalog.uuid, ulid) uuid_cmp_ulid(pg_catalog.uuid, ulid),
		OPERATOR 1 pg_catalog.< (pg_catalog.uuid, pg_catalog.uuid),
		OPERATOR 2 pg_catalog.<= (pg_catalog.uuid, pg_catalog.uuid),
		OPERATOR 3 pg_catalog.= (pg_catalog.uuid, pg_catalog.uuid),
		OPERATOR 4 pg_catalog.>= (pg_catalog.uuid, pg_catalog.uuid),
		OPERATOR 5 pg_catalog.> (pg_catalog.uuid, pg_catalog.uuid),
		FUNCTION 1 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_cmp(pg_catalog.uuid, pg_catalog.uuid),
		FUNCTION 2 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_sortsupport(pg_catalog.internal);
ALTER OPERATOR FAMILY ulid_ops USING hash ADD
		OPERATOR 1 pg_catalog.= (ulid, pg_catalog.uuid),
		OPERATOR 1 pg_catalog.= (pg_catalog.uuid, ulid),
		OPERATOR 1 pg_catalog.= (pg_catalog.uuid, pg_catalog.uuid),
		FUNCTION 1 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_hash(pg_catalog.uuid),
		FUNCTION 2 (pg_catalog.uuid, pg_catalog.uuid) pg_catalog.uuid_hash_extended(pg_catalog.uuid, pg_catalog.int8);

CREATE FUNCTION ulid_flake_eq_int8(ulid_flake, pg_catalog.int8) RETURNS pg_catalog.bool
	AS 'int8eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_ne_int8(ulid_flake, pg_catalog.int8) RETURNS pg_catalog.bool
	AS 'int8ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_lt_int8(ulid_flake, pg_catalog.int8) RETURNS pg_catalog.bool
	AS 'int8lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_le_int8(ulid_flake, pg_catalog.int8) RETURNS pg_catalog.bool
	AS 'int8le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_gt_int8(ulid_flake, pg_catalog.int8) RETURNS pg_catalog.bool
	AS 'int8gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_ge_int8(ulid_flake, pg_catalog.int8) RETURNS pg_catalog.bool
	AS 'int8ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_cmp_int8(ulid_flake, pg_catalog.int8) RETURNS pg_catalog.int4
	AS 'btint8cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_eq_ulid_flake(pg_catalog.int8, ulid_flake) RETURNS pg_catalog.bool
	AS 'int8eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_ne_ulid_flake(pg_catalog.int8, ulid_flake) RETURNS pg_catalog.bool
	AS 'int8ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_lt_ulid_flake(pg_catalog.int8, ulid_flake) RETURNS pg_catalog.bool
	AS 'int8lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_le_ulid_flake(pg_catalog.int8, ulid_flake) RETURNS pg_catalog.bool
	AS 'int8le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_gt_ulid_flake(pg_catalog.int8, ulid_flake) RETURNS pg_catalog.bool
	AS 'int8gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_ge_ulid_flake(pg_catalog.int8, ulid_flake) RETURNS pg_catalog.bool
	AS 'int8ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_cmp_ulid_flake(pg_catalog.int8, ulid_flake) RETURNS pg_catalog.int4
	AS 'btint8cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OPERATOR pg_catalog.= (
	LEFTARG = ulid_flake, RIGHTARG = pg_catalog.int8, FUNCTION = ulid_flake_eq_int8,
	COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR pg_catalog.<> (
	LEFTARG = ulid_flake, RIGHTARG = pg_catalog.int8, FUNCTION = ulid_flake_ne_int8,
	COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR pg_catalog.< (
	LEFTARG = ulid_flake, RIGHTARG = pg_catalog.int8, FUNCTION = ulid_flake_lt_int8,
	COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR pg_catalog.<= (
	LEFTARG = ulid_flake, RIGHTARG = pg_catalog.int8, FUNCTION = ulid_flake_le_int8,
	COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR pg_catalog.> (
	LEFTARG = ulid_flake, RIGHTARG = pg_catalog.int8, FUNCTION = ulid_flake_gt_int8,
	COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR pg_catalog.>= (
	LEFTARG = ulid_flake, RIGHTARG = pg_catalog.int8, FUNCTION = ulid_flake_ge_int8,
	COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
CREATE OPERATOR pg_catalog.= (
	LEFTARG = pg_catalog.int8, RIGHTARG = ulid_flake, FUNCTION = int8_eq_ulid_flake,
	COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR pg_catalog.<> (
	LEFTARG = pg_catalog.int8, RIGHTARG = ulid_flake, FUNCTION = int8_ne_ulid_flake,
	COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR pg_catalog.< (
	LEFTARG = pg_catalog.int8, RIGHTARG = ulid_flake, FUNCTION = int8_lt_ulid_flake,
	COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR pg_catalog.<= (
	LEFTARG = pg_catalog.int8, RIGHTARG = ulid_flake, FUNCTION = int8_le_ulid_flake,
	COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR pg_catalog.> (
	LEFTARG = pg_catalog.int8, RIGHTARG = ulid_flake, FUNCTION = int8_gt_ulid_flake,
	COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR pg_catalog.>= (
	LEFTARG = pg_catalog.int8, RIGHTARG = ulid_flake, FUNCTION = int8_ge_ulid_flake,
	COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
ALTER OPERATOR FAMILY ulid_flake_ops USING btree ADD
		OPERATOR 1 pg_catalog.< (ulid_flake, pg_catalog.int8),
		OPERATOR 2 pg_catalog.<= (ulid_flake, pg_catalog.int8),
		OPERATOR 3 pg_catalog.= (ulid_flake, pg_catalog.int8),
		OPERATOR 4 pg_catalog.>= (ulid_flake, pg_catalog.int8),
		OPERATOR 5 pg_catalog.> (ulid_flake, pg_catalog.int8),
		FUNCTION 1 (ulid_flake, pg_catalog.int8) ulid_flake_cmp_int8(ulid_flake, pg_catalog.int8),
		OPERATOR 1 pg_catalog.< (pg_catalog.int8, ulid_flake),
		OPERATOR 2 pg_catalog.<= (pg_catalog.int8, ulid_flake),
		OPERATOR 3 pg_catalog.= (pg_catalog.int8, ulid_flake),
		OPERATOR 4 pg_catalog.>= (pg_catalog.int8, ulid_flake),
		OPERATOR 5 pg_catalog.> (pg_catalog.int8, ulid_flake),
		FUNCTION 1 (pg_catalog.int8, ulid_flake) int8_cmp_ulid_flake(pg_catalog.int8, ulid_flake),
		OPERATOR 1 pg_catalog.< (pg_catalog.int8, pg_catalog.int8),
		OPERATOR 2 pg_catalog.<= (pg_catalog.int8, pg_catalog.int8),
		OPERATOR 3 pg_catalog.= (pg_catalog.int8, pg_catalog.int8),
		OPERATOR 4 pg_catalog.>= (pg_catalog.int8, pg_catalog.int8),
		OPERATOR 5 pg_catalog.> (pg_catalog.int8, pg_catalog.int8),
		FUNCTION 1 (pg_catalog.int8, pg_catalog.int8) pg_catalog.btint8cmp(pg_catalog.int8, pg_catalog.int8),
		FUNCTION 2 (pg_catalog.int8, pg_catalog.int8) pg_catalog.btint8sortsupport(pg_catalog.internal);
ALTER OPERATOR FAMILY ulid_flake_ops USING hash ADD
		OPERATOR 1 pg_catalog.= (ulid_flake, pg_catalog.int8),
		OPERATOR 1 pg_catalog.= (pg_catalog.int8, ulid_flake),
		OPERATOR 1 pg_catalog.= (pg_catalog.int8, pg_catalog.int8),
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
CREATE OPERATOR pg_catalog.<@ (
	LEFTARG = ulid, RIGHTARG = pg_catalog.tstzrange, FUNCTION = ulid_in_time_range,
	RESTRICT = pg_catalog.contsel, JOIN = pg_catalog.contjoinsel
);
CREATE OPERATOR pg_catalog.<@ (
	LEFTARG = ulid_flake, RIGHTARG = pg_catalog.tstzrange, FUNCTION = ulid_flake_in_time_range,
	RESTRICT = pg_catalog.contsel, JOIN = pg_catalog.contjoinsel
);

-- @if pg18
-- btree skip scan (PostgreSQL 18): core's skip support for uuid and int8
CREATE FUNCTION ulid_skipsupport(pg_catalog.internal) RETURNS pg_catalog.void
	AS 'uuid_skipsupport' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_skipsupport(pg_catalog.internal) RETURNS pg_catalog.void
	AS 'btint8skipsupport' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
ALTER OPERATOR FAMILY ulid_ops USING btree ADD
		FUNCTION 6 (ulid, ulid) ulid_skipsupport(pg_catalog.internal);
ALTER OPERATOR FAMILY ulid_flake_ops USING btree ADD
		FUNCTION 6 (ulid_flake, ulid_flake) ulid_flake_skipsupport(pg_catalog.internal);
-- @endif
