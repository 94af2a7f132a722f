--
-- BRIN minmax (the default opclass) for ulid and ulid_flake: plans for a
-- time range by id and for equality, and the same answers as a sequential
-- scan.  minmax-multi and bloom (PostgreSQL 14+) are in brin_multi.
--
SET TimeZone = 'UTC';

-- the 200,000 time-ordered rows of table ev come from setup

-- the answers a sequential scan gives
SELECT count(*) AS range_rows FROM ev
 WHERE id >= ulid_lower('2025-01-02 00:00Z') AND id < ulid_lower('2025-01-02 00:30Z');
SELECT count(*) AS flake_range_rows FROM ev
 WHERE fid >= ulid_flake_lower('2025-01-02 00:00Z') AND fid < ulid_flake_lower('2025-01-02 00:30Z');

SET enable_seqscan = off;

-- minmax, the default opclass
CREATE INDEX ev_id_brin ON ev USING brin (id);
CREATE INDEX ev_fid_brin ON ev USING brin (fid);
SELECT c.relname, o.opcname
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_opclass o ON o.oid = i.indclass[0]
 WHERE i.indrelid = 'ev'::regclass ORDER BY 1;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ev
 WHERE id >= ulid_lower('2025-01-02 00:00Z') AND id < ulid_lower('2025-01-02 00:30Z');
SELECT count(*) FROM ev
 WHERE id >= ulid_lower('2025-01-02 00:00Z') AND id < ulid_lower('2025-01-02 00:30Z');
EXPLAIN (COSTS OFF) SELECT n FROM ev WHERE id = ulid_from_parts(1735689600000 + 4242000, substring(decode(md5('4242'), 'hex') FOR 10));
SELECT n FROM ev WHERE id = ulid_from_parts(1735689600000 + 4242000, substring(decode(md5('4242'), 'hex') FOR 10));
EXPLAIN (COSTS OFF) SELECT count(*) FROM ev
 WHERE fid >= ulid_flake_lower('2025-01-02 00:00Z') AND fid < ulid_flake_lower('2025-01-02 00:30Z');
SELECT count(*) FROM ev
 WHERE fid >= ulid_flake_lower('2025-01-02 00:00Z') AND fid < ulid_flake_lower('2025-01-02 00:30Z');
SELECT n FROM ev WHERE fid = ulid_flake_from_parts(1735689600000 + 4242000, 4242);

-- a BRIN index is a tiny fraction of a btree's size on time-ordered ids
CREATE INDEX ev_id_btree ON ev (id);
SELECT pg_relation_size('ev_id_brin') * 100 < pg_relation_size('ev_id_btree') AS brin_under_1_percent,
       pg_relation_size('ev_fid_brin') * 100 < pg_relation_size('ev_id_btree') AS flake_brin_under_1_percent;
DROP INDEX ev_id_btree, ev_id_brin, ev_fid_brin;

RESET enable_seqscan;
SELECT opcname, amvalidate(oid) FROM pg_opclass
 WHERE opcname IN ('ulid_minmax_ops', 'ulid_flake_minmax_ops') ORDER BY 1;
