--
-- Sort order.  ulid has sort support of its own (an abbreviated key: core's
-- first 8 bytes outside a window of 35 years around now, and within it one
-- made for monotonic runs, see src/ulid.c); whatever it does, ORDER BY id, an
-- index build and a merge join must give the order of the 16 bytes: the
-- order of ::bytea and of ::uuid.  Each case is inserted in a chosen order,
-- since the first id of a millisecond that the sort meets is that
-- millisecond's anchor, and the first 1,024 ids in the window decide whether
-- milliseconds go on getting anchors.
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

-- 2. Around the anchor (the first of each millisecond): 2^21 (the near range
-- of 0.3.0), and one either side, up and down; across a carry out of the low
-- 64 bits of the randomness and at its top.
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

-- 5b. Random within a millisecond (ulid_generate_random(), another
-- generator's runs): far from the anchor, keyed by their top bits.
INSERT INTO sorted
SELECT pg_temp.id(to_hex(1722000000000 + i % 4), substr(md5(i::text), 1, 20)), 'random within a millisecond'
  FROM generate_series(1, 2000) i;

-- 6. Milliseconds far apart: before and after the window (first 8 bytes as
-- they are, or less their last bit), at the ends of the 48-bit range.
INSERT INTO sorted
SELECT pg_temp.id(to_hex(t), lpad(to_hex(i), 20, '0')), 'far milliseconds'
  FROM unnest(ARRAY[1719000000000, 1, 0, 281474976710655, 281474976710654, 1719000000000 + 4194304,
				   1719000000000 - 4194304, 1719000000000 + 549755813888, 1719000000000 - 549755813888]) t,
	   generate_series(1, 20) i
 ORDER BY i, t;

-- 7. The near range of an anchor (its first id): ids with its first 8
-- bytes at most 65,535 from it get its key plus their distance, as far as
-- its part's keys reach (16,384 to 49,151 keys either side: its plain
-- field keeps a margin of 16,384 from the part's edges; the least for an
-- anchor whose 16 random bits below its part are near all zeros or all
-- ones), and not where that would wrap the last 8 bytes around (an anchor
-- whose last 8 bytes are nearer 0 or 2^64).  Ids at 2^14, 2^16, 2^19 and
-- 2^20 and one either side, and at 49,152 (past the farthest an anchor
-- reaches) and one below, up and down, and at the other end of the last 8
-- bytes, from anchors whose last 8 bytes are 0, 2^19 - 1, 2^19, 2^63,
-- 2^64 - 2^19 and 2^64 - 1, and whose top 22 random bits are 0, 5,
-- 2^22 - 12 and 2^22 - 1; across a carry out of the low 64 bits, and at
-- the top of the randomness.
INSERT INTO sorted
SELECT pg_temp.id(t, lpad(to_hex(high), 4, '0') || lpad(to_hex(lo), 16, '0')), 'near range'
  FROM (VALUES ('0190a1b2c3da', 0, 0), ('0190a1b2c3db', 3, 524287), ('0190a1b2c3dc', 12345, 524288),
			   ('0190a1b2c3df', 9, -9223372036854775808),
			   ('0190a1b2c3dd', 7, -524288),				-- near 2^64: carries
			   ('0190a1b2c3de', 65535, -1),
			   ('0190a1b2c3e0', 0, 1441151880758558720),		-- top 22 bits 5
			   ('0190a1b2c3e1', 65535, -3458764513820540928)) a(t, hi, anchor_low),	-- 2^22 - 12
	   unnest(ARRAY[0, 1, -1, 16383, 16384, 16385, -16383, -16384, -16385,
					49151, 49152, -49151, -49152, 65535, 65536, 65537, -65535, -65536, -65537,
					524287, 524288, 524289, -524287, -524288, -524289,
					1048575, 1048576, 1048577, -1048575, -1048576, -1048577,
					100000, -100000, 1099511627776, -1099511627776,
					18446744073709551615, -18446744073709551615,
					18446744073709027328, -18446744073709027328]) WITH ORDINALITY d(step, pos),
	   LATERAL (SELECT anchor_low::numeric + step AS low_value) v,
	   LATERAL (SELECT hi + floor(low_value / 18446744073709551616)::int AS high,
					   ((low_value % 18446744073709551616 + 18446744073709551616) % 18446744073709551616) AS lo_u) w,
	   LATERAL (SELECT CASE WHEN lo_u >= 9223372036854775808 THEN (lo_u - 18446744073709551616)::int8
							 ELSE lo_u::int8 END AS lo) x
 WHERE high BETWEEN 0 AND 65535
 ORDER BY t, pos;

-- 7b. Latent anchors: ids far from the anchor whose top 22 random bits are
-- within 65,535 of its own (another run a step of 2^58, 2^59 or 2^64 away,
-- the same top bits and 2^40 away), keyed before any id near it, narrow
-- its near range; then ids near it, up and down, and more far ones.  Case
-- 10 shuffles them.
INSERT INTO sorted
SELECT pg_temp.id(to_hex(1719500000000 + ms), lpad(to_hex(4096 + hi), 4, '0') || lpad(to_hex(lo), 16, '0')), 'latent anchors'
  FROM generate_series(0, 2) ms,
	   (VALUES (1, 0, 1000000000000000000), (2, 0, 1000000000000000000 - 288230376151711744),
			   (2, 0, 1000000000000000000 + 288230376151711744),
			   (2, 0, 1000000000000000000 - 576460752303423488),
			   (2, 0, 1000000000000000000 + 576460752303423488), (2, -1, 1000000000000000000),
			   (2, 1, 1000000000000000000), (2, 0, 1000000000000000000 + 1099511627776),
			   (2, 0, 1000000000000000000 - 1099511627776),
			   (3, 0, 1000000000000000000 - 2), (3, 0, 1000000000000000000 + 2),
			   (3, 0, 1000000000000000000 - 70000), (3, 0, 1000000000000000000 + 70000),
			   (3, 0, 1000000000000000000 + 1), (3, 0, 1000000000000000000 - 1)) v(phase, hi, lo)
 WHERE ms < 2 OR phase <> 2	-- one millisecond without far ids first
 ORDER BY phase, ms, lo;

-- 7c. Neighbouring parts: a run above an anchor at the top of its part (its
-- top 22 random bits end in 16 ones) and one below an anchor at the bottom
-- of the next part (16 zeros), in one millisecond, up to 65,536 from them:
-- the near keys of each stop at the edge of its part, where the other's
-- begin.
INSERT INTO sorted
SELECT pg_temp.id('0196a6c5a002', r), 'neighbouring parts'
  FROM (SELECT d, 'a7fffc' || lpad(to_hex(d), 14, '0') AS r FROM unnest(ARRAY[0, 1, 32767, 32768, 32769, 65535, 65536]) d
		UNION ALL
		SELECT d, 'a800' || lpad(to_hex(1070000 - d), 16, '0') FROM unnest(ARRAY[0, 1, 32767, 32768, 32769, 65535, 65536]) d) p
 ORDER BY d, r;

-- 8. Anchoring stops: the first 1,100 ids are one per millisecond (of
-- milliseconds spacing apart), with high randomness (no runs: anchoring
-- stops after 1,024), then (past as many more ids one per millisecond as
-- filler says) ids of those very milliseconds just below and above their
-- anchors and far from them, every step-th, which must be keyed as the
-- first ids of their milliseconds were (their latent anchors dropped), and
-- runs of 300 in new milliseconds, which get no anchors.
CREATE FUNCTION pg_temp.anchoring_stops(t0 int8, high text, filler int, step int, spacing int DEFAULT 1)
	RETURNS SETOF ulid LANGUAGE sql AS $$
	SELECT pg_temp.id(to_hex(t0 + ms * spacing), high || lpad(to_hex(ms), 6, '0') || lpad(to_hex(r), 12, '0'))
	  FROM (SELECT 1 AS phase, ms, 1000000 AS r FROM generate_series(0, 1099) ms
			UNION ALL
			SELECT 2, 2000 + ms, 1000000 FROM generate_series(0, filler - 1) ms
			UNION ALL
			SELECT 3, ms, 1000000 + d FROM generate_series(0, 1099, step) ms,
				   unnest(ARRAY[-1, 1, -70000, 70000, -600000, 600000, -1000000]) d
			UNION ALL
			SELECT 4, 2000 + filler + ms, 5000 + i FROM generate_series(0, 9) ms, generate_series(0, 299) i) p
	 ORDER BY phase, ms, r
$$;
INSERT INTO sorted SELECT id, 'anchoring stops' FROM pg_temp.anchoring_stops(1720000000000, 'f0', 0, 7) id;
INSERT INTO sorted
SELECT pg_temp.id(to_hex(1720000000000 + ms), '00' || lpad(to_hex(ms), 6, '0') || lpad(to_hex(5), 12, '0')),
	   'anchoring stops'
  FROM generate_series(0, 1099, 13) ms;
-- ... and random ids in new milliseconds: no anchor, keyed by their top bits
INSERT INTO sorted
SELECT pg_temp.id(to_hex(1720000003000 + i % 3), substr(md5(i::text), 1, 20)), 'anchoring stops'
  FROM generate_series(1, 900) i;

-- 9. Anchoring goes on: runs first, then 3,000 milliseconds of 3 ids each
-- (the table grows), then more ids of the first milliseconds.
INSERT INTO sorted
SELECT pg_temp.id(to_hex(1721000000000 + ms), lpad(to_hex(ms * 7919), 8, '0') || lpad(to_hex(r), 12, '0')),
	   'anchoring goes on'
  FROM (SELECT 1 AS phase, ms, i AS r FROM generate_series(0, 3) ms, generate_series(100, 399) i
		UNION ALL
		SELECT 2, 10 + ms, i FROM generate_series(0, 2999) ms, generate_series(0, 2) i
		UNION ALL
		SELECT 3, ms, r FROM generate_series(0, 3) ms, unnest(ARRAY[0, 99, 400, 999999, 2000000]) r) p
 ORDER BY phase, ms, r;

SELECT kind, count(*) AS ids, count(DISTINCT id) AS distinct_ids, pg_temp.misplaced(kind) AS misplaced
  FROM sorted GROUP BY kind ORDER BY min(ctid);
SELECT id FROM sorted WHERE kind = 'duplicates and extremes' ORDER BY id;
SELECT count(*) AS ids, pg_temp.misplaced('%') AS misplaced FROM sorted;

-- 10. The same in every order of the input (anchors and the sample change),
-- 20 times.
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

-- 11. 20,000 ids of random bytes (uuids converted to ulid), 20,000 from a
-- generator in bulk, and both mixed, in random order.
INSERT INTO sorted SELECT gen_random_uuid()::ulid, 'random bytes' FROM generate_series(1, 20000);
INSERT INTO sorted SELECT ulid_generate(), 'ulid_generate()' FROM generate_series(1, 20000);
INSERT INTO sorted SELECT id, 'mixed' FROM sorted WHERE kind IN ('random bytes', 'ulid_generate()') ORDER BY random();
SELECT pg_temp.misplaced('random bytes') AS random_misplaced,
	   pg_temp.misplaced('ulid_generate()') AS generated_misplaced,
	   pg_temp.misplaced('mixed') AS mixed_misplaced;

-- 12. The edges of the window, which moves with the transaction's start:
-- the first and last millisecond in it and one either side, ids whose first
-- 8 bytes differ in the last bit only (after the window, one key), runs.
BEGIN;
INSERT INTO sorted
SELECT pg_temp.id(to_hex(now_ms + edge), lpad(to_hex(high), 4, '0') || lpad(to_hex(r), 16, '0')), 'window edges'
  FROM (SELECT round(extract(epoch FROM date_trunc('milliseconds', now())) * 1000)::int8 AS now_ms) n,
	   unnest(ARRAY[-962072674304 - 1, -962072674304, -962072674304 + 1,
					137438953472 - 1, 137438953472, 137438953472 + 1, 0]) edge,
	   unnest(ARRAY[0, 1, 32768, 65534, 65535]) high,
	   unnest(ARRAY[0, 1, 2, 1000000, 9223372036854775807]) r
 ORDER BY edge DESC, high % 3, r;
SELECT count(*) AS ids, pg_temp.misplaced('window edges') AS misplaced FROM sorted WHERE kind = 'window edges';
COMMIT;

-- 13. Duplicates: 20,000 copies of one id, and 2,000 ids 10 times each, with
-- the ids of a run; abbreviation is given up for the first (one key for all),
-- not for the second.
INSERT INTO sorted SELECT '01JDQ6WJ7ZABCDEFGHJKMNPQRS', 'one id 20,000 times' FROM generate_series(1, 20000);
INSERT INTO sorted
SELECT id, 'ids 10 times each'
  FROM (SELECT ulid_generate(timestamptz '2025-06-01Z' + (i / 5) * interval '1 ms') AS id
		  FROM generate_series(0, 1999) i) g, generate_series(1, 10)
 ORDER BY random();
SELECT pg_temp.misplaced('one id 20,000 times') AS one_id_misplaced,
	   pg_temp.misplaced('ids 10 times each') AS ten_times_misplaced;

-- 14. A work_mem so small that the anchor table (a quarter of it: 512
-- milliseconds) cannot grow, and refuses the milliseconds it cannot take;
-- the sort spills to disk.
SET work_mem = '64kB';
SELECT pg_temp.misplaced('anchoring goes on') AS small_work_mem_misplaced,
	   pg_temp.misplaced('ids 10 times each') AS small_work_mem_ten_times_misplaced;
