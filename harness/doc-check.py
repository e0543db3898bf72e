#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""doc-check.py RST...: the documentation as `make htmldocs` would read it,
without Sphinx.

Every `.. kernel-doc::` directive is expanded as Documentation/sphinx/
kerneldoc.py does it: $SRC/scripts/kernel-doc -rst with the directive's
options (:export:, :internal:, :doc:, :identifiers:/:functions:,
:no-identifiers:), on the file under the top of this repository, or
under $SRC when the repository does not have it.  A directive fails when
kernel-doc exits non-zero, writes anything to stderr (a warning, an
identifier not found) or writes nothing, and when one of the
:identifiers: it names is not in the output (kernel-doc itself only
says so when it found none of them).  The expanded text is then
parsed with docutils, and any message at level 2 (warning) or above
fails.  The roles and directives of Sphinx's C domain, and the few other
Sphinx-only ones that kernel documentation uses, are registered as
literal text or as containers whose content is parsed, so that they are
not errors themselves but what they contain is checked.

Exit status 0 when every file is clean; otherwise each finding is
printed as FILE:LINE: message.
"""

import io
import os
import re
import subprocess
import sys

from docutils import nodes
from docutils.core import publish_doctree
from docutils.parsers.rst import Directive, directives, roles

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.environ.get('OUT', os.path.join(TOP, 'out'))
SRC = os.environ.get('SRC', os.path.join(OUT, 'src'))
# kernel-doc's rst dialect depends on the Sphinx version (c:struct and
# c:macro from 3.0 on); Debian 12's python3-sphinx is 5.3.
SPHINX_VERSION = os.environ.get('SPHINX_VERSION', '5.3.0')

DIRECTIVE = re.compile(r'^(\s*)\.\.\s+kernel-doc::\s*(\S*)\s*$')
OPTION = re.compile(r'^\s+:([a-z-]+):\s*(.*?)\s*$')

# Sphinx's C domain: what kernel-doc writes, and what documents use.
C_ROLES = ('func', 'type', 'macro', 'member', 'data', 'var', 'enum',
           'enumerator', 'struct', 'union', 'expr', 'texpr')
C_DIRECTIVES = ('function', 'macro', 'struct', 'union', 'enum',
                'enumerator', 'type', 'var', 'member')
# Other Sphinx-only directives: no content worth parsing.
NOOP_DIRECTIVES = ('toctree', 'c:namespace', 'c:namespace-push',
                   'c:namespace-pop', 'highlight', 'kernel-feat',
                   'kernel-abi', 'kernel-include', 'sectionauthor')


def literal_role(name, rawtext, text, lineno, inliner, options=None,
                 content=None):
    return [nodes.literal(rawtext, text)], []


class AnyOptions(dict):
    """An option_spec that takes every option unchanged."""

    def __contains__(self, key):
        return True

    def __getitem__(self, key):
        return directives.unchanged


class CObject(Directive):
    """.. c:function:: and friends: the signature is literal text, the
    content (the description kernel-doc writes) is parsed."""
    required_arguments = 0
    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    # Any option (:maxdepth:, :caption:, ...) is accepted.
    option_spec = AnyOptions()

    def run(self):
        node = nodes.container()
        if self.arguments:
            node += nodes.literal_block(self.arguments[0],
                                        self.arguments[0])
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


class Noop(CObject):
    """.. toctree:: and the like: accepted, and nothing is checked."""

    def run(self):
        return []


def register():
    for r in C_ROLES:
        roles.register_local_role('c:' + r, literal_role)
    for r in ('ref', 'doc'):
        roles.register_local_role(r, literal_role)
    for d in C_DIRECTIVES:
        directives.register_directive('c:' + d, CObject)
    for d in NOOP_DIRECTIVES:
        directives.register_directive(d, Noop)


def kernel_doc_cmd(path, opts):
    cmd = [os.path.join(SRC, 'scripts', 'kernel-doc'), '-rst',
           '-sphinx-version', SPHINX_VERSION]
    if 'functions' in opts:
        opts['identifiers'] = opts['functions']
    if 'export' in opts:
        cmd.append('-export')
    elif 'internal' in opts:
        cmd.append('-internal')
    elif 'doc' in opts:
        cmd += ['-function', opts['doc']]
    elif 'identifiers' in opts:
        ids = opts['identifiers'].split()
        if ids:
            for i in ids:
                cmd += ['-function', i]
        else:
            cmd.append('-no-doc-sections')
    for i in opts.get('no-identifiers', '').split():
        cmd += ['-nosymbol', i]
    # :export: and :internal: may name the files with the EXPORT_SYMBOLs.
    for pattern in opts.get('export', opts.get('internal', '')).split():
        cmd += ['-export-file', resolve(pattern)]
    cmd.append(resolve(path))
    return cmd


def documented(rst):
    """The identifiers that kernel-doc's output documents."""
    have = set()
    for m in re.finditer(r'(?m)^\s*\.\. c:(\w+):: (.*)$', rst):
        kind, sig = m.groups()
        if kind == 'function':
            f = re.search(r'(\w+)\s*\(', sig)
            if f:
                have.add(f.group(1))
        elif sig.split():
            # c:macro, c:struct, c:union, c:enum: the name; c:type (a
            # typedef, or a struct before Sphinx 3): its last word.
            have.add(sig.split()[-1])
    return have


