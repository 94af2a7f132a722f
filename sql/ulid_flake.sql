--
-- The ulid_flake type: text and integer forms, vectors, invalid input,
-- casts, accessors, bounds, indexes, binary I/O, generators and settings.
--
\pset null '(null)'
SET TimeZone = 'UTC';

-- the shared vectors are loaded by setup
SELECT id, input::ulid_flake AS flake, input::ulid_flake::bigint AS int64,
       ulid_flake_timestamp(input::ulid_flake) AS ts,
       ulid_flake_randomness(input::ulid_flake) AS rnd20,
       ulid_flake_randomness(input::ulid_flake, true) AS rnd15,
       ulid_flake_node_id(input::ulid_flake) AS node
  FROM flake_vectors ORDER BY id;

-- every field of every vector, checked against the independent values
SELECT id
  FROM flake_vectors
 WHERE input::ulid_flake::text <> canonical
    OR input::ulid_flake::bigint <> int64
    OR to_hex(input::ulid_flake::bigint) <> ltrim(substring(hex FROM 3), '0') AND int64 <> 0
    OR int64::ulid_flake::text <> canonical
    OR ulid_flake_unix_ms(input::ulid_flake) <> unix_ms
    OR ulid_flake_unix_ms(input::ulid_flake) - 1704067200000 <> timestamp_since_flake_epoch_ms
    OR to_char(input::ulid_flake::timestamptz, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') <> iso_timestamp
    OR ulid_flake_randomness(input::ulid_flake) <> randomness20_standalone
    OR ulid_flake_randomness(input::ulid_flake, true) <> randomness15_scalable
    OR ulid_flake_node_id(input::ulid_flake) <> sid_scalable
    OR ulid_flake_from_parts(unix_ms, randomness20_standalone) <> canonical::ulid_flake
    OR ulid_flake_from_parts(unix_ms, randomness15_scalable, sid_scalable) <> canonical::ulid_flake
    OR NOT ulid_flake_is_valid(input);

-- every invalid input of the shared vectors
SELECT id, error_class, try_input(decode(coalesce(input_utf8_hex, ''), 'hex'), 'ulid_flake') AS text_form,
       ulid_flake_is_valid(convert_from(decode(coalesce(input_utf8_hex, ''), 'hex'), 'UTF8')) AS valid
  FROM invalid_inputs WHERE format = 'ulid_flake' ORDER BY id;
-- the integer form: through bigint
SELECT id, input_repr, try_input(decode(input_utf8_hex, 'hex'), 'bigint::ulid_flake') AS integer_form
  FROM invalid_inputs WHERE format = 'ulid_flake_int' ORDER BY id;

-- the direct text casts: same answers and errors as the I/O functions
SELECT count(*) AS vectors,
       count(*) FILTER (WHERE input::text::ulid_flake = input::ulid_flake
                          AND input::ulid_flake::text = canonical) AS same_via_text
  FROM flake_vectors;
SELECT count(*) AS invalid, count(*) FILTER (WHERE
       try_input(decode(coalesce(input_utf8_hex, ''), 'hex'), 'ulid_flake') =
       try_input(decode(coalesce(input_utf8_hex, ''), 'hex'), 'text::ulid_flake')) AS same_error
  FROM invalid_inputs WHERE format = 'ulid_flake';
SELECT '8000000000000'::text::ulid_flake;
SELECT '00CMXB6TAK4S'::ulid_flake;
SELECT '8000000000000'::ulid_flake;
SELECT '00CMH8K1E1E1L'::ulid_flake;

-- bigint boundaries
SELECT 0::bigint::ulid_flake AS zero, 9223372036854775807::bigint::ulid_flake AS max,
       '7ZZZZZZZZZZZZ'::ulid_flake::bigint AS max_int;
SELECT (-1)::bigint::ulid_flake;
SELECT (-9223372036854775808)::bigint::ulid_flake;
SELECT '00CMXB6TAK4SA'::ulid_flake::bigint, 14246757444195114::bigint::ulid_flake;

-- casts: assignment to and from bigint, explicit to and from timestamptz
SELECT castsource::regtype, casttarget::regtype, castmethod, castcontext
  FROM pg_cast
 WHERE castsource = 'ulid_flake'::regtype OR casttarget = 'ulid_flake'::regtype
 ORDER BY 1::text, 2::text;
CREATE TEMP TABLE bigint_col (b bigint, f ulid_flake);
INSERT INTO bigint_col VALUES ('00CMXB6TAK4SA'::ulid_flake, 14246757444195114::bigint);
SELECT b, f FROM bigint_col;
INSERT INTO bigint_col (f) VALUES (-5::bigint);

-- bounds and constructors
SELECT ulid_flake_lower('2024-06-06 06:06:06.666Z') AS lower,
       ulid_flake_upper('2024-06-06 06:06:06.666Z') AS upper,
       '2024-06-06 06:06:06.666Z'::timestamptz::ulid_flake AS cast,
       '00CMXB6TAK4SA'::ulid_flake BETWEEN ulid_flake_lower('2024-06-06 06:06:06.666Z')
                                       AND ulid_flake_upper('2024-06-06 06:06:06.666Z') AS inside;
SELECT ulid_flake_lower('2024-01-01Z') AS first, ulid_flake_upper('2302-09-27 15:10:22.207Z') AS last;
SELECT ulid_flake_lower('2023-12-31 23:59:59.999Z');
SELECT ulid_flake_upper('2302-09-27 15:10:22.208Z');
SELECT ulid_flake_lower('infinity');
SELECT ulid_flake_from_parts(1717653966666, 627498) AS standalone,
       ulid_flake_from_parts(1717653966666, 19609, 10) AS scalable,
       ulid_flake_from_parts(NULL, 1) AS null_time;
SELECT ulid_flake_from_parts(1704067199999, 0);
SELECT ulid_flake_from_parts(10500160222208, 0);
SELECT ulid_flake_from_parts(1704067200000, 0) AS lowest, ulid_flake_from_parts(10500160222207, 1048575) AS highest;
SELECT ulid_flake_from_parts(1717653966666, 1048576);
SELECT ulid_flake_from_parts(1717653966666, 32768, 0);
SELECT ulid_flake_from_parts(1717653966666, 0, 32);
SELECT ulid_flake_from_parts(1717653966666, -1);
SELECT ulid_flake_unix_ms(ulid_flake_generate('2030-01-02 03:04:05.678Z')) AS back_filled_ms;
SELECT ulid_flake_generate('2020-01-01Z');

-- back-filling: the same millisecond asked for again continues from the last
-- id (+1 to 255), so up to 100,000 calls give strictly increasing, distinct
-- ids until the millisecond is full, which is the 54000 error
CREATE TEMP TABLE backfill (n int, id ulid_flake);
DO $$
DECLARE
	ids ulid_flake[] := '{}';
BEGIN
	FOR i IN 1..100000 LOOP
		BEGIN
			ids := ids || ulid_flake_generate('2025-06-01 12:00:00.123Z');
		EXCEPTION WHEN program_limit_exceeded THEN
			RAISE NOTICE 'stopped: % (SQLSTATE %)', SQLERRM, SQLSTATE;
			EXIT;
		END;
	END LOOP;
	INSERT INTO backfill SELECT n, id FROM unnest(ids) WITH ORDINALITY AS u(id, n);
END
$$;
SELECT count(*) > 0 AS some_ids, count(*) = count(DISTINCT id) AS all_distinct,
       count(*) FILTER (WHERE id <= prev) AS out_of_order,
       min(ulid_flake_timestamp(id)) = max(ulid_flake_timestamp(id)) AS one_millisecond,
       bool_and(ulid_flake_randomness(id) - ulid_flake_randomness(prev) BETWEEN 1 AND 255) AS steps_1_to_255
  FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM backfill) s;
