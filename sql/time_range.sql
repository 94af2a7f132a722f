--
-- Time ranges by id: "id <@ tstzrange(a, b)" for both types, answered by an
-- index on id through the planner support function, and exactly what the
-- ids' times say, whatever the bounds (inclusive, exclusive, infinite,
-- empty).
--
SET TimeZone = 'UTC';
CREATE TABLE tr (n int, id ulid PRIMARY KEY, f ulid_flake UNIQUE);
-- 20,000 ids over 2024, and ids on and beside the bounds used below
INSERT INTO tr
SELECT i, ulid_from_parts(ms, decode(lpad(to_hex(i), 20, '0'), 'hex')), ulid_flake_from_parts(ms, i)
  FROM (SELECT i, 1704067200000 + (i::bigint * 1577003) % 31536000000 AS ms
          FROM generate_series(1, 20000) i) s;
INSERT INTO tr
SELECT 100000 + i, ulid_from_parts(ms, decode(lpad(to_hex(i), 20, '0'), 'hex')),
       ulid_flake_from_parts(ms, 100000 + i)
  FROM (VALUES (1, 1717199999999), (2, 1717200000000), (3, 1717200000001),
               (4, 1719791999999), (5, 1719792000000)) v(i, ms);  -- 2024-06-01 and 2024-07-01 00:00Z, ±1 ms
CREATE INDEX tr_brin ON tr USING brin (id);
ANALYZE tr;

-- the plans: a range of ids on the btree index, the operator rechecked
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tr WHERE id <@ tstzrange('2024-06-01Z', '2024-07-01Z');
EXPLAIN (COSTS OFF) SELECT count(*) FROM tr WHERE f <@ tstzrange('2024-06-01Z', '2024-07-01Z', '[]');
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tr WHERE id <@ tstzrange('2024-06-01Z', NULL);
RESET enable_indexscan;
DROP INDEX tr_brin;
RESET enable_seqscan;

-- the bounds the index gets, exact: the first and last millisecond whose
-- start is in the range (an exclusive bound on a millisecond's start leaves
-- that millisecond out); NULL where no millisecond of the type is in it
SELECT r, ulid_range_min(r), ulid_range_max(r), ulid_flake_range_min(r), ulid_flake_range_max(r)
  FROM (VALUES (tstzrange('2024-06-01Z', '2024-07-01Z')),
               (tstzrange('2024-06-01Z', '2024-07-01Z', '(]')),
               (tstzrange('2024-06-01 00:00:00.0005Z', '2024-06-01 00:00:00.0015Z', '[]')),
               (tstzrange('2024-06-01 00:00:00.0002Z', '2024-06-01 00:00:00.0008Z', '[]')),
               (tstzrange('2024-06-01 00:00:00.001Z', '2024-06-01 00:00:00.002Z', '()')),
               (tstzrange('2024-06-01 00:00:00.001Z', '2024-06-01 00:00:00.001Z', '[]')),
               (tstzrange(NULL, '2024-07-01Z')), (tstzrange('-infinity', 'infinity')),
               (tstzrange('-infinity', '-infinity', '[]')), (tstzrange('infinity', 'infinity', '[]')),
               (tstzrange('1960-01-01Z', '1961-01-01Z')), (tstzrange('1969-12-31 23:59:59.9995Z', '1970-01-01 00:00:00.001Z')),
               (tstzrange('2400-01-01Z', NULL)), (tstzrange('2023-12-31 23:59:59.9999Z', '2024-01-01 00:00:00.0001Z')),
               ('empty'::tstzrange)) v(r);
-- as their names invite: BETWEEN them gives exactly the ids in the range
SELECT b, count(*) FILTER (WHERE id BETWEEN ulid_range_min(tstzrange('2024-06-01Z', '2024-07-01Z', b))
                                       AND ulid_range_max(tstzrange('2024-06-01Z', '2024-07-01Z', b))) AS ulid,
       count(*) FILTER (WHERE f BETWEEN ulid_flake_range_min(tstzrange('2024-06-01Z', '2024-07-01Z', b))
                                    AND ulid_flake_range_max(tstzrange('2024-06-01Z', '2024-07-01Z', b))) AS flake
  FROM tr, (VALUES ('[)'), ('(]'), ('[]'), ('()')) v(b) WHERE n > 100000 GROUP BY b ORDER BY b;

-- exact: on the edges, and on 2,000 ranges of every kind, the index gives
-- what the ids' times give (ulid_timestamp(id) <@ r, which no index answers)
SELECT b, count(*) FILTER (WHERE id <@ tstzrange('2024-06-01Z', '2024-07-01Z', b)) AS ulid,
       count(*) FILTER (WHERE f <@ tstzrange('2024-06-01Z', '2024-07-01Z', b)) AS flake
  FROM tr, (VALUES ('[)'), ('(]'), ('[]'), ('()')) v(b) WHERE n > 100000 GROUP BY b ORDER BY b;
SELECT setseed(0.5);
CREATE TEMP TABLE ranges AS
SELECT k, tstzrange(CASE WHEN k % 11 = 0 THEN NULL WHEN k % 13 = 0 THEN '-infinity'::timestamptz ELSE a END,
                    CASE WHEN k % 7 = 0 THEN NULL WHEN k % 17 = 0 THEN 'infinity'::timestamptz ELSE a + w END,
                    (ARRAY['[)', '(]', '[]', '()'])[1 + k % 4]) AS r
  FROM (SELECT k, '2023-12-01Z'::timestamptz + random() * interval '400 days' AS a,
               CASE WHEN k % 5 = 0 THEN random() * interval '2 ms' ELSE random() * interval '30 days' END AS w
          FROM generate_series(1, 2000) k) s;
