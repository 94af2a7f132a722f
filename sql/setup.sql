--
-- Shared by the suites that follow: the vector tables, loaded from
-- test/vectors/, and a helper that shows what a cast raises.
--
CREATE TABLE ulid_vectors (
	id text, description text, input text, canonical text, hex32 text,
	uuid text, timestamp_ms bigint, iso_timestamp text, randomness_hex text,
	source text);
\copy ulid_vectors FROM 'test/vectors/ulid_vectors.csv' (FORMAT csv, HEADER)
CREATE TABLE flake_vectors (
	id text, description text, variant text, input text, canonical text,
	int64 bigint, hex text, timestamp_since_flake_epoch_ms bigint, unix_ms bigint,
	iso_timestamp text, randomness20_standalone int, randomness15_scalable int,
	sid_scalable int, source text);
\copy flake_vectors FROM 'test/vectors/ulid_flake_vectors.csv' (FORMAT csv, HEADER)
CREATE TABLE invalid_inputs (
	id text, format text, input_repr text, input_utf8_hex text,
	length_bytes int, length_chars int, expected text, error_class text,
	reason text, reference_behaviour text);
\copy invalid_inputs FROM 'test/vectors/invalid_inputs.csv' (FORMAT csv, HEADER)
SELECT (SELECT count(*) FROM ulid_vectors) AS ulid_vectors,
       (SELECT count(*) FROM flake_vectors) AS flake_vectors,
       (SELECT count(*) FROM invalid_inputs) AS invalid_inputs;

-- for the BRIN tests: 200,000 time-ordered rows, one a second from 2025-01-01
CREATE TABLE ev (id ulid, fid ulid_flake, n int);
INSERT INTO ev
SELECT ulid_from_parts(1735689600000 + i * 1000, substring(decode(md5(i::text), 'hex') FOR 10)),
       ulid_flake_from_parts(1735689600000 + i * 1000, i % 1048576),
       i
  FROM generate_series(0, 199999) i;
VACUUM ANALYZE ev;

-- the SQLSTATE and message of whatever casting the input raises
CREATE FUNCTION try_input(input bytea, type_name text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	result text;
BEGIN
	EXECUTE format('SELECT %L::%s::text', convert_from(input, 'UTF8'), type_name)
		INTO result;
	RETURN 'accepted: ' || result;
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;
