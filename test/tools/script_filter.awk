# test/tools/script_filter.awk: an extension script as the build installs it
# for one PostgreSQL major (the Makefile's build/ directory).
#
#   awk -v major=N -v mode=install -f script_filter.awk ulid--X.sql
#       the script, with the lines between "-- @if pgM" and "-- @endif"
#       kept from major M on and dropped before it;
#   awk -v major=N -v mode=repair -f script_filter.awk ulid--X.sql
#       only the blocks kept on major N, each in a DO block that creates its
#       objects where they are missing: what a database upgraded from an
#       older major with pg_upgrade lacks (appended to the update scripts).
#
# Any other "-- @" line, a block inside a block, an "-- @endif" without its
# "-- @if", or a block left open stops the build with the line's number.
function fail(message) {
	printf "%s:%d: %s\n", FILENAME, FNR, message > "/dev/stderr"
	failed = 1
	exit 1
}
/^-- @/ {
	if ($0 ~ /^-- @if pg[0-9]+$/) {
		if (block) fail("\"-- @if\" inside the block opened at line " block)
		block = FNR
		keep = major >= substr($0, length("-- @if pg") + 1) + 0
		if (mode == "repair" && keep)
			print "DO $ulid_repair$\nBEGIN"
	} else if ($0 == "-- @endif") {
		if (!block) fail("\"-- @endif\" without \"-- @if\"")
		if (mode == "repair" && keep)
			print "EXCEPTION WHEN duplicate_object OR duplicate_function THEN\n\tNULL;\t-- there already: nothing is missing\nEND\n$ulid_repair$;"
		block = 0
	} else
		fail("unknown directive \"" $0 "\" (known: \"-- @if pgN\", \"-- @endif\")")
	if (mode == "install" && keep)
		print
	next
}
mode == "install" && (!block || keep) { print }
mode == "repair" && block && keep { print }
END {
	if (!failed && block) {
		FNR = block
		fail("\"-- @if\" never closed by \"-- @endif\"")
	}
}
