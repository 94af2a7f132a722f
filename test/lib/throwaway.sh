# test/lib/throwaway.sh: sourced by the scripts that start servers of their own.
#
# throwaway_dir NAME sets tmp to a new temporary directory the server can
# write, and as_owner to what runs a command as the server's user: as root,
# the postgres user (initdb refuses root, as pg_virtualenv knows), otherwise
# the caller.  Such commands start in $tmp, since PostgreSQL's programs
# complain of a working directory they cannot read (a clone in /root, say):
# the paths given to them must be absolute.
throwaway_dir() {
	tmp=$(cd "$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")" && pwd)
	chmod 755 "$tmp"
	as_owner=(env -C "$tmp")
	if [ "$(id -u)" = 0 ]; then
		chown postgres: "$tmp"
		as_owner=(runuser -u postgres -- "${as_owner[@]}")
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
