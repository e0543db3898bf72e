# SPDX-License-Identifier: GPL-2.0
# Result lines of the host checks (kbuild-check.sh, stap-check.sh), which
# check.sh counts: "ok: WHAT" or "FAIL: WHAT" per check; rc is 1 once one
# failed.  Sourced.
rc=0

check() { # WHAT COMMAND...
	local what=$1

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
