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

-- the bounds the index gets
SELECT r, ulid_range_min(r), ulid_range_max(r), ulid_flake_range_min(r), ulid_flake_range_max(r)
  FROM (VALUES (tstzrange('2024-06-01Z', '2024-07-01Z')),
               (tstzrange('2024-06-01 00:00:00.0005Z', '2024-06-01 00:00:00.0015Z', '[]')),
               (tstzrange(NULL, '2024-07-01Z')), (tstzrange('-infinity', 'infinity')),
               (tstzrange('1960-01-01Z', '1961-01-01Z')), ('empty'::tstzrange)) v(r);

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
EXPLAIN (COSTS OFF) SELECT k, (SELECT count(*) FROM tr WHERE id <@ r) FROM ranges;
SET enable_seqscan = off;
CREATE TEMP TABLE by_index AS
SELECT k, (SELECT count(*) FROM tr WHERE id <@ r) AS ulid, (SELECT count(*) FROM tr WHERE f <@ r) AS flake
  FROM ranges;
RESET enable_seqscan;
SELECT count(*) AS ranges, sum(i.ulid) > 1000000 AS many_ids_found,
       count(*) FILTER (WHERE i.ulid <> (SELECT count(*) FROM tr WHERE ulid_timestamp(id) <@ g.r)) AS ulid_mismatches,
       count(*) FILTER (WHERE i.flake <> (SELECT count(*) FROM tr WHERE ulid_flake_timestamp(f) <@ g.r)) AS flake_mismatches
  FROM by_index i JOIN ranges g USING (k);

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
