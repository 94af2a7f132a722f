#!/usr/bin/env bash
# test/matrix.sh [MAJOR...]: the whole test suite (test/run_tests.sh) on
# other PostgreSQL majors, 13, 17 and 18 by default (what `make matrix` and
# .ci/run run; make test covers the machine's own server).
#
# Each major is built from Debian's source package (bullseye, trixie, sid,
# through a private apt configuration; no system apt state is touched) into
# a cache outside the project tree, ULID_PG_CACHE (default
# /var/cache/ulid-pg), with contrib and pgTAP, and reused when present.
# 13 is built with clang and assertions (--enable-cassert), so the extension
# is built with clang there and runs under core's assertions; the others
# are built with gcc.  Each suite runs on a copy of the working tree.
#
# Then pg_upgrade from each major to the next, with the extension's objects
# compared with a fresh install on the newer one (test/suites/pg_upgrade_check.sh).
# Prints each major's summary and how long it took; a major whose sources
# cannot be fetched or built fails with one line saying so.  The last line
# is "N passed, N failed" over all majors; test/output/matrix.tsv records
# what ran.
set -uo pipefail
cd "$(dirname "$0")/.."
top=$PWD
cache=${ULID_PG_CACHE:-/var/cache/ulid-pg}
majors=("${@:-13 17 18}")
read -r -a majors <<<"${majors[*]}"
out=$top/test/output
mkdir -p "$out"
: >"$out/matrix.tsv"
total_pass=0
total_fail=0

