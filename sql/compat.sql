--
-- Coming from pgx_ulid, uuid and bigint: pgx_ulid's README queries verbatim,
-- its function names, casts to timestamp, the cross-type operators (with
-- the indexes that answer them), function-style casts.
--

-- pgx_ulid's README, as written there
CREATE TABLE users (
  id ulid NOT NULL DEFAULT gen_monotonic_ulid() PRIMARY KEY,
  name text NOT NULL
);
INSERT INTO users (id, name) VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'first');
INSERT INTO users (name) SELECT 'user ' || i FROM generate_series(1, 1000) i;
INSERT INTO users (id, name)
SELECT ulid_from_parts(1694736000000 + i * 3600000, '\x00000000000000000001'), 'sept ' || i
  FROM generate_series(0, 47) i;    -- 2023-09-15 00:00Z, hourly for two days
SELECT * FROM users WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
ALTER TABLE users
ADD COLUMN created_at timestamp GENERATED ALWAYS AS (id::timestamp) STORED;
SELECT name, created_at FROM users WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
-- gets all users where the ID was created on 2023-09-15, without using another column and taking advantage of the index
SELECT count(*), min(created_at), max(created_at) FROM users WHERE id BETWEEN '2023-09-15'::timestamp::ulid AND '2023-09-16'::timestamp::ulid;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF)
SELECT * FROM users WHERE id BETWEEN '2023-09-15'::timestamp::ulid AND '2023-09-16'::timestamp::ulid;
RESET enable_seqscan;

-- ulid -> timestamp is UTC wall time whatever the TimeZone, so IMMUTABLE
SET TimeZone = 'America/New_York';
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamp AS wall_utc,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamptz AS in_new_york,
       '2016-07-30 23:54:10.259'::timestamp::ulid AS from_timestamp;
RESET TimeZone;
SELECT p.oid::regprocedure, provolatile, proparallel
  FROM pg_proc p
 WHERE proname IN ('ulid_to_timestamp', 'timestamp_to_ulid', 'ulid_to_timestamptz',
                   'timestamptz_to_ulid', 'ulid_from_uuid', 'ulid_to_uuid', 'ulid_to_bytea')
 ORDER BY 1::text;
CREATE INDEX users_created ON users ((id::timestamp));

-- pgx_ulid's function names, with pgx_ulid's meaning
SELECT ulid_to_timestamp('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS ulid_to_timestamp,
       timestamp_to_ulid('2016-07-30 23:54:10.259') AS timestamp_to_ulid,
       ulid_to_timestamptz('01ARZ3NDEKTSV4RRFFQ69G5FAV') = '2016-07-30 23:54:10.259Z' AS ulid_to_timestamptz,
       timestamptz_to_ulid('2016-07-30 23:54:10.259Z') AS timestamptz_to_ulid;
SELECT ulid_to_uuid('01GV5PA9EQG7D82Q3Y4PKBZSYV') AS ulid_to_uuid,
       ulid_from_uuid('0186cb65-25d7-81da-815c-7e25a6bfe7db') AS ulid_from_uuid,
       ulid_to_bytea('01GV5PA9EQG7D82Q3Y4PKBZSYV') AS ulid_to_bytea;

-- gen_monotonic_ulid() is one generator for the server (PARALLEL SAFE);
-- each id above the one before, also across statements
SELECT count(*) FILTER (WHERE id <= prev) AS out_of_order, count(DISTINCT id) AS ids
  FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
          FROM (SELECT n, gen_monotonic_ulid() AS id FROM generate_series(1, 10000) n) g) s;
SELECT gen_monotonic_ulid() > (SELECT max(id) FROM users) AS above_every_earlier_id;

-- ulid against uuid: pgx_ulid's implicit casts let "ulid_col = uuid_col"
-- resolve, and pg_dump prints such a view without a cast
CREATE TABLE legacy (uid uuid PRIMARY KEY, note text);
INSERT INTO legacy SELECT id::uuid, name FROM users WHERE name LIKE 'sept%';
SELECT count(*) FROM users u JOIN legacy l ON u.id = l.uid;
SELECT count(*) FROM users u JOIN legacy l ON l.uid = u.id;
CREATE VIEW matched AS SELECT u.name, l.note FROM users u JOIN legacy l ON u.id = l.uid;
SELECT pg_get_viewdef('matched');
SELECT count(*) FROM matched;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM users WHERE id = '0186cb65-25d7-81da-815c-7e25a6bfe7db'::uuid;
-- an index on the uuid side is core's uuid_ops, which knows nothing of ulid:
-- there, cast the ulid
EXPLAIN (COSTS OFF) SELECT * FROM legacy WHERE uid < '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid;
RESET enable_seqscan;
EXPLAIN (COSTS OFF) SELECT * FROM legacy WHERE uid < '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid < '01563e3a-b5d3-d676-4c61-efb99302bd5c'::uuid AS lt,
       '01563e3a-b5d3-d676-4c61-efb99302bd5c'::uuid = '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid AS eq,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid <> '00000000-0000-0000-0000-000000000000'::uuid AS ne;
