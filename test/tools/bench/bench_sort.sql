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

-- the shapes: name, type, expression over i in 0 .. n - 1 (insertion order),
-- the order of the table sorted (random, asc, desc); a NULL expression is
-- made from another shape's table in make_tables
CREATE TEMP TABLE shapes (pos int, shape text, type text, expr text, table_order text);
INSERT INTO shapes VALUES
	(1, 'uuid v4 (gen_random_uuid())', 'uuid', 'gen_random_uuid()', 'random'),
	(2, 'uuid v7-like (the 500/ms ulids as uuid)', 'uuid', NULL, 'random'),
	(3, 'ulid, the uuid v4 values (u::ulid), same order', 'ulid', NULL, 'random'),
	(4, 'ulid, uuid v7 layout (version, variant; 50 per ms, random)', 'ulid',
	 'set_byte(set_byte(decode(lpad(to_hex((extract(epoch FROM b) * 1000)::int8 + i / 50), 12, ''0''), ''hex'') || '
	 'substr(uuid_send(gen_random_uuid()), 7), 6, 112 + (random() * 15)::int), 8, 128 + (random() * 63)::int)::ulid', 'random'),
	(5, 'ulid, 1 per ms', 'ulid', 'ulid_generate(b + i * interval ''1 ms'')', 'random'),
	(6, 'ulid, 500 per ms', 'ulid', 'ulid_generate(b + (i / 500) * interval ''1 ms'')', 'random'),
	(7, 'ulid, 5000 per ms', 'ulid', 'ulid_generate(b + (i / 5000) * interval ''1 ms'')', 'random'),
	(8, 'ulid_generate_random()', 'ulid', 'ulid_generate_random()', 'random'),
	(9, 'ulid, spread over a year', 'ulid', 'ulid_generate(b + i * (interval ''365 days'' / n))', 'random'),
	(10, 'ulid, mixed: half uuid v4 converted, half 500 per ms', 'ulid', NULL, 'random'),
	(11, 'ulid, 500 per ms, already sorted', 'ulid', NULL, 'asc'),
	(12, 'ulid, 500 per ms, reverse order', 'ulid', NULL, 'desc'),
	(13, 'ulid, 1 per ms, each 10 times (a foreign key)', 'ulid', NULL, 'random'),
	(14, 'ulid_flake, ulid_flake_generate() in bulk', 'ulid_flake', 'ulid_flake_generate()', 'random'),
	(15, 'bigint (the same ulid_flake values)', 'bigint', NULL, 'random');
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
			CREATE UNLOGGED TABLE o_2 AS SELECT id::uuid AS id FROM o_6;
		ELSIF s.pos = 3 THEN
			CREATE UNLOGGED TABLE o_3 AS SELECT id::ulid AS id FROM o_1;
		ELSIF s.pos = 10 THEN
			CREATE UNLOGGED TABLE o_10 AS
			SELECT id FROM (SELECT id::ulid AS id FROM o_1 LIMIT n / 2) a
			UNION ALL SELECT id FROM (SELECT id FROM o_6 LIMIT n - n / 2) b;
		ELSIF s.pos IN (11, 12) THEN
			EXECUTE format('CREATE UNLOGGED TABLE o_%s AS SELECT id FROM o_6', s.pos);
		ELSIF s.pos = 13 THEN
			CREATE UNLOGGED TABLE o_13 AS
			SELECT id FROM (SELECT id FROM o_5 LIMIT n / 10) a, generate_series(1, 10);
		ELSIF s.pos = 15 THEN
			CREATE UNLOGGED TABLE o_15 AS SELECT id::bigint AS id FROM o_14;
		ELSE
			EXECUTE format('CREATE UNLOGGED TABLE o_%s AS SELECT %s AS id '
						   'FROM generate_series(0, %s - 1) i, '
						   '(SELECT timestamptz ''2026-01-01Z'' AS b, %s AS n) c', s.pos, s.expr, n, n);
		END IF;
		IF s.pos = 3 THEN
			-- the very values and order of the uuid v4 table
			CREATE UNLOGGED TABLE s_3 AS SELECT id::ulid AS id FROM s_1;
		ELSE
			EXECUTE format('CREATE UNLOGGED TABLE s_%s AS SELECT id FROM o_%s ORDER BY %s', s.pos, s.pos,
						   CASE s.table_order WHEN 'asc' THEN 'id::bytea' WHEN 'desc' THEN 'id::bytea DESC'
						   ELSE 'random()' END);
		END IF;
		EXECUTE format('ANALYZE o_%s, s_%s', s.pos, s.pos);
		-- warm the buffer cache
		EXECUTE format('SELECT count(*) FROM o_%s', s.pos);
		EXECUTE format('SELECT count(*) FROM s_%s', s.pos);
	END LOOP;
END
$$;

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
