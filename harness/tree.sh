#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare $OUT/src: unpack the Debian 6.12 tree once, keep the series'
# hunks (patches/*.diff) applied in the order patches/series declares,
# and overlay the new files.
#
# Patches: the copies applied last time are kept in $SRC/.series/.  When
# patches/ differs from them, every file either series touches is put back
# as the base tarball has it and the new series is applied, so the tree
# always equals base + current series.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

unpack() {
	[ -f "$SRC/.unpacked" ] && return 0
	[ -f "$TARBALL" ] || die "$TARBALL missing (run make deps)"
	log "unpacking $TARBALL"
	rm -rf "$SRC" "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	tar -xf "$TARBALL" -C "$SRC.tmp" --strip-components=1
	mv "$SRC.tmp" "$SRC"
	touch "$SRC/.unpacked"
}

# The hunk files in order: patches/series declares them (series.py), and
# $SRC/.series/series lists what was applied last time.
series_list() { # dir
	if [ "$1" = "$TOP/patches" ]; then
		python3 "$TOP/harness/series.py" hunks
	elif [ -f "$1/series" ]; then
		sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1/series"
	fi
}

# Whether the overlay brings $1: a file under one of its directories at
# the top of the repository.
is_new_file() {
	case " $OVERLAY_DIRS " in
	*" ${1%%/*} "*) [ -e "$TOP/$1" ] ;;
	*) return 1 ;;
	esac
}

# The base files a series touches, from its patches' "+++ b/" lines.  A
# hunk may also change a new file (series.py): the overlay brings those.
series_files() { # dir
	local p f
	for p in $(series_list "$1"); do
		[ -f "$1/$p" ] || continue
		for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$1/$p"); do
			is_new_file "$f" || echo "$f"
		done
	done
}

# Put back the base version of every file the old and the new series
# touch.  (Not by reversing the old patches: after mkpatch.sh, the files
# in $SRC hold the new hunks, which the old patches do not reverse.)
restore_base() {
	local files
	files=$( { series_files "$SRC/.series"; series_files "$TOP/patches"; } |
		sort -u)
	rm -rf "$SRC/.series"
	[ -n "$files" ] || return 0
	log "restoring $(echo $files | wc -w) base files"
	# "*" stands for the tarball's top directory alone: with "/" it
	# would take */Makefile for every Makefile of the tree.
	tar -xf "$TARBALL" -C "$SRC" --strip-components=1 --wildcards \
		--no-wildcards-match-slash $(printf '*/%s ' $files)
}

apply_new() {
	local p
	for p in $(series_list "$TOP/patches"); do
		[ -f "$TOP/patches/$p" ] || die "patches/series names missing $p"
		log "applying $p"
		python3 "$TOP/harness/series.py" basehunk "$p" > "$SRC/.hunk"
		if ! patch -d "$SRC" -p1 -s -N --no-backup-if-mismatch \
			--dry-run < "$SRC/.hunk" >/dev/null; then
			patch -d "$SRC" -p1 -N --dry-run < "$SRC/.hunk" || true
			die "patch $p does not apply"
		fi
		patch -d "$SRC" -p1 -s -N --no-backup-if-mismatch < "$SRC/.hunk"
		rm -f "$SRC/.hunk"
		mkdir -p "$SRC/.series"
		cp "$TOP/patches/$p" "$SRC/.series/$p"
		echo "$p" >> "$SRC/.series/series"
	done
}

sync_patches() {
	if [ -d "$SRC/.series" ] &&
	   diff -q <(series_list "$TOP/patches") <(series_list "$SRC/.series") >/dev/null; then
		local same=1 p
		for p in $(series_list "$TOP/patches"); do
			cmp -s "$TOP/patches/$p" "$SRC/.series/$p" || same=0
		done
		[ $same = 1 ] && return 0
	fi
	restore_base
	apply_new
}

overlay() {
	local d
	for d in $OVERLAY_DIRS; do
		[ -d "$TOP/$d" ] || continue
		rsync -a "$TOP/$d/" "$SRC/$d/"
	done
}

unpack
sync_patches
overlay
