#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every marker site has a MARK_SYM symbol in kallsyms, where the
# architecture patches sites or they are jump labels; a kprobe event
# defined on it fires each time the marker is passed, armed or not.
. "$(dirname "$0")/lib.sh"
require_root
unload_all
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T
if [ ! -w $T/kprobe_events ]; then
	echo "markers: no kprobe_events"
	exit $ksft_skip
fi

no_record_cmd
check "marker module loads" modprobe test_markers
# The init site's symbol went with the init text: one is left.
syms=$(grep -o ' __mark\.test_markers_event\.test_markers\.[0-9.]*' \
	/proc/kallsyms)
check "one MARK_SYM symbol of test_markers_event in kallsyms" \
	eq "$(echo "$syms" | wc -w)" 1
sym=$(echo $syms)

echo > $T/trace
check "kprobe event on $sym" \
	sh -c "echo 'p:markers_test/site $sym' >> $T/kprobe_events"
echo 1 > $T/events/markers_test/site/enable
echo 3 > /sys/module/test_markers/parameters/pass
echo 4 > /sys/module/test_markers/parameters/pass
echo 0 > $T/events/markers_test/site/enable
check "it fired once per pass" \
	eq "$(grep -c 'site: (' $T/trace)" 2
# The address is named after the instrumented function, not the symbol.
check "at test_markers_event+offset" \
	eq "$(grep -c 'site: (test_markers_event+0x[0-9a-f]*/' $T/trace)" 2
# site: the site's state, as debugfs shows it and its bytes say
# (site_state), where debugfs lists sites.
D=/sys/kernel/debug/markers/sites
site() {
	site_state $(grep " test_markers_event test_markers\$" $D |
		cut -d' ' -f3,4)
}

# Armed, the site is a jump: the kprobe still fires once per pass.
E=$T/events/markers/test_markers_event
check "armed through its trace event" sh -c "echo 1 > $E/enable"
[ -r $D ] && check "armed: a jump, the kprobe event being off" \
	eq "$(site)" armed
echo 1 > $T/events/markers_test/site/enable
# On x86-64 the symbol is on the site's first byte, where the kprobe's
# int3 goes; elsewhere on the instruction after the site.
if [ -r $D ] && [ "$(uname -m)" = x86_64 ]; then
	check "armed under the kprobe's int3" eq "$(site | cut -c1-8)" "armed cc"
elif [ -r $D ]; then
	check "armed, the kprobe after it" eq "$(site)" armed
fi
echo 5 > /sys/module/test_markers/parameters/pass
echo 0 > $T/events/markers_test/site/enable
echo 0 > $E/enable
check "armed, it fired once more" \
	eq "$(grep -c 'site: (' $T/trace)" 3
check "and the marker was recorded" \
	eq "$(grep -c 'test_markers_event: value 5$' $T/trace)" 1
[ -r $D ] && check "disarmed with the event" eq "$(site)" disarmed
check "kprobe event removed" \
	sh -c "echo '-:markers_test/site' >> $T/kprobe_events"
check "marker module unloads" modprobe -r test_markers
exit $rc
