#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tracefs' marker_sites selects which sites of a marker its probes (its
# trace event's included) connect to, by module, file, function and line;
# the others stay disabled, on every architecture.  Writes take
# several queries separated by ';', "!marker" removes, opening with
# O_TRUNC (">") drops every query, and a refused write says why in
# error_log; a module's markers= parameter selects among its own sites
# before its init function runs.  test_marker_events passes tme_basic in
# tme_pass() on each write to "pass" and in tme_burst() K times on each
# write of K to "burst".
. "$(dirname "$0")/lib.sh"
require_root
require_module test_marker_events
tracefs
S=$T/marker_sites
E=$T/events/markers
P=/sys/module/test_marker_events/parameters
D=/sys/kernel/debug/markers/sites
if [ ! -e $S ]; then
	echo "markers: no marker_sites"
	exit $ksft_skip
fi
no_record_cmd
modprobe -q -r test_marker_events_clash test_marker_events 2>/dev/null

# flags FUNC [NAME]: the flags of NAME's site in FUNC (tme_basic's by
# default), as marker_sites lists it.
flags() {
	sed -n "s/^[^ ]*\.c:[0-9]* \[test_marker_events\]$1 ${2:-tme_basic} =//p" $S
}

# records COMMAND: how many tme_basic records COMMAND made.
records() {
	echo > $T/trace
	sh -c "$1"
	grep -c ' tme_basic: ' $T/trace
}

# select QUERY: write QUERY, saying how the write failed.
select() {
	echo "$1" > $S
}

# bytes FUNC: the state of tme_basic's site in FUNC, as debugfs lists
# it, if its bytes are what that state has (site_state).
bytes() {
	site_state $(grep " $1+0x[0-9a-f]*/0x[0-9a-f]* .* tme_basic test_marker_events\$" \
		$D | cut -d' ' -f3,4)
}

# caret POS: the last entry of error_log is marker_sites', with its
# caret under offset POS of the command.
caret() {
	tail -n 3 $T/error_log | head -n 1 | grep -q ' marker_sites: error: ' &&
	eq "$(tail -n 1 $T/error_log | awk '{ print index($0, "^") - 12 }')" "$1"
}

# markers.select= on the command line: harness/check.sh boots with
# "marker tme_typeclash func tme_burst", in force when the module loads.
if grep -q 'markers\.select=' /proc/cmdline; then
	check "markers.select=: the query is listed" \
		eq "$(grep -c '^# marker tme_typeclash func tme_burst$' $S)" 1
	check "  test_marker_events loads" modprobe test_marker_events
	check "  tme_burst's site of tme_typeclash selected, tme_pass's not" \
		eq "$(flags tme_pass tme_typeclash) $(flags tme_burst tme_typeclash)" "_ s"
	modprobe -r test_marker_events
fi

# A query set before the module loads is in force when it loads.
check "query before the module loads" \
	select "marker tme_basic func tme_burst"
check "  listed as in force" \
	eq "$(grep -c '^# marker tme_basic func tme_burst$' $S)" 1
check "test_marker_events loads" modprobe test_marker_events
check "  its sites listed, tme_burst's selected" \
	eq "$(flags tme_pass) $(flags tme_burst)" "_ s"
check "  a marker without a query has every site selected" \
	eq "$(grep -c '\]tme_pass tme_str =s$' $S)" 1

echo 1 > $E/tme_basic/enable
check "enabled: only tme_burst's site" \
	eq "$(flags tme_pass) $(flags tme_burst)" "_ se"
check "  tme_pass does not record" eq "$(records "echo 1 > $P/pass")" 0
check "  tme_burst does" eq "$(records "echo 3 > $P/burst")" 3
if [ -r $D ]; then
	check "  bytes: tme_pass's a NOP, tme_burst's a jump" \
		eq "$(bytes tme_pass)/$(bytes tme_burst)" disarmed/armed
fi

