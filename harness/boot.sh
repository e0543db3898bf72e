#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh VARIANT MODE [extra kernel args]: boot the variant's kernel and
# initramfs under QEMU/TCG with 4 CPUs; the console goes to stdout and to
# out/build-VARIANT/console-MODE.log.  QEMU is killed after $GUEST_TIMEOUT
# seconds; the exit status is QEMU's (124/137 on timeout).  TCG_THREAD
# (single, the default, or multi), SMP (4)
# and QEMU_EXTRA (more QEMU options, such as -s or -icount) change the
# machine.  GUEST_MEM (MB; 1024, 2048 for debug) and INITRD (another
# initramfs than the variant's, e.g. harness/bpftrace-check.sh's) change
# what it boots with.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:?variant}; mode=${2:?mode}; shift 2
b=$(builddir "$variant")
# debug (KASAN, lockdep, PREEMPT_RT) runs about 8 times slower.
timeout=1800
[ "$variant" = debug ] && timeout=3600
GUEST_TIMEOUT=${GUEST_TIMEOUT:-$timeout}
mem=1024
[ "$variant" = debug ] && mem=2048
mem=${GUEST_MEM:-$mem}

qemu=qemu-system-x86_64
machine=q35
# Without the hypervisor CPUID bit, as on hardware: with it, a PARAVIRT
# kernel (XEN_PV, as Debian's) whose host offers no paravirt spinlocks
# takes test-and-set spinlocks (virt_spin_lock()), which single-threaded
# TCG starves for seconds: the chain case's irq-off lock takers then
# trip the soft lockup watchdog (23 and 45 s here).  Native queued
# spinlocks are what a kernel on hardware takes.
cpu=max,-hypervisor
console=ttyS0
guest=(-initrd "${INITRD:-$b/initramfs.img}")
if kunit_only "$variant"; then
	# No user space: the built-in KUnit suites run, then it reboots.
	guest=()
	set -- kunit_shutdown=reboot "$@"
fi
# A Skylake, whose return stack buffer underflows into the BTB
# (RETBleed): there retbleed=stuff turns call depth tracking on.
[ "$variant" = nopreempt ] && cpu=Skylake-Client-v1,-hypervisor
if [ "$variant" = generic ]; then
	qemu=qemu-system-i386
	# 32-bit Linux refuses SMP on the AMD K7 that -cpu max models here.
	cpu=max,vendor=GenuineIntel
fi
if [ "$variant" = arm64 ]; then
	qemu=qemu-system-aarch64
	machine=virt,gic-version=3
	cpu=max
	console=ttyAMA0
fi

# Single-threaded TCG runs the vCPUs in turn on one host thread, and is
# what make check boots.  Multi-threaded TCG (TCG_THREAD=multi) runs each
# vCPU as a host thread, which widens race windows, but it goes on
# running its translation of an int3 after another vCPU wrote the final
# instruction over it and synced: stock kernels die of such stale int3s
# at jump labels and static calls (an "Oops: int3" in sched_clock_cpu()
# while booting 6.12, in one of its first two boots here).  No hardware
# does that after a serializing IPI.  With more than two vCPUs per host
# core, its syncs also wait for vCPUs the host is not running.
TCG_THREAD=${TCG_THREAD:-single}

timeout -k 10 "$GUEST_TIMEOUT" $qemu \
	-nodefaults -machine $machine -accel tcg,thread=$TCG_THREAD -cpu $cpu \
	-smp ${SMP:-4} -m $mem -kernel "$b/$(variant_image "$variant")" \
	"${guest[@]}" \
	-append "console=$console panic=-1 softlockup_all_cpu_backtrace=1 harness=$mode $*" \
	-no-reboot -display none -serial stdio ${QEMU_EXTRA:-} < /dev/null |
	tee "$b/console-$mode.log"
