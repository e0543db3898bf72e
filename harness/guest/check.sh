#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of `make check`: report the preemption model, run the
# project's kselftests: those that /harness/kselftests lists, or every one.
# KUnit suites built in have already run during boot; the host reads all
# results from the console.
echo "harness: preempt $(cat /sys/kernel/debug/sched/preempt 2>/dev/null)"
cd /kselftest || exit 1
if [ -f /harness/kselftests ]; then
	set --
	for t in $(cat /harness/kselftests); do
		set -- "$@" -t "markers:$t"
	done
	./run_kselftest.sh "$@"
else
	./run_kselftest.sh
fi
