/* pgx_ulid--0.2.2.sql: TEST-ONLY stand-in for pgx_ulid 0.2.2 */
\echo This is a test fixture of the ulid extension (test/suites/migrate_pgx_ulid.sh). \quit

--
-- pgx_ulid's SQL surface: the names, signatures, volatility, schema
-- placement and cast contexts that pgx_ulid 0.2.2 (pgrx 0.16) creates, as
-- far as a schema, a view or pg_dump can see them.  Everything is created
-- unqualified, hence in the extension's schema, operators and operator
-- classes included (that is what makes pg_dump print OPERATOR(schema.=)).
-- Written from pgx_ulid's src/lib.rs and pgrx's derive macros
-- (PostgresEq, PostgresOrd, PostgresHash), not copied.
--
-- The implementation is not pgx_ulid's: the functions are the ulid
-- extension's C functions ($libdir/ulid) and core's uuid functions, on a
-- 16-byte fixed-length type.  pgx_ulid's type is a varlena holding the
-- same 128 bits; nothing of the storage shows in a dump (COPY text).
-- Differences that a dump cannot show: pgx_ulid's hash function is
-- seahash (here uuid_hash), its text input error messages differ.
--

CREATE TYPE ulid;

CREATE FUNCTION ulid_in(cstring) RETURNS ulid
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS '$libdir/ulid', 'ulid_in';
CREATE FUNCTION ulid_out(ulid) RETURNS cstring
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS '$libdir/ulid', 'ulid_out';
-- binary I/O since 0.2.2 (#[pg_binary_protocol]): the 16 bytes
CREATE FUNCTION ulid_recv(internal) RETURNS ulid
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE internal AS 'uuid_recv';
CREATE FUNCTION ulid_send(input ulid) RETURNS bytea
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE internal AS 'uuid_send';

CREATE TYPE ulid (
	INPUT = ulid_in,
	OUTPUT = ulid_out,
	RECEIVE = ulid_recv,
	SEND = ulid_send,
	LIKE = uuid
);

-- #[derive(PostgresEq, PostgresOrd, PostgresHash)]: functions named
-- ulid_eq ... ulid_cmp, ulid_hash; IMMUTABLE PARALLEL SAFE, not LEAKPROOF
CREATE FUNCTION ulid_eq("left" ulid, "right" ulid) RETURNS bool
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE internal AS 'uuid_eq';
CREATE FUNCTION ulid_ne("left" ulid, "right" ulid) RETURNS bool
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE internal AS 'uuid_ne';
CREATE FUNCTION ulid_lt("left" ulid, "right" ulid) RETURNS bool
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE internal AS 'uuid_lt';
CREATE FUNCTION ulid_gt("left" ulid, "right" ulid) RETURNS bool
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE internal AS 'uuid_gt';
CREATE FUNCTION ulid_le("left" ulid, "right" ulid) RETURNS bool
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE internal AS 'uuid_le';
CREATE FUNCTION ulid_ge("left" ulid, "right" ulid) RETURNS bool
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE internal AS 'uuid_ge';
CREATE FUNCTION ulid_cmp("left" ulid, "right" ulid) RETURNS integer
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE internal AS 'uuid_cmp';
CREATE FUNCTION ulid_hash(value ulid) RETURNS integer
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE internal AS 'uuid_hash';

CREATE OPERATOR = (
	FUNCTION = ulid_eq, LEFTARG = ulid, RIGHTARG = ulid,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel,
	MERGES, HASHES
);
CREATE OPERATOR <> (
	FUNCTION = ulid_ne, LEFTARG = ulid, RIGHTARG = ulid,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
	FUNCTION = ulid_lt, LEFTARG = ulid, RIGHTARG = ulid,
	NEGATOR = >=, COMMUTATOR = >, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR > (
	FUNCTION = ulid_gt, LEFTARG = ulid, RIGHTARG = ulid,
	NEGATOR = <=, COMMUTATOR = <, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR <= (
	FUNCTION = ulid_le, LEFTARG = ulid, RIGHTARG = ulid,
	NEGATOR = >, COMMUTATOR = >=, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR >= (
	FUNCTION = ulid_ge, LEFTARG = ulid, RIGHTARG = ulid,
	NEGATOR = <, COMMUTATOR = <=, RESTRICT = scalargesel, JOIN = scalargejoinsel
);

-- pgrx: "<type>_btree_ops" and "<type>_hash_ops", each in a family of its
-- name; no sort support, no extended hash function (so no hash
-- partitioning by a pgx_ulid column)
CREATE OPERATOR FAMILY ulid_btree_ops USING btree;
CREATE OPERATOR CLASS ulid_btree_ops DEFAULT FOR TYPE ulid USING btree FAMILY ulid_btree_ops AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 ulid_cmp(ulid, ulid);
CREATE OPERATOR FAMILY ulid_hash_ops USING hash;
CREATE OPERATOR CLASS ulid_hash_ops DEFAULT FOR TYPE ulid USING hash FAMILY ulid_hash_ops AS
	OPERATOR 1 = (ulid, ulid),
	FUNCTION 1 ulid_hash(ulid);

-- generators: VOLATILE, PARALLEL UNSAFE (pgrx's defaults)
CREATE FUNCTION gen_monotonic_ulid() RETURNS ulid
	LANGUAGE c AS '$libdir/ulid', 'ulid_generate_shared';
-- not pgx_ulid's: what the ulid extension's C function keeps its
-- high-water mark in (without it, it warns); a member of this extension,
-- not a configuration sequence, so no dump shows it
CREATE SEQUENCE ulid_high_water_mark MINVALUE 0 START 0;
CREATE FUNCTION gen_ulid() RETURNS ulid
	LANGUAGE c AS '$libdir/ulid', 'ulid_generate_random';

-- conversions (#[pg_extern(immutable, parallel_safe)]), all STRICT
CREATE FUNCTION ulid_from_uuid(input uuid) RETURNS ulid
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS '$libdir/ulid', 'ulid_same_bytes';
CREATE FUNCTION ulid_to_uuid(input ulid) RETURNS uuid
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS '$libdir/ulid', 'ulid_same_bytes';
CREATE FUNCTION ulid_to_bytea(input ulid) RETURNS bytea
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS '$libdir/ulid', 'ulid_to_bytea';
-- the UTC wall time; timestamp and timestamptz share the representation
CREATE FUNCTION ulid_to_timestamp(input ulid) RETURNS timestamp
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS '$libdir/ulid', 'ulid_timestamp';
CREATE FUNCTION timestamp_to_ulid(input timestamp) RETURNS ulid
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS '$libdir/ulid', 'ulid_lower';
CREATE FUNCTION ulid_to_timestamptz(input ulid) RETURNS timestamptz
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS '$libdir/ulid', 'ulid_timestamp';
CREATE FUNCTION timestamptz_to_ulid(input timestamptz) RETURNS ulid
	IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS '$libdir/ulid', 'ulid_lower';

-- every cast IMPLICIT, as pgx_ulid's extension_sql! block has them
CREATE CAST (uuid AS ulid) WITH FUNCTION ulid_from_uuid(uuid) AS IMPLICIT;
CREATE CAST (ulid AS uuid) WITH FUNCTION ulid_to_uuid(ulid) AS IMPLICIT;
CREATE CAST (ulid AS bytea) WITH FUNCTION ulid_to_bytea(ulid) AS IMPLICIT;
CREATE CAST (ulid AS timestamp) WITH FUNCTION ulid_to_timestamp(ulid) AS IMPLICIT;
CREATE CAST (timestamp AS ulid) WITH FUNCTION timestamp_to_ulid(timestamp) AS IMPLICIT;
CREATE CAST (ulid AS timestamptz) WITH FUNCTION ulid_to_timestamptz(ulid) AS IMPLICIT;
CREATE CAST (timestamptz AS ulid) WITH FUNCTION timestamptz_to_ulid(timestamptz) AS IMPLICIT;
