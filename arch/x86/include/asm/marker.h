/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_MARKER_H
#define _ASM_X86_MARKER_H

/*
 * An x86-64 marker site is one 5-byte NOP (BYTES_NOP5, which text_poke_bp()
 * knows how to emulate) that asm goto records in __marker_sites together with
 * its out-of-line block, the call to the probes, and its struct marker.
 * Armed, it is a jmp rel32 to that block, which jumps back after the call.
 * See arch/x86/kernel/marker.c.  A 32-bit x86 site is a jump label whose
 * block builds its probes' va_list itself (CONFIG_HAVE_ARCH_MARKER_VA).
 *
 * Included only from <linux/marker.h>, with CONFIG_MARKERS and
 * CONFIG_HAVE_ARCH_MARKERS or CONFIG_HAVE_ARCH_MARKER_VA, after struct
 * marker, struct marker_site and __MARK_SYM_DEFINE(), as <asm/jump_label.h>
 * is from <linux/jump_label.h>.  The int3 hooks that traps.c calls are in
 * <asm/text-patching.h>.
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

#ifdef CONFIG_X86_32
/*
 * An i386 va_list points at the arguments as a call pushes them for a
 * variadic function: each promoted as C promotes it, at the next 4-byte
 * boundary, a long long taking 8 bytes.  The site lays its arguments out
 * so in __mva_buf, at most 8 bytes each.
 */
#define __MARK_VA_PUT(x)						\
	({								\
		__auto_type __a = (x);					\
		__typeof__(0 ? __a : 0) __v = __a;			\
									\
		memcpy(__mva_buf + __mva_off, &__v, sizeof(__v));	\
		__mva_off += sizeof(__v);				\
	})
#define __MARK_VA_PUT_0()		((void)0)
#define __MARK_VA_PUT_1(a)		__MARK_VA_PUT(a)
#define __MARK_VA_PUT_2(a, b)		(__MARK_VA_PUT(a), __MARK_VA_PUT(b))
#define __MARK_VA_PUT_3(a, b, c)	(__MARK_VA_PUT_2(a, b), __MARK_VA_PUT(c))
#define __MARK_VA_PUT_4(a, b, c, d)					\
	(__MARK_VA_PUT_3(a, b, c), __MARK_VA_PUT(d))
#define __MARK_VA_PUT_5(a, b, c, d, e)					\
	(__MARK_VA_PUT_4(a, b, c, d), __MARK_VA_PUT(e))
#define __MARK_VA_PUT_6(a, b, c, d, e, f)				\
	(__MARK_VA_PUT_5(a, b, c, d, e), __MARK_VA_PUT(f))
#define __MARK_VA_PUT_7(a, b, c, d, e, f, g)				\
	(__MARK_VA_PUT_6(a, b, c, d, e, f), __MARK_VA_PUT(g))
#define __MARK_VA_PUT_8(a, b, c, d, e, f, g, h)			\
	(__MARK_VA_PUT_7(a, b, c, d, e, f, g), __MARK_VA_PUT(h))
#define __MARK_VA_PUT_9(a, b, c, d, e, f, g, h, i)			\
	(__MARK_VA_PUT_8(a, b, c, d, e, f, g, h), __MARK_VA_PUT(i))
#define __MARK_VA_PUT_10(a, b, c, d, e, f, g, h, i, j)			\
	(__MARK_VA_PUT_9(a, b, c, d, e, f, g, h, i), __MARK_VA_PUT(j))
#define __MARK_VA_PUT_11(a, b, c, d, e, f, g, h, i, j, k)		\
	(__MARK_VA_PUT_10(a, b, c, d, e, f, g, h, i, j), __MARK_VA_PUT(k))
#define __MARK_VA_PUT_12(a, b, c, d, e, f, g, h, i, j, k, l)		\
	(__MARK_VA_PUT_11(a, b, c, d, e, f, g, h, i, j, k), __MARK_VA_PUT(l))

#define __MARK_VA_DEFINE(args...)					\
	char __mva_buf[8 * COUNT_ARGS(args)] __aligned(4) __uninitialized; \
	unsigned int __mva_off __maybe_unused = 0;			\
	char *__mva = (CONCATENATE(__MARK_VA_PUT_, COUNT_ARGS(args))(args), \
		       __mva_buf)

#define __MARK_VA_LIST()	((va_list *)&__mva)

/* Where the next argument is read; and back there, for marker_iterate(). */
static __always_inline void *arch_marker_va_start(va_list *args)
{
	return *(char **)args;
}

static __always_inline void arch_marker_va_rewind(va_list *args, void *start)
{
	*(char **)args = start;
}

/*
 * Where the arguments of a va_list are, for every va_list, a site's and
 * a variadic function's: one 4-byte slot each, two for a 64-bit one.
 */
static __always_inline bool arch_marker_va_slots(va_list *args,
						 const unsigned long **slots)
{
	*slots = *(const unsigned long **)args;
	return true;
}
#endif /* CONFIG_X86_32 */

#ifdef CONFIG_HAVE_ARCH_MARKERS
#define MARKER_SITE_SIZE	5
#define MARKER_CALL_SIZE	5	/* call rel32 */

/*
 * Instructions changed at once, with three syncs: 256 sites and the calls
 * in their blocks, as many sites as text_poke_bp_batch() changes at once
 * (TP_VEC_MAX, a page of struct text_poke_loc).
 */
#define MARKER_CHANGE_MAX	512

/*
 * A marker with two to this many probes has its calls pointed at a
 * trampoline that calls each probe directly (marker_tramps.S).
 */
