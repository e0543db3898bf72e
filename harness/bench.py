#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench.py OUTDIR KO PASS_LOG ARM_LOG WALL_LOG [ARCH=LOG...]: the tables
of `make bench`.

Reads the "markers_bench: row/arm" lines of three guest consoles (-icount
with 1 CPU, -icount with 2 CPUs, multi-threaded TCG with 2 CPUs) and the
sizes of the benchmark module, and writes OUTDIR/bench.md, bench.csv and,
when matplotlib is there, bench.png.  Each ARCH=LOG is the -icount
console of another architecture, whose sites are jump labels (section 8
of bench.md).  Prints the markdown.
"""
import csv
import re
import statistics
import subprocess
import sys

outdir, ko, pass_log, arm_log, wall_log = sys.argv[1:6]
others = [a.split('=', 1) for a in sys.argv[6:]]
mem_log = next((p for a, p in others if a == 'mem'), None)
btf_log = next((p for a, p in others if a == 'btf'), None)
site_log = next((p for a, p in others if a == 'site'), None)
others = [(a, p) for a, p in others if a not in ('mem', 'btf', 'site')]


def read(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except OSError:
        return ''


def tsc_khz(text):
    """The module's clock: the TSC on x86, ktime's ns (1 GHz) elsewhere."""
    m = re.search(r'markers_bench: (?:tsc|clock)_khz (\d+)', text)
    return int(m.group(1)) if m else 1000000


def rows(path):
    """LABEL -> instructions (icount) or ns (wall clock) per iteration."""
    text = read(path)
    khz = tsc_khz(text)
    out = {}
    for m in re.finditer(r'markers_bench: row (\S+) (\d+)', text):
        out[m.group(1)] = int(m.group(2)) / 100 * 1e6 / khz
    return out


def record_bytes(path):
    """LABEL -> bytes per record, ring-buffer event header included."""
    out = {}
    for m in re.finditer(r'markers_bench: bytes (\S+) (\d+) (\d+)',
                         read(path)):
        if int(m.group(3)):
            out[m.group(1)] = int(m.group(2)) / int(m.group(3))
    return out


def arms(path):
    """(WHAT, SITES) -> (median us, median syncs, max hold ns)."""
    text = read(path)
    khz = tsc_khz(text)
    acc = {}
    pat = r'markers_bench: arm (\S+) (\d+) (\d+) (\d+) (\d+)'
    for m in re.finditer(pat, text):
        what, sites = m.group(1), int(m.group(2))
        t, syncs, hold = (int(m.group(i)) for i in (3, 4, 5))
        acc.setdefault((what, sites), []).append(
            (t / khz * 1000, syncs, hold))
    return {k: (statistics.median(x[0] for x in v),
                statistics.median(x[1] for x in v),
                max(x[2] for x in v)) for k, v in acc.items()}


ic = rows(pass_log)
wall = rows(wall_log)
arm = arms(arm_log)
md = []
table = []      # csv rows


def ratio(v, best):
    return v / best if best else float('nan')


def section(title, note, header, lines):
    md.append('### ' + title)
    md.append('')
    if note:
        md.append(note)
        md.append('')
    md.append('| ' + ' | '.join(header) + ' |')
    md.append('|' + '---|' * len(header))
    for line in lines:
        md.append('| ' + ' | '.join(line) + ' |')
    md.append('')


def fmt(v, digits=1):
    if v is None or v != v:
        return '-'
    return f'{v:.{digits}f}'


def per_iteration(sec, title, note, names, base):
    """Rows over the baseline loop, ratio to the cheapest."""
    vals = {}
    for label, name in names:
        if label in ic and base in ic:
            vals[label] = ic[label] - ic[base]
    best = min((v for v in vals.values() if v > 0), default=0)
    lines = []
    for label, name in names:
        if label not in vals:
            lines.append([name, '-', '-', '-'])
            continue
        w = wall[label] - wall[base] if label in wall and base in wall \
            else None
        lines.append([name, fmt(vals[label]), fmt(ratio(vals[label], best),
                                                   2), fmt(w)])
        table.append([sec, name, f'{vals[label]:.2f}', 'instructions',
                      f'{ratio(vals[label], best):.3f}',
                      '' if w is None else f'{w:.2f}'])
    section(title, note, ['contender', 'instructions', 'ratio to best',
                          'wall ns (noisy)'], lines)
    return vals


pass_names = [('pass/mark', 'MARK()'),
              ('pass/mark-unselected',
               'MARK(), its marker enabled at other sites only'),
              ('pass/tracepoint', 'tracepoint'),
              ('pass/static_branch', 'static branch'),
              ('pass/flag', 'flag check (2.6.24 style)'),
              ('pass/trace_mark', '_trace_mark()')]
md.append(f'Empty loop: {fmt(ic.get("pass/empty"))} instructions per '
          'iteration (icount); the rows below are over it.')
md.append('')
per_iteration('1-disabled', '1. Disabled, per pass',
              'Over the empty loop; -O2, retpolines, IBT, as distributions '
              'build.', pass_names, 'pass/empty')
hit_names = []
for n in (1, 2, 4):
    hit_names += [(f'hit/mark-{n}', f'MARK(), {n} probe(s)'),
                  (f'hit/tracepoint-{n}', f'tracepoint, {n} probe(s)'),
                  (f'hit/trace_mark-{n}', f'_trace_mark(), {n} probe(s)')]
hit_names += [('hit/static_branch-call', 'static branch + direct call'),
              ('hit/flag-call', 'flag check + direct call'),
              ('hit/kprobe', 'kprobe on MARK_SYM (int3) [1]'),
              ('hit/kprobe-optimized', 'kprobe on MARK_SYM, optimized')]
hits = per_iteration(
    '2-enabled', '2. Enabled, per hit, empty probes',
    'Over the empty loop.  [1] Instruction counts are path lengths: the '
    'trap itself (int3 delivery and iret) costs no instructions here.  '
    'Published: a kprobe hit 0.49-0.57 us, optimized 0.06 us '
    '(Documentation/trace/kprobes.rst); +4178 cycles per kprobe hit vs '
    '55.7 for a marker and its probe (Desnoyers, 2006-09-30).',
    hit_names, 'pass/empty')
rec_names = [('rec/marker_event', 'MARK() + its event (markers:bench_rec)'),
             ('rec/trace_event', 'TRACE_EVENT, same fields'),
             ('rec/kprobe_event', 'kprobe_events on MARK_SYM, same values '
              '[1]'),
             ('rec/marker_event_instance_alone', 'MARK() + its event in a '
              'trace instance, enabled there only'),
             ('rec/marker_event_instance', 'MARK() + its event in a trace '
              'instance that selects the site [2]')]
per_iteration('3-recording', '3. Recording u32 + u64 + string, per hit',
              'Over the same loop with nothing recording.  [2] The event '
              'enabled at the top level too, whose query (marker_sites) '
              'leaves the site out: the site calls the instance\'s probe '
              'alone, a subset of the marker\'s probes, through '
              'marker_iterate().', rec_names, 'rec/none')
tool_names = [('rec/marker_bpf', 'MARK() event + BPF program'),
              ('rec/trace_event_bpf', 'TRACE_EVENT + the same BPF program'),
              ('rec/marker_raw_tp', 'MARK() + a raw_tp BPF program'),
              ('rec/tracepoint_raw_tp',
               'TRACE_EVENT\'s tracepoint + the same raw_tp program'),
              ('rec/marker_perf_stat', 'MARK() event, perf stat counting'),
              ('rec/trace_event_perf_stat',
               'TRACE_EVENT, perf stat counting')]
per_iteration('3-tools', '3a. BPF and perf on the same records, per hit',
              'Over the same loop with nothing attached.  The BPF program '
              '(tools/testing/selftests/markers/bpf_count.c, JIT-compiled) '
              'is a BPF_PROG_TYPE_TRACEPOINT program that counts the hit '
              'and adds its seq field into an array map, or the same '
              'BPF_PROG_TYPE_RAW_TRACEPOINT program adding args[0], '
              'attached by name (no record built); perf stat -e '
              'counts the event in the looping task.',
              tool_names, 'rec/none')

# Bytes per record and listing times, from the pass log.
text = read(pass_log)
nbytes = record_bytes(pass_log)
lists = {m.group(1): (int(m.group(2)), float(m.group(4)) - float(m.group(3)))
         for m in re.finditer(r'markers_bench: list (\S+) (\d+) (\S+) (\S+)',
                              text)}
lines = [[name, fmt(nbytes.get(label))] for label, name in rec_names[:2]]
for label, name in rec_names[:2]:
    if label in nbytes:
        table.append(['3-bytes', name, f'{nbytes[label]:.1f}',
                      'bytes per record', '', ''])
section('3b. Bytes per record in the ring buffer',
        'The per-CPU "bytes" over "entries" of the trace instance after '
        'the loop, ring-buffer event header included.',
        ['contender', 'bytes per record'], lines)
lines = [[f, f'{n:,}', f'{t:.2f} s'] for f, (n, t) in lists.items()]
section('3c. Reading the debugfs listings',
        'Guest time (uptime, under -icount) to read each file whole, '
        'markers_bench loaded: 10,000 sites of bench_n10000 among them.',
        ['file', 'lines', 'guest time'], lines)



def site_field():
    """3e: the marker's recording row again with markers.site_field=1."""
    st = rows(site_log)
    sb = record_bytes(site_log)
    lines = []
    for label, name, r, b in (
            ('rec/marker_event', 'MARK() + its event', ic, nbytes),
            ('rec/marker_event', 'MARK() + its event, call_site field', st,
             sb),
            ('rec/trace_event', 'TRACE_EVENT, same fields (no call site)',
             ic, nbytes)):
        v = r[label] - r['rec/none'] if label in r and 'rec/none' in r \
            else None
        lines.append([name, fmt(v), fmt(b.get(label))])
        if v is not None:
            table.append(['3e-call-site', name, f'{v:.2f}', 'instructions',
                          '', ''])
    section('3e. The call_site field (markers.site_field=1)',
            'The recording row of section 3 in a boot with every marker '
            'event\'s record beginning with call_site (x86-64, -icount, 1 '
            'CPU, the site calling the event\'s probe itself), against '
            'the rows of section 3 and 3b without it.',
            ['contender', 'instructions', 'bytes per record'], lines)
    return st, sb


