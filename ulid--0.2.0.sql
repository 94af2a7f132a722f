/* ulid--0.2.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION ulid" to load this file. \quit

--
-- ulid: 16 bytes, stored, compared, hashed and sent exactly like uuid.
-- Functions whose semantics are identical to uuid's are core's own
-- (LANGUAGE internal), so ulid is as fast as uuid by construction.
--
-- The operators and the min/max aggregates of both types live in pg_catalog,
-- as uuid's and int8's do, so that "id = $1" and "min(id)" resolve whatever
-- the search_path (without the extension's schema on it, an operator there
-- would not be found).  Everything else lives in the extension's schema; the
-- extension is therefore not relocatable.
--

CREATE TYPE ulid;

CREATE FUNCTION ulid_in(cstring) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_out(ulid) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_recv(internal) RETURNS ulid
	AS 'uuid_recv' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_send(ulid) RETURNS bytea
	AS 'uuid_send' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE ulid (
	INPUT = ulid_in,
	OUTPUT = ulid_out,
	RECEIVE = ulid_recv,
	SEND = ulid_send,
	LIKE = pg_catalog.uuid
);
COMMENT ON TYPE ulid IS 'Universally Unique Lexicographically Sortable Identifier (128 bits)';

-- comparison

CREATE FUNCTION ulid_eq(ulid, ulid) RETURNS boolean
	AS 'uuid_eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ne(ulid, ulid) RETURNS boolean
	AS 'uuid_ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_lt(ulid, ulid) RETURNS boolean
	AS 'uuid_lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_le(ulid, ulid) RETURNS boolean
	AS 'uuid_le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_gt(ulid, ulid) RETURNS boolean
	AS 'uuid_gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ge(ulid, ulid) RETURNS boolean
	AS 'uuid_ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_cmp(ulid, ulid) RETURNS integer
	AS 'uuid_cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_sortsupport(internal) RETURNS void
	AS 'uuid_sortsupport' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_hash(ulid) RETURNS integer
	AS 'uuid_hash' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_hash_extended(ulid, bigint) RETURNS bigint
	AS 'uuid_hash_extended' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR pg_catalog.= (
	LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_eq,
	COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR pg_catalog.<> (
	LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ne,
	COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
	RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR pg_catalog.< (
	LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_lt,
	COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR pg_catalog.<= (
	LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_le,
	COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR pg_catalog.> (
	LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_gt,
	COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR pg_catalog.>= (
	LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ge,
	COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS ulid_ops
	DEFAULT FOR TYPE ulid USING btree AS
		OPERATOR 1 <,
		OPERATOR 2 <=,
		OPERATOR 3 =,
		OPERATOR 4 >=,
		OPERATOR 5 >,
		FUNCTION 1 ulid_cmp(ulid, ulid),
		FUNCTION 2 ulid_sortsupport(internal),
		FUNCTION 4 pg_catalog.btequalimage(oid);

CREATE OPERATOR CLASS ulid_ops
	DEFAULT FOR TYPE ulid USING hash AS
		OPERATOR 1 =,
		FUNCTION 1 ulid_hash(ulid),
		FUNCTION 2 ulid_hash_extended(ulid, bigint);

CREATE FUNCTION ulid_smaller(ulid, ulid) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_larger(ulid, ulid) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE AGGREGATE pg_catalog.min(ulid) (
	SFUNC = ulid_smaller, STYPE = ulid, COMBINEFUNC = ulid_smaller,
	SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE pg_catalog.max(ulid) (
	SFUNC = ulid_larger, STYPE = ulid, COMBINEFUNC = ulid_larger,
	SORTOP = >, PARALLEL = SAFE
);

-- casts (none implicit)

CREATE CAST (ulid AS uuid) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (uuid AS ulid) WITHOUT FUNCTION AS ASSIGNMENT;

CREATE FUNCTION ulid_to_bytea(ulid) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_from_bytea(bytea) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (ulid AS bytea) WITH FUNCTION ulid_to_bytea(ulid);

-- text: the same contexts as the I/O casts they replace, without the cstring
CREATE FUNCTION ulid_to_text(ulid) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_from_text(text) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (ulid AS text) WITH FUNCTION ulid_to_text(ulid) AS ASSIGNMENT;
CREATE CAST (text AS ulid) WITH FUNCTION ulid_from_text(text);
CREATE CAST (bytea AS ulid) WITH FUNCTION ulid_from_bytea(bytea);

-- validation

CREATE FUNCTION ulid_is_valid(text) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_is_valid(text) IS 'true when the text is a valid ulid (26 Crockford base32 characters, first at most 7)';

-- time: accessors, casts, range bounds (IMMUTABLE: they do not depend on TimeZone)

CREATE FUNCTION ulid_timestamp(ulid) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_unix_ms(ulid) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_randomness(ulid) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_lower(timestamptz) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_upper(timestamptz) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_from_parts(unix_ms bigint, randomness bytea) RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_lower(timestamptz) IS 'lowest ulid of the millisecond of the given time';
COMMENT ON FUNCTION ulid_upper(timestamptz) IS 'highest ulid of the millisecond of the given time';

CREATE CAST (ulid AS timestamptz) WITH FUNCTION ulid_timestamp(ulid);
CREATE CAST (timestamptz AS ulid) WITH FUNCTION ulid_lower(timestamptz);

-- generators

CREATE FUNCTION ulid_generate() RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
CREATE FUNCTION ulid_generate_random() RETURNS ulid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION ulid_generate(timestamptz) RETURNS ulid
	AS 'MODULE_PATHNAME', 'ulid_generate_at' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
CREATE FUNCTION gen_ulid() RETURNS ulid
	AS 'MODULE_PATHNAME', 'ulid_generate_random' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION gen_monotonic_ulid() RETURNS ulid
	AS 'MODULE_PATHNAME', 'ulid_generate' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION ulid_generate() IS 'new ulid, strictly increasing within this session';
COMMENT ON FUNCTION ulid_generate_random() IS 'new ulid with 80 fresh random bits';
COMMENT ON FUNCTION ulid_generate(timestamptz) IS 'new ulid for the given time, with fresh random bits';

--
-- ulid_flake: a non-negative int8 with a base32 text form.  Functions whose
-- semantics are identical to int8's are core's own.
--

CREATE TYPE ulid_flake;

CREATE FUNCTION ulid_flake_in(cstring) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_out(ulid_flake) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_recv(internal) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_send(ulid_flake) RETURNS bytea
	AS 'int8send' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE ulid_flake (
	INPUT = ulid_flake_in,
	OUTPUT = ulid_flake_out,
	RECEIVE = ulid_flake_recv,
	SEND = ulid_flake_send,
	LIKE = pg_catalog.int8
);
COMMENT ON TYPE ulid_flake IS 'Ulid-Flake: 64-bit time-ordered identifier (43-bit ms since 2024, 20 random bits)';

CREATE FUNCTION ulid_flake_eq(ulid_flake, ulid_flake) RETURNS boolean
	AS 'int8eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_ne(ulid_flake, ulid_flake) RETURNS boolean
	AS 'int8ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_lt(ulid_flake, ulid_flake) RETURNS boolean
	AS 'int8lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_le(ulid_flake, ulid_flake) RETURNS boolean
	AS 'int8le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_gt(ulid_flake, ulid_flake) RETURNS boolean
	AS 'int8gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_ge(ulid_flake, ulid_flake) RETURNS boolean
	AS 'int8ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_cmp(ulid_flake, ulid_flake) RETURNS integer
	AS 'btint8cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_sortsupport(internal) RETURNS void
	AS 'btint8sortsupport' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_hash(ulid_flake) RETURNS integer
	AS 'hashint8' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_hash_extended(ulid_flake, bigint) RETURNS bigint
	AS 'hashint8extended' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_smaller(ulid_flake, ulid_flake) RETURNS ulid_flake
	AS 'int8smaller' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_larger(ulid_flake, ulid_flake) RETURNS ulid_flake
	AS 'int8larger' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR pg_catalog.= (
	LEFTARG = ulid_flake, RIGHTARG = ulid_flake, FUNCTION = ulid_flake_eq,
	COMMUTATOR = OPERATOR(pg_catalog.=), NEGATOR = OPERATOR(pg_catalog.<>),
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR pg_catalog.<> (
	LEFTARG = ulid_flake, RIGHTARG = ulid_flake, FUNCTION = ulid_flake_ne,
	COMMUTATOR = OPERATOR(pg_catalog.<>), NEGATOR = OPERATOR(pg_catalog.=),
	RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR pg_catalog.< (
	LEFTARG = ulid_flake, RIGHTARG = ulid_flake, FUNCTION = ulid_flake_lt,
	COMMUTATOR = OPERATOR(pg_catalog.>), NEGATOR = OPERATOR(pg_catalog.>=),
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR pg_catalog.<= (
	LEFTARG = ulid_flake, RIGHTARG = ulid_flake, FUNCTION = ulid_flake_le,
	COMMUTATOR = OPERATOR(pg_catalog.>=), NEGATOR = OPERATOR(pg_catalog.>),
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR pg_catalog.> (
	LEFTARG = ulid_flake, RIGHTARG = ulid_flake, FUNCTION = ulid_flake_gt,
	COMMUTATOR = OPERATOR(pg_catalog.<), NEGATOR = OPERATOR(pg_catalog.<=),
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR pg_catalog.>= (
	LEFTARG = ulid_flake, RIGHTARG = ulid_flake, FUNCTION = ulid_flake_ge,
	COMMUTATOR = OPERATOR(pg_catalog.<=), NEGATOR = OPERATOR(pg_catalog.<),
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS ulid_flake_ops
	DEFAULT FOR TYPE ulid_flake USING btree AS
		OPERATOR 1 <,
		OPERATOR 2 <=,
		OPERATOR 3 =,
		OPERATOR 4 >=,
		OPERATOR 5 >,
		FUNCTION 1 ulid_flake_cmp(ulid_flake, ulid_flake),
		FUNCTION 2 ulid_flake_sortsupport(internal),
		FUNCTION 4 pg_catalog.btequalimage(oid);

CREATE OPERATOR CLASS ulid_flake_ops
	DEFAULT FOR TYPE ulid_flake USING hash AS
		OPERATOR 1 =,
		FUNCTION 1 ulid_flake_hash(ulid_flake),
		FUNCTION 2 ulid_flake_hash_extended(ulid_flake, bigint);

CREATE AGGREGATE pg_catalog.min(ulid_flake) (
	SFUNC = ulid_flake_smaller, STYPE = ulid_flake, COMBINEFUNC = ulid_flake_smaller,
	SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE pg_catalog.max(ulid_flake) (
	SFUNC = ulid_flake_larger, STYPE = ulid_flake, COMBINEFUNC = ulid_flake_larger,
	SORTOP = >, PARALLEL = SAFE
);

-- casts: to bigint is the same bits; from bigint rejects negative values
CREATE FUNCTION ulid_flake_from_bigint(bigint) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (ulid_flake AS bigint) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (bigint AS ulid_flake) WITH FUNCTION ulid_flake_from_bigint(bigint) AS ASSIGNMENT;

CREATE FUNCTION ulid_flake_to_text(ulid_flake) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_flake_from_text(text) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (ulid_flake AS text) WITH FUNCTION ulid_flake_to_text(ulid_flake) AS ASSIGNMENT;
CREATE CAST (text AS ulid_flake) WITH FUNCTION ulid_flake_from_text(text);

CREATE FUNCTION ulid_flake_is_valid(text) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION ulid_flake_timestamp(ulid_flake) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_unix_ms(ulid_flake) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_randomness(ulid_flake, scalable boolean DEFAULT false) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_node_id(ulid_flake) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_lower(timestamptz) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_upper(timestamptz) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_from_parts(unix_ms bigint, randomness integer, node_id integer DEFAULT NULL)
	RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE CAST (ulid_flake AS timestamptz) WITH FUNCTION ulid_flake_timestamp(ulid_flake);
CREATE CAST (timestamptz AS ulid_flake) WITH FUNCTION ulid_flake_lower(timestamptz);

CREATE FUNCTION ulid_flake_generate() RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
CREATE FUNCTION ulid_flake_generate(timestamptz) RETURNS ulid_flake
	AS 'MODULE_PATHNAME', 'ulid_flake_generate_at' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_flake_generate_scalable() RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
CREATE FUNCTION ulid_flake_generate_scalable(node_id integer) RETURNS ulid_flake
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION ulid_flake_generate() IS 'new ulid_flake (stand-alone layout), strictly increasing across the server';
COMMENT ON FUNCTION ulid_flake_generate_scalable() IS 'new ulid_flake (scalable layout) for node ulid.flake_node_id, strictly increasing across the server';

--
-- BRIN: minmax (default) everywhere; minmax-multi and bloom where core has
-- them (PostgreSQL 14 and later).  The support functions are core's.
--

CREATE OPERATOR CLASS ulid_minmax_ops
	DEFAULT FOR TYPE ulid USING brin AS
		OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
		FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
		FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
		FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
		FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

CREATE OPERATOR CLASS ulid_flake_minmax_ops
	DEFAULT FOR TYPE ulid_flake USING brin AS
		OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
		FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
		FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
		FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
		FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

DO $do$
DECLARE
	t record;
BEGIN
	IF current_setting('server_version_num')::int < 140000 THEN
		RETURN;
	END IF;
	FOR t IN VALUES ('ulid', 'uuid'), ('ulid_flake', 'int8') LOOP
		EXECUTE format($sql$
			CREATE FUNCTION %1$s_minmax_multi_distance(internal, internal) RETURNS float8
				AS 'brin_minmax_multi_distance_%2$s' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
			CREATE OPERATOR CLASS %1$s_minmax_multi_ops
				FOR TYPE %1$s USING brin AS
					OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
					FUNCTION 1 pg_catalog.brin_minmax_multi_opcinfo(internal),
					FUNCTION 2 pg_catalog.brin_minmax_multi_add_value(internal, internal, internal, internal),
					FUNCTION 3 pg_catalog.brin_minmax_multi_consistent(internal, internal, internal, integer),
					FUNCTION 4 pg_catalog.brin_minmax_multi_union(internal, internal, internal),
					FUNCTION 5 pg_catalog.brin_minmax_multi_options(internal),
					FUNCTION 11 %1$s_minmax_multi_distance(internal, internal);
			CREATE OPERATOR CLASS %1$s_bloom_ops
				FOR TYPE %1$s USING brin AS
					OPERATOR 1 =,
					FUNCTION 1 pg_catalog.brin_bloom_opcinfo(internal),
					FUNCTION 2 pg_catalog.brin_bloom_add_value(internal, internal, internal, internal),
					FUNCTION 3 pg_catalog.brin_bloom_consistent(internal, internal, internal, integer),
					FUNCTION 4 pg_catalog.brin_bloom_union(internal, internal, internal),
					FUNCTION 5 pg_catalog.brin_bloom_options(internal),
					FUNCTION 11 %1$s_hash(%1$s);
		$sql$, t.column1, t.column2);
	END LOOP;
END
$do$;
