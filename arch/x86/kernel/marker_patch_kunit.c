// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite markers_x86: how x86-64 patches many sites (20 sites in
 * one chunk, 272 in two), which kernels and CPUs hold a task at all and
 * in which text, the stack of a held task and of the hold thunk, the
 * call in a site's block under call depth tracking, and the trampolines
 * that call several probes.
 */

#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/memory.h>
#include <linux/percpu.h>
#include <linux/stacktrace.h>
#include <asm/insn.h>
#include <asm/sections.h>
#include <asm/unwind.h>

#include "marker_kunit.h"

#define MARK_BATCH()	MARK(markers_x86_batch, "magic %lu", HOLD_MAGIC)
#define MARK_BATCH4()	\
	do { MARK_BATCH(); MARK_BATCH(); MARK_BATCH(); MARK_BATCH(); } while (0)

/* BATCH_SITES sites of one marker. */
static noinline void pass_batch(void)
{
	MARK_BATCH4();
	MARK_BATCH4();
	MARK_BATCH4();
	MARK_BATCH4();
	MARK_BATCH4();
}

/*
 * 272 sites of one marker: arming changes 544 instructions, one chunk of
 * 512 and one of 32, as text_poke_bp_batch() would change 272 jump labels
 * in two batches.
 */
#define CHUNK_SITES	272
#define MARK_CHUNK()	MARK(markers_x86_chunks, "magic %lu", HOLD_MAGIC)
#define MARK_CHUNK4()	\
	do { MARK_CHUNK(); MARK_CHUNK(); MARK_CHUNK(); MARK_CHUNK(); } while (0)
#define MARK_CHUNK16()	\
	do { MARK_CHUNK4(); MARK_CHUNK4(); MARK_CHUNK4(); MARK_CHUNK4(); } while (0)

static noinline void pass_chunks(void)
{
	MARK_CHUNK16(); MARK_CHUNK16(); MARK_CHUNK16(); MARK_CHUNK16();
	MARK_CHUNK16(); MARK_CHUNK16(); MARK_CHUNK16(); MARK_CHUNK16();
	MARK_CHUNK16(); MARK_CHUNK16(); MARK_CHUNK16(); MARK_CHUNK16();
	MARK_CHUNK16(); MARK_CHUNK16(); MARK_CHUNK16(); MARK_CHUNK16();
	MARK_CHUNK16();
}

/*
 * Arming a marker with 20 sites changes them and their 20 calls in one
 * chunk: three syncs, not sixty; disarming, the same.
 */
static void markers_x86_test_batch(struct kunit *test)
{
	const struct marker_site *v[BATCH_SITES + 1];
	struct marker_hold_stats st0, st;
	int n = mkt_sites_get("markers_x86_batch", v, ARRAY_SIZE(v));

	KUNIT_ASSERT_EQ(test, n, BATCH_SITES);
	atomic_long_set(&mkt_probe_hits, 0);
	marker_x86_hold_stats(&st0);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_x86_batch",
						       "magic %lu",
						       mkt_probe_count, NULL));
	marker_x86_hold_stats(&st);
	KUNIT_EXPECT_EQ(test, st.syncs - st0.syncs, 3UL);
	KUNIT_EXPECT_TRUE(test, mkt_sites_armed(v, n, true));
	pass_batch();
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mkt_probe_hits), BATCH_SITES);

	marker_x86_hold_stats(&st0);
	marker_probe_unregister("markers_x86_batch", mkt_probe_count, NULL);
	marker_x86_hold_stats(&st);
	KUNIT_EXPECT_EQ(test, st.syncs - st0.syncs, 3UL);
	KUNIT_EXPECT_TRUE(test, mkt_sites_armed(v, n, false));
}

static int chunks_stop;
static atomic_long_t chunks_passes;

static const struct mkt_loop chunks_passer = {
	.round = pass_chunks, .stop = &chunks_stop, .every = 4,
	.rounds = &chunks_passes,
};

/*
 * Arming a marker with 272 sites, while another CPU passes them all,
 * takes two chunks, six syncs; every site then calls the probe, and
 * every pass meanwhile ran a whole instruction.
 */
