#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh: checkpatch --strict on every new file (the patches are
# series-check.sh's), every new file and hunk in one patch of the series,
# sparse (C=2) and W=1 on the new objects, kernel-doc on the new sources,
# the new documentation through docutils with its kernel-doc directives
# expanded (doc-check.py).  Needs a configured out/build-default.  Non-zero
# on any finding.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

b=$(builddir default)
rc=0
finding() { echo "lint: $*"; rc=1; }

cd "$TOP"
files=$(git ls-files --cached --others --exclude-standard $OVERLAY_DIRS)
csrc=$(echo "$files" | grep -E '\.[ch]$')

# checkpatch does not know va_list, the type of the probe API's argument.
# The base tree is its root, for the checks that look at the tree (such
# as <linux/X.h> preferred to <asm/X.h>), and spdxcheck.py runs with
# Debian's python3, which has ply and git.
# A file alone cannot show that its __setup() parameter is documented:
# kernel-parameters.txt is a hunk of the same patch, where series-check.sh's
# checkpatch on the patch sees it.
cp="env PATH=/usr/bin:$PATH $SRC/scripts/checkpatch.pl --strict --root=$SRC -q --terse --show-types
	--typedefsfile $TOP/harness/checkpatch-typedefs"
cpf="$cp --ignore UNDOCUMENTED_SETUP"
for f in $files; do
	case "$f" in *.sh|*/Makefile|*/config|*/settings) continue ;; esac
	out=$(cd "$TOP" && $cpf -f "$f" 2>&1) || finding "$out"
done
# Every new file and hunk belongs to one patch of the series; checkpatch
# on the patches themselves is series-check.sh's.
out=$(python3 "$TOP/harness/series.py" verify 2>&1) || finding "$out"

out=$("$SRC/scripts/kernel-doc" -none $csrc 2>&1)
[ -z "$out" ] || finding "$out"

# The documentation as `make htmldocs` would read it, without Sphinx: each
# kernel-doc directive expanded by scripts/kernel-doc, then docutils.
rst=$(echo "$files" | grep '\.rst$')
if [ -n "$rst" ]; then
	out=$(SRC="$SRC" python3 "$TOP/harness/doc-check.py" $rst 2>&1) ||
		finding "$out"
fi

# Kernel objects only: scripts/ are host programs, which build.sh builds
# (and fails on a warning of), and tools/ user space.
objs=$(echo "$csrc" | grep '\.c$' | grep -v -e '^tools/' -e '^scripts/' |
	sed 's/\.c$/.o/')
out=$(make -s -C "$SRC" O="$b" ARCH=x86_64 CC="ccache gcc" C=2 W=1 \
	$objs 2>&1) || finding "build of $objs failed"
[ -z "$out" ] || finding "$out"

# Compile tests of the header (harness/compile-tests), built out of tree.
ct=$OUT/compile-tests
rm -rf "$ct" && cp -r "$TOP/harness/compile-tests" "$ct"
out=$(make -s -C "$SRC" O="$b" ARCH=x86_64 CC="ccache gcc" M="$ct" \
	modules 2>&1)
# Quotes are ASCII or not, as the compiler run that ccache replays had it.
[ "$(echo "$out" | grep -Ec "format .{1,3}%d.{1,3} expects argument of type .{1,3}int")" = 2 ] ||
	finding "compile tests: expected two format warnings, got: $out"
[ "$(echo "$out" | grep -c 'warning:')" = 2 ] ||
	finding "compile tests: unexpected warnings: $out"
objdump -h "$ct/format_check.o" | grep -q ' __markers ' ||
	finding "compile tests: MARK() emitted no marker"
if objdump -h "$ct/no_markers.o" | grep -q ' __marker' ||
   nm "$ct/no_markers.o" | grep -q 'marker_run_probes\|markers_side_effect'; then
	finding "compile tests: MARK() with CONFIG_MARKERS=n emitted code"
fi

# x86-64 without CONFIG_MARKERS: what the series touches still builds.
nb=$OUT/build-nomarkers
if [ ! -f "$nb/.config" ] || [ "$b/.config" -nt "$nb/.config" ]; then
	mkdir -p "$nb"
	sed '/^CONFIG_MARKERS=/d' "$b/.config" > "$nb/.config"
	make -s -C "$SRC" O="$nb" ARCH=x86_64 CC="ccache gcc" olddefconfig
fi
grep -q '^CONFIG_MARKERS=y' "$nb/.config" &&
	finding "could not configure without CONFIG_MARKERS"
out=$(make -s -C "$SRC" O="$nb" ARCH=x86_64 CC="ccache gcc" -j"$JOBS" \
	kernel/module/main.o kernel/module/kallsyms.o kernel/kallsyms.o \
	kernel/kprobes.o arch/x86/kernel/kprobes/opt.o init/main.o \
	arch/x86/kernel/traps.o lib/ 2>&1) ||
	finding "build without CONFIG_MARKERS failed: $out"
[ -z "$out" ] || finding "build without CONFIG_MARKERS: $out"

[ $rc = 0 ] && echo "lint: clean"
exit $rc
