# test/tools/script_filter.awk: an extension script as the build installs it
# for one PostgreSQL major (the Makefile's build/ directory).
#
#   awk -v major=N -v mode=install -f script_filter.awk ulid--X.sql
#       the script, with the lines between "-- @if pgM" and "-- @endif"
#       kept from major M on and dropped before it;
#   awk -v major=N -v mode=repair -f script_filter.awk ulid--X.sql
#       only the blocks kept on major N, each in a DO block that creates its
#       objects where they are missing: what a database upgraded from an
#       older major with pg_upgrade lacks (appended to the update scripts);
#   awk -v major=N -v mode=replace -v functions="f g ..." -f script_filter.awk ulid--X.sql
#       the functions whose C symbol is one of functions (the module's C
#       functions that call core's), as kept on major N, each created again
#       with CREATE OR REPLACE: an update from a version where they were
#       LANGUAGE internal aliases gets the install script's definitions.
#       A statement runs from "CREATE FUNCTION name(" to the first line that
#       ends with ";"; its symbol is the one after 'MODULE_PATHNAME', else
#       its name.
#
# Any other "-- @" line, a block inside a block, an "-- @endif" without its
# "-- @if", or a block left open stops the build with the line's number; so
# do, in replace mode, no functions, a C function whose symbol cannot be
# told, and one of those functions that no function of the script calls.
function fail(message) {
	printf "%s:%d: %s\n", FILENAME, FNR, message > "/dev/stderr"
	failed = 1
	exit 1
}
BEGIN {
	if (mode == "replace") {
		if (split(functions, listed, " ") == 0)
			fail("no functions to replace (-v functions=\"...\")")
		for (i in listed)
			calls_core[listed[i]] = 1
	}
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
# replace mode: a CREATE FUNCTION statement, line by line, then its symbol
mode == "replace" && /^CREATE FUNCTION / {
	statement = ""
	name = $0
	sub(/^CREATE FUNCTION /, "", name)
	sub(/\(.*/, "", name)
}
mode == "replace" && name != "" {
	statement = statement $0 "\n"
	if ($0 !~ /;$/)
		next
	symbol = name
	if (match(statement, /'MODULE_PATHNAME', '[^']*'/))
		symbol = substr(statement, RSTART + length("'MODULE_PATHNAME', '"),
						RLENGTH - length("'MODULE_PATHNAME', ''"))
	else if (statement ~ /'MODULE_PATHNAME'/ && symbol !~ /^[a-z_0-9]+$/)
		fail("cannot tell the C symbol of " name)
	if (symbol in calls_core) {
		found[symbol] = 1
		if (!block || keep) {
			sub(/^CREATE FUNCTION /, "CREATE OR REPLACE FUNCTION ", statement)
			printf "%s", statement
		}
	}
	name = ""
}
END {
	if (!failed && block) {
		FNR = block
		fail("\"-- @if\" never closed by \"-- @endif\"")
	}
	for (symbol in calls_core)
		if (!failed && !(symbol in found))
			fail("no function calls the C function " symbol " (ULID_CALLS_CORE in src/)")
}
