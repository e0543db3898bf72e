#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perf (the distribution's) samples markers as tracepoint events of the
# task that passes them and decodes them by their format file; perf stat
# counts every pass; an event that perf has open holds its module.
# test_marker_events passes each of its markers once per write to its
# "pass" parameter, tme_basic K times per write of K to its "burst"
# parameter.
. "$(dirname "$0")/lib.sh"
require_root
require_tool perf
require_module test_marker_events
tracefs
M=/sys/module/test_marker_events/parameters
data=/tmp/markers-perf.data
log=/tmp/markers-perf.log
ready=/tmp/markers-perf.ready
finished=/tmp/markers-perf.finished
# Never a pager.
export PAGER=cat PERF_PAGER=cat
modprobe -q -r test_marker_events 2>/dev/null
# What the kernel says from here on is ours (dmesg).
start="test_perf.sh: start $$"
echo "$start" > /dev/kmsg

check "test_marker_events loads" modprobe test_marker_events

# -N -B: no build-id cache, no build-id collection (kernel addresses
# only; perf script does not need them).
# perf list names every marker event, a module's included.
list=$(perf list 'markers:*' 2>&1)
check "perf list 'markers:*'" eq $? 0
missing=
for e in $(ls $T/events/markers); do
	[ -d $T/events/markers/$e ] || continue
	printf '%s\n' "$list" | grep -q "^ *markers:$e " || missing="$missing $e"
done
check "  lists every marker event" eq "${missing:-none}" none
check "  of the module too" eq "$(printf '%s\n' "$list" |
	grep -c '^ *markers:tme_[a-z]* *\[Tracepoint event\]')" \
	"$(ls -d $T/events/markers/tme_* | wc -l)"

perf record -N -B -e markers:tme_basic -e markers:tme_narrow -o $data -- \
	sh -c "echo \$\$ > $log.pid; echo 9 > $M/pass" > $log 2>&1
st=$?
check "perf record" eq $st 0
if [ $st != 0 ]; then
	cat $log
	# perf 6.1 record wakes its poll() loop through an eventfd.
	grep -q 'wakeup eventfd' $log &&
		echo "# perf record needs CONFIG_EVENTFD=y"
fi
pid=$(cat $log.pid 2>/dev/null)
script=$(perf script -i $data 2>&1)
check "perf script" eq $? 0
# "COMM PID [CPU] TIME: markers:tme_basic: TEXT"
check "  tme_basic, decoded by its print format" \
	eq "$(printf '%s\n' "$script" |
	      sed -n 's/.* markers:tme_basic: //p' | sed 's/[[:space:]]*$//')" \
	"pid 9 comm tme9 value 10000000009"
check "  sampled in the writing task" \
	eq "$(printf '%s\n' "$script" | grep ' markers:tme_basic: ' |
	      awk '{ print $1, $2 }')" "sh $pid"
check "  tme_narrow, its 1- and 2-byte fields signed" \
	eq "$(printf '%s\n' "$script" |
	      sed -n 's/.* markers:tme_narrow: //p' | sed 's/[[:space:]]*$//')" \
	"hh -9 uhh 209 h -900 uh 60009"
check "  nothing FAILED TO PARSE" \
	eq "$(printf '%s\n' "$script" | grep -c 'FAILED TO PARSE')" 0
[ "$rc" = 0 ] || printf '%s\n' "$script"

# -x,: "COUNT,UNIT,EVENT,RUNNING TIME,PERCENTAGE,,", on standard error.
out=$(perf stat -x, -e markers:tme_basic -- \
	sh -c "echo 1000 > $M/burst" 2>&1)
check "perf stat" eq $? 0
check "  counts 1000 passes of a burst" \
	eq "$(printf '%s\n' "$out" | grep ',markers:tme_basic,' | cut -d, -f1)" \
	1000
[ "$rc" = 0 ] || printf '%s\n' "$out"

# perf holds the module of an event it has open, as for any module's
# event (and as an enable_event trigger does: ftracetest's
# test.d/markers/marker-event-trigger-hold.tc).  perf opens its events
# before it starts the command, which says so and waits (60 s at most)
# for the test.
rm -f $ready $finished
perf stat -e markers:tme_basic -a -- sh -c "touch $ready; i=0;
	while [ ! -e $finished ] && [ \$i -lt 600 ]; do
		sleep 0.1; i=\$((i + 1)); done" > /dev/null 2>&1 &
i=0
while [ ! -e $ready ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "perf holds it: unload refused" \
	sh -c '! modprobe -r test_marker_events 2>/dev/null'
check "  the event still counts" test -d $T/events/markers/tme_basic
touch $finished
wait
check "  perf done, the module unloads" modprobe -r test_marker_events
check "no splat in the kernel log" \
	eq "$(dmesg | sed -n "/$start\$/,\$p" |
	      grep -c -e 'BUG' -e 'WARNING' -e 'KASAN' -e 'Oops')" 0
rm -f $data $log $log.pid $ready $finished
exit $rc