static void markers_x86_test_chunks(struct kunit *test)
{
	const struct marker_site **v;
	struct marker_hold_stats st0, st;
	struct task_struct *t = NULL;
	unsigned long syncs[2];
	long hits;
	int cpu, n;

	v = kunit_kcalloc(test, CHUNK_SITES + 1, sizeof(*v), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, v);
	n = mkt_sites_get("markers_x86_chunks", v, CHUNK_SITES + 1);
	KUNIT_ASSERT_EQ(test, n, CHUNK_SITES);
	WRITE_ONCE(chunks_stop, 0);
	atomic_long_set(&chunks_passes, 0);
	atomic_long_set(&mkt_probe_hits, 0);
	atomic_long_set(&mkt_probe_bad, 0);
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu < nr_cpu_ids)
		t = mkt_thread_on(mkt_loop_thread, (void *)&chunks_passer, cpu,
				  "markers_chunks/%u");

	marker_x86_hold_stats(&st0);
	KUNIT_EXPECT_EQ(test, 0, marker_probe_register("markers_x86_chunks",
						       "magic %lu",
						       mkt_probe_count, NULL));
	marker_x86_hold_stats(&st);
	syncs[0] = st.syncs - st0.syncs;
	KUNIT_EXPECT_TRUE(test, mkt_sites_armed(v, n, true));
	marker_x86_hold_stats(&st0);
	marker_probe_unregister("markers_x86_chunks", mkt_probe_count, NULL);
	marker_x86_hold_stats(&st);
	syncs[1] = st.syncs - st0.syncs;
	KUNIT_EXPECT_TRUE(test, mkt_sites_armed(v, n, false));
	WRITE_ONCE(chunks_stop, 1);
	if (t)
		kthread_stop(t);

	kunit_info(test, "%d sites: armed in %lu syncs, disarmed in %lu; %ld passes of all of them meanwhile\n",
		   n, syncs[0], syncs[1], atomic_long_read(&chunks_passes));
	KUNIT_EXPECT_EQ(test, syncs[0], 6UL);
	KUNIT_EXPECT_EQ(test, syncs[1], 6UL);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mkt_probe_bad), 0);

	hits = atomic_long_read(&mkt_probe_hits);
	KUNIT_EXPECT_EQ(test, 0, marker_probe_register("markers_x86_chunks",
						       "magic %lu",
						       mkt_probe_count, NULL));
	pass_chunks();
	marker_probe_unregister("markers_x86_chunks", mkt_probe_count, NULL);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mkt_probe_hits) - hits,
			(long)CHUNK_SITES);
}

/*
 * Only a kernel built to preempt tasks holds one: elsewhere a preempt
 * count (DEBUG_ATOMIC_SLEEP keeps one) tells what could be preempted,
 * but the kernel was built assuming that nothing is.  A task meeting the
 * site mid-patch in a preemptible loop is held with CONFIG_PREEMPTION,
 * emulated without (and where the CPU's event delivery forbids holds,
 * marker_hold_supported()).
 */
static void markers_x86_test_preempt_count(struct kunit *test)
{
	bool counted = IS_ENABLED(CONFIG_PREEMPTION) &&
		       marker_hold_supported(&boot_cpu_data);
	struct marker_hold_stats st0, st;
	long hits;

	atomic_long_set(&mkt_probe_bad, 0);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_x86_hold",
						       "magic %lu",
						       mkt_probe_count, NULL));
	hits = atomic_long_read(&mkt_probe_hits);
	marker_x86_hold_stats(&st0);
	mkt_hold_run(test, false, NULL);
	marker_x86_hold_stats(&st);
	marker_probe_unregister("markers_x86_hold", mkt_probe_count, NULL);

	kunit_info(test, "CONFIG_PREEMPTION=%c, CONFIG_PREEMPT_COUNT=%c: %lu held, %lu emulated\n",
		   IS_ENABLED(CONFIG_PREEMPTION) ? 'y' : 'n',
		   IS_ENABLED(CONFIG_PREEMPT_COUNT) ? 'y' : 'n',
		   st.holds - st0.holds,
		   st.emulated - st0.emulated);
	KUNIT_EXPECT_EQ(test, mkt_ht.passed, 1);
	KUNIT_EXPECT_EQ(test, mkt_ht.held[2], counted);
	KUNIT_EXPECT_EQ(test, st.holds - st0.holds, counted ? 1UL : 0UL);
	KUNIT_EXPECT_EQ(test, st.emulated - st0.emulated, counted ? 0UL : 1UL);
	/* Disarmed: the pass, held or emulated, called no probe. */
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mkt_probe_hits), hits);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mkt_probe_bad), 0);
}

