#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-tools.sh ROOT: copy Debian's trace-cmd, perf, bpftool and
# SystemTap's staprun into the guest's root tree ROOT, with every shared
# library they load (the dynamic loader at its absolute path included)
# and the libtraceevent plugins.  The guest's ld.so searches
# /lib/x86_64-linux-gnu without an ld.so.cache.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/harness/guest-copy.sh"

root=${1:?root}
[ -d "$root" ] || die "guest-tools: no root tree $root"

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

tc=$(command -v trace-cmd) ||
	die "guest-tools: no trace-cmd (install it; harness/deps.sh)"
perf=$(perf_binary)
# Debian's bpftool is in /usr/sbin, which a user's PATH may lack.
bpftool=$(PATH=$PATH:/usr/sbin command -v bpftool) ||
	die "guest-tools: no bpftool (install it; harness/deps.sh)"
is_elf "$bpftool" || die "guest-tools: $bpftool is not a binary"
guest_copy "$root" "$tc" /usr/bin/trace-cmd
guest_copy "$root" "$perf" /usr/bin/perf
guest_copy "$root" "$bpftool" /usr/sbin/bpftool
elves=("$tc" "$perf" "$bpftool")
# SystemTap's staprun, which runs stapio from where it is installed.
for f in /usr/bin/staprun /usr/lib/systemtap/stapio; do
	is_elf "$f" || die "guest-tools: no $f (install systemtap; harness/deps.sh)"
	guest_copy "$root" "$f" "$f"
	elves+=("$f")
done

# The plugins libtraceevent loads, libtraceevent1-plugin's for trace-cmd,
# perf's own copy for perf; each directory only where it is installed.
for d in /usr/lib/x86_64-linux-gnu/traceevent/plugins \
	 /usr/lib/traceevent/plugins; do
	[ -d "$d" ] || continue
	for f in "$d"/*.so; do
		[ -e "$f" ] || continue
		guest_copy "$root" "$f" "$f"
		elves+=("$f")
	done
done

guest_copy_libs "$root" "${elves[@]}" ||
	die "guest-tools: the shared libraries could not be copied"
