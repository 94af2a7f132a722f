--
-- The ulid type: text I/O, vectors, invalid input, casts, operators,
-- indexes, joins, binary I/O.
--
\pset null '(null)'

-- the shared vectors (loaded by setup): every row decodes, prints canonical,
-- matches uuid and hex
SELECT id, input::ulid AS ulid, input::ulid::uuid AS uuid
  FROM ulid_vectors ORDER BY id;

SELECT id, input
  FROM ulid_vectors
 WHERE input::ulid::text IS DISTINCT FROM canonical
    OR input::ulid::uuid IS DISTINCT FROM uuid::uuid
    OR encode(input::ulid::bytea, 'hex') IS DISTINCT FROM hex32
    OR uuid::uuid::ulid IS DISTINCT FROM canonical::ulid;

-- either case in, upper case out
SELECT '01arz3ndektsv4rrffq69g5fav'::ulid AS lower,
       '01ArZ3nDeKtSv4RrFfQ69g5FaV'::ulid AS mixed,
       '7zzzzzzzzzzzzzzzzzzzzzzzzz'::ulid AS max;

-- every invalid input of the shared vectors, with its SQLSTATE
SELECT id, error_class, try_input(decode(coalesce(input_utf8_hex, ''), 'hex'), 'ulid') AS result
  FROM invalid_inputs WHERE format = 'ulid' ORDER BY id;

-- more bad input: whitespace, NUL-free control bytes, lengths around 26
SELECT to_json(input) AS input, try_input(convert_to(input, 'UTF8'), 'ulid') AS result
  FROM (VALUES (' 01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('01ARZ3NDEKTSV4RRFFQ69G5FAV '),
               (E'01ARZ3NDEKTSV4RRFFQ69G5FA\t'), ('01ARZ3NDEKTSV4RRFFQ69G5FAV0'),
               ('{01ARZ3NDEKTSV4RRFFQ69G5FA}'), ('01ARZ3NDEKTSV4RRFFQ69G5FAü'),
               ('Z0000000000000000000000000'), ('8ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
               ('0000000000000000000000000'), ('000000000000000000000000000')) v(input);

-- the full error report, as a client sees it
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FA'::ulid;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAU'::ulid;
SELECT '81ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
SELECT ulid_in(NULL);

-- ulid_is_valid agrees with the input function on every vector
SELECT ulid_is_valid(input) AS valid, count(*)
  FROM ulid_vectors GROUP BY 1;
SELECT id, ulid_is_valid(convert_from(decode(coalesce(input_utf8_hex, ''), 'hex'), 'UTF8')) AS valid
  FROM invalid_inputs WHERE format = 'ulid' AND id <> 'X22' ORDER BY id;
SELECT ulid_is_valid('01ARZ3NDEKTSV4RRFFQ69G5FAV'), ulid_is_valid('01ARZ3NDEKTSV4RRFFQ69G5FAU'),
       ulid_is_valid(''), ulid_is_valid(NULL);

-- comparison follows the numeric value, which is also text order
SELECT a, b, a = b AS eq, a <> b AS ne, a < b AS lt, a <= b AS le,
       a > b AS gt, a >= b AS ge, sign(ulid_cmp(a, b)) AS cmp
  FROM (VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid, '01ARZ3NDEKTSV4RRFFQ69G5FAW'::ulid),
               ('01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAV'),
               ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '00000000000000000000000000'),
               ('01BX5ZZKBKACTAV9WEVGEMMVRZ', '01BX5ZZKBKACTAV9WEVGEMMVS0')) v(a, b);

SELECT canonical::ulid AS id FROM ulid_vectors ORDER BY 1 LIMIT 6;
SELECT bool_and(canonical::ulid::text = canonical) AND
       array_agg(canonical ORDER BY canonical::ulid) = array_agg(canonical ORDER BY canonical COLLATE "C")
       AS text_order_is_ulid_order
  FROM ulid_vectors;
SELECT min(canonical::ulid), max(canonical::ulid) FROM ulid_vectors;
SELECT min(x), max(x) FROM (SELECT NULL::ulid) v(x);

