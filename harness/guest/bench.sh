#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of `make bench`: drive lib/markers_bench.c through debugfs.
# bench.part=pass: per-pass, per-hit and recording figures (sections
# 1-3); bench.part=site: recording with the call_site field (3e);
# bench.part=arm: arming latency, sync rounds and holds (4-5);
# bench.part=mem: the memory a module's markers or events take (8);
# bench.part=btf: what 6.12 has beside markers, in the btf variant (9),
# and the memory of pr_debug() sites (8).
# The host reads the "markers_bench: row ..." and "... arm ..." lines.
part=$(sed -n 's/.*bench\.part=\([a-z]*\).*/\1/p' /proc/cmdline)
R=/sys/kernel/debug/markers_bench/run
T=/sys/kernel/tracing
OPT=/proc/sys/debug/kprobes-optimization
# The sched tracepoints stay still (see the kselftests' lib.sh).
echo 0 > $T/options/record-cmd
echo 8 > /proc/sys/kernel/printk
run() {
	echo "$*" > $R || echo "bench: '$*' failed"
}
# rec_bytes LABEL: bytes per record in the ring buffer, over every CPU.
rec_bytes() {
	cat $T/per_cpu/cpu*/stats | awk -v l="$1" '
		/^entries:/ { e += $2 } /^bytes:/ { b += $2 }
		END { printf "markers_bench: bytes %s %d %d\n", l, b, e }'
}
# list_sites: guest time to read the debugfs listings, 10,000 sites
# of bench_n10000 among them.
list_sites() {
	for f in sites markers; do
		t0=$(cut -d' ' -f1 /proc/uptime)
		n=$(wc -l < /sys/kernel/debug/markers/$f)
		t1=$(cut -d' ' -f1 /proc/uptime)
		echo "markers_bench: list $f $n $t0 $t1"
	done
}

# mem MODULE...: what loading a module of N markers costs against one of
# N TRACE_EVENT()s or N pr_debug()s and one with none (harness/
# mem-modules.py, in /mem):
# slab, vmalloc and per-CPU memory, then what a tracefs instance adds
# with the module loaded, then, once a read of each event's id has
# looked its directory up, what a read of its format file adds (the
# file's dentry and inode, and a marker's event, built on this first
# use), the load's guest time, the module's kallsyms and its core size;
# three rounds each.  "markers_bench: mem MODULE ROUND" and the meminfo
# kB (Slab VmallocUsed Percpu) before, after the load, after the
# instance, after the ids and after the formats, then the times,
# symbols and size.  Each figure is read once the caches are dropped
# and the slab caches have given their empty slabs back, twice the
# same (at most 8 tries: frees deferred past a grace period come
# late), so that what one step freed does not count in the next.
meminfo() {
	_prev=
	for _try in 1 2 3 4 5 6 7 8; do
		sync
		echo 3 > /proc/sys/vm/drop_caches
		for c in /sys/kernel/slab/*/shrink; do
			echo 1 > "$c"
		done 2> /dev/null
		_cur=$(awk '/^(Slab|VmallocUsed|Percpu):/ { printf "%s ", $2 }' \
			/proc/meminfo)
		[ "$_cur" = "$_prev" ] && break
		_prev=$_cur
	done
	printf '%s' "$_cur"
}
# events MODULE: the event directories of a module of mem-modules.py.
events() { # MODULE
	case $1 in
	mark*) echo $T/events/markers/mm${1#mark}_* ;;
	te*) echo $T/events/$1/${1}_* ;;
	esac
}
mem() { # MODULE...
	for m in "$@"; do
		for r in 1 2 3; do
			b=$(meminfo)
			t0=$(cut -d' ' -f1 /proc/uptime)
			insmod /mem/$m.ko || echo "bench: $m does not load"
			t1=$(cut -d' ' -f1 /proc/uptime)
			a=$(meminfo)
			mkdir $T/instances/mem
			i=$(meminfo)
			for e in $(events $m); do
				cat $e/id
			done > /dev/null
			l=$(meminfo)
			for e in $(events $m); do
				cat $e/format
			done > /dev/null
			u=$(meminfo)
			rmdir $T/instances/mem
			k=$(grep -c "\[$m\]\$" /proc/kallsyms)
			km=$(grep -c " __mark\..*\[$m\]\$" /proc/kallsyms)
			c=$(cat /sys/module/$m/coresize)
			rmmod $m
			echo "markers_bench: mem $m $r $b$a$i$l$u$t0 $t1 $k $km $c"
		done
	done
}
if [ "$part" = mem ]; then
	mem none mark10 mark100 mark1000 te10 te100 te1000
	echo "bench: done"
	exit 0
fi

if ! modprobe markers_bench; then
	echo "bench: markers_bench does not load"
	exit 1
fi
echo "bench: $(nproc) CPUs"

# x86-64's own sites: the sites file's 10,000, the kallsyms and kprobe
# rows.
own_sites() {
	[ "$(uname -m)" = x86_64 ]
}

# kallsyms' lookups, and a /proc/kallsyms read (perf stat's mean
# task-clock over 10, cat's exec included), MARK_SYMs skipped by the map
# built at boot.
kallsyms() {
	run kallsyms
	perf stat -x, -e task-clock -r 10 cat /proc/kallsyms 2>&1 \
		> /dev/null | sed -n "s/^\([0-9.]*\),msec.*/markers_bench: kallsyms_read map \1/p"
}

