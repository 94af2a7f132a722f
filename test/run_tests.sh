#!/usr/bin/env bash
# test/run_tests.sh: every test of the extension (what `make test` runs).
#
# Builds (and checks that every file compiles without a warning), installs
# unless the server already has this build, runs the C unit tests under
# ASan and UBSan, then starts a throwaway cluster and runs the pg_regress
# suite, the pgTAP tests and the other database tests in it.  Every stage
# reports its counts; the last line is "N passed, N failed", and the exit
# status is non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export PG_CONFIG=${PG_CONFIG:-pg_config}
out=test/output
counts=$out/counts

# run_tap NAME CMD...: run a TAP producer, count its ok / not ok lines
run_tap() {
	local name=$1 log=$out/$1.tap rc pass fail
	shift
	"$@" >"$log" 2>&1
	rc=$?
	pass=$(grep -cE '^[[:space:]]*ok [0-9]+' "$log")
	fail=$(grep -cE '^[[:space:]]*not ok [0-9]+' "$log")
	if [ "$rc" != 0 ] && [ "$fail" = 0 ]; then
		fail=1
	fi
	record "$name" "$pass" "$fail" "$log"
}

record() {
	local name=$1 pass=$2 fail=$3 log=${4:-}
	echo "$pass $fail" >>"$counts"
	printf '%-22s %5d passed, %d failed\n' "$name" "$pass" "$fail"
	if [ "$fail" != 0 ] && [ -n "$log" ]; then
		grep -E '^[[:space:]]*not ok|#   |ERROR|error' "$log" | head -40 | sed 's/^/    /'
	fi
}

# requires NAME HOW-TO-GET CHECK...: runs CHECK; when it fails, the suite
# NAME fails alone, with one line saying what is missing and how to get it
requires() {
	local name=$1 how=$2
	shift 2
	"$@" >/dev/null 2>&1 && return 0
	echo "$name: not run: $how" >"$out/$name.tap"
	record "$name" 0 1
	echo "    $(cat "$out/$name.tap")"
	return 1
}

# the summary, always the last line
finish() {
	local passed failed
	read -r passed failed < <(awk '{p += $1; f += $2} END {print p + 0, f + 0}' "$counts")
	echo "$passed passed, $failed failed" >"$out/summary"
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
	exit
}

# pg_regress: one test per line, in the format of PostgreSQL 13-15 or 16+
run_regress() {
	local log=$out/regress.log pass fail
	make -s installcheck >"$log" 2>&1
	pass=$(grep -cE '^(test |     )?[a-z_0-9]+ +\.\.\. ok|^ok [0-9]+ +[-+] ' "$log")
	fail=$(grep -cE '\.\.\. FAILED|^not ok [0-9]+ ' "$log")
	if ! grep -qE 'All [0-9]+ tests passed|tests passed' "$log" && [ "$fail" = 0 ]; then
		fail=1
		cat "$log"
	fi
	record pg_regress "$pass" "$fail"
	[ -f regression.diffs ] && head -80 regression.diffs | sed 's/^/    /'
}

