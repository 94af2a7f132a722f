-- pgTAP: the ulid type's catalog objects, errors with SQLSTATEs, results.
\ir prologue.psql
SELECT plan(51);

-- catalog
SELECT has_type('ulid');
SELECT has_extension('ulid');
SELECT has_cast('ulid', 'uuid');
SELECT has_cast('uuid', 'ulid');
SELECT has_cast('ulid', 'bytea');
SELECT has_cast('bytea', 'ulid');
SELECT has_cast('ulid', 'timestamp with time zone');
SELECT has_cast('timestamp with time zone', 'ulid');
SELECT cast_context_is('ulid', 'uuid', 'assignment');
SELECT cast_context_is('uuid', 'ulid', 'assignment');
SELECT cast_context_is('ulid', 'bytea', 'explicit');
SELECT cast_context_is('ulid', 'timestamp with time zone', 'explicit');
SELECT has_opclass('ulid_ops');
SELECT has_opclass('ulid_minmax_ops');
SELECT has_operator('ulid', '=', 'ulid', 'boolean');
SELECT has_operator('ulid', '<', 'ulid', 'boolean');
SELECT has_operator('ulid', '>=', 'ulid', 'boolean');
-- operators in the extension's schema (where pg_dump and pgx_ulid's dumps name
-- them), min/max in pg_catalog (found whatever the search_path)
SELECT has_operator('ulid', 'public', '=', 'ulid', 'boolean', 'ulid = ulid is in the extension''s schema');
SELECT has_function('pg_catalog', 'min', ARRAY['ulid']);
SELECT has_function('ulid_generate', ARRAY[]::text[]);
SELECT has_function('ulid_generate', ARRAY['timestamp with time zone']);
SELECT volatility_is('ulid_generate', ARRAY[]::text[], 'volatile');
SELECT volatility_is('ulid_timestamp', ARRAY['ulid'], 'immutable');
SELECT volatility_is('ulid_lower', ARRAY['timestamp with time zone'], 'immutable');

-- errors: SQLSTATE and message
SELECT throws_ok($$SELECT '01ARZ3NDEKTSV4RRFFQ69G5FA'::ulid$$, '22P02',
	'invalid input syntax for type ulid: "01ARZ3NDEKTSV4RRFFQ69G5FA"', 'too short: 22P02');
SELECT throws_ok($$SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAI'::ulid$$, '22P02',
	'invalid input syntax for type ulid: "01ARZ3NDEKTSV4RRFFQ69G5FAI"', 'alias letter I: 22P02');
SELECT throws_ok($$SELECT '81ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid$$, '22003',
	'value "81ARZ3NDEKTSV4RRFFQ69G5FAV" is out of range for type ulid', 'first char 8: 22003');
SELECT throws_ok($$SELECT 'G0000000000000000000000000'::ulid$$, '22003', NULL, 'first char G: 22003');
SELECT throws_ok($$SELECT '\x0102'::bytea::ulid$$, '22023',
	'invalid length for type ulid: 2 bytes', 'short bytea: 22023');
SELECT throws_ok($$SELECT ulid_lower('1969-12-31 23:59:59Z')$$, '22008', NULL, 'before 1970: 22008');
SELECT throws_ok($$SELECT ulid_lower('infinity')$$, '22008', NULL, 'infinity: 22008');
SELECT throws_ok($$SELECT ulid_from_parts(-1, '\x00000000000000000000')$$, '22003', NULL, 'negative ms: 22003');
SELECT throws_ok($$SELECT ulid_from_parts(0, '\x00')$$, '22023', NULL, 'short randomness: 22023');
SELECT throws_ok($$SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '01ARZ3NDEKTSV4RRFFQ69G5FAV'::text$$,
	'42883', NULL, 'no implicit cast: ulid = text does not resolve');
SELECT is('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid, true,
	'ulid = uuid: a cross-type operator on the same bytes');
SELECT throws_ok($$SELECT '01563e3a-b5d3-d676-4c61-efb99302bd5b'::ulid$$, '22P02',
	'invalid input syntax for type ulid: "01563e3a-b5d3-d676-4c61-efb99302bd5b"',
	'a uuid pasted as a ulid: 22P02 (with a HINT to cast)');

-- results
SELECT results_eq($$SELECT '01arz3ndektsv4rrffq69g5fav'::ulid::text$$,
	$$VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV')$$, 'lower case in, upper case out');
SELECT results_eq($$SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid$$,
	$$VALUES ('01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid)$$, 'ulid to uuid');
SELECT results_eq($$SELECT '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid::ulid$$,
	$$VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid)$$, 'uuid to ulid');
SELECT results_eq($$SELECT ulid_unix_ms('01ARZ3NDEKTSV4RRFFQ69G5FAV')$$,
	$$VALUES (1469922850259::bigint)$$, 'unix ms of the spec example');
SELECT results_eq($$SELECT ulid_timestamp('01ARZ3NDEKTSV4RRFFQ69G5FAV')$$,
	$$VALUES ('2016-07-30 23:54:10.259Z'::timestamptz)$$, 'timestamp of the spec example');
SELECT results_eq($$SELECT ulid_lower('2025-01-01Z')::text, ulid_upper('2025-01-01Z')::text$$,
	$$VALUES ('01JGFJJZ000000000000000000', '01JGFJJZ00ZZZZZZZZZZZZZZZZ')$$, 'bounds of a millisecond');
SELECT results_eq(
	$$SELECT x::text FROM unnest('{01BX5ZZKBKACTAV9WEVGEMMVS0,01BX5ZZKBKACTAV9WEVGEMMVRZ,00000000000000000000000000}'::ulid[]) x ORDER BY x$$,
	$$VALUES ('00000000000000000000000000'), ('01BX5ZZKBKACTAV9WEVGEMMVRZ'), ('01BX5ZZKBKACTAV9WEVGEMMVS0')$$,
	'ORDER BY follows the value');
SELECT results_eq($$SELECT ulid_is_valid(x) FROM unnest(ARRAY['01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAU', '']) x$$,
	$$VALUES (true), (false), (false)$$, 'ulid_is_valid');

-- generators
CREATE TEMP TABLE g AS SELECT n, ulid_generate() AS id FROM generate_series(1, 10000) n;
SELECT is((SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY n) p FROM g) s WHERE id <= p), 0::bigint,
	'ulid_generate is strictly increasing in one session');
SELECT is((SELECT count(DISTINCT id) FROM g), 10000::bigint, '10000 distinct ids');
SELECT cmp_ok(ulid_generate(), '<', ulid_generate(), 'the next id is greater');
SELECT isnt(ulid_generate_random(), ulid_generate_random(), 'random ids differ');
SELECT is(ulid_unix_ms(ulid_generate('2020-05-04 03:02:01.123Z')), 1588561321123::bigint, 'back-filled time');
SELECT is(pg_typeof(gen_ulid())::text, 'ulid', 'gen_ulid() for pgx_ulid users');
SELECT is(pg_typeof(gen_monotonic_ulid())::text, 'ulid', 'gen_monotonic_ulid() for pgx_ulid users');

SELECT * FROM finish();
ROLLBACK;
