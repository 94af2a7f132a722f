# test/lib/debian_chroot.sh: sourced by the scripts that build or test the
# Debian package in a clean Debian 12 (bookworm) chroot, as Debian's and
# the PostgreSQL apt repository's build daemons do.
#
# chroot_base makes (once) and names in $base a debootstrap of bookworm,
# variant buildd (essential packages and build-essential, nothing else),
# from the Debian mirror this machine uses.  It is kept in ULID_CHROOT_CACHE
# (default /var/cache/ulid-chroot), outside the tree, and never changed
# after it is made: every use sees it through an overlay whose changes are
# thrown away.  The .deb files apt fetches are kept beside it, so that a
# later run installs the same build dependencies without downloading.
#
# chroot_session DIR... runs in a private mount namespace (nothing is left
# mounted on the host, whatever happens): for each DIR, a fresh overlay of
# the base whose changes are kept in memory (a tmpfs on DIR, of at most
# 8 GB; a build takes about 1.5), with /proc, /dev and the apt cache, then
# the commands given on standard input with ROOTS set to the mounted roots.
# Needs root (mounts).
#
# The chroot shares the host's network (apt needs the mirror): no server
# is started by a package's maintainer scripts there (policy-rc.d, no
# main cluster), and the clusters of the tests are pg_virtualenv's, on
# ports it finds free.

chroot_cache=${ULID_CHROOT_CACHE:-/var/cache/ulid-chroot}
chroot_suite=bookworm

# the Debian mirror this machine already uses (as test/matrix.sh does)
chroot_mirror() {
	local mirror
	mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | grep -v security | head -1)
	[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
	echo "${mirror:-http://deb.debian.org/debian}"
}
chroot_security_mirror() {
	local mirror
	mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | grep security | head -1)
	[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
	echo "${mirror:-http://deb.debian.org/debian-security}"
}

# chroot_base: sets base; makes it when it is not there (log in
# $chroot_cache/debootstrap.log); returns 1 with a line on stderr if it
# cannot
# The caller holds the cache's lock from then on, until it exits: one
# build at a time on a machine (they share the cache of .deb files, and
# the first one makes the chroot).
chroot_base() {
	base=$chroot_cache/$chroot_suite
	if ! mkdir -p "$chroot_cache/debs/partial" 2>/dev/null || [ ! -w "$chroot_cache" ]; then
		echo "cannot write $chroot_cache: set ULID_CHROOT_CACHE to a directory you own" >&2
		return 1
	fi
	exec 9>>"$chroot_cache/lock"
	if ! flock -n 9; then
		echo "# waiting for another build in $chroot_cache to finish" >&2
		flock 9
	fi
	[ -f "$base/.complete" ] && return 0
	if ! command -v debootstrap >/dev/null 2>&1; then
		echo "debootstrap is not installed: run 'sudo apt-get install debootstrap'" >&2
		return 1
	fi
	local new=$chroot_cache/$chroot_suite.new mirror security log=$chroot_cache/debootstrap.log
	mirror=$(chroot_mirror)
	security=$(chroot_security_mirror)
	rm -rf "$new"
	{
		debootstrap --variant=buildd --cache-dir="$chroot_cache/debs" \
			"$chroot_suite" "$new" "$mirror" &&
			cat >"$new/etc/apt/sources.list" <<-EOF &&
				deb $mirror $chroot_suite main
				deb $mirror $chroot_suite-updates main
				deb $security $chroot_suite-security main
			EOF
			# as on a build daemon: no service starts, no cluster is made
			printf '#!/bin/sh\nexit 101\n' >"$new/usr/sbin/policy-rc.d" &&
			chmod 755 "$new/usr/sbin/policy-rc.d" &&
			mkdir -p "$new/etc/postgresql-common" &&
			echo 'create_main_cluster = false' >"$new/etc/postgresql-common/createcluster.conf" &&
			echo 'APT::Install-Recommends "false";' >"$new/etc/apt/apt.conf.d/90ulid-no-recommends" &&
			echo 'Binary::apt::APT::Keep-Downloaded-Packages "true";' >"$new/etc/apt/apt.conf.d/90ulid-keep-debs" &&
			chroot "$new" useradd --create-home --shell /bin/bash builder &&
			chroot "$new" apt-get update -qq &&
			chroot "$new" apt-get -y -qq dist-upgrade &&
			chroot "$new" apt-get clean &&
			touch "$new/.complete" &&
			mv "$new" "$base"
	} >"$log" 2>&1 || {
		echo "could not debootstrap $chroot_suite from $mirror into $new (log: $log)" >&2
		return 1
	}
}

# chroot_session DIR...: see above; the commands read from standard input
# run under bash (not -e) with ROOTS=(DIR/root...) mounted and
# in_chroot ROOT CMD... to run a command in one of them
chroot_session() {
	local script
	script=$(cat)
	# shellcheck disable=SC2016
	unshare --mount --propagation private bash -euo pipefail -c '
		base=$1 debs=$2 script=$3
		shift 3
		ROOTS=()
		for dir in "$@"; do
			# the changes to the overlay live in memory: written fast, and gone
			# with the namespace (removing a gigabyte of files takes minutes)
			mkdir -p "$dir"
			mount -t tmpfs -o size=8g,mode=755 tmpfs "$dir"
			mkdir -p "$dir/upper" "$dir/work" "$dir/root"
			mount -t overlay overlay -o "lowerdir=$base,upperdir=$dir/upper,workdir=$dir/work" "$dir/root"
			r=$dir/root
			mount -t proc proc "$r/proc"
			mount --rbind /dev "$r/dev"
			mount -t tmpfs -o mode=1777 tmpfs "$r/dev/shm"
			mount -t tmpfs -o mode=1777 tmpfs "$r/tmp"
			mount --bind "$debs" "$r/var/cache/apt/archives"
			cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null || true
			ROOTS+=("$r")
		done
		in_chroot() { local r=$1; shift; chroot "$r" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
		set +e
		eval "$script"
		status=$?
		# nothing started in a chroot outlives the session (a server a
		# failed test left behind would keep the namespace and its memory)
		for p in /proc/[0-9]*; do
			for r in "${ROOTS[@]}"; do
				case $(readlink "$p/root" 2>/dev/null) in
				"$r" | "$r"/*) kill -9 "${p#/proc/}" 2>/dev/null ;;
				esac
			done
		done
		exit $status
	' chroot_session "$base" "$chroot_cache/debs" "$script" "$@"
}
