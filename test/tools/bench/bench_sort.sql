-- Sort benchmarks, one session, runs interleaved, medians: ORDER BY id on
-- the table of the shape (shuffled, unless the shape says otherwise) and on
-- one in insertion order, CREATE INDEX on the first and a merge join of it
-- with itself (two sorts and a merge), for each shape of ids below, at each
-- size of bench.sort_sizes, with each work_mem of bench.sort_memory ("4MB":
-- PostgreSQL's defaults, work_mem 4MB and maintenance_work_mem 64MB, where
-- sorts of a million ids go to disk; otherwise both set to it).  Every ulid
-- shape is also sorted with core's uuid functions, the binding of 0.2.0 and
-- before (schema bench).  Each run takes the cases in an order of its own.
-- Times are wall-clock: run it alone on the machine (the backend's time on a
-- CPU, from /proc/self/schedstat, moves in steps of 4 ms on some VMs).  A
-- size under 100,000 times each sort 100,000 / n times in a row (small
-- sorts: planning, the scan and the sort support's set-up included; no
-- index builds).
-- Settings: bench.sort_sizes, bench.sort_memory, bench.sort_shapes,
-- bench.sort_workers (parallel workers a sort may use; 2 is PostgreSQL's
-- default), bench.runs.
\set ON_ERROR_STOP on
\ir prologue.sql
SELECT set_config('max_parallel_workers_per_gather', current_setting('bench.sort_workers'), false),
	   set_config('max_parallel_maintenance_workers', current_setting('bench.sort_workers'), false)
\g /dev/null
SET enable_hashjoin = off;
SET enable_nestloop = off;

\ir sort_tables.sql
-- only the shapes of bench.sort_shapes, if set, and uuid v4, which the
-- ratios are to, with the uuid v4 shapes of those sorted alike (the tables
-- are all made, since shapes are made from others)
DELETE FROM cases
 WHERE current_setting('bench.sort_shapes') <> ''
   AND pos / 2 <> 1
   AND pos / 2 <> ALL (string_to_array(current_setting('bench.sort_shapes'), ',')::int[])
   AND pos / 2 NOT IN (SELECT reference FROM like_for_like
						WHERE pos = ANY (string_to_array(current_setting('bench.sort_shapes'), ',')::int[]));

