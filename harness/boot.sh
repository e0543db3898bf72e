#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh VARIANT MODE [extra kernel args]: boot the variant's kernel and
# initramfs under QEMU/TCG with 4 CPUs; the console goes to stdout and to
# out/build-VARIANT/console-MODE.log.  QEMU is killed after $GUEST_TIMEOUT
# seconds; the exit status is QEMU's (124/137 on timeout).  TCG_THREAD
# (multi|single; multi unless SMP is over twice the host's cores), SMP (4)
# and QEMU_EXTRA (more QEMU options, such as -s or -icount) change the
# machine.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:?variant}; mode=${2:?mode}; shift 2
b=$(builddir "$variant")
GUEST_TIMEOUT=${GUEST_TIMEOUT:-900}
mem=1024
[ "$variant" = debug ] && mem=2048

qemu=qemu-system-x86_64
cpu=max
guest=(-initrd "$b/initramfs.cpio.gz")
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

# Multi-threaded TCG runs each vCPU as a host thread.  With more than two
# vCPUs per host core, a sync waits for vCPUs that the host is not
# running: at 8 vCPUs on 2 cores, syncs took up to 169 ms and the x86
# stress case 150 s.  Single-threaded TCG runs the vCPUs in turn: 11 ms
# and 22 s.
if [ -z "${TCG_THREAD:-}" ]; then
	TCG_THREAD=multi
	[ "${SMP:-4}" -gt $((2 * $(nproc))) ] && TCG_THREAD=single
fi

timeout -k 10 "$GUEST_TIMEOUT" $qemu \
	-nodefaults -machine q35 -accel tcg,thread=$TCG_THREAD -cpu $cpu -smp ${SMP:-4} \
	-m $mem -kernel "$b/arch/x86/boot/bzImage" "${guest[@]}" \
	-append "console=ttyS0 panic=-1 softlockup_all_cpu_backtrace=1 harness=$mode $*" \
	-no-reboot -display none -serial stdio ${QEMU_EXTRA:-} < /dev/null |
	tee "$b/console-$mode.log"
