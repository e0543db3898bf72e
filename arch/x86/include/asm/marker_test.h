/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_MARKER_TEST_H
#define _ASM_X86_MARKER_TEST_H

/*
 * What the x86 marker patcher tells its tests and the benchmark module:
 * included through <linux/marker_test.h>.
 */

#ifdef CONFIG_MARKERS_STATS
/**
 * struct marker_hold_stats - what the int3 handler has done since boot
 * @holds: hits sent to wait in marker_hold_thunk until their site was
 *	   released, then run
 * @emulated: hits emulated: in a context that may not wait
 * @syncs: sync rounds of all CPUs
 * @late: emulated hits after release (the CPU fetched the int3 before)
 * @abandoned: holds left before their chunk's release, the task having
 *	       become real-time or deadline while it waited
 * @holding: tasks waiting right now
 * @max_hold_us: the longest a task waited, preemption included, in
 *		 microseconds
 * @max_hold_ns: the same, in nanoseconds
 * @max_window_ns: the longest window of a chunk, from its first int3 to
 *		   the end of the sync after its release, in nanoseconds
 *		   (preemptible)
 * @max_sync_ns: the longest sync, in nanoseconds (preemption off while
 *		 it waits for the other CPUs)
 * @max_poke_ns: the longest text_poke() of a site or call, in
 *		 nanoseconds (interrupts off while it writes)
 */
struct marker_hold_stats {
	unsigned long holds;
	unsigned long emulated;
	unsigned long syncs;
	unsigned long late;
	unsigned long abandoned;
	int holding;
	unsigned long long max_hold_us;
	unsigned long long max_hold_ns;
	unsigned long long max_window_ns;
	unsigned long long max_sync_ns;
	unsigned long long max_poke_ns;
};

void marker_x86_hold_stats(struct marker_hold_stats *st);
void marker_x86_hold_stats_reset_max(void);
#endif

#ifdef CONFIG_MARKERS_X86_KUNIT_TEST
struct pt_regs;

extern void (*marker_x86_test_step)(unsigned int step);
extern void (*marker_x86_test_held)(struct pt_regs *regs);
unsigned long marker_x86_tramp_of(unsigned long dest);
#endif

struct cpuinfo_x86;
bool marker_hold_supported(const struct cpuinfo_x86 *c);
bool marker_text_may_hold(unsigned long addr);

#endif /* _ASM_X86_MARKER_TEST_H */
