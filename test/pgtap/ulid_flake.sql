-- pgTAP: the ulid_flake type's catalog objects, errors with SQLSTATEs, results.
\ir prologue.psql
SELECT plan(32);

SELECT has_type('ulid_flake');
SELECT has_cast('ulid_flake', 'bigint');
SELECT has_cast('bigint', 'ulid_flake');
SELECT has_cast('ulid_flake', 'timestamp with time zone');
SELECT has_cast('timestamp with time zone', 'ulid_flake');
SELECT cast_context_is('ulid_flake', 'bigint', 'assignment');
SELECT cast_context_is('bigint', 'ulid_flake', 'assignment');
SELECT cast_context_is('ulid_flake', 'timestamp with time zone', 'explicit');
SELECT has_opclass('ulid_flake_ops');
SELECT has_opclass('ulid_flake_minmax_ops');
SELECT has_operator('ulid_flake', 'public', '<', 'ulid_flake', 'boolean', 'ulid_flake < ulid_flake is in the extension''s schema');
SELECT has_function('pg_catalog', 'max', ARRAY['ulid_flake']);
SELECT has_function('ulid_flake_generate_scalable', ARRAY['integer']);

SELECT throws_ok($$SELECT '00CMXB6TAK4S'::ulid_flake$$, '22P02',
	'invalid input syntax for type ulid_flake: "00CMXB6TAK4S"', '12 characters: 22P02');
SELECT throws_ok($$SELECT '8000000000000'::ulid_flake$$, '22003',
	'value "8000000000000" is out of range for type ulid_flake', 'sign bit: 22003');
SELECT throws_ok($$SELECT 'G000000000000'::ulid_flake$$, '22003', NULL, 'first char G: 22003');
SELECT throws_ok($$SELECT (-1)::bigint::ulid_flake$$, '22003',
	'value -1 is out of range for type ulid_flake', 'negative bigint: 22003');
SELECT throws_ok($$SELECT ulid_flake_lower('2023-12-31 23:59:59Z')$$, '22008', NULL, 'before 2024: 22008');
SELECT throws_ok($$SELECT ulid_flake_generate_scalable(32)$$, '22003', NULL, 'node 32: 22003');
SELECT throws_ok($$SELECT ulid_flake_generate_scalable()$$, '55000',
	'ulid.flake_node_id is not set', 'node id unset: 55000');
SET LOCAL ulid.flake_overflow = 'error';
SET LOCAL ulid.flake_entropy_bytes = 2;
SELECT throws_ok($$SELECT count(ulid_flake_generate()) FROM generate_series(1, 100000)$$, '54000',
	'ulid_flake generator overflow: no more values in this millisecond', 'overflow with error: 54000');
SET LOCAL ulid.flake_overflow = 'wait';
SET LOCAL ulid.flake_entropy_bytes = 1;

SELECT results_eq($$SELECT '00CMXB6TAK4SA'::ulid_flake::bigint$$, $$VALUES (14246757444195114::bigint)$$,
	'text to bigint (spec example)');
SELECT results_eq($$SELECT 14246757444195114::bigint::ulid_flake::text$$, $$VALUES ('00CMXB6TAK4SA')$$,
	'bigint to text');
SELECT results_eq($$SELECT '00cmxb6tak4sa'::ulid_flake::text$$, $$VALUES ('00CMXB6TAK4SA')$$, 'lower case');
SELECT results_eq($$SELECT 9223372036854775807::bigint::ulid_flake::text, 0::bigint::ulid_flake::text$$,
	$$VALUES ('7ZZZZZZZZZZZZ', '0000000000000')$$, 'bigint boundaries');
SELECT results_eq($$SELECT ulid_flake_timestamp('00CMXB6TAK4SA')$$,
	$$VALUES ('2024-06-06 06:06:06.666Z'::timestamptz)$$, 'timestamp');
SELECT results_eq($$SELECT ulid_flake_randomness('00CMXB6TAK4SA'), ulid_flake_randomness('00CMXB6TAK4SA', true), ulid_flake_node_id('00CMXB6TAK4SA')$$,
	$$VALUES (627498, 19609, 10)$$, 'randomness and node id');
SELECT results_eq($$SELECT ulid_flake_from_parts(1720262859598, 30432, 31)::text$$, $$VALUES ('00F2NC9TEXQ0Z')$$,
	'from parts, scalable (Go README)');

CREATE TEMP TABLE g AS SELECT n, ulid_flake_generate() AS id FROM generate_series(1, 20000) n;
SELECT is((SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY n) p FROM g) s WHERE id <= p), 0::bigint,
	'ulid_flake_generate is strictly increasing in one session');
SELECT is((SELECT count(DISTINCT id) FROM g), 20000::bigint, '20000 distinct ids');
SET LOCAL ulid.flake_node_id = 9;
SELECT is(ulid_flake_node_id(ulid_flake_generate_scalable()), 9, 'node id from the setting');
SELECT is(ulid_flake_node_id(ulid_flake_generate_scalable(3)), 3, 'node id from the argument');

SELECT * FROM finish();
ROLLBACK;
