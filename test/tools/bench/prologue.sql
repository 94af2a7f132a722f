-- Included by the benchmark scripts: quiet output, the timings table and a
-- server-side timer.
\set QUIET on
\pset footer off
SET client_min_messages = warning;
SET jit = off;
CREATE EXTENSION IF NOT EXISTS ulid;

CREATE TEMP TABLE timings (bench text, case_name text, run int, ms float8);

-- time one statement on the server, in milliseconds (run times times in a
-- row, for statements too short to time once)
CREATE FUNCTION pg_temp.time_ms(statement text, times int DEFAULT 1) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz := clock_timestamp();
BEGIN
	FOR i IN 1 .. times LOOP
		EXECUTE statement;
	END LOOP;
	RETURN 1000 * extract(epoch FROM clock_timestamp() - t0);
END
$$;

CREATE TEMP VIEW medians AS
SELECT bench, case_name, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms
  FROM timings GROUP BY 1, 2;
