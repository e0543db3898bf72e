#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_markers connects probes to its own markers while it initializes,
# in its text and in its init code, and fails to load if a call is missing
# or made while disconnected.
. "$(dirname "$0")/lib.sh"
require_root
unload_all

check "test_markers loads (its checks pass)" modprobe test_markers
check "test_markers unloads" modprobe -r test_markers
exit $rc
