#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of `make demo`: show markers working, step by step.
say() { printf '\n=== %s\n' "$*"; }

say "Markers compiled into this kernel are listed in its symbol table;"
say "probes connect to them by name.  The test module below has markers"
say "of its own; while it loads it connects a probe to them, passes them,"
say "and disconnects it again, failing to load if a probe call is missing."
modprobe test_markers && dmesg | grep 'test_markers' | tail -3
modprobe -r test_markers && say "unloaded: its markers are forgotten."