pass() {
	own_sites && list_sites
	own_sites && kallsyms
	# 1. Disabled, per pass.
	run time empty pass/empty
	run time mark pass/mark
	run time tp pass/tracepoint
	run time key pass/static_branch
	run time flag pass/flag
	run time trace_mark pass/trace_mark
	# A site that its marker's query leaves out, the marker enabled.
	run probes mark 1
	echo 'marker bench_pass func nothing' > $T/marker_sites
	run time mark pass/mark-unselected
	echo 'marker bench_pass' > $T/marker_sites
	run probes mark 0
	# 2. Enabled, per hit, with 1, 2 and 4 empty probes.
	for n in 1 2 4; do
		run probes mark $n
		run time mark hit/mark-$n
		run probes tp $n
		run time tp hit/tracepoint-$n
		run probes trace_mark $n
		run time trace_mark hit/trace_mark-$n
	done
	run probes mark 0
	run key 1
	run time key hit/static_branch-call
	run key 0
	run flag 1
	run time flag hit/flag-call
	run flag 0
	if ! own_sites; then
		# Jump-label sites: no MARK_SYM, so no kprobe rows.
		pass_rec
		return
	fi
	# A kprobe on the MARK_SYM address, the marker disabled.
	echo 0 > $OPT
	run kprobe 1
	run time mark hit/kprobe
	run kprobe 0
	echo 1 > $OPT
	run kprobe 1
	sleep 1
	if grep -q 'markers_bench.*OPTIMIZED' /sys/kernel/debug/kprobes/list
	then
		run time mark hit/kprobe-optimized
	else
		echo "bench: the kprobe optimizer left the MARK_SYM kprobe an int3"
	fi
	run kprobe 0
	echo 0 > $OPT
	pass_rec
	pass_tools
	pass_rec_kprobe
	echo 1 > $OPT
}

# 3. Recording the same values into the ring buffer.
pass_rec() {
	run time rec_mark rec/none
	echo > $T/trace
	echo 1 > $T/events/markers/bench_rec/enable
	run time rec_mark rec/marker_event
	echo 0 > $T/events/markers/bench_rec/enable
	rec_bytes rec/marker_event
	grep -m1 'bench_rec: seq' $T/trace
	echo > $T/trace
	echo 1 > $T/events/markers_bench/bench_rec/enable
	run time rec_event rec/trace_event
	echo 0 > $T/events/markers_bench/bench_rec/enable
	rec_bytes rec/trace_event
	grep -m1 'bench_rec: seq' $T/trace
	pass_rec_instance
}

# The event in an instance alone, every site selected: the site calls
# the instance's probe itself.  Then an instance's own selection: the
# event enabled at the top level and in the instance, whose marker_sites
# selects the loop's site while the top level's query leaves it out.
# The site calls a subset of the marker's probes, the instance's, through
# marker_iterate().
pass_rec_instance() {
	I=$T/instances/bench_sel
	mkdir $I
	echo 1 > $I/events/markers/bench_rec/enable
	run time rec_mark rec/marker_event_instance_alone
	echo 0 > $I/events/markers/bench_rec/enable
	echo > $I/trace
	echo > $T/trace
	echo 'marker bench_rec func no_such_function' > $T/marker_sites
	echo 1 > $T/events/markers/bench_rec/enable
	echo 1 > $I/events/markers/bench_rec/enable
	run time rec_mark rec/marker_event_instance
	echo 0 > $I/events/markers/bench_rec/enable
	echo 0 > $T/events/markers/bench_rec/enable
	: > $T/marker_sites
	echo "markers_bench: instance records" \
		"$(grep -c 'bench_rec: seq' $I/trace)" \
		"top $(grep -c 'bench_rec: seq' $T/trace)"
	rmdir $I
}

# 3d. A BPF tracepoint program on each event (bpf_count: it counts the
# hit and sums the seq field), the same as a raw tracepoint program on
# the marker and on the tracepoint, then perf stat counting each event; one
# CPU, so bpf_count writes the command once.
pass_tools() {
	B=/kselftest/markers/bpf_count
	if [ -x $B ]; then
		$B -f seq $T/events/markers/bench_rec $R \
			"time rec_mark rec/marker_bpf"
		$B -f seq $T/events/markers_bench/bench_rec $R \
			"time rec_event rec/trace_event_bpf"
		# Raw tracepoint programs: the marker, then the TRACE_EVENT's
		# tracepoint, which has the name too.
		$B -R -f 0 markers:bench_rec $R \
			"time rec_mark rec/marker_raw_tp"
		$B -R -f 0 bench_rec $R "time rec_event rec/tracepoint_raw_tp"
	else
		echo "bench: no bpf_count: no BPF rows"
	fi
	if command -v perf > /dev/null; then
		perf stat -x, -e markers:bench_rec -- \
			sh -c "echo 'time rec_mark rec/marker_perf_stat' > $R"
		perf stat -x, -e markers_bench:bench_rec -- \
			sh -c "echo 'time rec_event rec/trace_event_perf_stat' > $R"
	else
		echo "bench: no perf: no perf stat rows"
	fi
}

