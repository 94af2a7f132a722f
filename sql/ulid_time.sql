--
-- Time: accessors, casts, range bounds, constructors; independent of the
-- session TimeZone.  Index range scans and partition pruning by id.
--
\pset null '(null)'
SET TimeZone = 'UTC';

-- every vector: Unix ms, timestamp and randomness as computed independently
SELECT id, ulid_unix_ms(input::ulid) AS unix_ms, input::ulid::timestamptz AS ts,
       ulid_randomness(input::ulid) AS randomness
  FROM ulid_vectors ORDER BY id;
SELECT id
  FROM ulid_vectors
 WHERE ulid_unix_ms(input::ulid) <> timestamp_ms
    -- whole days, then milliseconds: interval arithmetic stays exact
    OR ulid_timestamp(input::ulid) <> timestamptz 'epoch' + (timestamp_ms / 86400000) * interval '1 day'
                                                         + (timestamp_ms % 86400000) * interval '1 ms'
    OR encode(ulid_randomness(input::ulid), 'hex') <> randomness_hex
    OR ulid_from_parts(timestamp_ms, decode(randomness_hex, 'hex')) <> canonical::ulid
    OR (iso_timestamp NOT LIKE '+%' AND
        to_char(ulid_timestamp(input::ulid), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') <> iso_timestamp);

-- bounds of a millisecond; the cast from timestamptz is the lower bound
SELECT ulid_lower('2025-01-01 00:00Z') AS lower, ulid_upper('2025-01-01 00:00Z') AS upper,
       '2025-01-01 00:00Z'::timestamptz::ulid AS cast;
SELECT ulid_lower('2025-01-01 00:00:00.0009Z') AS floors_to_ms,
       ulid_lower('1999-12-31 23:59:59.9995Z') AS before_2000,
       ulid_unix_ms(ulid_lower('1999-12-31 23:59:59.9995Z')) AS ms;
SELECT ulid_lower('1970-01-01 00:00Z') AS first, ulid_upper('10889-08-02 05:31:50.655Z') AS last;

-- the session TimeZone changes how times print, never which ulid they are
CREATE TABLE tz_check (zone text, lower ulid, upper ulid, back_ms bigint, cast_back timestamptz);
\set record_tz 'INSERT INTO tz_check SELECT current_setting(''TimeZone''), ulid_lower(''2025-01-01 00:00Z''), ulid_upper(''2025-01-01 00:00Z''), ulid_unix_ms(''01JGFJJZ000000000000000000''), ''01JGFJJZ000000000000000000''::ulid::timestamptz'
SET TimeZone = 'America/New_York';
:record_tz;
SELECT '01JGFJJZ000000000000000000'::ulid::timestamptz AS shown_in_new_york;
SET TimeZone = 'Asia/Kolkata';
:record_tz;
SELECT '01JGFJJZ000000000000000000'::ulid::timestamptz AS shown_in_kolkata;
SET TimeZone = 'UTC';
SELECT zone, lower, upper, back_ms, cast_back FROM tz_check ORDER BY zone;
SELECT count(DISTINCT (lower, upper, back_ms, cast_back)) AS distinct_results FROM tz_check;

-- out of range: a clear error, never a wrapped value
SELECT ulid_lower('1969-12-31 23:59:59.999Z');
SELECT ulid_upper('10889-08-02 05:31:50.656Z');
SELECT ulid_lower('infinity');
SELECT '-infinity'::timestamptz::ulid;
SELECT ulid_generate('1960-01-01Z');
SELECT ulid_from_parts(-1, '\x00000000000000000000');
SELECT ulid_from_parts(281474976710656, '\x00000000000000000000');
SELECT ulid_from_parts(0, '\x000000000000000000');
SELECT ulid_from_parts(281474976710655, '\xffffffffffffffffffff');

-- back-filling: the given millisecond, fresh randomness each call
SELECT ulid_unix_ms(ulid_generate('2020-05-04 03:02:01.123Z')) AS ms,
       ulid_generate('2020-05-04 03:02:01.123Z')::timestamptz AS ts,
       ulid_generate('2020-05-04 03:02:01.123Z') <> ulid_generate('2020-05-04 03:02:01.123Z') AS differ;

-- every time function is IMMUTABLE and parallel safe
SELECT p.oid::regprocedure, provolatile, proparallel
  FROM pg_proc p
 WHERE proname IN ('ulid_timestamp', 'ulid_unix_ms', 'ulid_randomness', 'ulid_lower',
                   'ulid_upper', 'ulid_from_parts', 'ulid_is_valid')
 ORDER BY 1::text;

-- time ranges by id use the index
CREATE TABLE events (id ulid PRIMARY KEY, payload int);
INSERT INTO events
SELECT ulid_from_parts(ulid_unix_ms('2024-01-01Z'::timestamptz::ulid) + i::bigint * 3600000,
                       substring(decode(md5(i::text), 'hex') FOR 10)), i
  FROM generate_series(0, 17543) i;   -- one row an hour, 2024 and 2025
ANALYZE events;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events
 WHERE id >= ulid_lower('2025-01-01 00:00Z') AND id < ulid_lower('2025-02-01 00:00Z');
SELECT count(*), min(id::timestamptz), max(id::timestamptz) FROM events
 WHERE id >= ulid_lower('2025-01-01 00:00Z') AND id < ulid_lower('2025-02-01 00:00Z');
-- the upper bound of a millisecond includes every id of that millisecond
SELECT count(*) FROM events
 WHERE id BETWEEN ulid_lower('2025-01-31 23:00Z') AND ulid_upper('2025-01-31 23:00Z');

-- monthly partitions by id, and pruning for a time range
CREATE TABLE events_by_month (id ulid PRIMARY KEY, payload int) PARTITION BY RANGE (id);
CREATE TABLE events_2025_01 PARTITION OF events_by_month
	FOR VALUES FROM (ulid_lower('2025-01-01Z')) TO (ulid_lower('2025-02-01Z'));
CREATE TABLE events_2025_02 PARTITION OF events_by_month
	FOR VALUES FROM (ulid_lower('2025-02-01Z')) TO (ulid_lower('2025-03-01Z'));
CREATE TABLE events_rest PARTITION OF events_by_month DEFAULT;
INSERT INTO events_by_month SELECT * FROM events;
SELECT tableoid::regclass, count(*) FROM events_by_month GROUP BY 1 ORDER BY 1;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM events_by_month
 WHERE id >= ulid_lower('2025-02-03Z') AND id < ulid_lower('2025-02-04Z');
SELECT count(*) FROM events_by_month
 WHERE id >= ulid_lower('2025-02-03Z') AND id < ulid_lower('2025-02-04Z');

DROP TABLE events, events_by_month, tz_check;
