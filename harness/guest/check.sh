#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of `make check`: report the preemption model, run the
# project's kselftests: those that /harness/kselftests lists, or every one;
# then ftracetest's test cases of the marker events.  KUnit suites built
# in have already run during boot; the host reads all results from the
# console.
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
# After the kselftests: ftracetest disables every event before each case,
# the one that trace_event= enabled at boot (test_events.sh) included.
# record-cmd off, as the kselftests have it (no_record_cmd in markers/lib.sh).
# count.py counts the cases announced here that ftracetest never reports.
cd /kselftest/ftrace || exit 1
echo 0 > /sys/kernel/tracing/options/record-cmd
echo "harness: ftracetest test.d/markers: $(ls test.d/markers/*.tc | wc -l) test cases"
sh ./ftracetest -v test.d/markers
# SystemTap's kernel.mark() probes, where the build put a probe module.
[ -d /stap ] && sh /harness/stap.sh
