#!/usr/bin/env bash
# test/fuzz/seed_corpus.sh DIR: seed corpora from the vectors, one file per
# input: DIR/ulid and DIR/ulid_flake (valid inputs and invalid ones).
set -euo pipefail
dir=$1
mkdir -p "$dir/ulid" "$dir/ulid_flake"
i=0
seed() {
	i=$((i + 1))
	printf '%s' "$2" | xxd -r -p >"$dir/$1/seed_$i"
}
while IFS=, read -r _ _ input _; do
	seed ulid "$(printf '%s' "$input" | xxd -p | tr -d '\n')"
done < <(tail -n +2 test/vectors/ulid_vectors.csv)
while IFS=, read -r _ _ _ input _; do
	seed ulid_flake "$(printf '%s' "$input" | xxd -p | tr -d '\n')"
done < <(tail -n +2 test/vectors/ulid_flake_vectors.csv | sed 's/"[^"]*"//g')
while IFS=, read -r _ format _ hex _; do
	case $format in ulid | ulid_flake) seed "$format" "$hex" ;; esac
done < <(tail -n +2 test/vectors/invalid_inputs.csv)
echo "seeded $(ls "$dir/ulid" | wc -l) ulid and $(ls "$dir/ulid_flake" | wc -l) ulid_flake inputs"
