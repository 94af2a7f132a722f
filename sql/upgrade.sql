--
-- Upgrades.  Every earlier version, installed and then updated with ALTER
-- EXTENSION ulid UPDATE, must have the same objects as a fresh install of
-- the default version: compared catalog row by catalog row, by name (never
-- by OID), with definitions, owners, privileges, comments and dependencies.
-- Then data written under the first version survives the update, as a
-- database owner who is not a superuser would run it.
--
-- This suite runs last: it drops the extension the others used.
--
SET client_min_messages = warning;
DROP EXTENSION ulid CASCADE;
RESET client_min_messages;
CREATE SCHEMA upgrade_check;

-- Each member of an extension as one row: what it is, and everything the
-- catalogs say about it.  Names are printed relative to the search_path, so
-- an object's schema shows when that schema is not on it.
CREATE FUNCTION upgrade_check.objects(ext name)
RETURNS TABLE (object text, definition text)
LANGUAGE sql AS $$
WITH member AS (
	SELECT d.classid, d.objid
	FROM pg_depend d JOIN pg_extension e ON d.refobjid = e.oid
	WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
	  AND e.extname = ext
),
family_members(family, members) AS (
	SELECT f.oid,
	       concat_ws(' ',
	         (SELECT string_agg(format('op%s=%s(%s,%s)/%s', o.amopstrategy,
	                                   o.amopopr::regoperator, o.amoplefttype::regtype,
	                                   o.amoprighttype::regtype, o.amoppurpose),
	                            ' ' ORDER BY o.amopstrategy)
	          FROM pg_amop o WHERE o.amopfamily = f.oid),
	         (SELECT string_agg(format('proc%s=%s(%s,%s)', p.amprocnum,
	                                   p.amproc::regprocedure, p.amproclefttype::regtype,
	                                   p.amprocrighttype::regtype),
	                            ' ' ORDER BY p.amprocnum)
	          FROM pg_amproc p WHERE p.amprocfamily = f.oid))
	FROM pg_opfamily f
)
SELECT pg_describe_object(m.classid, m.objid, 0),
       concat_ws(' | ',
         CASE m.classid
         WHEN 'pg_type'::regclass THEN
           (SELECT format('%s in %s: len=%s byval=%s type=%s category=%s preferred=%s '
                          'delim=%s io=%s/%s/%s/%s typmod=%s/%s analyze=%s align=%s '
                          'storage=%s array=%s collation=%s owner=%s acl=%s',
                          t.typname, t.typnamespace::regnamespace, t.typlen, t.typbyval,
                          t.typtype, t.typcategory, t.typispreferred, t.typdelim,
                          t.typinput, t.typoutput, t.typreceive, t.typsend,
                          t.typmodin, t.typmodout, t.typanalyze, t.typalign,
                          t.typstorage, t.typarray::regtype, t.typcollation,
                          pg_get_userbyid(t.typowner), t.typacl)
            FROM pg_type t WHERE t.oid = m.objid)
         WHEN 'pg_proc'::regclass THEN
           (SELECT CASE p.prokind
                   WHEN 'a' THEN
                     format('aggregate in %s: trans=%s stype=%s final=%s combine=%s '
                            'sortop=%s parallel=%s',
                            p.pronamespace::regnamespace, a.aggtransfn::regprocedure,
                            a.aggtranstype::regtype, a.aggfinalfn, a.aggcombinefn,
                            a.aggsortop::regoperator, p.proparallel)
                   ELSE pg_get_functiondef(p.oid)
                   END || format(' owner=%s acl=%s', pg_get_userbyid(p.proowner), p.proacl)
            FROM pg_proc p LEFT JOIN pg_aggregate a ON a.aggfnoid = p.oid
            WHERE p.oid = m.objid)
         WHEN 'pg_operator'::regclass THEN
           (SELECT format('%s in %s: kind=%s result=%s code=%s commutator=%s negator=%s '
                          'restrict=%s join=%s merges=%s hashes=%s owner=%s',
                          o.oprname, o.oprnamespace::regnamespace, o.oprkind,
                          o.oprresult::regtype, o.oprcode::regprocedure,
                          o.oprcom::regoperator, o.oprnegate::regoperator,
                          o.oprrest::regprocedure, o.oprjoin::regprocedure,
                          o.oprcanmerge, o.oprcanhash, pg_get_userbyid(o.oprowner))
            FROM pg_operator o WHERE o.oid = m.objid)
         WHEN 'pg_opclass'::regclass THEN
           (SELECT format('%s in %s: family=%s type=%s default=%s keytype=%s owner=%s',
                          c.opcname, c.opcnamespace::regnamespace,
                          pg_describe_object('pg_opfamily'::regclass, c.opcfamily, 0),
                          c.opcintype::regtype, c.opcdefault, c.opckeytype::regtype,
                          pg_get_userbyid(c.opcowner))
            FROM pg_opclass c WHERE c.oid = m.objid)
         WHEN 'pg_opfamily'::regclass THEN
           (SELECT format('%s in %s: owner=%s members: %s', f.opfname,
                          f.opfnamespace::regnamespace, pg_get_userbyid(f.opfowner),
                          fm.members)
            FROM pg_opfamily f JOIN family_members fm ON fm.family = f.oid
            WHERE f.oid = m.objid)
         WHEN 'pg_cast'::regclass THEN
           (SELECT format('function=%s context=%s method=%s',
                          c.castfunc::regprocedure, c.castcontext, c.castmethod)
            FROM pg_cast c WHERE c.oid = m.objid)
         WHEN 'pg_class'::regclass THEN
           (SELECT format('%s in %s: kind=%s persistence=%s type=%s start=%s increment=%s '
                          'min=%s max=%s cache=%s cycle=%s owner=%s acl=%s',
                          c.relname, c.relnamespace::regnamespace, c.relkind,
                          c.relpersistence, s.seqtypid::regtype, s.seqstart,
                          s.seqincrement, s.seqmin, s.seqmax, s.seqcache, s.seqcycle,
                          pg_get_userbyid(c.relowner), c.relacl)
            FROM pg_class c LEFT JOIN pg_sequence s ON s.seqrelid = c.oid
            WHERE c.oid = m.objid)
         ELSE 'not compared: ' || m.classid::regclass
         END,
         (SELECT 'comment: ' || d.description FROM pg_description d
          WHERE d.classoid = m.classid AND d.objoid = m.objid AND d.objsubid = 0),
         (SELECT string_agg(format('depends %s on %s',
                                   CASE dep.deptype WHEN 'n' THEN 'normally'
                                                    WHEN 'a' THEN 'automatically'
                                                    WHEN 'i' THEN 'internally'
                                                    ELSE dep.deptype::text END,
                                   pg_describe_object(dep.refclassid, dep.refobjid,
                                                      dep.refobjsubid)),
                            ', ' ORDER BY dep.deptype,
                                 pg_describe_object(dep.refclassid, dep.refobjid, dep.refobjsubid))
          FROM pg_depend dep
          WHERE dep.classid = m.classid AND dep.objid = m.objid AND dep.deptype <> 'e'))