-- a literal without a type is still a ulid, not ambiguous
SELECT count(*) FROM users WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

-- ulid_flake against bigint
CREATE TABLE flake_rows (id ulid_flake PRIMARY KEY, n int);
INSERT INTO flake_rows SELECT ulid_flake_from_parts(1717653966666 + i, i), i FROM generate_series(1, 2000) i;
INSERT INTO flake_rows VALUES ('00CMXB6TAK4SA', 0);
SELECT id, id::bigint AS as_bigint FROM flake_rows WHERE n IN (0, 7) ORDER BY n;
SELECT n FROM flake_rows WHERE id = 14246757444195114;
SELECT n FROM flake_rows WHERE id = 14246757444195114::bigint;
SELECT count(*) FROM flake_rows WHERE id > 14246757444195114 AND 14246757450907655 >= id;
SELECT count(*) FROM flake_rows WHERE id = 42;   -- an int4 literal widens to bigint
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM flake_rows WHERE id = 14246757444195114;
EXPLAIN (COSTS OFF) SELECT n FROM flake_rows WHERE id >= 14246757444195114;
SET enable_hashjoin = off; SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM flake_rows f JOIN (VALUES (14246757444195114::bigint)) v(b) ON f.id = v.b;
RESET enable_hashjoin; RESET enable_mergejoin; RESET enable_seqscan;
CREATE TABLE flake_hash (id ulid_flake);
CREATE INDEX ON flake_hash USING hash (id);
INSERT INTO flake_hash SELECT id FROM flake_rows;
SET enable_seqscan = off; SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM flake_hash WHERE id = 14246757444195114;
SELECT count(*) FROM flake_hash WHERE id = 14246757444195114;
RESET enable_seqscan; RESET enable_bitmapscan;
-- hash join between the types: hashes agree
SET enable_mergejoin = off; SET enable_nestloop = off;
SELECT count(*) FROM flake_rows f JOIN (SELECT id::bigint AS b FROM flake_rows) v ON f.id = v.b;
SELECT count(*) FROM users u JOIN legacy l ON u.id = l.uid;
RESET enable_mergejoin; RESET enable_nestloop;

-- a join on a cross-type "=" with hash joins off still plans: it is not
-- mergejoinable (our families hold no uuid sort operator to sort that side)
SET enable_hashjoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM users u JOIN legacy l ON u.id = l.uid;
SELECT count(*) FROM users u JOIN legacy l ON u.id = l.uid;
RESET enable_hashjoin;

-- ulid_flake's families hold no bigint operator (sql/plans.sql shows why),
-- and amvalidate finds them incomplete; ulid's hold uuid's, which changes
-- no plan and lets a uuid column reference a ulid key
SELECT o.amopopr::regoperator AS core_operator_in_our_family
  FROM pg_amop o JOIN pg_opfamily f ON f.oid = o.amopfamily
 WHERE f.opfname IN ('ulid_ops', 'ulid_flake_ops')
   AND o.amoplefttype IN ('uuid'::regtype, 'bigint'::regtype)
   AND o.amoprighttype IN ('uuid'::regtype, 'bigint'::regtype);
SELECT c.opcname, a.amname, amvalidate(c.oid) AS valid,
       (SELECT count(*) FROM pg_amop o WHERE o.amopfamily = c.opcfamily) AS operators,
       (SELECT count(*) FROM pg_amproc p WHERE p.amprocfamily = c.opcfamily AND p.amprocnum <> 6)
           AS functions_but_skip_support
  FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
 WHERE c.opcname IN ('ulid_ops', 'ulid_flake_ops')
 ORDER BY 1, 2;
-- and bigint and uuid keep core's sort support and RANGE offsets
SELECT sum(x) OVER (ORDER BY x RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM generate_series(1::bigint, 3) x;

-- function-style casts, as for core's types
SELECT text(id), ulid('01arz3ndektsv4rrffq69g5fav') FROM users WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SELECT text(ulid_flake('00CMXB6TAK4SA')), ulid_flake(14246757444195114), int8(ulid_flake('00CMXB6TAK4SA')),
       uuid(ulid('01ARZ3NDEKTSV4RRFFQ69G5FAV'));

-- what users paste by mistake gets a HINT with the cast that works; lengths
-- are counted in characters
SELECT '01563e3a-b5d3-d676-4c61-efb99302bd5b'::ulid;
SELECT '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid::ulid;
SELECT '14246757444195114'::ulid_flake;
SELECT '14246757444195114'::bigint::ulid_flake;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FÄ'::ulid;
SELECT 'ÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄÄ'::ulid;

DROP VIEW matched;
DROP TABLE users, legacy, flake_rows, flake_hash;
