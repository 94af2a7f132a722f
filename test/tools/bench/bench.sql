-- Generator and bulk-insert benchmarks, one session, runs interleaved, medians.
-- Settings: bench.rows, bench.runs (see test/tools/bench/bench.sh).
\ir prologue.sql

CREATE UNLOGGED TABLE bench_ulid (id ulid PRIMARY KEY DEFAULT ulid_generate());
CREATE UNLOGGED TABLE bench_uuid (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
CREATE UNLOGGED TABLE bench_bigserial (id bigserial PRIMARY KEY);
CREATE UNLOGGED TABLE bench_flake (id ulid_flake PRIMARY KEY DEFAULT ulid_flake_generate());

DO $$
DECLARE
	n bigint := current_setting('bench.rows')::bigint;
	runs int := current_setting('bench.runs')::int;
	f text;
	t text;
BEGIN
	FOR run IN 1 .. runs LOOP
		FOREACH f IN ARRAY ARRAY['1', 'gen_random_uuid()', 'ulid_generate()',
		                         'ulid_generate_random()', 'ulid_flake_generate()'] LOOP
			INSERT INTO timings VALUES ('generate', f, run,
				pg_temp.time_ms(format('SELECT count(%s) FROM generate_series(1, %s)', f, n)));
		END LOOP;
		FOREACH t IN ARRAY ARRAY['bench_uuid', 'bench_bigserial', 'bench_ulid', 'bench_flake'] LOOP
			EXECUTE format('TRUNCATE %I RESTART IDENTITY', t);
			INSERT INTO timings VALUES ('insert', t, run,
				pg_temp.time_ms(format('INSERT INTO %I SELECT FROM generate_series(1, %s)', t, n)));
		END LOOP;
	END LOOP;
END
$$;

\echo
\echo 'Generators: SELECT count(f()) FROM generate_series(1, N); medians'
WITH m AS (SELECT case_name, ms FROM medians WHERE bench = 'generate'),
ref AS (SELECT ms FROM m WHERE case_name = 'gen_random_uuid()'),
floor AS (SELECT ms FROM m WHERE case_name = '1')
SELECT CASE WHEN case_name = '1' THEN 'count(1) (floor)' ELSE case_name END AS "function",
       round(m.ms::numeric, 1) AS "median ms",
       round((m.ms * 1e6 / current_setting('bench.rows')::float8)::numeric, 1) AS "ns/call",
       round((m.ms / ref.ms)::numeric, 3) AS "x gen_random_uuid",
       CASE WHEN case_name = '1' THEN NULL
            ELSE round(((m.ms - floor.ms) / (ref.ms - floor.ms))::numeric, 3) END AS "x, floor subtracted"
  FROM m, ref, floor
 ORDER BY m.ms;

\echo
\echo 'Bulk INSERT of N rows, PRIMARY KEY DEFAULT f(), unlogged; medians'
WITH m AS (SELECT case_name, ms FROM medians WHERE bench = 'insert'),
ref AS (SELECT ms FROM m WHERE case_name = 'bench_uuid'),
big AS (SELECT ms FROM m WHERE case_name = 'bench_bigserial')
SELECT CASE case_name WHEN 'bench_uuid' THEN 'uuid DEFAULT gen_random_uuid()'
                      WHEN 'bench_bigserial' THEN 'bigserial'
                      WHEN 'bench_ulid' THEN 'ulid DEFAULT ulid_generate()'
                      ELSE 'ulid_flake DEFAULT ulid_flake_generate()' END AS "key",
       round(m.ms::numeric, 0) AS "median ms",
       round((m.ms / ref.ms)::numeric, 3) AS "x gen_random_uuid",
       round((m.ms / big.ms)::numeric, 3) AS "x bigserial",
       round(pg_relation_size(case_name || '_pkey')::numeric / current_setting('bench.rows')::numeric, 1)
           AS "index bytes/row"
  FROM m, ref, big
 ORDER BY m.ms;

DROP TABLE bench_ulid, bench_uuid, bench_bigserial, bench_flake;