FROM member m
UNION ALL
SELECT 'extension ' || e.extname,
       format('version=%s relocatable=%s schema=%s config=%s condition=%s', e.extversion,
              e.extrelocatable, e.extnamespace::regnamespace,
              e.extconfig::pg_catalog.regclass[], e.extcondition)
FROM pg_extension e WHERE e.extname = ext
$$;

-- One snapshot per install: the default version, then each earlier version
-- updated to it.
CREATE TABLE upgrade_check.snapshot (installed text, object text, definition text);
CREATE FUNCTION upgrade_check.take(installed text) RETURNS void
LANGUAGE sql AS $$
	INSERT INTO upgrade_check.snapshot
	SELECT installed, object, definition FROM upgrade_check.objects('ulid')
$$;

-- The versions there are, and the update paths between them.  Read from
-- pg_extension_update_paths, which looks where CREATE EXTENSION looks, and
-- not from pg_available_extension_versions, which lists the server's own
-- directory only: Debian's build-time tests find the extension in the
-- package's directories (extension_destdir), and so may other setups.
SELECT DISTINCT source AS version FROM pg_extension_update_paths('ulid') ORDER BY 1;
SELECT source, target, path
FROM pg_extension_update_paths('ulid') WHERE path IS NOT NULL ORDER BY source, target;

CREATE SCHEMA ids;
SET search_path = public;

