#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# image-check.sh BUILD_DIR: the guest image's /lib/modules/<release>/build
# is what a distribution's kernel headers package installs there
# (scripts/package/install-extmod-build, as Debian's linux-headers
# packages have it), with Module.markers beside Module.symvers.  Tools
# take an existing build directory for the kernel's headers: bpftrace
# 0.17 compiles with -include include/linux/kconfig.h from it, and fails
# on a directory without it.  One "ok: WHAT" or "FAIL: WHAT" line per
# check.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/harness/results.sh"
b=$(realpath "${1:?build directory}")
v=${b##*/build-}
srcarch=x86
grep -qx 'CONFIG_ARM64=y' "$b/.config" && srcarch=arm64
d=lib/modules/$(cat "$b/include/config/kernel.release")/build
list=$(python3 "$TOP/harness/initramfs-ls.py" "$b/initramfs.img") ||
	{ echo "FAIL: $v: the image lists"; exit 1; }

has() { # PATH: the image holds $d/PATH
	grep -qxF "$d/$1" <<< "$list" && return 0
	echo "  no $d/$1 in $b/initramfs.img"
	return 1
}

for f in Makefile Module.symvers Module.markers include/linux/kconfig.h \
	 include/generated/autoconf.h include/config/auto.conf \
	 include/uapi/linux/types.h arch/$srcarch/include/asm/ptrace.h \
	 arch/$srcarch/include/generated/uapi/asm scripts/Makefile.build; do
	check "$v: the guest's build directory has $f" has "$f"
done
exit $rc
