#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# count-test.sh: count.py must pass a clean console log and fail one that
# holds an oops, whatever the trap; a torture test run at boot counts as
# one test, by its End of test line.  console-divide-error.log is a real
# x86 "divide error" oops (a division by zero planted in markers_bench),
# whose banner has neither "Oops" nor "BUG:".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
count=$here/../count.py
rc=0

if ! SMP=4 python3 "$count" "$here/console-clean.log" > /dev/null; then
	echo "count-test: a clean log failed"
	rc=1
fi
out=$(SMP=4 python3 "$count" "$here/console-divide-error.log")
if [ $? = 0 ] || ! grep -q 'splat: divide error: 0000 \[#1\]' <<< "$out"; then
	echo "count-test: the divide error was not caught:"
	echo "$out"
	rc=1
fi
# A torture test that the command line runs at boot counts as one test,
# by its End of test line, and fails without one.
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
boot="Kernel command line: console=ttyS0 marker_torture.run_at_boot=1"
end="marker-torture:--- End of test"
torture() { # WANT_RC SUMMARY [LINE]...
	local want=$1 sum=$2 out
	shift 2
	{ printf '%s\n' "$boot" "$@"; cat "$here/console-clean.log"; } > "$tmp"
	out=$(SMP=4 python3 "$count" "$tmp")
	if [ $? != "$want" ] || ! grep -q "^$sum\$" <<< "$out"; then
		echo "count-test: torture ${*:-without its line}:"
		echo "$out"
		rc=1
	fi
}
torture 0 "3 passed, 0 failed" "$end: SUCCESS: nsites=4 toggles=10000"
torture 1 "2 passed, 1 failed" "$end: FAILURE: nsites=4 toggles=10000"
torture 1 "2 passed, 1 failed"
exit $rc