RESET work_mem;
-- (the copies would make the merge join below quadratic)
DELETE FROM sorted WHERE kind IN ('mixed', 'one id 20,000 times', 'ids 10 times each');

-- 15. An index build and a merge join sort the same way: amcheck verifies
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

-- 16. ulid_flake sorts as int8: the same order as ::bigint and ::text.
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

-- 17. Past the estimate of distinct keys (2,560 ids where they are
-- distinct, 10,240 while the sample lasts or short runs are watched for),
-- a leaner converter keys the ids, and leaves some to the first
-- (the sample, a millisecond that gets an anchor); each id must be keyed as
-- the first would.  Each case is sorted alone, in the order inserted, and
-- says (DEBUG1) after how many ids the leaner converter took over.
-- (RESET ALL in 15 allowed parallel plans again: one converter, and so one
-- DEBUG1 line, a sort)
SET work_mem = '64MB';
SET max_parallel_workers_per_gather = 0;
SET max_parallel_maintenance_workers = 0;
SET client_min_messages = debug1;
SET jit = off;	-- (which would say how long it took)
CREATE TABLE late (id ulid);
-- (a hash join: planned before autovacuum analyzed the table, a nested
-- loop took minutes)
CREATE FUNCTION pg_temp.late_misplaced() RETURNS bigint LANGUAGE sql
	SET enable_nestloop = off AS $$
	SELECT count(*) FROM
		(SELECT id, row_number() OVER (ORDER BY id) AS n FROM late) a
	JOIN (SELECT id, row_number() OVER (ORDER BY id::bytea) AS n FROM late) b USING (n)
	WHERE a.id::bytea <> b.id::bytea
$$;
-- a) As 8, with 200,000 ids one per millisecond between the sample and the
-- ids of its milliseconds: the sample stops anchoring and finds no run, its
-- anchors are dropped, and plain keys (no anchor) key those.
INSERT INTO late SELECT id FROM pg_temp.anchoring_stops(1722000000000, '00', 200000, 3) id;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS anchoring_stopped_misplaced FROM late;
-- b) Uuids converted to ulid (kept outside the window, before and after
-- it), and a run in the window whose ids come before and after the estimate
-- ends: too few to end the sample, so anchoring goes on.  (So few in the
-- window that the estimate ends at 2,560 ids, the sample still on.)  Of n
-- ids, the first per of each every are the run's.
CREATE FUNCTION pg_temp.converted_and_run(n int, every int, per int) RETURNS SETOF ulid
	LANGUAGE sql AS $$
	SELECT CASE WHEN i % every < per
				THEN pg_temp.id('0190a1b2c3d4', to_hex(1000000 + i / every * 7 + i % every * 3))
				WHEN i % 2 = 0 THEN ('000' || substr(md5(i::text), 4))::uuid::ulid
				ELSE ('f' || substr(md5(i::text), 2))::uuid::ulid END
	  FROM generate_series(1, n) i ORDER BY i
$$;
CREATE FUNCTION pg_temp.late_in_window() RETURNS TABLE (ids bigint, in_window bigint, misplaced bigint)
	LANGUAGE sql AS $$
	SELECT count(*), count(*) FILTER (WHERE substr(id::bytea, 1, 6) = '\x0190a1b2c3d4'::bytea),
		   pg_temp.late_misplaced() FROM late
$$;
TRUNCATE late;
INSERT INTO late SELECT pg_temp.converted_and_run(200000, 1000, 2);
SELECT * FROM pg_temp.late_in_window();
-- b2) The same with one id in 8 in the window: the estimate goes on to
-- 10,240 ids while the sample lasts (its end needs the estimate on, to
-- watch for short runs the sample missed).
TRUNCATE late;
INSERT INTO late SELECT pg_temp.converted_and_run(20000, 8, 1);
SELECT * FROM pg_temp.late_in_window();
-- c) Runs of 2 ids in 140,000 milliseconds: anchoring goes on until the
-- table (a quarter of work_mem, 4 MB at most: 131,072 milliseconds) spans
-- all it can, long after the estimate (the leaner converter keys the second
-- id of each millisecond from its anchor), and refuses the milliseconds past
-- that; then ids of the first milliseconds around their anchors.  (Two
-- milliseconds' first ids, then their second ids: a millisecond's two ids
-- in a row are a pair, which the sample does not count as a run, see w18).)
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1723000000000 + ms), lpad(to_hex(ms), 8, '0') || lpad(to_hex(r), 12, '0'))
  FROM (SELECT 1 AS phase, ms, 1000000 + i AS r FROM generate_series(0, 139999) ms, generate_series(0, 1) i
		UNION ALL
		SELECT 2, ms, 1000000 + d FROM generate_series(0, 139999, 41) ms,
			   unnest(ARRAY[-1, 2, -70000, 70000, -600000, 600000, -1000000]) d) p
 ORDER BY phase, ms / 2, r, ms;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS table_full_late_misplaced FROM late;
-- d) As a), the sample one id every 1,000 ms: the table cannot take most of
-- its milliseconds (refused), and anchoring stops with a sparse table; plain
-- keys key the later ids of both kinds of millisecond.
TRUNCATE late;
INSERT INTO late SELECT id FROM pg_temp.anchoring_stops(1724000000000, 'f0', 20000, 1, 1000) id;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS sparse_table_misplaced FROM late;
-- e) Runs of 10 ids in 4,000 milliseconds, shuffled: milliseconds refused
-- anchors in the sample (their latent anchors given up for others, in its
-- table of 4,096 slots) must not get one once the table is laid out for the
-- span and grows.  (Shuffled by md5, not random(): the active anchors the
-- DEBUG1 line counts depend on the order, and random() differs by major.)
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1725000000000 + ms), lpad(to_hex(ms * 7919), 8, '0') || lpad(to_hex(1000 + i), 12, '0'))
  FROM generate_series(0, 3999) ms, generate_series(0, 9) i
 ORDER BY md5(ms || ' ' || i);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS refused_misplaced FROM late;
-- f) A table converted from uuid with ids made since, shuffled: uuids before
-- and after the window, runs of 500 ids in 60 milliseconds, ids of those
-- milliseconds far from their anchors (other first 8 bytes, or the same and
-- 600,000 away), and runs in 40 new milliseconds.  Many ids are in the
-- window and many outside it: a fast path keys those outside it and those
-- near their anchors, and leaves the others to the leaner converter.  (In b),
-- nearly all are outside it: no fast path.)
TRUNCATE late;
INSERT INTO late
SELECT id FROM (
	SELECT ('f' || substr(md5(i::text), 2))::uuid::ulid AS id FROM generate_series(1, 30000) i
	UNION ALL
	SELECT ('000' || substr(md5(i::text), 4))::uuid::ulid FROM generate_series(1, 2000) i
	UNION ALL
	SELECT pg_temp.id(to_hex(1726000000000 + ms), lpad(to_hex((ms::int8 * 7919 % 60000 + 1) * 65536 + d), 8, '0') || lpad(to_hex(1000000 + r), 12, '0'))
	  FROM (SELECT ms, 0 AS d, i AS r FROM generate_series(0, 59) ms, generate_series(0, 499) i
			UNION ALL
			SELECT ms, d, 0 FROM generate_series(0, 59) ms, unnest(ARRAY[-65536, 65536]) d
			UNION ALL
			SELECT ms, 0, r FROM generate_series(0, 59) ms, unnest(ARRAY[-600000, 600000]) r
			UNION ALL
			SELECT 1000 + ms, 0, i FROM generate_series(0, 39) ms, generate_series(0, 49) i) p) v
 ORDER BY md5(id::text);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS converted_and_runs_misplaced FROM late;
-- g) Ids random within 20 milliseconds, shuffled (ulid_generate_random() in
-- bulk): the sample anchors the milliseconds and finds no run, so anchoring
-- stops and plain keys follow.  A quarter of the ids of a millisecond share
-- its first 8 bytes (and are far above or below the anchor in their last
-- 8), narrowing the near ranges of the latent anchors, and few enough that
-- the estimate ends at its first check, wherever the window puts their keys.
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1727000000000 + i % 20),
				  CASE WHEN i % 4 = 0 THEN 'abcd' ELSE substr(md5(i::text), 1, 4) END || substr(md5(i::text), 5, 16))
  FROM generate_series(1, 40000) i
 ORDER BY md5(i::text || 'shuffled');
SELECT count(*) AS ids, pg_temp.late_misplaced() AS random_in_few_ms_misplaced FROM late;
-- h) uuid v7 values converted to ulid, as PostgreSQL 18's uuidv7() makes
-- them (the millisecond, version 7, 12 bits that count up within it, the
-- variant, 62 random bits), 30 in each of 1,000 milliseconds, shuffled.
-- Their first 8 bytes all differ: the sample anchors most of their
-- milliseconds and meets no run, and plain keys follow.
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1728000000000 + i / 30),
				  to_hex(28672 + i % 30 * 136) || to_hex(128 + i % 64) || substr(md5(i::text), 1, 14))
  FROM generate_series(0, 29999) i
 ORDER BY md5(i::text || 'shuffled');
SELECT count(*) AS ids, pg_temp.late_misplaced() AS uuid_v7_layout_misplaced FROM late;
-- i) The same with PostgreSQL 18's own uuidv7(), where the server has it
-- (else the ids of h again).  (Not which converter: that depends on how
-- many milliseconds the server took to make them.)
SET client_min_messages = notice;
DO $$
BEGIN
	IF pg_catalog.to_regprocedure('pg_catalog.uuidv7()') IS NOT NULL THEN
		TRUNCATE late;
		EXECUTE 'INSERT INTO late SELECT id::ulid FROM '
			'(SELECT pg_catalog.uuidv7() AS id FROM generate_series(1, 30000)) v ORDER BY md5(id::text)';
	END IF;
END $$;
SELECT count(*) AS ids,
	   count(*) FILTER (WHERE substr(id::bytea, 7, 1) BETWEEN '\x70' AND '\x7f'
						  AND substr(id::bytea, 9, 1) BETWEEN '\x80' AND '\xbf') AS uuid_v7_layout,
	   count(DISTINCT substr(id::bytea, 1, 8)) AS distinct_first_8_bytes,
	   pg_temp.late_misplaced() AS uuidv7_misplaced FROM late;
-- j) As a), with two runs in the sample (fewer than 4: short runs, see t)):
-- the two anchors stay active, the latent ones are dropped, and the
-- milliseconds of the sample's span it did not reach (the last 78 of 1,100)
-- get anchors of the table of blocks; later ids of the two milliseconds are
-- keyed from their anchors, of the dropped ones plainly.
CREATE FUNCTION pg_temp.two_runs_in_sample(t0 int8, spacing int) RETURNS SETOF ulid LANGUAGE sql AS $$
	SELECT pg_temp.id(to_hex(t0 + ms * spacing), '00' || lpad(to_hex(ms), 6, '0') || lpad(to_hex(r), 12, '0'))
	  FROM (SELECT 1 AS phase, ms, 1000000 AS r FROM generate_series(0, 1099) ms
			UNION ALL
			SELECT 1, ms, 1000005 FROM unnest(ARRAY[5, 9]) ms
			UNION ALL
			SELECT 2, 2000 + ms, 1000000 FROM generate_series(0, 19999) ms
			UNION ALL
			SELECT 3, ms, 1000000 + d FROM generate_series(1, 1099, 2) ms,
				   unnest(ARRAY[-1, 1, 3, 7, -70000, 70000, -600000, 600000]) d) p
	 ORDER BY phase, ms, r
$$;
SET client_min_messages = debug1;
TRUNCATE late;
INSERT INTO late SELECT id FROM pg_temp.two_runs_in_sample(1729000000000, 1) id;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS two_active_anchors_misplaced FROM late;
-- j2) The same, its milliseconds a second apart: the sample's span is past
-- what the table of blocks may take (524,288 milliseconds), so anchoring
-- stops with the two anchors active, and the leaner converter keys the
-- later ids of their milliseconds from them, near and far (not plainly, as
-- the converter of no anchor would), and the others plainly.
TRUNCATE late;
INSERT INTO late SELECT id FROM pg_temp.two_runs_in_sample(1729100000000, 1000) id;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS two_active_anchors_no_table_misplaced FROM late;
-- j3) As j2, then an id of millisecond 0 and the lowest of millisecond 1,
-- both before the window.  The converter of runs and ids of the window
-- without anchor loads slot 0 for an id outside the window, and slot 0,
-- free, holds millisecond 1's first 8 bytes as its free mark (free_slot()):
-- it took the id of millisecond 1 for near that mark and keyed it 0, below
-- the id of millisecond 0 (make sort-fuzz, seed 900228, on PostgreSQL 18).
INSERT INTO late VALUES ('00000000010000000000000000'), ('0000000000000G000000000000');
-- (ORDER BY and LIMIT, not a comparison: an operator of other types than
-- those of the cases before makes a catalog cache list, and PostgreSQL 17's
-- rehash of that cache at its 65th list says so in a DEBUG line)
SELECT n, id FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM late) s ORDER BY n LIMIT 3;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS free_mark_of_slot_0_misplaced FROM late;
-- j4) One id a millisecond (latent anchors in the sample's table, one in
-- slot 0, its first 8 bytes slot 0's free mark: millisecond 1's), then a
-- run, each of its ids followed by an id of millisecond 1 whose first 8
-- bytes are that mark and whose last 8 bytes are near the latent anchor's.
-- Once the sample found the run, its converter of runs looked first into
-- the slot of the anchor it keyed an id near last, slot 0 until it had, and
-- took such an id, outside the window, for near slot 0's latent anchor: a
-- key in the window, after the ids of millisecond 2.
TRUNCATE late;
INSERT INTO late
SELECT id FROM (SELECT 1 AS phase, ms AS i, 0 AS k, pg_temp.id(to_hex(1731000000000 + ms), '0000' || lpad('5', 16, '0')) AS id
				  FROM generate_series(0, 299) ms
				UNION ALL
				SELECT 2, i, 1, pg_temp.id(to_hex(1731000100000), '0001' || lpad(to_hex(100 + i), 16, '0'))
				  FROM generate_series(0, 10) i
				UNION ALL
				SELECT 2, i, 2, pg_temp.id('1', '0000' || lpad(to_hex(6 + i), 16, '0'))
				  FROM generate_series(0, 10) i
				UNION ALL
				SELECT 3, i, 0, pg_temp.id('2', lpad(to_hex(i), 20, '0'))
				  FROM generate_series(1, 20) i
				UNION ALL
				SELECT 4, ms, 0, pg_temp.id(to_hex(1731000200000 + ms), '0002' || lpad('5', 16, '0'))
				  FROM generate_series(0, 3000) ms) p
 ORDER BY phase, i, k;
