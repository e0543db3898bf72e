#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh: build every variant ($VARIANTS: debug, the longest boot,
# first, then default, generic, arm64, and nopreempt, the shortest boot,
# last), lint, and boot each with $SMP CPUs, where the built-in KUnit
# suites and (but for nopreempt) the kselftests run; count the results
# of all console logs.  The last line is `N passed, N failed`; non-zero
# if anything failed.
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
# The x86-64 variants build the marker torture test in (base.config): it
# runs at boot, before the KUnit suites, and count.py counts its End of
# test line as one test (a missing line fails).
torture="marker_torture.run_at_boot=1"
# default preempts as Debian boots it, voluntarily (a held task gives its
# CPU up itself, and the patcher must never wait for it), with FRED on
# where the CPU has it (QEMU's has not); debug is PREEMPT_RT.
# markers.select= is in force before test_marker_events loads
# (test_select.sh; tme_typeclash is no other kselftest's), and before
# the markers_select KUnit suite first passes its sites, at boot.
boot_sel='markers.select="marker tme_typeclash func tme_burst; marker markers_select_kunit func pass_sel_b"'
# Marker events record their call site in default, generic and arm64
# (every kind of site, and the dispatchers that note it), not in debug,
# whose x86-64 sites call probes through trampolines meanwhile.
site='markers.site_field=1'
boot_args_default="fred=on $boot_ev $torture $boot_sel $site"
boot_args_debug="$boot_ev $torture $boot_sel"
boot_args_generic="$boot_ev $boot_sel $site"
# No preemption (but a preempt count, and frame pointers): the x86 suite
# whose cases say what such a kernel does (no task held), and the torture
# test; on a Skylake, with call depth tracking on (harness/boot.sh).
boot_args_nopreempt="kunit.filter_glob=markers_x86 spectre_v2=retpoline retbleed=stuff $torture"
# arm64: marker sites are jump labels.
boot_args_arm64="$boot_ev $boot_sel $site"

# A boot runs the emulator on one host thread: boots go on while the
# next variant builds, one at a time while a build runs, two once every
# build is done.  Builds (and lint, after default's) run one at a time.
declare -A jobs=()	# PID -> build:VARIANT or boot:VARIANT
todo=($VARIANTS)
queue=()		# built, waiting to boot
nbuild=0
nboot=0
rdir=$OUT/check-results
rm -rf "$rdir"
mkdir -p "$rdir"

# build_job VARIANT: build, check the sites' bytes, lint after default;
# results go to $rdir/VARIANT, one count.py argument pair per line.
build_job() {
	local v=$1 r=$rdir/$1

	renice -n 19 -p $BASHPID > /dev/null
	if ! bash "$TOP/harness/build.sh" "$v"; then
		printf -- '--fail\nbuild-%s\n' "$v" > "$r"
		return 1
	fi
	printf -- '--pass\nbuild-%s\n' "$v" > "$r"
	# The headers a guest's tools find in /lib/modules/<release>/build.
	kunit_only "$v" || host_check image "$v" >> "$r"
	# Where MARK() sites are jump labels, objdump shows them as such.
	if [ "$v" = generic ] || [ "$v" = arm64 ]; then
		if python3 "$TOP/harness/jump-check.py" "$(variant_cross "$v")" \
			"$(builddir "$v")/lib/test_markers.ko"; then
			printf -- '--pass\njump-labels-%s\n' "$v" >> "$r"
		else
			printf -- '--fail\njump-labels-%s\n' "$v" >> "$r"
		fi
	fi
	if [ "$v" = default ]; then
		if bash "$TOP/harness/lint.sh" > "$OUT/lint.log" 2>&1; then
			printf -- '--pass\nlint\n' >> "$r"
		else
			cat "$OUT/lint.log"
			printf -- '--fail\nlint\n' >> "$r"
		fi
		# Module.markers for external modules and make clean, and
		# SystemTap's kernel.mark() probes from it.
		host_check kbuild "$v" >> "$r"
		host_check stap "$v" >> "$r"
	fi
}

# host_check NAME VARIANT: harness/NAME-check.sh on the variant's build
# directory, one result per "ok:" or "FAIL:" line it prints.
host_check() {
	local l=$OUT/$1-check.log

	bash "$TOP/harness/$1-check.sh" "$(builddir "$2")" > "$l" 2>&1 ||
		grep -q '^FAIL: ' "$l" || printf -- '--fail\n%s-check\n' "$1"
	grep -v '^ok: ' "$l" >&2
	sed -n -e "s/^ok: /--pass\\n$1: /p" -e "s/^FAIL: /--fail\\n$1: /p" "$l"
}

build_start() {
	local v=${todo[0]}

	todo=("${todo[@]:1}")
	rm -f "$(builddir "$v")/console-check.log"
	# At the lowest priority: a boot beside it keeps a host core, as
	# the guest's clock is the host's and some cases bound their time.
	build_job "$v" &
	jobs[$!]=build:$v
	nbuild=1
}

build_done() { # VARIANT RC
	local v=$1 line

	nbuild=0
	while read -r line; do
		results+=("$line")
	done < "$rdir/$v"
	[ "$2" = 0 ] || return 0
	logs+=("$(builddir "$v")/console-check.log")
	queue+=("$v")
}

boot_start() {
	local v=${queue[0]} args=boot_args_${queue[0]}

	queue=("${queue[@]:1}")
	log "$v: booting (console in $(builddir "$v")/console-check.log)"
	bash "$TOP/harness/boot.sh" "$v" check ${!args} > /dev/null &
	jobs[$!]=boot:$v
	nboot=$((nboot + 1))
}

boot_done() { # VARIANT RC
	local v=$1

	nboot=$((nboot - 1))
	[ "$2" = 0 ] || results+=(--fail "qemu-$v-exit-$2")
	# SystemTap's kernel.mark() probes in the guest (harness/guest/stap.sh).
	if [ "$v" = default ]; then
		# The serial console ends its lines with CR LF.
		tr -d '\r' < "$(builddir "$v")/console-check.log" |
			sed -n -e 's/^harness: stap: ok: /--pass\nstap-guest: /p' \
			-e 's/^harness: stap: FAIL: /--fail\nstap-guest: /p' \
			-e 's/^harness: stap: done$/done/p' > "$rdir/stap-guest"
		while read -r line; do
			[ "$line" = done ] || results+=("$line")
		done < "$rdir/stap-guest"
		grep -qx done "$rdir/stap-guest" ||
			results+=(--fail "stap-guest-finished")
	fi
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

while [ ${#todo[@]} -gt 0 ] || [ ${#queue[@]} -gt 0 ] ||
      [ ${#jobs[@]} -gt 0 ]; do
	[ $nbuild = 0 ] && [ ${#todo[@]} -gt 0 ] && build_start
	while [ ${#queue[@]} -gt 0 ] && [ $((nbuild + nboot)) -lt 2 ]; do
		boot_start
	done
	[ ${#jobs[@]} -gt 0 ] || continue
	wait -n -p pid "${!jobs[@]}"
	rc=$?
	job=${jobs[$pid]}
	unset "jobs[$pid]"
	case "$job" in
	build:*) build_done "${job#build:}" $rc ;;
	boot:*) boot_done "${job#boot:}" $rc ;;
	esac
done
exec python3 "$TOP/harness/count.py" "${results[@]}" "${logs[@]}"
