#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Load the markers test module, which connects probes to its own markers
# while it initializes and fails to load if a check fails; then unload it.

ksft_skip=4
rc=0

if [ "$(id -u)" != 0 ]; then
	echo "markers: must be run as root"
	exit $ksft_skip
fi

if ! modprobe -q test_markers; then
	echo "markers: test_markers did not load: FAIL"
	exit 1
fi
if ! modprobe -q -r test_markers; then
	echo "markers: test_markers did not unload: FAIL"
	rc=1
fi
echo "markers: module markers: $([ $rc = 0 ] && echo ok || echo FAIL)"
exit $rc