/*
 * Tasks are held only in kernels built to preempt them, and only where
 * the kernel returns from an int3 with its own IRET: never under FRED
 * (ERETS), nor in a Xen PV guest (the hypervisor's iret), whatever else
 * the CPU has.  The decision is the boot CPU's features', asked of a
 * copy of them.
 */
static void markers_x86_test_hold_supported(struct kunit *test)
{
	struct cpuinfo_x86 *c = kunit_kmalloc(test, sizeof(*c), GFP_KERNEL);
	bool fred = cpu_feature_enabled(X86_FEATURE_FRED);
	bool xenpv = cpu_feature_enabled(X86_FEATURE_XENPV);
	unsigned long *caps;

	KUNIT_ASSERT_NOT_NULL(test, c);
	*c = boot_cpu_data;
	caps = (unsigned long *)c->x86_capability;
	__clear_bit(X86_FEATURE_FRED, caps);
	__clear_bit(X86_FEATURE_XENPV, caps);
	KUNIT_EXPECT_EQ(test, marker_hold_supported(c),
			IS_ENABLED(CONFIG_PREEMPTION));
	__set_bit(X86_FEATURE_FRED, caps);
	KUNIT_EXPECT_FALSE_MSG(test, marker_hold_supported(c), "FRED");
	__clear_bit(X86_FEATURE_FRED, caps);
	__set_bit(X86_FEATURE_XENPV, caps);
	KUNIT_EXPECT_FALSE_MSG(test, marker_hold_supported(c), "Xen PV");

	kunit_info(test, "FRED %s, Xen PV %s (CONFIG_XEN_PV=%c), CONFIG_PREEMPTION=%c: tasks %s held\n",
		   fred ? "on" : "off", xenpv ? "on" : "off",
		   IS_ENABLED(CONFIG_XEN_PV) ? 'y' : 'n',
		   IS_ENABLED(CONFIG_PREEMPTION) ? 'y' : 'n',
		   marker_hold_supported(&boot_cpu_data) ? "may be" : "are not");
	KUNIT_EXPECT_EQ(test, marker_hold_supported(&boot_cpu_data),
			IS_ENABLED(CONFIG_PREEMPTION) && !fred && !xenpv);
}

/*
 * No task is held in text that must not call instrumented code: noinstr
 * and cpuidle text, entry text (and a module's noinstr text); a site in
 * ordinary text may hold one.
 */
static void markers_x86_test_text_may_hold(struct kunit *test)
{
	const struct marker_site *s = marker_test_site("markers_x86_hold");

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_EXPECT_TRUE(test, marker_text_may_hold(marker_site_code(s)));
	KUNIT_EXPECT_FALSE(test, marker_text_may_hold((unsigned long)
						      __noinstr_text_start));
	KUNIT_EXPECT_FALSE(test, marker_text_may_hold((unsigned long)
						      __noinstr_text_end - 1));
	KUNIT_EXPECT_FALSE(test, marker_text_may_hold((unsigned long)
						      __entry_text_start));
	KUNIT_EXPECT_FALSE(test, marker_text_may_hold((unsigned long)
						      __entry_text_end - 1));
}

#if defined(CONFIG_HAVE_RELIABLE_STACKTRACE) && defined(CONFIG_PREEMPTION)
#define UNWIND_DEPTH	32

static struct held_unwind {
	int ret;
	bool site;	/* the trace has the site */
	int done;
} hu;

/* In the held passer, as its wait begins. */
static void held_unwind_hook(struct pt_regs *regs)
{
	unsigned long entries[UNWIND_DEPTH];
	int i, ret;

	if (current != mkt_hd.passer || READ_ONCE(hu.done))
		return;
	ret = stack_trace_save_tsk_reliable(current, entries,
					    ARRAY_SIZE(entries));
	for (i = 0; i < ret; i++)
		if (entries[i] == regs->ip)
			hu.site = true;
	hu.ret = ret;
	/* The result before the flag. */
	smp_store_release(&hu.done, 1);
}

