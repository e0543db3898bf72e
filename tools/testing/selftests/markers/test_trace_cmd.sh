#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# trace-cmd (the distribution's, with its libtraceevent) records markers
# as trace events and decodes them from their format files alone: the
# text by the print format, each field by its name and type (report -R
# and report -F filters).  test_marker_events passes each of its markers
# once per write to its "pass" parameter.
. "$(dirname "$0")/lib.sh"
require_root
require_tool trace-cmd
require_module test_marker_events
tracefs
M=/sys/module/test_marker_events/parameters
EVENTS="tme_basic tme_noname tme_dup"
dat=/tmp/markers-trace-cmd.dat
log=/tmp/markers-trace-cmd.log
export PAGER=cat
modprobe -q -r test_marker_events 2>/dev/null
# trace-cmd record enables events; keep record-cmd from switching the
# sched_switch tracepoint with them (see lib.sh).  trace-cmd does not
# touch the option itself.
no_record_cmd
# trace-cmd 3.1 forks a recorder per CPU, then the command; a recorder
# told to stop before it reads keeps nothing, and a short command may
# end before the recorders start.  So the command first waits (10 s at
# most) until every CPU's trace_pipe_raw is open.
cpus=$(ls -d $T/per_cpu/cpu* | wc -l)
wait_recorders="i=0; while [ \$i -lt 100 ] &&
	[ \$(ls -l /proc/[0-9]*/fd 2>/dev/null |
	     grep -c '/trace_pipe_raw\$') -lt $cpus ]; do
	sleep 0.1; i=\$((i + 1)); done"

# text REPORT EVENT: the text of EVENT's records in REPORT, one a line.
# trace-cmd pads the event's name with spaces.
text() {
	printf '%s\n' "$1" | sed -n "s/.* $2: *//p" | sed 's/[[:space:]]*$//'
}
# records REPORT: how many records of the three events REPORT shows.
records() {
	printf '%s\n' "$1" | grep -c -e ' tme_basic: ' -e ' tme_noname: ' \
		-e ' tme_dup: '
}
# has TEXT WORD...: each WORD is one of the words of TEXT.
has() {
	_t=$1
	shift
	for _w; do
		case " $_t " in
		*" $_w "*) ;;
		*) echo "  got '$_t', expected '$_w' in it"; return 1 ;;
		esac
	done
}
# kept FILTER EVENT TEXT: trace-cmd report -F FILTER shows one record,
# of EVENT, with TEXT.  -F before -i: trace-cmd 3.1 ignores a filter
# that follows -i (fixed in 3.2).  Events that FILTER does not name are
# filtered out.
kept() {
	_r=$(trace-cmd report -F "$1" -i $dat 2>&1) ||
		{ echo "  trace-cmd report -F '$1' failed: $_r"; return 1; }
	eq "$(text "$_r" "$2")" "$3" && eq "$(records "$_r")" 1
}
# dropped FILTER: trace-cmd report -F FILTER takes FILTER and shows no
# record.
dropped() {
	_r=$(trace-cmd report -F "$1" -i $dat 2>&1) ||
		{ echo "  trace-cmd report -F '$1' failed: $_r"; return 1; }
	eq "$(records "$_r")" 0
}

# Its events' files: ftracetest's test.d/markers/marker-event-format.tc.
check "test_marker_events loads" modprobe test_marker_events

trace-cmd record -e markers:tme_basic -e markers:tme_noname \
	-e markers:tme_dup -e markers:tme_narrow -o $dat -- \
	sh -c "$wait_recorders; echo \$\$ > $log.pid; echo 7 > $M/pass" \
	> $log 2>&1
st=$?
check "trace-cmd record" eq $st 0
[ $st = 0 ] || cat $log
pid=$(cat $log.pid 2>/dev/null)
for e in $EVENTS; do
	check "  it leaves markers:$e off" \
		eq "$(cat $T/events/markers/$e/enable)" 0
done

report=$(trace-cmd report -i $dat 2>&1)
check "trace-cmd report" eq $? 0
check "  tme_basic, decoded by its print format" \
	eq "$(text "$report" tme_basic)" "pid 7 comm tme7 value 10000000007"
check "  tme_noname" eq "$(text "$report" tme_noname)" "7-8 tme7"
check "  tme_dup" eq "$(text "$report" tme_dup)" "x 7 x -7"
check "  nothing else" eq "$(records "$report")" 3
# 1- and 2-byte fields, negative ones read back with their sign.
check "  tme_narrow, its fields signed" \
	eq "$(text "$report" tme_narrow)" "hh -7 uhh 207 h -700 uh 60007"
check "  nothing FAILED TO PARSE" \
	eq "$(printf '%s\n' "$report" | grep -c 'FAILED TO PARSE')" 0
check "  nothing [UNKNOWN" \
	eq "$(printf '%s\n' "$report" | grep -c '\[UNKNOWN')" 0

# -R: each field as name=value, read by its offset, size and signedness
# in the format file and printed with the conversion that the print
# format gives it (libtraceevent's tep_print_fields()).
raw=$(trace-cmd report -R -i $dat 2>&1)
check "trace-cmd report -R" eq $? 0
check "  tme_basic's fields" \
	has "$(text "$raw" tme_basic)" pid=7 comm=tme7 value=10000000007
check "  tme_noname's fields, named by position" \
	has "$(text "$raw" tme_noname)" arg1=7 arg2=8 arg3=tme7
check "  tme_dup's fields, the second x renamed" \
	has "$(text "$raw" tme_dup)" x=7 x_2=-7
check "  tme_narrow's fields" \
	has "$(text "$raw" tme_narrow)" hh=-7 uhh=207 h=-700 uh=60007
check "  nothing FAILED TO PARSE" \
	eq "$(printf '%s\n' "$raw" | grep -c 'FAILED TO PARSE')" 0

# Filters: libtraceevent reads each field by its offset, size and
# signedness and compares it as a 64-bit number or as a string.
B="pid 7 comm tme7 value 10000000007"
check "filter on an int keeps" kept 'markers/tme_basic:pid==7' tme_basic "$B"
check "  and drops" dropped 'markers/tme_basic:pid==8'
check "filter on a string keeps" \
	kept 'markers/tme_basic:comm=="tme7"' tme_basic "$B"
check "  and drops" dropped 'markers/tme_basic:comm=="tme8"'
check "filter on 64 bits keeps" \
	kept 'markers/tme_basic:value==10000000007' tme_basic "$B"
# 10000000007 cut to 32 bits
check "  and drops" dropped 'markers/tme_basic:value==1410065415'
check "filter on the writer's pid keeps" \
	kept "markers/tme_basic:common_pid==$pid" tme_basic "$B"
check "filter on tme_noname's fields keeps" \
	kept 'markers/tme_noname:arg1==7 && arg2==8 && arg3=="tme7"' \
	tme_noname "7-8 tme7"
check "  and drops" dropped 'markers/tme_noname:arg2==7'
# The filter compares as unsigned 64-bit: a signed int of -7 reads as
# 2^64 - 7, an unsigned one as 2^32 - 7.
check "filter on tme_dup's fields keeps" \
	kept 'markers/tme_dup:x==7 && x_2==18446744073709551609' \
	tme_dup "x 7 x -7"
check "  and drops" dropped 'markers/tme_dup:x_2==7'

check "test_marker_events unloads" modprobe -r test_marker_events
rm -f $dat $log $log.pid
exit $rc