# the Debian mirror this machine already uses
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
mirror=${mirror:-http://deb.debian.org/debian}

apt_private() {
	mkdir -p "$cache/apt/lists/partial" "$cache/apt/cache/archives/partial"
	cat >"$cache/apt/sources.list" <<EOF
deb-src $mirror bullseye main
deb-src $mirror trixie main
deb-src $mirror sid main
EOF
	cat >"$cache/apt/apt.conf" <<EOF
Dir::Etc::SourceList "$cache/apt/sources.list";
Dir::Etc::SourceParts "/dev/null";
Dir::State::Lists "$cache/apt/lists";
Dir::Cache "$cache/apt/cache";
APT::Sandbox::User "root";
EOF
	APT_CONFIG=$cache/apt/apt.conf apt-get update -qq
}

# fetch NAME DIR: the upstream sources of Debian's source package NAME,
# unpacked into DIR/NAME-VERSION (Debian's patches are not applied; a
# missing Debian part of the package does not matter).  A mirror that does
# not have the version the source lists name yet (seen: 17.12 listed, its
# files 404) is asked for the upstream tarball of the minor releases before
# it, newest first.
fetch() {
	local name=$1 dir=$2 orig version minor
	mkdir -p "$dir"
	(cd "$dir" && APT_CONFIG=$cache/apt/apt.conf apt-get source --download-only -qq "$name")
	orig=$(ls "$dir"/"${name}"_*.orig.tar.* 2>/dev/null | sort -V | tail -1)
	if [ -z "$orig" ]; then
		version=$(APT_CONFIG=$cache/apt/apt.conf apt-cache showsrc "$name" 2>/dev/null |
			sed -n 's/^Version: \([0-9]*\.[0-9]*\).*/\1/p' | sort -V | tail -1)
		minor=${version#*.}
		while [ -n "$version" ] && [ "$minor" -gt 0 ] && [ "$minor" -gt "$((${version#*.} - 5))" ]; do
			minor=$((minor - 1))
			orig=$dir/${name}_${version%.*}.$minor.orig.tar.bz2
			curl -fsS -o "$orig" "$mirror/pool/main/${name:0:1}/$name/$(basename "$orig")" 2>/dev/null && break
			rm -f "$orig"
			orig=
		done
	fi
	[ -n "$orig" ] && tar -xf "$orig" -C "$dir"
}

# configure_options MAJOR: 13 is built with clang and with assertions on
# (--enable-cassert: core's own checks, such as the interrupt holdoff
# count an error must leave as it found it, run under every suite there)
configure_options() {
	if [ "$1" = 13 ]; then
		echo "CC=clang --enable-cassert"
	else
		echo "CC=gcc"
	fi
}

# build MAJOR: PostgreSQL MAJOR with contrib, then pgTAP, into $cache/MAJOR;
# each step that completed is kept for the next run, and a build made with
# other options is made again
build() {
	local major=$1 src=$cache/src/$major options
	options=$(configure_options "$major")
	if [ "$(cat "$cache/$major/.built" 2>/dev/null)" != "$options" ]; then
		rm -rf "$src" "$cache/$major"
		fetch "postgresql-$major" "$src" &&
			(cd "$src"/postgresql-"$major".* &&
				# shellcheck disable=SC2086 # the options are words
				./configure --prefix="$cache/$major" --with-openssl --without-icu $options &&
				make -j"$(nproc)" && make install && make -C contrib -j"$(nproc)" install) &&
			echo "$options" >"$cache/$major/.built" || return 1
	fi
	rm -rf "$src"/pgtap*
	fetch pgtap "$src" &&
		make -C "$src"/pgtap-*/ PG_CONFIG="$cache/$major/bin/pg_config" &&
		make -C "$src"/pgtap-*/ PG_CONFIG="$cache/$major/bin/pg_config" install
}

prepare() {
	local need=()
	for tool in bison flex clang; do command -v $tool >/dev/null || need+=("$tool"); done
	[ -f /usr/include/openssl/ssl.h ] || need+=(libssl-dev)
	[ -f /usr/include/readline/readline.h ] || need+=(libreadline-dev)
	[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
	command -v pkg-config >/dev/null || need+=(pkg-config)
	if [ ${#need[@]} -gt 0 ]; then
		if [ "$(id -u)" = 0 ]; then
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
		else
			echo "matrix: to build PostgreSQL, run 'sudo apt-get install -y ${need[*]}'"
			return 1
		fi
	fi
	mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ] ||
		{ echo "matrix: cannot write $cache: set ULID_PG_CACHE to a directory you own"; return 1; }
	apt_private >"$cache/apt-update.log" 2>&1 ||
		{ echo "matrix: could not read Debian's source lists from $mirror (see $cache/apt-update.log)"; return 1; }
}

# minutes and seconds since $1
since() { local s=$((SECONDS - $1)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

prepared=
for major in "${majors[@]}"; do
	t0=$SECONDS
	pg_config=$cache/$major/bin/pg_config
	built="cached"
	if [ ! -x "$pg_config" ] || [ ! -f "$("$pg_config" --sharedir)/extension/pgtap.control" ] ||
		[ "$(cat "$cache/$major/.built" 2>/dev/null)" != "$(configure_options "$major")" ]; then
		if [ -z "$prepared" ]; then
			prepare || { prepared=failed; }
			prepared=${prepared:-done}
		fi
		if [ "$prepared" = failed ] || ! build "$major" >>"$cache/build-$major.log" 2>&1; then
			echo "PostgreSQL $major: could not fetch or build Debian's postgresql-$major sources (log: $cache/build-$major.log)"
			echo "$major	-	0	1	$(since "$t0")" >>"$out/matrix.tsv"
			total_fail=$((total_fail + 1))
			continue
		fi
		built="built in $(since "$t0")"
	fi
	version=$("$pg_config" --version | sed 's/^PostgreSQL //')
	cc=$(sed -n 's/^CC = //p' "$("$pg_config" --pgxs | sed 's#src/makefiles/pgxs.mk#src/Makefile.global#')")

	# the suite on a copy of the working tree (tracked and new files)
	copy=$(mktemp -d "${TMPDIR:-/tmp}/ulid-matrix-$major.XXXXXX")
	chmod 755 "$copy"
	git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$copy"
	[ -d test/clients/node_modules ] && ln -s "$top/test/clients/node_modules" "$copy/test/clients/node_modules"
	git rev-parse --git-dir >/dev/null 2>&1 && cp -r "$(git rev-parse --git-dir)" "$copy/.git"
	t1=$SECONDS
	(cd "$copy" && ULID_NESTED_RUN=1 PG_CONFIG=$pg_config test/run_tests.sh) >"$out/matrix-$major.log" 2>&1
	summary=$(tail -1 "$copy/test/output/summary" 2>/dev/null)
	read -r pass _ fail _ <<<"${summary:-0 passed, 1 failed}"
	echo "PostgreSQL $version ($cc; $built): $pass passed, $fail failed in $(since "$t1") (log: test/output/matrix-$major.log)"
	[ "$fail" = 0 ] || grep -E 'failed$|not ok' "$out/matrix-$major.log" | grep -v ' 0 failed$' | head -20 | sed 's/^/    /'
	echo "$major	$version	$pass	$fail	$(since "$t1")	$cc" >>"$out/matrix.tsv"
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	rm -rf "$copy"
done

# pg_upgrade from each major of the matrix to the next (13 to 17, 17 to
# 18), with the builds the suites above installed into both
previous=
for major in "${majors[@]}"; do
	if [ -n "$previous" ] && [ -x "$cache/$previous/bin/pg_upgrade" ] && [ -x "$cache/$major/bin/pg_upgrade" ]; then
		log=$out/pg_upgrade-$previous-$major.log
		t1=$SECONDS
		OLD_PG_CONFIG=$cache/$previous/bin/pg_config NEW_PG_CONFIG=$cache/$major/bin/pg_config \
			test/suites/pg_upgrade_check.sh >"$log" 2>&1
		pass=$(grep -c '^ok ' "$log")
		fail=$(grep -c '^not ok ' "$log")
		[ "$pass" -gt 0 ] || fail=$((fail + 1))
		echo "pg_upgrade $previous to $major: $pass passed, $fail failed in $(since "$t1") (log: test/output/$(basename "$log"))"
		[ "$fail" = 0 ] || grep -E '^not ok|^#' "$log" | head -20 | sed 's/^/    /'
		total_pass=$((total_pass + pass))
		total_fail=$((total_fail + fail))
	fi
	previous=$major
done

# README's compatibility section names every major the matrix ran
missing=$(for major in "${majors[@]}"; do
	sed -n '/^### Compatibility/,/^| feature/p' README.md | grep -q "\b$major\b" || echo "$major"
done | paste -sd' ')
if [ -z "$missing" ]; then
	total_pass=$((total_pass + 1))
else
	echo "README.md's compatibility section does not name: $missing"
	total_fail=$((total_fail + 1))
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ] && [ "$total_pass" -gt 0 ]
