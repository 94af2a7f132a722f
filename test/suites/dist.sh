#!/usr/bin/env bash
# test/suites/dist.sh: `make dist` gives a PGXN zip whose META.json is valid and
# whose contents, unpacked into a clean directory, build, install and pass
# their own `make test`.  Prints TAP.  Run once per machine: not inside
# another run of the suite (the matrix's, non_root's, its own), whose sources
# are the same.
set -uo pipefail
if [ -n "${ULID_NESTED_RUN:-}" ]; then
	echo "ok 1 # SKIP run once, by make test on the machine's PostgreSQL"
	exit 0
fi
cd "$(dirname "$0")/../.."
version=$(make -s print-version)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

make -s dist DIST="$tmp/ulid-$version.zip" >/dev/null 2>&1
check $? "make dist writes ulid-$version.zip"
(cd "$tmp" && unzip -q "ulid-$version.zip")
check $? "the zip unpacks"
top=$(cd "$tmp" && ls -d ulid-*/ 2>/dev/null)
[ "$top" = "ulid-$version/" ]
check $? "everything sits under ulid-$version/ (found: $top)"
for f in META.json ulid.control Makefile README.md LICENSE "ulid--$version.sql" src/codec.c debian/control debian/rules debian/tests/control; do
	[ -f "$tmp/ulid-$version/$f" ]
	check $? "the zip holds $f"
done
(cd "$tmp/ulid-$version" && perl test/suites/meta.pl >"$tmp/meta.tap" 2>&1)
check $? "META.json in the zip is valid meta-spec 1.0.0 and agrees with the version ($(grep -c '^ok' "$tmp/meta.tap") checks)"
(cd "$tmp/ulid-$version" && ULID_NESTED_RUN=1 make -s --no-print-directory test >"$tmp/inner.log" 2>&1)
status=$?
check $status "the unpacked zip builds, installs and passes its own tests: $(tail -1 "$tmp/inner.log")"
# on failure: the suites that failed, their failing checks, pg_regress's
# differences (printed after its line), and the end
[ $status = 0 ] || {
	grep -E 'not ok|[1-9][0-9]* failed$' "$tmp/inner.log" | head -30
	sed -n '/^pg_regress .* [1-9][0-9]* failed$/,/^[^ ]/{/^    /p}' "$tmp/inner.log" | head -60
	tail -5 "$tmp/inner.log"
} | sed 's/^/# /'
echo "1..$n"
