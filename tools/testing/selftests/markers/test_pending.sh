#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A probe registered before any marker of its name exists is connected
# when a module carrying the marker loads; the module can be unloaded with
# the probe connected, and loaded again.
. "$(dirname "$0")/lib.sh"
require_root
unload_all

check "probe module loads with no such marker yet" \
	modprobe test_markers_probe
check "no call yet" eq "$(cat $P/hits)" 0

# test_markers passes test_markers_event once in its init text, with 10.
check "marker module loads" modprobe test_markers
check "pending probe connected at load: init site called" \
	eq "$(cat $P/hits) $(cat $P/sum)" "1 10"
echo 5 > /sys/module/test_markers/parameters/pass
check "module text site called" eq "$(cat $P/hits) $(cat $P/sum)" "2 15"

check "marker module unloads while armed" modprobe -r test_markers
check "and loads again" modprobe test_markers
echo 7 > /sys/module/test_markers/parameters/pass
check "connected again" eq "$(cat $P/hits) $(cat $P/sum)" "4 32"

# The init text is gone: disconnecting must leave it alone.
check "probe module unloads while the marker module stays" \
	modprobe -r test_markers_probe
echo 1 > /sys/module/test_markers/parameters/pass
check "marker module unloads" modprobe -r test_markers

# A probe that takes any format, waiting: the name takes the format of
# the first marker that loads, and its sites pass it to the probe.
check "probe of any format loads with no such marker yet" \
	modprobe test_markers_probe any_format=1
check "marker module loads" modprobe test_markers
check "  its init site passed the marker's format" \
	eq "$(cat $P/hits) $(cat $P/fmt_hits)" "1 1"
check "marker module unloads" modprobe -r test_markers
check "probe module unloads" modprobe -r test_markers_probe
exit $rc
