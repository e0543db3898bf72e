#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# markers_kunit_init is a marker in vmlinux init text, which is freed
# after boot: connecting a probe to it must not write that text.
. "$(dirname "$0")/lib.sh"
require_root
unload_all

dmesg -c > /dev/null
check "probe connects to a marker whose only site was init text" \
	modprobe test_markers_probe name=markers_kunit_init
check "no call" eq "$(cat $P/hits)" 0
check "probe disconnects" modprobe -r test_markers_probe
check "the freed site was not touched" \
	eq "$(dmesg | grep -c 'markers:')" 0
exit $rc
