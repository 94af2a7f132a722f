#!/usr/bin/env bash
# test/lib/cluster.sh CMD [ARGS...]
#
# Runs CMD against a throwaway PostgreSQL cluster and removes the cluster
# afterwards; exits with CMD's status.  CMD sees PGHOST, PGPORT, PGUSER and
# PGDATABASE.  The server is the one of $PG_CONFIG (default: pg_config).
# It listens on a Unix socket in its own directory only, so it never clashes
# with another server.  As root, the server runs as the postgres user
# (initdb refuses root), as pg_virtualenv does.
#
#   ULID_SERVER_OPTS   extra postgres options, e.g. "-c shared_buffers=1GB"
#   ULID_SERVER_WRAPPER  a command to start the server under (e.g. valgrind)
#   ULID_SERVER_BINDIR   the server's programs, if not PG_CONFIG's (a
#                        relocated copy of them, test/lib/relocated.sh)
set -euo pipefail

PG_CONFIG=${PG_CONFIG:-pg_config}
bindir=${ULID_SERVER_BINDIR:-$("$PG_CONFIG" --bindir)}

. "$(dirname "$0")/throwaway.sh"
throwaway_dir ulid-cluster

cleanup() {
	"${as_owner[@]}" "$bindir/pg_ctl" -D "$tmp/data" -m immediate -w stop >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT

init_cluster "$bindir" "$tmp/data" >"$tmp/initdb.log" 2>&1 ||
	{ cat "$tmp/initdb.log"; exit 1; }

cat >>"$tmp/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$tmp'
port = 5432
fsync = off
full_page_writes = off
max_connections = 40
lc_messages = 'C'
EOF

if [ -n "${ULID_SERVER_WRAPPER:-}" ]; then
	# shellcheck disable=SC2086
	"${as_owner[@]}" bash -c "cd '$tmp' && exec $ULID_SERVER_WRAPPER '$bindir/postgres' -D '$tmp/data' ${ULID_SERVER_OPTS:-}" \
		>"$tmp/server.log" 2>&1 &
	for _ in $(seq 1 600); do
		"$bindir/pg_isready" -q -h "$tmp" -p 5432 && break
		sleep 0.5
	done
else
	# shellcheck disable=SC2086
	"${as_owner[@]}" "$bindir/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w \
		-o "${ULID_SERVER_OPTS:-}" start >/dev/null ||
		{ cat "$tmp/server.log"; exit 1; }
fi

export PGHOST=$tmp PGPORT=5432 PGUSER=postgres PGDATABASE=postgres
export ULID_SERVER_LOG=$tmp/server.log
set +e
"$@"
status=$?
set -e
exit $status
