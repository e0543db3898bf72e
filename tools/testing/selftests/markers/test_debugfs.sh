#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /sys/kernel/debug/markers/: "markers" lists each marker with its owner,
# sites, armed sites, probes and format; "sites" lists each site with its
# MARK_SYM symbol, function+offset, state and bytes: x86-64's own sites,
# or jump labels.  Root only.
. "$(dirname "$0")/lib.sh"
require_root
D=/sys/kernel/debug
[ -d $D/markers ] || mount -t debugfs nodev $D
M=$D/markers
if ! modinfo marker-example >/dev/null 2>&1; then
	echo "markers: samples not built (CONFIG_SAMPLE_MARKERS)"
	exit $ksft_skip
fi
modprobe -q -r probe-example marker-example 2>/dev/null
if [ ! -e $M/sites ]; then
	echo "markers: no sites file (sites are neither patched nor jump labels)"
	exit $ksft_skip
fi

# marker NAME: its line in "markers"; site NAME: its sites' lines.
marker() {
	grep "^$1 " $M/markers
}
site() {
	grep " $1 marker_example\$" $M/sites
}

check "markers and sites are root's alone" \
	eq "$(stat -c %a $M/markers $M/sites | tr '\n' ' ')" "400 400 "
check "not even readable by others" "$(dirname "$0")/nonroot_open" \
	$M/markers $M/sites

check "marker-example loads" modprobe marker-example
check "a marker: owner, one site, disarmed, no probe, format" \
	eq "$(marker example_process)" \
	'example_process marker_example sites=1 armed=0 probes=0 format="pid %d comm %s"'
check "all four markers of the sample" \
	eq "$(grep -c ' marker_example ' $M/markers)" 4

line=$(site example_process)
set -- $line
check "its site has its MARK_SYM symbol" \
	eq "$(echo "$1" | grep -c '^__mark\.example_process\.marker_example\.[0-9]*$')" 1
check "the symbol is in kallsyms" \
	eq "$(grep -c " $1	\[marker_example\]\$" /proc/kallsyms)" 1
check "at function+offset" \
	eq "$(echo "$2" | grep -c '^example_trigger+0x[0-9a-f]*/0x[0-9a-f]*$')" 1
check "disarmed: a NOP" eq "$(site_state $3 $4)" disarmed

check "probe-example loads" modprobe probe-example
check "connected: armed, one probe" \
	eq "$(marker example_process)" \
	'example_process marker_example sites=1 armed=1 probes=1 format="pid %d comm %s"'
set -- $(site example_process)
check "armed: a jump" eq "$(site_state $3 $4)" armed

check "marker-example unloads" modprobe -r marker-example
check "a probe waiting for its marker is listed without owner" \
	eq "$(marker example_process)" \
	'example_process - sites=0 armed=0 probes=1 format="pid %d comm %s"'
check "no site left" eq "$(grep -c ' marker_example$' $M/sites)" 0
check "probe-example unloads" modprobe -r probe-example
check "nothing left of the samples" \
	eq "$(grep -c '^example_' $M/markers)" 0

# vmlinux's own markers (the KUnit suites') are listed too.
check "vmlinux markers listed" \
	eq "$(grep -c '^markers_kunit_basic vmlinux sites=1 ' $M/markers)" 1
exit $rc