# the application stacks (test/clients/): a table with a ulid key through
# each stack's own migration or DDL tool, find by id, a time range on the
# index, keyset pages, bulk loads, ulid_flake as the stack's integer, NULLs
# and SQLSTATEs; each in its own database, each failing alone with one line
# when its packages are missing
client_suite() {
	local name=$1
	shift
	local start=$SECONDS
	createdb "clients_$name" && PGDATABASE="clients_$name" run_tap "$name" "$@"
	echo "# $name took $((SECONDS - start)) s" >>"$out/$name.tap"
}
client_suites() {
	local python=/usr/bin/python3 gopath=/usr/share/gocode/src/github.com
	run_tap readme_recipes /usr/bin/python3 test/clients/readme_recipes.py
	if requires psycopg_app "python3-psycopg is not installed: run 'sudo apt-get install python3-psycopg'" \
		"$python" -c 'import psycopg'; then
		client_suite psycopg_app "$python" test/clients/psycopg_app_test.py
	fi
	if requires sqlalchemy "SQLAlchemy 1.4 or psycopg2 is not installed: run 'sudo apt-get install python3-sqlalchemy python3-psycopg2'" \
		"$python" -c 'import sqlalchemy, psycopg2'; then
		client_suite sqlalchemy "$python" test/clients/sqlalchemy_test.py
	fi
	if requires django "Django 3.2 or psycopg2 is not installed: run 'sudo apt-get install python3-django python3-psycopg2'" \
		"$python" -c 'import django, psycopg2'; then
		client_suite django "$python" test/clients/django_test.py
	fi
	if requires activerecord "ActiveRecord 6.1 or ruby-pg is not installed: run 'sudo apt-get install ruby-activerecord ruby-pg'" \
		/usr/bin/ruby -e 'require "active_record"; require "pg"'; then
		client_suite activerecord /usr/bin/ruby test/clients/activerecord_test.rb
	fi
	if requires pgjdbc "a JDK or pgjdbc is not installed: run 'sudo apt-get install default-jdk-headless libpostgresql-jdbc-java'" \
		sh -c 'command -v javac && test -f /usr/share/java/postgresql.jar'; then
		client_suite pgjdbc sh -c 'rm -rf test/output/jdbc &&
			javac -d test/output/jdbc -cp /usr/share/java/postgresql.jar test/clients/jdbc/UlidJdbcTest.java &&
			exec java -cp test/output/jdbc:/usr/share/java/postgresql.jar UlidJdbcTest'
	fi
	if requires pgx "Go, pgx v4 or oklog/ulid is not installed: run 'sudo apt-get install golang-go golang-github-jackc-pgx-v4-dev golang-github-oklog-ulid-dev'" \
		sh -c "command -v go && test -d $gopath/jackc/pgx/v4 -a -d $gopath/oklog/ulid"; then
		# offline, against Debian's packages only: no module proxy
		client_suite pgx sh -c 'cd test/clients/pgx &&
			GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS= GOPROXY=off go build -o ../../output/pgx_test . &&
			exec ../../output/pgx_test'
	fi
	local npm_missing
	npm_missing=$(cat "$out/npm.missing" 2>/dev/null)
	if requires node_postgres_app "$npm_missing" test ! -s "$out/npm.missing"; then
		client_suite node_postgres_app node test/clients/node_pg_app_test.js
	fi
	if requires knex "$npm_missing" test ! -s "$out/npm.missing"; then
		client_suite knex node test/clients/knex_test.js
	fi
	if requires drizzle "$npm_missing" test ! -s "$out/npm.missing"; then
		client_suite drizzle node test/clients/drizzle_test.js
	fi
}

database_stage() {
	run_regress
	if requires pgtap "pgTAP or pg_prove is not installed: run 'sudo apt-get install postgresql-$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')-pgtap libtap-parser-sourcehandler-pgtap-perl'" \
		test -f "$("$PG_CONFIG" --sharedir)/extension/pgtap.control" -a -x "$(command -v pg_prove)"; then
		createdb ulid_tap
		PGDATABASE=ulid_tap run_tap pgtap pg_prove --verbose --ext .sql -r test/pgtap
	fi
	run_tap install_hijack test/suites/install_hijack.sh
	run_tap concurrency test/suites/concurrency.sh
	run_tap dump_restore test/suites/dump_restore.sh
	run_tap migrate_pgx_ulid test/suites/migrate_pgx_ulid.sh
	run_tap readme_examples perl test/suites/readme_examples.pl
	run_tap sort_fuzz test/suites/sort_fuzz.sh
	if requires psycopg "python3-psycopg is not installed: run 'sudo apt-get install python3-psycopg'" \
		/usr/bin/python3 -c 'import psycopg'; then
		createdb clients_psycopg
		PGDATABASE=clients_psycopg run_tap psycopg /usr/bin/python3 test/clients/psycopg_test.py
	fi
	if requires node_postgres "$(cat "$out/npm.missing" 2>/dev/null)" \
		test ! -s "$out/npm.missing"; then
		createdb clients_node
		PGDATABASE=clients_node run_tap node_postgres node test/clients/node_pg_test.js
	fi
	client_suites
}