ksyms = [m.groups() for m in re.finditer(
    r'markers_bench: kallsyms (\S+) frames (\d+) of (\d+) stack (\d+)', text)]
kread = dict(re.findall(r'markers_bench: kallsyms_read (\S+) ([0-9.]+)', text))
modes = {'map': 'skip MARK_SYMs by the map built at boot'}
lines = []
for mode, frames, own, stack in ksyms:
    rd = kread.get(mode)
    lines.append([modes.get(mode, mode), f'{int(stack):,}',
                  f'{float(rd):.2f} ms' if rd else '-'])
    table.append(['3d-kallsyms', f'{mode}, {frames} frames', stack,
                  'per trace', '', ''])
    if rd:
        table.append(['3d-kallsyms', f'{mode}, /proc/kallsyms', rd,
                      'ms per read', '', ''])
if lines:
    section('3d. kallsyms address lookups around MARK_SYMs',
            'Instructions (-icount) to name every frame of a stack trace '
            f'{ksyms[0][1]} frames deep with sprint_symbol() (the '
            f'{ksyms[0][2]} vmlinux return addresses of the benchmark\'s '
            'own call, repeated), and guest ms to read /proc/kallsyms '
            'whole (perf stat task-clock, mean of 10, cat included).',
            ['lookup', 'per trace', '/proc/kallsyms read'], lines)

