--
-- Generators: monotonic ulid_generate(), random ulid_generate_random(),
-- the pgx_ulid names, and their volatility and parallel markings.
--
\pset null '(null)'

-- as a column default
CREATE TABLE events (id ulid PRIMARY KEY DEFAULT ulid_generate(), n int);
INSERT INTO events (n) SELECT generate_series(1, 100000);
-- every id is strictly greater than the one generated before it
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE id <= prev) AS out_of_order
  FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM events) s;
-- and the next statement goes on from there
INSERT INTO events (n) VALUES (100001);
SELECT (SELECT id FROM events WHERE n = 100001) > (SELECT max(id) FROM events WHERE n <= 100000)
       AS continues_upward;

-- within one millisecond the randomness goes up by exactly one
WITH parts AS (
	SELECT n, ulid_unix_ms(id) AS ms,
	       ('x' || encode(substring(id::bytea FROM 10 FOR 7), 'hex'))::bit(56)::bigint AS low
	  FROM events),
steps AS (
	SELECT ms = lag(ms) OVER w AS same_ms, low - lag(low) OVER w AS step
	  FROM parts WINDOW w AS (ORDER BY n))
SELECT count(*) FILTER (WHERE same_ms) > 0 AS some_share_a_millisecond,
       count(*) FILTER (WHERE same_ms AND step <> 1) AS steps_other_than_one
  FROM steps;

-- the time part is now
SELECT abs(ulid_unix_ms(ulid_generate()) - (extract(epoch FROM clock_timestamp()) * 1000)::bigint) < 5000
       AS monotonic_is_now,
       abs(ulid_unix_ms(ulid_generate_random()) - (extract(epoch FROM clock_timestamp()) * 1000)::bigint) < 5000
       AS random_is_now;

-- random ids: all distinct, every one of the 80 random bits both set and clear
CREATE TEMP TABLE random_ids AS SELECT ulid_generate_random() AS id FROM generate_series(1, 2000);
SELECT count(DISTINCT id) AS distinct_ids FROM random_ids;
SELECT count(*) AS random_bits_seen_both_ways
  FROM generate_series(48, 127) b
 WHERE EXISTS (SELECT FROM random_ids WHERE get_bit(id::bytea, b) = 1)
   AND EXISTS (SELECT FROM random_ids WHERE get_bit(id::bytea, b) = 0);
-- in a new millisecond the monotonic generator draws fresh randomness, not +1
CREATE TEMP TABLE slow_ids AS
SELECT n, ulid_generate() AS id FROM generate_series(1, 5) n WHERE pg_sleep(0.002) IS NOT NULL;
SELECT count(*) FILTER (WHERE ulid_unix_ms(id) > ulid_unix_ms(prev)) AS later_ms,
       count(*) FILTER (WHERE abs(('x' || encode(substring(id::bytea FROM 10 FOR 7), 'hex'))::bit(56)::bigint
                                - ('x' || encode(substring(prev::bytea FROM 10 FOR 7), 'hex'))::bit(56)::bigint) <= 1)
       AS incremented
  FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM slow_ids) s WHERE prev IS NOT NULL;

-- back-filling: asked for the same millisecond again, ulid_generate(timestamptz)
-- goes on from the last id it gave (+1), so 100,000 calls never collide
CREATE TEMP TABLE backfill AS
SELECT n, ulid_generate('2025-06-01 12:00:00.123Z') AS id FROM generate_series(1, 100000) n;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids,
       count(*) FILTER (WHERE id <= prev) AS out_of_order,
       min(ulid_timestamp(id)) = max(ulid_timestamp(id)) AS one_millisecond,
       min(ulid_timestamp(id)) AT TIME ZONE 'UTC' AS at
  FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM backfill) s;
-- another millisecond, even an earlier one, starts fresh at that millisecond
SELECT ulid_timestamp(ulid_generate('2025-06-01 12:00:00.122Z')) AT TIME ZONE 'UTC' AS earlier;

-- drop-in names for pgx_ulid users
SELECT gen_ulid() IS NOT NULL AS gen_ulid, gen_monotonic_ulid() < gen_monotonic_ulid() AS gen_monotonic_ulid;

-- markings: monotonic generators keep per-process state
SELECT p.oid::regprocedure, provolatile, proparallel, prosrc
  FROM pg_proc p
 WHERE proname IN ('ulid_generate', 'ulid_generate_random', 'gen_ulid', 'gen_monotonic_ulid')
 ORDER BY 1::text;

DROP TABLE events;
