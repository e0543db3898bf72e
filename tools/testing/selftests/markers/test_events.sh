#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every marker is a trace event, events/markers/<name>/, with one typed
# field per conversion of its format: format files, enabling, every kind
# of conversion recorded, filters, a hist trigger, an instance, a module's
# events coming and going (also while recording), formats that clash or
# cannot be typed, and non-root users refused.
. "$(dirname "$0")/lib.sh"
require_root
require_module test_marker_events
tracefs
E=$T/events/markers
P=/sys/module/test_marker_events/parameters
no_record_cmd
modprobe -q -r test_marker_events_clash test_marker_events 2>/dev/null

# j STRING...: the strings joined, to keep long expectations readable.
j() {
	printf %s "$@"
}

# fields EVENT: its own fields, one "type name offset size signed" a line.
fields() {
	sed -n "$(j 's/^\tfield:\(.*\) \([a-zA-Z0-9_]*\);' \
		'\toffset:\([0-9]*\);\tsize:\([0-9]*\);' \
		'\tsigned:\([01]\);$/\1 \2 \3 \4 \5/p')" \
		$E/$1/format | grep -v ' common_'
}
pfmt() {
	sed -n 's/^print fmt: //p' $E/$1/format
}
# lines EVENT [TRACE]: what EVENT recorded, one record a line.
lines() {
	sed -n "s/.* $1: //p" ${2:-$T/trace}
}
L255=$(printf '%255s' '' | tr ' ' L)

# trace_event= on the command line enabled a vmlinux marker's event.
if grep -q 'trace_event=markers:markers_kunit_noargs' /proc/cmdline; then
	check "enabled at boot by trace_event=" \
		eq "$(cat $E/markers_kunit_noargs/enable)" 1
	echo 0 > $E/markers_kunit_noargs/enable
fi

check "test_marker_events loads" modprobe test_marker_events
for ev in tme_basic tme_noname tme_dup tme_ints tme_narrow tme_longs tme_str \
	tme_partial tme_edge tme_noargs tme_unpatched; do
	for f in enable format filter trigger id; do
		[ -e $E/$ev/$f ] || { echo "  $E/$ev/$f missing"; rc=1; }
	done
done
check "an event per marker of the module, with its files" eq $rc 0

# Format files: the fields from the format, and a print fmt libtraceevent
# parses.
check "tme_basic: pid, comm, value" eq "$(fields tme_basic | tr '\n' ,)" \
	"int pid 8 4 1,__data_loc char[] comm 12 4 0,unsigned long long value 16 8 0,"
check "tme_basic: print fmt" eq "$(pfmt tme_basic)" \
	'"pid %d comm %s value %llu", REC->pid, __get_str(comm), REC->value'
check "tme_noname: arg1, arg2, arg3" eq "$(pfmt tme_noname)" \
	'"%d-%u %s", REC->arg1, REC->arg2, __get_str(arg3)'
check "tme_dup: duplicate names made unique" eq "$(pfmt tme_dup)" \
	'"x %d x %d", REC->x, REC->x_2'
# A char field is signed as the kernel's char is (as TRACE_EVENT's is):
# unsigned on every architecture, which the kernel builds with
# -funsigned-char.
# %hh and %h fields are 1 and 2 bytes, as a TRACE_EVENT's s8 and s16,
# and keep their length modifier in the print fmt: libtraceevent takes a
# field's sign from there.
check "tme_ints: every conversion typed" \
	eq "$(fields tme_ints | tr '\n' ,)" \
	"$(j "char c 8 1 0,signed char hh 9 1 1," \
		"unsigned char uhh 10 1 0,short h 12 2 1," \
		"unsigned short uh 14 2 0,int i 16 4 1," \
		"unsigned int u 20 4 0,unsigned int x 24 4 0," \
		"unsigned int X 28 4 0,unsigned int o 32 4 0,")"
check "tme_ints: print fmt" eq "$(pfmt tme_ints)" \
	"$(j '"c %c hh %hhd uhh %hhu h %hd uh %hu i %d u %u x %x X %X o %o", ' \
		'REC->c, REC->hh, REC->uhh, REC->h, REC->uh, REC->i, REC->u, ' \
		'REC->x, REC->X, REC->o')"
check "tme_narrow: 1- and 2-byte fields" eq "$(fields tme_narrow | tr '\n' ,)" \
	"$(j "signed char hh 8 1 1,unsigned char uhh 9 1 0,short h 10 2 1," \
		"unsigned short uh 12 2 0,")"
check "tme_narrow: print fmt" eq "$(pfmt tme_narrow)" \
	"$(j '"hh %hhd uhh %hhu h %hd uh %hu", REC->hh, REC->uhh, REC->h, ' \
		'REC->uh')"
