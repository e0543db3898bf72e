#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stap-modules.sh BUILD_DIR OUT_DIR: build a probe module of each
# harness/stap/*.stp script (stap_<script>.ko) against the x86-64 build
# in BUILD_DIR with Debian's SystemTap 4.8, into OUT_DIR, for
# harness/guest/stap.sh.  4.8's runtime predates 6.12: the modules are
# built with a copy of it in $OUT/stap-runtime, patched by
# harness/stap/runtime.patch (which says what each hunk answers).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

b=$(realpath "${1:?build directory}")
o=${2:?output directory}
rt=$OUT/stap-runtime
stamp=$( { cat "$TOP/harness/stap/runtime.patch"
	   dpkg-query -W -f='${Version}' systemtap-runtime; } | sha1sum)
if [ "$(cat "$rt/.stamp" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$rt"
	cp -a /usr/share/systemtap/runtime "$rt"
	patch -d "$rt" -p1 -s < "$TOP/harness/stap/runtime.patch" ||
		die "stap: runtime.patch does not apply"
	echo "$stamp" > "$rt/.stamp"
fi
# stap compiles its probe module, and the feature tests that choose the
# runtime's code paths, with -Werror.  6.12's own flags warn where 4.8's
# code is older than them: -Wmissing-prototypes (every feature test would
# fail), -Wmissing-declarations, -Wempty-body and -Wold-style-declaration
# (the runtime and the translator's C).
kcflags="-Wno-missing-prototypes -Wno-missing-declarations -Wno-empty-body
-Wno-old-style-declaration"
mkdir -p "$o"
o=$(realpath "$o")
for s in "$TOP"/harness/stap/*.stp; do
	m=stap_$(basename "$s" .stp)
	if ! (cd "$o" && stap -p4 -R "$rt" -B KCFLAGS="$(echo $kcflags)" \
		-r "$b" -m "$m" "$s") > "$o/$m.log" 2>&1; then
		grep -E 'error|ERROR' "$o/$m.log" | head -20 >&2
		die "stap: $m does not build (see $o/$m.log)"
	fi
done