SELECT ulid_unix_ms(id) AS ms, count(*) AS ids, min(n) AS first, max(n) AS last
  FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM late) s
 GROUP BY 1 ORDER BY 1 LIMIT 2;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS no_run_anchor_misplaced FROM late;

-- k) As a), with ids near the anchors of the sample after it, while the
-- estimate lasts: their anchors were dropped when anchoring stopped, and
-- none may become active (plain keys follow).  (Ids of the sample's
-- milliseconds only: ids near others of a millisecond after the sample
-- would make the table of blocks, see u).)
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1730000000000 + ms), '00' || lpad(to_hex(ms), 6, '0') || lpad(to_hex(r), 12, '0'))
  FROM (SELECT 1 AS phase, ms, 1000000 AS r FROM generate_series(0, 1099) ms
		UNION ALL
		SELECT 2, ms, 1000002 FROM generate_series(0, 1023, 3) ms
		UNION ALL
		SELECT 3, 2000 + ms, 1000000 FROM generate_series(0, 19999) ms
		UNION ALL
		SELECT 4, ms, 1000000 + d FROM generate_series(0, 1099, 3) ms, unnest(ARRAY[-1, 1, 3]) d) p
 ORDER BY phase, ms, r;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS dropped_anchors_misplaced FROM late;

-- l) A table converted from uuid with ids made since one per millisecond
-- (no run), shuffled: uuids before and after the window, and ids in it.
-- Many are in the window and many outside it, and anchoring stops without
-- an anchor: plain keys, and the key of an id outside the window, made for
-- every id and one picked without a branch.  Then, so keyed, ids at the
-- edges of the window (as in 12).
BEGIN;
TRUNCATE late;
INSERT INTO late
SELECT id FROM (
	SELECT 1 AS phase, md5(i::text) AS pos,
		   CASE WHEN i % 2 = 0 THEN pg_temp.id(to_hex(1731000000000 + i), substr(md5(i::text), 1, 20))
				WHEN i % 10 = 1 THEN ('000' || substr(md5(i::text), 4))::uuid::ulid
				ELSE ('f' || substr(md5(i::text), 2))::uuid::ulid END AS id
	  FROM generate_series(1, 12000) i
	UNION ALL
	SELECT 2, md5(edge || ' ' || high || ' ' || r),
		   pg_temp.id(to_hex(now_ms + edge), lpad(to_hex(high), 4, '0') || lpad(to_hex(r), 16, '0'))
	  FROM (SELECT round(extract(epoch FROM date_trunc('milliseconds', now())) * 1000)::int8 AS now_ms) n,
		   unnest(ARRAY[-962072674304 - 1, -962072674304, -962072674304 + 1,
						137438953472 - 1, 137438953472, 137438953472 + 1, 0]) edge,
		   unnest(ARRAY[0, 1, 32768, 65534, 65535]) high,
		   unnest(ARRAY[0, 1, 2, 1000000, 9223372036854775807]) r) p
 ORDER BY phase, pos;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS converted_and_one_per_ms_misplaced FROM late;
COMMIT;
-- ... and with one id in 10 outside the window, the plain converter, which
-- tests each id (a branch mispredicted for few ids).
TRUNCATE late;
INSERT INTO late
SELECT CASE WHEN i % 10 = 0 THEN ('f' || substr(md5(i::text), 2))::uuid::ulid
			ELSE pg_temp.id(to_hex(1732000000000 + i), substr(md5(i::text), 1, 20)) END
  FROM generate_series(1, 12000) i
 ORDER BY md5(i::text);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS few_converted_misplaced FROM late;

-- m) Ids made one per millisecond, then a bulk load a year later (runs of
-- 7 ids in 2,000 milliseconds), shuffled, the oldest id first: in the
-- sample, the milliseconds of the runs take the slots of the latent anchors
-- of the others, and then the table takes the span of the runs, without
-- the latent anchors of the others, out of its reach (which would take the
-- slots of some runs there: 215 active anchors, then 217; 227 with 29
-- anchors the sample gave up put back).  Anchoring goes on, and the runs
-- get anchors.  A second id of the oldest millisecond, near its first,
-- comes after the sample: a year away from the runs, it must not get an
-- anchor (nor keep the runs met after it from getting theirs, as an anchor
-- that far would).  No id is outside the window: after the estimate the
-- converter of runs and ids of the window without anchor keys the runs from
-- their anchors and the others plainly.
TRUNCATE late;
INSERT INTO late
SELECT id FROM (
	SELECT i = 0 AS oldest, md5(i::text) AS pos,
		   pg_temp.id(to_hex(1733000000000 + i), lpad(to_hex(i), 20, '0')) AS id
	  FROM generate_series(0, 14999) i
	UNION ALL
	SELECT false, '0c', pg_temp.id(to_hex(1733000000000), lpad('1', 20, '0'))
	UNION ALL
	SELECT false, md5(ms || ' ' || k),
		   pg_temp.id(to_hex(1733000000000 + 31536000000 + ms),
					  substr(md5(ms::text), 1, 8) || lpad(to_hex(1000 + k), 12, '0'))
	  FROM generate_series(0, 1999) ms, generate_series(0, 6) k) p
 ORDER BY oldest DESC, pos;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS bulk_load_after_a_year_misplaced FROM late;

-- n) A latent anchor dropped for another millisecond of its slot in the
-- sample (1734000003734 shares the slot of 1734000000000 in its hashed
-- table, of 64 slots then), and one that cannot become active after it
-- (the only run of the sample, with which the table's span starts, is 2^32
-- ms away; the sample is filled with ids far apart in one millisecond by
-- it): their milliseconds are refused, and the ids near them keyed as the
-- ids far from them were, with plain keys.  Ids with the anchor's top 22
-- random bits 2^40 above and below it would be misplaced otherwise.
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1734000000000 + ms), random_hex)
  FROM (SELECT 1 AS phase, 0 AS ms, 'aaaa8200010000000000' AS random_hex, 0 AS k
		UNION ALL
		SELECT 2, 3734, 'bbbb0000000000000000', 0
		UNION ALL
		SELECT 3, 0, 'aaaa' || to_hex(x'8200000000000000'::int8 + k), k FROM generate_series(0, 300) k
		UNION ALL
		SELECT 4, 5000, 'aaaa8200000000000000', 0
		UNION ALL
		SELECT 5, 4294967296, 'cccc' || lpad(to_hex(4096 + k), 16, '0'), k FROM generate_series(0, 19) k
		UNION ALL
		SELECT 6, 4294967297, 'dddd' || lpad(to_hex(k), 6, '0') || '0000000000', k FROM generate_series(0, 699) k
		UNION ALL
		SELECT 7, 5000, 'aaaa' || to_hex(x'8200000000000000'::int8 + k), k FROM generate_series(1, 300) k
		UNION ALL
		SELECT 8, 5000, unnest(ARRAY['aaaa8200010000000000', 'aaaa81ffff0000000000']), 0) p
 ORDER BY phase, k;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS dropped_latent_anchors_misplaced FROM late;

-- o) Rows inserted a batch at a time, an hour apart (2,000 batches of 10
-- ids, each in one millisecond), shuffled: the sample finds runs out of
-- reach of the first active anchor, and the anchors are scattered, in the
-- largest table, their milliseconds hashed (by their low bits, these would
-- share 1,024 slots).
-- (batches of 10 ids, each in one millisecond, interval_ms apart, shuffled)
CREATE FUNCTION pg_temp.insert_batches(batches int, interval_ms int8) RETURNS void
	LANGUAGE sql AS $$
	INSERT INTO late
	SELECT pg_temp.id(to_hex(1735000000000 + b * interval_ms),
					  substr(md5(b::text), 1, 8) || lpad(to_hex(1000 + k), 12, '0'))
	  FROM generate_series(0, batches - 1) b, generate_series(0, 9) k
	 ORDER BY md5(b || ' ' || k)
$$;
TRUNCATE late;
SELECT pg_temp.insert_batches(2000, 3600000);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS scattered_batches_misplaced FROM late;

-- p) Runs in three milliseconds, and one 2^32 ms away: after the sample
-- the table takes the span of the three, and the fourth keeps its slot,
-- where the millisecond of the first shares it in a table of 2^11 and 2^12
-- slots: the table takes 2^13.  Where they share a slot at every size up to
-- the largest (2^17: 131,072 ms), the anchors are scattered.  Ids one per
-- millisecond far from them fill the sample and then the estimate; the
-- later ids of the runs are keyed from their anchors.  (In the first sort
-- the ids one per millisecond, out of reach, make no anchor after the
-- sample; with the anchors scattered they make anchors, the later ones
-- made in place by the leaner converter, or handed back to the first.
-- Both estimates end at 2,560 ids.)  Again after four ids out of order
-- (each below the one before: one id in 8 or more, as the deferred sample
-- wants, kept_out_of_order()): it keeps the runs of 6 whole, counts each
-- from its fourth id and makes its anchor active at its last as it takes
-- them (ends_counted_run()), so that the far run's first id does not take
-- the way of the first run's anchor, latent (the same 4 active anchors); in
-- runs of 4, each counted at its fourth, a run as the sample met it live
-- (not a pair of its part).
CREATE FUNCTION pg_temp.runs_with_one_far(far_offset int8, out_of_order boolean DEFAULT false,
										  run_length int DEFAULT 6)
	RETURNS void LANGUAGE sql AS $$
	TRUNCATE late;
	INSERT INTO late
	SELECT pg_temp.id(to_hex(1735000000000 + ms), lpad(to_hex(ms % 65536), 4, '0') || lpad(to_hex(r), 16, '0'))
	  FROM (SELECT 0 AS phase, ms, 5000000 AS r FROM unnest(ARRAY[6000, 6001, 6002, 6003]) ms WHERE out_of_order
			UNION ALL
			SELECT 1, ms, 1000000 + r FROM generate_series(0, 2) ms, generate_series(0, run_length - 1) r
			UNION ALL
			SELECT 2, far_offset, 1000000 + r FROM generate_series(0, run_length - 1) r
			UNION ALL
			SELECT 3, 5000 + f, 5000000 FROM generate_series(0, 999) f
			UNION ALL
			SELECT 4, 8589934592 + f, 5000000 FROM generate_series(0, 9999) f
			UNION ALL
			SELECT 5, ms, 1000000 + r
			  FROM unnest(ARRAY[0, 1, 2, far_offset]) ms, generate_series(run_length, 300) r) p
	 ORDER BY phase, CASE phase WHEN 0 THEN -ms ELSE ms END, r
$$;
SELECT pg_temp.runs_with_one_far(4096 * 1048577::int8);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS far_run_in_a_larger_table_misplaced FROM late;
SELECT pg_temp.runs_with_one_far(131072 * 32769::int8);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS far_run_scattered_misplaced FROM late;
SELECT pg_temp.runs_with_one_far(4096 * 1048577::int8, out_of_order => true);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS far_run_after_ids_out_of_order_misplaced FROM late;
SELECT pg_temp.runs_with_one_far(131072 * 32769::int8, out_of_order => true);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS scattered_after_ids_out_of_order_misplaced FROM late;
SELECT pg_temp.runs_with_one_far(4096 * 1048577::int8, out_of_order => true, run_length => 4);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS runs_of_4_after_ids_out_of_order_misplaced FROM late;

-- q) Two bulk loads a year apart (runs of 10 ids in 1,000 milliseconds
-- each), shuffled: the anchors are scattered, and the milliseconds of a
-- load keep their order in blocks of 16 slots (a load's anchors side by
-- side, as in a table laid out for its span).
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1735000000000 + l * 31536000000::int8 + ms),
				  substr(md5(l || ' ' || ms), 1, 8) || lpad(to_hex(1000 + k), 12, '0'))
  FROM generate_series(0, 1) l, generate_series(0, 999) ms, generate_series(0, 9) k
 ORDER BY md5(l || ' ' || ms || ' ' || k);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS two_loads_a_year_apart_misplaced FROM late;

