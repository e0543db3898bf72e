/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_TEST_H
#define _LINUX_MARKER_TEST_H

/*
 * Kernel markers' hooks and statistics for their KUnit suites, test
 * modules and benchmark module, kept out of <linux/marker.h>: only they
 * and the code that provides what they read include this header.  The
 * hooks exist only with CONFIG_MARKERS_KUNIT_TEST (the x86 patcher's own,
 * <asm/marker_test.h>, with CONFIG_MARKERS_X86_KUNIT_TEST), the
 * statistics only with CONFIG_MARKERS_STATS.
 */

#include <linux/marker.h>

#if defined(CONFIG_MARKERS) && defined(CONFIG_MARKERS_KUNIT_TEST)
bool marker_is_loaded(const char *name);
#endif

#if defined(CONFIG_MARKERS) && defined(CONFIG_HAVE_ARCH_MARKERS)
/* Arm or disarm sites directly, whatever their markers' probes. */
int arch_marker_sites_set(const struct marker_site *const *sites,
			  unsigned int nr, bool armed);
int arch_marker_site_set(const struct marker_site *s, bool armed);

#ifdef CONFIG_MARKERS_KUNIT_TEST
void marker_test_set_flush(void (*fn)(unsigned long addr));
#endif

/* The first vmlinux site of the marker @name, or NULL. */
static inline struct marker_site *marker_test_site(const char *name)
{
	struct marker_site *s;

	for (s = __start___marker_sites; s < __stop___marker_sites; s++)
		if (!strcmp(marker_site_marker(s)->name, name))
			return s;
	return NULL;
}

#include <asm/marker_test.h>
#endif

#endif /* _LINUX_MARKER_TEST_H */