def resolve(path):
    """A kernel-tree path: this repository's file, else the base tree's."""
    mine = os.path.join(TOP, path)
    return mine if os.path.exists(mine) else os.path.join(SRC, path)


def expand(rst, findings):
    """The text with every kernel-doc directive replaced by its output,
    and for each line of it, where it came from."""
    lines = open(rst).read().split('\n')
    text = []
    origin = []
    i = 0
    while i < len(lines):
        m = DIRECTIVE.match(lines[i])
        if not m:
            text.append(lines[i])
            origin.append('%s:%d' % (rst, i + 1))
            i += 1
            continue
        where = '%s:%d' % (rst, i + 1)
        indent, path = m.group(1), m.group(2)
        opts = {}
        i += 1
        while i < len(lines) and OPTION.match(lines[i]):
            o = OPTION.match(lines[i])
            opts[o.group(1)] = o.group(2)
            i += 1
        known = ('export', 'internal', 'doc', 'identifiers', 'functions',
                 'no-identifiers')
        for o in opts:
            if o not in known:
                findings.append('%s: kernel-doc: unknown option :%s:'
                                % (where, o))
        if not path:
            findings.append('%s: kernel-doc: no file' % where)
            continue
        if not os.path.exists(resolve(path)):
            findings.append('%s: kernel-doc: %s: no such file'
                            % (where, path))
            continue
        cmd = kernel_doc_cmd(path, opts)
        r = subprocess.run(cmd, capture_output=True, text=True)
        shown = ' '.join(c.replace(TOP + '/', '').replace(SRC, '$SRC')
                         for c in cmd[1:])
        if r.returncode:
            findings.append('%s: kernel-doc %s: exit status %d: %s'
                            % (where, shown, r.returncode,
                               r.stderr.strip()))
        for w in r.stderr.strip().split('\n'):
            if w.strip():
                findings.append('%s: kernel-doc %s: %s' % (where, shown, w))
        if not r.stdout.strip():
            findings.append('%s: kernel-doc %s: no output' % (where, shown))
        # kernel-doc says "'x' not found" only when it found none of the
        # identifiers asked for.
        have = documented(r.stdout)
        for ident in opts.get('identifiers', '').split():
            if ident not in have:
                findings.append('%s: kernel-doc %s: %s not found'
                                % (where, shown, ident))
        for n, l in enumerate(r.stdout.split('\n'), 1):
            text.append(indent + l if l.strip() else '')
            origin.append('%s (kernel-doc %s, output line %d)'
                          % (where, path, n))
    return '\n'.join(text), origin


def check(rst):
    findings = []
    text, origin = expand(rst, findings)
    stream = io.StringIO()
    publish_doctree(text, source_path=rst, settings_overrides={
        'report_level': 2,
        'halt_level': 5,
        'warning_stream': stream,
        'tab_width': 8,
        'file_insertion_enabled': False,
        'raw_enabled': False,
        'input_encoding': 'utf-8',
    })
    msg = re.compile(r'^(.*?):(\d+): \((\w+)/(\d)\) (.*)$')
    for line in stream.getvalue().split('\n'):
        m = msg.match(line)
        if m:
            n = int(m.group(2))
            where = origin[n - 1] if 0 < n <= len(origin) else rst
            findings.append('%s: docutils %s: %s'
                            % (where, m.group(3), m.group(5)))
        elif line.strip() and findings and 'docutils' in findings[-1]:
            # A message's continuation (the offending text).
            findings[-1] += '\n    ' + line.strip()
        elif line.strip():
            findings.append('%s: docutils: %s' % (rst, line.strip()))
    return findings


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if not os.access(os.path.join(SRC, 'scripts', 'kernel-doc'), os.X_OK):
        sys.exit('doc-check: no %s/scripts/kernel-doc (set SRC)' % SRC)
    register()
    findings = []
    for rst in sys.argv[1:]:
        findings += check(rst)
    for f in findings:
        print(f)
    sys.exit(1 if findings else 0)


if __name__ == '__main__':
    main()
