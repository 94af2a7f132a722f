-- Sort benchmarks, one session, runs interleaved, medians: ORDER BY id on
-- a shuffled table and on one in insertion order, CREATE INDEX on the
-- shuffled table and a merge join of the shuffled table with itself (two
-- sorts and a merge), for each shape of ids below, at each size of
-- bench.sort_sizes.  Every ulid shape is also sorted with core's uuid
-- functions, the binding of 0.3.0 and before (schema bench).
-- Settings: bench.sort_sizes, bench.runs.
\set ON_ERROR_STOP on
\ir prologue.sql
SET work_mem = '2GB';
SET maintenance_work_mem = '2GB';
SET max_parallel_workers_per_gather = 0;
SET max_parallel_maintenance_workers = 0;
SET enable_hashjoin = off;
SET enable_nestloop = off;

-- ulid ordered by core's uuid functions (uuid_cmp, uuid_sortsupport)
CREATE SCHEMA bench;
CREATE OPERATOR bench.< (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_lt);
CREATE OPERATOR bench.<= (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_le);
CREATE OPERATOR bench.= (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_eq, MERGES);
CREATE OPERATOR bench.>= (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ge);
CREATE OPERATOR bench.> (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_gt);
CREATE FUNCTION bench.core_cmp(ulid, ulid) RETURNS int4 AS 'uuid_cmp' LANGUAGE internal IMMUTABLE STRICT;
CREATE FUNCTION bench.core_sortsupport(internal) RETURNS void AS 'uuid_sortsupport' LANGUAGE internal IMMUTABLE STRICT;
CREATE OPERATOR CLASS bench.ulid_core_ops FOR TYPE ulid USING btree AS
	OPERATOR 1 bench.<, OPERATOR 2 bench.<=, OPERATOR 3 bench.=,
	OPERATOR 4 bench.>=, OPERATOR 5 bench.>,
	FUNCTION 1 bench.core_cmp(ulid, ulid),
	FUNCTION 2 bench.core_sortsupport(internal),
	FUNCTION 4 btequalimage(oid);

-- the shapes: name, type, expression over i in 0 .. n - 1 (insertion order)
CREATE TEMP TABLE shapes (pos int, shape text, type text, expr text);
INSERT INTO shapes VALUES
	(1, 'uuid v4 (gen_random_uuid())', 'uuid', 'gen_random_uuid()'),
	(2, 'uuid v7-like (the 500/ms ulids as uuid)', 'uuid', NULL),
	(3, 'ulid, 1 per ms', 'ulid', 'ulid_generate(b + i * interval ''1 ms'')'),
	(4, 'ulid, 500 per ms', 'ulid', 'ulid_generate(b + (i / 500) * interval ''1 ms'')'),
	(5, 'ulid, 5000 per ms', 'ulid', 'ulid_generate(b + (i / 5000) * interval ''1 ms'')'),
	(6, 'ulid_generate_random()', 'ulid', 'ulid_generate_random()'),
	(7, 'ulid, spread over a year', 'ulid', 'ulid_generate(b + i * (interval ''365 days'' / n))'),
	(8, 'ulid_flake, ulid_flake_generate() in bulk', 'ulid_flake', 'ulid_flake_generate()'),
	(9, 'bigint (the same ulid_flake values)', 'bigint', NULL);
CREATE TEMP TABLE cases AS
SELECT pos * 2 AS pos, shape, type, '' AS binding FROM shapes
UNION ALL
SELECT pos * 2 + 1, shape || ', core''s uuid functions', type, 'bench.' FROM shapes WHERE type = 'ulid';

CREATE FUNCTION pg_temp.make_tables(n int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	s record;
BEGIN
	-- the shapes made from others come after them
	FOR s IN SELECT * FROM shapes ORDER BY expr IS NULL, pos LOOP
		EXECUTE format('DROP TABLE IF EXISTS o_%s, s_%s', s.pos, s.pos);
		IF s.pos = 2 THEN
			CREATE UNLOGGED TABLE o_2 AS SELECT id::uuid AS id FROM o_4;
		ELSIF s.pos = 9 THEN
			CREATE UNLOGGED TABLE o_9 AS SELECT id::bigint AS id FROM o_8;
		ELSE
			EXECUTE format('CREATE UNLOGGED TABLE o_%s AS SELECT %s AS id '
						   'FROM generate_series(0, %s - 1) i, '
						   '(SELECT timestamptz ''2026-01-01Z'' AS b, %s AS n) c', s.pos, s.expr, n, n);
		END IF;
		EXECUTE format('CREATE UNLOGGED TABLE s_%s AS SELECT id FROM o_%s ORDER BY random()', s.pos, s.pos);
		EXECUTE format('ANALYZE o_%s, s_%s', s.pos, s.pos);
		-- warm the buffer cache
		EXECUTE format('SELECT count(*) FROM o_%s', s.pos);
		EXECUTE format('SELECT count(*) FROM s_%s', s.pos);
	END LOOP;
END
$$;

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
			INSERT INTO timings VALUES (n || ' shuffled', c.pos, run, pg_temp.time_ms(format(
				'SELECT id FROM s_%s ORDER BY id%s OFFSET %s', t, ord, n)));
			INSERT INTO timings VALUES (n || ' in order', c.pos, run, pg_temp.time_ms(format(
				'SELECT id FROM o_%s ORDER BY id%s OFFSET %s', t, ord, n)));
			INSERT INTO timings VALUES (n || ' index', c.pos, run, pg_temp.time_ms(format(
				'CREATE INDEX s_index ON s_%s (id %s)', t,
				CASE c.binding WHEN '' THEN '' ELSE 'bench.ulid_core_ops' END)));
			DROP INDEX s_index;
			INSERT INTO timings VALUES (n || ' merge join', c.pos, run, pg_temp.time_ms(format(
				'SELECT count(*) FROM s_%s a JOIN s_%s b ON a.id %s b.id', t, t, eq)));
		END LOOP;
	END LOOP;
END
$$;

-- the table of one size, times as multiples of uuid v4's
CREATE FUNCTION pg_temp.report(n int) RETURNS TABLE (
	"ids" text, "ORDER BY, shuffled" text, "ORDER BY, in order" text,
	"CREATE INDEX" text, "merge join" text)
LANGUAGE sql AS $$
	WITH m AS (SELECT bench, case_name::int AS pos, ms FROM medians
				WHERE bench LIKE n || ' %'),
	ref AS (SELECT bench, ms FROM m WHERE pos = 2),
	cell AS (SELECT m.pos, m.bench,
					format('%s ms (%s×)', round(m.ms::numeric), round((m.ms / ref.ms)::numeric, 2)) AS v
			   FROM m JOIN ref USING (bench))
	SELECT c.shape,
		   max(v) FILTER (WHERE bench = n || ' shuffled'),
		   max(v) FILTER (WHERE bench = n || ' in order'),
		   max(v) FILTER (WHERE bench = n || ' index'),
		   max(v) FILTER (WHERE bench = n || ' merge join')
	  FROM cell JOIN cases c USING (pos)
	 GROUP BY c.pos, c.shape ORDER BY c.pos
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
\echo 'Sorting N ids: medians; in parentheses, times uuid v4''s'
SELECT n AS "N", r.*
  FROM unnest(string_to_array(current_setting('bench.sort_sizes'), ',')::int[]) n,
	   pg_temp.report(n) r;
