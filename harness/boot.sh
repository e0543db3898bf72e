#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh VARIANT MODE [extra kernel args]: boot the variant's kernel and
# initramfs under QEMU/TCG with 4 CPUs; the console goes to stdout and to
# out/build-VARIANT/console-MODE.log.  QEMU is killed after $GUEST_TIMEOUT
# seconds; the exit status is QEMU's (124/137 on timeout).  TCG_THREAD
# (multi|single; multi unless SMP is over twice the host's cores), SMP (4)
# and QEMU_EXTRA (more QEMU options, such as -s or -icount) change the
# machine.  GUEST_MEM (MB; 1024, 2048 for debug) and INITRD (another
# initramfs than the variant's, e.g. harness/bpftrace-check.sh's) change
# what it boots with.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:?variant}; mode=${2:?mode}; shift 2
b=$(builddir "$variant")
GUEST_TIMEOUT=${GUEST_TIMEOUT:-900}
mem=1024
[ "$variant" = debug ] && mem=2048
mem=${GUEST_MEM:-$mem}

qemu=qemu-system-x86_64
machine=q35
cpu=max
console=ttyS0
guest=(-initrd "${INITRD:-$b/initramfs.cpio.gz}")
if kunit_only "$variant"; then
	# No user space: the built-in KUnit suites run, then it reboots.
	guest=()
	set -- kunit_shutdown=reboot "$@"
fi
if [ "$variant" = generic ]; then
	qemu=qemu-system-i386
	# 32-bit Linux refuses SMP on the AMD K7 that -cpu max models here.
	cpu=max,vendor=GenuineIntel
fi
if [ "$variant" = arm64 ]; then
	qemu=qemu-system-aarch64
	machine=virt,gic-version=3
	console=ttyAMA0
fi

# Multi-threaded TCG runs each vCPU as a host thread.  With more than two
# vCPUs per host core, a sync waits for vCPUs that the host is not
# running: at 8 vCPUs on 2 cores, syncs took up to 169 ms and the x86
# stress case 150 s.  Single-threaded TCG runs the vCPUs in turn: 11 ms
# and 22 s.
#
# i386 runs single-threaded too.  Its marker sites are jump labels, which
# text_poke_bp() writes; under multi-threaded TCG a vCPU went on taking an
# int3 at a jump label whose bytes were already the final NOP (its EIP at
# asm_exc_int3 for minutes, the same registers each time, while another
# vCPU's dump showed the NOP in memory): kprobes sends a CPU whose int3
# is gone back to fetch the instruction again, and that vCPU fetched the
# stale copy again.  No hardware does that after an exception; x86-64's
# own marker sites have marker_int3_fixup() for it, jump labels do not.
if [ -z "${TCG_THREAD:-}" ]; then
	TCG_THREAD=multi
	[ "${SMP:-4}" -gt $((2 * $(nproc))) ] && TCG_THREAD=single
	[ "$variant" = generic ] && TCG_THREAD=single
fi

timeout -k 10 "$GUEST_TIMEOUT" $qemu \
	-nodefaults -machine $machine -accel tcg,thread=$TCG_THREAD -cpu $cpu \
	-smp ${SMP:-4} -m $mem -kernel "$b/$(variant_image "$variant")" \
	"${guest[@]}" \
	-append "console=$console panic=-1 softlockup_all_cpu_backtrace=1 harness=$mode $*" \
	-no-reboot -display none -serial stdio ${QEMU_EXTRA:-} < /dev/null |
	tee "$b/console-$mode.log"
