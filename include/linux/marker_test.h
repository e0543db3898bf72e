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

#endif /* _LINUX_MARKER_TEST_H */