-- hash functions are uuid's, so hash partitions of uuid and ulid agree
SELECT ulid_hash(u::uuid::ulid) = uuid_hash(u::uuid) AS same_hash,
       ulid_hash_extended(u::uuid::ulid, 42) = uuid_hash_extended(u::uuid, 42) AS same_extended
  FROM (VALUES ('01563e3a-b5d3-d676-4c61-efb99302bd5b')) v(u);

-- casts
SELECT '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid::ulid;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::bytea;
SELECT '\x01563e3ab5d3d6764c61efb99302bd5b'::bytea::ulid;
SELECT '\x01563e3ab5d3d6764c61efb99302bd'::bytea::ulid;
SELECT '\x01563e3ab5d3d6764c61efb99302bd5b00'::bytea::ulid;
SELECT castsource::regtype, casttarget::regtype, castmethod, castcontext
  FROM pg_cast
 WHERE castsource = 'ulid'::regtype OR casttarget = 'ulid'::regtype
 ORDER BY 1::text, 2::text;
-- the text casts are direct: same answers and same errors as the I/O functions
SELECT count(*) AS vectors,
       count(*) FILTER (WHERE input::text::ulid = input::ulid
                          AND input::ulid::text = canonical
                          AND input::ulid::varchar = canonical
                          AND input::varchar::ulid = input::ulid) AS same_via_text
  FROM ulid_vectors;
SELECT id, try_input(decode(coalesce(input_utf8_hex, ''), 'hex'), 'ulid') =
           try_input(decode(coalesce(input_utf8_hex, ''), 'hex'), 'text::ulid') AS same_error
  FROM invalid_inputs WHERE format = 'ulid' AND id <> 'X22' ORDER BY id;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FA'::text::ulid;
SELECT '81ARZ3NDEKTSV4RRFFQ69G5FAV'::text::ulid;
-- no implicit cast; a ulid compares with a uuid through cross-type operators
-- on the same bytes (compat suite), and not with text
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid;
-- assignment casts let a uuid column take ulids and back
CREATE TEMP TABLE uuid_col (u uuid);
INSERT INTO uuid_col VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid);
SELECT u FROM uuid_col;

-- converting a uuid or a text column in place
CREATE TABLE legacy (u uuid PRIMARY KEY, t text);
INSERT INTO legacy VALUES ('01563e3a-b5d3-d676-4c61-efb99302bd5b', '01arz3ndektsv4rrffq69g5fav'),
                          ('0195c9a1-0e22-1027-43f4-0b1ec21025b7', '01JQ4T23H220KM7X0B3V1109DQ');
ALTER TABLE legacy ALTER COLUMN u TYPE ulid USING u::ulid, ALTER COLUMN t TYPE ulid USING t::ulid;
SELECT u, t, pg_typeof(u), pg_typeof(t) FROM legacy ORDER BY u;
SELECT pg_get_indexdef('legacy_pkey'::regclass);
ALTER TABLE legacy ALTER COLUMN t TYPE text;   -- and back, by the assignment cast
SELECT t FROM legacy ORDER BY t;
DROP TABLE legacy;

-- a table keyed by ulid: index scans for equality and ORDER BY ... LIMIT
CREATE TABLE orders (id ulid PRIMARY KEY, note text);
INSERT INTO orders VALUES ('01arz3ndektsv4rrffq69g5fav', 'lower case is fine');
SELECT id FROM orders ORDER BY id;
SELECT id::uuid FROM orders;
INSERT INTO orders VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'duplicate');
INSERT INTO orders
SELECT ulid_from_parts(1700000000000 + i, decode(lpad(to_hex(i), 20, '0'), 'hex')), 'n' || i
  FROM generate_series(1, 10000) i;
ANALYZE orders;
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
SELECT * FROM orders WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
EXPLAIN (COSTS OFF) SELECT id FROM orders ORDER BY id LIMIT 10;
SELECT id FROM orders ORDER BY id DESC LIMIT 3;