CREATE EXTENSION ulid SCHEMA ids;
SELECT upgrade_check.take('fresh');
DROP EXTENSION ulid;

DO $$
DECLARE
	v text;
	default_version text;
BEGIN
	CREATE EXTENSION ulid SCHEMA ids;
	SELECT extversion INTO default_version FROM pg_extension WHERE extname = 'ulid';
	DROP EXTENSION ulid;
	-- every other version (the listing above shows that each has a path)
	FOR v IN SELECT DISTINCT source FROM pg_extension_update_paths('ulid')
			 WHERE source <> default_version ORDER BY 1
	LOOP
		EXECUTE format('CREATE EXTENSION ulid VERSION %L SCHEMA ids', v);
		ALTER EXTENSION ulid UPDATE;
		PERFORM upgrade_check.take(v || ' updated');
		DROP EXTENSION ulid;
	END LOOP;
END
$$;

-- Each install against the fresh one: the rows only one of them has.
-- Expected: none.
SELECT u.installed, d.side, d.object, d.definition
FROM (SELECT DISTINCT installed FROM upgrade_check.snapshot WHERE installed <> 'fresh') u
LEFT JOIN LATERAL (
	(SELECT 'only updated' AS side, object, definition FROM upgrade_check.snapshot WHERE installed = u.installed
	 EXCEPT
	 SELECT 'only updated', object, definition FROM upgrade_check.snapshot WHERE installed = 'fresh')
	UNION ALL
	(SELECT 'only fresh', object, definition FROM upgrade_check.snapshot WHERE installed = 'fresh'
	 EXCEPT
	 SELECT 'only fresh', object, definition FROM upgrade_check.snapshot WHERE installed = u.installed)
) d ON true
ORDER BY 1, 2, 3;

-- What a fresh install holds (schema ids is not on the search_path, so what
-- lives there is qualified: min/max are in pg_catalog).  Not
-- listed here, as they depend on the major: the BRIN minmax-multi and bloom
-- classes (14+, listed by the brin_multi suite), the skip support functions
-- (18+, listed by the skip_scan suite) and the array types (members of the
-- extension from 17 on).
SELECT object, (definition LIKE '%not compared%') AS not_compared
FROM upgrade_check.snapshot
WHERE installed = 'fresh' AND object !~ '(minmax_multi|bloom|skipsupport|\[\])'
ORDER BY object COLLATE "C";

--
-- Data written under the first version, by a database owner who is not a
-- superuser, survives the update.
--
CREATE ROLE regress_ulid_owner;
DO $$ BEGIN
	EXECUTE format('GRANT CREATE ON DATABASE %I TO regress_ulid_owner', current_database());
END $$;
DROP SCHEMA ids;
SET ROLE regress_ulid_owner;
CREATE SCHEMA ids;
CREATE SCHEMA app;
CREATE EXTENSION ulid VERSION '0.1.0' SCHEMA ids;
SET search_path = app, ids;
CREATE TABLE app.kept (
	id ulid PRIMARY KEY DEFAULT ulid_generate(),
	fid ulid_flake NOT NULL DEFAULT ulid_flake_generate(),
	n int);
INSERT INTO app.kept
SELECT ulid_from_parts(1767225600000 + i * 60000, decode(lpad(to_hex(i), 20, '0'), 'hex')),
       ulid_flake_from_parts(1767225600000 + i * 60000, i), i
FROM generate_series(1, 1000) i;
INSERT INTO app.kept (n) VALUES (0);		-- the generators, under 0.1.0
CREATE INDEX kept_fid_hash ON app.kept USING hash (fid);
CREATE INDEX kept_fid_brin ON app.kept USING brin (fid);
CREATE VIEW app.kept_summary AS
SELECT min(id) AS min_id, max(fid) AS max_fid,
       count(*) FILTER (WHERE id >= '01KDVDTSS00000000000000003' AND fid < '01TT93PY0000A') AS in_range
FROM app.kept WHERE n > 0;
SELECT * FROM app.kept_summary;

-- Under 0.1.0 the operators are found only through the extension's schema.
SET search_path = app;
SELECT count(*) FROM kept WHERE id = id;

ALTER EXTENSION ulid UPDATE;
RESET ROLE;
SELECT extversion, extrelocatable, extnamespace::regnamespace, pg_get_userbyid(extowner) AS owner
FROM pg_extension WHERE extname = 'ulid';

