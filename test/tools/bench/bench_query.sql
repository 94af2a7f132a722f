-- Query-side benchmarks, one session, runs interleaved, medians.
-- Settings: bench.rows (text I/O), bench.brin_rows, bench.runs.  Sorting is
-- in bench_sort.sql.
\ir prologue.sql
SET work_mem = '2GB';
SET max_parallel_workers_per_gather = 0;

-- N random-order values of each type, and their text forms
SELECT set_config('bench.base', (extract(epoch FROM now()) * 1000)::bigint::text, false) AS base \gset
CREATE UNLOGGED TABLE t_ulid AS
SELECT ulid_generate(timestamptz 'epoch' + (current_setting('bench.base')::bigint + i) * interval '1 ms') AS id
  FROM generate_series(1, current_setting('bench.rows')::int) i ORDER BY random();
CREATE UNLOGGED TABLE t_uuid AS SELECT gen_random_uuid() AS id FROM t_ulid;
CREATE UNLOGGED TABLE t_flake AS SELECT ulid_flake_generate(id::timestamptz) AS id FROM t_ulid;
CREATE UNLOGGED TABLE t_bigint AS SELECT id::bigint AS id FROM t_flake;
CREATE UNLOGGED TABLE t_ulid_text AS SELECT id::text AS x FROM t_ulid;
CREATE UNLOGGED TABLE t_uuid_text AS SELECT id::text AS x FROM t_uuid;
CREATE UNLOGGED TABLE t_flake_text AS SELECT id::text AS x FROM t_flake;
CREATE UNLOGGED TABLE t_bigint_text AS SELECT id::text AS x FROM t_bigint;
VACUUM ANALYZE t_ulid, t_uuid, t_flake, t_bigint, t_ulid_text, t_uuid_text, t_flake_text, t_bigint_text;
-- warm the buffer cache
\o /dev/null
SELECT count(*) FROM t_ulid; SELECT count(*) FROM t_uuid; SELECT count(*) FROM t_flake; SELECT count(*) FROM t_bigint;
SELECT count(*) FROM t_ulid_text; SELECT count(*) FROM t_uuid_text; SELECT count(*) FROM t_flake_text; SELECT count(*) FROM t_bigint_text;
\o

-- point lookups by primary key: a function per type that looks up key n
-- times with a cached plan, as a prepared statement does
ALTER TABLE t_ulid ADD PRIMARY KEY (id);
ALTER TABLE t_uuid ADD PRIMARY KEY (id);
ALTER TABLE t_flake ADD PRIMARY KEY (id);
ALTER TABLE t_bigint ADD PRIMARY KEY (id);
DO $do$
DECLARE
	t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['ulid', 'uuid', 'flake', 'bigint'] LOOP
		EXECUTE format($f$
			CREATE FUNCTION pg_temp.lookup_%1$s(n int, key %2$s) RETURNS void LANGUAGE plpgsql AS $body$
			DECLARE
				r %2$s;
			BEGIN
				FOR i IN 1 .. n LOOP
					SELECT id INTO r FROM t_%1$s WHERE id = key;
				END LOOP;
			END
			$body$$f$, t, CASE t WHEN 'flake' THEN 'ulid_flake' ELSE t END);
	END LOOP;
END
$do$;
SET bench.lookups = 20000;

-- time-ordered rows for BRIN vs btree: the same data in two tables
CREATE UNLOGGED TABLE t_brin AS
SELECT ulid_generate(timestamptz '2025-01-01Z' + i * interval '10 ms') AS id, i AS n
  FROM generate_series(1, current_setting('bench.brin_rows')::int) i;
CREATE UNLOGGED TABLE t_btree AS SELECT * FROM t_brin;
CREATE INDEX t_brin_id ON t_brin USING brin (id);
CREATE INDEX t_btree_id ON t_btree (id);
VACUUM ANALYZE t_brin, t_btree;
-- the 1% time range in the middle
SELECT set_config('bench.lo', ulid_lower(timestamptz '2025-01-01Z' + (n0 * 0.495) * interval '10 ms')::text, false) AS lo,
       set_config('bench.hi', ulid_lower(timestamptz '2025-01-01Z' + (n0 * 0.505) * interval '10 ms')::text, false) AS hi
  FROM (SELECT current_setting('bench.brin_rows')::bigint AS n0) s \gset

DO $$
DECLARE
	runs int := current_setting('bench.runs')::int;
	t text;
	key text;
