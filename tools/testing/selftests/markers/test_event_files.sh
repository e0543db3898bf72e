#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every tracefs file of a module's marker event, held open while the
# module goes, in the top level and in an instance: a read or a write
# through it afterwards answers "No such device", touches nothing freed
# (KASAN in the debug variant) and connects no probe.
. "$(dirname "$0")/lib.sh"
require_root
require_module test_marker_events
tracefs
no_record_cmd
H="$(dirname "$0")/hold_file"
K=/sys/kernel/debug/markers/markers
I=$T/instances/markers_files
ready=/tmp/markers-files.ready
go=/tmp/markers-files.go
out=/tmp/markers-files.out
modprobe -q -r test_marker_events 2>/dev/null
rmdir $I 2>/dev/null
mkdir $I

# waiting: probes connected to a name that no loaded code has.
waiting() {
	grep -c ' - sites=0 ' $K
}

# held DIR FILE r|w [DATA]: FILE of tme_basic under DIR, opened while the
# module is loaded, used once it is gone; prints what the use gave.
held() {
	rm -f $ready $go $out
	modprobe test_marker_events || return 1
	$H "$1/tme_basic/$2" $3 "${4:-}" $ready $go > $out &
	_i=0
	while [ ! -e $ready ] && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	modprobe -r test_marker_events
	touch $go
	wait
	cat $out
}

# hist_debug exists with CONFIG_HIST_TRIGGERS_DEBUG only.
check "test_marker_events loads" modprobe test_marker_events
files=
for f in enable filter trigger format id hist hist_debug; do
	[ -e $T/events/markers/tme_basic/$f ] && files="$files $f"
done
check "tme_basic has its files" eq "${files% hist_debug}" \
	" enable filter trigger format id hist"
check "test_marker_events unloads" modprobe -r test_marker_events

w0=$(waiting)
dmesg -c > /dev/null
for d in $T/events/markers $I/events/markers; do
	where=${d#$T/}
	for f in $files; do
		check "$where: $f read after the unload" \
			eq "$(held $d $f r)" "read: No such device"
	done
	for fw in "enable 1" "filter pid>1" "trigger hist:keys=common_pid" \
		  "trigger traceoff"; do
		f=${fw%% *}
		check "$where: $f write '${fw#* }' after the unload" \
			eq "$(held $d $f w "${fw#* }")" "write: No such device"
	done
done
check "no probe left waiting for a name" eq "$(waiting)" "$w0"
check "no splat" eq "$(dmesg | grep -c -e 'BUG' -e 'WARNING' -e 'KASAN' -e 'Oops')" 0
rmdir $I
rm -f $ready $go $out
exit $rc
