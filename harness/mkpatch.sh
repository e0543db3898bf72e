#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkpatch.sh NAME FILE...: write patches/NAME as the diff, for each FILE
# (a kernel-tree path), between the base tarball and out/src.  Edit the
# files in out/src, then run this to record the hunk in the series.  The
# patch's header (From:, Subject:, description, Signed-off-by:, up to the
# "---" line) is kept when the patch exists; write it by hand first.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

name=$1; shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/a"
tar -xf "$TARBALL" -C "$tmp/a" --strip-components=1 --wildcards \
	$(printf '*/%s ' "$@")
: > "$tmp/out"
for f in "$@"; do
	mkdir -p "$tmp/b/$(dirname "$f")"
	cp "$SRC/$f" "$tmp/b/$f"
	cmp -s "$tmp/a/$f" "$tmp/b/$f" && die "$f: no change"
	echo "diff --git a/$f b/$f" >> "$tmp/out"
	(cd "$tmp" && diff -up "a/$f" "b/$f" >> out) || true
done
dst=$TOP/patches/$name
[ -f "$dst" ] && sed '/^---$/q' "$dst" > "$tmp/header"
[ -s "$tmp/header" ] || die "patches/$name needs a header ending in ---"
# Drop the timestamps diff puts on the ---/+++ lines.
{ cat "$tmp/header"; sed -E 's/^((---|\+\+\+) [^\t]+)\t.*/\1/' "$tmp/out"; } \
	> "$dst"
log "wrote patches/$name"
