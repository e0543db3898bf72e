#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-tools.sh ROOT: copy Debian's trace-cmd and perf into the guest's
# root tree ROOT, with every shared library they load (the dynamic loader
# at its absolute path included) and the libtraceevent plugins.  The
# guest's ld.so searches /lib/x86_64-linux-gnu without an ld.so.cache.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

root=${1:?root}
[ -d "$root" ] || die "guest-tools: no root tree $root"

is_elf() { [ "$(head -c 4 "$1" 2>/dev/null)" = $'\177ELF' ]; }

# Debian's /usr/bin/perf is either the binary itself or a wrapper script
# that runs /usr/bin/perf_<version>: take the binary.
perf_binary() {
	local f

	is_elf /usr/bin/perf && { echo /usr/bin/perf; return; }
	for f in $(printf '%s\n' /usr/bin/perf_[0-9]* | sort -rV); do
		is_elf "$f" && { echo "$f"; return; }
	done
	die "guest-tools: no perf binary (install linux-perf; harness/deps.sh)"
}

# copy SRC DEST: SRC, symbolic links followed, as ROOT/DEST.
copy() {
	mkdir -p "$root/$(dirname "$2")"
	cp -L "$1" "$root/$2"
}

# libs ELF...: the absolute paths of the shared objects the ELF files
# need, the loader included.  ldd lists the dependencies of dependencies.
libs() {
	local f out

	for f in "$@"; do
		out=$(ldd "$f" 2>&1) || die "guest-tools: ldd $f: $out"
		if grep -q 'not found' <<<"$out"; then
			die "guest-tools: $f: $(grep 'not found' <<<"$out" | tr -s ' \t\n' ' ')"
		fi
		# "name => /path (addr)", "/path (addr)"; not the vDSO.
		awk '$2 == "=>" && $3 ~ /^\// { print $3 }
		     $1 ~ /^\// { print $1 }' <<<"$out"
	done | sort -u
}

tc=$(command -v trace-cmd) ||
	die "guest-tools: no trace-cmd (install it; harness/deps.sh)"
perf=$(perf_binary)
copy "$tc" /usr/bin/trace-cmd
copy "$perf" /usr/bin/perf
elves=("$tc" "$perf")

# The plugins libtraceevent loads, libtraceevent1-plugin's for trace-cmd,
# perf's own copy for perf; each directory only where it is installed.
for d in /usr/lib/x86_64-linux-gnu/traceevent/plugins \
	 /usr/lib/traceevent/plugins; do
	[ -d "$d" ] || continue
	for f in "$d"/*.so; do
		[ -e "$f" ] || continue
		copy "$f" "$f"
		elves+=("$f")
	done
done

# Not in the for list: there a failure of libs would not stop us.
needed=$(libs "${elves[@]}")
for f in $needed; do
	copy "$f" "$f"
done
