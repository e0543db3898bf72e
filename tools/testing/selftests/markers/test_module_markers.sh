#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Module.markers, which modpost writes at the top of the build tree,
# against the markers the running kernel lists in debugfs: for vmlinux and
# for every module under /lib/modules/$(uname -r) that loads here, loaded
# for the test unless it already is, the same marker names with the same
# formats, nothing missing and nothing extra.  A name that only MARK_ENABLED()
# uses has no format and no line.  The file is the build tree's, through
# /lib/modules/$(uname -r)/build, or $MODULE_MARKERS.  Root only.
. "$(dirname "$0")/lib.sh"
require_root
MM=${MODULE_MARKERS:-/lib/modules/$(uname -r)/build/Module.markers}
if [ ! -f "$MM" ]; then
	echo "markers: no $MM"
	exit $ksft_skip
fi
D=/sys/kernel/debug
[ -d $D/markers ] || mount -t debugfs nodev $D
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# owner FILE: a module file's name as the kernel has it.
owner() {
	basename "$1" | sed -e 's/\.ko.*$//' -e 's/-/_/g'
}

# expected OWNER: "name<tab>format" of OWNER's lines in Module.markers,
# whose module column is the object's path in the build tree.
expected() {
	awk -F '\t' -v o="$1" '{
		m = $2; sub(/.*\//, "", m); gsub(/-/, "_", m)
		if (m == o)
			print $1 "\t" substr($0, length($1) + length($2) + 3)
	}' "$MM" | sort
}

# listed OWNER: the same, from debugfs' markers file.
listed() {
	awk -v o="$1" '$2 == o {
		f = substr($0, index($0, " format=\"") + 9)
		f = substr(f, 1, length(f) - 1)
		if (f != "")
			print $1 "\t" f
	}' $D/markers/markers | sort
}

# same OWNER: Module.markers and debugfs agree on OWNER's markers.
same() {
	expected "$1" > "$tmp/expected"
	listed "$1" > "$tmp/listed"
	cmp -s "$tmp/expected" "$tmp/listed" && return 0
	diff "$tmp/expected" "$tmp/listed" | sed -n 's/^[-+][^-+]/  &/p'
	echo "  (-: Module.markers only, +: debugfs only)"
	return 1
}

check "Module.markers is sorted, each line once" \
	eq "$(sort -u "$MM" | cmp -s - "$MM" && echo sorted)" sorted
check "every line has a name, a module and a format" \
	eq "$(awk -F '\t' 'NF < 3 || $1 !~ /^[A-Za-z0-9_]+$/' "$MM")" ""
check "vmlinux has lines" test "$(expected vmlinux | wc -l)" -gt 0
check "vmlinux: the same names and formats" same vmlinux

find /lib/modules/"$(uname -r)" -name '*.ko*' > "$tmp/modules"
for f in $(cat "$tmp/modules"); do
	m=$(owner "$f")
	echo "$m" >> "$tmp/owners"
	loaded=1
	if [ ! -d /sys/module/"$m" ]; then
		loaded=0
		if ! modprobe -q "$m" 2>/dev/null; then
			# Not for this machine (a Xen driver under QEMU, say).
			check "$m does not load here, and has no line" \
				eq "$(expected "$m")" ""
			continue
		fi
	fi
	check "$m: the same names and formats" same "$m"
	[ $loaded = 1 ] || modprobe -r "$m" ||
		check "$m unloads" false
done
check "no line of a module the kernel does not have" \
	eq "$(awk -F '\t' '$2 != "vmlinux" { print $2 }' "$MM" |
	      sed -e 's/.*\///' -e 's/-/_/g' | sort -u |
	      grep -vxF -f "$tmp/owners" | tr '\n' ' ')" ""
exit $rc
