-- The tables the sort benchmarks sort (bench_sort.sql, and counted in
-- instructions, sort_instructions.sh): each shape of ids in table s_<pos>
-- (shuffled, or as the shape says) and o_<pos> (insertion order), made by
-- pg_temp.make_tables(n); and schema bench, whose operator class sorts
-- ulid with core's uuid functions.

-- ulid ordered by core's uuid functions (uuid_cmp, uuid_sortsupport), named
-- by their own oids: an alias of the same function (LANGUAGE internal) would
-- be looked up by name on each use, a cost core's binding does not pay.  The
-- class fails amvalidate (uuid_cmp's arguments are uuid); sorting does not
-- check.
CREATE SCHEMA bench;
-- (with ulid's own operators' estimators: without them, a merge join with
-- bench.= was estimated at 0.5% of the cross product, 50 million rows of
-- 100,000 ids, and was compiled where JIT was on)
CREATE OPERATOR bench.< (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_lt,
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR bench.<= (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_le,
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR bench.= (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_eq, MERGES,
	RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR bench.>= (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ge,
	RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR bench.> (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_gt,
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR CLASS bench.ulid_core_ops FOR TYPE ulid USING btree AS
	OPERATOR 1 bench.<, OPERATOR 2 bench.<=, OPERATOR 3 bench.=,
	OPERATOR 4 bench.>=, OPERATOR 5 bench.>,
	FUNCTION 1 (ulid, ulid) pg_catalog.uuid_cmp(uuid, uuid),
	FUNCTION 2 (ulid, ulid) pg_catalog.uuid_sortsupport(internal),
	FUNCTION 4 (ulid, ulid) btequalimage(oid);

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
	(15, 'bigint (the same ulid_flake values)', 'bigint', NULL, 'random'),
	-- (numbered after 17 to keep the numbers of the shapes before it)
	(18, 'ulid, mixed: half uuid v4 converted, half 1 per ms', 'ulid', NULL, 'random'),
	-- runs of a bulk load with ids made one per ms over the year before, the
	-- oldest id first: the first id a sort meets decides which milliseconds
	-- the anchor table spans
	(19, 'ulid, half 500 per ms, half 1 per ms a year before, oldest first', 'ulid', NULL, 'oldest first'),
	-- runs far apart: rows inserted 100 at a time, 1 per ms, over a year;
	-- two bulk loads a year apart
	(20, 'ulid, batches of 100 in one ms, over a year', 'ulid',
	 'ulid_generate(b + (i / 100) * (interval ''365 days'' / (n / 100)))', 'random'),
	(21, 'ulid, two loads of 500 per ms, a year apart', 'ulid', NULL, 'random'),
	-- batches at random times (shape 20's come at a regular interval, which
	-- the anchor table's hash spreads over its slots without a collision)
	(22, 'ulid, batches of 100 in one ms, at random times over a year', 'ulid',
	 'ulid_generate(b + interval ''365 days'' * ((hashint4(i / 100) & 2147483647) / 2147483648.0))', 'random'),
	-- short runs: too few in the sample of a large table to keep anchoring
	(23, 'ulid, 5 per ms', 'ulid', 'ulid_generate(b + (i / 5) * interval ''1 ms'')', 'random'),
	-- four bulk loads at once, each its own generator: four runs in each
	-- millisecond, the anchor of which takes one
	(24, 'ulid, four loads at once, each 500 per ms', 'ulid', NULL, 'random'),
	-- back-filled: ulid_generate(t) over rows taken in another order than
	-- their times t, 20 milliseconds whatever the count (a pseudo-random one
	-- a row): random ids in a millisecond, the second of two rows in a row
	-- of one millisecond the first's + 1 (the table in insertion order keeps
	-- these pairs in a row; shuffled, they are apart)
	(28, 'ulid, back-filled over 20 ms (ulid_generate(t), rows in another order)', 'ulid',
	 'ulid_generate(b + ((hashint4(i) & 2147483647) % 20) * interval ''1 ms'')', 'random'),
	-- uuid v4 as shapes 11 to 13 come: sorted, reversed, each id 10 times
	(25, 'uuid v4, already sorted', 'uuid', NULL, 'asc'),
	(26, 'uuid v4, reverse order', 'uuid', NULL, 'desc'),
	(27, 'uuid v4, each 10 times', 'uuid', NULL, 'random');
-- the shapes whose values come in an order, or with copies, that uuid v4's
-- table does not have, and the uuid v4 shape that has them: also reported as
-- times its (the order and the copies change the sort's work for any type)
CREATE TEMP TABLE like_for_like (pos int, reference int);
INSERT INTO like_for_like VALUES (11, 25), (12, 26), (13, 27);
-- PostgreSQL 18's own uuid v7, where the server has uuidv7()
INSERT INTO shapes
SELECT * FROM (VALUES
	(16, 'uuid v7 (uuidv7(), PostgreSQL 18)', 'uuid', 'uuidv7()', 'random'),
	(17, 'ulid, the uuidv7() values (u::ulid), same order', 'ulid', NULL, 'random')) v
 WHERE to_regprocedure('pg_catalog.uuidv7()') IS NOT NULL;
CREATE TEMP TABLE cases AS
SELECT pos * 2 AS pos, shape, type, '' AS binding FROM shapes
UNION ALL
SELECT pos * 2 + 1, shape || ', core''s uuid functions', type, 'bench.' FROM shapes WHERE type = 'ulid';

CREATE FUNCTION pg_temp.make_tables(n int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	s record;
	bytes text;
BEGIN
	-- the shapes made from others come after them
	FOR s IN SELECT * FROM shapes ORDER BY expr IS NULL, pos LOOP
		EXECUTE format('DROP TABLE IF EXISTS o_%s, s_%s', s.pos, s.pos);
		IF s.pos = 2 THEN
			CREATE UNLOGGED TABLE o_2 AS SELECT id::uuid AS id FROM o_6;
		ELSIF s.pos IN (3, 17) THEN
			-- the uuid v4 (uuid v7) values as ulid
			EXECUTE format('CREATE UNLOGGED TABLE o_%s AS SELECT id::ulid AS id FROM o_%s',
						   s.pos, CASE s.pos WHEN 3 THEN 1 ELSE 16 END);
		ELSIF s.pos IN (10, 18) THEN
			EXECUTE format('CREATE UNLOGGED TABLE o_%s AS '
						   'SELECT id FROM (SELECT id::ulid AS id FROM o_1 LIMIT %s / 2) a '
						   'UNION ALL SELECT id FROM (SELECT id FROM o_%s LIMIT %s - %s / 2) b',
						   s.pos, n, CASE s.pos WHEN 10 THEN 6 ELSE 5 END, n, n);
		ELSIF s.pos IN (11, 12) THEN
			EXECUTE format('CREATE UNLOGGED TABLE o_%s AS SELECT id FROM o_6', s.pos);
		ELSIF s.pos = 19 THEN
			CREATE UNLOGGED TABLE o_19 AS
			SELECT id FROM (SELECT ulid_generate(timestamptz '2025-01-01Z' + i * interval '1 ms') AS id
							  FROM generate_series(1, n / 2) i) a
			UNION ALL SELECT id FROM (SELECT id FROM o_6 LIMIT n - n / 2) b;
		ELSIF s.pos = 21 THEN
			CREATE UNLOGGED TABLE o_21 AS
			SELECT id FROM (SELECT ulid_generate(timestamptz '2025-01-01Z' + (i / 500) * interval '1 ms') AS id
							  FROM generate_series(0, n / 2 - 1) i) a
			UNION ALL SELECT id FROM (SELECT id FROM o_6 LIMIT n - n / 2) b;
		ELSIF s.pos = 24 THEN
			CREATE UNLOGGED TABLE o_24 (id ulid);
			FOR load IN 0 .. 3 LOOP
				-- a millisecond of its own first: the load's ids start a run
				PERFORM ulid_generate(timestamptz '2000-01-01Z');
				INSERT INTO o_24
				SELECT ulid_generate(timestamptz '2025-01-01Z' + (i / 500) * interval '1 ms')
				  FROM generate_series(0, (n + 3 - load) / 4 - 1) i;
			END LOOP;
		ELSIF s.pos IN (13, 27) THEN
			EXECUTE format('CREATE UNLOGGED TABLE o_%s AS '
						   'SELECT id FROM (SELECT id FROM o_%s LIMIT %s / 10) a, generate_series(1, 10)',
						   s.pos, CASE s.pos WHEN 13 THEN 5 ELSE 1 END, n);
		ELSIF s.pos IN (25, 26) THEN
			EXECUTE format('CREATE UNLOGGED TABLE o_%s AS SELECT id FROM o_1', s.pos);
		ELSIF s.pos = 15 THEN
			CREATE UNLOGGED TABLE o_15 AS SELECT id::bigint AS id FROM o_14;
		ELSE
			EXECUTE format('CREATE UNLOGGED TABLE o_%s AS SELECT %s AS id '
						   'FROM generate_series(0, %s - 1) i, '
						   '(SELECT timestamptz ''2026-01-01Z'' AS b, %s AS n) c', s.pos, s.expr, n, n);
		END IF;
		-- (uuid's order is that of its bytes)
		bytes := CASE s.type WHEN 'uuid' THEN 'id' ELSE 'id::bytea' END;
		IF s.pos IN (3, 17) THEN
			-- the very values and order of the uuid table
			EXECUTE format('CREATE UNLOGGED TABLE s_%s AS SELECT id::ulid AS id FROM s_%s',
						   s.pos, CASE s.pos WHEN 3 THEN 1 ELSE 16 END);
		ELSE
			EXECUTE format('CREATE UNLOGGED TABLE s_%s AS SELECT id FROM o_%s ORDER BY %s', s.pos, s.pos,
						   CASE s.table_order WHEN 'asc' THEN bytes WHEN 'desc' THEN bytes || ' DESC'
						   WHEN 'oldest first' THEN format('id <> (SELECT min(id) FROM o_%s), random()', s.pos)
						   ELSE 'random()' END);
		END IF;
		EXECUTE format('ANALYZE o_%s, s_%s', s.pos, s.pos);
		-- warm the buffer cache
		EXECUTE format('SELECT count(*) FROM o_%s', s.pos);
		EXECUTE format('SELECT count(*) FROM s_%s', s.pos);
	END LOOP;
END
$$;
