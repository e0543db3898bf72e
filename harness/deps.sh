#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what the harness needs, quietly when it is all there already.
set -euo pipefail
PKGS="linux-source-6.1 qemu-system-x86 busybox-static flex bison bc
libelf-dev libssl-dev cpio ccache sparse rsync xz-utils kmod python3 gcc
make libc6-dev perl patch dwarves trace-cmd linux-perf git
python3-ply python3-git"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q '^install ok installed$' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo ">>> installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing > /dev/null
