--
-- Soft input errors (PostgreSQL 16 and later): pg_input_is_valid and
-- pg_input_error_info answer without raising.  Run only on 16+.
--
SELECT pg_input_is_valid('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'ulid') AS valid,
       pg_input_is_valid('01ARZ3NDEKTSV4RRFFQ69G5FAU', 'ulid') AS bad_char,
       pg_input_is_valid('81ARZ3NDEKTSV4RRFFQ69G5FAV', 'ulid') AS overflow,
       pg_input_is_valid('00CMXB6TAK4SA', 'ulid_flake') AS flake_valid,
       pg_input_is_valid('8000000000000', 'ulid_flake') AS flake_overflow;

SELECT * FROM pg_input_error_info('01ARZ3NDEKTSV4RRFFQ69G5FA', 'ulid');
SELECT * FROM pg_input_error_info('81ARZ3NDEKTSV4RRFFQ69G5FAV', 'ulid');
SELECT * FROM pg_input_error_info('00CMH8K1E1E1L', 'ulid_flake');

-- every vector: the soft answer agrees with ulid_is_valid and the hard error
SELECT format, count(*) AS inputs,
       count(*) FILTER (WHERE NOT pg_input_is_valid(t, format)) AS invalid,
       count(*) FILTER (WHERE pg_input_is_valid(t, format) =
                              CASE format WHEN 'ulid' THEN ulid_is_valid(t) ELSE ulid_flake_is_valid(t) END)
           AS agrees_with_is_valid,
       count(*) FILTER (WHERE (SELECT sql_error_code FROM pg_input_error_info(t, format)) =
                              CASE error_class WHEN 'overflow' THEN '22003' ELSE '22P02' END) AS right_sqlstate
  FROM (SELECT format, error_class, convert_from(decode(coalesce(input_utf8_hex, ''), 'hex'), 'UTF8') AS t
          FROM invalid_inputs WHERE format IN ('ulid', 'ulid_flake') AND id <> 'X22') v
 GROUP BY format ORDER BY format;
SELECT count(*) FILTER (WHERE pg_input_is_valid(input, 'ulid')) AS valid_ulid_vectors FROM ulid_vectors;
SELECT count(*) FILTER (WHERE pg_input_is_valid(input, 'ulid_flake')) AS valid_flake_vectors FROM flake_vectors;