# layout "TYPE NAME SIZE SIGNED"...: the fields as the format file gives
# them, one after the other from offset 8 (after the common fields).
layout() {
	off=8
	for f; do
		sgn=${f##* }
		f=${f% *}
		printf '%s %d %d %d,' "${f% *}" $off ${f##* } $sgn
		off=$((off + ${f##* }))
	done
}
# long, size_t and pointers are 4 bytes on 32-bit kernels; there
# 5 * -1000000000L wraps (the kernel builds with -fno-strict-overflow).
case "$(uname -m)" in
i?86|arm|armv*)	L=4; longs_l="l -705032704 ul 4294967290" ;;
*)		L=8; longs_l="l -5000000000 ul 18446744073709551610" ;;
esac
check "tme_longs: every length modifier typed" \
	eq "$(fields tme_longs | tr '\n' ,)" \
	"$(layout "long l $L 1" "unsigned long ul $L 0" "long long ll 8 1" \
		"unsigned long long ull 8 0" "size_t z $L 0" "ssize_t zd $L 1" \
		"ptrdiff_t t $L 1" "unsigned long p $L 0" "unsigned int w 4 0" \
		"int pad 4 1")"
check "tme_longs: print fmt" eq "$(pfmt tme_longs)" \
	"$(j '"l %ld ul %lu ll %lld ull %llu z %lu zd %ld t %ld p 0x%lx ' \
		'w %08x pad %-4d end", REC->l, REC->ul, REC->ll, REC->ull, ' \
		'REC->z, REC->zd, REC->t, REC->p, REC->w, REC->pad')"
check "tme_str: quotes and %% escaped" eq "$(pfmt tme_str)" \
	"$(j '"s %s empty %s null %s quote \"%s\" pct %% long %s", ' \
		'__get_str(s), __get_str(empty), __get_str(null), ' \
		'__get_str(arg4), __get_str(long)')"
check "tme_partial: what cannot be typed has no field" \
	eq "$(pfmt tme_partial)" '"ok %d sym ? w ? after %u", REC->ok, REC->after'
check "tme_partial: said so in one line" \
	eq "$(dmesg | grep -c 'markers: event tme_partial: not recorded: %pS %\*d$')" 1
check "tme_edge: names after =, : and 0x; precision kept" \
	eq "$(fields tme_edge | tr '\n' ,)" \
	"$(layout "int a 4 1" "unsigned int b 4 0" "unsigned long addr $L 0" \
		"__data_loc char[] w 4 0")"
check "tme_edge: nothing past a conversion the parser does not know" \
	eq "$(pfmt tme_edge)" \
	'"a=%d b: %u addr 0x%lx pct %%d w %5.3s m ", REC->a, REC->b, REC->addr, __get_str(w)'
check "tme_edge: said so in one line" \
	eq "$(dmesg | grep -c 'markers: event tme_edge: not recorded: from "%m after %d" on$')" 1
check "tme_noargs: no field, an empty print fmt" \
	eq "$(fields tme_noargs | wc -l) $(pfmt tme_noargs)" '0 ""'

# Enabling one event records its marker only.
echo > $T/trace
check "tme_basic enabled" sh -c "echo 1 > $E/tme_basic/enable"
check "its probe is connected" \
	eq "$(grep -c '^tme_basic test_marker_events sites=2 armed=2 probes=1 ' \
		/sys/kernel/debug/markers/markers)" 1
echo 5 > $P/pass
check "tme_basic disabled" sh -c "echo 0 > $E/tme_basic/enable"
echo 6 > $P/pass
check "recorded while enabled, the fields printed by the format" \
	eq "$(lines tme_basic)" "pid 5 comm tme5 value 10000000005"
check "nothing else recorded" eq "$(grep -c 'tme_' $T/trace)" 1
check "its probe is gone" \
	eq "$(grep -c '^tme_basic test_marker_events sites=2 armed=0 probes=0 ' \
		/sys/kernel/debug/markers/markers)" 1

# Every conversion recorded and printed as printk() would (%p unhashed).
echo > $T/trace
echo 1 > $E/enable
echo 5 > $P/pass
echo 0 > $E/enable
check "tme_noname" eq "$(lines tme_noname)" "5-6 tme5"
check "tme_dup" eq "$(lines tme_dup)" "x 5 x -5"
check "tme_ints" eq "$(lines tme_ints)" \
	"c F hh -5 uhh 205 h -500 uh 60005 i -5 u 4000000005 x dead0005 X DEAD0005 o 5"
check "tme_narrow" eq "$(lines tme_narrow)" "hh -5 uhh 205 h -500 uh 60005"
check "tme_longs" eq "$(lines tme_longs)" \
	"$(j "$longs_l ll -5000000000000000 " \
		"ull 18000000000000000005 z 15 zd -5 t -10 p 0x1005 " \
		"w 00000005 pad 5    end")"
check "tme_str: empty, NULL, bounded strings" eq "$(lines tme_str)" \
	"s tme5 empty  null (null) quote \"tme5\" pct % long $L255"
check "tme_partial" eq "$(lines tme_partial)" "ok 5 sym ? w ? after 6"
check "tme_edge" eq "$(lines tme_edge)" "a=5 b: 6 addr 0x1005 pct %d w   abc m "
check "tme_unpatched: read with va_arg()" eq "$(lines tme_unpatched)" \
	"n 5 s tme5 v -5000000000000 c F"
check "tme_noargs" eq "$(grep -c ' tme_noargs: $' $T/trace)" 1

# Filters on the fields: one that drops, one that keeps.
echo > $T/trace
check "filter pid > 100" sh -c "echo 'pid > 100' > $E/tme_basic/filter"
echo 1 > $E/tme_basic/enable
echo 50 > $P/burst
check "drops every pass of 50" eq "$(lines tme_basic | wc -l)" 0
echo 103 > $P/burst
check "keeps 101 and 102 of 103" eq "$(lines tme_basic | cut -d' ' -f2 | tr '\n' ' ')" \
	"101 102 "
check "filter on the string" sh -c "echo 'comm == \"tme7\"' > $E/tme_basic/filter"
echo > $T/trace
echo 10 > $P/burst
check "keeps the one pass" eq "$(lines tme_basic)" "pid 7 comm tme7 value 10000000007"
check "a filter on no field refused" sh -c "! echo 'nosuch > 1' > $E/tme_basic/filter 2>/dev/null"
echo 0 > $E/tme_basic/filter
echo 0 > $E/tme_basic/enable
# The 1- and 2-byte fields compare with their sign.
check "filter on narrow signed fields" \
	sh -c "echo 'hh < 0 && h == -700 && uhh == 207' > $E/tme_ints/filter"
echo > $T/trace
echo 1 > $E/tme_ints/enable
echo -3 > $P/pass
echo 7 > $P/pass
echo 0 > $E/tme_ints/enable
echo 0 > $E/tme_ints/filter
check "  keeps hh -7, drops hh 3" eq "$(lines tme_ints | cut -d' ' -f3-8)" \
	"hh -7 uhh 207 h -700"

# A hist trigger keyed on a field.
check "hist trigger keyed on pid" \
	sh -c "echo 'hist:keys=pid:vals=value' > $E/tme_basic/trigger"
echo 4 > $P/burst
check "one entry per pid, hit once each" \
	eq "$(grep -c '^{ pid: *[0-3] } hitcount: *1 ' $E/tme_basic/hist)" 4
check "with the values summed" \
	eq "$(grep -c 'value: *1000000000[0-3]$' $E/tme_basic/hist)" 4
echo '!hist:keys=pid:vals=value' > $E/tme_basic/trigger
echo > $T/error_log
check "a trigger on no field refused" \
	sh -c "! echo 'hist:keys=nosuch' > $E/tme_basic/trigger 2>/dev/null"
check "and said in error_log" eq "$(grep -c 'markers:tme_basic' $T/error_log)" 1

# An instance: its own copy of the event, its own probe.
I=$T/instances/markers_test
mkdir $I
echo > $T/trace
check "enabled in an instance" sh -c "echo 1 > $I/events/markers/tme_basic/enable"
echo 8 > $P/pass
check "recorded in the instance" eq "$(lines tme_basic $I/trace)" \
	"pid 8 comm tme8 value 10000000008"
check "not at the top" eq "$(lines tme_basic | wc -l)" 0
echo 1 > $E/tme_basic/enable
check "both enabled: two probes" \
	eq "$(grep -c '^tme_basic .* probes=2 ' /sys/kernel/debug/markers/markers)" 1
echo 9 > $P/pass
check "both record" eq "$(lines tme_basic | wc -l) $(lines tme_basic $I/trace | wc -l)" "1 2"
echo 0 > $E/tme_basic/enable
check "the instance removed while enabled" rmdir $I
check "no probe left" \
	eq "$(grep -c '^tme_basic .* probes=0 ' /sys/kernel/debug/markers/markers)" 1

# Non-root users are refused.
check "non-root refused" "$(dirname "$0")/nonroot_open" \
	$E/tme_basic/enable $E/tme_basic/filter $E/tme_basic/trigger \
	$E/tme_basic/format

# The module goes while its events record: they go with it.  Its
# parameters do not hold it: a burst may still pass its markers while it
# goes (before the core disarmed a going module's sites, KASAN saw the
# probe read its freed event file).
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

# A second format for the same name: refused, the event unchanged.
check "a module with a clashing format loads" modprobe test_marker_events_clash
check "its format refused, in one line" \
	eq "$(dmesg | grep -c "$(j 'markers: event tme_basic: format "pid %u" ' \
		'of test_marker_events_clash differs')")" 1
check "the event keeps its format" eq "$(pfmt tme_basic)" \
	'"pid %d comm %s value %llu", REC->pid, __get_str(comm), REC->value'
check "test_marker_events unloads" modprobe -r test_marker_events
check "the event went with the last marker of its format" \
	eq "$(ls $E | grep -c '^tme_basic$')" 0
check "test_marker_events_clash unloads" modprobe -r test_marker_events_clash
check "loaded first, the other format makes the event" \
	modprobe test_marker_events_clash
check "with its own field" eq "$(pfmt tme_basic)" '"pid %u", REC->pid'
modprobe -r test_marker_events_clash

# vmlinux's markers (the KUnit suites') have events too.
check "vmlinux markers have events" \
	eq "$(pfmt markers_kunit_mixed)" \
	'"a %d b %lld s %s", REC->a, REC->b, __get_str(s)'
exit $rc
