#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# deps.sh [PACKAGE...]: install what the harness needs, quietly when it
# is all there already: Debian's packages, and the arm64 and i386 guests'
# busybox (Debian's busybox-static for those architectures, unpacked,
# never installed).  With arguments, only those Debian packages (bpftrace
# for harness/bpftrace-check.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# The base of the series: this very version of Debian's 6.12 source.
BASE_PKG=linux-source-6.12
BASE_VERSION=6.12.118-1~deb12u1
PKGS="$BASE_PKG qemu-system-x86 busybox-static flex bison bc
libelf-dev libssl-dev cpio ccache sparse rsync xz-utils kmod python3 gcc
make libc6-dev perl patch dwarves trace-cmd linux-perf bpftool git
python3-ply python3-git python3-docutils gcc-aarch64-linux-gnu
libc6-dev-arm64-cross qemu-system-arm gcc-i686-linux-gnu
libc6-dev-i386-cross systemtap"

export DEBIAN_FRONTEND=noninteractive
updated=
# A mirror that is syncing serves files whose size does not match its
# Release file, and apt fails until the sync ends, sometimes for hours:
# retry briefly.
retry() {
	local try
	for try in 1 2; do
		"$@" && return 0
		echo ">>> $1 failed; retrying in $((try * 15)) s" >&2
		sleep $((try * 15))
		apt-get update -qq > /dev/null 2>&1 || true
	done
	"$@"
}

# An index that still fails (seen: bookworm-security's i386 Packages) is
# left as it was and the rest are updated: go on, since installing or
# downloading what is missing fails clearly if it needed that index.
update() {
	[ -n "$updated" ] && return 0
	retry apt-get update -qq 2> /dev/null ||
		echo ">>> apt-get update failed; going on with the lists apt has" >&2
	updated=1
}

[ $# = 0 ] || PKGS="$*"
missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q '^install ok installed$' || missing="$missing $p"
done
base_version() {
	dpkg-query -W -f='${Version}' $BASE_PKG 2>/dev/null || true
}
if [ $# = 0 ] && [ "$(base_version)" != "$BASE_VERSION" ]; then
	missing=$(echo "$missing" | sed "s/ $BASE_PKG\b//")
	missing="$missing $BASE_PKG=$BASE_VERSION"
fi
if [ -n "$missing" ]; then
	echo ">>> installing:$missing"
	update
	retry apt-get install -y -qq --no-install-recommends \
		--allow-downgrades $missing > /dev/null
fi
[ $# != 0 ] || [ "$(base_version)" = "$BASE_VERSION" ] ||
	die "$BASE_PKG is $(base_version), the series' base is $BASE_VERSION"

[ $# = 0 ] || exit 0
for a in arm64 i386; do
	[ -x "$(foreign_busybox $a)" ] && continue
	echo ">>> fetching busybox-static:$a"
	if ! dpkg --print-foreign-architectures | grep -qx $a; then
		dpkg --add-architecture $a
		updated=
	fi
	update
	tmp=$(mktemp -d)
	# apt downloads as the user _apt.
	chmod 777 "$tmp"
	(cd "$tmp" && retry apt-get download -qq busybox-static:$a > /dev/null)
	rm -rf "$DEPS/$a"
	mkdir -p "$DEPS/$a"
	dpkg-deb -x "$tmp"/busybox-static_*_$a.deb "$DEPS/$a"
	rm -rf "$tmp"
	[ -x "$(foreign_busybox $a)" ] || die "no busybox in busybox-static:$a"
done
