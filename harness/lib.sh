# SPDX-License-Identifier: GPL-2.0
# Common settings for the harness scripts.  Sourced, never executed.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$TOP/out}
SRC=$OUT/src
TARBALL=${TARBALL:-/usr/src/linux-source-6.12.tar.xz}
# The base tree as a git repository (harness/series.py), whatever $OUT.
BASE_GIT=${SERIES_BASE:-$TOP/out/base.git}
# Top-level directories of the repository that are kernel-tree paths and
# are copied over the base tree.  Everything else is the project's own.
OVERLAY_DIRS="arch Documentation include kernel lib samples scripts tools"
JOBS=${JOBS:-$(($(nproc) + 1))}
# ccache takes dependencies from the compiler's -MMD output rather than
# running the preprocessor a second time: a quarter less work on a miss.
export CCACHE_DEPEND=1
VARIANTS=${VARIANTS:-debug default generic arm64 nopreempt}

log() { printf '>>> %s\n' "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

builddir() { echo "$OUT/build-$1"; }

# The generic variant is i386 with KUnit only (see configs/generic.config);
# arm64 is cross-built (configs/arm64.config); the others are x86-64.
variant_arch() {
	case "$1" in
	generic) echo i386 ;;
	arm64) echo arm64 ;;
	*) echo x86_64 ;;
	esac
}

# The compiler prefix and Debian architecture of the guest's user space;
# empty for the host's.
variant_user_cross() {
	case "$1" in
	generic) echo i686-linux-gnu- ;;
	arm64) echo aarch64-linux-gnu- ;;
	esac
}

# The cross compiler's prefix for the kernel: the host's gcc builds i386
# kernels too.
variant_cross() { [ "$1" = generic ] || variant_user_cross "$1"; }
variant_debarch() {
	case "$1" in
	generic) echo i386 ;;
	arm64) echo arm64 ;;
	esac
}

# The kernel's architecture directory, arch/SRCARCH.
variant_srcarch() {
	[ "$1" = arm64 ] && echo arm64 || echo x86
}

# The kernel image QEMU boots, relative to the build directory.
variant_image() {
	[ "$1" = arm64 ] && echo arch/arm64/boot/Image ||
		echo arch/x86/boot/bzImage
}

# Where harness/deps.sh unpacks Debian's busybox-static for ARCH, whatever
# $OUT (series-check builds in out/series-check).
DEPS=$TOP/out/deps
foreign_busybox() { echo "$DEPS/$1/bin/busybox"; }

# Variants whose guest has no user space: the built-in KUnit suites run,
# then the kernel reboots.
kunit_only() { [ "$1" = nopreempt ]; }
