#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh VARIANT: configure and build the kernel, modules, kselftests and
# the initramfs of one variant (default, debug, generic, nopreempt, arm64,
# btf) in out/build-VARIANT.  nopreempt (x86-64 that never preempts a
# task in the kernel) builds the kernel alone: no modules and no
# initramfs, its guest has no user space.  generic (i386) and arm64
# (cross-built) get Debian's busybox-static of their architecture and
# kselftest helpers built with its cross compiler, and run the kselftests
# harness/kselftests-VARIANT lists.
#
# For harness/series-check.sh: NO_TREE=1 builds $OUT/src as it is,
# LENIENT_CONFIG=1 lets requests for symbols the tree lacks (yet) go, and
# BUILD_ONLY=1 skips the initramfs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:?variant}
b=$(builddir "$variant")
arch=$(variant_arch "$variant")
cross=$(variant_cross "$variant")
ucross=$(variant_user_cross "$variant")
debarch=$(variant_debarch "$variant")
image=$(variant_image "$variant")
frags="$TOP/configs/base.config $TOP/configs/default.config"
[ "$variant" = debug ] && frags="$frags $TOP/configs/debug.config"
[ "$variant" = btf ] && frags="$frags $TOP/configs/btf.config"
[ "$variant" = generic ] && frags="$TOP/configs/generic.config"
[ "$variant" = nopreempt ] &&
	frags="$TOP/configs/base.config $TOP/configs/nopreempt.config"
[ "$variant" = arm64 ] && frags="$TOP/configs/arm64.config"
export KBUILD_BUILD_USER=markers KBUILD_BUILD_HOST=harness
# Paths relative to out/, so that clones of the repository share hits.
export CCACHE_BASEDIR="$OUT"
kmake() {
	make -s -C "$SRC" O="$b" ARCH="$arch" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" "$@"
}