site_rows, site_bytes = site_field() if site_log else ({}, {})

# 4 and 5: arming.
kinds = [('mark-arm', 'marker arm'), ('mark-disarm', 'marker disarm [2]'),
         ('key-enable', 'static_branch_enable'),
         ('key-disable', 'static_branch_disable'),
         ('kprobes-register', 'register_kprobes'),
         ('kprobes-unregister', 'unregister_kprobes [2]')]
sizes = sorted({s for (w, s) in arm if w != 'synchronize_rcu'})
lines = []
for what, name in kinds:
    line = [name]
    for s in sizes:
        if (what, s) not in arm:
            line.append('-')
            continue
        us, syncs, hold = arm[(what, s)]
        line.append(f'{us:,.0f} us / {syncs:.0f}')
        best = min(arm[(w, s)][0] for w, _ in kinds[0::2] if (w, s) in arm)
        table.append(['4-arming', f'{name}, {s} sites', f'{us:.1f}', 'us',
                      f'{ratio(us, best):.3f}', ''])
        table.append(['4-syncs', f'{name}, {s} sites', f'{syncs:.0f}',
                      'sync rounds', '', ''])
    lines.append(line)
gp = arm.get(('synchronize_rcu', 1))
section('4. Arming and disarming one marker, key or set of kprobes',
        'Median latency / sync rounds (do_sync_core() calls over the '
        'CPUs: markers, static keys and kprobes all sync with '
        'text_poke_sync()).  Host time under '
        'single-threaded TCG running 2 vCPUs in turn: noisy, but the sync '
        'rounds are exact.  A second CPU passes the sites meanwhile.  [2] includes a grace period: synchronize_rcu() '
        f'alone took {fmt(gp[0] if gp else None, 0)} us here.',
        ['operation'] + [f'{s:,} site{"s" if s > 1 else ""}'
                         for s in sizes], lines)
