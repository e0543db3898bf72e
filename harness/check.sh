#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh: build every variant ($VARIANTS: debug, the longest boot,
# first, then default, generic, nopreempt and arm64), lint, and boot each
# with $SMP CPUs, where the built-in KUnit suites and (but for nopreempt)
# the kselftests run; count the results of all console logs.  The last
# line is `N passed, N failed`; non-zero if anything failed.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

results=()
logs=()
# The result counter itself: a clean log passes, a planted oops fails.
if bash "$TOP/harness/tests/count-test.sh"; then
	results+=(--pass count-test)
else
	results+=(--fail count-test)
fi
# trace_event= enables a vmlinux marker's event at boot (test_events.sh).
boot_ev="trace_event=markers:markers_kunit_noargs"
# default preempts as Debian boots it, voluntarily (a held task gives its
# CPU up itself, and the patcher must never wait for it), with FRED on
# where the CPU has it (QEMU's has not); debug is PREEMPT_RT.
boot_args_default="fred=on $boot_ev"
boot_args_debug="$boot_ev"
boot_args_generic="$boot_ev"
# No preempt count: the x86 suite whose cases say what a kernel without
# one does (no task held), and the stress case; on a Skylake, with call
# depth tracking on (harness/boot.sh).
boot_args_nopreempt="kunit.filter_glob=markers_x86 spectre_v2=retpoline retbleed=stuff"
# arm64: marker sites are jump labels.
boot_args_arm64="$boot_ev"

# A boot runs the emulator on one host thread: it goes on in the
# background while the next variant builds, one boot at a time while
# building, two once every build is done.
declare -A booting=()
queue=()

boot_start() {
	local v=$1 args=boot_args_$1

	log "$v: booting (console in $(builddir "$v")/console-check.log)"
	bash "$TOP/harness/boot.sh" "$v" check ${!args} > /dev/null &
	booting[$!]=$v
}

# boot_done PID: record the results of the boot PID, which has ended.
boot_done() {
	local pid=$1 rc v=${booting[$1]}

	wait "$pid"
	rc=$?
	unset "booting[$pid]"
	[ $rc = 0 ] || results+=(--fail "qemu-$v-exit-$rc")
	# The boot where the call in a site's block must count call depth.
	if [ "$v" = nopreempt ]; then
		if grep -q "RETBleed: Mitigation: Stuffing" \
			"$(builddir "$v")/console-check.log"; then
			results+=(--pass "call-depth-tracking-$v")
		else
			results+=(--fail "call-depth-tracking-$v")
		fi
	fi
}

# boot_reap: wait for one boot to end.
boot_reap() {
	local pid

	wait -n -p pid "${!booting[@]}"
	boot_done "$pid"
}

# boot_poll: record the boots that have ended, without waiting.
boot_poll() {
	local pid

	for pid in "${!booting[@]}"; do
		kill -0 "$pid" 2>/dev/null || boot_done "$pid"
	done
}

# boot_queued MAX: start queued boots while fewer than MAX run.
boot_queued() {
	local max=$1

	while [ ${#queue[@]} -gt 0 ]; do
		while [ ${#booting[@]} -ge "$max" ]; do
			boot_reap
		done
		boot_start "${queue[0]}"
		queue=("${queue[@]:1}")
	done
}

for v in $VARIANTS; do
	rm -f "$(builddir "$v")/console-check.log"
	if ! bash "$TOP/harness/build.sh" "$v"; then
		results+=(--fail "build-$v")
		continue
	fi
	results+=(--pass "build-$v")
	# Where MARK() sites are jump labels, objdump shows them as such.
	if [ "$v" = generic ] || [ "$v" = arm64 ]; then
		if python3 "$TOP/harness/jump-check.py" "$(variant_cross "$v")" \
			"$(builddir "$v")/lib/test_markers.ko"; then
			results+=(--pass "jump-labels-$v")
		else
			results+=(--fail "jump-labels-$v")
		fi
	fi
	if [ "$v" = default ]; then
		if bash "$TOP/harness/lint.sh" > "$OUT/lint.log" 2>&1; then
			results+=(--pass lint)
		else
			cat "$OUT/lint.log"
			results+=(--fail lint)
		fi
	fi
	logs+=("$(builddir "$v")/console-check.log")
	queue+=("$v")
	# Start one now if no other boot runs, else after the next build.
	boot_poll
	if [ ${#booting[@]} -eq 0 ]; then
		boot_start "${queue[0]}"
		queue=("${queue[@]:1}")
	fi
done
boot_queued 2
while [ ${#booting[@]} -gt 0 ]; do
	boot_reap
done
exec python3 "$TOP/harness/count.py" "${results[@]}" "${logs[@]}"
