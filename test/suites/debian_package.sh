#!/usr/bin/env bash
# test/suites/debian_package.sh: the Debian package, as a packager builds
# it, in a clean Debian 12 chroot (test/lib/debian_chroot.sh: a debootstrap
# kept in /var/cache/ulid-chroot, seen through a throwaway overlay):
#
#   1. the chroot has nothing of ours; 'apt-get build-dep' installs
#      debian/control's build dependencies and nothing else is installed;
#      'dpkg-buildpackage -us -uc -b' runs as an ordinary user and builds a
#      package per PostgreSQL major, and its build-time tests (dh_pgxs_test:
#      pg_regress against the files in debian/postgresql-NN-ulid) ran and
#      passed, while the system's directories still hold no ulid file;
#   2. lintian reports no error and no warning that debian/ does not
#      override with a reason;
#   3. autopkgtest (debian/tests) passes in a second fresh chroot, with the
#      chroot virtualisation server: the built package installed there from
#      the .deb, the regression suite run against it.
#
# Needs root (mounts, chroot) and debootstrap; the first run makes the
# chroot (about 2 minutes), later runs reuse it and the .deb files apt
# fetched.  Logs and the built packages are left in test/output/debian/.
# Prints TAP.
set -uo pipefail
cd "$(dirname "$0")/../.."
. test/lib/tap.sh
. test/lib/debian_chroot.sh
top=$PWD
out=$top/test/output/debian
# once per machine: the chroot has its own PostgreSQL, whatever PG_CONFIG
# says, so not inside another run of the suite (ULID_NESTED_RUN: each major
# of the matrix, the dist suite's run of the unpacked zip, non_root's)
if [ -n "${ULID_NESTED_RUN:-}" ]; then
	echo "ok 1 # SKIP run once, by make test on the machine's PostgreSQL"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "ok 1 # SKIP the package is built in a chroot, which needs root: sudo make deb-check"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"
if ! chroot_base 2>"$out/chroot.err"; then
	echo "not ok 1 - a clean Debian 12 chroot: $(cat "$out/chroot.err")"
	exit 1
fi
check "a Debian $chroot_suite chroot made by debootstrap (cached in $chroot_cache)" \
	"$(cat "$base/etc/debian_version" | cut -d. -f1)" 12

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ulid-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
src=$tmp/ulid
mkdir "$src"
# the tree as it is (a checkout: what git tracks or would; an unpacked dist: all)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$src"
else
	cp -a . "$src"
	rm -rf "$src/test/output" "$src/test/clients/node_modules"
fi
version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
arch=$(dpkg --print-architecture)

export OUT=$out SRC=$src VERSION=$version ARCH=$arch
# Everything in the chroots: A builds, lints and runs autopkgtest, whose
# testbed is B (mounted at /testbed in A).  Each step leaves its log and
# its exit status (NAME.log, NAME.rc) in $out.
chroot_session "$tmp/a" "$tmp/b" <<'EOF'
out=$OUT
a=${ROOTS[0]} b=${ROOTS[1]}
step() { local name=$1; shift; "$@" >"$out/$name.log" 2>&1; echo $? >"$out/$name.rc"; }
apt_install() {	# a stale package list (the mirror moved on) is refreshed once
	"$@" || { in_chroot "$root" apt-get update -qq && "$@"; }
}
ours() { in_chroot "$1" sh -c 'ls -d /usr/lib/postgresql/*/lib/ulid.so /usr/lib/postgresql/*/lib/bitcode/ulid* /usr/share/postgresql/*/extension/ulid* 2>/dev/null || true' | sort | paste -sd' '; }