lines = []
for what, name in kinds[:2]:
    line = [name]
    for s in sizes:
        hold = arm.get((what, s), (0, 0, None))[2]
        line.append('-' if hold is None else f'{hold / 1000:.1f} us')
        if hold is not None:
            table.append(['5-hold', f'{name}, {s} sites',
                          f'{hold / 1000:.2f}', 'us', '', ''])
    lines.append(line)
section('5. Longest a task was held at a site', 'Over all runs; '
        'the passing task is held, interrupts on, in marker_hold_thunk '
        'when it meets a site mid-patch, until the site is released.  A '
        'hold lasts at most the rest of one chunk (256 sites and the calls '
        'in their blocks), plus any time the task spends preempted; more '
        'sites give more chunks, so more holds to take the longest of.',
        ['operation'] + [f'{s:,} site{"s" if s > 1 else ""}'
                         for s in sizes], lines)


# 6. Size, from the module.
def symsizes():
    out = {}
    try:
        nm = subprocess.run(['nm', '-S', ko], capture_output=True,
                            text=True).stdout
    except OSError:
        return out
    for line in nm.splitlines():
        f = line.split()
        if len(f) == 4:
            out[f[3]] = int(f[1], 16)
    return out


sz = symsizes()
none = sz.get('markers_bench_size_none', 0)
lines = []
for sym, name, table_bytes in [
        ('markers_bench_size_mark', 'MARK()',
         '16 (__marker_sites), plus 48 (__markers: name, format, file, function, state, line, probes) and the format per MARK() expansion, which inlined copies share'),
        ('markers_bench_size_tp', 'tracepoint', '16 (__jump_table)'),
        ('markers_bench_size_key', 'static branch + call',
         '16 (__jump_table)')]:
    if sym not in sz:
        continue
    per = (sz[sym] - none) / 10
    lines.append([name, fmt(per), fmt(per - 5), table_bytes])
    table.append(['6-size', name, f'{per:.1f}', 'text bytes per site', '',
                  ''])
section('6. Size per site', 'Text of a function with 10 sites minus one '
        'with none, over 10.  Inline, each is a 5-byte NOP (jump labels '
        'may also be 2 bytes); the rest is out of line: for MARK() the '
        'argument slots, the va_list, the preempt count and the patchable '
        'direct call, for a tracepoint the inlined '
        'cpu_online test, preempt count and static call of __DO_TRACE().',
        ['site', 'text bytes', 'beyond a 5-byte NOP', 'table bytes'],
        lines)

# Where we stand, against the targets: every enabled row at or below its
# tracepoint's or TRACE_EVENT's.
def at_most(m, t):
    return 'target: no more: ' + ('met' if m <= t else 'missed')


md.append('### Against the targets')
md.append('')
d = {k: ic[k] - ic['pass/empty'] for k in ic if 'pass/empty' in ic}
if 'pass/mark' in d:
    md.append(f'- Disabled: MARK() {fmt(d["pass/mark"])} instruction(s) '
              f'over the empty loop; static branch '
              f'{fmt(d.get("pass/static_branch"))}, tracepoint '
              f'{fmt(d.get("pass/tracepoint"))}, flag check '
              f'{fmt(d.get("pass/flag"))}.')
for n in (1, 2, 4):
    m, t = d.get(f'hit/mark-{n}'), d.get(f'hit/tracepoint-{n}')
    if m is None or not t:
        continue
    md.append(f'- Enabled, {n} probe(s): MARK() {fmt(m)} against '
              f'tracepoint {fmt(t)}: {m / t:.2f}x ({at_most(m, t)}).')
