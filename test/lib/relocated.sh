# test/lib/relocated.sh: sourced by suites that need a server with extension
# files the real installation must not get (test-only extensions).
#
# relocated_server PG_CONFIG ROOT: makes in ROOT a relocated copy of the
# server of PG_CONFIG and sets rbin (its bindir), rshare (its sharedir, with
# extension/ a directory of its own) and rlib (its pkglibdir).  PostgreSQL
# finds its share and lib directories relative to its executable when they
# keep their layout relative to bindir (as in a relocatable install), so
# only the executables a cluster needs are copied (a symlink would not do:
# the path of the executable is resolved); the rest are symlinks to the
# installation's files.  The installation is only read: works as root and as
# any user that can read it.  ROOT must be readable by the server's user.
relocated_server() {
	local pg_config=$1 root=$2 bindir sharedir pkglibdir prefix f
	bindir=$("$pg_config" --bindir)
	sharedir=$("$pg_config" --sharedir)
	pkglibdir=$("$pg_config" --pkglibdir)
	# the longest leading directory the three have in common
	prefix=$bindir
	while [ "$prefix" != / ] && { [ "${sharedir#"$prefix"/}" = "$sharedir" ] || [ "${pkglibdir#"$prefix"/}" = "$pkglibdir" ]; }; do
		prefix=$(dirname "$prefix")
	done
	prefix=${prefix%/}
	rbin=$root${bindir#"$prefix"}
	rshare=$root${sharedir#"$prefix"}
	rlib=$root${pkglibdir#"$prefix"}
	mkdir -p "$rbin" "$rshare/extension" "$rlib"
	for f in postgres initdb pg_ctl; do
		cp -p "$bindir/$f" "$rbin/$f"
	done
	for f in "$sharedir"/*; do
		[ "$(basename "$f")" = extension ] || ln -s "$f" "$rshare/"
	done
	for f in "$sharedir"/extension/*; do
		ln -s "$f" "$rshare/extension/"
	done
	for f in "$pkglibdir"/*; do
		ln -s "$f" "$rlib/"
	done
	chmod -R a+rX "$root"
}
