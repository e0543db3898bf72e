#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Helpers for the markers selftests; sourced.

ksft_skip=4
rc=0
P=/sys/module/test_markers_probe/parameters

# check DESCRIPTION COMMAND...: run COMMAND, report, remember a failure.
check() {
	what=$1
	shift
	if "$@"; then
		echo "ok: $what"
	else
		echo "FAIL: $what"
		rc=1
	fi
}

# eq A B: A equals B, saying both when not.
eq() {
	[ "$1" = "$2" ] && return 0
	echo "  got '$1', expected '$2'"
	return 1
}

require_root() {
	if [ "$(id -u)" != 0 ]; then
		echo "markers: must be run as root"
		exit $ksft_skip
	fi
}

unload_all() {
	modprobe -q -r test_markers 2>/dev/null
	modprobe -q -r test_markers_probe 2>/dev/null
}
