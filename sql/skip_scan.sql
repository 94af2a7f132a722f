--
-- PostgreSQL 18: the module says its name and version, and a btree skip
-- scan uses core's skip support for both types (that of uuid and int8):
-- a two-column index whose leading column has few distinct values answers
-- a condition on its second column alone.  Run only on 18+.
--
SELECT ulid_generate() IS NOT NULL AS loaded;
-- The version must be the one ulid.control names (the Makefile builds it from
-- there); printed as such, so this file does not change with each release,
-- and as it is where it differs.
SELECT module_name, file_name,
       CASE WHEN version = (SELECT default_version FROM pg_available_extensions WHERE name = 'ulid')
            THEN 'default_version of ulid.control' ELSE version END AS version
  FROM pg_get_loaded_modules() WHERE module_name = 'ulid';
SELECT opfname, amproc::regproc FROM pg_amproc p JOIN pg_opfamily f ON f.oid = p.amprocfamily
 WHERE opfname IN ('ulid_ops', 'ulid_flake_ops') AND amprocnum = 6 ORDER BY 1;

CREATE TABLE skip_flake (tenant ulid_flake, n int);
INSERT INTO skip_flake SELECT ulid_flake_from_parts(1717653966666 + i % 4, 0), i FROM generate_series(1, 100000) i;
CREATE INDEX ON skip_flake (tenant, n);
CREATE TABLE skip_ulid (tenant ulid, n int);
INSERT INTO skip_ulid SELECT ulid_from_parts(1700000000000 + i % 4, '\x00000000000000000000'), i FROM generate_series(1, 100000) i;
CREATE INDEX ON skip_ulid (tenant, n);
VACUUM ANALYZE skip_flake, skip_ulid;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
SELECT * FROM skip_flake WHERE n = 4242;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
SELECT * FROM skip_ulid WHERE n = 4242;
SELECT * FROM skip_flake WHERE n = 4242;
SELECT * FROM skip_ulid WHERE n = 4242;
RESET enable_seqscan;
RESET enable_bitmapscan;
DROP TABLE skip_flake, skip_ulid;
