#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: `make bench`.  Build the default variant and boot it three
# times to run lib/markers_bench.c (see harness/guest/bench.sh):
#   1. -icount shift=0,sleep=off, 1 CPU: sections 1-3 in instructions,
#      repeatable (the guest TSC counts instructions), then with
#      markers.site_field=1 the recording row again (3e);
#   2. single-threaded TCG, 2 CPUs run in turn: sections 4-5, arming and
#      holds;
#   3. multi-threaded TCG, 2 CPUs: sections 1-3 again in wall-clock ns.
# Then the arm64 and generic (i386) variants, whose sites are jump labels,
# once each under -icount with 1 CPU: sections 1-3 without kprobes.
# Then the default variant with 2 CPUs once more, with modules of N
# markers and of N TRACE_EVENT()s: section 8, memory and load time.
# Then the btf variant under -icount: section 9, what 6.12 has beside
# markers (tp_btf, tprobe, fprobe, kprobe and eprobe events, pr_debug()),
# and section 8's pr_debug() modules.
# Then harness/bench.py writes out/bench/bench.{md,csv,png}.  Under
# -icount QEMU 7.2 never brings a second CPU up (the boot CPU waits in
# schedule() for it, at boot and on hotplug alike), so sections 4-5 use
# host time, which is noisy; their sync counts are exact.  Not
# multi-threaded TCG: there a vCPU went on running stale translations of
# a static key's sites, looping in a function without a loop.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/harness/guest-copy.sh"

dir=$OUT/bench
b=$(builddir default)
mkdir -p "$dir"
for v in default arm64 generic; do
	bash "$TOP/harness/build.sh" $v || exit 1
done
# python3-matplotlib draws the plot; Debian's python3 has it.
if ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
	log "installing python3-matplotlib for the plot"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends python3-matplotlib > /dev/null ||
		log "no python3-matplotlib: no plot"
fi

boot() { # VARIANT NAME PART RUNS [boot.sh environment...]
	local v=$1 name=$2 part=$3 runs=$4
	shift 4
	log "bench: boot $name (bench.part=$part)"
	env "$@" GUEST_TIMEOUT=1800 bash "$TOP/harness/boot.sh" $v bench \
		preempt=full kunit.filter_glob=none_such bench.part="$part" \
		markers_bench.runs=$runs ${kargs:-} > /dev/null
	local rc=$?
	cp "$(builddir $v)/console-bench.log" "$dir/console-$name.log"
	grep -q '^bench: done' "$dir/console-$name.log" ||
		die "the $name boot did not finish (exit $rc); see $dir/console-$name.log"
}

# The memory section's modules (harness/mem-modules.py), built with M=
# against the default variant, in an initramfs of their own: the
# variant's with /mem appended.
mem_initrd() {
	local d=$dir/mem m

	rm -rf "$d"
	/usr/bin/python3 "$TOP/harness/mem-modules.py" "$d"
	mkdir -p "$d/root/mem"
	for m in none mark10 mark100 mark1000 te10 te100 te1000; do
		log "bench: building $m"
		make -s -C "$b" CC="ccache gcc" M="$d/$m" modules \
			> "$d/$m.log" 2>&1 || die "$m: see $d/$m.log"
		strip --strip-debug -o "$d/root/mem/$m.ko" "$d/$m/$m.ko"
	done
	cp "$b/initramfs.img" "$d/initramfs.img"
	(cd "$d/root" && find . | cpio -o -H newc --quiet) >> "$d/initramfs.img"
}

# Section 9's initramfs: the btf variant's, with the tp_btf programs
# (harness/btf/bench_btf.*, built with clang against the variant's BTF
# and linked with Debian's libbpf) and the current guest scripts
# appended.
btf_initrd() {
	local bb d=$dir/btf
	bb=$(builddir btf)
	rm -rf "$d"
	mkdir -p "$d/root/harness"
	bpftool btf dump file "$bb/vmlinux" format c > "$d/vmlinux.h"
	clang-14 -target bpf -O2 -g -D__TARGET_ARCH_x86 -I"$d" \
		-c "$TOP/harness/btf/bench_btf.bpf.c" \
		-o "$d/root/harness/bench_btf.bpf.o" || die "bench_btf.bpf.c"
	gcc -O2 -Wall -o "$d/bench_btf" "$TOP/harness/btf/bench_btf.c" \
		-lbpf || die "bench_btf.c"
	guest_copy "$d/root" "$d/bench_btf" /usr/bin/bench_btf
	guest_copy_libs "$d/root" "$d/bench_btf" ||
		die "bench_btf's shared libraries could not be copied"
	# Section 8's pr_debug() modules, and one with none, against the
	# btf variant, which has dynamic debug.
	/usr/bin/python3 "$TOP/harness/mem-modules.py" "$d/src"
	mkdir -p "$d/root/mem"
	for m in none dbg10 dbg100 dbg1000; do
		log "bench: building $m (btf)"
		make -s -C "$bb" CC="ccache gcc" M="$d/src/$m" modules \
			> "$d/$m.log" 2>&1 || die "$m: see $d/$m.log"
		strip --strip-debug -o "$d/root/mem/$m.ko" "$d/src/$m/$m.ko"
	done
	cp "$TOP"/harness/guest/* "$d/root/harness/"
	mv "$d/root/harness/init" "$d/root/init"
	chmod +x "$d/root/init" "$d"/root/harness/*.sh
	{
		cat "$bb/initramfs.img"
		head -c $(( (4 - $(stat -c %s "$bb/initramfs.img") % 4) % 4 )) \
			/dev/zero
		(cd "$d/root" && find . | cpio -o -H newc --quiet)
	} > "$d/initramfs.img"
}

icount="-icount shift=0,sleep=off"
boot default icount pass 7 SMP=1 TCG_THREAD=single QEMU_EXTRA="$icount"
kargs=markers.site_field=1 boot default icount-site site 7 SMP=1 \
	TCG_THREAD=single QEMU_EXTRA="$icount"
boot default arm arm 3 SMP=2 TCG_THREAD=single
boot default wall pass 7 SMP=2 TCG_THREAD=multi
boot arm64 icount-arm64 pass 7 SMP=1 TCG_THREAD=single QEMU_EXTRA="$icount"
boot generic icount-i386 pass 7 SMP=1 TCG_THREAD=single QEMU_EXTRA="$icount"
mem_initrd
boot default mem mem 1 SMP=2 TCG_THREAD=single INITRD="$dir/mem/initramfs.img"
bash "$TOP/harness/deps.sh" libbpf-dev clang-14 || exit 1
bash "$TOP/harness/build.sh" btf || exit 1
btf_initrd
boot btf icount-btf btf 7 SMP=1 TCG_THREAD=single QEMU_EXTRA="$icount" \
	INITRD="$dir/btf/initramfs.img"
/usr/bin/python3 "$TOP/harness/bench.py" "$dir" "$b/lib/markers_bench.ko" \
	"$dir/console-icount.log" "$dir/console-arm.log" \
	"$dir/console-wall.log" arm64="$dir/console-icount-arm64.log" \
	i386="$dir/console-icount-i386.log" mem="$dir/console-mem.log" \
	btf="$dir/console-icount-btf.log" site="$dir/console-icount-site.log"
log "bench: tables in $dir/bench.md and bench.csv"
