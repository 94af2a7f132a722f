#!/usr/bin/env bash
# test/deps.sh demo|test|bench
#
# Makes sure what the demo, the tests or the benchmarks need is installed:
# the server headers for building, and for the tests pgTAP and pg_prove.
# As root it installs what is missing with apt-get; otherwise it prints the
# exact command to run and fails.
set -euo pipefail

what=${1:-test}
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

need=()
command -v make >/dev/null 2>&1 || need+=(make)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
if ! command -v "$PG_CONFIG" >/dev/null 2>&1 ||
	[ ! -f "$("$PG_CONFIG" --includedir-server)/postgres.h" ]; then
	need+=("postgresql-server-dev-$major")
fi
if [ "$what" = test ]; then
	if ! command -v "$PG_CONFIG" >/dev/null 2>&1 ||
		[ ! -f "$("$PG_CONFIG" --sharedir)/extension/pgtap.control" ]; then
		need+=("postgresql-$major-pgtap")
	fi
	command -v pg_prove >/dev/null 2>&1 || need+=(libtap-parser-sourcehandler-pgtap-perl)
	# the client library tests: psycopg 3 (Debian's, for /usr/bin/python3)
	# and node-postgres (npm, below)
	/usr/bin/python3 -c 'import psycopg' >/dev/null 2>&1 || need+=(python3-psycopg)
	command -v npm >/dev/null 2>&1 || need+=(nodejs npm)
	command -v unzip >/dev/null 2>&1 || need+=(unzip)
	# the Debian package: dpkg-buildpackage with pg_buildext
	command -v dh >/dev/null 2>&1 || need+=(debhelper)
	command -v pg_buildext >/dev/null 2>&1 || need+=(postgresql-server-dev-all)
	# clock steps under a fake clock
	ls /usr/lib/*/faketime/libfaketime.so.1 >/dev/null 2>&1 || need+=(libfaketime)
fi

if [ ${#need[@]} -gt 0 ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "Installing: ${need[*]}"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq >/dev/null
		apt-get install -y -qq "${need[@]}" >/dev/null
	else
		echo "Missing packages. Run:" >&2
		echo "  sudo apt-get install -y ${need[*]}" >&2
		exit 1
	fi
fi

# node-postgres and pg-copy-streams, as locked in test/clients
if [ "$what" = test ] && [ ! -d "$(dirname "$0")/clients/node_modules/pg-copy-streams" ]; then
	npm ci --prefix "$(dirname "$0")/clients" --no-audit --no-fund --loglevel=error >/dev/null
fi
