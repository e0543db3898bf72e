#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""jump-check.py CROSS_PREFIX MODULE.ko: the MARK() sites of a module built
without arch marker sites (CONFIG_MARKERS_STATIC_KEYS) are jump labels.

Every __jump_table entry whose key is in __markers (a struct marker's
key) must point at a NOP, as objdump disassembles it; and there must be at
least one.  Prints one line per site and a verdict; non-zero on failure.
Reads the relocations with readelf (RELA on arm64, REL with the addends in
the section's bytes on i386) and the code with objdump, both binutils'.
"""
import os
import re
import subprocess
import sys


# The kernel's 5-byte NOPs (arch/x86/include/asm/nops.h): BYTES_NOP5 on
# 32-bit x86 (a lea objdump does not call a nop), and on x86-64.
X86_NOP5 = ('3e8d742600', '0f1f440000')


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True,
                          text=True).stdout


def section_bytes(tool, ko, name):
    """The contents of section @name, from objdump -s; b'' if none."""
    data = bytearray()
    if not re.search(r'\] %s ' % re.escape(name),
                     run(tool + 'readelf', '-SW', ko)):
        return b''
    for line in run(tool + 'objdump', '-s', '-j', name, ko).splitlines():
        m = re.match(r'^ [0-9a-f]+ ((?:[0-9a-f]{2,8} ){1,4})', line)
        if m:
            data += bytes.fromhex(m.group(1).replace(' ', ''))
    return bytes(data)


def relocations(tool, ko, name):
    """{offset: (symbol, addend)} of the relocations against @name."""
    out = run(tool + 'readelf', '-rW', ko)
    relocs, inside = {}, False
    for line in out.splitlines():
        if line.startswith('Relocation section'):
            inside = re.search(r"'\.rela?%s'" % re.escape(name), line)
            continue
        if not inside:
            continue
        f = line.split()
        if len(f) < 5 or not re.match(r'^[0-9a-f]+$', f[0]):
            continue
        addend = None
        if len(f) >= 7 and f[5] in '+-':
            addend = int(f[6], 16) * (-1 if f[5] == '-' else 1)
        relocs[int(f[0], 16)] = (f[4], addend)
    return relocs


def symbol_sections(tool, ko):
    """{symbol: section name}, for keys named by a local symbol."""
    names = {}
    for line in run(tool + 'readelf', '-SW', ko).splitlines():
        m = re.match(r'^\s*\[\s*(\d+)\]\s+(\S+)', line)
        if m:
            names[m.group(1)] = m.group(2)
    syms = {}
    for line in run(tool + 'readelf', '-sW', ko).splitlines():
        f = line.split()
        if len(f) >= 8 and f[6] in names:
            syms[f[7]] = names[f[6]]
    return syms


def insn_at(tool, ko, section, addr, size):
    out = run(tool + 'objdump', '-d', '-j', section,
              '--start-address=%#x' % addr,
              '--stop-address=%#x' % (addr + size), ko)
    for line in out.splitlines():
        m = re.match(r'^\s*%x:\s+((?:[0-9a-f]{2,8} )+)\s*(.*)$' % addr, line)
        if m:
            return m.group(1).strip(), m.group(2).strip()
    return None, None


def main():
    if len(sys.argv) != 3:
        print('usage: jump-check.py CROSS_PREFIX MODULE.ko', file=sys.stderr)
        return 2
    tool, ko = sys.argv[1], sys.argv[2]
    if not os.path.isfile(ko):
        print(f'{ko}: no such module (was it built?)', file=sys.stderr)
        return 2
    header = run(tool + 'readelf', '-h', ko)
    is64 = 'ELF64' in header
    entry = 16 if is64 else 12
    # The jump label's size: an A64 instruction, or x86's 5-byte NOP.
    size = 4 if 'AArch64' in header else 5
    key_off = 8
    table = section_bytes(tool, ko, '__jump_table')
    relocs = relocations(tool, ko, '__jump_table')
    syms = symbol_sections(tool, ko)
    sites = bad = 0
    for off in range(0, len(table), entry):
        code, key = relocs.get(off), relocs.get(off + key_off)
        if not code or not key:
            print('%s: __jump_table+%#x: not relocated' % (ko, off))
            bad += 1
            continue
        key_sec = syms.get(key[0], key[0])
        if key_sec != '__markers':
            continue
        addend = code[1]
        if addend is None:      # REL: the addend is in the entry itself
            addend = int.from_bytes(table[off:off + 4], 'little', signed=True)
        raw, insn = insn_at(tool, ko, code[0], addend, size)
        nop = insn is not None and (insn.split()[0].startswith('nop') or
                                    raw.replace(' ', '') in X86_NOP5)
        print('%s: MARK() site %s+%#x: %s (%s), key %s: %s' %
              (ko.split('/')[-1], code[0], addend, insn, raw, key_sec,
               'a jump-label NOP' if nop else 'NOT A NOP'))
        sites += 1
        bad += not nop
    if not sites:
        print('%s: no jump label on a marker key' % ko)
        return 1
    print('%s: %d MARK() sites, %d not a jump-label NOP' % (ko, sites, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
