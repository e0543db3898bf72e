/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_TEST_H
#define _LINUX_MARKER_TEST_H

/*
 * Kernel markers' hooks and statistics for their KUnit suites, test
 * modules and benchmark module, kept out of <linux/marker.h>: no other
 * code includes this header.
 */

#include <linux/marker.h>

#if defined(CONFIG_MARKERS) && defined(CONFIG_HAVE_ARCH_MARKERS)
#ifdef CONFIG_MARKERS_KUNIT_TEST
void marker_test_set_flush(void (*fn)(const struct marker_change *v, unsigned int nr));
#endif

#include <asm/marker_test.h>
#endif

#if IS_ENABLED(CONFIG_MARKERS_BENCH)
/*
 * How kallsyms' address lookups skip MARK_SYMs, for markers_bench to time
 * them against each other: with the map built at boot, by reading each
 * candidate's name, or not at all (the lookup without markers).
 */
enum kallsyms_markers_bench_mode {
	KALLSYMS_MARKERS_BENCH_MAP,
	KALLSYMS_MARKERS_BENCH_NAMES,
	KALLSYMS_MARKERS_BENCH_NONE,
};

extern int kallsyms_markers_bench_mode;
#endif

#endif /* _LINUX_MARKER_TEST_H */
