#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of a repeat run: run one kselftest of the project
# repeat.n times (kernel command line repeat.test=NAME repeat.n=N), to
# hunt rare failures and hangs.  Each round prints one line.
test=$(sed -n 's/.*repeat\.test=\([a-z_.]*\).*/\1/p' /proc/cmdline)
n=$(sed -n 's/.*repeat\.n=\([0-9]*\).*/\1/p' /proc/cmdline)
echo 0 > /proc/sys/kernel/printk_ratelimit 2>/dev/null
i=0
fails=0
while [ "$i" -lt "${n:-10}" ]; do
	i=$((i + 1))
	if sh "/kselftest/markers/$test" > /tmp/out 2>&1; then
		echo "repeat: round $i ok"
	else
		fails=$((fails + 1))
		echo "repeat: round $i FAILED"
		cat /tmp/out
	fi
done
echo "repeat: $test $i rounds, $fails failed"