# Each query word, the event on.
line=$(sed -n \
	's/^[^ ]*test_marker_events.c:\([0-9]*\) \[[a-z_]*\]tme_pass tme_basic .*/\1/p' \
	$S)
check "by line ($line)" select "marker tme_basic line $line"
check "  tme_pass records" eq "$(records "echo 1 > $P/pass")" 1
check "  tme_burst does not" eq "$(records "echo 3 > $P/burst")" 0
if [ -r $D ]; then
	check "  bytes follow" eq "$(bytes tme_pass)/$(bytes tme_burst)" \
		armed/disarmed
fi
check "by file" select "file test_marker_events.c marker tme_basic"
check "  both record" \
	eq "$(records "echo 1 > $P/pass; echo 2 > $P/burst")" 3
check "by module" select "marker tme_basic module test_marker_events"
check "  both record" \
	eq "$(records "echo 1 > $P/pass; echo 2 > $P/burst")" 3
check "by another module" select "marker tme_basic module vmlinux"
check "  none records" \
	eq "$(records "echo 1 > $P/pass; echo 2 > $P/burst")" 0
check "  both disabled" eq "$(flags tme_pass) $(flags tme_burst)" "_ _"
check "by function glob, line range" \
	select "marker tme_basic func tme_b* line 1-100000"
check "  tme_burst records" \
	eq "$(records "echo 1 > $P/pass; echo 2 > $P/burst")" 2

# As in set_event and set_ftrace_filter: ">" starts again, ">>" adds.
check "': >' drops every query" sh -c ": > $S"
check "  none listed" eq "$(grep -c '^# marker' $S)" 0
check "  both record" \
	eq "$(records "echo 1 > $P/pass; echo 2 > $P/burst")" 3
check "'>>' adds a query" \
	sh -c "echo 'marker tme_basic func tme_pass' >> $S"
check "  and one more of the same marker" \
	sh -c "echo 'marker tme_basic func tme_burst' >> $S"
check "  both listed" eq "$(grep -c '^# marker tme_basic func tme_' $S)" 2
check "  a site is selected by either" \
	eq "$(flags tme_pass) $(flags tme_burst)" "se se"
check "'!marker' removes one" \
	sh -c "echo '!marker tme_basic func tme_pass' >> $S"
check "  tme_burst's alone" eq "$(flags tme_pass) $(flags tme_burst)" "_ se"
check "  tme_pass does not record" eq "$(records "echo 1 > $P/pass")" 0
check "'echo >' drops every query" sh -c "echo > $S"
check "  both selected" eq "$(flags tme_pass) $(flags tme_burst)" "se se"
check "two queries a write" \
	select "marker tme_basic line $line; marker tme_str func nothing"
check "  both listed" eq "$(grep -c '^# marker' $S)" 2
check "  tme_pass's site by line" \
	eq "$(flags tme_pass) $(flags tme_burst)" "se _"
check "a glob on the name" select "marker tme_ba* func tme_burst"
check "  the query is tme_basic's" \
	eq "$(grep '^# marker' $S)" "# marker tme_basic func tme_burst"
check "  tme_burst records" \
	eq "$(records "echo 1 > $P/pass; echo 2 > $P/burst")" 2

