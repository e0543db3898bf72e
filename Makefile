# SPDX-License-Identifier: GPL-2.0
#
# Linux Kernel Markers for 6.12: build, boot, test and lint the series.
# The kernel tree, builds and logs live in out/ (ignored); see README.md.

SHELL := /bin/bash
H := harness
VARIANT ?= default

.PHONY: all deps kernel demo check kunit lint bench bpftrace-check series \
	series-check clean distclean

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

# The KUnit suites as kernel developers run them: kunit.py builds its own
# x86-64 kernel from the markers kunitconfig in out/kunit and boots it
# with one TCG thread and the query markers_select's boot case checks
# (see README.md).
kunit: deps
	@bash $(H)/tree.sh && cd out/src && python3 tools/testing/kunit/kunit.py \
		run --arch=x86_64 --build_dir=$(CURDIR)/out/kunit \
		--kunitconfig=tools/testing/kunit/configs/markers.config \
		--qemu_args='-smp 4 -accel tcg,thread=single' \
		--kernel_args='markers.select="marker markers_select_kunit func pass_sel_b"' \
		--make_options CC='ccache gcc'

lint: deps
	@bash $(H)/build.sh default && bash $(H)/lint.sh

# Benchmarks, not tests: markers against tracepoints, static keys, kprobes
# and a flag check; tables and a plot in out/bench/.
bench: deps
	@bash $(H)/bench.sh

# Debian's bpftrace on markers' trace events, in a guest of the btf
# variant (default with BTF) with its own initramfs (bpftrace's libraries
# are too big for make check's boots); builds that variant first.
bpftrace-check: deps
	@bash $(H)/bpftrace-check.sh

# The series as a maintainer receives it: out/series/, from patches/series.
series: deps
	@bash $(H)/tree.sh && python3 $(H)/series.py export out/series

# Apply the series to a clean 6.12 tree, build after every patch, build the
# top without CONFIG_MARKERS and as i386, checkpatch every patch, and run
# make check on the top.  QUICK=1: apply and checkpatch only (what CI runs);
# MODE=builds: all but make check.
series-check: deps
	@bash $(H)/tree.sh && bash $(H)/series-check.sh $(if $(QUICK),quick,$(MODE))

# Build output only; the unpacked, patched tree stays for fast rebuilds.
clean:
	rm -rf out/build-*

distclean:
	rm -rf out
