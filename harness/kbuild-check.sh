#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kbuild-check.sh BUILD_DIR: what kbuild does with Module.markers beyond
# the in-tree build, which test_module_markers.sh checks in the guest: an
# external module (harness/ext-module, built with M=) gets its own, with
# its markers alone; malformed sections and objects cut short are
# refused; "make clean" of the external module and of a kernel build
# directory removes it.  One "ok: WHAT" or "FAIL: WHAT" line per
# check.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/harness/results.sh"
b=$(realpath "${1:?build directory}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

kmake() {
	make -s -C "$b" CC="ccache gcc" "$@" > "$tmp/make.log" 2>&1 && return 0
	sed 's/^/  /' "$tmp/make.log" | tail -20
	return 1
}

m=$tmp/ext
cp -r "$TOP/harness/ext-module" "$m"
sum=$(sha1sum < "$b/Module.markers")
check "an external module builds (M=)" kmake M="$m" modules
check "... its Module.markers lists its markers alone" \
	eq "$(cat "$m/Module.markers" 2>/dev/null)" \
	"$(printf 'ext_markers_load\t%s/ext_markers\tpid %%d comm %%s\n' "$m"
	   printf 'ext_markers_noargs\t%s/ext_markers\t ' "$m")"
check "... and the kernel's is unchanged" \
	eq "$(sha1sum < "$b/Module.markers")" "$sum"
check "make clean M= removes it" kmake M="$m" clean
check "... gone" test ! -e "$m/Module.markers"

# bad_module CASE INIT...: an external module whose __markers_strings
# section holds the arrays INIT..., in $tmp/CASE; builds it, output in
# $tmp/make.log.
bad_module() {
	local c=$1 i n=0

	shift
	mkdir "$tmp/$c"
	echo "obj-m := bad_$c.o" > "$tmp/$c/Kbuild"
	{
		echo '#include <linux/module.h>'
		for i in "$@"; do
			n=$((n + 1))
			echo "static const char s$n[] __used __aligned(1)"
			echo "__section(\"__markers_strings\") = $i;"
		done
		echo 'MODULE_LICENSE("GPL");'
		echo 'MODULE_DESCRIPTION("A malformed __markers_strings section");'
	} > "$tmp/$c/bad_$c.c"
	make -s -C "$b" CC="ccache gcc" M="$tmp/$c" modules > "$tmp/make.log" 2>&1
}

# says MESSAGE: the last build said MESSAGE.
says() {
	grep -qF "$1" "$tmp/make.log" && return 0
	sed 's/^/  /' "$tmp/make.log" | tail -10
	return 1
}

check "modpost refuses a name that is not an identifier" \
	eval '! bad_module name "\"bad-name\\0x %d\""'
check "... saying so" says 'marker name "bad-name" is not an identifier'
check "modpost refuses an entry cut short" \
	eval "! bad_module cut \"{ 'c', 'u', 't', 0, 'x' }\""
check "... saying so" says "__markers_strings ends inside an entry"
check "a name without a subsystem prefix: the module builds" \
	bad_module prefix '"noprefix\0x %d"'
check "... with a warning" \
	says "marker noprefix: no <subsystem>_ prefix"
check "a format with a newline: the module builds" \
	bad_module newline '"nl\0x %d\n"' '"ok\0y %d"'
check "... with a warning" \
	says "marker nl: a newline in the format, left out of Module.markers"
check "... and the other marker's line" \
	eq "$(cut -f1,3 "$tmp/newline/Module.markers")" "$(printf 'ok\ty %%d')"

# An object that ends inside its __markers_strings section (an
# interrupted build, a truncated copy): modpost must name it and fail,
# not read past the end of the file (harness/elf-cut.py).
check "a module with a marker string builds" bad_module short '"cut_short\0x %d"'
python3 "$TOP/harness/elf-cut.py" "$tmp/short/bad_short.o" __markers_strings
check "modpost refuses an object that ends inside __markers_strings" \
	eval '! make -s -C "$b" CC="ccache gcc" M="$tmp/short" modules > "$tmp/make.log" 2>&1'
check "... saying so" says "bad_short: __markers_strings runs past the end of the file"
check "... without crashing" eval '! grep -qiE "segmentation|core dumped|Error 1[3-9][0-9]" "$tmp/make.log"'

# A kernel build directory's "make clean" (Module.symvers stays, for
# external modules; mrproper removes it).
mkdir "$tmp/o"
touch "$tmp/o/Module.markers" "$tmp/o/Module.symvers"
check "make clean in a build directory" \
	make -s -C "$SRC" O="$tmp/o" clean
check "... removes Module.markers, keeps Module.symvers" \
	eq "$(ls "$tmp/o")" "Module.symvers"
exit $rc