-- r) The estimate of distinct keys counts the keys of the ids after the
-- sample's (the first 1,024 in the window).  1,500 ids 10 times each,
-- shuffled, 30 milliseconds apart (a span where the watch for short runs
-- keeps the estimate on past 2,560 ids), then 30,000 ids one per
-- millisecond: the keys counted are fewer than a quarter of the ids counted
-- at the check of 10,240 ids (about 1,500 of 9,216), and the estimate
-- ends at 20,480.  20,000
-- copies of one id: fewer keys than one per 2,000 ids, abbreviation is
-- given up at 10,240 ids.
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1736000000000 + ms), lpad(to_hex(ms), 20, '0'))
  FROM (SELECT 1 AS phase, ms * 30 AS ms, md5(ms || ' ' || c) AS shuffle
		  FROM generate_series(0, 1499) ms, generate_series(1, 10) c
		UNION ALL
		SELECT 2, 100000 + ms, NULL FROM generate_series(0, 29999) ms) p
 ORDER BY phase, shuffle, ms;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS copies_then_distinct_misplaced FROM late;
TRUNCATE late;
INSERT INTO late SELECT pg_temp.id('1736000000000', '1') FROM generate_series(1, 20000);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS copies_of_one_misplaced FROM late;
-- The sample's ids are not counted: 1,024 ids, then 9,217 copies of one of
-- them.  At the check of 10,240 ids (made as the next comes) the keys
-- counted are one for 9,216 ids, and abbreviation is given up; counted
-- with the sample's (1,024 keys of 10,240 ids), it went on to the last id,
-- and no DEBUG1 line came.  (The keys of ids in the window are offsets from
-- a window that moves with the clock, so the estimate of a case near its
-- thresholds changes from day to day: the cases here keep far from them.)
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1736100000000 + ms), lpad(to_hex(ms), 20, '0'))
  FROM (SELECT 1 AS phase, ms FROM generate_series(0, 1023) ms
		UNION ALL
		SELECT 2, 512 FROM generate_series(1, 9217)) p
 ORDER BY phase, ms;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS sample_not_counted_misplaced FROM late;

-- s) The arenas (src/ulid.c), memory kept for the anchor tables of the
-- sorts open at once, 4 of them, are given back when a sort's memory goes,
-- after an error too: a sort fails half-way (division by zero at one id)
-- 4 times in a PL/pgSQL block, and the next sort, in the same block, takes
-- an arena (its DEBUG1 line would say so if other sorts held them all).
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1737000000000 + ms), lpad(to_hex(ms), 20, '0'))
  FROM generate_series(0, 19999) ms
 ORDER BY md5(ms::text);
DO $$
BEGIN
	FOR attempt IN 1..4 LOOP
		BEGIN
			PERFORM sum(x) FROM
				(SELECT id, 1 / (ulid_unix_ms(id) - 1737000015000)::int AS x
				   FROM late ORDER BY id OFFSET 0) s;
		EXCEPTION WHEN division_by_zero THEN
			RAISE NOTICE 'sort % failed half-way', attempt;
		END;
	END LOOP;
	PERFORM count(*) FROM (SELECT id FROM late ORDER BY id OFFSET 0) s;
END
$$;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS after_errors_misplaced FROM late;
-- ... a merge join sorts both sides at once, each in an arena ...
SET enable_hashjoin = off;
SET enable_nestloop = off;
SELECT count(*) AS joined FROM late a JOIN late b USING (id);
RESET enable_hashjoin;
RESET enable_nestloop;
-- ... and 4 open cursors hold all 4: the fifth sort's tables are in its own
-- memory, until the cursors close.
BEGIN;
DECLARE c1 CURSOR FOR SELECT id FROM late ORDER BY id;
DECLARE c2 CURSOR FOR SELECT id FROM late ORDER BY id DESC;
DECLARE c3 CURSOR FOR SELECT id FROM late ORDER BY id;
DECLARE c4 CURSOR FOR SELECT id FROM late ORDER BY id DESC;
FETCH c1;
FETCH c2;
FETCH c3;
FETCH c4;
SELECT count(*) AS fifth_sort FROM (SELECT id FROM late ORDER BY id OFFSET 0) s;
COMMIT;
SELECT count(*) AS after_the_cursors FROM (SELECT id FROM late ORDER BY id OFFSET 0) s;

-- The random part of the ids of t) to v), in hex: the top 16 bits, then 48
-- bits, then the last 16.
CREATE FUNCTION pg_temp.random_hex(top int, middle int, tail text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT lpad(to_hex(top % 65536), 4, '0') || lpad(to_hex(middle), 12, '0') || tail
$$;

-- t) Short runs in a large table: a sample of ids in 1,022 milliseconds 97
-- apart, two of them with an id near (+ 2: not in a row, w16c; the sample
-- finds 2 runs, fewer than 4), then runs in new milliseconds between them:
-- each millisecond of the sample's span gets an entry of the table of
-- blocks (its first id's), and the ids of that block keys from it, the
-- other ids of the millisecond their plain keys below and above them.  In that order:
-- - the sample: the first id of each millisecond ends in c000, so an id
--   made an anchor of that table in its place (had it not been refused one)
--   would take a key above the first's;
-- - 5 ids in each of 1,022 new milliseconds, shuffled: a run of 3 and one
--   id in the blocks below and above (the same plain key);
-- - blocks the table cannot hold (0, and the marks 1 and 2 are below 3):
--   ids of block 0 first, then of block 7, then 0 again;
-- - a block whose near keys end at the top of the field, then an id
--   with the lowest plain key of the next millisecond;
-- - ids one per millisecond, and runs of 3, past the table's span: plain
--   keys (the leaner converter's, from 2,560 ids on: anchoring stopped
--   when the table of blocks was made);
-- - once the leaner converter took over, ids near and far (other blocks,
--   the same plain key) of the sample's milliseconds: their latent anchors
--   were dropped, the two active ones kept.
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1738000000000 + ms), r)
  FROM (SELECT 1 AS phase, i * 97 AS ms, pg_temp.random_hex(i * 7919, i, to_hex(49152 + d)) AS r,
			   i * 3 + d AS o
		  FROM generate_series(0, 1021) i, unnest(ARRAY[0, 2]) d
		 WHERE d = 0 OR i IN (500, 501)
		UNION ALL
		SELECT 2, i * 97 + 48, pg_temp.random_hex(i * 31, i + b, to_hex(32767 + d)),
			   ascii(md5(i || ' ' || b || ' ' || d))
		  FROM generate_series(0, 1021) i, (VALUES (0, 0), (0, 1), (0, 2), (-1, 0), (1, 0)) v (b, d)
		UNION ALL
		SELECT 3, 13, '0000' || r, o
		  FROM (VALUES ('0000000000000005', 1), ('0000000000070000', 2), ('0000000000000003', 3),
					   ('0000000000070001', 4)) v (r, o)
		UNION ALL
		SELECT 4, 14, 'ffff' || r, o
		  FROM (VALUES ('ffffffffffff0010', 1), ('ffffffffffffffff', 2), ('ffffffffffff0000', 3),
					   ('fffffffffffe0000', 4)) v (r, o)
		UNION ALL
		SELECT 4, 15, '00000000000000000001', 5
		UNION ALL
		SELECT 5, 500000 + ms, lpad(to_hex(ms), 20, '0'), 0
		  FROM generate_series(0, 4499) ms
		UNION ALL
		SELECT 5, 600000 + ms, lpad(to_hex(ms), 4, '0') || lpad(to_hex(1000 + d), 16, '0'), 1
		  FROM generate_series(0, 99) ms, generate_series(0, 2) d
		UNION ALL
		SELECT 6, i * 97, pg_temp.random_hex(i * 7919, i, to_hex(49152 + d)), ascii(md5(i || ' ' || d))
		  FROM generate_series(0, 1021) i, unnest(ARRAY[-1, 2]) d
		UNION ALL
		SELECT 6, i * 97, pg_temp.random_hex(i * 7919, i + b, 'c000'), ascii(md5(i || ' ' || b))
		  FROM generate_series(0, 1021) i, unnest(ARRAY[-1, 1]) b) p
 ORDER BY phase, o, ms, r;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS short_runs_misplaced FROM late;

-- u) Short runs the sample did not find: a sample of ids in 1,024
-- milliseconds 97 apart, none near another (anchoring stops), then the ids
-- watched while the estimate lasts: runs of 2 in 20 new milliseconds in
-- the middle (20 ids near the last of their millisecond, enough to make
-- the table of blocks when the estimate ends), one id in each of 1,024 other new
-- milliseconds, and ids past the span.  Every millisecond keyed so far was
-- keyed plainly, and must stay so: once the leaner converter took over, ids
-- of the blocks of those ids, on the side of them a near key would have
-- put wrong (the sample's ids end in c000, ids of their blocks below them
-- in 9000; the watched ids end in 0100, ids above them in 0200); and runs
-- of 3 in 1,024 new milliseconds, with an id of the block below and above.
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1739000000000 + ms), r)
  FROM (SELECT 1 AS phase, i * 97 AS ms, pg_temp.random_hex(i * 7919, i, 'c000') AS r, 0 AS o
		  FROM generate_series(0, 1023) i
		UNION ALL
		SELECT 2, i * 97 + 48, pg_temp.random_hex(i * 31, i, r), 0
		  FROM generate_series(500, 519) i, unnest(ARRAY['0100', '0200']) r
		UNION ALL
		SELECT 2, i * 97 + 24, pg_temp.random_hex(i * 13, i, '0100'), 1
		  FROM generate_series(0, 1023) i
		UNION ALL
		SELECT 2, 500000 + ms, lpad(to_hex(ms), 20, '0'), 2
		  FROM generate_series(0, 8199) ms
		UNION ALL
		SELECT 3, i * 97, pg_temp.random_hex(i * 7919, i, r), ascii(md5(i || r))
		  FROM generate_series(0, 1023) i, unnest(ARRAY['9000', 'd000']) r
		UNION ALL
		SELECT 3, i * 97 + 24, pg_temp.random_hex(i * 13, i, r), ascii(md5(i || r))
		  FROM generate_series(0, 1023) i, unnest(ARRAY['0080', '0200']) r
		UNION ALL
		SELECT 3, i * 97 + 48, pg_temp.random_hex(i * 31, i, r), ascii(md5(i || r))
		  FROM generate_series(500, 519) i, unnest(ARRAY['0050', '0300']) r
		UNION ALL
		SELECT 3, i * 97 + 72, pg_temp.random_hex(i * 17, i + b, to_hex(32767 + d)),
			   ascii(md5(i || ' ' || b || ' ' || d))
		  FROM generate_series(0, 1023) i, (VALUES (0, 0), (0, 1), (0, 2), (-1, 0), (1, 0)) v (b, d)) p
 ORDER BY phase, o, ms, r;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS short_runs_after_sample_misplaced FROM late;

-- v) As u), but the ids watched in the 100 new milliseconds are not near
-- the last of theirs: a copy of it, an id of another block (its last 8
-- bytes 65,536 above), an id of other first 8 bytes (its last 8 bytes 1
-- above):
-- none counts, and no table of blocks is made (plain keys).
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1740000000000 + ms), r)
  FROM (SELECT 1 AS phase, i * 97 AS ms, pg_temp.random_hex(i * 7919, i, 'c000') AS r, 0 AS o
		  FROM generate_series(0, 1023) i
		UNION ALL
		SELECT 2, i * 97 + 48, r, o
		  FROM generate_series(0, 99) i,
			   LATERAL (VALUES ('1234' || lpad(to_hex(i), 12, '0') || '0100', 0),
							   ('1234' || lpad(to_hex(i), 12, '0') || '0100', 1),
							   ('1234' || lpad(to_hex(i + 1), 12, '0') || '0100', 2),
							   ('1235' || lpad(to_hex(i + 1), 12, '0') || '0101', 3)) v (r, o)
		UNION ALL
		SELECT 3, 500000 + ms, lpad(to_hex(ms), 20, '0'), 0
		  FROM generate_series(0, 8999) ms) p
 ORDER BY phase, ms, o;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS not_near_watched_misplaced FROM late;

