#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of `make bpftrace-check`: Debian's bpftrace attaches BPF
# tracepoint programs to markers' trace events (perf_event_open and
# PERF_EVENT_IOC_SET_BPF, as to any tracepoint), reads their fields, and
# lets the module go when it is done.  One line per check, "ok N - ..." or
# "not ok N - ...", with what bpftrace printed as "# " lines; last
# "bpftrace-check: P passed, F failed".
P=/sys/module/test_marker_events/parameters
E=/sys/kernel/tracing/events/markers
n=0
passed=0
failed=0

# result STATUS WHAT: one check's line.
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		passed=$((passed + 1))
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
	fi
}

# comment [FILE]: FILE's lines, or standard input's, as TAP comments;
# not the empty ones.
comment() { sed '/^$/d; s/^/# /' "$@"; }

# bt SCRIPT K: run bpftrace SCRIPT while the module passes tme_basic K
# times (bpftrace -c: attached before the command starts, the maps printed
# when it ends); its output in /tmp/bt.out.
bt() {
	# bpftrace 0.17 splits -c at spaces, quotes and all: a script file.
	echo "echo $2 > $P/burst" > /tmp/burst
	t0=$(date +%s)
	timeout 300 bpftrace -e "$1" -c '/bin/sh /tmp/burst' > /tmp/bt.out 2>&1
	bt_rc=$?
	echo "# bpftrace -c 'echo $2 > burst': exit $bt_rc," \
		"$(($(date +%s) - t0)) s"
	echo "$1" | sed 's/^/#   /'
	comment /tmp/bt.out
}

# has LINE: whether bpftrace printed LINE and ended well.
has() { [ "$bt_rc" = 0 ] && grep -qxF "$1" /tmp/bt.out; }

echo "TAP version 13"
echo "1..19"
echo "# $(bpftrace --version), kernel $(uname -r)"

modprobe test_marker_events
result $? "test_marker_events loaded"

t0=$(date +%s)
bpftrace -l 'tracepoint:markers:*' > /tmp/list 2>&1
rc=$?
echo "# bpftrace -l 'tracepoint:markers:*': exit $rc, $(wc -l < /tmp/list)" \
	"lines, $(($(date +%s) - t0)) s"
grep -qxF tracepoint:markers:tme_basic /tmp/list
result $? "bpftrace -l lists tracepoint:markers:tme_basic"
sed -n 's/^tracepoint:markers://p' /tmp/list | sort > /tmp/listed
for d in "$E"/*/; do
	d=${d%/}
	echo "${d##*/}"
done | sort > /tmp/events
if [ "$rc" = 0 ] && [ -s /tmp/events ] && cmp -s /tmp/listed /tmp/events; then
	result 0 "bpftrace -l lists the $(wc -l < /tmp/events) events in $E, no other"
else
	diff /tmp/events /tmp/listed | comment
	comment /tmp/list
	result 1 "bpftrace -l lists the events in $E, no other"
fi

bt 'tracepoint:markers:tme_basic {
	printf("%d %s\n", args->pid, str(args->comm)); }' 3
printf '0 tme0\n1 tme1\n2 tme2\n' > /tmp/want
# Each CPU's records come in order; a task that moves may interleave them.
[ "$bt_rc" = 0 ] && grep -E '^[0-9]+ ' /tmp/bt.out | sort | cmp -s - /tmp/want
result $? "printf of args->pid, str(args->comm) over burst 3: 0 tme0 .. 2 tme2"

# Two programs on the event, the second with a predicate on a field.
# pid is an int: bpftrace warns of a signed operand of %, unless cast.
bt 'tracepoint:markers:tme_basic {
	@[(uint32)args->pid % 2] = count(); @value = sum(args->value); }
tracepoint:markers:tme_basic /args->pid >= 7/ { @high = count(); }' 10
has '@[0]: 5' && has '@[1]: 5'
result $? "@[(uint32)args->pid % 2] = count() over burst 10: @[0]: 5, @[1]: 5"
# value is i + 10000000000: a u64 field above 32 bits.
has '@value: 100000000045'
result $? "sum(args->value), a %llu field, over burst 10: 100000000045"
has '@high: 3'
result $? "a second program on the event, /args->pid >= 7/: 3 hits"

# BTF: of vmlinux and of the module, in /sys/kernel/btf/; bpftrace takes
# struct task_struct from it, with no kernel header in the guest.
[ -s /sys/kernel/btf/vmlinux ] && [ -s /sys/kernel/btf/test_marker_events ]
result $? "BTF of vmlinux and test_marker_events in /sys/kernel/btf/"
bt 'tracepoint:markers:tme_basic
	/(uint64)((struct task_struct *)curtask)->pid == pid/ { @btf = count(); }' 2
has '@btf: 2'
result $? "a struct task_struct field read through BTF over burst 2: @btf: 2"