if 'markers_bench_size_mark' in sz and 'markers_bench_size_tp' in sz:
    sm = (sz['markers_bench_size_mark'] - none) / 10
    st = (sz['markers_bench_size_tp'] - none) / 10
    md.append(f'- Text per site: MARK() {sm:.1f} bytes against a '
              f'tracepoint\'s {st:.1f} (target: no more: '
              f'{"met" if sm <= st else "missed"}).')
base = ic.get('rec/none')
m, t = (ic[k] - base if k in ic and base is not None else None
        for k in ('rec/marker_event', 'rec/trace_event'))
if m is not None and t:
    md.append(f'- Recording u32 + u64 + string: MARK() and its event '
              f'{fmt(m)} against TRACE_EVENT {fmt(t)}: {m / t:.3f}x '
              f'({at_most(m, t)}).')
m, t = (ic[k] - base if k in ic and base is not None else None
        for k in ('rec/marker_raw_tp', 'rec/tracepoint_raw_tp'))
if m is not None and t:
    md.append(f'- A hit with a raw_tp BPF program: MARK() {fmt(m)} against '
              f'the tracepoint {fmt(t)}: {m / t:.3f}x ({at_most(m, t)}).')
for kind in ('bpf', 'perf_stat'):
    m, t = (ic[k] - base if k in ic and base is not None else None
            for k in (f'rec/marker_{kind}', f'rec/trace_event_{kind}'))
    if m is not None and t:
        what = 'a BPF program' if kind == 'bpf' else 'perf stat counting'
        md.append(f'- A hit with {what}: MARK()\'s event {fmt(m)} against '
                  f'TRACE_EVENT {fmt(t)}: {m / t:.3f}x ({at_most(m, t)}).')
m, t = nbytes.get('rec/marker_event'), nbytes.get('rec/trace_event')
if m is not None and t is not None:
    md.append(f'- Bytes per record: {m:.1f} against TRACE_EVENT\'s '
              f'{t:.1f} (target: no more: {"met" if m <= t else "missed"}).')
sr = site_rows.get('rec/marker_event')
if sr is not None and 'rec/none' in site_rows and \
        'rec/marker_event' in ic and base is not None:
    d = (sr - site_rows['rec/none']) - (ic['rec/marker_event'] - base)
    db = site_bytes.get('rec/marker_event', 0) - \
        nbytes.get('rec/marker_event', 0)
    md.append(f'- The call_site field (markers.site_field=1, off by '
              f'default): {d:+.1f} instructions and {db:+.1f} bytes per '
              f'recorded hit; nothing for a site that is off.')
m, a, t = (ic[k] - base if k in ic and base is not None else None
           for k in ('rec/marker_event_instance',
                     'rec/marker_event_instance_alone', 'rec/marker_event'))
if m is not None and a is not None and t is not None:
    md.append(f'- A trace instance\'s own selection: {m - a:+.1f} '
              f'instructions per recorded hit ({fmt(m)} against '
              f'{fmt(a)} for the instance\'s event alone, {fmt(t)} at the '
              f'top level) where the site calls some of its marker\'s '
              f'probes only, through marker_iterate(); nothing where '
              f'every consumer selects it, nor for a site that is off.')
if 'sites' in lists:
    n, t = lists['sites']
    md.append(f'- Listing {n:,} sites: {t:.2f} s of guest time (target: '
              f'under 1 s: {"met" if t < 1 else "missed"}).')