-- w) Several generators' runs in one millisecond (bulk loads at once): an
-- anchor is a part's (the ids of a millisecond of the same top 6 random
-- bits), and the parts of a millisecond take the ways of its slot, 4 at
-- most.  Runs of 3,000 in parts 7, 8, 20, 41 and 50 (a fifth part: its ways
-- are taken) and of 1,000 in part 20 again, shuffled: the run of part 7
-- with the highest plain field of its part, the run of part 8 with the
-- lowest (the margin keeps their near keys in their parts); and ids of
-- millisecond 0 with few random bits set (outside the window, they look
-- into slot 0, whose ways hold millisecond 1's mark).
TRUNCATE late;
INSERT INTO late
SELECT id FROM
	(SELECT pg_temp.id('1955bafc200', r.high || lpad(to_hex(r.low + i), 16, '0')) AS id, md5(r.high || i) AS o
	   FROM (VALUES ('1fff', x'fc00000000000000'::int8, 3000), ('2000', 1::int8, 3000),
					('5123', x'1234567800000000'::int8, 3000), ('a456', x'2345678900000000'::int8, 3000),
					('c810', x'3456789a00000000'::int8, 3000), ('5180', x'4567890100000000'::int8, 1000))
			r (high, low, n),
			LATERAL generate_series(0, r.n - 1) i
	 UNION ALL
	 SELECT pg_temp.id('0', lpad(to_hex(k), 4, '0') || lpad(to_hex(k * 7), 16, '0')), md5(k::text)
	   FROM generate_series(1, 40) k) p
 ORDER BY o;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS runs_in_parts_misplaced FROM late;

-- w2) As w), with anchors out of reach: a bulk load (runs in two parts of
-- each of 4 milliseconds), two runs in parts of a millisecond a year and
-- more later (active in the sample, kept once the table is laid out for
-- the load, out of its reach), and uuids converted to ulid: the converter
-- of runs and ids outside the window keys the ids after the estimate, and
-- must find the anchors in the other ways.
TRUNCATE late;
INSERT INTO late
SELECT id FROM
	(SELECT pg_temp.id(to_hex(r.ms), r.high || lpad(to_hex(r.low + i), 16, '0')) AS id,
			i >= 110 AS after, md5(r.high || i) AS o
	   FROM (VALUES (1742000000000, '1234', x'0123456700000000'::int8, 1500),
					(1742000000000, '4bcd', x'1234567800000000'::int8, 1500),
					(1742000000001, '1235', x'2345678900000000'::int8, 1500),
					(1742000000001, '4bce', x'3456789a00000000'::int8, 1500),
					(1742000000002, '1236', x'456789ab00000000'::int8, 1500),
					(1742000000002, '4bcf', x'56789abc00000000'::int8, 1500),
					(1742000000003, '1237', x'6789abcd00000000'::int8, 1500),
					(1742000000003, '4bd0', x'789abcde00000000'::int8, 1500),
					(1782000000000, '2222', x'0abcdef000000000'::int8, 3000),
					(1782000000000, 'a000', x'1abcdef000000000'::int8, 3000))
			r (ms, high, low, n),
			LATERAL generate_series(0, r.n - 1) i
	 UNION ALL
	 SELECT ('f' || substr(md5(k::text), 2, 31))::uuid::ulid, k >= 40, md5(k::text)
	   FROM generate_series(1, 4000) k) p
 ORDER BY after, o;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS parts_out_of_reach_misplaced FROM late;

-- w2b) As w2), with 6,000 ids one a millisecond between the load and the
-- runs a year later among the ids after the sample: ids of the window out
-- of reach of the anchors, a fifth of those the estimate meets after the
-- sample, so the mixed converter makes their plain keys too (without
-- them, as in w2, the converter of runs and ids outside the window is
-- picked), and must still find the anchors of the runs a year later in
-- the other ways.
CREATE TEMP TABLE w2_ids AS SELECT id, row_number() OVER () AS n FROM late;
TRUNCATE late;
INSERT INTO late
SELECT id FROM
	(SELECT id, n > 1139 AS after, md5(id::text) AS o FROM w2_ids
	 UNION ALL
	 SELECT pg_temp.id(to_hex(1760000000000 + ms), lpad(to_hex(ms * 7919), 20, '0')), true, md5(ms::text)
	   FROM generate_series(0, 5999) ms) p
 ORDER BY after, o;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS plain_and_out_of_reach_misplaced FROM late;
DROP TABLE w2_ids;

-- x) The table of blocks with several parts in a millisecond: a sample of
-- ids in 1,022 milliseconds 97 apart, each with the highest plain field
-- of its part (part 7), with two runs of 2 in milliseconds of their own
-- (ids 2 apart, not in a row, w16c; short runs: the table of blocks);
-- most of the sample's latent anchors are given up for others in its
-- small table, their parts refused and their milliseconds left without an
-- entry.  Then in each of those milliseconds an id of part 8, the lowest
-- plain field of its part, makes the block anchor, and an id of part 7
-- just above the sample's must keep its plain key: near keys placed in
-- part 7 would put it below.
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1743000000000 + ms), r)
  FROM (SELECT 1 AS phase, i * 97 + d * 50 AS ms,
			   CASE d WHEN 0 THEN '1fff' || 'fc' || lpad(to_hex(i), 10, '0') || '0000'
			   ELSE '1234' || lpad(to_hex(e), 16, '0') END AS r, i * 4 + d + e AS o
		  FROM generate_series(0, 1021) i, (VALUES (0, 0), (1, 0), (1, 2)) v (d, e)
		 WHERE d = 0 OR i IN (500, 501)
		UNION ALL
		SELECT 2, i * 97, '2000' || lpad(to_hex(i), 16, '0'), i
		  FROM generate_series(0, 1021) i
		UNION ALL
		SELECT 3, i * 97, '1fff' || 'fc' || lpad(to_hex(i), 10, '0') || '0002', i
		  FROM generate_series(0, 1021) i
		UNION ALL
		SELECT 4, 500000 + ms, lpad(to_hex(ms), 20, '0'), 0
		  FROM generate_series(0, 8199) ms) p
 ORDER BY phase, o;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS blocks_in_parts_misplaced FROM late;

-- w3) Ways taken in a grown sample's table: 40 ids one per millisecond
-- first (the table grows to its size before runs, 256 slots), then runs of
-- 1,000 in 4 parts of one millisecond, the first id of each run first: the
-- second part takes ways, with a fourth of the slots (the sample's table
-- keeps to its bytes), and its anchor, and those after it, must go to the
-- slot of their millisecond in the smaller table.
--
-- (Runs of run_length ids in 4 parts of millisecond run_ms, in phases: the
-- first id of each run, phase 2, then the others, phase 3, by o.)
CREATE FUNCTION pg_temp.runs_in_four_parts(run_ms int8, run_length int)
	RETURNS TABLE (phase int, ms int8, r text, o text) LANGUAGE sql AS $$
	SELECT CASE i WHEN 0 THEN 2 ELSE 3 END, run_ms,
		   v.high || lpad(to_hex(v.low + i), 16, '0'),
		   CASE i WHEN 0 THEN v.high ELSE md5(v.high || i) END
	  FROM (VALUES ('1234', x'0123456700000000'::int8), ('4bcd', x'1234567800000000'::int8),
				   ('8abc', x'2345678900000000'::int8), ('c123', x'3456789a00000000'::int8))
		   v (high, low),
		   generate_series(0, run_length - 1) i
$$;
-- (40 ids one per millisecond, phase 1, then runs of 1,000 in 4 parts)
CREATE FUNCTION pg_temp.singles_then_four_parts()
	RETURNS TABLE (phase int, ms int8, r text, o text) LANGUAGE sql AS $$
	SELECT 1, 1744000000000 + k * 1000,
		   lpad(to_hex(k * 1657 % 65536), 4, '0') || md5(k::text)::varchar(16), ''
	  FROM generate_series(0, 39) k
	UNION ALL
	SELECT * FROM pg_temp.runs_in_four_parts(1744000100000, 1000)
$$;
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(ms), r) FROM pg_temp.singles_then_four_parts() ORDER BY phase, ms, o;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS ways_in_grown_sample_misplaced FROM late;

-- w3b) As w3), the runs one after the other in insertion order (part
-- '1234' first, in another way than its slot's first): the sample ends in
-- that run, the only active anchor.  Laid out with one way a slot (no two
-- active anchors share a millisecond), the table gave up the latent
-- anchors of the three other parts, whose runs come after it, and their
-- ids tied (21 distinct keys among the 1,536 ids the estimate counted,
-- which did not end by 2,560: no DEBUG1 line); now it keeps its ways
-- where two anchors, active or latent, share a millisecond.  The sample's
-- converter of runs keys the run's ids from the anchor it keyed the id
-- before near, and must count them in the other ways (the leaner converter
-- of the other ways is picked).
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(ms), r) FROM pg_temp.singles_then_four_parts() ORDER BY phase, ms, r;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS runs_one_after_another_misplaced FROM late;

-- w4) Ways taken by a table of scattered anchors after the sample: two
-- loads a year apart (as q), 60 milliseconds each) fill the sample, whose
-- table stays small; then runs of 2,500 in 4 parts of another millisecond,
-- the first id of each run first: the second part takes ways, and the
-- runs' ids after it are keyed from their anchors in its ways (123 active
-- anchors), in a table of its bytes, a fourth of the slots (4,096 slots,
-- ways included; 16,384 when it took four times its bytes).  With the
-- table at its largest, as before it grew with its anchors, it could not
-- take ways: three parts lost their anchors to the next, their ids tied,
-- and the estimate did not end by 10,240 ids (no DEBUG1 line).  (Another
-- millisecond, 1735000005000, finds its slot taken by a load's active
-- anchor while the table is small.)
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(ms), r)
  FROM (SELECT 1 AS phase, 1735000000000 + l * 31536000000::int8 + m AS ms,
			   substr(md5(l || ' ' || m), 1, 8) || lpad(to_hex(1000 + k), 12, '0') AS r,
			   md5(l || ' ' || m || ' ' || k) AS o
		  FROM generate_series(0, 1) l, generate_series(0, 59) m, generate_series(0, 9) k
		UNION ALL
		SELECT * FROM pg_temp.runs_in_four_parts(1735000006000, 2500)) p
 ORDER BY phase, o;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS ways_in_scattered_table_misplaced FROM late;

-- w5) The watch for short runs keeps the estimate on past 2,560 ids: a
-- sample of ids of milliseconds 0 and 26,400 taking turns, one part each
-- (two anchors made), none near another (other first 8 bytes: anchoring
-- stops), 2,600 such ids, then runs of 2 in 20 milliseconds between them
-- and 8,000 ids one per millisecond between them too; then runs of 3 in 20
-- other milliseconds.  The keys are distinct, and few anchors were made, so
-- the estimate could end at 2,560 ids, before the runs: it goes on to
-- 10,240, the watch finds the 20 ids near another, and the table of blocks
-- is made (over the sample's span, a quarter wider: 33,001 milliseconds),
-- which keys the later runs (the watched runs' milliseconds keep plain
-- keys).  The same ids with the sample's milliseconds 26,000 apart: the
-- table of blocks would span 32,501 milliseconds, fewer than
-- WATCHED_MIN_SPAN, where runs seldom hide from a fair sample: no watch,
-- the estimate ends at 2,560 ids, and the runs get plain keys (they tie).
CREATE FUNCTION pg_temp.watched_after(sample_ms int) RETURNS SETOF ulid
	LANGUAGE sql AS $$
SELECT pg_temp.id(to_hex(1745000000000 + ms), r)
  FROM (SELECT 1 AS phase, i AS o, i % 2 * sample_ms AS ms,
			   pg_temp.random_hex(i, i, '0000') AS r
		  FROM generate_series(0, 2599) i
		UNION ALL
		SELECT 2, i, 1 + i * 7, pg_temp.random_hex(5, i, r)
		  FROM generate_series(0, 19) i, unnest(ARRAY['0100', '0200']) r
		UNION ALL
		SELECT 3, ms, 1000 + ms, lpad(to_hex(ms), 20, '0')
		  FROM generate_series(0, 7999) ms
		UNION ALL
		SELECT 4, i, 4 + i * 7, pg_temp.random_hex(9, i, r)
		  FROM generate_series(0, 19) i, unnest(ARRAY['0100', '0200', '0300']) r) p
 ORDER BY phase, o, r
$$;
TRUNCATE late;
INSERT INTO late SELECT * FROM pg_temp.watched_after(26400);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS watch_past_early_end_misplaced FROM late;
TRUNCATE late;
INSERT INTO late SELECT * FROM pg_temp.watched_after(26000);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS narrow_span_no_watch_misplaced FROM late;

-- w6) Runs at the edges of their parts, each sorted alone: a run of 4,000
-- whose first id, its anchor, has the highest plain field of its part (its
-- top 22 random bits end in 16 ones), inserted first id first; then one
-- whose anchor has the lowest (16 zeros), inserted last id first.  Plain
-- fields keep a margin of 16,384 keys from the edges of their part, so each
-- id gets a key of its own, and the estimate ends at 2,560 ids (with
-- anchors at the very edges, all ids of a run tied with its anchor, and it
-- went on).
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id('0196a6c5a000', 'a7fffc' || lpad(to_hex(i), 14, '0'))
  FROM generate_series(0, 3999) i ORDER BY i;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS run_at_top_of_part_misplaced FROM late;
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id('0196a6c5a001', 'a800' || lpad(to_hex(1000000 + i), 16, '0'))
  FROM generate_series(0, 3999) i ORDER BY i DESC;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS run_at_bottom_of_part_misplaced FROM late;