-- joins on ulid columns: hash, merge and nested loop all work
CREATE TABLE payments (order_id ulid, amount int);
INSERT INTO payments SELECT id, length(note) FROM orders WHERE note LIKE 'n%5';
ANALYZE payments;
SET enable_mergejoin = off; SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders o JOIN payments p ON p.order_id = o.id;
SELECT count(*), sum(amount) FROM orders o JOIN payments p ON p.order_id = o.id;
SET enable_hashjoin = off; SET enable_mergejoin = on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders o JOIN payments p ON p.order_id = o.id;
SELECT count(*), sum(amount) FROM orders o JOIN payments p ON p.order_id = o.id;
SET enable_mergejoin = off; SET enable_nestloop = on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders o JOIN payments p ON p.order_id = o.id;
SELECT count(*), sum(amount) FROM orders o JOIN payments p ON p.order_id = o.id;
RESET enable_mergejoin; RESET enable_nestloop; RESET enable_hashjoin;

-- hash index, and hash partitioning (uses the extended hash function)
CREATE INDEX orders_hash ON orders USING hash (id);
SET enable_indexscan = off; SET enable_bitmapscan = on;
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
RESET enable_indexscan; RESET enable_bitmapscan;
DROP INDEX orders_hash;
CREATE TABLE orders_by_hash (id ulid PRIMARY KEY) PARTITION BY HASH (id);
CREATE TABLE orders_by_hash_0 PARTITION OF orders_by_hash FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE orders_by_hash_1 PARTITION OF orders_by_hash FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO orders_by_hash SELECT id FROM orders;
SELECT tableoid::regclass, count(*) FROM orders_by_hash GROUP BY 1 ORDER BY 1;
EXPLAIN (COSTS OFF) SELECT * FROM orders_by_hash WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

-- DISTINCT, GROUP BY, UNION use hashing or sorting
SELECT count(DISTINCT id), count(*) FROM (SELECT id FROM orders UNION ALL SELECT id FROM orders) s;

