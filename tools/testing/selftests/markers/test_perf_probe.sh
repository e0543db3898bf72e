#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perf probe (the distribution's) places a kprobe event on a marker site
# by its MARK_SYM symbol, without debuginfo: from kallsyms for vmlinux,
# from the module's own symbol table for a module, where perf takes only
# function symbols.  The event fires once per pass, the site armed or
# not, and goes with perf probe -d.
. "$(dirname "$0")/lib.sh"
require_root
require_tool perf
require_module test_markers
tracefs
export PAGER=cat PERF_PAGER=cat
M=/sys/module/test_markers/parameters
data=/tmp/markers-perf-probe.data
unload_all
no_record_cmd

# hits EVENT COMMAND: how many times perf stat counted EVENT in COMMAND.
hits() {
	ev=$1
	shift
	perf stat -x, -e "$ev" -- "$@" 2>&1 | grep ",$ev," | cut -d, -f1
}

check "test_markers loads" modprobe test_markers
sym=$(grep -o ' __mark\.test_markers_event\.test_markers\.[0-9.]*' \
	/proc/kallsyms)
sym=$(echo $sym)
check "a MARK_SYM of test_markers_event" test -n "$sym"

check "perf probe -m test_markers site=$sym" \
	sh -c "perf probe -q -m test_markers -a 'site=$sym'"
check "  a kprobe event on the symbol" \
	eq "$(grep -c "^p:probe/site test_markers:$sym\$" $T/kprobe_events)" 1
check "  perf probe -l names the function" sh -c "perf probe -l 2>&1 |
	grep -q 'probe:site .*(on test_markers_event+[0-9]* in test_markers)'"
check "  perf stat counts 2 passes" \
	eq "$(hits probe:site sh -c "echo 3 > $M/pass; echo 4 > $M/pass")" 2

E=$T/events/markers/test_markers_event
echo 1 > $E/enable
check "  and 1 pass with the site armed" \
	eq "$(hits probe:site sh -c "echo 5 > $M/pass")" 1
echo 0 > $E/enable

perf record -q -N -B -e probe:site -a -o $data -- \
	sh -c "echo 6 > $M/pass" > /dev/null 2>&1
check "  perf record samples the pass" \
	eq "$(perf script -i $data 2>/dev/null | grep -c ' probe:site: ')" 1
rm -f $data
check "perf probe -d site" sh -c "perf probe -q -d site"
check "  the kprobe event went" \
	eq "$(grep -c 'probe/site ' $T/kprobe_events)" 0

# A site of vmlinux, by the name in /proc/kallsyms.
ksym=$(awk '$3 ~ /^__mark\./ && NF == 3 { print $3; exit }' /proc/kallsyms)
if [ -n "$ksym" ]; then
	check "perf probe vsite=$ksym" \
		sh -c "perf probe -q -a 'vsite=$ksym'"
	check "  a kprobe event in vmlinux" \
		eq "$(grep -c '^p:probe/vsite ' $T/kprobe_events)" 1
	check "perf probe -d vsite" sh -c "perf probe -q -d vsite"
else
	echo "markers: no marker site in vmlinux"
fi
check "test_markers unloads" modprobe -r test_markers
exit $rc
