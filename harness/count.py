#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""count.py [--pass NAME | --fail NAME]... LOG...: count the results in guest console logs.

Reads KUnit (KTAP) and kselftest (TAP) results from each console log,
ftracetest's result of each test case (`[N] DESCRIPTION\t[PASS]`, one test
each), the result line of each torture test (`marker-torture:--- End of
test: SUCCESS`, one test each), the harness's own lines (CPUs online, guest
finished) and any splat.  Prints a summary line per log, every failure,
and last `N passed, N failed`.
Exit status 1 when anything failed, went missing, or splatted.

A test that was planned (1..N) but never reported counts as failed; so do
skips: this project's tests are expected to run.  So does an ftracetest
test case that ends other than PASS (UNSUPPORTED and UNRESOLVED included),
and each of the cases that harness/guest/check.sh announced
(`harness: ftracetest DIR: N test cases`) but ftracetest never reported.
So does a torture test that the kernel command line runs at boot
(NAME_torture.run_at_boot=1) without its End of test line.
"""
import os
import re
import sys

# boot.sh boots $SMP CPUs (4 unless told otherwise); all must come up.
EXPECT_CPUS = int(os.environ.get('SMP', '4'))

PREFIX = re.compile(r'^\[\s*\d+\.\d+\]\s?')
RESULT = re.compile(r'^(\s*)(not ok|ok) (\d+) ?-? ?([^#]*?)\s*(#.*)?$')
PLAN = re.compile(r'^(\s*)1\.\.(\d+)$')
SUBTEST = re.compile(r'^(\s*)# Subtest: (.*)$')
# kernel/torture.c's tests end with "NAME-torture:--- End of test: VERDICT",
# parameters after it; anything but SUCCESS fails.
TORTURE_END = re.compile(r'^(\w+)-torture:--- End of test: (\w+)')
# marker_torture.run_at_boot=1: the marker torture test runs at boot.
TORTURE_BOOT = re.compile(r'(?:^|\s)(\w+)_torture\.run_at_boot=1(?:\s|$)')
# ftracetest -v, which harness/guest/check.sh announces with the number of
# test cases it runs, prints "[N] DESCRIPTION" as case N starts and
# "\t[RESULT]" as it ends; what the kernel prints meanwhile comes between
# the two, on the same line or on lines of its own.  Its summary ends with
# the count of undefined results.
FTRACE_PLAN = re.compile(r'^harness: ftracetest (\S+): (\d+) test cases$')
FTRACE_CASE = re.compile(r'^\[(\d+)\](.*)$')
FTRACE_RESULT = re.compile(r'\t\[([A-Z]+)\]$')
FTRACE_END = re.compile(r'^# of undefined\(test bug\):')
# Where the kernel's own line starts, in the middle of ftracetest's.
KERNEL_MIDLINE = re.compile(r'\[\s*\d+\.\d+\].*$')

SPLATS = [
    r'BUG:', r'WARNING:', r'Oops', r'Kernel panic', r'general protection',
    r'KASAN:', r'UBSAN:', r'possible recursive locking',
    r'possible circular locking', r'inconsistent lock state',
    r'lockdep', r'suspicious RCU usage', r'rcu.*detected stall',
    r'rcu_.*self-detected stall', r'blocked for more than',
    r'soft lockup', r'hard LOCKUP', r'objtool', r'unwind', r'ORC',
    r'sleeping function called from invalid context',
    r'scheduling while atomic', r'segfault', r'Unable to handle',
    r'stack-protector', r'double fault', r'invalid opcode',
    # Every x86 die() banner, whatever the trap: "divide error: 0000 [#1]",
    # "int3: 0000 [#1]", "general protection fault, ...: 0000 [#1]".
    r': [0-9a-f]{4} \[#\d+\]',
    # The end of any oops or warning dump.
    r'---\[ end trace',
]
SPLAT = re.compile('|'.join(SPLATS))
# Lines that match SPLAT but are not splats.
BENIGN = re.compile(r'kasan: KernelAddressSanitizer initialized|'
                    r'Lock dependency validator|lockdep: fixing up|'
                    r'ORC unwinder|unwind.*selftest.*ok|'
                    r'markers_x86_test_(held|thunk)_unwind|'
                    r'RCU lockdep checking is enabled|'
                    r'^\s*\.\.\. (MAX_LOCK|MAX_LOCKDEP|CLASSHASH|CHAINHASH)|'
                    r'in-kernel lockdep|Kernel command line')


class Log:
    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = []

    def ok(self):
        self.passed += 1

    def fail(self, what):
        self.failed.append(what)


class Ftracetest:
    """One run of ftracetest that harness/guest/check.sh announced."""

    def __init__(self, log, where, planned):
        self.log = log
        self.where = where
        self.planned = planned
        self.seen = 0
        self.case = None        # the case started, its result not seen

    def line(self, line):
        """Take one console line; False once the run is over."""
        if FTRACE_END.match(line):
            return False
        m = FTRACE_CASE.match(line)
        if m:
            self.unfinished()
            desc = KERNEL_MIDLINE.sub('', FTRACE_RESULT.sub('', m.group(2)))
            self.case = '[%s]%s' % (m.group(1), desc.rstrip())
        if self.case is None:
            return True
        m = FTRACE_RESULT.search(line)
        if m:
            self.seen += 1
            if m.group(1) == 'PASS':
                self.log.ok()
            else:
                self.log.fail('ftracetest: %s: %s %s' %
                              (self.where, self.case, m.group(1)))
            self.case = None
        return True

    def unfinished(self):
        if self.case is not None:
            self.seen += 1
            self.log.fail('ftracetest: %s: %s: no result' %
                          (self.where, self.case))
            self.case = None

    def close(self):
        self.unfinished()
        if self.planned == 0:
            self.log.fail('ftracetest: %s: no test case' % self.where)
        for _ in range(self.planned - self.seen):
            self.log.fail('ftracetest: %s: %d planned, %d reported' %
                          (self.where, self.planned, self.seen))
        if self.seen > self.planned:
            self.log.fail('ftracetest: %s: %d planned, %d reported' %
                          (self.where, self.planned, self.seen))


def parse(path):
    log = Log(path)
    cpus = None
    finished = False
    kunit_only = False
    torture_due = set()     # torture tests the command line runs at boot
    torture_ended = set()
    # Stack of open TAP blocks: [indent, planned, seen, name, kind]
    blocks = []
    kind = None
    ftrace = None           # the ftracetest run under way
    for raw in open(path, errors='replace'):
        line = PREFIX.sub('', raw.rstrip('\r\n'))
        if SPLAT.search(line) and not BENIGN.search(line):
            log.fail('splat: ' + line.strip())
        m = re.match(r'smp: Brought up \d+ nodes?, (\d+) CPUs?', line)
        if m:
            cpus = int(m.group(1))
        if line.startswith('harness: guest finished'):
            finished = True
        m = FTRACE_PLAN.match(line)
        if m or (ftrace and line.startswith('harness: guest finished')):
            if ftrace:
                ftrace.close()
            ftrace = Ftracetest(log, m.group(1), int(m.group(2))) if m \
                else None
            continue
        if ftrace:
            if not ftrace.line(line):
                ftrace.close()
                ftrace = None
            continue
        if line.startswith('Kernel command line:'):
            torture_due.update(TORTURE_BOOT.findall(line))
        m = TORTURE_END.match(line)
        if m:
            torture_ended.add(m.group(1))
            if m.group(2) == 'SUCCESS':
                log.ok()
            else:
                log.fail('torture: %s: End of test: %s' % m.groups())
            continue
        # A kernel with no user space ends when KUnit is done.
        if 'kunit_shutdown=reboot' in line:
            kunit_only = True
        if kunit_only and line.startswith('reboot: Restarting system'):
            finished = True
        if line.strip() == 'KTAP version 1' and not line.startswith(' '):
            kind = 'kunit'
            continue
        if line.strip() == 'TAP version 13' and not line.startswith(' '):
            kind = 'kselftest'
            continue
        if kind is None:
            continue
        m = SUBTEST.match(line)
        if m:
            # Only KUnit nests suites: the kselftest runner prefixes '# '.
            blocks.append([len(m.group(1)), None, 0, m.group(2), 'kunit'])
            continue
        m = PLAN.match(line)
        if m:
            ind = len(m.group(1))
            if blocks and blocks[-1][0] == ind and blocks[-1][1] is None:
                blocks[-1][1] = int(m.group(2))
            elif ind == 0:
                blocks = [[0, int(m.group(2)), 0, kind, kind]]
            continue
        m = RESULT.match(line)
        if not m:
            continue
        ind, verdict, name, directive = (len(m.group(1)), m.group(2),
                                         m.group(4), m.group(5) or '')
        # A result at the indent of an open sub-block closes it.
        while blocks and blocks[-1][0] > ind:
            close(log, blocks.pop())
        if blocks and blocks[-1][0] == ind:
            blocks[-1][2] += 1
        rkind = blocks[-1][4] if ind > 0 and blocks else kind
        leaf = rkind == 'kselftest' or ind > 0
        if rkind == 'kunit' and ind >= 8:
            continue        # parameters roll up into their case
        if not leaf:
            if verdict != 'ok' and not any(
                    f.startswith('%s: %s.' % (rkind, name))
                    for f in log.failed):
                log.fail('%s: suite %s %s' % (rkind, name, verdict))
            continue
        what = '%s: %s' % (rkind, name)
        if rkind == 'kunit' and blocks and blocks[-1][0] > 0:
            what = 'kunit: %s.%s' % (blocks[-1][3], name)
        if verdict == 'ok' and 'SKIP' not in directive.upper():
            log.ok()
        else:
            log.fail('%s %s %s' % (what, verdict, directive))
    while blocks:
        close(log, blocks.pop())
    if ftrace:
        ftrace.close()
    for name in sorted(torture_due - torture_ended):
        log.fail('torture: %s: run at boot, but no End of test line' % name)
    if cpus == EXPECT_CPUS:
        log.ok()
    else:
        log.fail('harness: %s CPUs online, expected %d' % (cpus, EXPECT_CPUS))
    if not finished:
        log.fail('harness: the guest did not finish (hang, crash or timeout)')
    return log


def close(log, block):
    indent, planned, seen, name, kind = block
    if planned is not None and seen < planned:
        for _ in range(planned - seen):
            log.fail('%s: %s: %d planned, %d reported' %
                     (kind, name, planned, seen))


def main():
    passed = failed = 0
    args = sys.argv[1:]
    while args and args[0] in ('--pass', '--fail'):
        if args[0] == '--pass':
            passed += 1
        else:
            print('FAIL %s' % args[1])
            failed += 1
        args = args[2:]
    for path in args:
        log = parse(path)
        for f in log.failed:
            print('FAIL %s: %s' % (path, f))
        print('%s: %d passed, %d failed' % (path, log.passed, len(log.failed)))
        passed += log.passed
        failed += len(log.failed)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == '__main__':
    sys.exit(main())
