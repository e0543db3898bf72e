#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bpftrace-check.sh: boot the btf variant with Debian's bpftrace in its
# guest and check that bpftrace lists markers' trace events, attaches to
# them and reads their fields (harness/guest/bpftrace.sh), and that
# libbpf's tp_btf and raw_tp programs (harness/btf/) attach to markers by
# name, typed by their BTF.  bpftrace's libraries (LLVM, clang, z3, ICU:
# about 210 MB) are too big for make check's initramfs: this one is the variant's own initramfs.img
# followed by an uncompressed archive with bpftrace, what it loads, and
# the current harness/guest (the kernel unpacks both, the later files
# over the earlier).  The btf variant is default with BTF
# (configs/btf.config), which bpftrace and bpftool read from
# /sys/kernel/btf/; it is built first (incremental).
# Prints the guest's results and the time taken; non-zero on any failure,
# a splat on the console included.  GUEST_MEM (MB) and GUEST_TIMEOUT (s)
# as for harness/boot.sh: its 1024 MB are enough, 768 too; with 640 the
# archive did not fit in the rootfs (a tmpfs of half the memory).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$TOP/harness/guest-copy.sh"

start=$(date +%s)
bash "$TOP/harness/deps.sh" bpftrace libbpf-dev clang-14
v=btf
b=$(builddir $v)
# Incremental, as for make demo: the guest runs the current sources.
bash "$TOP/harness/build.sh" $v

log "$v: assembling the bpftrace initramfs"
bpftrace=$(command -v bpftrace) || die "no bpftrace (apt-get install bpftrace)"
extra=$b/root-bpftrace
initrd=$b/initramfs-bpftrace.cpio
rm -rf "$extra"
mkdir -p "$extra/harness"
guest_copy "$extra" "$bpftrace" /usr/bin/bpftrace
guest_copy_libs "$extra" "$bpftrace" ||
	die "bpftrace's shared libraries could not be copied"
# harness/btf/: libbpf programs on markers (tp_btf, raw_tp), compiled by
# clang against this kernel's BTF, and their loader, linked with
# Debian's libbpf.
progs=$b/btf-progs
mkdir -p "$progs"
bpftool btf dump file "$b/vmlinux" format c > "$progs/vmlinux.h"
clang-14 -target bpf -O2 -g -D__TARGET_ARCH_x86 -I"$progs" \
	-c "$TOP/harness/btf/marker_btf.bpf.c" -o "$progs/marker_btf.bpf.o"
gcc -O2 -Wall -o "$progs/marker_btf" "$TOP/harness/btf/marker_btf.c" -lbpf
guest_copy "$extra" "$progs/marker_btf" /usr/bin/marker_btf
guest_copy_libs "$extra" "$progs/marker_btf" ||
	die "marker_btf's shared libraries could not be copied"
cp "$progs/marker_btf.bpf.o" "$extra/harness/"
# bpftrace 0.17 parses a tracepoint's format file into a C struct, which
# clang compiles with <linux/types.h>, BTF or not: the
# user-space API headers, as linux-libc-dev has them on the host, at the
# same paths (bpftrace searches /usr/include and
# /usr/include/x86_64-linux-gnu).
for f in $(echo '#include <linux/types.h>' | gcc -M -ffreestanding -x c - |
	   sed 's/^-://; s/\\$//' | tr ' ' '\n' | grep '^/'); do
	guest_copy "$extra" "$f" "$f"
done
[ -f "$extra/usr/include/linux/types.h" ] ||
	die "no <linux/types.h> (apt-get install linux-libc-dev)"
cp "$TOP"/harness/guest/* "$extra/harness/"
mv "$extra/harness/init" "$extra/init"
chmod +x "$extra/init" "$extra"/harness/*
{
	cat "$b/initramfs.img"
	# The kernel reads an uncompressed archive only at a 4-byte boundary;
	# it skips the zeros before it.
	head -c $(( (4 - $(stat -c %s "$b/initramfs.img") % 4) % 4 )) /dev/zero
	(cd "$extra" && find . | cpio -o -H newc --quiet)
} > "$initrd.tmp"
mv "$initrd.tmp" "$initrd"
log "$v: $initrd: $(( $(stat -c %s "$initrd") / 1048576 )) MB"

clog=$b/console-bpftrace.log
log "$v: booting with bpftrace (console in $clog)"
boot_start=$(date +%s)
# No KUnit suite: none is named so.  Only the guest's lines are shown.
set +e
INITRD=$initrd \
	bash "$TOP/harness/boot.sh" $v bpftrace kunit.filter_glob=none |
	tr -d '\r' | sed -n '/^TAP version 13$/,/^bpftrace-check: /p'
rc=${PIPESTATUS[0]}
set -e
end=$(date +%s)

fail=0
[ "$rc" = 0 ] || { echo "bpftrace-check: QEMU exited with $rc"; fail=1; }
if grep -q 'Initramfs unpacking failed' "$clog"; then
	echo "bpftrace-check: the initramfs did not fit; more GUEST_MEM?"
	fail=1
fi
summary=$(tr -d '\r' < "$clog" |
	grep -E '^bpftrace-check: [0-9]+ passed, [0-9]+ failed$' | tail -1) || true
case "$summary" in
"") echo "bpftrace-check: no summary from the guest"; fail=1 ;;
*" 0 passed,"* | *", "[1-9]*" failed") fail=1 ;;
esac
# Splats, a guest that did not finish, and the TAP lines once more;
# bpftrace's own output (the "# " lines) may say WARNING: without a splat.
grep -av '^# ' "$clog" > "$clog.count" || true
if ! python3 "$TOP/harness/count.py" "$clog.count" > "$clog.result"; then
	# The TAP lines' failures are above; splats and the like are not.
	grep '^FAIL' "$clog.result" | grep -v ': kselftest: ' |
		sed "s|$clog.count|$clog|" || true
	fail=1
fi
rm -f "$clog.count" "$clog.result"
[ $fail = 0 ] || echo "bpftrace-check: the console is in $clog"
echo "bpftrace-check: $([ $fail = 0 ] && echo passed || echo FAILED)" \
	"in $((end - start)) s (boot $((end - boot_start)) s)"
exit $fail
