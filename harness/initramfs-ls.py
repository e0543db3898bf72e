#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""initramfs-ls.py IMAGE: the paths an initramfs image holds, one a line.

IMAGE is what the kernel unpacks: cpio archives (newc) one after the
other, each gzip-compressed or not, with zeros between them, as
harness/build.sh and harness/bpftrace-check.sh write them.  Paths are
printed without their leading "./", in archive order; a later archive may
list a path again, as the kernel would write it again.
"""
import sys
import zlib

MAGIC = b'070701'


def newc(buf):
    """The names in the newc archive at the start of buf, and what follows
    its trailer."""
    names, pos = [], 0
    while True:
        if buf[pos:pos + 6] != MAGIC:
            sys.exit(f'no newc header where one should be ({pos})')
        size = int(buf[pos + 54:pos + 62], 16)
        namesize = int(buf[pos + 94:pos + 102], 16)
        name = buf[pos + 110:pos + 110 + namesize - 1].decode()
        pos = (pos + 110 + namesize + 3) & ~3
        pos = (pos + size + 3) & ~3
        if name == 'TRAILER!!!':
            return names, buf[pos:]
        names.append(name.removeprefix('./'))


def listing(data):
    names = []
    while data.strip(b'\0'):
        data = data.lstrip(b'\0')
        if data[:2] == b'\x1f\x8b':
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)
            seg, _ = newc(d.decompress(data) + d.flush())
            data = d.unused_data
        elif data[:6] == MAGIC:
            seg, data = newc(data)
        else:
            sys.exit('neither a gzip stream nor a newc archive')
        names += seg
    return names


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], 'rb') as f:
        print('\n'.join(listing(f.read())))
