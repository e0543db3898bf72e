#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-check.sh [quick|builds]: check the series as a maintainer
# receives it.
# Writes it (series.py export, out/series/), applies it with `git am` to a
# clean 6.12 tree in out/series-check/src, and runs checkpatch --strict on
# every patch file.  In full (without "quick") it also builds the default
# variant after every patch, builds the top with CONFIG_MARKERS=n, as
# i386 (generic) and for arm64, and runs check.sh on the top, all in
# out/series-check/;
# "builds" stops before check.sh.  A failure names the patch.  Each step's
# time is printed; the last line is "series-check: passed ..." or
# "series-check: N failed".
set -uo pipefail
. "$(dirname "$0")/lib.sh"

mode=${1:-full}
case "$mode" in quick|builds|full) ;; *) die "usage: $0 [quick|builds]" ;; esac
sc=$OUT/series-check
series=$OUT/series
fails=0
fail() { echo "series-check: FAIL: $*"; fails=$((fails + 1)); }
t0=$(date +%s)
step() { # what: say how long the step that ends now took
	local t=$(date +%s)
	printf 'series-check: %4d s  %s\n' $((t - t0)) "$1"
	t0=$t
}
scbuild() { env OUT="$sc" NO_TREE=1 "$@"; }

python3 "$TOP/harness/series.py" export "$series" || die "make series failed"
patches=$(ls "$series"/[0-9]*.patch | grep -v /0000-cover-letter.patch)

# A clean 6.12 tree.  Reset rather than re-checked out, so that files the
# series does not touch keep their times and the builds stay incremental.
export GIT_COMMITTER_NAME=series-check GIT_COMMITTER_EMAIL=check@localhost
export GIT_COMMITTER_DATE="2026-12-01T12:00:00+00:00"
if [ ! -d "$sc/src/.git" ]; then
	log "checking out the base tree in $sc/src"
	rm -rf "$sc/src"
	mkdir -p "$sc"
	git clone -q -s -n "$BASE_GIT" "$sc/src" ||
		die "clone of the base tree failed"
fi
git -C "$sc/src" checkout -q -f -B check base || die "no base tree"
git -C "$sc/src" clean -q -f -d -x
git -C "$sc/src" am --abort >/dev/null 2>&1
step "series written, base tree ready"

# checkpatch in the kernel tree, so that it also checks includes against
# it and SPDX tags with spdxcheck.py (Debian's python3, with ply and git).
checkpatch() { # patch
	(cd "$sc/src" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict \
		-q --terse --show-types \
		--typedefsfile "$TOP/harness/checkpatch-typedefs" "$1" 2>&1) |
	# The one exception: x86 declares register_nmi_handler() in
	# <asm/nmi.h> only, which <linux/nmi.h> includes just with
	# HAVE_NMI_WATCHDOG (not on x86), so the KUnit NMI cases keep it.
	grep -v 'CHECK:ARCH_INCLUDE_LINUX: Consider using #include <linux/nmi.h> instead of <asm/nmi.h>' |
	grep -v '^total: 0 errors, 0 warnings, [0-9]* checks'
}
for p in $patches; do
	name=$(basename "$p")
	if ! git -c gc.auto=0 -C "$sc/src" am -q "$p"; then
		git -C "$sc/src" am --abort
		fail "$name does not apply"
		break
	fi
	out=$(checkpatch "$p")
	[ -z "$out" ] || fail "$name: checkpatch: $out"
	[ "$mode" = quick ] && continue
	log "series-check: building after $name"
	rm -f "$sc/build-default/.fragments"
	if scbuild LENIENT_CONFIG=1 BUILD_ONLY=1 \
		bash "$TOP/harness/build.sh" default; then
		step "$name built"
	else
		fail "$name: the default variant does not build"
		step "$name: build failed"
	fi
done
[ "$mode" = quick ] && step "applied, checkpatch"
# What git am made is what series.py committed, file for file.
[ $fails = 0 ] && [ "$(git -C "$sc/src" rev-parse 'HEAD^{tree}')" != \
	"$(git --git-dir="$BASE_GIT" rev-parse 'series^{tree}')" ] &&
	fail "git am did not reproduce the series' tree"

if [ "$mode" != quick ] && [ $fails = 0 ]; then
	# The top without CONFIG_MARKERS, from the default configuration.
	nb=$sc/build-nomarkers
	mkdir -p "$nb"
	sed '/^CONFIG_MARKERS=/d' "$sc/build-default/.config" > "$nb/.config"
	# As a build with markers would have left it: modpost removes it.
	echo "stale" > "$nb/Module.markers"
	km() { make -s -C "$sc/src" O="$nb" ARCH=x86_64 CC="ccache gcc" "$@"; }
	log "series-check: building the top with CONFIG_MARKERS=n"
	if ! CCACHE_BASEDIR=$sc km olddefconfig ||
	   grep -q '^CONFIG_MARKERS=y' "$nb/.config"; then
		fail "top: cannot configure without CONFIG_MARKERS"
	elif ! CCACHE_BASEDIR=$sc km -j"$JOBS" bzImage modules > "$nb/build.log" 2>&1 ||
	     grep -E 'warning:|objtool:' "$nb/build.log"; then
		tail -20 "$nb/build.log"
		fail "top: does not build cleanly with CONFIG_MARKERS=n"
	elif [ -e "$nb/Module.markers" ]; then
		fail "top: Module.markers with CONFIG_MARKERS=n"
	fi
	step "top built with CONFIG_MARKERS=n"
	log "series-check: building the top as i386"
	BUILD_ONLY=1 scbuild bash "$TOP/harness/build.sh" generic ||
		fail "top: the generic (i386) variant does not build"
	step "top built as i386"
	log "series-check: building the top for arm64"
	BUILD_ONLY=1 scbuild bash "$TOP/harness/build.sh" arm64 ||
		fail "top: the arm64 variant does not build"
	step "top built for arm64"
fi
if [ "$mode" = full ] && [ $fails = 0 ]; then
	log "series-check: make check on the top"
	scbuild bash "$TOP/harness/check.sh" | tee "$sc/check.log" | tail -1
	tail -1 "$sc/check.log" | grep -q ' 0 failed$' ||
		fail "top: make check failed (see $sc/check.log)"
	step "make check on the top"
fi
if [ $fails = 0 ]; then
	echo "series-check: passed ($(echo $patches | wc -w) patches, $mode)"
else
	echo "series-check: $fails failed"
	exit 1
fi
