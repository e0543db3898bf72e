#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what the harness needs, quietly when it is all there already:
# Debian's packages, and the arm64 guest's busybox (Debian's
# busybox-static for arm64, unpacked, never installed).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
PKGS="linux-source-6.1 qemu-system-x86 busybox-static flex bison bc
libelf-dev libssl-dev cpio ccache sparse rsync xz-utils kmod python3 gcc
make libc6-dev perl patch dwarves trace-cmd linux-perf git
python3-ply python3-git gcc-aarch64-linux-gnu libc6-dev-arm64-cross
qemu-system-arm"

export DEBIAN_FRONTEND=noninteractive
updated=
update() {
	[ -n "$updated" ] && return 0
	apt-get update -qq
	updated=1
}

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q '^install ok installed$' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo ">>> installing:$missing"
	update
	apt-get install -y -qq --no-install-recommends $missing > /dev/null
fi

if ! [ -x "$BUSYBOX_ARM64" ]; then
	echo ">>> fetching busybox-static:arm64"
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		dpkg --add-architecture arm64
		updated=
	fi
	update
	tmp=$(mktemp -d)
	# apt downloads as the user _apt.
	chmod 777 "$tmp"
	(cd "$tmp" && apt-get download -qq busybox-static:arm64 > /dev/null)
	rm -rf "$OUT/deps/arm64"
	mkdir -p "$OUT/deps/arm64"
	dpkg-deb -x "$tmp"/busybox-static_*_arm64.deb "$OUT/deps/arm64"
	rm -rf "$tmp"
	[ -x "$BUSYBOX_ARM64" ] || die "no busybox in busybox-static:arm64"
fi