static bool held_unwound(void)
{
	/* The flag before the result. */
	return smp_load_acquire(&hu.done);
}

static void held_unwind_step(unsigned int step)
{
	if (step != 1)
		return;
	WRITE_ONCE(mkt_hd.go, 1);
	mkt_hd.ok_step = mkt_spin_until(mkt_one_held, 2000) &&
		     mkt_spin_until(held_unwound, 2000);
}

/*
 * A reliable stack trace of a held task (what livepatch asks before it
 * switches a task) either fails, as it does for a task stopped in an
 * interrupt where frame pointers cannot be trusted, or names the site:
 * it never skips the function that holds it.
 */
static void markers_x86_test_held_unwind(struct kunit *test)
{
	const struct marker_site *s;

	if (!marker_hold_supported(&boot_cpu_data))
		kunit_skip(test, "no task is held in this kernel");
	if (mkt_held_start(test, &s))
		return;
	memset(&hu, 0, sizeof(hu));
	WRITE_ONCE(marker_x86_test_held, held_unwind_hook);
	WRITE_ONCE(marker_x86_test_step, held_unwind_step);
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, true));
	WRITE_ONCE(marker_x86_test_held, NULL);
	mkt_held_stop(test);

	kunit_info(test, "%s unwinder: %d, the site %s\n",
		   IS_ENABLED(CONFIG_UNWINDER_ORC) ? "ORC" : "frame pointer",
		   hu.ret, hu.site ? "named" : "not named");
	KUNIT_EXPECT_TRUE(test, mkt_hd.ok_step);
	KUNIT_EXPECT_TRUE_MSG(test, hu.ret == -EINVAL ||
			      (hu.ret > 0 && hu.site),
			      "a reliable trace of %d entries without the site",
			      hu.ret);
	if (IS_ENABLED(CONFIG_UNWINDER_ORC))
		KUNIT_EXPECT_TRUE(test, hu.site);
}
#endif

#ifdef CONFIG_UNWINDER_ORC
/*
 * Wherever an interrupt can land in marker_hold_thunk (up to its cli),
 * the unwinder finds the held task's registers at or above the stack
 * pointer: below it, the interrupt's own frame overwrites them.  Each
 * such instruction is unwound as if interrupted, over a stack of zeros.
 */
static void markers_x86_test_thunk_unwind(struct kunit *test)
{
	unsigned long start = (unsigned long)marker_hold_thunk, size, off;
	unsigned long stack[64] = {}, sp = (unsigned long)&stack[24];
	unsigned long ip, lowest;
	struct unwind_state state;
	struct pt_regs regs;
	struct insn insn;
	int n = 0;

	KUNIT_ASSERT_TRUE(test, kallsyms_lookup_size_offset(start, &size,
							    &off));
	for (ip = start; ip < start + size; ip += insn.length, n++) {
		KUNIT_ASSERT_EQ(test, 0, insn_decode_kernel(&insn, (void *)ip));
		memset(&regs, 0, sizeof(regs));
		regs.ip = ip;
		regs.sp = sp;
		regs.cs = __KERNEL_CS;
		regs.flags = X86_EFLAGS_IF | X86_EFLAGS_FIXED;
		unwind_start(&state, current, &regs, NULL);
		unwind_next_frame(&state);
		lowest = (unsigned long)state.regs;
		if (!state.full_regs)
			lowest += IRET_FRAME_OFFSET;
		KUNIT_EXPECT_GE_MSG(test, lowest, sp,
				    "%pS: registers read %lu bytes below the stack pointer",
				    (void *)ip, sp - lowest);
		/* cli, or the IRET that ends the thunk if it has none */
		if (insn.opcode.bytes[0] == 0xfa || insn.opcode.bytes[0] == 0xcf)
			break;
	}
	kunit_info(test, "%d instructions with interrupts on\n", n + 1);
}
#endif

/* Where the call of @name's probes in its first block goes now. */
static unsigned long probe_call_target(const char *name)
{
	const struct marker_probe_call *c;
	unsigned long code;

	for (c = __start___marker_calls; c < __stop___marker_calls; c++) {
		if (strcmp(marker_probe_call_marker(c)->name, name))
			continue;
		code = marker_probe_call_code(c);
		return code + CALL_INSN_SIZE + *(s32 *)(code + 1);
	}
	return 0;
}

