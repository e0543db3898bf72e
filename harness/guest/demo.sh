#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of `make demo`: show markers working, step by step.
step() { printf '\n=== %s\n' "$1"; shift; for l; do echo "$l"; done; }
kmsg() { dmesg | sed -n "s/^\[[ 0-9.]*\] $1: /    /p"; }
# Keep the sched tracepoints still: see no_record_cmd in the kselftests'
# lib.sh (a QEMU multi-threaded TCG hang in stock text_poke_bp()).
echo 0 > /sys/kernel/tracing/options/record-cmd

step "1. The core, tested at boot" \
	"This kernel has markers: MARK(name, format, args...) sites that" \
	"probes connect to by name while it runs.  At boot the KUnit suite" \
	"'markers' tested the core (probe order, private data, errors," \
	"probes waiting for markers, hardirq and softirq context):"
dmesg | grep -E '^\[[ 0-9.]*\] (    (not )?ok [0-9]+ markers_|# markers:)' |
	sed 's/^\[[ 0-9.]*\] */    /'

step "2. A marker in a module, and a probe connected by name" \
	"The module test_markers has a marker test_markers_module with the" \
	"format \"value %d\".  Loaded with verbose=1, it passes the marker," \
	"connects a probe to it by name, passes it again, disconnects the" \
	"probe and passes it once more:"
dmesg -c > /dev/null
modprobe test_markers verbose=1
kmsg test_markers

step "3. Unloading" \
	"Only the pass made while the probe was connected called it.  Now" \
	"the module goes, and its markers are forgotten with it."
modprobe -r test_markers && echo "    unloaded"

P=/sys/module/test_markers_probe/parameters
step "4. A probe that waits for its marker" \
	"test_markers_probe connects a probe to test_markers_event, a marker" \
	"that no loaded code has yet.  Then test_markers, which has it, loads" \
	"(passing it once at init, with 10), and we pass it twice more:"
modprobe test_markers_probe
echo "    probe module loaded: hits $(cat $P/hits)"
modprobe test_markers
echo "    marker module loaded: hits $(cat $P/hits), sum $(cat $P/sum)"
echo 5 > /sys/module/test_markers/parameters/pass
echo 7 > /sys/module/test_markers/parameters/pass
echo "    passed with 5 and 7: hits $(cat $P/hits), sum $(cat $P/sum)"
modprobe -r test_markers_probe

T=/sys/kernel/tracing
step "5. Every site has a symbol, for kprobes" \
	"On x86-64 each site is a 5-byte NOP with a symbol in kallsyms," \
	"__mark.<name>.<file>.<line>.  A few of this kernel's:"
grep -o ' __mark\.[^ ]*' /proc/kallsyms | head -4 | sed 's/^ /    /'
sym=$(grep -o ' __mark\.test_markers_event\.[^[:space:]]*' /proc/kallsyms | tr -d ' ')
echo
echo "A kprobe event placed by name on $sym fires on each pass:"
echo "p:demo/site $sym" >> $T/kprobe_events
echo 1 > $T/events/demo/site/enable
echo 11 > /sys/module/test_markers/parameters/pass
echo 0 > $T/events/demo/site/enable
grep 'site:' $T/trace | sed 's/^ */    /'
echo '-:demo/site' >> $T/kprobe_events
modprobe -r test_markers

D=/sys/kernel/debug
step "6. The samples: markers in several contexts, a probe that prints" \
	"samples/markers: marker-example passes four markers on each write" \
	"to a debugfs file, in process context and then from a timer;" \
	"probe-example prints every hit, decoded by the marker's format:"
dmesg -c > /dev/null
modprobe probe-example
modprobe marker-example
echo > $D/marker-example/trigger
sleep 0.2
kmsg probe_example

step "7. What debugfs shows" \
	"/sys/kernel/debug/markers/markers lists each marker, its owner," \
	"sites, armed sites, probes and format; .../sites lists each site" \
	"with its symbol, function+offset, state and bytes:"
grep ' marker_example ' $D/markers/markers | sed 's/^/    /'
grep ' marker_example$' $D/markers/sites | sed 's/^/    /'
modprobe -r probe-example
echo
echo "With probe-example gone, the sites are NOPs again:"
grep ' marker_example$' $D/markers/sites | sed 's/^/    /'

E=$T/events/markers
step "8. No module to write: every marker is a trace event" \
	"Each marker has events/markers/<name>/ in tracefs, with one typed" \
	"field per conversion of its format; enabling it records the" \
	"arguments into the trace buffer:"
