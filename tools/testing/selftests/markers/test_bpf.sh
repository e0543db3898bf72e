#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# BPF tracepoint programs run on marker events, raw tracepoint programs
# on markers.  bpf_count attaches a tracepoint program
# to a perf event of the marker's event on CPU 0, through
# PERF_EVENT_IOC_SET_BPF or a BPF link, and passes the marker on every
# CPU in turn: the program counts the hits, sums an integer field of the
# record (sign-extended if signed) and counts the hits whose string field
# starts with a prefix.  test_marker_events passes tme_basic K times per
# write of K to its "burst" parameter (pid 0..K-1, comm "tme<i>", value
# 10000000000 + i), and every marker once per write of N to "pass"
# (tme_ints: hh -N, uhh N + 200, h -100N, uh N + 60000).
. "$(dirname "$0")/lib.sh"
require_root
require_module test_marker_events
if [ ! -e /proc/sys/kernel/bpf_stats_enabled ]; then
	echo "markers: no bpf syscall"
	exit $ksft_skip
fi
tracefs
E=$T/events/markers
M=/sys/module/test_marker_events/parameters

# Where FIELD of EVENT ends in its record, as its format file says.
field_end() { # EVENT FIELD
	sed -n "s/.* $2;\toffset:\([0-9]*\);\tsize:\([0-9]*\);.*/\1 \2/p" \
		$E/$1/format | { read -r o z && echo $((o + z)); }
}
B="$(dirname "$0")/bpf_count"
modprobe -q -r test_marker_events 2>/dev/null
# What the kernel says from here on is ours (dmesg).
start="test_bpf.sh: start $$"
echo "$start" > /dev/kmsg