-- The view and the indexes built under 0.1.0 give the same answers.  The
-- operators live in the extension's schema again (0.2.0 and 0.3.0 had them
-- in pg_catalog): the view, which refers to them by OID, and min/max (in
-- pg_catalog) need no search_path; a query written now names them through
-- it, as for any extension's operators.
SET ROLE regress_ulid_owner;
SET search_path = app;
SELECT * FROM kept_summary;
SELECT min(id) AS min_id, max(fid) AS max_fid FROM kept WHERE n > 0;
SELECT count(*) FROM kept WHERE id = id;
SET search_path = app, ids;
SELECT min(id) AS min_id, max(fid) AS max_fid,
       count(*) FILTER (WHERE id >= '01KDVDTSS00000000000000003' AND fid < '01TT93PY0000A') AS in_range
FROM kept WHERE n > 0;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM kept WHERE fid = '01TT8PWS00003';
SELECT n FROM kept WHERE fid = '01TT8PWS00003';
EXPLAIN (COSTS OFF) SELECT n FROM kept
WHERE id BETWEEN '01KDVDYEZ00000000000000005' AND '01KDVE5SB00000000000000009' ORDER BY id;
SELECT n FROM kept
WHERE id BETWEEN '01KDVDYEZ00000000000000005' AND '01KDVE5SB00000000000000009' ORDER BY id;
RESET enable_bitmapscan;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM kept WHERE fid >= '01TT8THZ00005';
SELECT count(*) FROM kept WHERE fid >= '01TT8THZ00005';
RESET enable_indexscan;
RESET enable_seqscan;

-- every comparison, IN, ANY, DISTINCT, a self-join
SELECT count(*) FILTER (WHERE a.id < b.id) AS lt, count(*) FILTER (WHERE a.id <= b.id) AS le,
       count(*) FILTER (WHERE a.id <> b.id) AS ne, count(*) FILTER (WHERE a.fid > b.fid) AS gt,
       count(*) FILTER (WHERE a.fid >= b.fid) AS ge, count(*) FILTER (WHERE a.fid = b.fid) AS eq
FROM kept a JOIN kept b ON a.n BETWEEN 1 AND 10 AND b.n BETWEEN 1 AND 10;
SELECT count(*) FROM kept WHERE id IN ('01KDVDTSS00000000000000003', '01KDVE7KY0000000000000000A')
   OR fid = ANY ('{01TT8K7K00001}');
SELECT count(DISTINCT id) AS ids, count(DISTINCT fid) AS fids FROM kept;
SELECT count(*) FROM kept a JOIN kept b ON a.id = b.id AND a.fid = b.fid;
-- casts name no schema; and with ids on the path nothing is ambiguous
SET search_path = app;
SELECT id::uuid, id::text, fid::bigint, fid::timestamptz
FROM kept WHERE n = 3;
SET search_path = app, ids;
SELECT id::timestamptz = fid::timestamptz AS same_time FROM kept WHERE n = 3;
SELECT count(*) FROM kept
WHERE id = '01KDVDTSS00000000000000003' OR '01TT8PWS00003' = fid
   OR id < ulid_lower('2026-01-01 00:02+00') OR fid <= ulid_flake_lower('2026-01-01 00:01+00');
SELECT min(id) AS min_id, max(fid) AS max_fid FROM kept WHERE n > 0;

-- the DEFAULT generators after the update
INSERT INTO kept (n) VALUES (-1);
SELECT (SELECT id FROM kept WHERE n = -1) > (SELECT id FROM kept WHERE n = 0) AS id_after,
       (SELECT fid FROM kept WHERE n = -1) > (SELECT fid FROM kept WHERE n = 0) AS fid_after;
RESET ROLE;

-- And the relocation 0.1.0 allowed is refused now, with the reason.
ALTER EXTENSION ulid SET SCHEMA public;

SET client_min_messages = warning;
DROP OWNED BY regress_ulid_owner;
RESET client_min_messages;
DO $$ BEGIN
	EXECUTE format('REVOKE CREATE ON DATABASE %I FROM regress_ulid_owner', current_database());
END $$;
DROP ROLE regress_ulid_owner;
SET client_min_messages = warning;
DROP SCHEMA upgrade_check CASCADE;