-- and 1,000 ranges whose bounds are ids' own times, or a microsecond
-- either side, with every kind of bound
INSERT INTO ranges
SELECT 10000 + k, tstzrange(least(a, b), greatest(a, b), (ARRAY['[)', '(]', '[]', '()'])[1 + k % 4])
  FROM (SELECT k, ulid_timestamp(x.id) + (k % 3 - 1) * interval '1 microsecond' AS a,
               ulid_timestamp(y.id) + ((k / 3) % 3 - 1) * interval '1 microsecond' AS b
          FROM generate_series(1, 1000) k
          JOIN tr x ON x.n = 1 + (k * 7919) % 20000
          JOIN tr y ON y.n = 1 + (k * 7919 + (k % 50) * 13) % 20000) s;
EXPLAIN (COSTS OFF) SELECT k, (SELECT count(*) FROM tr WHERE id <@ r) FROM ranges;
SET enable_seqscan = off;
CREATE TEMP TABLE by_index AS
SELECT k, (SELECT count(*) FROM tr WHERE id <@ r) AS ulid, (SELECT count(*) FROM tr WHERE f <@ r) AS flake,
       (SELECT count(*) FROM tr WHERE id BETWEEN ulid_range_min(r) AND ulid_range_max(r)) AS ulid_between,
       (SELECT count(*) FROM tr WHERE f BETWEEN ulid_flake_range_min(r) AND ulid_flake_range_max(r)) AS flake_between
  FROM ranges;
RESET enable_seqscan;
CREATE TEMP TABLE by_time AS
SELECT k, (SELECT count(*) FROM tr WHERE ulid_timestamp(id) <@ r) AS ulid,
       (SELECT count(*) FROM tr WHERE ulid_flake_timestamp(f) <@ r) AS flake
  FROM ranges;
SELECT count(*) AS ranges, sum(i.ulid) > 1000000 AS many_ids_found,
       count(*) FILTER (WHERE i.ulid <> t.ulid) AS ulid_mismatches,
       count(*) FILTER (WHERE i.flake <> t.flake) AS flake_mismatches,
       count(*) FILTER (WHERE i.ulid_between <> t.ulid) AS ulid_between_mismatches,
       count(*) FILTER (WHERE i.flake_between <> t.flake) AS flake_between_mismatches
  FROM by_index i JOIN by_time t USING (k);

-- a range from another table of a join: a nested loop of index scans, the
-- range taken from the outer row (a parameterized index scan)
CREATE TABLE windows (name text, r tstzrange);
INSERT INTO windows VALUES ('june', tstzrange('2024-06-01Z', '2024-07-01Z')),
                           ('first hour of july', tstzrange('2024-07-01Z', '2024-07-01 01:00Z', '[]')),
                           ('before ulid_flake', tstzrange('2023-01-01Z', '2024-01-01Z'));
ANALYZE windows;
EXPLAIN (COSTS OFF) SELECT w.name, count(*) FROM windows w JOIN tr ON tr.id <@ w.r GROUP BY w.name;
EXPLAIN (COSTS OFF) SELECT w.name, count(*) FROM windows w JOIN tr ON tr.f <@ w.r GROUP BY w.name;
SELECT w.name, count(*) FILTER (WHERE tr.id <@ w.r) AS ulid, count(*) FILTER (WHERE tr.f <@ w.r) AS flake,
       count(*) FILTER (WHERE ulid_timestamp(tr.id) <@ w.r) AS by_time
  FROM windows w CROSS JOIN tr GROUP BY w.name ORDER BY w.name;
-- but not a range that depends on the indexed row itself
EXPLAIN (COSTS OFF) SELECT count(*) FROM tr WHERE id <@ tstzrange(ulid_timestamp(id), NULL);

-- a column of a domain over ulid (or ulid_flake) uses its index too
CREATE DOMAIN event_id AS ulid;
CREATE DOMAIN event_flake AS ulid_flake CHECK (VALUE > '0000000000000');
CREATE TABLE events (id event_id PRIMARY KEY, f event_flake UNIQUE);
INSERT INTO events SELECT id, f FROM tr;
ANALYZE events;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE id <@ tstzrange('2024-06-01Z', '2024-07-01Z');
EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE f <@ tstzrange('2024-06-01Z', '2024-07-01Z');
SELECT count(*) FILTER (WHERE id <@ tstzrange('2024-06-01Z', '2024-07-01Z')) AS ulid,
       count(*) FILTER (WHERE f <@ tstzrange('2024-06-01Z', '2024-07-01Z')) AS flake
  FROM events;
RESET enable_seqscan;
DROP TABLE events, windows;
DROP DOMAIN event_id, event_flake;

-- which forms use the index: these do ...
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM tr WHERE id BETWEEN ulid_lower('2024-06-01Z') AND ulid_upper('2024-06-30 23:59:59.999Z');
EXPLAIN (COSTS OFF) SELECT * FROM tr WHERE id >= '2024-06-01Z'::timestamptz::ulid;
RESET enable_seqscan;
-- ... these cannot: the column is inside a function, which a plain index on
-- id does not hold (an expression index on ulid_timestamp(id) would)
EXPLAIN (COSTS OFF) SELECT * FROM tr WHERE id::timestamptz >= '2024-06-01Z';
RESET TimeZone;
DROP TABLE tr;
