#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A marker's event is listed from the moment its code loads, and built
# (its fields, print format and copy program) when it is first used.
# Each use below builds one event of test_marker_events that nothing used
# before, once: its format file, enabling at the top level and in an
# instance, set_event, a filter, a trigger, a hist trigger, an eprobe,
# perf, a BPF tracepoint program and a raw tracepoint program.  Listing
# the events, an event's directory, its id, enable, filter and trigger
# files, and making an instance, build nothing.  The events go with
# the module, built or not, and come back unbuilt when it loads again.
# markers.events_built, the events built and not removed since, is
# there with CONFIG_MARKERS_KUNIT_TEST.
. "$(dirname "$0")/lib.sh"
require_root
require_module test_marker_events
B=/sys/module/markers/parameters/events_built
if [ ! -r $B ]; then
	echo "markers: no $B (CONFIG_MARKERS_KUNIT_TEST)"
	exit $ksft_skip
fi
tracefs
E=$T/events/markers
M=/sys/module/test_marker_events/parameters
I=$T/instances/markers_lazy
no_record_cmd
modprobe -q -r test_marker_events_clash test_marker_events 2>/dev/null
rmdir $I 2>/dev/null

# builds WHAT N CMD...: CMD builds N more events, and does again nothing
# more if N is 1.
builds() {
	what=$1
	n=$2
	shift 2
	b=$(cat $B)
	"$@" > /dev/null 2>&1
	check "$what: built $n" eq "$(cat $B)" $((b + n))
}

before=$(cat $B)
check "test_marker_events loads" modprobe test_marker_events
check "loading built nothing" eq "$(cat $B)" "$before"
listed=0
for e in tme_basic tme_ints tme_narrow tme_longs tme_str tme_partial \
	 tme_edge tme_noargs tme_task tme_noname tme_dup; do
	[ -d $E/$e ] && grep -qx "markers:$e" $T/available_events &&
		listed=$((listed + 1))
done
check "listed in events/markers and available_events" eq $listed 11

look() {
	ls $E
	ls $E/tme_basic
	cat $E/tme_basic/id $E/tme_basic/enable $E/tme_basic/filter \
		$E/tme_basic/trigger $E/enable
	grep markers $T/available_events
	mkdir $I
}
builds "listing, reading id, enable, filter, trigger; an instance" 0 look

builds "the format file" 1 cat $E/tme_basic/format
builds "the format file, again" 0 cat $E/tme_basic/format

builds "enabled" 1 sh -c "echo 1 > $E/tme_ints/enable"
echo 0 > $E/tme_ints/enable
builds "enabled in an instance" 1 \
	sh -c "echo 1 > $I/events/markers/tme_partial/enable"
echo 0 > $I/events/markers/tme_partial/enable
builds "set_event" 1 sh -c "echo markers:tme_str >> $T/set_event"
echo '!markers:tme_str' >> $T/set_event
builds "a filter" 1 sh -c "echo 'common_pid > 0' > $E/tme_narrow/filter"
echo 0 > $E/tme_narrow/filter
builds "a trigger" 1 sh -c "echo traceon > $E/tme_longs/trigger"
echo '!traceon' > $E/tme_longs/trigger
builds "a hist trigger" 1 \
	sh -c "echo 'hist:keys=common_pid' > $E/tme_edge/trigger"
echo '!hist:keys=common_pid' > $E/tme_edge/trigger

# An eprobe on the event: made, and then enabled.
if grep -q 'e\[:\[<group>/\]\[<event>\]\]' $T/README; then
	b=$(cat $B)
	echo 'e:markers_lazy/noargs markers/tme_noargs' >> $T/dynamic_events
	echo 1 > $T/events/markers_lazy/noargs/enable
	check "an eprobe, enabled: built 1" eq "$(cat $B)" $((b + 1))
	echo 0 > $T/events/markers_lazy/noargs/enable
	echo '-:markers_lazy/noargs' >> $T/dynamic_events
else
	echo "skip: an eprobe (no eprobes)"
fi

if command -v perf > /dev/null 2>&1; then
	builds "perf stat" 1 perf stat -e markers:tme_task -- \
		sh -c "echo 1 > $M/pass"
else
	echo "skip: perf (not installed)"
fi

C="$(dirname "$0")/bpf_count"
if [ -e /proc/sys/kernel/bpf_stats_enabled ]; then
	builds "a BPF tracepoint program" 1 "$C" -r 8 $E/tme_noname $M/pass 1
	builds "a BPF raw tracepoint program" 1 "$C" -R tme_dup $M/pass 1
else
	echo "skip: BPF (no bpf syscall)"
fi

rmdir $I
check "test_marker_events unloads" modprobe -r test_marker_events
check "its events gone" eq "$([ -d $E/tme_basic ] || echo gone)" gone
check "the built ones freed with them" eq "$(cat $B)" "$before"
modprobe test_marker_events
check "loaded again: listed, nothing built" \
	eq "$([ -d $E/tme_basic ] && cat $B)" "$before"
modprobe -r test_marker_events
exit $rc
