--
-- BRIN minmax-multi and bloom for ulid and ulid_flake (PostgreSQL 14 and
-- later, where core has them).
--
SET TimeZone = 'UTC';

-- the 200,000 time-ordered rows of table ev come from setup

SET enable_seqscan = off;

-- minmax-multi
CREATE INDEX ev_id_multi ON ev USING brin (id ulid_minmax_multi_ops);
CREATE INDEX ev_fid_multi ON ev USING brin (fid ulid_flake_minmax_multi_ops);
EXPLAIN (COSTS OFF) SELECT count(*) FROM ev
 WHERE id >= ulid_lower('2025-01-02 00:00Z') AND id < ulid_lower('2025-01-02 00:30Z');
SELECT count(*) FROM ev
 WHERE id >= ulid_lower('2025-01-02 00:00Z') AND id < ulid_lower('2025-01-02 00:30Z');
SELECT count(*) FROM ev
 WHERE fid >= ulid_flake_lower('2025-01-02 00:00Z') AND fid < ulid_flake_lower('2025-01-02 00:30Z');
DROP INDEX ev_id_multi, ev_fid_multi;

-- bloom: equality look-ups
CREATE INDEX ev_id_bloom ON ev USING brin (id ulid_bloom_ops);
CREATE INDEX ev_fid_bloom ON ev USING brin (fid ulid_flake_bloom_ops);
EXPLAIN (COSTS OFF) SELECT n FROM ev WHERE id = ulid_from_parts(1735689600000 + 4242000, substring(decode(md5('4242'), 'hex') FOR 10));
SELECT n FROM ev WHERE id = ulid_from_parts(1735689600000 + 4242000, substring(decode(md5('4242'), 'hex') FOR 10));
EXPLAIN (COSTS OFF) SELECT n FROM ev WHERE fid = ulid_flake_from_parts(1735689600000 + 4242000, 4242);
SELECT n FROM ev WHERE fid = ulid_flake_from_parts(1735689600000 + 4242000, 4242);

RESET enable_seqscan;
SELECT opcname, amvalidate(oid) FROM pg_opclass
 WHERE opcname ~ '^ulid(_flake)?_(minmax_multi|bloom)_ops$' ORDER BY 1;