echo "    # cat $E/example_process/format"
sed -n '/^\tfield:int pid/,$p' $E/example_process/format | sed 's/^/    /'
echo "    # echo 1 > $E/example_process/enable"
echo "    # echo 1 > $E/example_wide/enable"
echo "    # echo 'count > 0' > $E/example_timer/filter"
echo "    # echo 1 > $E/example_timer/enable"
echo > $T/trace
echo 1 > $E/example_process/enable
echo 1 > $E/example_wide/enable
echo 'count > 0' > $E/example_timer/filter
echo 1 > $E/example_timer/enable
echo > $D/marker-example/trigger
sleep 0.2
echo 0 > $E/enable
echo 0 > $E/example_timer/filter
grep 'example_' $T/trace | sed 's/^ */    /'
if command -v trace-cmd > /dev/null; then
	echo
	echo "trace-cmd (Debian's 3.1) records and decodes the same events:"
	echo "    # trace-cmd record -e markers:example_process -e markers:example_wide ..."
	# trace-cmd 3.1 keeps nothing if the command ends before its
	# per-CPU recorders read: wait for them (test_trace_cmd.sh).
	n=$(ls -d $T/per_cpu/cpu* | wc -l)
	trace-cmd record -q -e markers:example_process \
		-e markers:example_wide -o /tmp/demo.dat -- \
		sh -c "i=0; while [ \$i -lt 100 ] &&
			[ \$(ls -l /proc/[0-9]*/fd 2>/dev/null |
			     grep -c '/trace_pipe_raw\$') -lt $n ]; do
			sleep 0.1; i=\$((i + 1)); done
			echo > $D/marker-example/trigger" > /dev/null 2>&1
	trace-cmd report -i /tmp/demo.dat 2>/dev/null | grep 'example_' |
		sed 's/^ */    /'
fi
echo
echo "A filter on a field the event does not have is refused:"
echo "    # echo 'nosuch > 1' > $E/example_process/filter"
{ echo 'nosuch > 1' > $E/example_process/filter; } 2>&1 | sed 's/^/    /'
modprobe -r marker-example
echo "With marker-example unloaded, its events are gone:"
echo "    # ls $E | grep example_"
ls $E | grep -c example_ | sed 's/^/    /'

S=$T/marker_sites
M=/sys/module/test_marker_events/parameters
step "9. Choosing sites: one site of a marker on, another off" \
	"test_marker_events passes tme_basic in two functions: tme_pass()" \
	"once per write to 'pass', tme_burst() K times per write of K to" \
	"'burst'.  marker_sites chooses among a marker's sites, as dynamic" \
	"debug chooses pr_debug() sites; the others stay NOPs:"
modprobe test_marker_events
echo "    # echo 'marker tme_basic func tme_burst' > $S"
echo 'marker tme_basic func tme_burst' > $S
echo 1 > $E/tme_basic/enable
echo "    # grep tme_basic $S"
grep '^# marker tme_basic\| tme_basic =' $S | sed 's/^/    /'
echo > $T/trace
echo 1 > $M/pass
echo 2 > $M/burst
echo "    after one pass and a burst of 2, the trace has:"
grep ' tme_basic: ' $T/trace | sed 's/^ */    /'
echo
echo "Each trace instance chooses its own sites, here tme_pass()'s, while"
echo "the top level keeps tme_burst()'s:"
I=$T/instances/demo
mkdir $I
echo "    # echo 'marker tme_basic func tme_pass' > $I/marker_sites"
echo 'marker tme_basic func tme_pass' > $I/marker_sites
echo 1 > $I/events/markers/tme_basic/enable
echo > $T/trace
echo 1 > $M/pass
echo 2 > $M/burst
echo "    after one pass and a burst of 2, the instance's trace has:"
grep ' tme_basic: ' $I/trace | sed 's/^ */    /'
echo "    and the top level's:"
grep ' tme_basic: ' $T/trace | sed 's/^ */    /'
echo 0 > $I/events/markers/tme_basic/enable
rmdir $I
echo
echo "A bad query is refused, and error_log shows where:"
echo "    # echo 'marker tme_basic fnuc tme_pass' >> $S"
: > $T/error_log
{ echo 'marker tme_basic fnuc tme_pass' >> $S; } 2>&1 | sed 's/^/    /'
tail -n 3 $T/error_log | sed 's/^\[[ 0-9.]*\] //; s/^/    /'
echo 0 > $E/tme_basic/enable
echo > $S
modprobe -r test_marker_events

B=/kselftest/markers/bpf_count
if [ -x $B ] && [ -e /sys/kernel/tracing/events/markers ]; then
	step "10. BPF programs on a marker's event" \
		"A BPF tracepoint program attaches to events/markers/<name> as to" \
		"a tracepoint: perf_event_open() with the event's id, then" \
		"PERF_EVENT_IOC_SET_BPF, what bpftrace and libbpf do.  bpf_count" \
		"(a kselftest helper with no library) counts the hits of tme_basic" \
		"from every CPU, sums its pid field, matches its comm string, and" \
		"runs 'bpftool perf' while attached; each CPU in turn passes the" \
		"marker 100 times (pid 0..99, comm tme0..tme99):"
	modprobe test_marker_events
	echo "    # bpf_count -f pid -s comm:tme -c 'bpftool perf' $E/tme_basic ..."
	$B -f pid -s comm:tme -c 'bpftool perf' $E/tme_basic \
		/sys/module/test_marker_events/parameters/burst 100 2>&1 |
		sed 's/^/    /'
	modprobe -r test_marker_events
fi

step "The end: the guest powers off by itself."
