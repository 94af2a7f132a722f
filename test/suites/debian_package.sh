#!/usr/bin/env bash
# test/suites/debian_package.sh: the Debian package (debian/, pg_buildext) builds
# with dpkg-buildpackage -us -uc for the installed majors, installs with
# dpkg, and passes the pg_regress suite against the installed files alone.
# Needs root (dpkg -i); restores `make install`'s files afterwards.  Prints
# TAP.
set -uo pipefail
cd "$(dirname "$0")/../.."
. test/lib/tap.sh
top=$PWD
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP installing a .deb needs root"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ulid-deb.XXXXXX")
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
src=$tmp/ulid
mkdir "$src"
# the tree as it is (a checkout: what git tracks or would; an unpacked dist: all)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$src"
else
	cp -a . "$src"
fi

(cd "$src" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1
debs=$(cd "$tmp" && ls postgresql-*-ulid_*.deb 2>/dev/null | paste -sd' ')
check "dpkg-buildpackage -us -uc builds a package per installed major" \
	"${debs:-none: $(tail -5 "$tmp/build.log" | tr '\n' ' ')}" \
	"$(for v in $(cd "$src" && pg_buildext supported-versions); do
		echo "postgresql-$v-ulid_$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)_$(dpkg --print-architecture).deb"
	done | paste -sd' ')"

for deb in "$tmp"/postgresql-*-ulid_*.deb; do
	[ -f "$deb" ] || continue
	pkg=$(dpkg-deb -f "$deb" Package)
	major=$(echo "$pkg" | sed -E 's/postgresql-([0-9]+)-ulid/\1/')
	pg_config=/usr/lib/postgresql/$major/bin/pg_config
	check "$pkg installs" "$(dpkg -i "$deb" >"$tmp/install.log" 2>&1 && dpkg-query -W -f '${Status}' "$pkg")" \
		"install ok installed"
	check "$pkg holds the module and every install and update script" \
		"$(dpkg -L "$pkg" | grep -E '/ulid\.so$|/ulid\.control$|/ulid--.*\.sql$' | sed 's#.*/##' | sort | paste -sd' ')" \
		"$( (echo ulid.so ulid.control; ls ulid--*.sql) | tr ' ' '\n' | sort | paste -sd' ')"
	# the regression suite against what the package installed, nothing else
	(cd "$src" && PG_CONFIG=$pg_config "$top/test/lib/cluster.sh" make -s installcheck PG_CONFIG="$pg_config") \
		>"$tmp/regress.log" 2>&1
	check "$pkg: the pg_regress suite against the installed package" \
		"$(grep -oE 'All [0-9]+ tests passed|[0-9]+ of [0-9]+ tests failed' "$tmp/regress.log" | head -1)" \
		"All $(grep -cE '^(test |     )?[a-z_0-9]+ +\.\.\. ok|^ok [0-9]+ +[-+] ' "$tmp/regress.log") tests passed"
	dpkg -r "$pkg" >/dev/null 2>&1
done
# what `make install` had put there before
make -s install PG_CONFIG="${PG_CONFIG:-pg_config}" >/dev/null 2>&1
echo "1..$n"
