/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_ARM64_MARKER_H
#define _ASM_ARM64_MARKER_H

/*
 * An arm64 marker site is a jump label (CONFIG_MARKERS_STATIC_KEYS) whose
 * block builds its probes' va_list itself and calls them
 * (CONFIG_HAVE_ARCH_MARKER_VA).  Included only from <linux/marker.h>.
 */

#include <linux/stdarg.h>
#include <linux/types.h>

/*
 * A va_list (AAPCS64) whose general and vector register areas are used up
 * (offsets 0, tops unused), so that every va_arg() reads the next 8-byte
 * slot at @stack, where the site stored its arguments as C promotes them.
 * The kernel is built with general registers only: no va_arg() reads a
 * vector register.
 */
struct marker_va {
	void *stack;
	void *gr_top;
	void *vr_top;
	int gr_offs;
	int vr_offs;
};

#define __MARK_VA_DEFINE(args...)					\
	u64 __mva_slots[COUNT_ARGS(args)] = { __MARK_SLOTS(args) };	\
	struct marker_va __mva __uninitialized;				\
									\
	__mva.stack = __mva_slots;					\
	__mva.gr_offs = 0;						\
	__mva.vr_offs = 0

#define __MARK_VA_LIST()	((va_list *)&__mva)

/* Where the next argument is read; and back there, for marker_iterate(). */
static __always_inline void *arch_marker_va_start(va_list *args)
{
	return ((struct marker_va *)args)->stack;
}

static __always_inline void arch_marker_va_rewind(va_list *args, void *start)
{
	((struct marker_va *)args)->stack = start;
}

/*
 * The arguments of a probe's va_list, in @slots: one 8-byte slot each.
 * Every va_list a probe gets is a site's, flag sites' too
 * (marker_run_probes_va()).
 */
static __always_inline bool arch_marker_va_slots(va_list *args,
						 const unsigned long **slots)
{
	*slots = ((const struct marker_va *)args)->stack;
	return true;
}

#endif /* _ASM_ARM64_MARKER_H */
