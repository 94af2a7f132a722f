# test/lib/throwaway.sh: sourced by the scripts that start servers of their own.
#
# throwaway_dir NAME sets tmp to a new temporary directory the server can
# write, and as_owner to what runs a command as the server's user: as root,
# the postgres user (initdb refuses root, as pg_virtualenv knows), otherwise
# the caller.  Paths given to it must be absolute.
throwaway_dir() {
	tmp=$(cd "$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")" && pwd)
	chmod 755 "$tmp"
	as_owner=()
	if [ "$(id -u)" = 0 ]; then
		chown postgres: "$tmp"
		# started in $tmp: PostgreSQL's programs complain of a working
		# directory they cannot read (a clone in /root, say)
		as_owner=(runuser -u postgres -- env -C "$tmp")
	fi
}

# init_cluster BINDIR DATADIR [INITDB OPTION...]: initdb with what every
# throwaway cluster shares (superuser postgres, trust, UTF8, C locale).
init_cluster() {
	local bindir=$1 datadir=$2
	shift 2
	"${as_owner[@]}" "$bindir/initdb" -D "$datadir" -U postgres --auth=trust \
		--no-sync -E UTF8 --locale=C "$@"
}
