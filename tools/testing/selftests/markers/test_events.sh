#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every marker is a trace event, events/markers/<name>/.  What tracefs
# alone tests (format files, enabling, every kind of conversion recorded,
# filters, a hist trigger, an instance, formats that clash, events that
# go with their module) are ftracetest's test cases,
# tools/testing/selftests/ftrace/test.d/markers/.  Here: an event enabled
# on the command line, non-root users refused, and a module unloaded
# while its events record.
. "$(dirname "$0")/lib.sh"
require_root
require_module test_marker_events
tracefs
E=$T/events/markers
P=/sys/module/test_marker_events/parameters
no_record_cmd
modprobe -q -r test_marker_events_clash test_marker_events 2>/dev/null

# lines EVENT: what EVENT recorded, one record a line.
lines() {
	sed -n "s/.* $1: //p" $T/trace
}

# trace_event= on the command line enabled a vmlinux marker's event.
if grep -q 'trace_event=markers:markers_kunit_noargs' /proc/cmdline; then
	check "enabled at boot by trace_event=" \
		eq "$(cat $E/markers_kunit_noargs/enable)" 1
	echo 0 > $E/markers_kunit_noargs/enable
fi

check "test_marker_events loads" modprobe test_marker_events

# Non-root users are refused.
check "non-root refused" "$(dirname "$0")/nonroot_open" \
	$E/tme_basic/enable $E/tme_basic/filter $E/tme_basic/trigger \
	$E/tme_basic/format

# The module goes while its events record: they go with it.  Its
# parameters do not hold it: a burst may still pass its markers while it
# goes (before the core disarmed a going module's sites, KASAN saw the
# probe read its freed event file).
echo > $T/trace
echo 1 > $E/enable
( while [ -e $P/burst ]; do echo 1000 > $P/burst 2>/dev/null; done ) &
# Until it records (30 s at most).
i=0
while ! grep -q ' tme_' $T/trace && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
gone=0
for i in $(seq 50); do
	modprobe -r test_marker_events 2>/dev/null && { gone=1; break; }
done
wait
check "unloaded while recording" eq $gone 1
check "its events went with it" eq "$(ls $E | grep -c '^tme_')" 0
check "and its probes" \
	eq "$(grep -c '^tme_' /sys/kernel/debug/markers/markers)" 0
echo 0 > $E/enable
check "loaded again" modprobe test_marker_events
check "its events are back, disabled" eq "$(cat $E/tme_basic/enable)" 0
echo > $T/trace
echo 1 > $E/tme_basic/enable
echo 3 > $P/pass
echo 0 > $E/tme_basic/enable
check "and record" eq "$(lines tme_basic)" "pid 3 comm tme3 value 10000000003"

modprobe -r test_marker_events
exit $rc
