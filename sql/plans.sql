--
-- Installing the extension changes no plan of a query that does not use its
-- types.  The planner merges "=" clauses into one equivalence class only
-- when their operators belong to the same btree families: were core's
-- bigint or uuid operators also members of our families (as in 0.3.0),
-- "a.id = b.aid AND b.aid = 5" would no longer give "a.id = 5", in every
-- database where the extension is installed.  The same queries are planned
-- in a database without the extension, then with it; the plans must be
-- identical.  Then, to show that the comparison sees such a change, with
-- 0.3.0's families.
--
CREATE DATABASE regress_ulid_plans;
\c regress_ulid_plans
SET client_min_messages = warning;
CREATE TABLE a (id bigint PRIMARY KEY, v int);
CREATE TABLE b (id bigint PRIMARY KEY, aid bigint, v int);
CREATE INDEX ON b (aid);
CREATE TABLE ua (id uuid PRIMARY KEY, v int);
CREATE TABLE ub (id uuid PRIMARY KEY, aid uuid, v int);
CREATE INDEX ON ub (aid);
CREATE TABLE pt (id bigint, v int) PARTITION BY RANGE (id);
CREATE TABLE pt1 PARTITION OF pt FOR VALUES FROM (0) TO (1000);
CREATE TABLE pt2 PARTITION OF pt FOR VALUES FROM (1000) TO (2000);
CREATE TABLE upt (id uuid, v int) PARTITION BY RANGE (id);
CREATE TABLE upt1 PARTITION OF upt FOR VALUES FROM ('00000000-0000-0000-0000-000000000000') TO ('80000000-0000-0000-0000-000000000000');
CREATE TABLE upt2 PARTITION OF upt FOR VALUES FROM ('80000000-0000-0000-0000-000000000000') TO (MAXVALUE);
INSERT INTO a SELECT i, i FROM generate_series(1, 20000) i;
INSERT INTO b SELECT i, i % 20000, i FROM generate_series(1, 20000) i;
INSERT INTO pt SELECT i, i FROM generate_series(0, 1999) i;
INSERT INTO ua SELECT md5(i::text)::uuid, i FROM generate_series(1, 20000) i;
INSERT INTO ub SELECT md5((-i)::text)::uuid, md5(i::text)::uuid, i FROM generate_series(1, 20000) i;
INSERT INTO upt SELECT md5(i::text)::uuid, i FROM generate_series(1, 2000) i;
ANALYZE;

CREATE TABLE workload (n int PRIMARY KEY, settings text, query text);
INSERT INTO workload VALUES
 (1, '', 'SELECT * FROM a JOIN b ON a.id = b.aid WHERE b.aid = 5'),
 (2, '', 'SELECT * FROM a JOIN b ON a.id = b.aid WHERE a.id = 5::int'),
 (3, '', 'SELECT * FROM a JOIN b ON a.id = b.aid WHERE b.aid = 5::smallint ORDER BY a.id'),
 (4, '', 'SELECT * FROM a WHERE id = 7 ORDER BY id, v'),
 (5, '', 'SELECT * FROM a JOIN b ON a.id = b.aid AND a.v = b.v WHERE a.id IN (1, 2, 3)'),
 (6, 'enable_hashjoin=off', 'SELECT * FROM a JOIN b ON a.id = b.aid ORDER BY a.id'),
 (7, 'enable_hashjoin=off', 'SELECT * FROM a JOIN b ON a.id = b.aid AND b.aid = b.id'),
 (8, '', 'SELECT * FROM pt JOIN b ON pt.id = b.aid WHERE b.aid = 1500'),
 (9, '', 'SELECT * FROM pt WHERE id = 1500::int'),
 (10, '', 'SELECT aid, count(*) FROM b GROUP BY aid HAVING aid < 10'),
 (11, '', 'SELECT * FROM ua JOIN ub ON ua.id = ub.aid WHERE ub.aid = md5(''5'')::uuid'),
 (12, '', 'SELECT * FROM ua WHERE id = ''e4da3b7f-bbce-2345-d777-2b0674a318d5'' ORDER BY id, v'),
 (13, 'enable_hashjoin=off', 'SELECT * FROM ua JOIN ub ON ua.id = ub.aid ORDER BY ua.id'),
 (14, '', 'SELECT * FROM upt JOIN ub ON upt.id = ub.aid WHERE ub.aid = ''e4da3b7f-bbce-2345-d777-2b0674a318d5'''),
 (15, '', 'SELECT DISTINCT aid FROM ub WHERE aid < ''10000000-0000-0000-0000-000000000000''');

CREATE TABLE plans (stage text, n int, plan text);
CREATE FUNCTION record_plans(stage text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	w record;
	setting text;
	line text;
	lines text[];
BEGIN
	FOR w IN SELECT * FROM workload ORDER BY n LOOP
		FOREACH setting IN ARRAY string_to_array(w.settings, ',') LOOP
			PERFORM set_config(split_part(setting, '=', 1), split_part(setting, '=', 2), true);
		END LOOP;
		lines := '{}';
		FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || w.query LOOP
			lines := lines || line;
		END LOOP;
		INSERT INTO plans VALUES (stage, w.n, array_to_string(lines, E'\n'));
		RESET enable_hashjoin;
	END LOOP;
END $$;

SELECT record_plans('without the extension');
CREATE EXTENSION ulid;
SELECT record_plans('with ulid');

-- the plans that differ: none
SELECT n, p.stage, p.plan FROM plans p JOIN workload USING (n)
WHERE p.stage IN ('without the extension', 'with ulid')
  AND (SELECT count(DISTINCT q.plan) FROM plans q
       WHERE q.n = p.n AND q.stage IN ('without the extension', 'with ulid')) > 1
ORDER BY n, stage;
SELECT count(*) AS plans_compared FROM plans WHERE stage = 'with ulid';

-- the first query of the review, with the extension: two index lookups
SELECT plan FROM plans WHERE stage = 'with ulid' AND n = 1;

-- with 0.3.0's families, the bigint and uuid equivalence classes break
DROP EXTENSION ulid;
CREATE EXTENSION ulid VERSION '0.3.0';
SELECT record_plans('with ulid 0.3.0');
SELECT string_agg(n::text, ', ' ORDER BY n) AS queries_planned_otherwise_with_0_3_0
FROM plans p
WHERE stage = 'with ulid 0.3.0'
  AND plan <> (SELECT plan FROM plans q WHERE q.n = p.n AND q.stage = 'without the extension');
-- the first of them: the join no longer deduces a.id = 5
SELECT plan AS plan_with_0_3_0 FROM plans WHERE stage = 'with ulid 0.3.0' AND n = 1;

\c contrib_regression
DROP DATABASE regress_ulid_plans;
