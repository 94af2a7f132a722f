# test/lib/tap.sh: sourced by the test scripts that print TAP.
#
# check DESCRIPTION GOT EXPECTED prints one TAP line and shows the value
# either way: on one line when it is one line, as a diff otherwise.
n=0
check() {
	local description=$1 got=$2 expected=$3 status=ok
	n=$((n + 1))
	[ "$got" = "$expected" ] || status="not ok"
	if [[ $got$expected == *$'\n'* ]]; then
		echo "$status $n - $description"
		[ "$status" = ok ] || diff <(echo "$expected") <(echo "$got") | sed 's/^/# /' || true
	elif [ "$status" = ok ]; then
		echo "ok $n - $description: $got"
	else
		echo "not ok $n - $description: expected $expected, got $got"
	fi
}
