# SPDX-License-Identifier: GPL-2.0
# Copy the host's x86-64 programs into a guest's root tree with every
# shared library they load, each at its host path (the dynamic loader at
# its absolute path included): the guest's ld.so searches
# /lib/x86_64-linux-gnu without an ld.so.cache.  Sourced, never executed
# (harness/guest-tools.sh, harness/bpftrace-check.sh), after lib.sh.

is_elf() { [ "$(head -c 4 "$1" 2>/dev/null)" = $'\177ELF' ]; }

# guest_copy ROOT SRC DEST: SRC, symbolic links followed, as ROOT/DEST.
guest_copy() {
	mkdir -p "$1/$(dirname "$3")"
	cp -L "$2" "$1/$3"
}

# guest_libs ELF...: the absolute paths of the shared objects the ELF
# files need, the loader included.  ldd lists the dependencies of
# dependencies.
guest_libs() {
	local f out

	for f in "$@"; do
		out=$(ldd "$f" 2>&1) || die "ldd $f: $out"
		if grep -q 'not found' <<<"$out"; then
			die "$f: $(grep 'not found' <<<"$out" | tr -s ' \t\n' ' ')"
		fi
		# "name => /path (addr)", "/path (addr)"; not the vDSO.
		awk '$2 == "=>" && $3 ~ /^\// { print $3 }
		     $1 ~ /^\// { print $1 }' <<<"$out"
	done | sort -u
}

# guest_copy_libs ROOT ELF...: copy what the ELF files need into ROOT.
guest_copy_libs() {
	local root=$1 needed f

	shift
	# Not in the for list: there a failure of guest_libs would not stop us.
	needed=$(guest_libs "$@") || return 1
	for f in $needed; do
		guest_copy "$root" "$f" "$f"
	done
}