-- the sorts of one size with one work_mem, runs interleaved; benches are
-- named "<n> <work_mem> <sort>"
CREATE FUNCTION pg_temp.run_sorts(n int, memory text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	c record;
	t text;
	ord text;
	eq text;
	b text := n || ' ' || memory || ' ';
	times int := greatest(1, 100000 / n);
BEGIN
	PERFORM set_config('work_mem', memory, false);
	PERFORM set_config('maintenance_work_mem', CASE memory WHEN '4MB' THEN '64MB' ELSE memory END, false);
	FOR run IN 1 .. current_setting('bench.runs')::int LOOP
		-- each run in an order of its own, so that no case always follows another
		FOR c IN SELECT * FROM cases ORDER BY md5(run || ' ' || pos) LOOP
			t := (c.pos / 2)::text;
			ord := CASE c.binding WHEN '' THEN '' ELSE ' USING OPERATOR(bench.<)' END;
			eq := CASE c.binding WHEN '' THEN '=' ELSE 'OPERATOR(bench.=)' END;
			INSERT INTO timings VALUES (b || 'shuffled', c.pos, run, pg_temp.time_ms(format(
				'SELECT id FROM s_%s ORDER BY id%s OFFSET %s', t, ord, n), times));
			INSERT INTO timings VALUES (b || 'in order', c.pos, run, pg_temp.time_ms(format(
				'SELECT id FROM o_%s ORDER BY id%s OFFSET %s', t, ord, n), times));
			-- (not for small sorts: built many times in one transaction, an
			-- index's catalog rows pile up, and each build takes longer)
			IF times = 1 THEN
				INSERT INTO timings VALUES (b || 'index', c.pos, run, pg_temp.time_ms(format(
					'CREATE INDEX s_index ON s_%s (id %s)', t,
					CASE c.binding WHEN '' THEN '' ELSE 'bench.ulid_core_ops' END)));
				DROP INDEX s_index;
			END IF;
			INSERT INTO timings VALUES (b || 'merge join', c.pos, run, pg_temp.time_ms(format(
				'SELECT count(*) FROM s_%s a JOIN s_%s b ON a.id %s b.id', t, t, eq), times));
		END LOOP;
	END LOOP;
END
$$;

-- the medians of one size and work_mem, by sort ("shuffled", "index", ...)
CREATE FUNCTION pg_temp.medians_of(n int, memory text)
	RETURNS TABLE (bench text, pos int, ms float8) LANGUAGE sql AS $$
	SELECT substr(bench, length(n || ' ' || memory) + 2), case_name::int, ms
	  FROM medians WHERE bench LIKE n || ' ' || memory || ' %'
$$;

-- each median with those it is reported against: uuid v4's (ref), core's
-- uuid functions' on the same ids (core, for ulid's own sort support) and
-- the uuid v4 shape sorted alike (alike, for shapes 11 to 13, but in
-- insertion order, which is not theirs)
CREATE FUNCTION pg_temp.against(n int, memory text) RETURNS TABLE (
	pos int, bench text, ms float8, ref float8, core float8, alike float8)
LANGUAGE sql AS $$
	WITH m AS (SELECT * FROM pg_temp.medians_of(n, memory))
	SELECT m.pos, m.bench, m.ms, ref.ms, core.ms, alike.ms
	  FROM m JOIN m ref ON ref.bench = m.bench AND ref.pos = 2
	  LEFT JOIN m core ON core.bench = m.bench AND core.pos = m.pos + 1
		   AND m.pos % 2 = 0 AND m.pos IN (SELECT pos FROM cases WHERE type = 'ulid')
	  LEFT JOIN like_for_like l ON m.pos / 2 = l.pos
	  LEFT JOIN m alike ON alike.bench = m.bench AND alike.pos = l.reference * 2
		   AND m.bench <> 'in order'
$$;

-- the table of one size and work_mem, times as multiples of uuid v4's, of
-- the uuid v4 shape sorted alike and, for ulid's own sort support, of core's
-- uuid functions on the same ids
CREATE FUNCTION pg_temp.report(n int, memory text) RETURNS TABLE (
	"ids" text, "ORDER BY" text, "ORDER BY, insertion order" text,
	"CREATE INDEX" text, "merge join" text)
LANGUAGE sql AS $$
	WITH cell AS (SELECT a.pos, a.bench,
						 format('%s ms (%s×%s%s)', round(a.ms::numeric), round((a.ms / a.ref)::numeric, 2),
								', ' || round((a.ms / a.alike)::numeric, 2) || '× alike',
								', ' || round((a.ms / a.core)::numeric, 2) || '× core') AS v
					FROM pg_temp.against(n, memory) a)
	SELECT c.shape,
		   max(v) FILTER (WHERE bench = 'shuffled'),
		   max(v) FILTER (WHERE bench = 'in order'),
		   max(v) FILTER (WHERE bench = 'index'),
		   max(v) FILTER (WHERE bench = 'merge join')
	  FROM cell JOIN cases c USING (pos)
	 GROUP BY c.pos, c.shape ORDER BY c.pos
$$;

-- ulid's own sort support where it took longer than uuid v4, than the uuid
-- v4 shape sorted alike, or than core's functions on the same ids
CREATE FUNCTION pg_temp.above_target(n int, memory text) RETURNS TABLE (
	"ids" text, "sort" text, "× uuid v4" numeric, "× alike" numeric, "× core" numeric)
LANGUAGE sql AS $$
	SELECT c.shape, a.bench, round((a.ms / a.ref)::numeric, 2),
		   round((a.ms / a.alike)::numeric, 2), round((a.ms / a.core)::numeric, 2)
	  FROM pg_temp.against(n, memory) a JOIN cases c USING (pos)
	 WHERE c.type = 'ulid' AND c.binding = ''
	   AND (a.ms > a.ref OR a.ms > a.alike OR a.ms > a.core)
	 ORDER BY c.pos, a.bench
$$;

CREATE TEMP VIEW sizes AS
SELECT n, memory
  FROM unnest(string_to_array(current_setting('bench.sort_sizes'), ',')::int[]) WITH ORDINALITY a(n, i),
	   unnest(string_to_array(current_setting('bench.sort_memory'), ',')) WITH ORDINALITY b(memory, j)
 ORDER BY i, j;

DO $$
DECLARE
	n int;
	memory text;
BEGIN
	FOREACH n IN ARRAY string_to_array(current_setting('bench.sort_sizes'), ',')::int[] LOOP
		PERFORM pg_temp.make_tables(n);
		FOREACH memory IN ARRAY string_to_array(current_setting('bench.sort_memory'), ',') LOOP
			PERFORM pg_temp.run_sorts(n, memory);
		END LOOP;
	END LOOP;
END
$$;

\echo
SELECT current_setting('bench.runs') AS runs, current_setting('bench.sort_workers') AS workers \gset
\echo 'Sorting N ids, medians of' :runs 'runs, wall-clock time (N under 100,000: of 100,000 / N sorts in a row); work_mem 4MB: PostgreSQL''s defaults (maintenance_work_mem 64MB); parallel workers a sort may use:' :workers
\echo 'In parentheses: times uuid v4''s; for shapes 11 to 13, times those of uuid v4 sorted alike (shapes 25 to 27: already sorted, reversed, each id 10 times); for ulid''s own sort support, times core''s uuid functions on the same ids'
SELECT s.n AS "N", s.memory AS "work_mem", r.*
  FROM sizes s, pg_temp.report(s.n, s.memory) r;
\echo 'ulid''s own sort support above 1.00× uuid v4, uuid v4 sorted alike or core''s functions:'
SELECT s.n AS "N", s.memory AS "work_mem", r.*
  FROM sizes s, pg_temp.above_target(s.n, s.memory) r;
