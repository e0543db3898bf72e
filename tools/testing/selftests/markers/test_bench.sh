#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# markers_bench: its commands print rows, and bad ones are refused with
# EINVAL and a log line.  (Its figures are not checked here: it is a
# benchmark.)
. "$(dirname "$0")/lib.sh"
require_root
D=/sys/kernel/debug
[ -d $D/markers ] || mount -t debugfs nodev $D
if ! modinfo markers_bench >/dev/null 2>&1; then
	echo "markers: markers_bench not built"
	exit $ksft_skip
fi
R=$D/markers_bench/run
W="$(dirname "$0")/write_file"
rows() {
	dmesg | grep -c "markers_bench: row $1 [0-9][0-9]*\$"
}
# armed: the bench_pass marker's armed sites, from debugfs.  (Not from
# the sites file: naming 11,123 sites there is slow, each a linear
# search of the module's symbols.)
armed() {
	grep '^bench_pass markers_bench ' $D/markers/markers |
		grep -o 'armed=[0-9]*'
}

dmesg -c >/dev/null
check "markers_bench loads" modprobe markers_bench loops=1000 runs=3
for l in empty mark trace_mark tp key flag rec_mark rec_event rec_typed \
	 rec_fn rec_debug; do
	check "time $l" eq "$("$W" $R "time $l t/$l")" ok
	check "  a row for it" eq "$(rows t/$l)" 1
done
check "one probe on the marker" eq "$("$W" $R 'probes mark 1')" ok
check "  armed, its site" eq "$(armed)" armed=1
check "time with it" eq "$("$W" $R 'time mark t/hit')" ok
check "  a row" eq "$(rows t/hit)" 1
check "four probes on the tracepoint" eq "$("$W" $R 'probes tp 4')" ok
check "  the marker is disarmed again" eq "$(armed)" armed=0
check "a kprobe on the marker's site" eq "$("$W" $R 'kprobe 1')" ok
check "  fires: time with it" eq "$("$W" $R 'time mark t/kprobe')" ok
check "  and goes" eq "$("$W" $R 'kprobe 0')" ok
check "probes off" eq "$("$W" $R 'probes tp 0')" ok
check "no such loop: EINVAL" \
	eq "$("$W" $R 'time nosuch x')" "Invalid argument"
check "five probes: EINVAL" \
	eq "$("$W" $R 'probes mark 5')" "Invalid argument"
check "probes on something else: EINVAL" \
	eq "$("$W" $R 'probes nosuch 1')" "Invalid argument"
check "an unknown command: EINVAL (logged as such)" \
	eq "$("$W" $R 'frob')" "Invalid argument"
check "arm with an argument: EINVAL" \
	eq "$("$W" $R 'arm 1')" "Invalid argument"
check "a 1 MB write: EINVAL" \
	eq "$("$W" $R -s 1048576)" "Invalid argument"
check "  each logged" eq "$(dmesg | grep -c -e 'time nosuch: no such loop' \
	-e 'probes mark 5: what is' -e 'probes nosuch 1: what is' \
	-e 'refused: unknown, or bad words' \
	-e 'a write of 1048576 bytes')" 6
dmesg -c >/dev/null
check "trailing words: EINVAL" \
	eq "$("$W" $R 'kprobe 1 junk')" "Invalid argument"
check "  in time too" eq "$("$W" $R 'time empty lbl more')" "Invalid argument"
check "an embedded NUL: EINVAL" \
	eq "$("$W" $R 'probes tp 1\0junk')" "Invalid argument"
check "  and nothing connected" eq "$("$W" $R 'probes tp 0')" ok
check "a label with a newline: EINVAL" \
	eq "$("$W" $R 'time empty x\nmarkers_bench: row forged')" \
	"Invalid argument"
check "  no forged row" eq "$(rows forged)" 0
L=/sys/module/markers_bench/parameters
check "loops=0: refused" eq "$("$W" $L/loops 0)" "Invalid argument"
check "loops over 1,000,000: refused" \
	eq "$("$W" $L/loops 1000001)" "Invalid argument"
check "runs=0 and runs=32: refused" \
	eq "$("$W" $L/runs 0) $("$W" $L/runs 32)" \
	"Invalid argument Invalid argument"
check "  loops and runs unchanged" eq "$(cat $L/loops) $(cat $L/runs)" "1000 3"
# loops changed during a run: the run keeps the value it started with.
( "$W" $R 'time mark t/race' > /tmp/race.out ) &
check "loops=2000 during a run" eq "$("$W" $L/loops 2000)" ok
wait
check "  the run ends" eq "$(cat /tmp/race.out)" ok
check "  with one row" eq "$(rows t/race)" 1
check "  each refused write logged" eq "$(dmesg | grep -c 'markers_bench: .*refused')" 8
check "markers_bench unloads" modprobe -r markers_bench
check "no splat" eq "$(dmesg | grep -c -e 'BUG' -e 'WARNING' -e 'Oops')" 0
exit $rc