-- the binary wire format is uuid's: the 16 raw bytes
SELECT ulid_send('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS ulid_send,
       uuid_send('01563e3a-b5d3-d676-4c61-efb99302bd5b') AS uuid_send;

-- binary COPY round trip
\copy orders TO 'results/orders.bin' (FORMAT binary)
CREATE TABLE orders_copy (LIKE orders);
\copy orders_copy FROM 'results/orders.bin' (FORMAT binary)
SELECT count(*) AS rows, count(*) FILTER (WHERE o.id IS NULL) AS lost
  FROM orders_copy c LEFT JOIN orders o USING (id, note);
-- a binary value of the wrong length is an error, never a crash
CREATE TABLE short_bytes (b bytea);
INSERT INTO short_bytes VALUES ('\x01563e3ab5d3d6764c61efb99302bd'), ('\x01563e3ab5d3d6764c61efb99302bd5b00');
\copy (SELECT b FROM short_bytes LIMIT 1) TO 'results/short.bin' (FORMAT binary)
\copy (SELECT b FROM short_bytes OFFSET 1) TO 'results/long.bin' (FORMAT binary)
CREATE TABLE ulid_only (id ulid);
\copy ulid_only FROM 'results/short.bin' (FORMAT binary)
\copy ulid_only FROM 'results/long.bin' (FORMAT binary)
SELECT count(*) FROM ulid_only;

-- the btree and hash operator classes as the access methods' own validation
-- sees them: ulid's complete, ulid_flake's without core's bigint operators
-- (see compat and plans), as its INFO lines say
SELECT opcname, amname, amvalidate(c.oid)
  FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
 WHERE opcintype IN ('ulid'::regtype, 'ulid_flake'::regtype) AND amname IN ('btree', 'hash')
 ORDER BY opcname, amname;

-- operators carry commutators, negators, estimators, MERGES and HASHES
-- (not MERGES: the cross-type "=", see compat)
SELECT oprname, oprcom::regoperator, oprnegate::regoperator, oprrest, oprjoin,
       oprcanmerge, oprcanhash
  FROM pg_operator WHERE oprleft = 'ulid'::regtype ORDER BY oprname;

DROP TABLE orders, payments, orders_copy, orders_by_hash, short_bytes, ulid_only;

-- Functions that call core's (ULID_CALLS_CORE in src/) carry core's labels:
-- no LEAKPROOF, volatility, parallel safety or strictness that core's
-- function does not have.  Each C symbol, with the core function it calls:
CREATE TEMP TABLE calls_core (symbol text, core name);
INSERT INTO calls_core VALUES
  ('ulid_recv', 'uuid_recv'),
  ('ulid_send', 'uuid_send'),
  ('ulid_eq', 'uuid_eq'),
  ('ulid_ne', 'uuid_ne'),
  ('ulid_lt', 'uuid_lt'),
  ('ulid_le', 'uuid_le'),
  ('ulid_gt', 'uuid_gt'),
  ('ulid_ge', 'uuid_ge'),
  ('ulid_cmp', 'uuid_cmp'),
  ('ulid_hash', 'uuid_hash'),
  ('ulid_hash_extended', 'uuid_hash_extended'),
  ('ulid_minmax_multi_distance', 'brin_minmax_multi_distance_uuid'),
  ('ulid_skipsupport', 'uuid_skipsupport'),
  ('ulid_flake_send', 'int8send'),
  ('ulid_flake_eq', 'int8eq'),
  ('ulid_flake_ne', 'int8ne'),
  ('ulid_flake_lt', 'int8lt'),
  ('ulid_flake_le', 'int8le'),
  ('ulid_flake_gt', 'int8gt'),
  ('ulid_flake_ge', 'int8ge'),
  ('ulid_flake_cmp', 'btint8cmp'),
  ('ulid_flake_sortsupport', 'btint8sortsupport'),
  ('ulid_flake_hash', 'hashint8'),
  ('ulid_flake_hash_extended', 'hashint8extended'),
  ('ulid_flake_smaller', 'int8smaller'),
  ('ulid_flake_larger', 'int8larger'),
  ('ulid_flake_minmax_multi_distance', 'brin_minmax_multi_distance_int8'),
  ('ulid_flake_skipsupport', 'btint8skipsupport');
SELECT p.oid::regprocedure AS ours, k.core, c.oid::regprocedure AS cores
  FROM pg_proc p
  JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
  JOIN calls_core k ON k.symbol = p.prosrc AND p.probin = '$libdir/ulid'
  LEFT JOIN pg_proc c ON c.proname = k.core AND c.pronamespace = 'pg_catalog'::regnamespace
 WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
   AND (p.proleakproof, p.provolatile, p.proparallel, p.proisstrict)
       IS DISTINCT FROM (c.proleakproof, c.provolatile, c.proparallel, c.proisstrict);
-- 52 on every major (14 adds the BRIN minmax-multi distances, 18 skip
-- support): the comparisons, hashes and send functions, ulid's receive,
-- ulid_flake's sort support, min and max; 28 of them cross-type comparisons
SELECT count(*) AS calling_core,
       count(*) FILTER (WHERE p.proname ~ '_(eq|ne|lt|le|gt|ge|cmp)_(uuid|int8)$|^(uuid|int8)_') AS cross_type
  FROM pg_proc p
  JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
  JOIN calls_core k ON k.symbol = p.prosrc AND p.probin = '$libdir/ulid'
 WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
   AND k.symbol !~ 'minmax_multi|skipsupport';
DROP TABLE calls_core;
-- and none is an alias of core's (LANGUAGE internal), which fmgr would look
-- up by name among all the builtins each time
SELECT count(*) AS internal, string_agg(p.oid::regprocedure::text, ' ') AS functions
  FROM pg_proc p
  JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
 WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
   AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'internal') AND p.prokind <> 'a';
-- and the only LEAKPROOF functions are the comparisons, as for uuid and int8
SELECT count(*) FILTER (WHERE p.proleakproof) AS leakproof,
       string_agg(p.proname, ' ' ORDER BY p.proname)
         FILTER (WHERE p.proleakproof AND p.proname !~ '_(eq|ne|lt|le|gt|ge|cmp)(_|$)') AS not_comparisons
  FROM pg_proc p
  JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
 WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid');