-- w7) A run's latent anchor given up before its second id: the first id of
-- a run of 4,000 in millisecond 1746000000000 makes it, and the next id,
-- one of a millisecond a year older (1714464000062), meets it in its slot
-- of the sample's table (64 slots) and takes the slot: the run's part is
-- refused an anchor.  Given up so early in the sample, it is kept (as
-- shape 19 of make bench lost the anchor of a run of 500 among 10,000
-- ids, whose ids tied, 1.13 times uuid v4's instructions): the run's next
-- id puts it back, and each id of the run gets a key of its own (active
-- anchors: 1; without it, the ids tie, and the estimate never ends).
-- Then the same with an id of the run's part far from the anchor, with
-- its plain key, before the run goes on: keyed plainly, it stays so, and
-- the anchor is not put back (the run's near keys would pass its key:
-- 4,000 misplaced).  Then with a run of 1,100 ids in another millisecond
-- before it goes on: the sample ends, finds runs, and puts the kept anchor
-- back (restore_victims(): active anchors 2, the DEBUG line says so; its ids
-- tied when the sample's end dropped it, and the estimate did not end); and
-- the same with the far id first: it takes the anchor out of those kept,
-- and the run's ids tie (where the sample's end put it back, 3,999
-- misplaced).
CREATE FUNCTION pg_temp.run_anchor_given_up(far_id bool, ids_between int)
	RETURNS SETOF ulid LANGUAGE sql AS $$
SELECT pg_temp.id(to_hex(ms), r)
  FROM (SELECT 0 AS o, 1746000000000 AS ms, '5a5a' || repeat('0', 16) AS r
		UNION ALL
		SELECT 1, 1714464000062, substr(md5('c'), 1, 20)
		UNION ALL
		SELECT 2, 1746000000000, '5a5a0000010000000000' WHERE far_id
		UNION ALL
		SELECT 3, 1714464000130, substr(md5('d'), 1, 20) WHERE far_id
		UNION ALL
		SELECT 4 + i, 1746000000500, '3c3c' || lpad(to_hex(i), 16, '0')
		  FROM generate_series(0, ids_between - 1) i
		UNION ALL
		SELECT 4 + ids_between + i, 1746000000000, '5a5a' || lpad(to_hex(i), 16, '0')
		  FROM generate_series(1, 3999) i) p
 ORDER BY o
$$;
TRUNCATE late;
INSERT INTO late SELECT * FROM pg_temp.run_anchor_given_up(false, 0);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS anchor_put_back_misplaced FROM late;
TRUNCATE late;
INSERT INTO late SELECT * FROM pg_temp.run_anchor_given_up(true, 0);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS far_id_keeps_it_refused_misplaced FROM late;
TRUNCATE late;
INSERT INTO late SELECT * FROM pg_temp.run_anchor_given_up(false, 1100);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS put_back_after_the_sample_misplaced FROM late;
TRUNCATE late;
INSERT INTO late SELECT * FROM pg_temp.run_anchor_given_up(true, 1100);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS far_id_not_put_back_misplaced FROM late;

-- w8) Two loads at once whose runs of a millisecond share the top 5 bits
-- of their randomness, not the 6th: a run of 1,000 (its first id first)
-- and one of 3,000, shuffled.  Parts of 6 bits give each run its anchor
-- (active anchors: 2).  With parts of 5 bits the longer run's ids tied,
-- the keys were a quarter of the ids, and the estimate did not end (no
-- DEBUG line): two of four loads at once shared a part in one millisecond
-- of 6.
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id('19a4c1e4000', r.high || lpad(to_hex(r.low + i), 16, '0'))
  FROM (VALUES ('5123', x'1234567800000000'::int8, 1000), ('57f0', x'4567890100000000'::int8, 3000))
		r (high, low, n),
	   LATERAL generate_series(0, r.n - 1) i
 ORDER BY r.high = '5123' AND i = 0 DESC, md5(r.high || i);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS runs_of_two_parts_misplaced FROM late;

-- w9) Runs of 5 ids a millisecond, shuffled, going on after the sample and
-- the estimate in a table laid out for their span: the leaner converter
-- makes their anchors, and makes them active, in place (anchor_in_place()).
-- First 3,000 ids of runs in 600 milliseconds (the sample lays the table
-- out, 2,048 slots, and the estimate ends); then 12,000 ids of runs in the
-- next 2,400 (past 2,048 the table grows), with an id 600,000 above or
-- below its run in every 7th millisecond, a copy of the lowest id of the
-- run in every 11th, and in every 13th an id of its part whose first 8
-- bytes differ in their last bit, 2 above the lowest of the run in its
-- last 8 (near its anchor's key, not of its anchor), all shuffled: those
-- that meet a latent anchor go on to ulid_abbrev_convert.  Last, in every
-- 13th millisecond, an id of another part, 2 above the lowest of the run
-- (its millisecond's parts take ways).
CREATE FUNCTION pg_temp.run_id(ms int, part_bit int, d int8) RETURNS ulid LANGUAGE sql AS $$
	SELECT pg_temp.id(to_hex(1764000000000 + ms),
					  lpad(to_hex((hashint4(ms * 7) & 32767) # part_bit), 4, '0') ||
					  lpad(to_hex(((hashint4(ms) & 2147483647)::int8 << 20) + (1::int8 << 40) + d), 16, '0'))
$$;
TRUNCATE late;
INSERT INTO late
SELECT id FROM
	(SELECT 1 AS phase, md5(ms || ' ' || k) AS o, pg_temp.run_id(ms, 0, k) AS id
	   FROM generate_series(0, 599) ms, generate_series(0, 4) k
	 UNION ALL
	 SELECT 2, md5(ms || ' ' || k), pg_temp.run_id(ms, 0, k)
	   FROM generate_series(600, 2999) ms, generate_series(0, 4) k
	 UNION ALL
	 SELECT 2, md5(ms || ' far'), pg_temp.run_id(ms, 0, CASE WHEN ms % 2 = 0 THEN 600000 ELSE -600000 END)
	   FROM generate_series(602, 2999, 7) ms
	 UNION ALL
	 SELECT 2, md5(ms || ' copy'), pg_temp.run_id(ms, 0, 0)
	   FROM generate_series(605, 2999, 11) ms
	 UNION ALL
	 SELECT 2, md5(ms || ' next'), pg_temp.run_id(ms, 1, 2)
	   FROM generate_series(604, 2999, 13) ms
	 UNION ALL
	 SELECT 3, md5(ms::text), pg_temp.run_id(ms, 32768, 2)
	   FROM generate_series(603, 2999, 13) ms) p
 ORDER BY phase, o;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS anchors_in_place_misplaced FROM late;

-- w10) Batches of 10 ids in one millisecond over a year (1,000 batches),
-- shuffled: while the sample finds runs of few ids each (fewer than 4 near
-- each active anchor), its table takes ways for another millisecond's part
-- at an anchor made for every 32 slots, not 16 (ways_for_other_ms()), and
-- keeps the anchors of the batches that met in a slot before that (761
-- active, 752 at 16; 763 with 2 the sample gave up put back).
TRUNCATE late;
SELECT pg_temp.insert_batches(1000, 31536000);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS batches_a_year_misplaced FROM late;

-- w11) Ways taken after the sample for another millisecond's active
-- anchor: 100 batches of 10 ids in one millisecond at random times over a
-- year, shuffled (the sample: the table takes no ways, and its anchors are
-- scattered), then 1,500 batches of 2, each in order (an anchor made and
-- made active at once): those that find their slot taken by another
-- batch's active anchor take the table's ways, in its bytes (878 active
-- anchors; 852 where they were refused theirs).
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1735000000000 + (hashint4(b) & 2147483647)::int8 * 15),
				  substr(md5(b::text), 1, 8) || lpad(to_hex(1000 + k), 12, '0'))
  FROM (SELECT b, k, md5(b || ' ' || k) AS o
		  FROM generate_series(0, 99) b, generate_series(0, 9) k
		UNION ALL
		SELECT b, k, 'z' || lpad(b::text, 8, '0') || k
		  FROM generate_series(100, 1599) b, generate_series(0, 1) k) p
 ORDER BY o;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS ways_after_sample_misplaced FROM late;

-- w12) Two loads a year apart, 10 milliseconds of 500 ids each, shuffled:
-- in the sample's first table (64 slots, 4 blocks of 16) the blocks of the
-- two loads share their slots, and a part finds the other load's active
-- anchor in its slot, where the table takes no ways: the table grows until
-- the slot is the part's (place_anchor_grown()), 20 active anchors, one a
-- millisecond (19 where the part was refused one).
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1735689600000 + l * 31536000000 + m),
				  substr(md5(l || ' ' || m), 1, 4) || lpad(to_hex(100000 + k), 16, '0'))
  FROM generate_series(0, 1) l, generate_series(0, 9) m, generate_series(0, 499) k
 ORDER BY md5('2 ' || l || ' ' || m || ' ' || k);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS loads_apart_misplaced FROM late;

-- w13) Latent anchors given up in the sample, put back at its end: n ids
-- one a millisecond, 3 apart (each its millisecond's latent anchor, most
-- given up for another millisecond's in the sample's first tables, and
-- refused), then runs of 80 ids in 8 milliseconds among them (the sample
-- ends in them, finds runs, and lays the table out for their span), then
-- 20 more ids of each of the n milliseconds, 1 to 10 below and above its
-- first, and 100 more of each run, shuffled.  The anchors kept
-- (keep_victim()) go back to the table, and their parts are no longer
-- refused: the refused bitmap is made again from the parts the sample
-- refused, which keep their plain keys (a part of them made an anchor
-- after the sample: the ids between its first id and the anchor's would
-- pass the first's key, misplaced).  With 400, 12 anchors go back; with
-- 900, the sample refuses more parts than it records (REFUSALS_RECORDED),
-- the bitmap cannot be made again, and none goes back.
CREATE FUNCTION pg_temp.victims_rows(n int)
	RETURNS TABLE (phase int, ms int, d int, o text) LANGUAGE sql AS $$
SELECT 1, k * 3, 0, lpad(k::text, 6, '0')
  FROM generate_series(0, n - 1) k
UNION ALL
SELECT 2, 1 + 300 * r, i, lpad(r::text, 2, '0') || lpad(i::text, 4, '0')
  FROM generate_series(0, 7) r, generate_series(1, 80) i
UNION ALL
SELECT 3, k * 3, d, md5(k || ' ' || d)
  FROM generate_series(0, n - 1) k, generate_series(-10, 10) d
 WHERE d <> 0
UNION ALL
SELECT 3, 1 + 300 * r, i, md5(r || ' run ' || i)
  FROM generate_series(0, 7) r, generate_series(81, 180) i
$$;
-- the id of such a row: its first 16 random bits given (by default those
-- of the millisecond's hash), d the distance from its millisecond's first
CREATE FUNCTION pg_temp.victims_id(ms int, d int, random16 int DEFAULT NULL) RETURNS ulid
	LANGUAGE sql AS $$
SELECT pg_temp.id(to_hex(1767000000000 + ms),
				  lpad(to_hex(coalesce(random16, hashint4(ms) & 65535)), 4, '0') ||
				  lpad(to_hex(((hashint4(ms * 3) & 2147483647)::int8 << 24) + (1::int8 << 60) + d), 16, '0'))
$$;
TRUNCATE late;
INSERT INTO late SELECT pg_temp.victims_id(ms, d) FROM pg_temp.victims_rows(400) ORDER BY phase, o;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS victims_put_back_misplaced FROM late;
TRUNCATE late;
INSERT INTO late SELECT pg_temp.victims_id(ms, d) FROM pg_temp.victims_rows(900) ORDER BY phase, o;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS refusals_past_record_misplaced FROM late;

-- w14) A latent anchor dropped out of reach at the sample's end stays
-- refused through restore_victims(): as w13 with 400 (12 anchors go back),
-- plus, in the sample, an id of another part of the first run's
-- millisecond (the sample's table takes ways: its reach is a fourth while
-- the table is laid out, until it gives them back), and that id + 1, which
-- crosses a multiple of 2^59 (another plain key: it drops the id's latent
-- anchor as the sample takes the ids kept, so that no two anchors share a
-- millisecond when the table is laid out, w3b), and a single id 40,000 ms
-- after the runs, its part's latent anchor, out of that reach but within
-- the reach after; then 20 ids of that part around it.  Made again without
-- the part's bit, the bitmap let the part make a new anchor, whose near
-- keys passed the first id's plain key (8 misplaced; found by the sort
-- fuzzer, test/suites/sort_fuzz.sh, as 1 to 3 of 677,162 ids, runs 42 ms
-- apart with work_mem at 4 MB).  Active anchors: 253 (254 with the new
-- anchor).
TRUNCATE late;
INSERT INTO late
SELECT id FROM
	(SELECT phase, o, pg_temp.victims_id(ms, d, random16) AS id
	   FROM (SELECT *, NULL::int AS random16 FROM pg_temp.victims_rows(400)
			 UNION ALL
			 SELECT 2, 40000, 0, '00', NULL
			 UNION ALL
			 SELECT 3, 40000, d, md5('far ' || d), NULL
			   FROM generate_series(-10, 10) d
			  WHERE d <> 0) p
	 UNION ALL
	 SELECT 2, o,
			pg_temp.id(to_hex(1767000000001), lpad(to_hex((hashint4(1) & 65535) # 32768), 4, '0') || low)
	   FROM (VALUES ('000001a0', '07ffffffffffffff'), ('000001a1', '0800000000000000')) v (o, low)) q
 ORDER BY phase, o;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS out_of_reach_kept_refused_misplaced FROM late;

-- w15) An id of the sample keyed plainly because its part shares its bit of
-- the refused bitmap with a refused part: the bit stays set through
-- restore_victims() (note_denied()).  As w13 with 400, plus, in the sample,
-- one id of millisecond 830 whose part (top 6 random bits 19) shares its bit
-- with a part that restore_victims() puts back (millisecond 105's), then 20
-- ids of its part around it.  Made again without the bit, the bitmap let
-- the part make an anchor after the sample, whose near keys passed the
-- first id's plain key (4 misplaced; make bench's shape 21, 1,000,000 ids of
-- two loads a year apart, misplaced one in about 17 shuffles so).
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.victims_id(ms, d, random16)
  FROM (SELECT *, NULL::int AS random16 FROM pg_temp.victims_rows(400)
		UNION ALL
		SELECT 2, 830, 0, '00', x'4d55'::int
		UNION ALL
		SELECT 3, 830, d, md5('denied ' || d), x'4d55'::int
		  FROM generate_series(-10, 10) d
		 WHERE d <> 0) p
 ORDER BY phase, o;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS denied_kept_refused_misplaced FROM late;

-- w16) The sample deferred (ulid_abbrev_convert_deferred()): an id near the
-- first of its run, whose twin another id took in the twins' table (its
-- first 8 bytes hash to the same of 64 slots), had its plain key; then
-- 2,600 ids before the window, whose estimate at 2,560 hands the ids kept to
-- the sample (catch_up()), then the rest of the run, shuffled.  The near id,
-- 5 below the first or 5 above, has the latent anchor's plain key: the
-- anchor stays latent, with no near key below it, or moved up to the near
-- id (replayed_near_latent()).  Made active there as it was, the run's ids
-- between the two passed the near id's plain key (5 misplaced, or 4).
CREATE FUNCTION pg_temp.lost_twin(near int) RETURNS TABLE (ids bigint, misplaced bigint)
	LANGUAGE sql AS $$
	TRUNCATE late;
	INSERT INTO late
	SELECT id FROM (
		SELECT 1 AS phase, 1 AS o, pg_temp.id('19ba5031000', '1234' || lpad(to_hex((1::int8 << 60) + 1000000), 16, '0')) AS id
		UNION ALL
		SELECT 1, 2, pg_temp.id('19ba5031001', '0040' || lpad(to_hex((1::int8 << 60) + 77), 16, '0'))
		UNION ALL
		SELECT 1, 3, pg_temp.id('19ba5031000', '1234' || lpad(to_hex((1::int8 << 60) + 1000000 + near), 16, '0'))
		UNION ALL
		SELECT 2, i, pg_temp.id(to_hex(i), substr(md5(i::text), 1, 20))
		  FROM generate_series(1, 2600) i
		UNION ALL
		SELECT 3, hashint4(d), pg_temp.id('19ba5031000', '1234' || lpad(to_hex((1::int8 << 60) + 1000000 + d), 16, '0'))
		  FROM generate_series(-4, 3000) d
		 WHERE d NOT IN (0, near)) p
	 ORDER BY phase, o;
	SELECT count(*), pg_temp.late_misplaced() FROM late;
