#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""series.py: the patch series, generated from patches/series.

patches/series declares the series: for each patch its subject, the new
files it carries (from the readable tree at the top of the repository),
the hunks to existing files it carries (patches/*.diff, applied in order),
the MAINTAINERS patterns it adds, and its message.  A hunk file may also
change a new file that an earlier patch adds: that patch then adds the
file as the top of the repository has it, less every such later change.

  hunks                 the hunk files in series order (harness/tree.sh)
  basehunk NAME         patches/NAME less its changes to new files: what
                        harness/tree.sh applies to the base tree, which
                        then takes the new files whole from the top
  verify                every new file and hunk is claimed exactly once
  mkhunk NAME FILE...   rewrite patches/NAME from out/src, for FILEs
  export DIR            commit the series onto the base tree (a git
                        repository kept in out/base.git, tagged with
                        its version, v6.12.118) and write it with `git
                        format-patch`, a cover letter first, ending
                        with base-commit:; every patch gets To: (its
                        maintainers) and Cc: (reviewers, lists) from
                        the kernel's scripts/get_maintainer.pl, run in
                        the tree the series makes, and the cover
                        letter the union; send with `git send-email
                        DIR/*.patch`
"""

import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.environ.get('OUT', os.path.join(TOP, 'out'))
SRC = os.path.join(OUT, 'src')
TARBALL = os.environ.get('TARBALL', '/usr/src/linux-source-6.12.tar.xz')
# The base repository is shared by every OUT (series-check uses its own).
BASE = os.environ.get('SERIES_BASE', os.path.join(TOP, 'out', 'base.git'))
DECL = os.environ.get('SERIES_DECL', os.path.join(TOP, 'patches', 'series'))
COVER = os.path.join(TOP, 'patches', 'cover-letter')
OVERLAY_DIRS = 'arch Documentation include kernel lib samples scripts tools'
DEPS_SH = os.path.join(TOP, 'harness', 'deps.sh')
# Fixed dates make the series the same on every run.
DATE = '2026-12-01T12:00:00+00:00'
# What get_maintainer.pl needs of the tree: top_of_kernel_tree()'s files
# (and its directories, all of them: F: patterns naming a directory are
# tested with -d), the script, and what it reads besides MAINTAINERS.
GM_FILES = ('COPYING', 'CREDITS', 'Kbuild', 'MAINTAINERS', 'Makefile',
            'README', '.mailmap', '.get_maintainer.ignore',
            '.get_maintainer.conf', 'scripts/get_maintainer.pl')
GM = ['perl', 'scripts/get_maintainer.pl', '--no-rolestats', '--no-git',
      '--no-git-fallback']
# To: the maintainers (M:); Cc: reviewers (R:) and lists (L:).
GM_TO = ['--m', '--no-r', '--no-l']
GM_CC = ['--no-m', '--r', '--l']
LIST_KEYS = ('files', 'hunks', 'maintainers')


def die(msg):
    sys.stderr.write('ERROR: series: %s\n' % msg)
    sys.exit(1)


def run(cmd, **kw):
    kw.setdefault('check', True)
    if cmd[0] == 'git':
        # No gc --auto behind our back: a detached gc that a commit
        # started kept writing into base.git.tmp while it was removed.
        cmd = ['git', '-c', 'gc.auto=0', '-c', 'maintenance.auto=false'] + \
            list(cmd[1:])
    return subprocess.run(cmd, **kw)


def git(*args, env=None, stdin=None):
    e = dict(os.environ, GIT_DIR=BASE)
    e.update(env or {})
    return run(['git'] + list(args), env=e, input=stdin,
               capture_output=True, text=True).stdout


class Decl:
    """The declaration: global headers, then patches."""

    def __init__(self, path=DECL):
        self.head = {}
        self.patches = []
        cur = None
        key = None
        in_body = False
        with open(path) as f:
            lines = f.read().split('\n')
        for n, line in enumerate(lines, 1):
            if line.startswith('#'):
                continue
            if line.startswith('Subject: '):
                cur = {'subject': line[9:].strip(), 'body': [],
                       'line': n}
                for k in LIST_KEYS:
                    cur[k] = []
                self.patches.append(cur)
                in_body = False
                key = 'subject'
                continue
            if cur is None:
                m = re.match(r'([A-Za-z-]+): (.*)', line)
                if m:
                    self.head[m.group(1).lower()] = m.group(2).strip()
                elif line.strip():
                    die('%s:%d: expected a header' % (path, n))
                continue
            if in_body:
                cur['body'].append(line)
                continue
            m = re.match(r'([A-Za-z]+):(.*)', line)
            if m and m.group(1).lower() in LIST_KEYS:
                key = m.group(1).lower()
                cur[key] += m.group(2).split()
            elif line.startswith((' ', '\t')) and key in LIST_KEYS:
                cur[key] += line.split()
            elif not line.strip():
                in_body = True
            else:
                die('%s:%d: unknown header line' % (path, n))
        for p in self.patches:
            while p['body'] and not p['body'][-1].strip():
                p['body'].pop()
            while p['body'] and not p['body'][0].strip():
                p['body'].pop(0)
            if not p['body']:
                die('patch "%s" has no message' % p['subject'])
            if not any(l.startswith('Signed-off-by: ') for l in p['body']):
                die('patch "%s" has no Signed-off-by' % p['subject'])

    def hunks(self):
        return [h for p in self.patches for h in p['hunks']]

    def files(self):
        return [f for p in self.patches for f in p['files']]

    def later_sections(self, idx, path):
        """Sections of hunk files of patches after idx that change path,
        in series order."""
        out = []
        for p in self.patches[idx + 1:]:
            for h in p['hunks']:
                sec = read_hunk(h).get(path)
                if sec:
                    out.append(sec)
        return out


def tracked_new_files():
    out = run(['git', '-C', TOP, 'ls-files', '--cached', '--others',
               '--exclude-standard'] + OVERLAY_DIRS.split(),
              capture_output=True, text=True).stdout
    return sorted(out.split())


def cmd_verify(d):
    bad = []
    files = d.files()
    hunks = d.hunks()
    for f in sorted(set(x for x in files if files.count(x) > 1)):
        bad.append('%s is carried by more than one patch' % f)
    for f in sorted(set(tracked_new_files()) - set(files)):
        bad.append('%s is in the tree but in no patch' % f)
    for f in sorted(set(files) - set(tracked_new_files())):
        bad.append('%s is in a patch but not in the tree' % f)
    for h in sorted(set(x for x in hunks if hunks.count(x) > 1)):
        bad.append('patches/%s is carried by more than one patch' % h)
    have = [x for x in os.listdir(os.path.join(TOP, 'patches'))
            if x.endswith('.diff')]
    for h in sorted(set(have) - set(hunks)):
        bad.append('patches/%s is in no patch' % h)
    for h in sorted(set(hunks) - set(have)):
        bad.append('patches/%s is missing' % h)
    added = set()
    for p in d.patches:
        for h in p['hunks']:
            if h not in have:
                continue
            for f in read_hunk(h):
                if f in files and f not in added:
                    bad.append('patches/%s changes %s before the patch '
                               'that adds it' % (h, f))
        added.update(p['files'])
    for b in bad:
        sys.stderr.write('series: %s\n' % b)
    if bad:
        die('patches/series does not match the tree')


def read_hunk(name):
    """{path: section} of patches/NAME."""
    with open(os.path.join(TOP, 'patches', name)) as f:
        return split_diff(f.read())


def split_diff(text):
    """{path: section} of a diff made of "diff --git" sections."""
    out = {}
    for sec in re.split(r'(?m)^(?=diff --git )', text):
        m = re.match(r'diff --git a/(\S+) b/', sec)
        if m:
            out[m.group(1)] = sec
    return out


def base_file(path, dst):
    ensure_base()
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, 'w') as f:
        f.write(git('show', 'base:' + path))


def patch_file(path, section, reverse=False):
    """Apply one file's section of a hunk file to path."""
    args = ['patch', '-s', '-N', '--no-backup-if-mismatch', path]
    if reverse:
        args.insert(1, '-R')
    r = run(args, input=section, text=True, check=False,
            capture_output=True)
    if r.returncode:
        die('%s: %s' % (path, r.stdout + r.stderr))


def cmd_mkhunk(d, name, files):
    """Hunk NAME for FILES: from base plus the earlier hunks, to out/src
    less the later hunks; a file may be touched by several hunks."""
    order = d.hunks()
    if name not in order:
        die('%s is not in patches/series' % name)
    for f in files:
        if f in d.files():
            die('%s is a new file: write its change in patches/%s by hand '
                '(diff -u from the file less the change)' % (f, name))
    i = order.index(name)
    secs = {h: read_hunk(h)
            for h in order if os.path.exists(os.path.join(TOP, 'patches', h))}
    old = secs.get(name, {})
    out = ''
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            a = os.path.join(tmp, 'a', f)
            b = os.path.join(tmp, 'b', f)
            base_file(f, a)
            for h in order[:i]:
                if f in secs.get(h, {}):
                    patch_file(a, secs[h][f])
            os.makedirs(os.path.dirname(b), exist_ok=True)
            shutil.copyfile(os.path.join(SRC, f), b)
            for h in reversed(order[i + 1:]):
                if f in secs.get(h, {}):
                    patch_file(b, secs[h][f], reverse=True)
            r = run(['diff', '-up', 'a/' + f, 'b/' + f], cwd=tmp,
                    capture_output=True, text=True, check=False)
            if not r.stdout:
                die('%s: no change' % f)
            diff = re.sub(r'(?m)^((---|\+\+\+) \S+)\t.*$', r'\1', r.stdout)
            out += 'diff --git a/%s b/%s\n%s' % (f, f, diff)
    # Sections of other files stay, in their order.
    keep = ''.join(s for f, s in old.items() if f not in files)
    with open(os.path.join(TOP, 'patches', name), 'w') as f:
        f.write(keep + out)
    sys.stderr.write('>>> wrote patches/%s\n' % name)


def ensure_base():
    """out/base.git: the tarball's tree, committed once, tagged base."""
    if os.path.exists(os.path.join(BASE, 'refs', 'tags', 'base')):
        return
    sys.stderr.write('>>> committing the base tree to %s\n' % BASE)
    tmp = BASE + '.tmp'
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(BASE, ignore_errors=True)
    os.makedirs(tmp)
    run(['git', 'init', '-q', '--bare', tmp + '/git'])
    os.makedirs(tmp + '/tree')
    run(['tar', '-xf', TARBALL, '-C', tmp + '/tree', '--strip-components=1'])
    env = dict(os.environ, GIT_DIR=tmp + '/git', GIT_WORK_TREE=tmp + '/tree',
               GIT_AUTHOR_DATE=DATE, GIT_COMMITTER_DATE=DATE)
    ident = ['-c', 'user.name=Debian linux-source-6.12',
             '-c', 'user.email=linux-source@localhost']
    # -f: the tree has files that its own .gitignore patterns match.
    run(['git', 'add', '-A', '-f', '.'], env=env, cwd=tmp + '/tree')
    ver = os.path.basename(TARBALL)
    run(['git'] + ident + ['commit', '-q', '-m', 'Base: ' + ver], env=env,
        cwd=tmp + '/tree')
    run(['git', 'tag', 'base'], env=env)
    os.rename(tmp + '/git', BASE)
    shutil.rmtree(tmp)


def base_version():
    """(tag, what): the base tree's version from its Makefile, v6.12.118,
    and the Debian package it comes from, as harness/deps.sh pins it."""
    mk = git('show', 'base:Makefile')
    v = {k: re.search(r'(?m)^%s = *(\S*)' % k, mk).group(1)
         for k in ('VERSION', 'PATCHLEVEL', 'SUBLEVEL', 'EXTRAVERSION')}
    tag = 'v%(VERSION)s.%(PATCHLEVEL)s' % v
    if v['SUBLEVEL'] not in ('', '0'):
        tag += '.' + v['SUBLEVEL']
    tag += v['EXTRAVERSION']
    deps = open(DEPS_SH).read()
    pkg, ver = (re.search(r'(?m)^%s=(\S+)' % k, deps).group(1)
                for k in ('BASE_PKG', 'BASE_VERSION'))
    return tag, "Debian's %s %s" % (pkg, ver)


def tag_base():
    """Tag base with its version, annotated with the Debian package; the
    commit itself stays (series-check's clone shares its objects)."""
    tag, what = base_version()
    if not git('tag', '-l', tag).strip():
        env = {'GIT_COMMITTER_DATE': DATE,
               'GIT_COMMITTER_NAME': 'Debian linux-source-6.12',
               'GIT_COMMITTER_EMAIL': 'linux-source@localhost'}
        git('tag', '-a', tag, '-F', '-', 'base', env=env,
            stdin='Linux %s, as %s has it\n\nThe tree of its %s: the '
            'stable tree with\nDebian\'s patches, not the stable tree\'s '
            '%s.\n' % (tag[1:], what, os.path.basename(TARBALL), tag))
    elif git('rev-parse', tag + '^{commit}') != git('rev-parse', 'base'):
        die('tag %s in %s is not the base tree' % (tag, BASE))
    return tag, what


def maintainers_text(base, entry, patterns):
    """MAINTAINERS with the markers entry, F: patterns sorted, placed in
    alphabetical order of the section titles."""
    lines = base.split('\n')
    title = entry[0]
    block = entry + ['F:\t' + p for p in sorted(set(patterns))] + ['']
    start = None
    for i in range(len(lines) - 1):
        if lines[i] and re.match(r'[A-Z]:\t', lines[i + 1]) and \
           not re.match(r'[A-Z]:\t', lines[i]) and \
           (i == 0 or not lines[i - 1].strip()):
            if start is None and lines[i] == '3C59X NETWORK DRIVER':
                start = i
            if start is not None and lines[i] > title:
                return '\n'.join(lines[:i] + block + lines[i:])
    die('no place for the MAINTAINERS entry')


def apply_patch(d, idx, work, state):
    """Bring work/ (files touched so far) to the state after patch idx."""
    p = d.patches[idx]
    touched = set()
    for h in p['hunks']:
        for f, sec in read_hunk(h).items():
            dst = os.path.join(work, f)
            if f not in state:
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                with open(dst, 'w') as o:
                    o.write(git('show', 'base:' + f))
                state.add(f)
            patch_file(dst, sec)
            touched.add(f)
    for f in p['files']:
        dst = os.path.join(work, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(os.path.join(TOP, f), dst)
        for sec in reversed(d.later_sections(idx, f)):
            patch_file(dst, sec, reverse=True)
        state.add(f)
        touched.add(f)
    if p['maintainers']:
        pats = [m for q in d.patches[:idx + 1] for m in q['maintainers']]
        entry = [re.sub(r'^([A-Z]): ', r'\1:\t', e) for e in
                 d.head['maintainers-entry'].split(' | ')]
        with open(os.path.join(work, 'MAINTAINERS'), 'w') as o:
            o.write(maintainers_text(git('show', 'base:MAINTAINERS'),
                                     entry, pats))
        state.add('MAINTAINERS')
        touched.add('MAINTAINERS')
    return touched


def ident(d):
    """The series' From: as author and committer, at DATE."""
    env = {'GIT_AUTHOR_DATE': DATE, 'GIT_COMMITTER_DATE': DATE}
    m = re.match(r'(.*) <(.*)>', d.head['from'])
    for k in ('AUTHOR', 'COMMITTER'):
        env['GIT_%s_NAME' % k] = m.group(1)
        env['GIT_%s_EMAIL' % k] = m.group(2)
    return env


def commit_all(d, work):
    """One commit per patch on top of base, through a scratch index."""
    state = set()
    parent = git('rev-parse', 'base').strip()
    env = dict(ident(d), GIT_INDEX_FILE=os.path.join(work, '.index'))
    git('read-tree', 'base', env=env)
    for i, p in enumerate(d.patches):
        for f in sorted(apply_patch(d, i, work, state)):
            src = os.path.join(work, f)
            blob = git('hash-object', '-w', src).strip()
            mode = '100755' if os.access(src, os.X_OK) else '100644'
            git('update-index', '--add', '--cacheinfo',
                '%s,%s,%s' % (mode, blob, f), env=env)
        tree = git('write-tree', env=env).strip()
        msg = p['subject'] + '\n\n' + '\n'.join(p['body']) + '\n'
        parent = git('commit-tree', tree, '-p', parent, env=env,
                     stdin=msg).strip()
    git('update-ref', 'refs/heads/series', parent)
    return state


def check_tree(work, state):
    """The top of the series is the readable tree: out/src, as tree.sh
    made it, holds the same files."""
    if not os.path.isdir(SRC):
        return
    bad = [f for f in sorted(state) if f != 'MAINTAINERS' and
           run(['cmp', '-s', os.path.join(work, f), os.path.join(SRC, f)],
               check=False).returncode]
    if bad:
        die('the series\' top differs from out/src in: %s' % ' '.join(bad))


def cover_letter(dest):
    """Fill git format-patch's cover letter from patches/cover-letter."""
    path = os.path.join(dest, '0000-cover-letter.patch')
    text = open(path).read()
    cover = open(COVER).read().rstrip('\n')
    subject, _, body = cover.partition('\n\n')
    text = text.replace('*** SUBJECT HERE ***', subject.strip())
    text = text.replace('*** BLURB HERE ***', body)
    with open(path, 'w') as f:
        f.write(text)


def gm_tree(tmp):
    """What get_maintainer.pl needs of the series' top (GM_FILES) in tmp,
    its MAINTAINERS with the series' entry: in seconds, where a checkout
    of the whole tree takes half a minute and a gigabyte and a half."""
    dirs = git('ls-tree', '-r', '-d', '--name-only', '-z', 'series')
    for d in dirs.split('\0'):
        if d:
            os.makedirs(os.path.join(tmp, d), exist_ok=True)
    have = set(git('ls-tree', '--name-only', '-r', 'series', '--',
                   *GM_FILES).split())
    for f in GM_FILES:
        if f in have:
            with open(os.path.join(tmp, f), 'w') as o:
                o.write(git('show', 'series:' + f))
    for f in ('COPYING', 'MAINTAINERS', 'scripts/get_maintainer.pl'):
        if f not in have:
            die('the series has no %s' % f)


def addr_key(a):
    m = re.search(r'<([^>]*)>', a)
    return (m.group(1) if m else a).strip().lower()


def uniq(addrs, skip=()):
    seen = set(addr_key(a) for a in skip)
    out = []
    for a in addrs:
        if addr_key(a) not in seen:
            seen.add(addr_key(a))
            out.append(a)
    return out


def add_recipients(path, to, cc):
    """To: and Cc: after Subject:, folded as git format-patch --to does."""
    lines = open(path).read().split('\n')
    i = next(n for n, l in enumerate(lines) if l.startswith('Subject: ')) + 1
    while lines[i].startswith((' ', '\t')):
        i += 1
    head = []
    for key, addrs in (('To', to), ('Cc', cc)):
        if addrs:
            head.append('%s: %s' % (key, ',\n    '.join(addrs)))
    lines[i:i] = head
    with open(path, 'w') as f:
        f.write('\n'.join(lines))


def recipients(dest):
    """Every patch's To: and Cc: from get_maintainer.pl; the cover
    letter's, the union."""
    files = sorted(f for f in os.listdir(dest) if f.endswith('.patch'))
    cover, patches = files[0], files[1:]
    with tempfile.TemporaryDirectory() as tmp:
        gm_tree(tmp)

        def gm(args):
            r = run(GM + args, cwd=tmp, capture_output=True, text=True,
                    check=False)
            if r.returncode:
                die('get_maintainer.pl %s: %s' % (' '.join(args),
                                                   r.stderr.strip()))
            sys.stderr.write(r.stderr)
            return [l.strip() for l in r.stdout.split('\n') if l.strip()]
        jobs = [opts + [os.path.join(dest, p)]
                for p in patches for opts in (GM_TO, GM_CC)]
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as ex:
            res = list(ex.map(gm, jobs))
    all_to, all_cc = [], []
    for i, p in enumerate(patches):
        to = uniq(res[2 * i])
        cc = uniq(res[2 * i + 1], to)
        if not to:
            die('%s: get_maintainer.pl names no maintainer' % p)
        add_recipients(os.path.join(dest, p), to, cc)
        all_to += to
        all_cc += cc
    all_to = uniq(all_to)
    add_recipients(os.path.join(dest, cover), all_to, uniq(all_cc, all_to))


def cmd_basehunk(d, name):
    """patches/NAME without its sections that change new files."""
    new = set(d.files())
    sys.stdout.write(''.join(sec for f, sec in read_hunk(name).items()
                             if f not in new))


def cmd_export(d, dest):
    ensure_base()
    tag, what = tag_base()
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    with tempfile.TemporaryDirectory() as work:
        state = commit_all(d, work)
        check_tree(work, state)
    n = len(d.patches)
    # --base: base-commit: at the end of the cover letter.  The cover
    # letter is from the committer, at the committer's date: the series'.
    git('format-patch', '-q', '--cover-letter', '--no-signature',
        '--subject-prefix=' + d.head.get('prefix', 'PATCH'),
        '--base=base', '-o', dest,
        'base..series', env=ident(d))
    cover_letter(dest)
    if tag not in open(COVER).read():
        sys.stderr.write('series: warning: patches/cover-letter does not '
                         'name the base, %s (%s)\n' % (tag, what))
    recipients(dest)
    sys.stderr.write('>>> %d patches and a cover letter in %s\n' % (n, dest))


def main():
    if len(sys.argv) < 2:
        die(__doc__)
    d = Decl()
    cmd = sys.argv[1]
    if cmd == 'hunks':
        print('\n'.join(d.hunks()))
    elif cmd == 'verify':
        cmd_verify(d)
    elif cmd == 'basehunk' and len(sys.argv) == 3:
        cmd_basehunk(d, sys.argv[2])
    elif cmd == 'mkhunk' and len(sys.argv) > 3:
        cmd_mkhunk(d, sys.argv[2], sys.argv[3:])
    elif cmd == 'export' and len(sys.argv) == 3:
        cmd_verify(d)
        cmd_export(d, os.path.abspath(sys.argv[2]))
    else:
        die(__doc__)


if __name__ == '__main__':
    main()
