/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_MARKER_H
#define _ASM_X86_MARKER_H

/*
 * An x86 marker site is one 5-byte NOP (BYTES_NOP5, which text_poke_bp()
 * knows how to emulate) that asm goto records in __marker_sites together with
 * its out-of-line block, the call to the probes, and its struct marker.
 * Armed, it is a jmp rel32 to that block, which jumps back after the call.
 * See arch/x86/kernel/marker.c.
 *
 * Included only from <linux/marker.h>, with CONFIG_MARKERS and
 * CONFIG_HAVE_ARCH_MARKERS, after struct marker, struct marker_site and
 * __MARK_SYM_DEFINE(), as <asm/jump_label.h> is from <linux/jump_label.h>.
 * The int3 hooks that traps.c calls are in <asm/text-patching.h>.
 */

#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/stdarg.h>
#include <linux/stringify.h>
#include <linux/types.h>
#include <asm/asm.h>
#include <asm/nops.h>

#define MARKER_SITE_SIZE	5
#define MARKER_CALL_SIZE	5	/* call rel32 */

/*
 * Instructions changed at once, with three syncs: 256 sites and the calls
 * in their blocks, as many sites as text_poke_bp_batch() changes at once
 * (TP_VEC_MAX, a page of struct text_poke_loc).
 */
#define MARKER_CHANGE_MAX	512

/*
 * The va_list that a site builds for its probe (x86-64 ABI): both register
 * areas used up, so that every va_arg() reads the next 8-byte slot of the
 * overflow area, where the site stored its arguments as C promotes them.
 * No variadic function runs on the way to the probe.  The kernel passes
 * no floating point arguments.
 */
struct marker_va {
	unsigned int gp_offset;
	unsigned int fp_offset;
	void *overflow_arg_area;
	void *reg_save_area;
};

#define MARKER_VA_GP_OFFSET	48	/* 6 general registers of 8 bytes */
#define MARKER_VA_FP_OFFSET	176	/* and 8 vector registers of 16 */

/*
 * Where a site's va_list reads its next argument; and back there, for
 * marker_iterate(), which gives every probe the whole list.  (A va_list
 * whose register areas are used up is its overflow pointer alone.)
 */
static __always_inline void *arch_marker_va_start(va_list *args)
{
	return ((struct marker_va *)*args)->overflow_arg_area;
}

static __always_inline void arch_marker_va_rewind(va_list *args, void *start)
{
	((struct marker_va *)*args)->overflow_arg_area = start;
}

/*
 * Where the arguments of a va_list whose general register area is used
 * up are: one 8-byte slot each, as a site's va_list has them; NULL for
 * any other va_list.  Lets a probe read argument n as slot n.
 */
static __always_inline const u64 *arch_marker_va_slots(va_list *args)
{
	const struct marker_va *va = (const struct marker_va *)*args;

	if (va->gp_offset < MARKER_VA_GP_OFFSET)
		return NULL;
	return va->overflow_arg_area;
}

/*
 * marker_rcu_ignores_cpu() for the sites: one test of the per-CPU
 * context-tracking state, and a branch.
 */
static __always_inline bool __marker_rcu_ignores_cpu(void)
{
#ifdef CONFIG_CONTEXT_TRACKING_IDLE
	bool ignored;

	/* !rcu_is_watching_curr_cpu(), in one testb of the per-CPU word. */
	asm volatile("testb %[watching], " __percpu_arg([state])
		     CC_SET(z)
		     : CC_OUT(z) (ignored)
		     : [watching] "i" (CT_RCU_WATCHING),
		       [state] "m" (__my_cpu_var(context_tracking.state.counter)));
	return ignored;
#else
	return marker_rcu_ignores_cpu();
#endif
}

/* Up to 12 arguments, each in a u64 slot. */
#define __MARK_SLOT(x)		((__force u64)(x))
#define __MARK_SLOTS_0()
#define __MARK_SLOTS_1(a)						\
	[0] = __MARK_SLOT(a)
#define __MARK_SLOTS_2(a, b)						\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b)
#define __MARK_SLOTS_3(a, b, c)						\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c)
#define __MARK_SLOTS_4(a, b, c, d)					\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d)
#define __MARK_SLOTS_5(a, b, c, d, e)					\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e)
#define __MARK_SLOTS_6(a, b, c, d, e, f)				\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e), [5] = __MARK_SLOT(f)
#define __MARK_SLOTS_7(a, b, c, d, e, f, g)				\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e), [5] = __MARK_SLOT(f),			\
	[6] = __MARK_SLOT(g)
#define __MARK_SLOTS_8(a, b, c, d, e, f, g, h)				\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e), [5] = __MARK_SLOT(f),			\
	[6] = __MARK_SLOT(g), [7] = __MARK_SLOT(h)
#define __MARK_SLOTS_9(a, b, c, d, e, f, g, h, i)			\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e), [5] = __MARK_SLOT(f),			\
	[6] = __MARK_SLOT(g), [7] = __MARK_SLOT(h),			\
	[8] = __MARK_SLOT(i)
#define __MARK_SLOTS_10(a, b, c, d, e, f, g, h, i, j)			\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e), [5] = __MARK_SLOT(f),			\
	[6] = __MARK_SLOT(g), [7] = __MARK_SLOT(h),			\
	[8] = __MARK_SLOT(i), [9] = __MARK_SLOT(j)
#define __MARK_SLOTS_11(a, b, c, d, e, f, g, h, i, j, k)		\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e), [5] = __MARK_SLOT(f),			\
	[6] = __MARK_SLOT(g), [7] = __MARK_SLOT(h),			\
	[8] = __MARK_SLOT(i), [9] = __MARK_SLOT(j),			\
	[10] = __MARK_SLOT(k)