per = {s: arm[('mark-arm', s)][1] / max(1, -(-s // 256))
       for s in sizes if ('mark-arm', s) in arm}
if per:
    md.append('- Sync rounds per chunk of 256 sites and their calls when '
              'arming (by site count): ' +
              ', '.join(f'{v:g} ({s:,})' for s, v in per.items()) +
              '.')
for s in sizes:
    if ('mark-arm', s) not in arm or ('key-enable', s) not in arm:
        continue
    (mt, n, _), (kt, k, _) = arm[('mark-arm', s)], arm[('key-enable', s)]
    md.append(f'- Arming {s:,} site(s): {n:,} syncs against '
              f'static_branch_enable()\'s {k:,} (target: no more: '
              f'{"met" if n <= k else "missed"}); {mt / kt:.2f} times its '
              f'time.')
holds = [arm[('mark-arm', s)][2] / 1000 for s in sizes
         if ('mark-arm', s) in arm]
if holds:
    md.append('- Longest hold when arming, by site count: ' +
              ', '.join(f'{h:.0f} us' for h in holds) +
              ' (host time, 2 vCPUs in turn on one host thread: a held vCPU '
              'waits for the patching one to be scheduled).')
md.append('')

# 7. Other architectures: generic sites on jump labels.
def other_arches():
    lines, verdicts = [], []
    cols = [('pass/mark', 'MARK() off'),
            ('pass/mark-unselected', 'MARK() unselected'),
            ('pass/static_branch', 'static branch off'),
            ('pass/tracepoint', 'tracepoint off'), ('pass/flag', 'flag off'),
            ('hit/mark-1', 'MARK() 1 probe'),
            ('hit/tracepoint-1', 'tracepoint 1 probe'),
            ('hit/static_branch-call', 'static branch + call'),
            ('rec/marker_event', 'MARK() event record [3]'),
            ('rec/trace_event', 'TRACE_EVENT record [3]')]
    for arch, path in others:
        r = rows(path)

        def over(label):
            base = 'rec/none' if label.startswith('rec/') else 'pass/empty'
            if label in r and base in r:
                return r[label] - r[base]
            return None
        vals = {label: over(label) for label, _ in cols}
        lines.append([arch, fmt(r.get('pass/empty'))] +
                     [fmt(vals[label]) for label, _ in cols])
        for label, name in cols:
            if vals[label] is not None:
                table.append(['7-' + arch, name, f'{vals[label]:.2f}',
                              'instructions', '', ''])
        m, k = vals['pass/mark'], vals['pass/static_branch']
        if m is None or k is None:
            verdicts.append(f'- {arch}: no figures (see {path}).')
            continue
        verdicts.append(f'- {arch}: a disabled MARK() costs {m:.1f} '
                        f'instructions per pass, a disabled static branch '
                        f'{k:.1f} (target: equal: '
                        f'{"met" if abs(m - k) < 0.05 else "missed"}).')
        for mine, theirs, what in (('hit/mark-1', 'hit/tracepoint-1', '1 probe'),
                                   ('rec/marker_event', 'rec/trace_event',
                                    'recording')):
            m, t = vals[mine], vals[theirs]
            if m is not None and t:
                verdicts.append(f'- {arch}, {what}: MARK() {m:.1f} against '
                                f'{t:.1f}: {m / t:.2f}x ({at_most(m, t)}).')
    section('7. Other architectures: MARK() sites on jump labels',
            'Instructions per iteration over the empty loop (its own cost '
            'in the second column), -icount shift=0,sleep=off, 1 CPU, '
            'median of 7 runs; arm64 counts ktime ns, one per '
            'instruction, in steps of 16.  No kprobe rows: the '
            'benchmark\'s kprobe is on x86-64\'s own sites.  MARK() '
            'unselected: the marker has a probe, its query leaves this '
            'site out.  [3] over the same loop with nothing '
            'recording.',
            ['arch', 'empty loop'] + [n for _, n in cols], lines)
    md.extend(verdicts)
    md.append('')


MEM = re.compile(r'markers_bench: mem (\w+) \d+ ((?:\d+ ){15})(\S+) (\S+) '
                 r'(\d+) (\d+) (\d+)')
MEM_KEYS = ('slab', 'vmalloc', 'percpu', 'instance', 'used', 'core', 'syms',
            'marks', 'ms')


def mem_medians(log, suffix=''):
    """The median of each mem column per module of LOG, named + SUFFIX."""
    runs = {}
    for m in MEM.finditer(read(log) if log else ''):
        v = [int(x) for x in m.group(2).split()]
        runs.setdefault(m.group(1) + suffix, []).append(dict(
            slab=v[3] - v[0], vmalloc=v[4] - v[1], percpu=v[5] - v[2],
            instance=v[6] - v[3], used=v[12] - v[9], core=int(m.group(7)) / 1024,
            syms=int(m.group(5)), marks=int(m.group(6)),
            ms=(float(m.group(4)) - float(m.group(3))) * 1000))
    return {mod: {k: statistics.median(r[k] for r in rs) for k in MEM_KEYS}
            for mod, rs in runs.items()}


def memory():
    """Section 8: what a module of N markers, N TRACE_EVENT()s or N
    pr_debug()s takes."""
    med = mem_medians(mem_log)
    med.update(mem_medians(btf_log, ' (btf)'))
    lines = []
    for mod in ('none', 'mark10', 'mark100', 'mark1000', 'te10', 'te100',
                'te1000', 'none (btf)', 'dbg10 (btf)', 'dbg100 (btf)',
                'dbg1000 (btf)'):
        if mod in med:
            lines.append([mod] + [fmt(med[mod][k], 0) for k in MEM_KEYS])
    per = {}
    for kind, name, big, none in (
            ('mark', 'MARK()', 'mark1000', 'none'),
            ('te', 'TRACE_EVENT()', 'te1000', 'none'),
            ('dbg', 'pr_debug()', 'dbg1000 (btf)', 'none (btf)')):
        if big not in med or none not in med:
            continue
        hi, lo = med[big], med[none]
        per[kind] = {k: (hi[k] - lo[k]) / 1000 for k in MEM_KEYS}
        lines.append([f'{name}, each'] +
                     [fmt(per[kind][k] * 1024, 0) for k in MEM_KEYS[:6]] +
                     [fmt(per[kind][k], 2) for k in MEM_KEYS[6:]])
        for k in ('slab', 'vmalloc', 'instance', 'used', 'core'):
            table.append(['8-mem', name, f'{per[kind][k] * 1024:.0f}',
                          f'{k} bytes each', '', ''])
    section('8. Memory and load time per marker',
            'A module of N markers of distinct names ("a %d b %lu s %s", '
            'so N marker events), one of N TRACE_EVENT()s of the same '
            'fields and print format, one of N pr_debug() sites of the '
            'format and one with none of them (harness/mem-modules.py), '
            'loaded one at a time in the default guest with 2 CPUs (no '
            '-icount), median of 3 loads; the pr_debug() modules, and a '
            'second module with none, in the btf variant, which has '
            'dynamic debug, with 1 CPU under -icount (its load times are '
            'not comparable): kB of '
            '/proc/meminfo\'s Slab, VmallocUsed and Percpu the load added; '
            'the Slab a tracefs instance made then added; the Slab a read '
            'of each of the module\'s events\' format file added then, '
            'after a read of its id (a marker\'s event is built on this '
            'first use), each figure read after drop_caches and the slab '
            'caches\' shrink; the module\'s '
            'coresize in kB (text and data); its kallsyms symbols and '
            'MARK_SYMs; the load\'s guest time in ms (10 ms steps).  The '
            '"each" rows are (N = 1000 - none) / 1000, in bytes for '
            'memory.',
            ['module', 'slab', 'vmalloc', 'per-CPU', 'instance slab',
             'first-use slab',
             'core', 'kallsyms', 'MARK_SYMs', 'load ms'], lines)
    if 'mark' in per and 'te' in per:
        m, t = per['mark'], per['te']
        md.append(f'- A marker takes {m["slab"] * 1024:.0f} bytes of slab '
                  f'(its event, as loaded) and {m["core"] * 1024:.0f} of '
                  f'module core; a TRACE_EVENT() {t["slab"] * 1024:.0f} and '
                  f'{t["core"] * 1024:.0f}: in all, slab and vmalloc '
                  f'(module memory is vmalloc\'s), '
                  f'{(m["slab"] + m["vmalloc"]) * 1024:.0f} bytes against '
                  f'{(t["slab"] + t["vmalloc"]) * 1024:.0f}; a tracefs '
                  f'instance adds {m["instance"] * 1024:.0f} against '
                  f'{t["instance"] * 1024:.0f}; the first use of a '
                  f'marker\'s event builds {m["used"] * 1024:.0f} more '
                  f'(a TRACE_EVENT()\'s: {t["used"] * 1024:.0f}).')
        if 'dbg' in per:
            d = per['dbg']
            md.append(f'- A pr_debug() site takes {d["slab"] * 1024:.0f} '
                      f'bytes of slab and {d["core"] * 1024:.0f} of module '
                      f'core (its struct _ddebug, strings and call): '
                      f'{(d["slab"] + d["vmalloc"]) * 1024:.0f} bytes of '
                      f'slab and vmalloc in all, and no trace event.')
        md.append('')


# Section 9: label, contender, the loop whose pass with nothing connected
# is the baseline.
BTF_ROWS = [
    ('other/marker_tp_btf', 'MARK() bench_typed + a tp_btf program',
     'rec_typed'),
    ('other/tracepoint_tp_btf', 'tracepoint bench_rec + the same tp_btf '
     'program', 'rec_event'),
    ('other/marker_raw_tp', 'MARK() bench_typed + a raw_tp program',
     'rec_typed'),
    ('other/tracepoint_raw_tp', 'tracepoint bench_rec + the same raw_tp '
     'program', 'rec_event'),
    ('other/marker_event', 'MARK() bench_typed, its event recording',
     'rec_typed'),
    ('other/trace_event', 'TRACE_EVENT bench_rec recording', 'rec_event'),
    ('other/tprobe', 'tprobe event (t:) on the tracepoint bench_rec, '
     'BTF argument names', 'rec_event'),
    ('other/fprobe', 'fprobe event (f:) on a function taking the values, '
     'BTF argument names', 'rec_fn'),
    ('other/kprobe', 'kprobe event (p:) on that function, BTF argument '
     'names', 'rec_fn'),
    ('other/eprobe', 'eprobe event (e:) on the TRACE_EVENT bench_rec '
     '(the event builds its record, the eprobe writes its own)',
     'rec_event'),
    ('other/pr_debug', 'pr_debug() under dynamic debug, into the printk '
     'buffer', 'rec_debug'),
]


def btf_others():
    """Section 9: what 6.12 has beside markers, in the btf variant."""
    r = rows(btf_log)
    text = read(btf_log)
    nb = {}
    for m in re.finditer(r'markers_bench: bytes (\S+) (\d+) (\d+)', text):
        if int(m.group(3)):
            nb[m.group(1)] = int(m.group(2)) / int(m.group(3))
    lines = []
    for label, name, loop in BTF_ROWS:
        base = r.get(f'other/none-{loop}')
        if label not in r or base is None:
            lines.append([name, '-', '-', '-'])
            continue
        v = r[label] - base
        lines.append([name, fmt(v), fmt(base), fmt(nb.get(label))])
        table.append(['9-others', name, f'{v:.2f}', 'instructions', '', ''])
    disabled = [[f'`{loop}` loop, nothing connected', fmt(r.get(
        f'other/none-{loop}'))] for loop in ('rec_mark', 'rec_typed',
                                             'rec_event', 'rec_fn',
                                             'rec_debug')]
    section('9. Against what 6.12 has beside markers (btf variant)',
            'The same u32 + u64 + string through each mechanism, in the '
            'btf variant (default + BTF, fprobe events, dynamic debug), '
            '-icount shift=0,sleep=off, 1 CPU, median of 7 runs: '
            'instructions per hit over the same loop with nothing '
            'connected (its own cost in the third column), and bytes per '
            'record where one is written to the ring buffer.  The BPF '
            'programs count the hit and add the first argument.',
            ['contender', 'instructions', 'loop alone', 'bytes per record'],
            lines)
    section('9a. The loops alone (btf variant)',
            'Instructions per iteration, nothing connected: each site '
            'disabled, or the call of a function that nothing probes.',
            ['loop', 'instructions'], disabled)


if others:
    other_arches()
if mem_log:
    memory()
if btf_log:
    btf_others()

with open(f'{outdir}/bench.md', 'w') as f:
    f.write('\n'.join(md))
with open(f'{outdir}/bench.csv', 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['section', 'contender', 'value', 'unit', 'ratio_to_best',
                'wall_ns_noisy'])
    w.writerows(table)
print('\n'.join(md))

try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
except ImportError:
    print('(no matplotlib: no bench.png)')
    sys.exit(0)
fig, (a, b) = plt.subplots(1, 2, figsize=(13, 5))
names = [n for l, n in hit_names if l in hits]
a.barh(names, [hits[l] for l, n in hit_names if l in hits])
a.set_xscale('log')
a.set_xlabel('instructions per hit (icount, over the empty loop)')
a.set_title('Per-hit cost, empty probes')
for what, name in kinds:
    xs = [s for s in sizes if (what, s) in arm]
    b.plot(xs, [arm[(what, s)][0] for s in xs], marker='o', label=name)
b.set_xscale('log')
b.set_yscale('log')
b.set_xlabel('sites')
b.set_ylabel('latency, us (virtual)')
b.set_title('Arming latency against site count')
b.legend(fontsize=8)
fig.tight_layout()
fig.savefig(f'{outdir}/bench.png', dpi=100)
print(f'(plot: {outdir}/bench.png)')
