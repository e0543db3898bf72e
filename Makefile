# SPDX-License-Identifier: GPL-2.0
#
# Linux Kernel Markers for 6.1: build, boot, test and lint the series.
# The kernel tree, builds and logs live in out/ (ignored); see README.md.

SHELL := /bin/bash
H := harness
VARIANT ?= default

.PHONY: all deps kernel demo check lint bench clean distclean

all: check

deps:
	@bash $(H)/deps.sh

# Unpack, patch, overlay and build one variant (VARIANT=default|debug).
kernel: deps
	@bash $(H)/build.sh $(VARIANT)

demo: deps
	@bash $(H)/demo.sh

check: deps
	@bash $(H)/check.sh

lint: deps
	@bash $(H)/build.sh default && bash $(H)/lint.sh

# Benchmarks, not tests: markers against tracepoints, static keys, kprobes
# and a flag check; tables and a plot in out/bench/.
bench: deps
	@bash $(H)/bench.sh

# Build output only; the unpacked, patched tree stays for fast rebuilds.
clean:
	rm -rf out/build-*

distclean:
	rm -rf out
