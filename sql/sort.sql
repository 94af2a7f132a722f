--
-- Sort order.  ulid has sort support of its own (an abbreviated key made for
-- monotonic runs, see src/ulid.c); whatever it does, ORDER BY id, an index
-- build and a merge join must give the order of the 16 bytes: the order of
-- ::bytea and of ::uuid.  Each case is inserted in a chosen order, since the
-- first id of a millisecond that the sort meets is that millisecond's anchor.
--
SET max_parallel_workers_per_gather = 0;
SET max_parallel_maintenance_workers = 0;

CREATE TABLE sorted (id ulid, kind text);

-- id with 6-byte time t_hex and 10-byte randomness random_hex
CREATE FUNCTION pg_temp.id(t_hex text, random_hex text) RETURNS ulid
	LANGUAGE sql AS $$ SELECT decode(lpad(t_hex, 12, '0') || lpad(random_hex, 20, '0'), 'hex')::ulid $$;

-- rows where ORDER BY id differs from the order of the bytes
CREATE FUNCTION pg_temp.misplaced(of_kind text) RETURNS bigint LANGUAGE sql AS $$
	SELECT count(*) FROM
		(SELECT id, row_number() OVER (ORDER BY id) AS n FROM sorted WHERE kind LIKE of_kind) a
	JOIN (SELECT id, row_number() OVER (ORDER BY id::bytea) AS n FROM sorted WHERE kind LIKE of_kind) b
		USING (n)
	WHERE a.id::bytea <> b.id::bytea
$$;

-- 1. One millisecond, one monotonic run of 3,000, its first id in the middle
-- of the input: ids below and above the anchor.
INSERT INTO sorted
SELECT pg_temp.id('0190a1b2c3d4', to_hex(1000000 + i)), 'one run'
  FROM generate_series(0, 2999) i ORDER BY abs(i - 1500), i;

-- 2. Around the anchor (the first of each millisecond): 2^21, the near
-- range, and one either side, up and down; across a carry out of the low 64
-- bits of the randomness and at its top.
INSERT INTO sorted
SELECT pg_temp.id(t, lpad(to_hex(high), 4, '0') || lpad(to_hex(lo), 16, '0')), 'anchor edges'
  FROM (VALUES ('0190a1b2c3d5', 0, 9223372036854775807 - 100),	-- low half just under 2^63
			   ('0190a1b2c3d6', 7, -3000000),					-- low half near 2^64: carries
			   ('0190a1b2c3d7', 65535, -1)) a(t, hi, anchor_low),
	   unnest(ARRAY[0, 1, -1, 2097151, 2097152, 2097153, -2097151, -2097152, -2097153,
					5000000, 5000001, -4999999]) WITH ORDINALITY d(delta, pos),
	   LATERAL (SELECT anchor_low::numeric + delta AS low_value) v,
	   LATERAL (SELECT hi + floor(low_value / 18446744073709551616)::int AS high,
					   ((low_value % 18446744073709551616 + 18446744073709551616) % 18446744073709551616) AS lo_u) w,
	   LATERAL (SELECT CASE WHEN lo_u >= 9223372036854775808 THEN (lo_u - 18446744073709551616)::int8
							 ELSE lo_u::int8 END AS lo) x
 WHERE high BETWEEN 0 AND 65535
 ORDER BY t, pos;

-- 3. All equal first 8 bytes, differing in the last 8 only.
INSERT INTO sorted
SELECT pg_temp.id('0190a1b2c3d8', 'abcd' || lpad(to_hex(((i * 2654435761) % 4294967296)::int8), 16, '0')), 'equal first 8 bytes'
  FROM generate_series(1, 2000) i;

