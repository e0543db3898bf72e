#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A module whose markers are armed is loaded and unloaded in a loop while
# a pending probe stays connected; every pass is counted, and the
# kernel's text is left intact (no splat, no stale site written).
. "$(dirname "$0")/lib.sh"
require_root
unload_all

LOOPS=${LOOPS:-50}

check "probe module loads" modprobe test_markers_probe
i=0
ok=1
while [ $i -lt $LOOPS ]; do
	i=$((i + 1))
	# Each load passes the init site once with 10; each write passes it
	# once with the value written.
	modprobe test_markers || { ok=0; break; }
	echo $i > /sys/module/test_markers/parameters/pass || { ok=0; break; }
	modprobe -r test_markers || { ok=0; break; }
done
check "loaded and unloaded $LOOPS times while armed" eq "$ok $i" "1 $LOOPS"
check "every pass counted" eq "$(cat $P/hits) $(cat $P/sum)" \
	"$((2 * LOOPS)) $((10 * LOOPS + LOOPS * (LOOPS + 1) / 2))"
check "probe module unloads" modprobe -r test_markers_probe
exit $rc