if [ "${1:-}" = --database-stage ]; then
	database_stage
	exit 0
fi
if [ "${1:-}" = --preload-stage ]; then
	run_tap concurrency_preloaded test/suites/concurrency.sh
	exit 0
fi

mkdir -p "$out"
rm -f "$out/summary"	# .ci/run must never show a stale one
: >"$counts"
# what the suites need from outside; a suite whose part is missing fails
# alone (requires, below), the build needs the rest
test/lib/deps.sh test || { record dependencies 0 1; finish; }

echo "== build"
if make -s >"$out/build.log" 2>&1 && make -s check-warnings >>"$out/build.log" 2>&1; then
	record build 1 0
else
	cat "$out/build.log"
	record build 0 1
	finish
fi
# Only what fmgr calls is exported (other ULID extensions export functions
# of the same names as our helpers): each SQL-callable function beside its
# pg_finfo_ record, the magic block and _PG_init.
exported=$(nm -D --defined-only ulid.so 2>/dev/null | awk '$2 == "T" {print $3}' | sort)
stray=$(comm -23 <(echo "$exported") \
	<( (echo "$exported" | grep '^pg_finfo_'; echo "$exported" | sed -n 's/^pg_finfo_//p'
		printf '%s\n' Pg_magic_func _PG_init _init _fini) | sort -u) | paste -sd' ')
if [ -n "$exported" ] && [ -z "$stray" ]; then
	record exported_symbols 1 0
else
	echo "exported symbols that fmgr does not call: ${stray:-(none found: is nm installed?)}"
	record exported_symbols 0 1
fi
# the server must have this build; when it has, nothing is written outside
# the tree
if ! test/lib/install_if_needed.sh test; then
	record install 0 1
	finish
fi

echo "== C unit tests (ASan, UBSan)"
make -s test/unit/test_codec test/unit/test_generator >"$out/unit-build.log" 2>&1 || cat "$out/unit-build.log"
run_tap unit_codec test/unit/test_codec test/vectors
run_tap unit_generator test/unit/test_generator test/vectors
run_tap meta perl test/suites/meta.pl
run_tap npm_unreachable test/suites/npm_unreachable.sh

echo "== database tests (throwaway cluster)"
test/lib/cluster.sh "$0" --database-stage || record cluster 0 1
echo "== with shared_preload_libraries = 'ulid'"
ULID_SERVER_OPTS="-c shared_preload_libraries=ulid" test/lib/cluster.sh "$0" --preload-stage ||
	record cluster_preloaded 0 1

echo "== the sort suite against mutants of the sort support: each must fail it"
run_tap sort_mutants test/suites/sort_mutants.sh
echo "== the ulid_flake state through restarts, preload and a full shared memory"
run_tap flake_server test/suites/flake_server.sh
echo "== the ulid_flake generators under a clock that stands still, then steps back (libfaketime)"
requires clock_steps "libfaketime is not installed: run 'sudo apt-get install libfaketime'" \
	compgen -G '/usr/lib/*/faketime/libfaketime.so.1' && run_tap clock_steps test/suites/clock_steps.sh
echo "== the high-water mark: restarts, kill -9 under 8 writers, a promoted standby, dump and pg_upgrade, the clock behind (libfaketime)"
requires high_water_mark "libfaketime is not installed: run 'sudo apt-get install libfaketime'" \
	compgen -G '/usr/lib/*/faketime/libfaketime.so.1' && run_tap high_water_mark test/suites/high_water_mark.sh

echo "== the PGXN distribution, unpacked and tested on its own"
requires dist "unzip is not installed: run 'sudo apt-get install unzip'" command -v unzip &&
	run_tap dist test/suites/dist.sh

echo "== the Debian package: built, linted and tested by autopkgtest in a clean Debian 12 chroot"
requires debian_package "debootstrap is not installed: run 'sudo apt-get install debootstrap'" \
	sh -c '[ "$(id -u)" != 0 ] || command -v debootstrap' &&
	run_tap debian_package test/suites/debian_package.sh

echo "== as a user who is not root, after one 'sudo make install'"
run_tap non_root test/suites/non_root.sh

finish