SELECT ulid_flake_timestamp(ulid_flake_generate('2025-06-01 12:00:00.122Z')) AT TIME ZONE 'UTC' AS earlier_ms_starts_fresh;

-- TimeZone does not change which value a time is
SET TimeZone = 'Pacific/Auckland';
SELECT ulid_flake_lower('2026-01-01 00:00Z') AS in_auckland, '01TT8HD00NF6Y'::ulid_flake::timestamptz AS shown;
SET TimeZone = 'UTC';
SELECT ulid_flake_lower('2026-01-01 00:00Z') AS in_utc, '01TT8HD00NF6Y'::ulid_flake::timestamptz AS shown;

-- an indexed table; ordering is the integer order
CREATE TABLE tickets (id ulid_flake PRIMARY KEY DEFAULT ulid_flake_generate(), title text);
INSERT INTO tickets SELECT canonical::ulid_flake, id FROM flake_vectors WHERE input = canonical;
INSERT INTO tickets (title) SELECT 't' || i FROM generate_series(1, 10000) i;
ANALYZE tickets;
SELECT id, id::bigint AS int64, id::timestamptz AS ts FROM tickets ORDER BY id LIMIT 4;
EXPLAIN (COSTS OFF) SELECT * FROM tickets WHERE id = '00CMXB6TAK4SA';
SELECT title FROM tickets WHERE id = '00CMXB6TAK4SA';
EXPLAIN (COSTS OFF) SELECT id FROM tickets ORDER BY id DESC LIMIT 10;
SELECT min(id), max(id), count(DISTINCT id) FROM tickets;
CREATE TABLE ticket_refs AS SELECT id FROM tickets WHERE title LIKE 't%7';
ANALYZE ticket_refs;
SET enable_mergejoin = off; SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tickets t JOIN ticket_refs r USING (id);
SELECT count(*) FROM tickets t JOIN ticket_refs r USING (id);
RESET enable_mergejoin; RESET enable_nestloop;