/* What a direct call of @fn is written as: its call thunk's address. */
static unsigned long call_dest(void *fn)
{
	unsigned long dest;

	mutex_lock(&text_mutex);
	dest = (unsigned long)callthunks_translate_call_dest(fn);
	mutex_unlock(&text_mutex);
	return dest;
}

#ifdef CONFIG_CALL_THUNKS
static u64 call_depth(void)
{
	return this_cpu_read(pcpu_hot.call_depth);
}
#else
static u64 call_depth(void)
{
	return 0;
}
#endif

/*
 * With call depth tracking, each call goes through its callee's thunk,
 * which counts it, and each return counts itself back; one that skips
 * it unbalances the count.  The call in a site's block is written as
 * the compiler's calls are: through the probe's thunk, and to the
 * trampoline's, whose calls go through theirs, and a pass leaves the
 * count as it found it.
 */
static void markers_x86_test_call_depth(struct kunit *test)
{
	struct mkt_site_log l1 = {}, l2 = {};
	unsigned long flags;
	u64 before, after;

	kunit_info(test, "call depth tracking %s\n",
		   cpu_feature_enabled(X86_FEATURE_CALL_DEPTH) ?
		   "on" : "off");
	KUNIT_ASSERT_EQ(test, 0, mkt_site_connect(&l1));
	KUNIT_EXPECT_EQ(test, probe_call_target("markers_x86_site"),
			call_dest(mkt_probe_site));
	if (cpu_feature_enabled(X86_FEATURE_CALL_DEPTH))
		KUNIT_EXPECT_NE(test, call_dest(mkt_probe_site),
				(unsigned long)mkt_probe_site);
	local_irq_save(flags);
	before = call_depth();
	mkt_pass_site(1);
	after = call_depth();
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, l1.calls, 1);
	KUNIT_EXPECT_EQ_MSG(test, before, after, "depth %llx, then %llx",
			    before, after);

	KUNIT_ASSERT_EQ(test, 0, mkt_site_connect(&l2));
	if (static_branch_unlikely(&marker_call_sites))
		KUNIT_EXPECT_EQ(test, probe_call_target("markers_x86_site"),
				call_dest(marker_iterate));
	else
		KUNIT_EXPECT_NE(test, marker_x86_tramp_of(probe_call_target("markers_x86_site")),
				0UL);
	local_irq_save(flags);
	before = call_depth();
	mkt_pass_site(2);
	after = call_depth();
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, l2.calls, 1);
	KUNIT_EXPECT_EQ(test, before, after);

	mkt_site_disconnect(&l2);
	KUNIT_EXPECT_EQ(test, probe_call_target("markers_x86_site"),
			call_dest(mkt_probe_site));
	mkt_site_disconnect(&l1);
}

/*
 * Two to four probes are called through a trampoline, five through
 * marker_iterate(): each probe once a pass, with its own probe_private
 * and the site's argument, whatever the probes before it read.  While
 * call sites are noted (markers.site_field=1), two or more through
 * marker_iterate(), which notes them.
 */
static void markers_x86_test_tramp_probes(struct kunit *test)
{
	struct mkt_site_log l[MARKER_TRAMP_MAX_PROBES + 1] = {};
	unsigned long target;
	unsigned int n, i;

	for (n = 1; n <= ARRAY_SIZE(l); n++) {
		KUNIT_ASSERT_EQ(test, 0, mkt_site_connect(&l[n - 1]));
		target = probe_call_target("markers_x86_site");
		if (n == 1)
			KUNIT_EXPECT_EQ(test, target, call_dest(mkt_probe_site));
		else if (n <= MARKER_TRAMP_MAX_PROBES &&
			 !static_branch_unlikely(&marker_call_sites))
			KUNIT_EXPECT_NE_MSG(test, marker_x86_tramp_of(target), 0UL,
					    "%u probes: not a trampoline", n);
		else
			KUNIT_EXPECT_EQ(test, target, call_dest(marker_iterate));
		mkt_pass_site(100 + n);
		for (i = 0; i < n; i++) {
			KUNIT_EXPECT_EQ_MSG(test, l[i].calls, 1,
					    "%u probes: probe %u", n, i);
			KUNIT_EXPECT_EQ_MSG(test, l[i].arg, 100 + n,
					    "%u probes: probe %u", n, i);
			l[i].calls = 0;
		}
	}
	while (n-- > 1)
		mkt_site_disconnect(&l[n - 1]);
	KUNIT_EXPECT_EQ(test, probe_call_target("markers_x86_site"),
			call_dest(marker_iterate));
}

