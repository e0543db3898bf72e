#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# count-test.sh: count.py must pass a clean console log and fail one that
# holds an oops, whatever the trap.  console-divide-error.log is a real
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
exit $rc