-- binary: int8's wire format; a negative value is rejected on the way in
SELECT ulid_flake_send('00CMXB6TAK4SA') AS flake_send, int8send(14246757444195114) AS int8_send;
\copy tickets TO 'results/tickets.bin' (FORMAT binary)
CREATE TABLE tickets_copy (LIKE tickets);
\copy tickets_copy FROM 'results/tickets.bin' (FORMAT binary)
SELECT count(*) AS rows, count(*) FILTER (WHERE t.id IS NULL) AS lost
  FROM tickets_copy c LEFT JOIN tickets t USING (id, title);
\copy (SELECT -1::bigint) TO 'results/negative.bin' (FORMAT binary)
CREATE TABLE flake_only (id ulid_flake);
\copy flake_only FROM 'results/negative.bin' (FORMAT binary)
\copy (SELECT 7::int) TO 'results/short_flake.bin' (FORMAT binary)
\copy flake_only FROM 'results/short_flake.bin' (FORMAT binary)
SELECT count(*) FROM flake_only;

-- settings and their defaults
SELECT name, setting, min_val, max_val, enumvals
  FROM pg_settings WHERE name LIKE 'ulid.%' ORDER BY name;
SET ulid.flake_node_id = 32;
SET ulid.flake_entropy_bytes = 3;
SET ulid.flake_overflow = 'retry';

-- the stand-alone generator: 1M rows, strictly increasing, waiting on overflow
CREATE TABLE flakes (n int, id ulid_flake PRIMARY KEY DEFAULT ulid_flake_generate());
INSERT INTO flakes (n) SELECT generate_series(1, 1000000);
SELECT count(*) AS rows, count(*) FILTER (WHERE id <= prev) AS out_of_order,
       count(*) FILTER (WHERE ulid_flake_unix_ms(id) = ulid_flake_unix_ms(prev)) > 0 AS shared_ms,
       max(id::bigint - prev::bigint) FILTER (WHERE ulid_flake_unix_ms(id) = ulid_flake_unix_ms(prev)) <= 255
       AS increment_at_most_255
  FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM flakes) s;

-- overflow = 'error': 54000, and no committed row is lost
SET ulid.flake_overflow = 'error';
SET ulid.flake_entropy_bytes = 2;   -- increments up to 65535: about 16 ids fill a millisecond
INSERT INTO flakes (n) SELECT 1000000 + generate_series(1, 1000000);
SELECT count(*) AS committed_rows FROM flakes;
-- 'wait' with the same entropy: 200 ids wait for several fresh milliseconds
SET ulid.flake_overflow = 'wait';
INSERT INTO flakes (n) SELECT 2000000 + generate_series(1, 200);
SELECT count(*) AS rows, count(DISTINCT ulid_flake_unix_ms(id)) >= 4 AS waited_for_new_ms,
       count(*) FILTER (WHERE id <= prev) AS out_of_order
  FROM (SELECT n, id, lag(id) OVER (ORDER BY n) AS prev FROM flakes WHERE n > 2000000) s;
RESET ulid.flake_entropy_bytes;
RESET ulid.flake_overflow;

-- the scalable generator: the node id from the setting or the argument
SELECT ulid_flake_generate_scalable();
SELECT ulid_flake_generate_scalable(32);
SET ulid.flake_node_id = 7;
CREATE TABLE scaled (n int, id ulid_flake PRIMARY KEY DEFAULT ulid_flake_generate_scalable());
INSERT INTO scaled (n) SELECT generate_series(1, 20000);
SELECT ulid_flake_node_id(id) AS node, count(*),
       count(*) FILTER (WHERE id <= prev) AS out_of_order
  FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM scaled) s GROUP BY 1;
SELECT ulid_flake_node_id(ulid_flake_generate_scalable(31)) AS from_argument;
SET ulid.flake_entropy_bytes = 2;
SELECT ulid_flake_generate_scalable();
RESET ulid.flake_entropy_bytes;
RESET ulid.flake_node_id;

-- markings
SELECT p.oid::regprocedure, provolatile, proparallel, proisstrict
  FROM pg_proc p
 WHERE proname LIKE 'ulid_flake_%' AND prorettype IN ('ulid_flake'::regtype, 'timestamptz'::regtype,
                                                     'int4'::regtype, 'int8'::regtype)
   AND proname NOT IN ('ulid_flake_cmp', 'ulid_flake_hash', 'ulid_flake_hash_extended')
 ORDER BY 1::text;
SELECT oprname, oprcom::regoperator, oprnegate::regoperator, oprcanmerge, oprcanhash
  FROM pg_operator WHERE oprleft = 'ulid_flake'::regtype ORDER BY oprname;

DROP TABLE tickets, ticket_refs, tickets_copy, flake_only, flakes, scaled;
