#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkpatch.sh NAME FILE...: rewrite the hunk file patches/NAME (one that
# patches/series names) from out/src, for each FILE (a kernel-tree path).
# Edit the files in out/src, then run this.  A file that several hunk
# files change gets only this hunk's part: the diff runs from the base
# tree plus the earlier hunks to out/src less the later ones.
set -euo pipefail
exec python3 "$(dirname "$0")/series.py" mkhunk "$@"
