#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stap-check.sh BUILD_DIR: SystemTap's kernel.mark() probes, translated by
# Debian's stap (4.8) against a build tree, from its Module.markers (pass
# 2, elaboration, and pass 3, the probe module's C).  One "ok: WHAT" or
# "FAIL: WHAT" line per check.  harness/stap-modules.sh builds probe
# modules (pass 4), which harness/guest/stap.sh runs in the guest.
set -uo pipefail
. "$(dirname "$0")/results.sh"
b=$(realpath "${1:?build directory}")
mm=$b/Module.markers
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# stap_ok PASS SCRIPT: translate SCRIPT up to PASS, output in $out.
stap_ok() {
	stap -p"$1" -r "$b" -e "$2" > "$out" 2>&1 && return 0
	sed 's/^/  /' "$out" | head -20
	return 1
}

# stap_fails SCRIPT MESSAGE: pass 2 refuses SCRIPT, saying MESSAGE.
stap_fails() {
	! stap -p2 -r "$b" -e "$1" > "$out" 2>&1 && grep -q "$2" "$out" &&
		return 0
	echo "  stap did not refuse it with '$2':"
	sed 's/^/  /' "$out" | head -20
	return 1
}

# probes: the probe points pass 2 resolved, as "name<tab>format", the
# format unquoted.
probes() {
	sed -n 's/^kernel\.mark("\([^"]*\)")\.format("\(.*\)") \/\* <- .*/\1\t\2/p' \
		"$out" | sed -e 's/\\"/"/g' -e 's/\\\\/\\/g' | sort
}

# same EXPECTED: the resolved probes are EXPECTED.
same() {
	[ "$(probes)" = "$1" ] && return 0
	diff <(echo "$1") <(probes) | sed 's/^/  /'
	return 1
}

# local NAME TYPE: pass 2 typed the probe's local NAME as TYPE.
has_local() {
	grep -qx "  $1:$2" "$out"
}

if ! command -v stap > /dev/null; then
	echo "FAIL: stap installed (harness/deps.sh)"
	exit 1
fi
check "Module.markers in the build tree" test -s "$mm"

# Every marker of the build, each name with each of its formats.
all=$(cut -f1,3 "$mm" | sort -u)
check "kernel.mark(\"*\") resolves every marker of Module.markers" \
	stap_ok 2 'probe kernel.mark("*") { println($name) }'
check "... with its format" same "$all"

check "a wildcard: kernel.mark(\"example_*\")" \
	stap_ok 2 'probe kernel.mark("example_*") { println($format) }'
check "... the sample's 4 markers" same "$(grep '^example_' <<< "$all")"

check ".format() of a marker's format" \
	stap_ok 2 'probe kernel.mark("example_process").format("pid %d comm %s") { println($name) }'
check "... that marker" same "$(printf 'example_process\tpid %%d comm %%s')"
check ".format() with a wildcard" \
	stap_ok 2 'probe kernel.mark("example_*").format("count %llu*") { println($name) }'
check "... the two markers whose format starts so" \
	same "$(grep -P '^example_[^\t]*\tcount %llu' <<< "$all")"
check ".format() of another format matches nothing" \
	stap_fails 'probe kernel.mark("example_process").format("pid %u") { println($name) }' \
	"no match"
check "a name no marker has matches nothing" \
	stap_fails 'probe kernel.mark("no_such_marker") { println($name) }' \
	"no match"

check "\$arg1 of %d and \$arg2 of %s" \
	stap_ok 2 'probe kernel.mark("example_process") { printf("%d %s\n", $arg1, $arg2) }'
check "... typed long and string" \
	eval 'has_local __mark_arg1 long && has_local __mark_arg2 string'
check "\$arg1 of %llu, \$arg2 of %lld, \$arg3 of %s" \
	stap_ok 2 'probe kernel.mark("example_wide") { printf("%d %d %s\n", $arg1, $arg2, $arg3) }'
check "... typed long, long, string" \
	eval 'has_local __mark_arg1 long && has_local __mark_arg2 long &&
	      has_local __mark_arg3 string'
check "a string \$arg used as a number is refused" \
	stap_fails 'probe kernel.mark("example_process") { println($arg2 + 1) }' \
	"type mismatch"
check "an \$arg past the format is refused" \
	stap_fails 'probe kernel.mark("example_process") { println($arg3) }' \
	"invalid marker argument number"
check "MARK_NOARGS: the format is a space, no \$arg1" \
	stap_fails 'probe kernel.mark("example_noargs") { println($arg1) }' \
	"invalid marker argument number"

check "a string \$arg, pass 3" \
	stap_ok 3 'probe kernel.mark("example_process") { println($arg2) }'
check "... copied from the va_list's char * as a string" \
	grep -qF 'kderef_string (l->l___mark_arg2, tmp_str, MAXSTRINGLEN)' "$out"

# A module's marker, and the probe module's registration by name and
# format, reading the arguments from the va_list as probes do.
check "a module's marker: test_markers_event, pass 3" \
	stap_ok 3 'probe kernel.mark("test_markers_event") { println($arg1) }'
check "... registered by name and Module.markers' format" \
	grep -qF '.name="test_markers_event", .format="value %d"' "$out"
check "... through marker_probe_register()" \
	grep -qF 'marker_probe_register(smp->name, smp->format, enter_marker_probe, smp)' \
	"$out"
check "... \$arg1 read with va_arg() as an int" \
	grep -qF 'va_arg(*c->ips.kmark.mark_va_list, int)' "$out"
exit $rc
