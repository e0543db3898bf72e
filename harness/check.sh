#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh: build every variant ($VARIANTS: default, debug, generic,
# nopreempt and arm64), lint, and boot each with $SMP CPUs, where the
# built-in KUnit suites and (but for nopreempt) the kselftests run; count
# the results of all console logs.  The last line is `N passed, N
# failed`; non-zero if anything failed.
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
# default preempts tasks in the kernel; debug does not (a held task then
# gives its CPU up itself, and the patcher must never wait for it).
boot_args_default="preempt=full $boot_ev"
boot_args_debug="preempt=none $boot_ev"
boot_args_generic="$boot_ev"
# No preempt count: the x86 suite whose cases say what a kernel without
# one does (no task held), and the stress case.
boot_args_nopreempt="kunit.filter_glob=markers_x86"
# arm64: marker sites are jump labels.
boot_args_arm64="$boot_ev"

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
	args=boot_args_$v
	log "$v: booting (console in $(builddir "$v")/console-check.log)"
	bash "$TOP/harness/boot.sh" "$v" check ${!args} > /dev/null
	rc=$?
	[ $rc = 0 ] || results+=(--fail "qemu-$v-exit-$rc")
	logs+=("$(builddir "$v")/console-check.log")
done
exec python3 "$TOP/harness/count.py" "${results[@]}" "${logs[@]}"
