#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# count-test.sh: count.py must pass a clean console log and fail one that
# holds an oops, whatever the trap; a torture test run at boot counts as
# one test, by its End of test line; each ftracetest test case counts as
# one test, passed only by its PASS.  console-divide-error.log is a real
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

# ftracetest's test cases, as harness/guest/check.sh announces and runs
# them before the guest finishes: one test each, whatever the kernel
# prints between a case's start and its result; anything but PASS fails,
# and so does each announced case that was never reported.
ftrace() { # WANT_RC SUMMARY PLANNED [LINE]...: count.py's output in $out
	local want=$1 sum=$2 n=$3
	shift 3
	{ grep -v '^harness: guest finished' "$here/console-clean.log"
	  printf '%s\n' "harness: ftracetest test.d/markers: $n test cases" \
		"=== Ftrace unit tests ===" "$@"
	  echo "harness: guest finished"; } > "$tmp"
	out=$(SMP=4 python3 "$count" "$tmp")
	if [ $? != "$want" ] || ! grep -q "^$sum\$" <<< "$out"; then
		echo "count-test: ftracetest ${*:-without results}:"
		echo "$out"
		rc=1
	fi
}
summary=("" "# of passed:  3" "# of failed:  0" "# of unresolved:  0"
	 "# of untested:  0" "# of unsupported:  0" "# of xfailed:  0"
	 "# of undefined(test bug):  0")
tab=$'\t'
ftrace 0 "5 passed, 0 failed" 3 "[1] marker events - one$tab[PASS]" \
	"[2] marker events - two[   12.345678] markers: event tme_edge: x" \
	"$tab[PASS]" \
	"[3] marker events - three" "[   12.5] test_marker_events: y" \
	"$tab[PASS]" "${summary[@]}"
ftrace 1 "3 passed, 2 failed" 3 "[1] marker events - one$tab[PASS]" \
	"[2] marker events - two$tab[FAIL]" "execute: two.tc" "+ false" \
	"[3] marker events - three$tab[UNSUPPORTED]" "${summary[@]}"
grep -q 'ftracetest: test.d/markers: \[2\] marker events - two FAIL$' \
	<<< "$out" || { echo "count-test: ftracetest: [2] not named"; rc=1; }
# ftracetest died in case 2: no result for it, none for case 3.
ftrace 1 "3 passed, 2 failed" 3 "[1] marker events - one$tab[PASS]" \
	"[2] marker events - two"
exit $rc