-- 4. Duplicates, and the extremes.
INSERT INTO sorted
SELECT id, 'duplicates and extremes' FROM
	(VALUES ('00000000000000000000000000'::ulid), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
			('00000000000000000000000001'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZY'),
			('01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('01ARZ3NDEKTSV4RRFFQ69G5FAV'),
			('00000000000000000000000000'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
			('0000000000ZZZZZZZZZZZZZZZZ'), ('7ZZZZZZZZZ0000000000000000')) v(id),
	generate_series(1, 3);

-- 5. Several runs in one millisecond, interleaved, far from one another.
INSERT INTO sorted
SELECT pg_temp.id('0190a1b2c3d9', lpad(to_hex(run * 4096 + 17), 4, '0') || lpad(to_hex(i), 16, '0')), 'interleaved runs'
  FROM generate_series(0, 999) i, generate_series(0, 4) run ORDER BY i, run;

-- 6. Milliseconds far apart: the time field saturates beyond ~17 years of
-- the first id, the anchor window beyond 70 minutes.
INSERT INTO sorted
SELECT pg_temp.id(to_hex(t), lpad(to_hex(i), 20, '0')), 'far milliseconds'
  FROM unnest(ARRAY[1719000000000, 1, 0, 281474976710655, 281474976710654, 1719000000000 + 4194304,
				   1719000000000 - 4194304, 1719000000000 + 549755813888, 1719000000000 - 549755813888]) t,
	   generate_series(1, 20) i
 ORDER BY i, t;

SELECT kind, count(*) AS ids, count(DISTINCT id) AS distinct_ids, pg_temp.misplaced(kind) AS misplaced
  FROM sorted GROUP BY kind ORDER BY min(ctid);
SELECT id FROM sorted WHERE kind = 'duplicates and extremes' ORDER BY id;
SELECT count(*) AS ids, pg_temp.misplaced('%') AS misplaced FROM sorted;

-- 7. The same in every order of the input (anchors change), 20 times.
CREATE TABLE shuffled AS SELECT id, kind FROM sorted;
CREATE FUNCTION pg_temp.misplaced_after_shuffle(seed float8) RETURNS bigint LANGUAGE sql AS $$
	SELECT setseed(seed);
	TRUNCATE sorted;
	INSERT INTO sorted SELECT id, kind FROM shuffled ORDER BY random();
	SELECT pg_temp.misplaced('%')
$$;
SELECT sum(pg_temp.misplaced_after_shuffle(s / 20.0)) AS misplaced_in_20_shuffles
  FROM generate_series(1, 20) s;

-- ... and ORDER BY id agrees with ::uuid order
SELECT count(*) AS ids,
	   (SELECT array_agg(id ORDER BY id) FROM sorted) =
	   (SELECT array_agg(id ORDER BY id::uuid) FROM sorted)::ulid[] AS same_as_uuid_order
  FROM sorted;

-- 8. 20,000 ids of random bytes, and 20,000 from a generator in bulk.
INSERT INTO sorted SELECT gen_random_uuid()::ulid, 'random bytes' FROM generate_series(1, 20000);
INSERT INTO sorted SELECT ulid_generate(), 'ulid_generate()' FROM generate_series(1, 20000);
SELECT pg_temp.misplaced('random bytes') AS random_misplaced,
	   pg_temp.misplaced('ulid_generate()') AS generated_misplaced;

-- 9. An index build and a merge join sort the same way: amcheck verifies
-- the index's order, the merge join finds each id (duplicates: n * n).
CREATE EXTENSION amcheck;
CREATE INDEX sorted_id ON sorted (id);
SELECT bt_index_check('sorted_id', true);
SET enable_hashjoin = off;
SET enable_nestloop = off;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM sorted a JOIN sorted b USING (id);
SELECT count(*) AS merge_join_rows,
	   (SELECT sum(n * n) FROM (SELECT count(*) AS n FROM sorted GROUP BY id::bytea) g) AS expected
  FROM sorted a JOIN sorted b USING (id);
RESET ALL;

-- 10. ulid_flake sorts as int8: the same order as ::bigint and ::text.
CREATE TABLE flake_sorted AS
SELECT id::ulid_flake AS id FROM
	(SELECT unnest(ARRAY[0, 1, 9223372036854775807, 9223372036854775806, 4294967296, 4294967295]) AS id
	 UNION ALL SELECT (random() * 9223372036854775807)::int8 FROM generate_series(1, 5000)
	 UNION ALL SELECT 14246757444195114 + i FROM generate_series(1, 100) i) v
 ORDER BY random();
CREATE INDEX flake_sorted_id ON flake_sorted (id);
SELECT bt_index_check('flake_sorted_id', true);
SELECT count(*) AS ids,
	   (SELECT array_agg(id::bigint ORDER BY id) FROM flake_sorted) =
	   (SELECT array_agg(id::bigint ORDER BY id::bigint) FROM flake_sorted) AS same_as_bigint_order,
	   (SELECT array_agg(id::text ORDER BY id) FROM flake_sorted) =
	   (SELECT array_agg(id::text ORDER BY id::text COLLATE "C") FROM flake_sorted) AS same_as_text_order
  FROM flake_sorted;

DROP TABLE sorted, shuffled, flake_sorted;
DROP EXTENSION amcheck;
