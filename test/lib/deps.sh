#!/usr/bin/env bash
# test/lib/deps.sh build|demo|test|bench [--no-install]
#
# Makes sure what the build, the demo, the tests or the benchmarks need is
# installed: the server headers for building, and for the tests pgTAP,
# pg_prove and what the other suites use.
# As root it installs what is missing with apt-get (make demo, make test,
# make deps), unless told --no-install (make, make install: a build does
# not change the system); otherwise, or then, it prints the exact command
# to run.  It fails only when what the build needs is missing.
set -euo pipefail

what=${1:-test}
[ "${2:-}" = --no-install ] && no_install=1 || no_install=
PG_CONFIG=${PG_CONFIG:-pg_config}

if command -v "$PG_CONFIG" >/dev/null 2>&1; then
	major=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
else
	major=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)
	if [ -z "$major" ]; then
		echo "No PostgreSQL server found: install one, e.g. apt-get install postgresql-15" >&2
		exit 1
	fi
fi

# needed to build: without them nothing runs
need=()
command -v make >/dev/null 2>&1 || need+=(make)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
if ! command -v "$PG_CONFIG" >/dev/null 2>&1 ||
	[ ! -f "$("$PG_CONFIG" --includedir-server)/postgres.h" ]; then
	need+=("postgresql-server-dev-$major")
fi
# needed by one test suite each: a suite whose part is missing fails alone
want=()
if [ "$what" = test ]; then
	if ! command -v "$PG_CONFIG" >/dev/null 2>&1 ||
		[ ! -f "$("$PG_CONFIG" --sharedir)/extension/pgtap.control" ]; then
		want+=("postgresql-$major-pgtap")
	fi
	command -v pg_prove >/dev/null 2>&1 || want+=(libtap-parser-sourcehandler-pgtap-perl)
	# the client library tests: psycopg 3 (Debian's, for /usr/bin/python3)
	# and node-postgres (npm, below)
	/usr/bin/python3 -c 'import psycopg' >/dev/null 2>&1 || want+=(python3-psycopg)
	command -v npm >/dev/null 2>&1 || want+=(nodejs npm)
	# the application stacks (test/clients/): Django, SQLAlchemy (both on
	# psycopg2), ActiveRecord, pgjdbc, pgx with oklog/ulid (built offline
	# from Debian's Go packages); Knex and Drizzle come from npm, below
	/usr/bin/python3 -c 'import psycopg2' >/dev/null 2>&1 || want+=(python3-psycopg2)
	/usr/bin/python3 -c 'import django' >/dev/null 2>&1 || want+=(python3-django)
	/usr/bin/python3 -c 'import sqlalchemy' >/dev/null 2>&1 || want+=(python3-sqlalchemy)
	/usr/bin/ruby -e 'require "active_record"' >/dev/null 2>&1 || want+=(ruby-activerecord)
	/usr/bin/ruby -e 'require "pg"' >/dev/null 2>&1 || want+=(ruby-pg)
	command -v javac >/dev/null 2>&1 || want+=(default-jdk-headless)
	[ -f /usr/share/java/postgresql.jar ] || want+=(libpostgresql-jdbc-java)
	command -v go >/dev/null 2>&1 || want+=(golang-go)
	[ -d /usr/share/gocode/src/github.com/jackc/pgx/v4 ] || want+=(golang-github-jackc-pgx-v4-dev)
	[ -d /usr/share/gocode/src/github.com/oklog/ulid ] || want+=(golang-github-oklog-ulid-dev)
	command -v unzip >/dev/null 2>&1 || want+=(unzip)
	# the Debian package is built in a Debian 12 chroot that debootstrap
	# makes (its build dependencies go there, not on this machine)
	command -v debootstrap >/dev/null 2>&1 || want+=(debootstrap)
	# clock steps under a fake clock
	ls /usr/lib/*/faketime/libfaketime.so.1 >/dev/null 2>&1 || want+=(libfaketime)
fi
# the sort benchmark counted in instructions
if [ "$what" = bench ]; then
	command -v valgrind >/dev/null 2>&1 || want+=(valgrind)
fi

missing=("${need[@]}" "${want[@]}")
if [ ${#missing[@]} -gt 0 ] && [ -z "$no_install" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "Installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt_log=$(mktemp)
	if ! { apt-get update -qq && apt-get install -y -qq "${missing[@]}"; } >"$apt_log" 2>&1; then
		echo "apt-get could not install them all ($(grep -E '^(E|Err):' "$apt_log" | head -1)); going on with what there is"
		# one by one, so that one missing package does not keep the others out
		for package in "${missing[@]}"; do
			apt-get install -y -qq "$package" >/dev/null 2>&1 || true
		done
	fi
	exec "$0" "$what" --no-install
fi
if [ ${#need[@]} -gt 0 ]; then
	sudo=sudo
	[ "$(id -u)" = 0 ] && sudo=
	echo "Missing packages. Run:" >&2
	echo "  ${sudo:+$sudo }apt-get install -y ${need[*]}" >&2
	echo "(or 'make deps', which installs what the build and the tests use)" >&2
	exit 1
fi
if [ ${#want[@]} -gt 0 ]; then
	echo "Not installed, so the suites that need them will fail: ${want[*]}; to run them: sudo apt-get install -y ${want[*]}"
fi

# node-postgres, pg-copy-streams, Knex, Drizzle and ulidx, as locked in
# test/clients; when npm or the registry cannot be had,
# test/output/npm.missing says so (the JavaScript suites fail with that line)
if [ "$what" = test ]; then
	clients=$(dirname "$0")/../clients
	output=$(dirname "$0")/../output
	missing_file=$output/npm.missing
	mkdir -p "$(dirname "$missing_file")"
	rm -f "$missing_file"
	# every dependency of package.json installed, at its locked version
	npm_installed=1
	while read -r package version; do
		grep -qs "\"version\": \"$version\"" "$clients/node_modules/$package/package.json" || npm_installed=
	done < <(sed -n '/"dependencies"/,/}/s/^ *"\([^"]*\)": *"\([^"]*\)".*/\1 \2/p' "$clients/package.json")
	if [ -z "$npm_installed" ]; then
		if ! command -v npm >/dev/null 2>&1; then
			echo "nodejs and npm are not installed: run 'sudo apt-get install nodejs npm'" >"$missing_file"
		else
			# one retry and a short wait: a registry out of reach (refused,
			# unresolvable or silently dropped) costs seconds, not minutes
			timeout 120 npm ci --prefix "$clients" --no-audit --no-fund --loglevel=error \
				--fetch-retries=1 --fetch-retry-mintimeout=2000 --fetch-retry-maxtimeout=5000 \
				--fetch-timeout=30000 >"$output/npm.log" 2>&1 && status=0 || status=$?
			if [ $status -ne 0 ]; then
				why=$(grep -m1 -E '^npm (ERR!|error) code' "$output/npm.log" | sed -E 's/^npm (ERR!|error) code *//')
				[ $status -eq 124 ] && why="no answer in 2 minutes"
				echo "npm could not fetch the packages locked in test/clients (${why:-see test/output/npm.log}): run 'npm ci --prefix test/clients' where the npm registry is reachable" >"$missing_file"
			fi
		fi
	fi
fi
