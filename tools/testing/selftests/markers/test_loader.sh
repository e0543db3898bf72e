#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# marker_loader: markers chosen by name, by module parameter or through
# debugfs, recorded as markers:marker trace events whose arguments are
# decoded by the marker's format when read; bad input refused with a log
# line and no change; all of it 100 times over.
. "$(dirname "$0")/lib.sh"
require_root
D=/sys/kernel/debug
T=/sys/kernel/tracing
[ -d $D/markers ] || mount -t debugfs nodev $D
[ -d $T/events ] || mount -t tracefs nodev $T
if ! modinfo marker_loader >/dev/null 2>&1 ||
   ! modinfo marker-example >/dev/null 2>&1; then
	echo "markers: marker_loader or the samples not built"
	exit $ksft_skip
fi
modprobe -q -r marker_loader probe-example marker-example 2>/dev/null
E=$D/markers/enable
X=$D/markers/disable
no_record_cmd

trigger() {
	echo > $D/marker-example/trigger
	sleep 0.2
}
# events NAME: the recorded hits of NAME, as the trace shows them.
events() {
	grep -o "marker: $1: .*" $T/trace
}
# refused ERROR FILE STRING: writing STRING ("\n": newline) to FILE in
# one write() fails with ERROR (strerror's words).
refused() {
	eq "$("$(dirname "$0")/write_file" "$2" "$3")" "$1"
}

dmesg -c >/dev/null
check "marker-example loads" modprobe marker-example
check "marker_loader loads with markers=example_process,example_wide" \
	modprobe marker_loader markers=example_process,example_wide
check "it lists what it connected" \
	eq "$(cat $E | tr '\n' ' ')" "example_process example_wide "
echo > $T/trace
echo 1 > $T/events/markers/marker/enable
trigger
check "a hit, decoded by its format" \
	eq "$(events example_process)" \
	"marker: example_process: pid $$ comm $(cat /proc/$$/comm)"
check "64-bit values and a string" \
	eq "$(events example_wide)" \
	"marker: example_wide: count 1 delta -1 path trigger"
check "a marker not enabled is not recorded" \
	eq "$(events example_timer | wc -l)" 0

check "enable through debugfs" sh -c "echo example_timer > $E"
check "enabling twice is no change" sh -c "echo example_timer > $E"
check "disable through debugfs" sh -c "echo example_process > $X"
trigger
check "the enabled one recorded, from softirq" \
	eq "$(events example_timer)" "marker: example_timer: count 2"
check "the disabled one not" eq "$(events example_process | wc -l)" 1

# The arguments were copied: the module may go before the trace is read.
check "marker-example unloads while connected" modprobe -r marker-example
check "records still decode after it is gone" \
	eq "$(events example_wide | tail -1)" \
	"marker: example_wide: count 2 delta -2 path trigger"
check "marker-example reloads, reconnected" modprobe marker-example
trigger
check "recorded again" \
	eq "$(events example_wide | tail -1)" \
	"marker: example_wide: count 1 delta -1 path trigger"
check "no trace_printk banner" eq "$(dmesg | grep -c trace_printk)" 0

# Bad input: an error code, a log line, no change.
before=$(cat $E)
dmesg -c >/dev/null
check "unknown name: ENOENT" refused "No such file or directory" $E \
	no_such_marker
check "  logged" \
	eq "$(dmesg | grep -c 'enable no_such_marker: no such marker')" 1
check "invalid name: EINVAL" refused "Invalid argument" $E 'bad name!'
check "empty: EINVAL" refused "Invalid argument" $E '\n'
check "two lines: EINVAL" refused "Invalid argument" $E 'a\nb'
check "  logged" eq "$(dmesg | grep -c 'invalid marker name')" 3
check "name too long: EINVAL" refused "Invalid argument" $E \
	"$(printf '%0200d' 0 | tr 0 a)"
check "a write of 1 MB: EINVAL" \
	eq "$("$(dirname "$0")/write_file" $E -s 1048576)" "Invalid argument"
check "  logged" eq "$(dmesg | grep -c 'enable: a write of')" 2
check "disable what is not enabled: ENOENT" \
	refused "No such file or directory" $X example_noargs
check "nothing changed" eq "$(cat $E)" "$before"
check "others may not touch the controls" \
	"$(dirname "$0")/nonroot_open" $E $X

echo 0 > $T/events/markers/marker/enable
check "marker_loader unloads" modprobe -r marker_loader
check "marker-example unloads" modprobe -r marker-example

check "an invalid markers= parameter fails the load" \
	sh -c "! modprobe marker_loader markers=a,b-c 2>/dev/null"
check "  logged" \
	test "$(dmesg | grep -c 'markers=: invalid marker name "b-c"')" -ge 1

# 100 rounds of it: connect by parameter and through debugfs, record,
# decode, a kprobe event on the marker's symbol, bad input, disconnect,
# unload the marker module while connected, unload.
KL=$D/kmemleak
if [ -w $KL ]; then
	echo scan > $KL
	echo clear > $KL
fi
modprobe marker-example
sym=$(grep -o ' __mark\.example_process\.marker_example\.[0-9]*' \
	/proc/kallsyms | tr -d ' ')
modprobe -r marker-example
me="pid $$ comm $(cat /proc/$$/comm)"
want="loop|marker: example_process: $me|marker: example_noargs:  |loop|marker: example_process: $me|"
dmesg -c >/dev/null
i=0
got=
while [ $i -lt 100 ]; do
	step=trace; echo > $T/trace &&
	step=loader; modprobe marker_loader markers=example_process &&
	step=markers; modprobe marker-example &&
	step=kprobe; echo "p:markers_test/loop $sym" >> $T/kprobe_events &&
	step=kprobe-on; echo 1 > $T/events/markers_test/loop/enable &&
	step=event-on; echo 1 > $T/events/markers/marker/enable &&
	step=enable; echo example_noargs > $E &&
	step=bad; [ "$("$(dirname "$0")/write_file" $E 'bad name!')" = \
		    "Invalid argument" ] &&
	step=trigger; echo > $D/marker-example/trigger &&
	step=disable; echo example_noargs > $X &&
	step=trigger2; echo > $D/marker-example/trigger &&
	step=kprobe-off; echo 0 > $T/events/markers_test/loop/enable &&
	step=kprobe-rm; echo '-:markers_test/loop' >> $T/kprobe_events &&
	step=trace-read; got=$(grep -o -e 'loop: ' \
				 -e 'marker: example_[a-z]*: .*' $T/trace |
			       sed 's/: $//' | tr '\n' '|') &&
	step=compare; [ "$got" = "$want" ] &&
	step=markers-rm; modprobe -r marker-example &&
	step=loader-rm; modprobe -r marker_loader || break
	i=$((i + 1))
done
[ $i = 100 ] ||
	echo "# round $i failed at $step: got '$got', expected '$want'"
check "100 rounds, every hit recorded and decoded, the kprobe too" eq $i 100
if [ -w $KL ]; then
	# kmemleak reports objects older than 5 s that nothing points to.
	sleep 6
	echo scan > $KL
	check "no leak (kmemleak)" eq "$(grep -c '^unreferenced object' $KL)" 0
	cat $KL
else
	echo "# no kmemleak in this kernel: leaks not checked here"
fi
check "no splat in them" \
	eq "$(dmesg | grep -c -e 'BUG' -e 'WARNING' -e 'Oops')" 0
modprobe -q -r marker-example marker_loader 2>/dev/null
exit $rc