# Bad queries: each is refused with a log line and an error_log entry
# whose caret is under the word at fault (its offset before the '|'),
# and a write with ">>" changes nothing.
before=$(cat $S)
for c in "22|marker tme_basic line x" "17|marker tme_basic bogus 1" \
	 "17|marker tme_basic func" "0|func tme_pass" "0|marker" \
	 "17|marker tme_basic marker tme_str" "22|marker tme_basic line 9-1" \
	 "7|marker tme_zz* func a" "32|marker tme_basic func tme_pass; line 1" \
	 "8|!marker tme_basic func tme_pass"; do
	q=${c#*|}
	dmesg -c > /dev/null
	: > $T/error_log
	check "refused: $q" sh -c "! echo '$q' >> $S 2>/dev/null"
	check "  logged" sh -c "dmesg | grep -q 'markers: .*\\(select\\|marker_sites\\)'"
	check "  in error_log, the caret at ${c%%|*}" caret "${c%%|*}"
done
check "  nothing changed" eq "$(cat $S)" "$before"

# The query changes while a thread passes both sites.
( i=0; while [ $i -lt 40 ]; do echo 50 > $P/burst; echo 1 > $P/pass;
	i=$((i + 1)); done ) &
for q in "line $line" "func tme_burst" "" "module vmlinux" \
	 "func tme_*" "line $line" ""; do
	check "while passing: '$q'" select "marker tme_basic $q"
done
wait
check "  both sites selected at the end" \
	eq "$(flags tme_pass) $(flags tme_burst)" "se se"
check "  both record" \
	eq "$(records "echo 1 > $P/pass; echo 2 > $P/burst")" 3
echo 0 > $E/tme_basic/enable
check "the query cleared" eq "$(grep -c '^# marker tme_basic' $S)" 0
check "test_marker_events unloads" modprobe -r test_marker_events
check "  its sites went" eq "$(grep -c '\[test_marker_events\]' $S)" 0

# <module>.markers=: test_markers passes test_markers_event once in its
# init function (test_markers_event_init, with 10) and on each write to
# its "pass" parameter (test_markers_event, with the value written).  A
# query given as it loads is in force before its init function runs, and
# limited to its own sites.
M=/sys/module/test_markers/parameters
H=/sys/module/test_markers_probe/parameters

# load_with VALUE: load test_markers with markers=VALUE (none if empty),
# test_markers_probe connected to test_markers_event first.  modprobe
# quotes a value with spaces for the kernel.
load_with() {
	modprobe -q -r test_markers test_markers_probe 2>/dev/null
	modprobe test_markers_probe name=test_markers_event &&
	if [ -n "$1" ]; then
		modprobe test_markers "markers=$1"
	else
		modprobe test_markers markers
	fi
}

# after_pass: hits and sum of the probe after test_markers passes 5.
after_pass() {
	echo 5 > $M/pass
	echo "$(cat $H/hits) $(cat $H/sum)"
}

if modinfo test_markers > /dev/null 2>&1; then
	dmesg -c > /dev/null
	check "markers= selects the site in the init function" \
		load_with "marker test_markers_event func test_markers_event_init"
	check "  the query is listed, limited to the module" \
		eq "$(grep -c '^# marker test_markers_event .*module test_markers' $S)" 1
	check "  the init site was passed with the probe connected" \
		eq "$(cat $H/hits) $(cat $H/sum)" "1 10"
	check "  the other site is not selected" eq "$(after_pass)" "1 10"
	check "  nothing refused" eq "$(dmesg | grep -c 'refused')" 0
	check "  the query outlives the module" \
		sh -c "modprobe -r test_markers &&
		       grep -q '^# marker test_markers_event' $S"
	check "  and is removed as any other" \
		sh -c "echo '!marker test_markers_event' >> $S"

	check "markers= leaves the init function's site out" \
		load_with "marker test_markers_e* func test_markers_event"
	check "  the init site was not passed" eq "$(cat $H/hits)" 0
	check "  the other site is selected" eq "$(after_pass)" "1 5"
	echo '!marker test_markers_e*' >> $S

	for v in "marker test_markers_event bogus 1" \
		 "marker test_markers_event module vmlinux" \
		 "marker test_markers_event func a; func b" ""; do
		dmesg -c > /dev/null
		check "refused: markers=$v" load_with "$v"
		check "  logged" \
			sh -c "dmesg | grep -q 'test_markers: markers=.* refused'"
		check "  no query in force" \
			eq "$(grep -c '^# marker test_markers_event' $S)" 0
		check "  both sites selected" eq "$(after_pass)" "2 15"
	done
	modprobe -r test_markers test_markers_probe
fi
exit $rc
