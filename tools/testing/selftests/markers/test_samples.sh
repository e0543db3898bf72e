#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# samples/markers: probe-example connects to marker-example's markers by
# name, in either load order, and prints every hit decoded through the
# marker's format, from process and softirq context.
. "$(dirname "$0")/lib.sh"
require_root
D=/sys/kernel/debug
[ -d $D/markers ] || mount -t debugfs nodev $D
if ! modinfo marker-example >/dev/null 2>&1; then
	echo "markers: samples not built (CONFIG_SAMPLE_MARKERS)"
	exit $ksft_skip
fi
modprobe -q -r probe-example marker-example 2>/dev/null

# hits NAME: the lines probe-example printed for NAME since the last clear.
hits() {
	dmesg | grep -o "probe_example: $1:.*"
}

# trigger [N]: pass the markers; then, if N is given, wait (30 s at most)
# until the timer's softirq has printed its Nth line.
trigger() {
	echo > $D/marker-example/trigger
	[ -n "$1" ] || return 0
	_i=0
	while [ "$(hits example_timer | wc -l)" -lt "$1" ] && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}

dmesg -c >/dev/null
check "probe-example loads before its markers exist" modprobe probe-example
check "marker-example loads" modprobe marker-example
trigger 1
check "process context: pid and comm" \
	eq "$(hits example_process)" \
	"probe_example: example_process: pid $$ comm $(cat /proc/$$/comm)"
check "no arguments" eq "$(hits example_noargs | wc -l)" 1
check "64-bit values and a string" \
	eq "$(hits example_wide)" \
	"probe_example: example_wide: count 1 delta -1 path trigger"
check "softirq context: the timer" \
	eq "$(hits example_timer)" "probe_example: example_timer: count 1"

dmesg -c >/dev/null
check "probe-example unloads" modprobe -r probe-example
trigger
# Its exit waits for the timer: no hit can come after.
check "marker-example unloads" modprobe -r marker-example
check "nothing printed once disconnected" eq "$(hits 'example_[a-z]*' | wc -l)" 0

# The other order: markers first, then the probes.
dmesg -c >/dev/null
check "marker-example loads first" modprobe marker-example
check "probe-example loads" modprobe probe-example
trigger 1
trigger 2
check "two passes, two hits each" \
	eq "$(hits 'example_[a-z]*' | wc -l)" 8
check "the second pass's count" \
	eq "$(hits example_timer | tail -1)" \
	"probe_example: example_timer: count 2"
check "marker-example unloads while probes are connected" \
	modprobe -r marker-example
check "probe-example unloads" modprobe -r probe-example
exit $rc