mkdir -p "$a/build"
cp -a "$SRC" "$a/build/ulid"
in_chroot "$a" chown -R builder: /build
dpkg-query --admindir="$a/var/lib/dpkg" -W -f '${Package}\n' | sort >"$out/packages-base.txt"
root=$a step build-dep apt_install in_chroot "$a" apt-get build-dep -y -q /build/ulid
dpkg-query --admindir="$a/var/lib/dpkg" -W -f '${Package}\n' | sort >"$out/packages-build.txt"
ours "$a" >"$out/ours-before.txt"
step build in_chroot "$a" runuser -u builder -- sh -c 'cd /build/ulid && dpkg-buildpackage -us -uc -b'
ours "$a" >"$out/ours-after.txt"
cp "$a"/build/*.deb "$a"/build/*.changes "$a"/build/*.buildinfo "$out/" 2>/dev/null || true

root=$a step lintian-install apt_install in_chroot "$a" apt-get install -y -q lintian
step lintian in_chroot "$a" runuser -u builder -- lintian --display-info --pedantic --show-overrides \
	--fail-on error,warning /build/ulid_${VERSION}_${ARCH}.changes

root=$a step autopkgtest-install apt_install in_chroot "$a" apt-get install -y -q autopkgtest
mkdir -p "$a/testbed"
mount --rbind "$b" "$a/testbed"
debs=$(cd "$a/build" && ls postgresql-*-ulid_"${VERSION}_$ARCH".deb 2>/dev/null | sed 's#^#/build/#')
# shellcheck disable=SC2086
step autopkgtest in_chroot "$a" autopkgtest --output-dir /build/autopkgtest \
	$debs /build/ulid/ -- chroot /testbed
cp "$a/build/autopkgtest/summary" "$out/autopkgtest-summary" 2>/dev/null || true
ours "$b" >"$out/ours-testbed.txt"
EOF
# pg_regress's verdict in a log, and what it should be: every test it ran ok
verdict() { grep -oE 'All [0-9]+ tests passed|[0-9]+ of [0-9]+ tests failed' "$1" | sort -u | paste -sd' '; }
all_ok() { echo "All $(grep -cE '^(test |     )?[a-z_0-9]+ +\.\.\. ok|^ok [0-9]+ +[-+] ' "$1") tests passed"; }
rc() { cat "$out/$1.rc" 2>/dev/null || echo "not run"; }
tail_of() { tail -5 "$out/$1.log" 2>/dev/null | tr '\n' ' '; }

# 1. the build
check "the chroot holds nothing of ours before the build" "$(cat "$out/ours-before.txt")" ""
check "apt-get build-dep installs debian/control's build dependencies" \
	"$(rc build-dep)" 0
check "before: a debootstrap (buildd variant) without any PostgreSQL package" \
	"$(grep -c '^postgresql' "$out/packages-base.txt")" 0
added=$(comm -13 "$out/packages-base.txt" "$out/packages-build.txt")
check "build-dep installs the build dependencies: debhelper, postgresql-server-dev-all, postgresql-all (and its servers)" \
	"$(echo "$added" | grep -xE 'postgresql-15|postgresql-server-dev-all|debhelper|postgresql-all' | paste -sd' ')" \
	"debhelper postgresql-15 postgresql-all postgresql-server-dev-all"
check "dpkg-buildpackage -us -uc -b, as an ordinary user, succeeds" \
	"$(rc build)$([ "$(rc build)" = 0 ] || echo ": $(tail_of build)")" 0
check "it builds a package per supported major" \
	"$(cd "$out" && ls postgresql-*-ulid_*.deb 2>/dev/null | paste -sd' ')" \
	"$(for v in $(grep -oE 'postgresql-[0-9]+-ulid' "$src/debian/control" | sort -u | grep -oE '[0-9]+'); do
		echo "postgresql-$v-ulid_${version}_$arch.deb"; done | paste -sd' ')"
# the build-time tests: dh_pgxs_test ran pg_regress for each major, with
# the package's directories (debian/postgresql-NN-ulid) as extension_destdir
tested=$(grep -oE '^### PostgreSQL [0-9]+ installcheck ###' "$out/build.log" | grep -oE '[0-9]+' | paste -sd' ')
check "the build ran its tests (dh_pgxs_test) for each major" "${tested:-none}" \
	"$(grep -oE 'postgresql-[0-9]+-ulid' "$src/debian/control" | sort -u | grep -oE '[0-9]+' | paste -sd' ')"
# pg_buildext's package pattern makes pg_virtualenv point extension_destdir
# and dynamic_library_path into debian/postgresql-NN-ulid; the system's
# directories have nothing of ours (checked before and after), so what
# passed can only be the package's files
check "the build-time tests are given the package's files (pg_buildext installcheck . . postgresql-%v-ulid)" \
	"$(grep -cE '^[[:space:]]*pg_buildext installcheck \. \. postgresql-%v-ulid$' "$out/build.log")" 1
check "and passed: pg_regress's verdict in the build log" \
	"$(verdict "$out/build.log")" "$(all_ok "$out/build.log")"
check "a skipped test run would not pass unseen (no 'skipping this version')" \
	"$(grep -c 'skipping this version' "$out/build.log")" 0
check "after the build the system's directories still hold nothing of ours" "$(cat "$out/ours-after.txt")" ""
for deb in "$out"/postgresql-*-ulid_*.deb; do
	[ -f "$deb" ] || continue
	pkg=$(dpkg-deb -f "$deb" Package)
	check "$pkg holds the module and every install and update script (and the pg_upgrade twin's)" \
		"$(dpkg-deb -c "$deb" | grep -oE '/ulid\.so$|/ulid\.control$|/ulid--.*\.sql$' | sed 's#.*/##' | sort | paste -sd' ')" \
		"$( (v=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$src/ulid.control")
		     echo ulid.so ulid.control "ulid--$v--$v-pg_upgrade.sql" "ulid--$v-pg_upgrade--$v.sql"
		     cd "$src" && ls ulid--*.sql) | tr ' ' '\n' | sort | paste -sd' ')"
done

# 2. lintian
check "lintian installs in the chroot" "$(rc lintian-install)" 0
check "lintian: no error, no warning that debian/ does not override" \
	"$(rc lintian)$(grep -E '^[EW]: ' "$out/lintian.log" | sed 's/^/; /' | paste -sd' ')" 0
sed 's/^/# /' "$out/lintian.log"

# 3. autopkgtest
check "autopkgtest installs in the chroot" "$(rc autopkgtest-install)" 0
check "autopkgtest (chroot virtualisation server, a second fresh chroot) passes" \
	"$(rc autopkgtest): $(sed 's/  */ /g' "$out/autopkgtest-summary" 2>/dev/null | paste -sd' ')" \
	"0: installcheck PASS"
check "autopkgtest ran the regression suite against the installed package" \
	"$(verdict "$out/autopkgtest.log")" "$(all_ok "$out/autopkgtest.log")"
check "the testbed had the package's files where the package puts them" \
	"$(tr ' ' '\n' <"$out/ours-testbed.txt" | grep -cE '/ulid\.so$|/ulid\.control$')" 2
echo "1..$n"