# Typed markers: every MARK() leaves btf_trace_<name>, the prototype of
# its arguments as C promotes them, in its object's BTF, one per distinct
# prototype; tp_btf programs are typed by it (markers.rst section 8).
btfc() {
	bpftool btf dump file "$1" ${2:+-B "$2"} format c 2> /tmp/btf.err |
		grep -E "[(][*]btf_trace_$3(___[0-9]+)?[)]"
	comment /tmp/btf.err
}
m=/sys/kernel/btf/test_marker_events
v=/sys/kernel/btf/vmlinux
want='typedef void (*btf_trace_tme_task)(void *, struct task_struct *, int, char *);'
got=$(btfc $m $v tme_task)
echo "# $got"
[ "$got" = "$want" ]
result $? "BTF of the module: btf_trace_tme_task, (task, pid, comm)"
[ "$(btfc $m $v tme_basic | wc -l)" = 1 ]
result $? "two sites of tme_basic passing the same types: one prototype"
btfc $m $v tme_typeclash | comment
[ "$(btfc $m $v tme_typeclash | wc -l)" = 2 ]
result $? "two sites of tme_typeclash passing different types: two"
want='typedef void (*btf_trace_markers_x86_site)(void *, int);'
got=$(btfc $v "" markers_x86_site)
echo "# $got"
[ "$got" = "$want" ]
result $? "BTF of vmlinux: btf_trace_markers_x86_site, (value)"

# mb PROG N [open|link]: harness/btf/marker_btf.c, a libbpf loader,
# runs PROG of marker_btf.bpf.o over N passes of the module's markers,
# attached as libbpf does or by the bpf() command named.
mb() {
	marker_btf /harness/marker_btf.bpf.o "$@" > /tmp/mb.out 2>&1
	mb_rc=$?
	echo "# marker_btf $*: exit $mb_rc"
	comment /tmp/mb.out
}
mb tme_task_btf 5
[ "$mb_rc" = 0 ] &&
	grep -qxF 'hits 5 pid_ok 5 comm_ok 5 core_ok 5' /tmp/mb.out
result $? "libbpf tp_btf/tme_task: task->pid, task->comm, CO-RE tgid over 5 passes"
mb tme_task_raw 5
[ "$mb_rc" = 0 ] &&
	grep -qxF 'hits 5 pid_ok 5 comm_ok 5 core_ok 5' /tmp/mb.out
result $? "libbpf raw_tp/tme_task: the same through u64 arguments"
mb tme_task_btf 3 link
[ "$mb_rc" = 0 ] &&
	grep -qxF 'hits 3 pid_ok 3 comm_ok 3 core_ok 3' /tmp/mb.out
result $? "tp_btf/tme_task attached by BPF_LINK_CREATE"
mb tme_task_btf 3 open
[ "$mb_rc" = 0 ] &&
	grep -qxF 'hits 3 pid_ok 3 comm_ok 3 core_ok 3' /tmp/mb.out
result $? "tp_btf/tme_task attached by BPF_RAW_TRACEPOINT_OPEN"
mb tme_task_raw 1 link
[ "$mb_rc" = 3 ] && grep -q 'attach (link): Invalid argument' /tmp/mb.out
result $? "raw_tp/tme_task by BPF_LINK_CREATE: EINVAL, as a tracepoint's in 6.12"
mb tme_typeclash_btf 1
[ "$mb_rc" = 2 ] && dmesg | grep -q 'tme_typeclash: sites pass arguments of different types'
result $? "libbpf tp_btf/tme_typeclash refused at load, said so"
mb markers_x86_site_btf 1
[ "$mb_rc" = 0 ] && grep -qxF 'hits 0 pid_ok 0 comm_ok 0 core_ok 0' /tmp/mb.out
result $? "libbpf tp_btf/markers_x86_site, a marker of vmlinux, attached"

# A BPF kprobe on test_markers_event's MARK_SYM (test_markers is built
# with ftrace's flags: kprobe events refuse notrace functions), beside
# the marker's event, which arms the site: the kprobe fires on every pass.
modprobe test_markers
sym=$(grep -o '__mark\.test_markers_event\.test_markers\.[0-9]*' /proc/kallsyms |
	head -n 1)
echo 'for v in 1 2 3 4; do echo $v > /sys/module/test_markers/parameters/pass; done' \
	> /tmp/pass4
script="kprobe:$sym { @k = count(); }
tracepoint:markers:test_markers_event { @t = count(); }"
timeout 300 bpftrace -e "$script" -c '/bin/sh /tmp/pass4' > /tmp/bt.out 2>&1
bt_rc=$?
echo "# bpftrace -c '4 passes of test_markers_event': exit $bt_rc"
echo "$script" | sed 's/^/#   /'
comment /tmp/bt.out
has '@k: 4' && has '@t: 4'
result $? "kprobe:$sym and the event over 4 passes: @k: 4, @t: 4"
modprobe -r test_markers

# bpftrace closed its perf events: nothing holds the module any more.
modprobe -r test_marker_events && [ ! -e "$E/tme_basic" ]
result $? "test_marker_events unloads after bpftrace, its events gone"

echo "bpftrace-check: $passed passed, $failed failed"
