#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh VARIANT MODE [extra kernel args]: boot the variant's kernel and
# initramfs under QEMU/TCG with 4 CPUs; the console goes to stdout and to
# out/build-VARIANT/console-MODE.log.  QEMU is killed after $GUEST_TIMEOUT
# seconds; the exit status is QEMU's (124/137 on timeout).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:?variant}; mode=${2:?mode}; shift 2
b=$(builddir "$variant")
GUEST_TIMEOUT=${GUEST_TIMEOUT:-900}
mem=1024
[ "$variant" = debug ] && mem=2048

timeout -k 10 "$GUEST_TIMEOUT" qemu-system-x86_64 \
	-nodefaults -machine q35 -accel tcg,thread=multi -cpu max -smp 4 \
	-m $mem -kernel "$b/arch/x86/boot/bzImage" \
	-initrd "$b/initramfs.cpio.gz" \
	-append "console=ttyS0 panic=-1 harness=$mode $*" \
	-no-reboot -display none -serial stdio < /dev/null |
	tee "$b/console-$mode.log"