#define MARKER_TRAMP_MAX_PROBES	4

void marker_tramp_none(void *probe_private, void *call_private,
		       const char *fmt, va_list *args);

/*
 * The va_list that a site builds for its probe (x86-64 ABI): the general
 * register area used up, so that every va_arg() reads the next 8-byte slot
 * of the overflow area, where the site stored its arguments as C promotes
 * them.  No variadic function runs on the way to the probe.  The kernel
 * is built without SSE and passes no floating point arguments: no
 * va_arg() reads fp_offset or reg_save_area.  A flag site's va_list
 * sets fp_offset to 0; a patched site's sets gp_offset alone, in the
 * asm of its call, addressed through the va_list's register (a 4-byte
 * store of 6 bytes, where an %rsp-relative one takes 8 or 9).
 */
struct marker_va {
	unsigned int gp_offset;
	unsigned int fp_offset;
	void *overflow_arg_area;
	void *reg_save_area;
};

#define MARKER_VA_GP_OFFSET	48	/* 6 general registers of 8 bytes */

/* That va_list, for a flag site's marker_run_probes_va(). */
#define __MARK_VA_DEFINE(args...)					\
	u64 __mva_slots[COUNT_ARGS(args)] = { __MARK_SLOTS(args) };	\
	struct marker_va __mva = {					\
		.gp_offset = MARKER_VA_GP_OFFSET,			\
		.overflow_arg_area = __mva_slots,			\
	}

#define __MARK_VA_LIST()	((va_list *)&__mva)

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
 * Where the arguments of a probe's va_list are, in @slots: one 8-byte
 * slot each.  Every va_list a probe gets is a site's, flag sites' too
 * (__MARK_VA_DEFINE()), so a probe reads argument n as slot n.
 */
static __always_inline bool arch_marker_va_slots(va_list *args,
						 const unsigned long **slots)
{
	*slots = ((const struct marker_va *)*args)->overflow_arg_area;
	return true;
}

/*
 * marker_rcu_ignores_cpu() for the sites that test it (MARKER_CHECK_RCU):
 * one test of the per-CPU context-tracking state, and a branch.
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

/*
 * The call of the probes: a direct call, recorded in __marker_calls, that
 * kernel/marker.c points at the marker's probe while it has exactly one,
 * and at marker_iterate() otherwise.  The probe gets the probe_private of
 * the array @closures the site read, the site's call_private, the array's
 * format (the marker's: a connected name has one) and the va_list @va,
 * whose gp_offset the asm sets; the iterator also gets @closures (in
 * %r8), and calls every closure in it.  Both reads are relative to it.
 */
#define __MARK_CALL(name, closures, call_private, va)			\
	do {								\
		struct marker_probe_closure *__probes = (closures);	\
		void *__priv = __probes->probe_private;			\
		void *__cp = (call_private);				\
		const char *__fmt = container_of(__probes,		\
			struct marker_probes, probes[0])->format;	\
		struct marker_va *__vap = (va);				\
		/* Last: code in between (KASAN's checks) may use %r8. */	\
		register struct marker_probe_closure *__pr asm("r8") =	\
			__probes;					\
									\
		asm volatile("movl %[gp], (%%rcx)\n\t"			\
			     "1: call %c[fn]\n\t"			\
			     ".pushsection __marker_calls, \"a\"\n\t"	\
			     _ASM_ALIGN "\n\t"				\
			     ".long 1b - ., 0\n\t"			\
			     _ASM_PTR "%c[m] - .\n\t"			\
			     ".popsection"				\
			     : ASM_CALL_CONSTRAINT, "+D" (__priv),		\
			       "+S" (__cp), "+d" (__fmt), "+c" (__vap),	\
			       "+r" (__pr), "+m" (*__vap)			\
			     : [fn] "i" (marker_iterate),		\
			       [m] "i" (&__marker_##name),		\
			       [gp] "i" (MARKER_VA_GP_OFFSET)		\
			     : "rax", "r9", "r10", "r11", "memory", "cc");	\
	} while (0)

/*
 * The out-of-line block: with preemption off, read the probes, build the
 * va_list and call.  An armed site's marker has an array, never NULL
 * (kernel/marker.c); where sites test RCU (MARKER_CHECK_RCU), only if it
 * watches the CPU.  The va_list's address is hidden from the compiler, so
 * that its overflow pointer is stored through the register that holds it
 * for the call, as its gp_offset is: a byte shorter than a store relative
 * to %rsp, which needs a SIB byte.
 */
#define __MARK_OUT_OF_LINE(name, call_private, args...)		\
	do {								\
		u64 __slots[COUNT_ARGS(args)] = { __MARK_SLOTS(args) };	\
		struct marker_va __va __uninitialized, *__vp = &__va;	\
									\
		preempt_disable_notrace();				\
		if (MARKER_CHECK_RCU &&					\
		    unlikely(__marker_rcu_ignores_cpu())) {		\
			marker_skip_unwatched(&__marker_##name);	\
		} else {						\
			OPTIMIZER_HIDE_VAR(__vp);			\
			__vp->overflow_arg_area = __slots;		\
			__MARK_CALL(name,				\
				rcu_dereference_sched(__marker_##name.probes), \
				call_private, __vp);			\
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
		__MARK_DEFINE(__marker_##name, #name, btf_trace_##name,	\
			      format, ## args);				\
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
#endif /* CONFIG_HAVE_ARCH_MARKERS */

#endif /* _ASM_X86_MARKER_H */
