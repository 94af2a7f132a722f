-- Sort benchmarks, one session, runs interleaved, medians: ORDER BY id on
-- the table of the shape (shuffled, unless the shape says otherwise) and on
-- one in insertion order, CREATE INDEX on the first and a merge join of it
-- with itself (two sorts and a merge), for each shape of ids below, at each
-- size of bench.sort_sizes.  Every ulid shape is also sorted with core's uuid
-- functions, the binding of 0.2.0 and before (schema bench).
-- Times are the backend's time on a CPU (/proc/self/schedstat) where the
-- system shows it, so that other work on the machine weighs less; otherwise
-- wall-clock time.
-- Settings: bench.sort_sizes, bench.runs.
\set ON_ERROR_STOP on
\ir prologue.sql
SET work_mem = '2GB';
SET maintenance_work_mem = '2GB';
SET max_parallel_workers_per_gather = 0;
SET max_parallel_maintenance_workers = 0;
SET enable_hashjoin = off;
SET enable_nestloop = off;

\ir sort_tables.sql

-- the backend's time on a CPU, in ms, or the wall clock's where not shown
CREATE FUNCTION pg_temp.clock_ms() RETURNS float8 LANGUAGE plpgsql AS $$
BEGIN
	RETURN split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::float8 / 1e6;
EXCEPTION WHEN OTHERS THEN
	RETURN 1000 * extract(epoch FROM clock_timestamp());
END
$$;
CREATE FUNCTION pg_temp.sort_ms(statement text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
	t0 float8 := pg_temp.clock_ms();
BEGIN
	EXECUTE statement;
	RETURN pg_temp.clock_ms() - t0;
END
$$;
SELECT CASE WHEN pg_temp.clock_ms() < 1e11 THEN 'time on a CPU (/proc/self/schedstat)'
			ELSE 'wall-clock time' END AS clock \gset

CREATE FUNCTION pg_temp.run_sorts(n int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	c record;
	t text;
	ord text;
	eq text;
BEGIN
	FOR run IN 1 .. current_setting('bench.runs')::int LOOP
		-- every other run in reverse order, so that no case always runs first
		FOR c IN SELECT * FROM cases ORDER BY CASE WHEN run % 2 = 0 THEN pos ELSE -pos END LOOP
			t := (c.pos / 2)::text;
			ord := CASE c.binding WHEN '' THEN '' ELSE ' USING OPERATOR(bench.<)' END;
			eq := CASE c.binding WHEN '' THEN '=' ELSE 'OPERATOR(bench.=)' END;
			INSERT INTO timings VALUES (n || ' shuffled', c.pos, run, pg_temp.sort_ms(format(
				'SELECT id FROM s_%s ORDER BY id%s OFFSET %s', t, ord, n)));
			INSERT INTO timings VALUES (n || ' in order', c.pos, run, pg_temp.sort_ms(format(
				'SELECT id FROM o_%s ORDER BY id%s OFFSET %s', t, ord, n)));
			INSERT INTO timings VALUES (n || ' index', c.pos, run, pg_temp.sort_ms(format(
				'CREATE INDEX s_index ON s_%s (id %s)', t,
				CASE c.binding WHEN '' THEN '' ELSE 'bench.ulid_core_ops' END)));
			DROP INDEX s_index;
			INSERT INTO timings VALUES (n || ' merge join', c.pos, run, pg_temp.sort_ms(format(
				'SELECT count(*) FROM s_%s a JOIN s_%s b ON a.id %s b.id', t, t, eq)));
		END LOOP;
	END LOOP;
END
$$;

-- the table of one size, times as multiples of uuid v4's and, for ulid's
-- own sort support, of core's uuid functions on the same ids
CREATE FUNCTION pg_temp.report(n int) RETURNS TABLE (
	"ids" text, "ORDER BY" text, "ORDER BY, insertion order" text,
	"CREATE INDEX" text, "merge join" text)
LANGUAGE sql AS $$
	WITH m AS (SELECT bench, case_name::int AS pos, ms FROM medians
				WHERE bench LIKE n || ' %'),
	cell AS (SELECT m.pos, m.bench,
					format('%s ms (%s×%s)', round(m.ms::numeric), round((m.ms / ref.ms)::numeric, 2),
						   ', ' || round((m.ms / core.ms)::numeric, 2) || '× core') AS v
			   FROM m JOIN m ref ON ref.bench = m.bench AND ref.pos = 2
			   LEFT JOIN m core ON core.bench = m.bench AND core.pos = m.pos + 1
					AND m.pos % 2 = 0 AND m.pos IN (SELECT pos FROM cases WHERE type = 'ulid'))
	SELECT c.shape,
		   max(v) FILTER (WHERE bench = n || ' shuffled'),
		   max(v) FILTER (WHERE bench = n || ' in order'),
		   max(v) FILTER (WHERE bench = n || ' index'),
		   max(v) FILTER (WHERE bench = n || ' merge join')
	  FROM cell JOIN cases c USING (pos)
	 GROUP BY c.pos, c.shape ORDER BY c.pos
$$;

-- ulid's own sort support where it took longer than uuid v4 or than core's
-- functions on the same ids
CREATE FUNCTION pg_temp.above_target(n int) RETURNS TABLE (
	"ids" text, "sort" text, "× uuid v4" numeric, "× core" numeric)
LANGUAGE sql AS $$
	WITH m AS (SELECT bench, case_name::int AS pos, ms FROM medians
				WHERE bench LIKE n || ' %')
	SELECT c.shape, substr(m.bench, length(n::text) + 2),
		   round((m.ms / ref.ms)::numeric, 2), round((m.ms / core.ms)::numeric, 2)
	  FROM m JOIN cases c USING (pos)
	  JOIN m ref ON ref.bench = m.bench AND ref.pos = 2
	  JOIN m core ON core.bench = m.bench AND core.pos = m.pos + 1
	 WHERE c.type = 'ulid' AND c.binding = ''
	   AND (m.ms > ref.ms OR m.ms > core.ms)
	 ORDER BY c.pos, m.bench
$$;

DO $$
DECLARE
	n int;
BEGIN
	FOREACH n IN ARRAY string_to_array(current_setting('bench.sort_sizes'), ',')::int[] LOOP
		PERFORM pg_temp.make_tables(n);
		PERFORM pg_temp.run_sorts(n);
	END LOOP;
END
$$;

\echo
SELECT current_setting('bench.runs') AS runs \gset
\echo 'Sorting N ids, medians of' :runs 'runs,' :clock
\echo 'In parentheses: times uuid v4''s; for ulid''s own sort support, times core''s uuid functions on the same ids'
SELECT n AS "N", r.*
  FROM unnest(string_to_array(current_setting('bench.sort_sizes'), ',')::int[]) n,
	   pg_temp.report(n) r;
\echo 'ulid''s own sort support above 1.00× uuid v4 or core''s functions:'
SELECT n AS "N", r.*
  FROM unnest(string_to_array(current_setting('bench.sort_sizes'), ',')::int[]) n,
	   pg_temp.above_target(n) r;
