#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: `make bench`.  Build the default variant and boot it three
# times to run lib/markers_bench.c (see harness/guest/bench.sh):
#   1. -icount shift=0,sleep=off, 1 CPU: sections 1-3 in instructions,
#      repeatable (the guest TSC counts instructions);
#   2. single-threaded TCG, 2 CPUs run in turn: sections 4-5, arming and
#      holds;
#   3. multi-threaded TCG, 2 CPUs: sections 1-3 again in wall-clock ns.
# Then harness/bench.py writes out/bench/bench.{md,csv,png}.  Under
# -icount QEMU 7.2 never brings a second CPU up (the boot CPU waits in
# schedule() for it, at boot and on hotplug alike), so sections 4-5 use
# host time, which is noisy; their sync counts are exact.  Not
# multi-threaded TCG: there a vCPU went on running stale translations of
# a static key's sites, looping in a function without a loop.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

dir=$OUT/bench
b=$(builddir default)
mkdir -p "$dir"
bash "$TOP/harness/build.sh" default || exit 1
# python3-matplotlib draws the plot; Debian's python3 has it.
if ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
	log "installing python3-matplotlib for the plot"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends python3-matplotlib > /dev/null ||
		log "no python3-matplotlib: no plot"
fi

boot() { # NAME PART RUNS [boot.sh environment...]
	local name=$1 part=$2 runs=$3
	shift 3
	log "bench: boot $name (bench.part=$part)"
	env "$@" GUEST_TIMEOUT=1800 bash "$TOP/harness/boot.sh" default bench \
		preempt=full kunit.filter_glob=none_such bench.part="$part" \
		markers_bench.runs=$runs > /dev/null
	local rc=$?
	cp "$b/console-bench.log" "$dir/console-$name.log"
	grep -q '^bench: done' "$dir/console-$name.log" ||
		die "the $name boot did not finish (exit $rc); see $dir/console-$name.log"
}

boot icount pass 7 SMP=1 TCG_THREAD=single \
	QEMU_EXTRA="-icount shift=0,sleep=off"
boot arm arm 3 SMP=2 TCG_THREAD=single
boot wall pass 7 SMP=2 TCG_THREAD=multi
/usr/bin/python3 "$TOP/harness/bench.py" "$dir" "$b/lib/markers_bench.ko" \
	"$dir/console-icount.log" "$dir/console-arm.log" \
	"$dir/console-wall.log"
log "bench: tables in $dir/bench.md and bench.csv"