pass_rec_kprobe() {
	sym=$(grep -o ' __mark\.bench_rec\.markers_bench\.[0-9]*' \
		/proc/kallsyms | tr -d ' ')
	echo "p:bench/rec $sym seq=@bench_seq:u32 value=@bench_value:u64" \
		"name=+0(@bench_name_p):string" >> $T/kprobe_events
	echo > $T/trace
	echo 1 > $T/events/bench/rec/enable
	run time rec_mark rec/kprobe_event
	echo 0 > $T/events/bench/rec/enable
	grep -m1 'rec: (' $T/trace
	echo '-:bench/rec' >> $T/kprobe_events
}

# 9. The same values through what 6.12 has beside markers (the btf
# variant, with BTF, fprobe events and dynamic debug): tp_btf and raw_tp
# programs on the marker bench_typed and on the tracepoint bench_rec,
# tprobe, fprobe and kprobe events with BTF argument names, an eprobe on
# the TRACE_EVENT, a pr_debug() site.  Each loop's own pass with nothing
# connected is its baseline (other/none-LOOP).
dyn() { # DEFINITION: add it to dynamic_events, or say why not
	echo "$1" >> $T/dynamic_events 2> /dev/null && return 0
	echo "bench: '$1' refused: $(tail -n 3 $T/error_log | tr '\n' ' ')"
	return 1
}
rec_on() { # EVENT-DIR LOOP LABEL: time LOOP with the event recording
	echo > $T/trace
	echo 1 > $T/events/$1/enable || echo "bench: $1 not enabled"
	run time $2 $3
	echo 0 > $T/events/$1/enable
	rec_bytes $3
	grep -m1 "${1#*/}: " $T/trace
}
others() {
	for l in rec_mark rec_typed rec_event rec_fn rec_debug; do
		run time $l other/none-$l
	done
	B=/kselftest/markers/bpf_count
	$B -R -f 0 markers:bench_typed $R "time rec_typed other/marker_raw_tp"
	$B -R -f 0 bench_rec $R "time rec_event other/tracepoint_raw_tp"
	O=/harness/bench_btf.bpf.o
	bench_btf $O bench_typed_btf $R "time rec_typed other/marker_tp_btf"
	bench_btf $O bench_rec_btf $R "time rec_event other/tracepoint_tp_btf"
	rec_on markers/bench_typed rec_typed other/marker_event
	rec_on markers_bench/bench_rec rec_event other/trace_event
	# The same fields by BTF argument name (tprobe, fprobe, kprobe)
	# or by the event's field name (eprobe).
	a='seq=seq value=value name=name:string'
	dyn "t:bench9/tprobe bench_rec $a" &&
		rec_on bench9/tprobe rec_event other/tprobe
	dyn "f:bench9/fprobe bench_rec_fn $a" &&
		rec_on bench9/fprobe rec_fn other/fprobe
	dyn "p:bench9/kprobe bench_rec_fn $a" &&
		rec_on bench9/kprobe rec_fn other/kprobe
	dyn 'e:bench9/eprobe markers_bench/bench_rec seq=$seq value=$value name=$name:string' &&
		rec_on bench9/eprobe rec_event other/eprobe
	echo > $T/dynamic_events
	# pr_debug() into the printk buffer, not to the console.
	echo 7 > /proc/sys/kernel/printk
	echo 'func loop_rec_debug +p' > /proc/dynamic_debug/control ||
		echo "bench: dynamic debug refused the query"
	run time rec_debug other/pr_debug
	echo 'func loop_rec_debug -p' > /proc/dynamic_debug/control
	echo 8 > /proc/sys/kernel/printk
	dmesg | grep -m1 'markers_bench: seq '
}

arm() {
	echo 0 > $OPT
	run arm
	echo 1 > $OPT
}

# 3e. Recording with markers.site_field=1 on the command line: the
# call_site field, on one probe, which the site calls itself.
site() {
	grep -q 'call_site' $T/events/markers/bench_rec/format ||
		echo "bench: bench_rec has no call_site field"
	run time rec_mark rec/none
	rec_on markers/bench_rec rec_mark rec/marker_event
}

case "$part" in
pass) pass ;;
arm) arm ;;
site) site ;;
btf)
	others
	# pr_debug() sites' memory (8), where dynamic debug is built in.
	[ -d /mem ] && mem none dbg10 dbg100 dbg1000
	;;
*) echo "bench: bench.part=pass|arm|site|btf" ;;
esac
modprobe -r markers_bench
echo "bench: done"
