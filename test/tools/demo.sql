-- ulid: a tour in one throwaway database.  Every statement is shown with its result.
\set ECHO all
\pset null '(null)'
SET TimeZone = 'UTC';
CREATE EXTENSION ulid;

-- 1. A primary key that sorts by creation time: 26 characters, 16 bytes.
CREATE TABLE events (id ulid PRIMARY KEY DEFAULT ulid_generate(), payload text);
INSERT INTO events (payload) SELECT 'event ' || i FROM generate_series(1, 5) i;
SELECT id, payload FROM events ORDER BY id;

-- 2. Every id carries its creation time; within one session ids only go up.
SELECT id, id::timestamptz AS created, ulid_unix_ms(id) AS unix_ms FROM events ORDER BY id DESC LIMIT 2;

-- 3. Text in either case; uuid out and back (the same 16 bytes).
SELECT '01arz3ndektsv4rrffq69g5fav'::ulid AS ulid,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid AS as_uuid,
       '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid::ulid AS from_uuid;

-- 4. Bad input is rejected with the error a core type would give (the one
--    error of this tour, on purpose).
\echo '(the next statement fails on purpose)'
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAU'::ulid;
SELECT ulid_is_valid('01ARZ3NDEKTSV4RRFFQ69G5FAU') AS valid;

-- 5. Time ranges by id: the primary key index serves them.
INSERT INTO events SELECT ulid_generate(timestamptz '2025-01-01Z' + i * interval '1 hour'), 'backfill'
  FROM generate_series(0, 2000) i;
ANALYZE events;
EXPLAIN (COSTS OFF) SELECT count(*) FROM events
 WHERE id >= ulid_lower('2025-01-10Z') AND id < ulid_lower('2025-01-11Z');
SELECT count(*) FROM events WHERE id >= ulid_lower('2025-01-10Z') AND id < ulid_lower('2025-01-11Z');

-- 6. Ulid-Flake: 64-bit ids that fit a bigint and read as 13 characters.
CREATE TABLE tickets (id ulid_flake PRIMARY KEY DEFAULT ulid_flake_generate(), title text);
INSERT INTO tickets (title) VALUES ('first'), ('second');
SELECT id, id::bigint AS as_bigint, id::timestamptz AS created, title FROM tickets ORDER BY id;
SELECT '00CMXB6TAK4SA'::ulid_flake::bigint AS spec_example, 14246757444195114::bigint::ulid_flake AS back;

-- 7. One writer node among up to 32: the scalable layout carries a node id.
SET ulid.flake_node_id = 7;
SELECT id, ulid_flake_node_id(id) AS node FROM (SELECT ulid_flake_generate_scalable() AS id) s;