#define __MARK_SLOTS_12(a, b, c, d, e, f, g, h, i, j, k, l)		\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e), [5] = __MARK_SLOT(f),			\
	[6] = __MARK_SLOT(g), [7] = __MARK_SLOT(h),			\
	[8] = __MARK_SLOT(i), [9] = __MARK_SLOT(j),			\
	[10] = __MARK_SLOT(k), [11] = __MARK_SLOT(l)
#define __MARK_SLOTS(args...)						\
	CONCATENATE(__MARK_SLOTS_, COUNT_ARGS(args))(args)

/*
 * The call of the probes: a direct call, recorded in __marker_calls, that
 * kernel/marker.c points at the marker's probe while it has exactly one,
 * and at marker_iterate() otherwise.  The probe gets the probe_private of
 * the array @probes the site read, the site's call_private, the format
 * and the va_list; the iterator also gets @probes (in %r8), and calls
 * every closure in it.
 */
#define __MARK_CALL(name, probes, call_private, va)			\
	do {								\
		struct marker_probe_closure *__probes = (probes);	\
		void *__priv = __probes->probe_private;			\
		void *__cp = (call_private);				\
		const char *__fmt = __marker_##name.format;		\
		struct marker_va *__vap = (va);				\
		/* Last: code in between (KASAN's checks) may use %r8. */	\
		register struct marker_probe_closure *__pr asm("r8") =	\
			__probes;					\
									\
		asm volatile("1: call %c[fn]\n\t"			\
			     ".pushsection __marker_calls, \"a\"\n\t"	\
			     _ASM_ALIGN "\n\t"				\
			     ".long 1b - ., 0\n\t"			\
			     _ASM_PTR "%c[m] - .\n\t"			\
			     ".popsection"				\
			     : ASM_CALL_CONSTRAINT, "+D" (__priv),		\
			       "+S" (__cp), "+d" (__fmt), "+c" (__vap),	\
			       "+r" (__pr)					\
			     : [fn] "i" (marker_iterate),		\
			       [m] "i" (&__marker_##name)		\
			     : "rax", "r9", "r10", "r11", "memory", "cc");	\
	} while (0)

/*
 * The out-of-line block: with preemption off, where RCU watches the CPU,
 * read the probes, build the va_list and call.
 */
#define __MARK_OUT_OF_LINE(name, call_private, args...)		\
	do {								\
		u64 __slots[COUNT_ARGS(args)] = { __MARK_SLOTS(args) };	\
		struct marker_va __va __uninitialized;			\
		struct marker_probe_closure *__p;			\
									\
		preempt_disable_notrace();				\
		if (unlikely(__marker_rcu_ignores_cpu())) {		\
			marker_skip_unwatched(&__marker_##name);	\
		} else {						\
			__p = rcu_dereference_sched(__marker_##name.probes); \
			if (likely(__p)) {				\
				__va.gp_offset = MARKER_VA_GP_OFFSET;	\
				__va.fp_offset = MARKER_VA_FP_OFFSET;	\
				__va.overflow_arg_area = __slots;	\
				__MARK_CALL(name, __p, call_private,	\
					    &__va);			\
			}						\
		}							\
		preempt_enable_notrace();				\
	} while (0)

/*
 * A site's asm: the NOP, recorded in __marker_sites with its out-of-line
 * block, the asm goto label @label, and its struct marker, operand 0.
 */
#define __MARK_NOP(label)						\
	"1: .byte " __stringify(BYTES_NOP5) "\n\t"			\
	".pushsection __marker_sites, \"a\"\n\t"				\
	_ASM_ALIGN "\n\t"						\
	".long 1b - ., %l[" label "] - .\n\t"				\
	_ASM_PTR "%c0 - .\n\t"						\
	".popsection\n\t"

/*
 * The site of a MARK(): its MARK_SYM and its NOP, whose out-of-line block
 * is the label l_@yes and whose marker is @mark.  The label is built by
 * pasting, so that the macro names nothing of its caller's twice.
 */
#define __MARK_JUMP(namestr, mark, yes)					\
	({								\
		asm goto(__MARK_SYM_DEFINE(namestr)			\
			 __MARK_NOP(__stringify(l_##yes))		\
			 : : "i" (mark) : : l_##yes);			\
	})

#define __MARK_SITE(name, call_private, format, args...)		\
	do {								\
		__label__ l_yes;					\
									\
		__MARK_DEFINE(__marker_##name, #name, format, ## args);	\
		__MARK_JUMP(#name, &__marker_##name, yes);		\
		if (0) {						\
l_yes:									\
			__MARK_OUT_OF_LINE(name, call_private, ## args); \
		}							\
	} while (0)

/*
 * MARK_ENABLED(): a site of its own, without a MARK_SYM (it is not the
 * marker), whose out-of-line block is the "true" of the test.
 */
static __always_inline bool __marker_enabled_site(struct marker *mark)
{
	asm goto(__MARK_NOP("l_yes") : : "i" (mark) : : l_yes);
	return false;
l_yes:
	return true;
}

#define __MARK_ENABLED(name)						\
	({								\
		__MARK_DEFINE_ENABLED(__marker_enabled_##name, #name);	\
		__marker_enabled_site(&__marker_enabled_##name);	\
	})

/* arch/x86/kernel/marker_hold.S, and the C it calls. */
struct pt_regs;
void marker_hold_thunk(void);
void marker_hold_wait(struct pt_regs *regs);

#endif /* _ASM_X86_MARKER_H */