BEGIN
	FOR run IN 1 .. runs LOOP
		FOREACH t IN ARRAY ARRAY['ulid', 'uuid', 'flake', 'bigint'] LOOP
			EXECUTE format('SELECT id::text FROM t_%s LIMIT 1', t) INTO key;
			INSERT INTO timings VALUES
				('out', t, run, pg_temp.time_ms(format('SELECT count(id::text) FROM t_%s', t))),
				('out floor', t, run, pg_temp.time_ms(format('SELECT count(id) FROM t_%s', t))),
				('in', t, run, pg_temp.time_ms(format('SELECT count(x::%s) FROM t_%s_text',
					CASE t WHEN 'flake' THEN 'ulid_flake' ELSE t END, t))),
				('in floor', t, run, pg_temp.time_ms(format('SELECT count(x) FROM t_%s_text', t))),
				('lookup planned', t, run, pg_temp.time_ms(format('SELECT id FROM t_%s WHERE id = %L',
					t, key), current_setting('bench.lookups')::int)),
				('lookup cached', t, run, pg_temp.time_ms(format('SELECT pg_temp.lookup_%s(%s, %L)', t,
					current_setting('bench.lookups'), key)));
		END LOOP;
		SET enable_seqscan = off;
		INSERT INTO timings VALUES
			('range', 'brin', run, pg_temp.time_ms(format(
				'SELECT count(*) FROM t_brin WHERE id >= %L AND id < %L',
				current_setting('bench.lo'), current_setting('bench.hi')))),
			('range', 'btree', run, pg_temp.time_ms(format(
				'SELECT count(*) FROM t_btree WHERE id >= %L AND id < %L',
				current_setting('bench.lo'), current_setting('bench.hi'))));
		RESET enable_seqscan;
	END LOOP;
END
$$;

\echo
\echo 'Text output (count(id::text)) and input (count(x::type)), per-row cost above the count(id) / count(x) floor; medians'
SELECT CASE m.case_name WHEN 'flake' THEN 'ulid_flake' ELSE m.case_name END AS type,
       round(((o.ms - of.ms) * 1e6 / current_setting('bench.rows')::float8)::numeric, 1) AS "output ns/row",
       round(((o.ms - of.ms) / (uo.ms - uof.ms))::numeric, 3) AS "output x uuid",
       round(((i.ms - inf.ms) * 1e6 / current_setting('bench.rows')::float8)::numeric, 1) AS "input ns/row",
       round(((i.ms - inf.ms) / (ui.ms - uinf.ms))::numeric, 3) AS "input x uuid"
  FROM (SELECT DISTINCT case_name FROM medians WHERE bench = 'out') m
  JOIN medians o ON o.bench = 'out' AND o.case_name = m.case_name
  JOIN medians of ON of.bench = 'out floor' AND of.case_name = m.case_name
  JOIN medians i ON i.bench = 'in' AND i.case_name = m.case_name
  JOIN medians inf ON inf.bench = 'in floor' AND inf.case_name = m.case_name
  JOIN medians uo ON uo.bench = 'out' AND uo.case_name = 'uuid'
  JOIN medians uof ON uof.bench = 'out floor' AND uof.case_name = 'uuid'
  JOIN medians ui ON ui.bench = 'in' AND ui.case_name = 'uuid'
  JOIN medians uinf ON uinf.bench = 'in floor' AND uinf.case_name = 'uuid'
 ORDER BY 1 DESC;

\echo
\echo 'Point lookups by primary key (WHERE id = ...), microseconds a query: planned each time, and with a cached plan; medians'
SELECT CASE p.case_name WHEN 'flake' THEN 'ulid_flake' ELSE p.case_name END AS type,
       round((p.ms * 1000 / current_setting('bench.lookups')::float8)::numeric, 2) AS "planned us",
       round((p.ms / up.ms)::numeric, 2) AS "planned x uuid",
       round((c.ms * 1000 / current_setting('bench.lookups')::float8)::numeric, 2) AS "cached us",
       round((c.ms / uc.ms)::numeric, 2) AS "cached x uuid"
  FROM medians p
  JOIN medians c ON c.bench = 'lookup cached' AND c.case_name = p.case_name
  JOIN medians up ON up.bench = 'lookup planned' AND up.case_name = 'uuid'
  JOIN medians uc ON uc.bench = 'lookup cached' AND uc.case_name = 'uuid'
 WHERE p.bench = 'lookup planned'
 ORDER BY 1 DESC;

\echo
\echo 'BRIN (minmax) vs btree on time-ordered ulid ids: size, and a count over a 1% time range using only that index'
SELECT r.case_name AS index,
       pg_size_pretty(pg_relation_size(CASE r.case_name WHEN 'brin' THEN 't_brin_id' ELSE 't_btree_id' END)) AS size,
       round((pg_relation_size(CASE r.case_name WHEN 'brin' THEN 't_brin_id' ELSE 't_btree_id' END)::numeric
              / pg_relation_size('t_btree_id')), 5) AS "x btree size",
       round(r.ms::numeric, 1) AS "1% range ms",
       round((r.ms / b.ms)::numeric, 2) AS "x btree time"
  FROM medians r, medians b
 WHERE r.bench = 'range' AND b.bench = 'range' AND b.case_name = 'btree'
 ORDER BY 1;
SELECT count(*) AS rows_in_range FROM t_btree
 WHERE id >= current_setting('bench.lo')::ulid AND id < current_setting('bench.hi')::ulid;

DROP TABLE t_ulid, t_uuid, t_flake, t_bigint, t_ulid_text, t_uuid_text, t_flake_text, t_bigint_text, t_brin, t_btree;