static struct {
	int in;
	int stop;
	int left;
} tramp_reader;

/* A CPU in a trampoline: preemption off until told to leave, 2 s at most. */
static int tramp_reader_fn(void *data)
{
	unsigned long end = jiffies + 2 * HZ;

	preempt_disable();
	WRITE_ONCE(tramp_reader.in, 1);
	while (!READ_ONCE(tramp_reader.stop) && time_before(jiffies, end))
		cpu_relax();
	WRITE_ONCE(tramp_reader.left, 1);
	preempt_enable();
	return mkt_park();
}

static bool tramp_reader_in(void)
{
	return READ_ONCE(tramp_reader.in);
}

/*
 * A trampoline put back while a CPU may still run it (preemption off, as
 * in a site's block) is handed out again, and rewritten, only once that
 * CPU has left: every free trampoline of its size is taken, and it comes
 * last, after a grace period.
 */
static void markers_x86_test_tramp_reuse(struct kunit *test)
{
	const struct marker_probe_closure p[] = {
		{ .func = mkt_probe_site }, { .func = mkt_probe_site }, {}
	};
	unsigned long t, got[16];
	bool reused = false, left = false;
	struct task_struct *r;
	unsigned int n = 0;

	if (num_online_cpus() < 2)
		kunit_skip(test, "one CPU");
	t = arch_marker_tramp_get(p, 2);
	KUNIT_ASSERT_NE(test, t, 0UL);
	memset(&tramp_reader, 0, sizeof(tramp_reader));
	r = mkt_thread_on(tramp_reader_fn, NULL, cpumask_last(cpu_online_mask),
			  "markers_tramp/%u");
	/* Asleep: this task may be on the reader's CPU. */
	if (!r || !mkt_sleep_until(tramp_reader_in, 10000)) {
		WRITE_ONCE(tramp_reader.stop, 1);
		if (r)
			kthread_stop(r);
		arch_marker_tramp_put(t);
		KUNIT_FAIL(test, "the reader did not start");
		return;
	}
	arch_marker_tramp_put(t);
	while (n < ARRAY_SIZE(got) && (got[n] = arch_marker_tramp_get(p, 2))) {
		if (got[n++] == t) {
			left = READ_ONCE(tramp_reader.left);
			reused = true;
			break;
		}
	}
	WRITE_ONCE(tramp_reader.stop, 1);
	kthread_stop(r);
	while (n--)
		arch_marker_tramp_put(got[n]);
	KUNIT_EXPECT_TRUE_MSG(test, reused, "never handed out again");
	KUNIT_EXPECT_TRUE_MSG(test, left,
			      "handed out while a CPU could still run it");
}

static struct kunit_case markers_x86_cases[] = {
	KUNIT_CASE(markers_x86_test_batch),
	KUNIT_CASE(markers_x86_test_chunks),
	KUNIT_CASE(markers_x86_test_preempt_count),
	KUNIT_CASE(markers_x86_test_hold_supported),
	KUNIT_CASE(markers_x86_test_text_may_hold),
#if defined(CONFIG_HAVE_RELIABLE_STACKTRACE) && defined(CONFIG_PREEMPTION)
	KUNIT_CASE(markers_x86_test_held_unwind),
#endif
#ifdef CONFIG_UNWINDER_ORC
	KUNIT_CASE(markers_x86_test_thunk_unwind),
#endif
	KUNIT_CASE(markers_x86_test_call_depth),
	KUNIT_CASE(markers_x86_test_tramp_probes),
	KUNIT_CASE_SLOW(markers_x86_test_tramp_reuse),
	{}
};

static struct kunit_suite markers_x86_suite = {
	.name = "markers_x86",
	.test_cases = markers_x86_cases,
};

kunit_test_suites(&markers_x86_suite);

MODULE_DESCRIPTION("KUnit tests for x86 marker site patching");
MODULE_LICENSE("GPL");