configure() {
	local stamp
	stamp=$(cat $frags "$TOP"/patches/* | sha1sum | cut -d' ' -f1)
	[ -f "$b/.config" ] && [ "$(cat "$b/.fragments" 2>/dev/null)" = "$stamp" ] &&
		return 0
	log "$variant: configuring"
	mkdir -p "$b"
	kmake tinyconfig >/dev/null
	"$SRC/scripts/kconfig/merge_config.sh" -m -O "$b" "$b/.config" $frags \
		>/dev/null
	kmake olddefconfig >/dev/null
	# merge_config.sh -m does not check that each request stuck.  A
	# later fragment overrides an earlier one, "is not set" included.
	local line sym missing=0
	for line in $(sed -nE -e 's/^(CONFIG_[A-Z0-9_]+=.*)/\1/p' \
			-e 's/^# (CONFIG_[A-Z0-9_]+) is not set$/\1=n/p' $frags |
			awk -F= '{ v[$1] = $0; if (!($1 in o)) o[$1] = n++ }
				 END { for (k in v) print o[k], v[k] }' |
			sort -n | cut -d' ' -f2-); do
		sym=${line%%=*}
		if [ "$line" = "$sym=n" ]; then
			grep -qE "^$sym=[ym]" "$b/.config" || continue
		else
			grep -qx "$line" "$b/.config" && continue
		fi
		# Lenient: a symbol that no Kconfig file of the tree defines.
		[ "${LENIENT_CONFIG:-}" = 1 ] &&
			! grep -rqx --include='Kconfig*' "config ${sym#CONFIG_}" \
				"$SRC" && continue
		echo "config: $line did not stick" >&2
		missing=1
	done
	[ $missing = 0 ] || die "$variant: configuration incomplete"
	# What the variant is for: no preemption, but a preempt count.
	if [ "$variant" = nopreempt ] &&
	   { grep -qx 'CONFIG_PREEMPTION=y' "$b/.config" ||
	     ! grep -qx 'CONFIG_PREEMPT_COUNT=y' "$b/.config"; }; then
		die "$variant: wants PREEMPT_COUNT without PREEMPTION"
	fi
	echo "$stamp" > "$b/.fragments"
}

build() {
	local targets="${image##*/} modules"

	kunit_only "$variant" && targets=${image##*/}
	log "$variant: building $targets"
	if ! kmake -j"$JOBS" $targets > "$b/build.log" 2>&1; then
		tail -40 "$b/build.log" >&2
		die "$variant: build failed (see $b/build.log)"
	fi
	# Warnings are findings; objtool ones mean broken unwinding.
	if grep -E 'warning:|objtool:' "$b/build.log" >&2; then
		die "$variant: the build warned (see $b/build.log)"
	fi
}

# The guest's /lib/modules/<release>/build: what a distribution's kernel
# headers package installs there (Debian's linux-headers packages are made
# by the same script), with Module.markers beside Module.symvers, for
# test_module_markers.sh.  Tools take an existing build directory for the
# kernel's headers: bpftrace compiles with include/linux/kconfig.h from
# it.  Its host programs are the build host's (CC=HOSTCC: the guests
# build no modules).  In an archive of its own, uncompressed, which the
# kernel unpacks at memcpy speed: about 60 MB.
install_headers() {
	local h=$b/root-headers
	local d=$h/lib/modules/$(cat "$b/include/config/kernel.release")/build

	rm -rf "$h"
	(cd "$b" && srctree=$SRC SRCARCH=$(variant_srcarch "$variant") \
		MAKE=make CC=gcc HOSTCC=gcc \
		sh "$SRC/scripts/package/install-extmod-build" "$d") ||
		die "$variant: installing the kernel headers failed"
	[ ! -f "$b/Module.markers" ] || cp "$b/Module.markers" "$d/"
}

install_guest() {
	local root=$b/root
	log "$variant: assembling initramfs"
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,etc,harness}
	if [ -n "$debarch" ]; then
		cp "$(foreign_busybox "$debarch")" "$root/bin/busybox"
	else
		cp /bin/busybox "$root/bin/busybox"
	fi
	kmake INSTALL_MOD_PATH="$root" modules_install >/dev/null
	rm -f "$root"/lib/modules/*/{build,source}
	install_headers
	# O=: each variant builds its helpers for its own architecture.
	make -s -C "$SRC/tools/testing/selftests" TARGETS=markers O="$b" \
		ARCH="$arch" CROSS_COMPILE="$ucross" \
		USERLDFLAGS=-static INSTALL_PATH="$root/kselftest" install \
		> "$b/kselftest.log" 2>&1 ||
		{ cat "$b/kselftest.log" >&2; die "kselftest install failed"; }
	# ftracetest, which runs the marker events' test cases (test.d/markers)
	# with busybox sh.
	cp -r "$SRC/tools/testing/selftests/ftrace" "$root/kselftest/ftrace"
	rm -rf "$root/kselftest/ftrace/logs"
	cp "$TOP"/harness/guest/* "$root/harness/"
	# Debian's trace-cmd and perf are the host's: x86-64 guests only.
	if [ -z "$ucross" ]; then
		bash "$TOP/harness/guest-tools.sh" "$root" ||
			die "$variant: copying trace-cmd and perf into the guest failed"
	fi
	# SystemTap's probe modules, where the variant has what its runtime
	# needs (CONFIG_RELAY): default.
	if [ "$variant" = default ]; then
		bash "$TOP/harness/stap-modules.sh" "$b" "$b/stap" ||
			die "$variant: the SystemTap probe modules did not build"
		mkdir -p "$root/stap"
		cp "$b"/stap/*.ko "$root/stap/"
	fi
	# The kselftests that make sense where the variant runs; all if no list.
	if [ -f "$TOP/harness/kselftests-$variant" ]; then
		grep -v '^#' "$TOP/harness/kselftests-$variant" \
			> "$root/harness/kselftests"
	fi
	mv "$root/harness/init" "$root/init"
	chmod +x "$root/init" "$root"/harness/*
	# The headers' archive follows, at a 4-byte boundary (the kernel
	# skips the zeros before it).
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) \
		> "$b/initramfs.tmp"
	head -c $(( (4 - $(stat -c %s "$b/initramfs.tmp") % 4) % 4 )) \
		/dev/zero >> "$b/initramfs.tmp"
	(cd "$b/root-headers" && find . | cpio -o -H newc --quiet) \
		>> "$b/initramfs.tmp"
	mv "$b/initramfs.tmp" "$b/initramfs.img"
}

[ "${NO_TREE:-}" = 1 ] || bash "$TOP/harness/tree.sh"
configure
build
kunit_only "$variant" || [ "${BUILD_ONLY:-}" = 1 ] || install_guest
log "$variant: built $(kmake -s kernelrelease)"
