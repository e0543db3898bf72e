#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""elf-cut.py OBJECT SECTION: make OBJECT end inside SECTION.

What an interrupted build or a truncated copy leaves: an ELF relocatable
object (64-bit, little-endian) whose section headers are intact but
whose file ends a few bytes into SECTION's contents.  The contents are
moved to the end of the file, padded so that the file ends at a page
boundary, and cut there: the section's header still gives its full
size, which runs past the end of the file by more than a page.  No byte
of it from the cut on is NUL, so a reader that trusts the size finds
no end of string before the end of the mapping.
"""
import struct
import sys

PAGE = 4096


def main(path, name):
    with open(path, 'rb') as f:
        data = bytearray(f.read())
    if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
        sys.exit(f'{path}: not a 64-bit little-endian ELF object')
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)

    def shdr(i):
        return shoff + i * shentsize

    stroff, = struct.unpack_from('<Q', data, shdr(shstrndx) + 0x18)
    for i in range(1, shnum):
        nameoff, = struct.unpack_from('<I', data, shdr(i))
        end = data.index(b'\0', stroff + nameoff)
        if data[stroff + nameoff:end].decode() == name:
            break
    else:
        sys.exit(f'{path}: no section {name}')
    off, size = struct.unpack_from('<QQ', data, shdr(i) + 0x18)
    contents = bytes(data[off:off + size])
    first_nul = contents.find(b'\0')
    if first_nul < 2:
        sys.exit(f'{path}: {name} starts with no string to cut')
    # Pad to a page boundary less the part of the first string kept.
    keep = first_nul - 1
    data += b'x' * ((-(len(data) + keep)) % PAGE)
    new_off = len(data)
    data += contents[:keep]
    # The header says the section is more than a page longer than that.
    struct.pack_into('<QQ', data, shdr(i) + 0x18, new_off, keep + 2 * PAGE)
    with open(path, 'wb') as f:
        f.write(data)


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
