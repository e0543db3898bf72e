/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_MARKER_H
#define _ASM_X86_MARKER_H

/*
 * An x86 marker site is one 5-byte NOP (BYTES_NOP5, which text_poke_bp()
 * knows how to emulate) that asm goto records in __markers together with
 * its out-of-line block, the call to the probes, and its struct marker.
 * Armed, it is a jmp rel32 to that block, which jumps back after the call.
 * See arch/x86/kernel/marker.c.
 */

#include <linux/stringify.h>
#include <linux/types.h>
#include <asm/asm.h>
#include <asm/nops.h>

#define MARKER_SITE_SIZE	5

#ifdef KBUILD_BASENAME
#define __MARK_SYM_FILE		KBUILD_BASENAME
#else
#define __MARK_SYM_FILE		"unknown"
#endif

/*
 * MARK_SYM: a local symbol on the site, defined in the site's own asm so
 * that it cannot drift from it.  It is __mark.<name>.<file>.<line>; a
 * further copy of the same site in one object (an inlined or cloned
 * function) gets ".<n>" appended, n being unique in the object.  .irp
 * binds the name to \s.
 */
#define __MARK_SYM_DEFINE(namestr)					\
	".irp s," MARK_SYM_PREFIX namestr "." __MARK_SYM_FILE "."	\
	__stringify(__LINE__) "\n\t"					\
	".ifndef \\s\n\t"						\
	"\\s:\n\t"							\
	".else\n\t"							\
	"\\s\\().%=:\n\t"						\
	".endif\n\t"							\
	".endr\n\t"

/* The site: a NOP recorded with its out-of-line @label and its marker. */
#define __MARK_JUMP(name, label)					\
	({								\
		asm goto(__MARK_SYM_DEFINE(#name)			\
			 "1: .byte " __stringify(BYTES_NOP5) "\n\t"	\
			 ".pushsection __markers, \"a\"\n\t"		\
			 _ASM_ALIGN "\n\t"				\
			 ".long 1b - ., %l[" #label "] - .\n\t"		\
			 _ASM_PTR "%c0 - .\n\t"				\
			 ".popsection\n\t"				\
			 : : "i" (&__marker_##name) : : label);		\
	})

#define __MARK_SITE(name, call_private, format, args...)		\
	do {								\
		__label__ l_yes;					\
									\
		__MARK_DEFINE(__marker_##name, #name, format, ## args);	\
		__MARK_JUMP(name, l_yes);				\
		if (0) {						\
l_yes:									\
			marker_call(&__marker_##name, call_private,	\
				    ## args);				\
			/* No tail call: keep the caller's frame. */	\
			barrier();					\
		}							\
	} while (0)

struct pt_regs;

#if defined(CONFIG_MARKERS) && defined(CONFIG_HAVE_ARCH_MARKERS)
bool marker_int3_handler(struct pt_regs *regs);
bool marker_int3_fixup(struct pt_regs *regs);

/**
 * struct marker_hold_stats - what the int3 handler has done since boot
 * @holds: hits held until their site was patched, then run
 * @emulated: hits emulated: in a context that may not be held, late, or
 *	      held too long
 * @timeouts: holds that outlasted marker_hold_timeout_ms, then emulated
 * @unheld: holds let go because a sync stalled, then emulated
 * @syncs: sync rounds of all CPUs
 * @retried: int3s on a site that no chunk had, the site's current
 *	     instruction emulated (a stale int3, which hardware does not run)
 * @late: hits after release, emulated (the CPU fetched the int3 before)
 * @stale: late hits on a CPU that had already returned from one in the
 *	   same chunk: a stale int3, which hardware does not run
 * @resends: sync IPIs sent again to a CPU that had not acknowledged
 * @holding: CPUs held right now
 * @max_hold_us: the longest a CPU was held, in microseconds
 * @max_hold_ns: the same, in nanoseconds
 * @max_window_ns: the longest window of a chunk, from its first int3 to
 *		   the end of the sync after its release, in nanoseconds: no
 *		   CPU can be held longer
 * @max_sync_ns: the longest sync, in nanoseconds
 */
struct marker_hold_stats {
	unsigned long holds;
	unsigned long emulated;
	unsigned long timeouts;
	unsigned long unheld;
	unsigned long syncs;
	unsigned long retried;
	unsigned long late;
	unsigned long stale;
	unsigned long resends;
	int holding;
	unsigned long long max_hold_us;
	unsigned long long max_hold_ns;
	unsigned long long max_window_ns;
	unsigned long long max_sync_ns;
};

void marker_x86_hold_stats(struct marker_hold_stats *st);
void marker_x86_hold_stats_reset_max(void);
extern unsigned int marker_hold_timeout_ms;
#ifdef CONFIG_MARKERS_KUNIT_TEST
extern void (*marker_x86_test_step)(unsigned int step);
extern bool (*marker_x86_test_drop_ack)(void);
#endif
#else
static __always_inline bool marker_int3_handler(struct pt_regs *regs)
{
	return false;
}

static inline bool marker_int3_fixup(struct pt_regs *regs)
{
	return false;
}
#endif

#endif /* _ASM_X86_MARKER_H */
