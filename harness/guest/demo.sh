#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of `make demo`: show markers working, step by step.
step() { printf '\n=== %s\n' "$1"; shift; for l; do echo "$l"; done; }
kmsg() { dmesg | sed -n "s/^\[[ 0-9.]*\] $1: /    /p"; }

step "1. The core, tested at boot" \
	"This kernel has markers: MARK(name, format, args...) sites that" \
	"probes connect to by name while it runs.  At boot the KUnit suite" \
	"'markers' tested the core (probe order, private data, errors," \
	"probes waiting for markers, hardirq and softirq context):"
dmesg | grep -E '^\[[ 0-9.]*\] (    (not )?ok [0-9]+ markers_|# markers:)' |
	sed 's/^\[[ 0-9.]*\] */    /'

step "2. A marker in a module, and a probe connected by name" \
	"The module test_markers has a marker test_markers_module with the" \
	"format \"value %d\".  Loaded with verbose=1, it passes the marker," \
	"connects a probe to it by name, passes it again, disconnects the" \
	"probe and passes it once more:"
dmesg -c > /dev/null
modprobe test_markers verbose=1
kmsg test_markers

step "3. Unloading" \
	"Only the pass made while the probe was connected called it.  Now" \
	"the module goes, and its markers are forgotten with it."
modprobe -r test_markers && echo "    unloaded"
step "The end: the guest powers off by itself."
