/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_TYPES_H
#define _LINUX_MARKER_TYPES_H

/*
 * What code that does not place or connect to markers needs to know of
 * them: the layout of the sections that record patchable sites, and the
 * names of the sites' MARK_SYM symbols, which kallsyms and the module
 * loader handle.  The API is <linux/marker.h>.
 */

#include <linux/string.h>
#include <linux/types.h>

/* A marker's name is a C identifier shorter than this. */
#define MARKER_NAME_MAX		128

/*
 * MARK_SYM: where the architecture patches sites or they are jump labels,
 * every site has a local symbol, found in kallsyms by name (for kprobes),
 * whose name starts with this prefix; the dot keeps it apart from every C
 * identifier.  It names a site, not code: kallsyms names the addresses
 * around it after the function.
 */
#define MARK_SYM_PREFIX		"__mark."

static inline bool is_marker_symbol(const char *name)
{
	return IS_ENABLED(CONFIG_MARKERS) &&
	       (IS_ENABLED(CONFIG_HAVE_ARCH_MARKERS) ||
		IS_ENABLED(CONFIG_MARKERS_STATIC_KEYS)) &&
	       !strncmp(name, MARK_SYM_PREFIX, sizeof(MARK_SYM_PREFIX) - 1);
}

#ifdef CONFIG_HAVE_ARCH_MARKERS
/*
 * One entry of the __marker_sites section per patchable site, PC-relative and
 * laid out like struct jump_entry, so that objtool follows the site to its
 * out-of-line block.
 */
struct marker_site {
	s32 code;
	s32 target;
	long marker;
};

/*
 * One entry of the __marker_calls section per call of the probes in an
 * out-of-line block: a direct call whose target is the marker's only
 * probe, or marker_iterate().  Laid out like struct marker_site.
 */
struct marker_probe_call {
	s32 code;
	s32 unused;
	long marker;
};
#else
/* No patchable sites of the architecture's own. */
struct marker_site { };
#endif

#endif /* _LINUX_MARKER_TYPES_H */
