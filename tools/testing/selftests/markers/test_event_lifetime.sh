#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A module's marker events live as long as the module, as TRACE_EVENT
# events of a module do.  What holds an event through the trace core
# (perf, an enable_event trigger on another event) holds the module: its
# unload is refused until that lets go.  What is set on the event itself
# (enabling, in any instance, a filter, its own triggers) goes with it:
# the unload is allowed, the event's records are cleared from every
# buffer, and a reload brings the event back as new.  An event that two
# modules' markers share passes from one to the other with its state.
. "$(dirname "$0")/lib.sh"
require_root
require_module test_marker_events
tracefs
no_record_cmd
E=$T/events/markers
P=/sys/module/test_marker_events/parameters
K=/sys/kernel/debug/markers/markers
I=$T/instances/markers_life
ready=/tmp/markers-life.ready
finished=/tmp/markers-life.finished
export PAGER=cat PERF_PAGER=cat
modprobe -q -r test_marker_events_clash test_marker_events 2>/dev/null
rmdir $I 2>/dev/null
mkdir $I
echo > $T/trace

# fresh: tme_basic as a new event: disabled everywhere, no filter, no
# trigger, no probe connected.
fresh() {
	eq "$(cat $E/tme_basic/enable) $(cat $I/events/markers/tme_basic/enable)" "0 0" &&
	eq "$(cat $E/tme_basic/filter)" none &&
	eq "$(grep -vc '^#' $E/tme_basic/trigger)" 0 &&
	eq "$(grep -c '^tme_basic test_marker_events .* probes=0 ' $K)" 1
}

# undecodable TRACE: records that name no event.
undecodable() {
	grep -c 'Unknown type' $1
}

dmesg -c > /dev/null

# Set on the event itself: enabled at the top and in an instance, a
# filter, a hist trigger, then fired and unloaded, twice.
for round in 1 2; do
	check "round $round: test_marker_events loads" modprobe test_marker_events
	check "  as new" fresh
	echo 'pid < 100' > $E/tme_basic/filter
	echo 'hist:keys=pid' > $E/tme_basic/trigger
	echo 1 > $E/tme_basic/enable
	echo 1 > $I/events/markers/tme_basic/enable
	echo 7 > $P/pass
	check "  recorded at the top and in the instance" \
		eq "$(grep -c ' tme_basic: ' $T/trace) $(grep -c ' tme_basic: ' $I/trace)" "1 1"
	check "  counted by its hist trigger" \
		eq "$(grep -c '^{ pid: *7 } hitcount: *1$' $E/tme_basic/hist)" 1
	check "  unloads while enabled, filtered and triggered" \
		modprobe -r test_marker_events
	check "  its event is gone" test ! -d $E/tme_basic
	check "  its records too, at the top and in the instance" \
		eq "$(grep -c 'tme_' $T/trace) $(grep -c 'tme_' $I/trace)" "0 0"
	check "  nothing undecodable" \
		eq "$(undecodable $T/trace) $(undecodable $I/trace)" "0 0"
	check "  no probe left connected" eq "$(grep -c '^tme_' $K)" 0
done
check "loaded again" modprobe test_marker_events
check "  the event is new" fresh

# Held through the trace core: an enable_event trigger on an event of
# vmlinux (a KUnit suite's marker).
T2=$E/markers_kunit_noargs/trigger
if [ -w $T2 ]; then
	echo 'enable_event:markers:tme_basic' > $T2
	check "an enable_event trigger elsewhere holds it: unload refused" \
		sh -c '! modprobe -r test_marker_events 2>/dev/null'
	check "  the event is still there" test -d $E/tme_basic
	echo '!enable_event:markers:tme_basic' > $T2
	check "  the trigger gone, the module unloads" \
		modprobe -r test_marker_events
else
	echo "# no markers_kunit_noargs event: the trigger holder is not tried"
	modprobe -r test_marker_events
fi

# Held by perf: perf opens its events before it starts the command,
# which says so and waits (60 s at most) for the test.
if command -v perf > /dev/null; then
	check "loaded again" modprobe test_marker_events
	rm -f $ready $finished
	perf stat -e markers:tme_basic -a -- sh -c "touch $ready; i=0;
		while [ ! -e $finished ] && [ \$i -lt 600 ]; do
			sleep 0.1; i=\$((i + 1)); done" > /dev/null 2>&1 &
	i=0
	while [ ! -e $ready ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	check "perf holds it: unload refused" \
		sh -c '! modprobe -r test_marker_events 2>/dev/null'
	check "  the event still counts" test -d $E/tme_basic
	touch $finished
	wait
	check "  perf done, the module unloads" modprobe -r test_marker_events
	rm -f $ready $finished
else
	echo "# no perf: the perf holder is not tried"
fi

# Shared: test_marker_events_clash has tme_dup too.  The event belongs to
# the module that made it; when that one goes, to the other, with its
# state.
C=/sys/module/test_marker_events_clash/parameters
check "test_marker_events loads, then test_marker_events_clash" \
	sh -c 'modprobe test_marker_events && modprobe test_marker_events_clash'
echo 'x > 5' > $E/tme_dup/filter
echo 1 > $E/tme_dup/enable
echo > $T/trace
check "the owner unloads" modprobe -r test_marker_events
check "  the shared event stays, enabled and filtered" \
	eq "$(cat $E/tme_dup/enable) $(cat $E/tme_dup/filter)" "1 x > 5"
echo 3 > $C/pass
echo 7 > $C/pass
check "  and records the other module's passes" \
	eq "$(sed -n 's/.* tme_dup: //p' $T/trace)" "x 7 x -7"
check "the other unloads too" modprobe -r test_marker_events_clash
check "  the event is gone" test ! -d $E/tme_dup
check "  and its records" eq "$(grep -c 'tme_' $T/trace)" 0

check "no splat" eq "$(dmesg | grep -c -e 'BUG' -e 'WARNING' -e 'KASAN' -e 'Oops')" 0
echo 0 > $I/events/markers/enable 2>/dev/null
rmdir $I
echo > $T/trace
exit $rc
