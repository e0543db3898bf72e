#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Sites in init text, and in built-in __exit code (which x86 frees with
# init memory), are written only while that text exists.
. "$(dirname "$0")/lib.sh"
require_root
unload_all
D=/sys/kernel/debug/markers
V=/sys/module/marker_kunit/parameters/init_race

# no_log: nothing was logged by the markers core (a refused site is).
no_log() {
	eq "$(dmesg | grep -c '] markers: ')" 0
}

dmesg -c > /dev/null
check "probe connects to a marker whose only site was init text" \
	modprobe test_markers_probe name=markers_kunit_init
check "no call" eq "$(cat $P/hits)" 0
check "probe disconnects" modprobe -r test_markers_probe
check "the freed site was not touched" no_log

check "probe connects to a marker in built-in __exit code" \
	modprobe test_markers_probe name=markers_kunit_exit
check "  the freed site was not touched" no_log
check "  nor listed" eq "$(grep -c ' markers_kunit_exit vmlinux' $D/sites)" 0
check "probe disconnects" modprobe -r test_markers_probe

# At boot, a batch choosing a site in init text was made to wait until
# init memory was freed (markers_init_race KUnit suite): the kernel must
# have waited for the batch instead.  Where that suite is built in, its
# verdict must be there.
if grep -q ' markers_test_init_race$' /proc/kallsyms; then
	check "the init race suite's verdict is readable" test -r $V
fi
if [ -r $V ]; then
	check "vmlinux init text was there when its site was written" \
		eq "$(cat $V)" there
fi

# The same for a module's init text, freed as the module goes live.
if modinfo test_markers | grep -q init_race && [ -r $V ]; then
	check "test_markers loads while a site in its init text is armed" \
		modprobe test_markers init_race=1
	check "  its init text was there when the site was written" \
		eq "$(dmesg | grep -c 'init race: connected (0); init text was there')" 1
	check "test_markers unloads" modprobe -r test_markers
	check "  nothing else logged" no_log
fi

# A module's async init work may pass a site in its init text after the
# module went live, when that text is no longer written.  Its call must
# not be left at a probe that is replaced and disconnected meanwhile: it
# would call that probe after its unregistration returned, with its
# successor's data.  (delete_module() runs the probe module's exit, then
# waits for all async work before it frees the module.)
M=/sys/module/test_markers
K=/sys/kernel/debug/markers/markers
# probes N: test_markers_async has N probes (30 s at most).
probes() {
	i=0
	while ! grep -q "^test_markers_async test_markers .* probes=$1 " $K &&
	      [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q "^test_markers_async test_markers .* probes=$1 " $K
}
if modinfo test_markers | grep -q async_init; then
	check "probe A connects to test_markers_async" \
		modprobe test_markers_probe name=test_markers_async
	modprobe test_markers async_init=1 &
	loader=$!
	# Live, and its init text no longer written: its site left the
	# listing (60 s at most).
	i=0
	while { [ "$(cat $M/initstate 2>/dev/null)" != live ] ||
		grep -q ' test_markers_async test_markers$' $D/sites; } &&
	      [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	check "  test_markers live, its init text frozen" \
		eq "$(cat $M/initstate 2>/dev/null)" live
	check "  probe B connects" sh -c "echo 1 > $M/parameters/async_swap"
	check "  A and B connected" probes 2
	modprobe -r test_markers_probe &
	unloader=$!
	check "  A disconnected, its module going" probes 1
	# Its unregistration has returned (30 s at most).
	i=0
	while ! dmesg | grep -q 'test_markers_probe: test_markers_async: disconnected' &&
	      [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	check "  its unregistration returned" \
		eq "$(dmesg | grep -c 'test_markers_probe: test_markers_async: disconnected')" 1
	check "  the async work passes the init site" \
		sh -c "echo 1 > $M/parameters/async_go"
	wait $loader
	check "  test_markers loaded" eq $? 0
	wait $unloader
	check "  test_markers_probe unloaded" eq $? 0
	check "  B was called, with its own data" eq "$(cat $M/parameters/async_hits)" 1
	check "  test_markers unloads" modprobe -r test_markers
	check "  nothing logged" no_log
fi

# A site in a module's __exit code is armed like any other.
check "probe connects to a marker in a module's __exit code" \
	modprobe test_markers_probe name=test_markers_exit
check "test_markers loads and unloads" \
	sh -c 'modprobe test_markers && modprobe -r test_markers'
check "  the exit marker was passed once" eq "$(cat $P/hits) $(cat $P/sum)" "1 1"
check "probe disconnects" modprobe -r test_markers_probe
check "no splat" eq "$(dmesg | grep -c -e 'BUG' -e 'WARNING' -e 'Oops')" 0
exit $rc