# online: the number of online CPUs, from ranges such as "0-3,5".
online() {
	n=0
	for r in $(tr ',' ' ' < /sys/devices/system/cpu/online); do
		n=$((n + ${r#*-} - ${r%-*} + 1))
	done
	echo $n
}

# run STATUS ARGS...: bpf_count ARGS, its output in $out and its status
# in $st; the output shown unless the status is STATUS.  A kernel
# without the bpf syscall is a skip.
run() {
	want=$1
	shift
	out=$("$B" "$@" 2>&1)
	st=$?
	case "$out" in
	*": ENOSYS"*)
		echo "markers: no bpf syscall ($out)"
		modprobe -q -r test_marker_events
		exit $ksft_skip
		;;
	esac
	[ "$st" = "$want" ] || printf '%s\n' "$out" | sed 's/^/  | /'
}

# val KEY: the number after KEY on bpf_count's last line,
# "cpus N count C sum S strings M".
val() {
	printf '%s\n' "$out" |
		awk -v k="$1" '$1 == "cpus" { for (i = 1; i < NF; i += 2)
						if ($i == k) v = $(i + 1) }
				END { print v }'
}

check "test_marker_events loads" modprobe test_marker_events
# The end of tme_basic's fixed part: its last field, before the string.
basic_end=$(field_end tme_basic value)
check "tme_basic's value field found in its format" test -n "$basic_end"
# tme_noargs's record: the common fields, then call_site's 8-byte cell
# alone where markers.site_field=1 gives every event that field.
noargs_end=8
grep -q call_site $E/tme_noargs/format && noargs_end=16
ncpus=$(online)
[ "$ncpus" -ge 2 ] ||
	echo "# one CPU online: hits on other CPUs than the perf event's untested"

for a in ioctl link; do
	run 0 -a $a -f pid -s comm:tme $E/tme_basic $M/burst 100
	check "$a: a program on tme_basic, 100 passes on each CPU" eq $st 0
	n=$(val cpus)
	check "  passed on every online CPU" eq "$n" "$ncpus"
	check "  counts every pass, on every CPU" eq "$(val count)" $((n * 100))
	check "  sums pid, a 4-byte signed field" eq "$(val sum)" $((n * 4950))
	check "  reads comm, a __data_loc string" eq "$(val strings)" $((n * 100))

	run 0 -a $a -f value -s comm:tme1 $E/tme_basic $M/burst 100
	check "$a: tme_basic value, 8 bytes" eq "$(val sum)" \
		$((n * (100 * 10000000000 + 4950)))
	check "  comm starting with tme1: 11 of 100" \
		eq "$(val strings)" $((n * 11))

	run 0 -a $a -f hh $E/tme_ints $M/pass 5
	check "$a: tme_ints hh, 1 byte signed" \
		eq "$(val count) $(val sum)" "$n $((n * -5))"
	run 0 -a $a -f uhh $E/tme_ints $M/pass 5
	check "  uhh, 1 byte unsigned" eq "$(val sum)" $((n * 205))
	run 0 -a $a -f h $E/tme_ints $M/pass 5
	check "  h, 2 bytes signed" eq "$(val sum)" $((n * -500))
	run 0 -a $a -f uh $E/tme_ints $M/pass 5
	check "  uh, 2 bytes unsigned" eq "$(val sum)" $((n * 60005))

	run 0 -a $a $E/tme_noargs $M/pass 5
	check "$a: a program on tme_noargs, no field" \
		eq "$(val count) $(val sum) $(val strings)" "$n 0 0"
	# A program may read no further than the record.
	run 2 -a $a -r $noargs_end $E/tme_noargs $M/pass 5
	check "  reading past its record refused" eq "$out" "attach: EACCES"
	run 0 -a $a -r $((basic_end - 4)) $E/tme_basic $M/burst 1
	check "$a: reading tme_basic's last 4 bytes allowed" eq $st 0
	run 2 -a $a -r $basic_end $E/tme_basic $M/burst 1
	check "  the 4 after them refused" eq "$out" "attach: EACCES"

	# The perf event holds the marker's module; the program outlives
	# the attempt to unload it.
	run 0 -a $a -f pid -s comm:tme -u test_marker_events \
		$E/tme_basic $M/burst 100
	check "$a: test_marker_events held while attached" \
		eq "$(printf '%s\n' "$out" | grep '^unload ')" \
		"unload test_marker_events: EAGAIN"
	check "  and the program still runs" \
		eq "$(val count) $(val sum) $(val strings)" \
		"$((n * 200)) $((n * 9900)) $((n * 200))"
	# Loaded again, should the attempt have unloaded it.
	modprobe -q test_marker_events

	# bpftool perf names the attachment by the marker's event.
	if command -v bpftool > /dev/null 2>&1; then
		run 0 -a $a -c 'echo "bpf_count pid $PPID"; bpftool perf' \
			$E/tme_basic $M/burst 1
		pid=$(printf '%s\n' "$out" | sed -n 's/^bpf_count pid //p')
		check "$a: bpftool perf lists the tracepoint tme_basic" \
			eq "$(printf '%s\n' "$out" | grep -c \
			"^pid $pid  fd [0-9]*: prog_id [0-9]*  tracepoint  tme_basic$")" 1
	else
		echo "# $a: no bpftool; bpftool perf not tested"
	fi
done

# Raw tracepoint programs, attached to the marker by name with
# BPF_RAW_TRACEPOINT_OPEN: argument N is ctx->args[N], a u64, '*'
# widths counted, as C promotes it, widened to 64 bits.
run 0 -R -f 0 -s 1:tme tme_basic $M/burst 100
check "raw_tp: a program on tme_basic, 100 passes on each CPU" eq $st 0
n=$(val cpus)
check "  passed on every online CPU" eq "$n" "$ncpus"
check "  counts every pass, on every CPU" eq "$(val count)" $((n * 100))
check "  sums args[0], pid, an int" eq "$(val sum)" $((n * 4950))
check "  reads the string args[1] points to" eq "$(val strings)" $((n * 100))
run 0 -R -f 2 -s 1:tme1 tme_basic $M/burst 100
check "raw_tp: tme_basic args[2], an unsigned long long" eq "$(val sum)" \
	$((n * (100 * 10000000000 + 4950)))
check "  comm starting with tme1: 11 of 100" eq "$(val strings)" $((n * 11))
run 0 -R -f 1 tme_ints $M/pass 5
check "raw_tp: tme_ints args[1], a signed char, sign-extended" \
	eq "$(val count) $(val sum)" "$n $((n * -5))"
run 0 -R -f 2 tme_ints $M/pass 5
check "  args[2], an unsigned char" eq "$(val sum)" $((n * 205))
run 0 -R -f 3 tme_ints $M/pass 5
check "  args[3], a short" eq "$(val sum)" $((n * -500))
run 0 -R -f 4 tme_ints $M/pass 5
check "  args[4], an unsigned short" eq "$(val sum)" $((n * 60005))
run 0 -R -f 2 tme_partial $M/pass 5
check "raw_tp: tme_partial args[2], the '*' width of %*d" \
	eq "$(val sum)" $((n * 3))
run 0 -R -f 4 tme_partial $M/pass 5
check "  args[4], the %u after it" eq "$(val sum)" $((n * 6))
run 0 -R -f 0 markers:tme_basic $M/burst 10
check "raw_tp: markers:tme_basic names the marker too" \
	eq "$(val count) $(val sum)" "$((n * 10)) $((n * 45))"
# A program is a probe of the name: marker_sites selects its sites.
echo 'marker tme_basic func nothing' >> $T/marker_sites
run 0 -R -f 0 tme_basic $M/burst 10
check "raw_tp: no site of tme_basic selected, no hit" \
	eq "$st $(val count)" "0 0"
echo 'marker tme_basic' >> $T/marker_sites
run 0 -R tme_noargs $M/pass 5
check "raw_tp: a program on tme_noargs" eq "$(val count) $(val sum)" "$n 0"
# A program may read the marker's arguments and no further.
run 2 -R -r 0 tme_noargs $M/pass 5
check "  reading args[0] of a marker without arguments refused" \
	eq "$out" "attach: EINVAL"
run 0 -R -r 20 tme_basic $M/burst 1
check "raw_tp: reading the last 4 bytes of tme_basic's args[2] allowed" \
	eq $st 0
run 2 -R -r 24 tme_basic $M/burst 1
check "  args[3] refused" eq "$out" "attach: EINVAL"
run 2 -R tme_no_such_marker $M/burst 1
check "raw_tp: a name without a marker or tracepoint refused" \
	eq "$out" "attach: ENOENT"
# The program holds the marker's module.
run 0 -R -f 0 -u test_marker_events tme_basic $M/burst 100
check "raw_tp: test_marker_events held while attached" \
	eq "$(printf '%s\n' "$out" | grep '^unload ')" \
	"unload test_marker_events: EAGAIN"
check "  and the program still runs" eq "$(val count) $(val sum)" \
	"$((n * 200)) $((n * 9900))"
modprobe -q test_marker_events
if command -v bpftool > /dev/null 2>&1; then
	run 0 -R -c 'bpftool link' tme_basic $M/burst 1
	check "raw_tp: bpftool link names the marker" \
		eq "$(printf '%s\n' "$out" | grep -c "tp 'tme_basic'")" 1
else
	echo "# raw_tp: no bpftool; bpftool link not tested"
fi

# The common fields are the kernel's: the verifier refuses reads of the
# first sizeof(void *) bytes of the record.
case "$(uname -m)" in
i?86|arm|armv*)	common="0" ;;
*)		common="0 4" ;;
esac
for off in $common; do
	run 1 -r $off $E/tme_basic $M/burst 1
	check "a program reading the common fields at $off refused at load" \
		eq "$(printf '%s\n' "$out" | head -1)" "prog load: EACCES"
done

check "test_marker_events unloads after bpf_count exits" \
	modprobe -r test_marker_events
check "no splat in the kernel log" \
	eq "$(dmesg | sed -n "/$start\$/,\$p" | grep -E 'BUG:|WARNING:|Oops')" ""
exit $rc
