#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# demo.sh: build the default variant and walk through markers in a guest.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

bash "$TOP/harness/build.sh" default
log "booting the default kernel with 4 CPUs under QEMU (TCG)"
# Only the core's KUnit suite: the x86 hold and hazard suites take minutes.
bash "$TOP/harness/boot.sh" default demo quiet kunit.filter_glob=markers | sed -n '/^===/,$p' |
	grep -v -e 'harness: guest finished' -e 'reboot: '
