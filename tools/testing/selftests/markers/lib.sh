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

# require_tool NAME: skip unless the command NAME is installed.
require_tool() {
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "markers: no $1"
		exit $ksft_skip
	fi
}

# require_module NAME: skip unless the module NAME is built.
require_module() {
	if ! modinfo "$1" >/dev/null 2>&1; then
		echo "markers: $1 not built"
		exit $ksft_skip
	fi
}

# tracefs: mounted at $T.
T=/sys/kernel/tracing
tracefs() {
	[ -d $T/events ] || mount -t tracefs nodev $T
}

unload_all() {
	modprobe -q -r test_markers 2>/dev/null
	modprobe -q -r test_markers_probe 2>/dev/null
}

# no_record_cmd: keep the sched_switch and sched_wakeup tracepoints off
# while this test enables and disables trace events; restored on exit.
# With record-cmd on, the first event enabled and the last one disabled
# switch them through text_poke_bp(), patching the scheduler's hot paths:
# not what these tests are about, so they keep to the markers' own text.
# With no event enabled, switching the option itself patches nothing.
no_record_cmd() {
	_rc_opt=/sys/kernel/tracing/options/record-cmd
	[ -w $_rc_opt ] || return 0
	_rc_old=$(cat $_rc_opt)
	echo 0 > $_rc_opt
	trap 'echo $_rc_old > $_rc_opt' EXIT
}

# The bytes of a site that debugfs' sites file lists, disarmed (a NOP)
# and armed (a jump), on this architecture, as regular expressions.
case $(uname -m) in
x86_64)
	SITE_NOP=0f1f440000
	SITE_JUMP='e9[0-9a-f]\{8\}'
	;;
i?86)
	SITE_NOP='\(3e8d742600\|0f1f440000\|6690\)'
	SITE_JUMP='\(e9[0-9a-f]\{8\}\|eb[0-9a-f]\{2\}\)'
	;;
aarch64)
	SITE_NOP=1f2003d5
	SITE_JUMP='[0-9a-f]\{6\}1[4-7]'
	;;
*)
	SITE_NOP='[0-9a-f]*'
	SITE_JUMP='[0-9a-f]*'
	;;
esac

# site_state STATE BYTES: STATE if BYTES are what a site in STATE
# (armed, disarmed) has; else STATE and BYTES.
site_state() {
	_re=$SITE_NOP
	[ "$1" = armed ] && _re=$SITE_JUMP
	if echo "$2" | grep -q "^$_re\$"; then
		echo "$1"
	else
		echo "$1 $2"
	fi
}