$$;
SELECT n.near, s.* FROM (VALUES (-5), (5)) n (near), LATERAL pg_temp.lost_twin(n.near) s;

-- w16b) A run whose twin is lost keeps its anchor: a run of 14,000 ids in
-- a millisecond with an id of another part, among 14,000 ids one a
-- millisecond, shuffled.  The other part's id takes the run's slot in the
-- twins' table between two of the run's ids, and the second, keyed plainly,
-- is near the first's latent anchor as the sample catches up: the anchor
-- stays (as in w16), and the run's next id makes it active (1 active
-- anchor; dropped, none, and the whole run tied).
TRUNCATE late;
INSERT INTO late
SELECT pg_temp.id(to_hex(1764000000000 + m), r)
  FROM (SELECT m, substr(md5(m::text), 1, 20) AS r
		  FROM generate_series(0, 13999) m
		UNION ALL
		SELECT 0, '0123456789ab' || lpad(to_hex(k), 8, '0')
		  FROM generate_series(1, 14000) k) p
 ORDER BY md5('w17 ' || r);
SELECT count(*) AS ids, pg_temp.late_misplaced() AS lost_twin_run_misplaced FROM late;

-- (n random ids over 20 milliseconds from ms on, 10 apart in o)
CREATE FUNCTION pg_temp.random_over_20_ms(ms int8, seed text, n int) RETURNS TABLE (o int, id ulid)
	LANGUAGE sql AS $$
	SELECT k * 10, pg_temp.id(to_hex(ms + (hashint4(k) & 2147483647) % 20), substr(md5(seed || ' ' || k), 1, 20))
	  FROM generate_series(0, n - 1) k
$$;
-- w16c) Ids in a row, each the one before + 1, kept by the deferred sample
-- (kept_near_twin()): 800 random ids over 20 milliseconds with runs in a row
-- of 2, 3, 4 and 6 ids among them (the sample waits through 3 ids of a run,
-- takes them all at the fourth: the first three keyed as the third, tied),
-- then a copy of each id of the runs and 150 more ids of the run of 6 (below
-- and above it), shuffled: 980 ids, all in the sample.  Copies must have
-- equal keys (a unique index would miss them otherwise).
CREATE FUNCTION pg_temp.in_a_row_id(c int, j int) RETURNS ulid LANGUAGE sql AS $$
	SELECT pg_temp.id(to_hex(1766000000000 + c), substr(md5('w16c run ' || c), 1, 16) || lpad(to_hex(1000 + j), 4, '0'))
$$;
TRUNCATE late;
INSERT INTO late
SELECT id FROM (SELECT 1 AS phase, o, id FROM pg_temp.random_over_20_ms(1766000000000, 'w16c', 800)
				UNION ALL
				SELECT 1, c * 1000 + j, pg_temp.in_a_row_id(c, j)
				  FROM (VALUES (1, 2), (2, 3), (3, 4), (4, 6)) r (c, n), generate_series(0, n - 1) j
				UNION ALL
				SELECT 2, hashint4(c * 1000 + j), pg_temp.in_a_row_id(c, j)
				  FROM (VALUES (1, 2), (2, 3), (3, 4), (4, 6)) r (c, n), generate_series(0, n - 1) j
				UNION ALL
				SELECT 2, hashint4(j), pg_temp.in_a_row_id(4, j)
				  FROM generate_series(-50, 105) j WHERE j NOT BETWEEN 0 AND 5) p
 ORDER BY phase, o;
SELECT count(*) AS ids,
	   (SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY id) AS before FROM late) x
		 WHERE id = before) AS equal_neighbours,
	   pg_temp.late_misplaced() AS in_a_row_misplaced FROM late;
-- (a unique index over late: whether it found copies, and its SQLSTATE)
CREATE FUNCTION pg_temp.unique_index_over_late() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	CREATE UNIQUE INDEX late_unique ON late (id);
	RETURN 'built over copies';
EXCEPTION WHEN unique_violation THEN
	RETURN 'copies found (SQLSTATE ' || SQLSTATE || ')';
END $$;
SELECT pg_temp.unique_index_over_late() AS w16c_unique_index;

-- w16d) Ids near their twin apart, kept by the deferred sample
-- (kept_near_twin()): within 2 of the last id kept of their first 8 bytes,
-- with other ids kept between, up to 3 in a chain.  1,020 random ids over
-- 20 milliseconds, the sample's, with chains among their first 640, each in
-- a millisecond of its own past those: x + 2, x, x + 1; x, x + 1; x + 1, x;
-- x, x + 2, x + 1, x + 3 (whose fourth id the sample does not keep: it
-- takes the ids kept there); x, x + 1, x + 2.  The ids of a chain kept have
-- their plain key; the sample counts them, and makes their anchors active,
-- moved to them (up to an id above, or down to one below while its near
-- keys reach below it: replayed_near_latent()), once it took them all
-- (activate_replayed()):
-- 5 active anchors when the estimate ends, in 2,600 ids before the
-- window (left latent, 1: the fourth chain's fourth id makes its own
-- active).  Then a copy of each and 40 more ids of each chain's first 8
-- bytes around it, shuffled.  Copies must have equal keys.
CREATE FUNCTION pg_temp.apart_id(c int, j int) RETURNS ulid LANGUAGE sql AS $$
	SELECT pg_temp.id(to_hex(1767000000100 + c), substr(md5('w16d chain ' || c), 1, 16) || lpad(to_hex(1000 + j), 4, '0'))
$$;
CREATE TEMP TABLE chains (c int, n int, j int);
INSERT INTO chains VALUES (1, 1, 2), (1, 2, 0), (1, 3, 1), (2, 1, 0), (2, 2, 1), (3, 1, 1), (3, 2, 0),
						  (4, 1, 0), (4, 2, 2), (4, 3, 1), (4, 4, 3), (5, 1, 0), (5, 2, 1), (5, 3, 2);
TRUNCATE late;
INSERT INTO late
SELECT id FROM (SELECT 1 AS phase, o, id FROM pg_temp.random_over_20_ms(1767000000000, 'w16d', 1020)
				UNION ALL
				SELECT 1, n * 1500 + c * 70 + 5, pg_temp.apart_id(c, j) FROM chains
				UNION ALL
				SELECT 2, i, pg_temp.id(to_hex(i), substr(md5('w16d before ' || i), 1, 20))
				  FROM generate_series(1, 2600) i
				UNION ALL
				SELECT 3, hashint4(c * 100 + j), pg_temp.apart_id(c, j) FROM chains
				UNION ALL
				SELECT 3, hashint4(c * 1000 + j), pg_temp.apart_id(c, j)
				  FROM generate_series(1, 5) c, generate_series(-20, 23) j
				 WHERE j NOT BETWEEN 0 AND 3) p
 ORDER BY phase, o;
SELECT count(*) AS ids,
	   (SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY id) AS before FROM late) x
		 WHERE id = before) AS equal_neighbours,
	   pg_temp.late_misplaced() AS apart_misplaced FROM late;
SELECT pg_temp.unique_index_over_late() AS w16d_unique_index;
DROP TABLE chains;

-- w17) Short runs over a wide span that the sample found more than 3 of
-- (short_runs_only()): runs of 2 ids (a generator's, one a millisecond) in
-- 14,000 milliseconds, shuffled: the table of blocks, not one of anchors of
-- 32 bytes a millisecond; in 10,000 (a table of blocks of 12,500), anchors.
-- Then the same with two runs a millisecond (two
-- loads at once: the sample meets milliseconds with two anchors, and the
-- table of blocks would key one run of each), and ids one a millisecond
-- with a run of 14,000 in one before them (its ids near its anchor are more
-- than 4 for each active one: a run that crosses blocks): tables of anchors.
--
-- (loads runs of run_length ids in each of ms milliseconds, or one id in
-- each and a run of long_run ids in the millisecond before, shuffled; their
-- count and how many ORDER BY id misplaces)
CREATE FUNCTION pg_temp.short_runs_misplaced(loads int, run_length int, ms int, long_run int)
	RETURNS TABLE (ids bigint, misplaced bigint) LANGUAGE sql AS $$
	TRUNCATE late;
	INSERT INTO late
	SELECT pg_temp.id(to_hex(1764000000000 + m), r)
	  FROM (SELECT m, substr(md5(l || ' ' || m), 1, 16) || lpad(to_hex(k), 4, '0') AS r
			  FROM generate_series(1, loads) l, generate_series(0, ms - 1) m,
				   generate_series(0, run_length - 1) k
			UNION ALL
			SELECT m, substr(md5(m::text), 1, 20)
			  FROM generate_series(0, ms - 1) m
			 WHERE long_run > 0
			UNION ALL
			SELECT -1, '0123456789ab' || lpad(to_hex(k), 8, '0')
			  FROM generate_series(1, long_run) k) p
	 ORDER BY md5('w17 ' || r);
	SELECT count(*), pg_temp.late_misplaced() FROM late;
$$;
SELECT t.table_of, s.*
  FROM (VALUES (1, 'runs of 2, 14,000 ms', 1, 2, 14000, 0),
			   (2, 'runs of 2, 10,000 ms', 1, 2, 10000, 0),
			   (3, 'two loads, runs of 2, 14,000 ms', 2, 2, 14000, 0),
			   (4, 'one a ms, 14,000 ms, a run of 14,000', 0, 0, 14000, 14000))
	   t (n, table_of, loads, run_length, ms, long_run),
	   LATERAL pg_temp.short_runs_misplaced(loads, run_length, ms, long_run) s
 ORDER BY n;

-- w18) Ids back-filled with ulid_generate(timestamptz) over rows taken in
-- another order than their times: random ids in each millisecond, but where
-- two rows in a row share one, the second's id is the first's + 1 (a pair).
-- 10,000 ids, 500 a millisecond over 20 milliseconds: the deferred sample
-- keeps the pairs and runs of 3 in a row (w16c), and takes them at its end,
-- where an id near a latent anchor is not counted; it does not count pairs
-- in a row after that either (sample()): no anchor, plain keys (before,
-- "active anchors: 52", and the ids after the sample took the slower path).
CREATE FUNCTION pg_temp.back_filled(n int, ms int) RETURNS SETOF ulid LANGUAGE sql AS $$
	SELECT pg_temp.id(to_hex(1765000000000 + m),
					  substr(md5('w18 ' || first), 1, 16) || lpad(to_hex(k - first), 4, '0'))
	  FROM (SELECT k, m, max(CASE WHEN m IS DISTINCT FROM before THEN k END) OVER (ORDER BY k) AS first
			  FROM (SELECT k, m, lag(m) OVER (ORDER BY k) AS before
					  FROM (SELECT k, (('x' || substr(md5('w18 ms ' || k), 1, 8))::bit(32)::int8 & 2147483647) % ms AS m
							  FROM generate_series(0, n - 1) k) a) b) c
	 ORDER BY k
$$;
-- (the ids, their milliseconds, the ids after the first of a run, and how
-- many ORDER BY id misplaces)
CREATE FUNCTION pg_temp.back_filled_sorted()
	RETURNS TABLE (ids bigint, milliseconds bigint, later_ids_of_runs bigint, back_filled_misplaced bigint)
	LANGUAGE sql AS $$
	SELECT count(*), count(DISTINCT substr(id::bytea, 1, 6)),
		   count(*) - count(DISTINCT substr(id::bytea, 1, 14)), pg_temp.late_misplaced() FROM late
$$;
TRUNCATE late;
INSERT INTO late SELECT * FROM pg_temp.back_filled(10000, 20);
SELECT * FROM pg_temp.back_filled_sorted();
-- The same after a run of 4 in a row, at whose fourth id the sample takes
-- the ids kept: the pairs in a row after it are not counted as runs either
-- (counted, "active anchors: 53", and the slower path for the ids after).
TRUNCATE late;
INSERT INTO late SELECT pg_temp.id(to_hex(1765000000100), '0123456789abcdef' || lpad(to_hex(k), 4, '0'))
  FROM generate_series(1, 4) k;
INSERT INTO late SELECT * FROM pg_temp.back_filled(10000, 20);
SELECT * FROM pg_temp.back_filled_sorted();
-- w18c) 3,000 of those ids shuffled, with a pair the other way round in a
-- row after about 190 of them (the id + 1, then the id), where the ids kept
-- are not crowded: kept as a pair apart, and the deferred sample goes on
-- (taken for a run, it had the sample take the ids kept there and key
-- every id after; the keys are the same either way).
TRUNCATE late;
INSERT INTO late
SELECT id FROM (SELECT CASE WHEN left(md5('w18c ' || id::text), 1) = '0' THEN 1 ELSE 3 END AS phase, id,
					   md5('w18c ' || id::text) AS o
				  FROM pg_temp.back_filled(3000, 20) id
				UNION ALL
				SELECT 2, pg_temp.id(to_hex(1765000000007), 'fedcba9876543210' || lpad(to_hex(k), 4, '0')),
					   lpad(to_hex(2 - k), 4, '0')
				  FROM generate_series(1, 2) k) p
 ORDER BY phase, o;
SELECT * FROM pg_temp.back_filled_sorted();
-- Then a run in descending order after 100 of those ids: its first three
-- ids kept (the pair, then a chain of 3), their anchor moved down to the
-- lowest of them as the sample takes them, and the run's later ids keyed
-- below it by their distance (moved up, the anchor would key none of them,
-- and the run would tie); then a copy of each of the run's first 5 ids,
-- which must have their keys (the first three their plain key, the
-- anchor's own).
TRUNCATE late;
INSERT INTO late
SELECT id FROM (SELECT 1 AS phase, id, md5('w18c ' || id::text) AS o FROM pg_temp.back_filled(100, 20) id
				UNION ALL
				SELECT 2, pg_temp.id(to_hex(1765000000100), '0123456789ab' || lpad(to_hex(100000 - k), 8, '0')),
					   lpad(k::text, 8, '0')
				  FROM generate_series(1, 3000) k
				UNION ALL
				SELECT 3, pg_temp.id(to_hex(1765000000100), '0123456789ab' || lpad(to_hex(100000 - k), 8, '0')),
					   lpad(k::text, 8, '0')
				  FROM generate_series(1, 5) k) p
 ORDER BY phase, o;
SELECT * FROM pg_temp.back_filled_sorted();
SELECT pg_temp.unique_index_over_late() AS w18c_unique_index;
-- w18d) An anchor moved as the sample catches up keeps its near keys
-- within last 8 bytes 0 to 2^64 - 1: ids of one first 8 bytes with last 8
-- bytes 5, 4 (a pair the other way round in a row, kept), 1000 (near its
-- twin, not kept: the sample takes the ids kept there, 4 moves the anchor
-- down), then 2^64 - 1; and 2^64 - 3, 2^64 - 2 (in a row, kept),
-- 2^64 - 1000, then 0 (the anchor moved up).  (Near keys wrapped around,
-- the last id of each took a key on the other side of the others.)
TRUNCATE late;
INSERT INTO late SELECT pg_temp.id('019b0e4c6a00', 'abcd' || l)
  FROM unnest(ARRAY['0000000000000005', '0000000000000004', '00000000000003e8', 'ffffffffffffffff']) WITH ORDINALITY u (l, o)
 ORDER BY o;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS moved_down_misplaced FROM late;
TRUNCATE late;
INSERT INTO late SELECT pg_temp.id('019b0e4c6a00', 'abcd' || l)
  FROM unnest(ARRAY['fffffffffffffffd', 'fffffffffffffffe', 'fffffffffffffc18', '0000000000000000']) WITH ORDINALITY u (l, o)
 ORDER BY o;
SELECT count(*) AS ids, pg_temp.late_misplaced() AS moved_up_misplaced FROM late;
-- w18e) A pair apart 1 apart (the id, then the id - 1, kept), after 100
-- back-filled ids; the id 300 below (near its twin, not kept: the sample
-- takes the ids kept there); the run's other ids in descending order; then
-- a copy of the lower of the pair.  The anchor moves down to it, and a copy
-- of an id kept keys as that id did: left where it was, the anchor keyed
-- the copy 1 below its own key, which the id had, and the unique index was
-- built over the copy (its two ids' keys differed: the sort never compared
-- them).
TRUNCATE late;
INSERT INTO late
SELECT id FROM (SELECT 1 AS phase, id, md5('w18e ' || id::text) AS o FROM pg_temp.back_filled(100, 20) id
				UNION ALL
				SELECT CASE WHEN k <= 2 THEN 2 WHEN k = 300 THEN 3 WHEN k <= 3000 THEN 4 ELSE 5 END,
					   pg_temp.id(to_hex(1765000000100), '0123456789ab' ||
								  lpad(to_hex(100000 - CASE WHEN k > 3000 THEN 2 ELSE k END), 8, '0')),
					   lpad(k::text, 8, '0')
				  FROM generate_series(1, 3001) k) p
 ORDER BY phase, o;
SELECT * FROM pg_temp.back_filled_sorted();
SELECT pg_temp.unique_index_over_late() AS w18e_unique_index;
-- w18b) Back-filled over 2 milliseconds: half the ids follow one of their
-- millisecond, in runs of 4 and more.  In their order, the deferred sample
-- keeps a run in a row up to its 16th id once the ids kept came out of
-- order (kept_out_of_order()); shuffled, an id near its twin however far
-- (its chain up to 16 ids) where the ids kept are crowded, 16 first 8 bytes
-- or more a millisecond (kept_crowded()).  3,000 ids, then a copy of each
-- of the first 300: the sample takes the ids kept at its end and finds
-- short runs, none of which gets an anchor in the two milliseconds (the
-- DEBUG lines); the copies must have equal keys.
CREATE FUNCTION pg_temp.back_filled_over_2_ms(shuffled boolean) RETURNS void LANGUAGE sql AS $$
	TRUNCATE late;
	INSERT INTO late
	SELECT id FROM (SELECT row_number() OVER () AS o, id FROM pg_temp.back_filled(3000, 2) id) b
	 ORDER BY CASE WHEN shuffled THEN hashint8(o) ELSE o END;
	INSERT INTO late SELECT id FROM pg_temp.back_filled(300, 2) id;
$$;
CREATE FUNCTION pg_temp.back_filled_over_2_ms_sorted()
	RETURNS TABLE (ids bigint, later_ids_of_runs bigint, equal_neighbours bigint, over_2_ms_misplaced bigint)
	LANGUAGE sql AS $$
	SELECT count(*), count(*) - count(DISTINCT substr(id::bytea, 1, 14)),
		   (SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY id) AS before FROM late) x
			 WHERE x.id = x.before),
		   pg_temp.late_misplaced() FROM late
$$;
SELECT pg_temp.back_filled_over_2_ms(shuffled => false);
SELECT * FROM pg_temp.back_filled_over_2_ms_sorted();
SELECT pg_temp.unique_index_over_late() AS w18b_in_their_order_unique_index;
SELECT pg_temp.back_filled_over_2_ms(shuffled => true);
SELECT * FROM pg_temp.back_filled_over_2_ms_sorted();
SELECT pg_temp.unique_index_over_late() AS w18b_shuffled_unique_index;

-- Then 3,000 ids converted from uuid, and a bulk load after them in
-- insertion order (runs of 500 a millisecond over 20 milliseconds): the
-- sample meets the runs once the estimate is over (its DEBUG line came
-- before them), in ulid_abbrev_convert, and counts each run from its third
-- id on (the second is a pair), so its table is laid out for them (which
-- shows in time alone, as in make bench's tables in insertion order: here,
-- that the ids of that path sort right).
-- (a uuid converted to ulid, outside the window: before it for i even,
-- after it for i odd; and the ids of a bulk load, 500 a millisecond over
-- 20 milliseconds, in insertion order)
CREATE FUNCTION pg_temp.converted_id(i int) RETURNS ulid LANGUAGE sql AS $$
	SELECT CASE WHEN i % 2 = 0 THEN ('000' || substr(md5(i::text), 4))::uuid::ulid
				ELSE ('f' || substr(md5(i::text), 2))::uuid::ulid END
$$;
CREATE FUNCTION pg_temp.bulk_load(tag text) RETURNS TABLE (o int, id ulid) LANGUAGE sql AS $$
	SELECT m * 500 + k, pg_temp.id(to_hex(1765000000000 + m), substr(md5(tag || ' run ' || m), 1, 16) || lpad(to_hex(k), 4, '0'))
	  FROM generate_series(0, 19) m, generate_series(0, 499) k
$$;
TRUNCATE late;
INSERT INTO late
SELECT id FROM (SELECT 1 AS phase, i, pg_temp.converted_id(i) AS id FROM generate_series(1, 3000) i
				UNION ALL
				SELECT 2, o, id FROM pg_temp.bulk_load('w18')) p
 ORDER BY phase, i;
SELECT count(*) AS ids, count(*) FILTER (WHERE ulid_unix_ms(id) BETWEEN 1765000000000 AND 1765000000019) AS of_the_load,
	   pg_temp.late_misplaced() AS converted_then_load_misplaced FROM late;

-- w20) A column converted from uuid, then the rows added since: 32,000
-- converted uuids (outside the window), one id in 20 of them in the window
-- (scattered over 19 years, a millisecond each), then below 50 of those
-- ids (25 of the first sample's, 25 met after it) the id - 5 to the id - 1,
-- and a copy of the id, then a bulk load (500 a millisecond over 20
-- milliseconds, in insertion order).  The sample ends among the ids of the
-- window few and far between without a run, and starts again
-- (renew_sample()); the renewed one refuses their parts an anchor, counts
-- the ids that come close, and finds the load's runs.  A part of an id
-- keyed before must not get an anchor: made by the id - 5, it would key
-- the ids up to the id above the id's key (misplaced), and its copy 5
-- above it (the unique index built over it).
CREATE FUNCTION pg_temp.sparse_id(i int, low_hex text) RETURNS ulid LANGUAGE sql AS $$
	SELECT pg_temp.id(to_hex(1000000000000 + i::bigint * 19000000), substr(md5('w20 ' || i), 1, 16) || low_hex)
$$;
TRUNCATE late;
INSERT INTO late
SELECT id FROM (SELECT 1 AS phase, i AS o,
					   CASE WHEN i % 20 = 0 THEN pg_temp.sparse_id(i, '8000') ELSE pg_temp.converted_id(i) END AS id
				  FROM generate_series(1, 32000) i
				UNION ALL
				SELECT 2, 6 * i + c, pg_temp.sparse_id(i, to_hex(32763 + c))
				  FROM (SELECT generate_series(20000, 20480, 20) UNION ALL SELECT generate_series(25000, 25480, 20)) s (i),
					   generate_series(0, 5) c
				UNION ALL
				SELECT 3, o, id FROM pg_temp.bulk_load('w20')) p
 ORDER BY phase, o;
SELECT count(*) AS ids, count(*) FILTER (WHERE ulid_unix_ms(id) BETWEEN 1765000000000 AND 1765000000019) AS of_the_load,
	   pg_temp.late_misplaced() AS renewed_sample_misplaced FROM late;
SELECT pg_temp.unique_index_over_late() AS w20_unique_index;

-- w19) The sample's converter of runs makes a part's latent anchor, and
-- makes it active, in place (sample_runs_missed()): runs of 5 ids a
-- millisecond over 600 milliseconds with 150 ids of 1990 among them (fewer
-- than one in 10 outside the window: the converter that tests the window
-- for each id is not picked), all shuffled.  An id outside the window
-- goes on to ulid_abbrev_convert (it has no part of the window to anchor).
TRUNCATE late;
INSERT INTO late
SELECT id FROM (SELECT pg_temp.id(to_hex(1766000000000 + ms), substr(md5('w19 ' || ms), 1, 16) || lpad(to_hex(k), 4, '0')) AS id
				  FROM generate_series(0, 599) ms, generate_series(0, 4) k
				UNION ALL
				SELECT pg_temp.id(to_hex(631152000000 + j), substr(md5('w19 outside ' || j), 1, 20))
				  FROM generate_series(1, 150) j) p
 ORDER BY md5(id::text);
SELECT count(*) AS ids, count(*) FILTER (WHERE ulid_unix_ms(id) BETWEEN 631152000000 AND 631152000150) AS outside_the_window,
	   pg_temp.late_misplaced() AS runs_with_ids_outside_misplaced FROM late;

RESET work_mem;
RESET client_min_messages;
RESET jit;

DROP TABLE sorted, shuffled, flake_sorted, late;
DROP EXTENSION amcheck;
