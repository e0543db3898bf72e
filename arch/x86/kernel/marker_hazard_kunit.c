// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite markers_x86_hazards: the hazards of holding a task at a
 * site being patched, one case each, which a patcher that did not handle
 * it fails (the DOC comments of marker.c): the order of writes and
 * syncs, foreign int3s, refused sites, the held task's interrupt frame,
 * single-stepping, breakpoints, kprobes, spinlocks, a held task migrated,
 * preempted or kept off its CPU, a FIFO task on the patching CPU, a held
 * task raised to real time, and a spinlock and IPI chain (x86-64).
 */

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/hw_breakpoint.h>
#include <linux/random.h>
#include <linux/rtmutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "marker_kunit.h"

/* A site nobody passes or connects to; the tests only write it. */
static noinline void __used pass_quiet(void)
{
	MARK(markers_x86_quiet, "magic %lu", HOLD_MAGIC);
}

/*
 * Every write to the sites is followed by a sync before the patcher
 * leaves the chunk: the events are write, sync, write, sync, write, sync.
 */
static unsigned int step_log[16];
static unsigned int step_nr;

static void log_step(unsigned int step)
{
	if (step_nr < ARRAY_SIZE(step_log))
		step_log[step_nr] = step;
	step_nr++;
}

static void markers_x86_test_write_then_sync(struct kunit *test)
{
	static const unsigned int want[] = { 0, 1, 0, 2, 0, 3 };
	const struct marker_site *s = marker_test_site("markers_x86_quiet");
	bool armed;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	for (armed = true; ; armed = false) {
		step_nr = 0;
		WRITE_ONCE(marker_x86_test_step, log_step);
		KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, armed));
		WRITE_ONCE(marker_x86_test_step, NULL);
		KUNIT_EXPECT_EQ_MSG(test, step_nr, (unsigned int)ARRAY_SIZE(want),
				    "armed %d", armed);
		for (i = 0; i < ARRAY_SIZE(want) && i < step_nr; i++)
			KUNIT_EXPECT_EQ_MSG(test, step_log[i], want[i],
					    "event %d, armed %d", i, armed);
		if (!armed)
			break;
	}
}

/*
 * An int3 on a site that no chunk has is someone else's: the handler
 * leaves it to kprobes, and to die() if nobody takes it.
 */
static void markers_x86_test_foreign_int3(struct kunit *test)
{
	const struct marker_site *s = marker_test_site("markers_x86_quiet");
	struct pt_regs regs = { .cs = __KERNEL_CS };
	struct marker_hold_stats st0, st;
	unsigned long code;
	bool handled;
	u8 byte0;

	KUNIT_ASSERT_NOT_NULL(test, s);
	code = marker_site_code(s);
	byte0 = *(u8 *)code;
	marker_x86_hold_stats(&st0);
	mkt_poke_byte(s, INT3_INSN_OPCODE);
	regs.ip = code + INT3_INSN_SIZE;
	local_irq_disable();
	handled = marker_int3_handler(&regs);
	local_irq_enable();
	KUNIT_EXPECT_FALSE(test, handled);
	KUNIT_EXPECT_EQ(test, regs.ip, code + INT3_INSN_SIZE);
	mkt_poke_byte(s, byte0);
	marker_x86_hold_stats(&st);
	KUNIT_EXPECT_EQ(test, st.emulated, st0.emulated);
	KUNIT_EXPECT_EQ(test, st.holds, st0.holds);
	KUNIT_EXPECT_FALSE(test, arch_marker_site_armed(s));
}

/*
 * A refused site fails the registration that wanted it armed, and
 * leaves nothing connected: the other sites of the marker are disarmed
 * again and the probe is not registered.
 */
static void markers_x86_test_refused(struct kunit *test)
{
	const struct marker_site *v[BATCH_SITES];
	int n = mkt_sites_get("markers_x86_batch", v, ARRAY_SIZE(v));
	u8 byte0;
	int ret;

	KUNIT_ASSERT_EQ(test, n, BATCH_SITES);
	KUNIT_ASSERT_TRUE(test, mkt_sites_armed(v, n, false));
	byte0 = *(u8 *)marker_site_code(v[5]);
	/* A torn site: a jmp's first byte over a NOP's tail. */
	mkt_poke_byte(v[5], JMP32_INSN_OPCODE);
	ret = marker_probe_register("markers_x86_batch", "magic %lu",
				    mkt_probe_count, NULL);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, marker_get_private_data("markers_x86_batch",
							  mkt_probe_count, 0),
			    ERR_PTR(-ENOENT));
	mkt_poke_byte(v[5], byte0);
	KUNIT_EXPECT_TRUE(test, mkt_sites_armed(v, n, false));
	if (!ret)
		marker_probe_unregister("markers_x86_batch", mkt_probe_count, NULL);
	KUNIT_EXPECT_TRUE(test, mkt_sites_armed(v, n, false));
}

#ifdef CONFIG_HAVE_HW_BREAKPOINT
static atomic_t bp_hits;

static void count_bp(struct perf_event *bp, struct perf_sample_data *data,
		     struct pt_regs *regs)
{
	if (raw_smp_processor_id() == READ_ONCE(mkt_ht.cpu))
		atomic_inc(&bp_hits);
}

/*
 * A held task runs the site again when it is released, yet an execute
 * breakpoint on the site (perf's mem:ADDR:x) counts one pass once.
 */
static void markers_x86_test_breakpoint(struct kunit *test)
{
	struct perf_event * __percpu *bp;
	struct perf_event_attr attr;
	bool armed;

	for (armed = false; ; armed = true) {
		hw_breakpoint_init(&attr);
		attr.bp_addr = marker_site_code(marker_test_site("markers_x86_hold"));
		attr.bp_len = sizeof(long);
		attr.bp_type = HW_BREAKPOINT_X;
		bp = register_wide_hw_breakpoint(&attr, count_bp, NULL);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR((void __force *)bp),
				       "breakpoint: %ld",
				       PTR_ERR((void __force *)bp));
		atomic_set(&bp_hits, 0);
		mkt_hold_run(test, armed, NULL);
		unregister_wide_hw_breakpoint(bp);
		KUNIT_EXPECT_TRUE_MSG(test, mkt_ht.held[2], "armed %d", armed);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&bp_hits), 1,
				    "armed %d", armed);
		if (armed)
			break;
	}
}

/*
 * An execute breakpoint on the site armed while a task is held there
 * did not fire for this pass: it fires when the task runs the site.
 * The patcher holds the CPU hotplug lock that registering takes for
 * reading, so a work item on the passer's CPU registers it.
 */
static struct perf_event * __percpu *bp_late;
static int bp_late_done;

static void bp_late_register(struct work_struct *work)
{
	struct perf_event_attr attr;

	hw_breakpoint_init(&attr);
	attr.bp_addr = marker_site_code(marker_test_site("markers_x86_hold"));
	attr.bp_len = sizeof(long);
	attr.bp_type = HW_BREAKPOINT_X;
	bp_late = register_wide_hw_breakpoint(&attr, count_bp, NULL);
	/* The breakpoint before the flag. */
	smp_store_release(&bp_late_done, 1);
}

static DECLARE_WORK(bp_late_work, bp_late_register);

static bool bp_late_registered(void)
{
	/* The flag before the breakpoint. */
	return smp_load_acquire(&bp_late_done);
}

/* At step 2, a task held. */
static void bp_late_step2(void)
{
	queue_work_on(mkt_ht.cpu, system_wq, &bp_late_work);
	mkt_spin_until(bp_late_registered, 2000);
}

static void markers_x86_test_breakpoint_held(struct kunit *test)
{
	static const struct mkt_hold_opts bp = { .at_step2 = bp_late_step2 };
	bool armed;

	for (armed = false; ; armed = true) {
		bp_late = NULL;
		bp_late_done = 0;
		atomic_set(&bp_hits, 0);
		mkt_hold_run(test, armed, &bp);
		flush_work(&bp_late_work);
		KUNIT_ASSERT_TRUE(test, bp_late_registered());
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR((void __force *)bp_late),
				       "breakpoint: %ld",
				       PTR_ERR((void __force *)bp_late));
		unregister_wide_hw_breakpoint(bp_late);
		KUNIT_EXPECT_TRUE_MSG(test, mkt_ht.held[2], "armed %d", armed);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&bp_hits), 1,
				    "armed %d", armed);
		if (armed)
			break;
	}
}
#endif

#ifdef CONFIG_KPROBES
static unsigned long poke_watch;
static atomic_t pokes_seen;

static int count_text_poke(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long addr = regs_get_kernel_argument(regs, 0);

	if (addr - READ_ONCE(poke_watch) < MARKER_SITE_SIZE)
		atomic_inc(&pokes_seen);
	return 0;
}

/*
 * Arming and disarming under a kprobe on byte 0 write bytes 1-4 behind
 * its int3, and tell perf so (for Intel PT decoders), as every other
 * write to a site does.
 */
static void markers_x86_test_kprobe_text_poke(struct kunit *test)
{
	const struct marker_site *s = marker_test_site("markers_x86_quiet");
	struct kprobe *kp, *watch;

	KUNIT_ASSERT_NOT_NULL(test, s);
	kp = mkt_site_kprobe(test, s);
	watch = kunit_kzalloc(test, sizeof(*watch), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, watch);
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(kp));
	watch->symbol_name = "perf_event_text_poke";
	watch->pre_handler = count_text_poke;
	WRITE_ONCE(poke_watch, marker_site_code(s));
	atomic_set(&pokes_seen, 0);
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(watch));

	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, true));
	KUNIT_EXPECT_EQ(test, atomic_read(&pokes_seen), 1);
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, false));
	KUNIT_EXPECT_EQ(test, atomic_read(&pokes_seen), 2);

	unregister_kprobe(watch);
	unregister_kprobe(kp);
	KUNIT_EXPECT_EQ(test, 0, memcmp((void *)marker_site_code(s),
					x86_nops[5], MARKER_SITE_SIZE));
}

/*
 * A disabled kprobe has no int3 on the site: an int3 there is someone
 * else's, and the site is refused, its bytes and the kprobe's saved
 * opcode left as they were.
 */
static void markers_x86_test_kprobe_foreign(struct kunit *test)
{
	const struct marker_site *s = marker_test_site("markers_x86_quiet");
	struct kprobe *kp;
	u8 *code;

	KUNIT_ASSERT_NOT_NULL(test, s);
	code = (u8 *)marker_site_code(s);
	kp = mkt_site_kprobe(test, s);
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(kp));
	KUNIT_ASSERT_EQ(test, 0, disable_kprobe(kp));
	KUNIT_ASSERT_EQ(test, code[0], x86_nops[5][0]);
	mkt_poke_byte(s, INT3_INSN_OPCODE);

	KUNIT_EXPECT_EQ(test, -EINVAL, arch_marker_site_set(s, true));
	KUNIT_EXPECT_EQ(test, 0, memcmp(code + 1, x86_nops[5] + 1,
					MARKER_SITE_SIZE - 1));
	KUNIT_EXPECT_EQ(test, kp->opcode, x86_nops[5][0]);

	mkt_poke_byte(s, x86_nops[5][0]);
	unregister_kprobe(kp);
	KUNIT_EXPECT_EQ(test, 0, memcmp(code, x86_nops[5], MARKER_SITE_SIZE));
}
#endif

/*
 * A task sent to wait gets, in the gap below its stack, the number of
 * its chunk above an interrupt frame that returns to the site with its
 * own flags (RF clear: no breakpoint fired there) and its own stack; the
 * handler itself waits for nothing.
 */
static void markers_x86_test_held_frame(struct kunit *test)
{
	static const struct mkt_hold_opts fake = { .fake = true };
	unsigned long *frame, seq[2] = {};
	bool armed;

	for (armed = false; ; armed = true) {
		mkt_hold_run(test, armed, &fake);
		frame = (unsigned long *)mkt_ht.regs.sp;
		KUNIT_EXPECT_TRUE_MSG(test, mkt_ht.handled, "armed %d", armed);
		KUNIT_EXPECT_FALSE_MSG(test, mkt_ht.held[2], "armed %d", armed);
		KUNIT_EXPECT_EQ(test, mkt_ht.regs.ip,
				(unsigned long)marker_hold_thunk);
		KUNIT_EXPECT_PTR_EQ(test, frame, &mkt_ht.stack[2]);
		seq[armed] = frame[0];
		KUNIT_EXPECT_EQ(test, frame[1], marker_site_code(mkt_ht.site));
		KUNIT_EXPECT_EQ(test, frame[2], (unsigned long)__KERNEL_CS);
		KUNIT_EXPECT_EQ(test, frame[3], X86_EFLAGS_IF | X86_EFLAGS_FIXED);
		KUNIT_EXPECT_EQ(test, frame[4],
				(unsigned long)&mkt_ht.stack[ARRAY_SIZE(mkt_ht.stack)]);
		KUNIT_EXPECT_EQ(test, frame[5], (unsigned long)__KERNEL_DS);
		if (armed)
			break;
	}
	/* Each mkt_hold_run() is one chunk. */
	KUNIT_EXPECT_EQ(test, seq[1], seq[0] + 1);
}

/*
 * A trap with TF set (code being single-stepped) is emulated: a hold
 * would single-step the thunk and the C code it calls.
 */
static void markers_x86_test_held_tf(struct kunit *test)
{
	static const struct mkt_hold_opts fake_tf = {
		.fake = true, .fake_flags = X86_EFLAGS_TF,
	};
	unsigned long next;
	bool armed;

	for (armed = false; ; armed = true) {
		mkt_hold_run(test, armed, &fake_tf);
		next = armed ? marker_site_target(mkt_ht.site) :
			       marker_site_code(mkt_ht.site) + MARKER_SITE_SIZE;
		KUNIT_EXPECT_TRUE_MSG(test, mkt_ht.handled, "armed %d", armed);
		KUNIT_EXPECT_EQ_MSG(test, mkt_ht.regs.ip, next, "armed %d", armed);
		KUNIT_EXPECT_EQ_MSG(test, mkt_ht.regs.sp,
				    (unsigned long)&mkt_ht.stack[ARRAY_SIZE(mkt_ht.stack)],
				    "armed %d", armed);
		if (armed)
			break;
	}
}

/*
 * Markers inside sections that hold spinlocks, passed on one CPU while
 * another CPU arms and disarms them:
 *   irqsafe_timer: an irq-safe lock that an hrtimer on the patching CPU
 *		    takes every 20 us;
 *   irqsafe_ipi:   the same lock, the passer sending the patching CPU an
 *		    IPI whose handler takes it just before it passes;
 *   process:	    a lock only tasks take, which contenders on the other
 *		    CPUs take with interrupts off.
 * Every toggle ends.  No pass is held, but in a sleeping lock
 * (PREEMPT_RT's spinlock_t, the process lock there): its section is
 * preemptible, and its contenders sleep, interrupts on.
 */
enum lock_mode { LOCK_IRQSAFE_TIMER, LOCK_IRQSAFE_IPI, LOCK_PROCESS };

static const char * const lock_modes[] = {
	"irqsafe_timer", "irqsafe_ipi", "process",
};

#define LOCK_TOGGLES	200
#define LOCK_SECONDS	30

static DEFINE_RAW_SPINLOCK(lock_irqsafe);
static DEFINE_SPINLOCK(lock_process);

static struct lock_test {
	enum lock_mode mode;
	int patcher;
	int stop;
	atomic_long_t passes;
	atomic_long_t takes;
	call_single_data_t csd;
	struct hrtimer timer;
} lt;

static noinline void pass_lock(void)
{
	MARK(markers_x86_lock, "magic %lu", HOLD_MAGIC);
}

static void lock_ipi(void *info)
{
	raw_spin_lock(&lock_irqsafe);
	atomic_long_inc(&lt.takes);
	raw_spin_unlock(&lock_irqsafe);
}

static enum hrtimer_restart lock_tick(struct hrtimer *t)
{
	raw_spin_lock(&lock_irqsafe);
	atomic_long_inc(&lt.takes);
	raw_spin_unlock(&lock_irqsafe);
	if (READ_ONCE(lt.stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(20 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* The passer's round: the site inside the mode's lock. */
static void lock_pass(void)
{
	unsigned long flags;

	if (lt.mode == LOCK_PROCESS) {
		spin_lock(&lock_process);
		pass_lock();
		spin_unlock(&lock_process);
	} else {
		raw_spin_lock_irqsave(&lock_irqsafe, flags);
		if (lt.mode == LOCK_IRQSAFE_IPI)
			smp_call_function_single_async(lt.patcher, &lt.csd);
		pass_lock();
		raw_spin_unlock_irqrestore(&lock_irqsafe, flags);
	}
}

/* A contender's: the process-only lock with interrupts off, as it may. */
static void lock_contend(void)
{
	spin_lock_irq(&lock_process);
	atomic_long_inc(&lt.takes);
	spin_unlock_irq(&lock_process);
}

static const struct mkt_loop lock_passer = {
	.round = lock_pass, .stop = &lt.stop, .every = 16,
	.rounds = &lt.passes,
};

static const struct mkt_loop lock_contender = {
	.round = lock_contend, .stop = &lt.stop, .every = 16,
};

static void lock_timer_start(void *info)
{
	hrtimer_init(&lt.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	lt.timer.function = lock_tick;
	hrtimer_start(&lt.timer, ns_to_ktime(20 * NSEC_PER_USEC), HRTIMER_MODE_REL_PINNED_HARD);
}

static void lock_desc(const char * const *mode, char *desc)
{
	strscpy(desc, *mode, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(lock, lock_modes, lock_desc);

static void markers_x86_test_lock(struct kunit *test)
{
	const char * const *mode = test->param_value;
	struct task_struct *t[NR_CPUS] = {};
	const struct marker_site *s = marker_test_site("markers_x86_lock");
	unsigned long start = jiffies, end = start + LOCK_SECONDS * HZ;
	struct marker_hold_stats st0, st;
	int cpu, i, passer = -1;

	KUNIT_ASSERT_NOT_NULL(test, s);
	memset(&lt, 0, sizeof(lt));
	lt.mode = mode - lock_modes;
	INIT_CSD(&lt.csd, lock_ipi, NULL);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_x86_lock",
						       "magic %lu",
						       mkt_probe_count, NULL));
	migrate_disable();
	lt.patcher = raw_smp_processor_id();
	for_each_online_cpu(cpu) {
		if (cpu == lt.patcher)
			continue;
		if (passer < 0) {
			passer = cpu;
			t[cpu] = mkt_thread_on(mkt_loop_thread,
					       (void *)&lock_passer, cpu,
					       "markers_lock/%u");
		} else if (lt.mode == LOCK_PROCESS) {
			t[cpu] = mkt_thread_on(mkt_loop_thread,
					       (void *)&lock_contender, cpu,
					       "markers_lockc/%u");
		}
	}
	if (passer < 0) {
		migrate_enable();
		marker_probe_unregister("markers_x86_lock", mkt_probe_count, NULL);
		kunit_skip(test, "needs a second CPU");
	}
	if (lt.mode == LOCK_IRQSAFE_TIMER)
		lock_timer_start(NULL);

	marker_x86_hold_stats_reset_max();
	marker_x86_hold_stats(&st0);
	for (i = 0; i < LOCK_TOGGLES && time_before(jiffies, end); i++) {
		arch_marker_site_set(s, i & 1);
		cond_resched();
	}
	marker_x86_hold_stats(&st);

	WRITE_ONCE(lt.stop, 1);
	if (lt.mode == LOCK_IRQSAFE_TIMER)
		hrtimer_cancel(&lt.timer);
	migrate_enable();
	mkt_threads_stop(t, nr_cpu_ids);
	arch_marker_site_set(s, true);
	marker_probe_unregister("markers_x86_lock", mkt_probe_count, NULL);

	kunit_info(test, "%s: %d toggles in %u ms, %ld passes, %ld lock takes; %lu holds, %lu emulated; longest window %llu us, longest sync %llu us\n",
		   *mode, i, jiffies_to_msecs(jiffies - start),
		   atomic_long_read(&lt.passes), atomic_long_read(&lt.takes),
		   st.holds - st0.holds, st.emulated - st0.emulated,
		   st.max_window_ns / 1000, st.max_sync_ns / 1000);
	KUNIT_EXPECT_EQ(test, i, LOCK_TOGGLES);
	/* Every pass is inside a lock: emulated, unless the lock sleeps. */
	if (!IS_ENABLED(CONFIG_PREEMPT_RT) || lt.mode != LOCK_PROCESS)
		KUNIT_EXPECT_EQ(test, st.holds, st0.holds);
	/* The passers have exited: none is left holding. */
	KUNIT_EXPECT_EQ(test, mkt_holding(), 0);
	KUNIT_EXPECT_GT(test, atomic_long_read(&lt.passes), 0L);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mkt_probe_bad), 0);
}

/*
 * Held tasks.  A task held at a site waits with interrupts on: it may be
 * preempted and migrated meanwhile, and its site may be in a later chunk
 * by the time it runs again.  Wherever it runs then, it returns to the
 * site with every register as it was and runs what the last chunk left
 * there, for real: no emulation, no second trap.
 * (marker_kunit_util.c starts and stops the passer.)
 */

/* A FIFO task on @first, the passer's CPU, running @fn: the helper. */
static int held_hog_start(int (*fn)(void *data))
{
	mkt_hd.helper = mkt_thread_on(fn, NULL, mkt_hd.first, "markers_hog/%u");
	if (!mkt_hd.helper)
		return -ENOMEM;
	sched_set_fifo(mkt_hd.helper);
	return 0;
}

/* The helper waits until it may act (true) or is stopped (false). */
static bool held_wait_act(void)
{
	while (!READ_ONCE(mkt_hd.act) && !kthread_should_stop())
		schedule_timeout_interruptible(1);
	return READ_ONCE(mkt_hd.act);
}

/* On @second: move the passer there when told. */
static int held_mover(void *data)
{
	if (held_wait_act() &&
	    !set_cpus_allowed_ptr(mkt_hd.passer, cpumask_of(mkt_hd.second)))
		WRITE_ONCE(mkt_hd.acted, 1);
	return mkt_park();
}

static bool held_moved(void)
{
	return READ_ONCE(mkt_hd.acted) &&
	       task_cpu(mkt_hd.passer) == mkt_hd.second &&
	       task_curr(mkt_hd.passer) && mkt_holding() == 1;
}

/*
 * How long a step waits for what its helper does to the held task: a
 * migration needs the stopper thread and the helper to run on a guest
 * CPU that a loaded host may leave unscheduled for seconds.
 */
#define HELD_ACT_MS	10000

/*
 * At step 1: let the passer meet the site, wait until it is held, set
 * the helper on it, and record whether @acted came true meanwhile.
 */
static void held_act(unsigned int step, bool (*acted)(void))
{
	if (step != 1)
		return;
	WRITE_ONCE(mkt_hd.go, 1);
	if (!mkt_spin_until(mkt_one_held, HELD_ACT_MS))
		return;
	WRITE_ONCE(mkt_hd.act, 1);
	if (mkt_hd.helper)
		wake_up_process(mkt_hd.helper);
	mkt_hd.ok_step = mkt_spin_until(acted, HELD_ACT_MS);
}

/* The passer is held, then moved: running on @second, still held. */
static void held_move_step(unsigned int step)
{
	held_act(step, held_moved);
}

/*
 * A held task is preempted and migrated before its site is released; it
 * resumes on the other CPU, on the new instruction.
 */
static void markers_x86_test_held_migrate(struct kunit *test)
{
	struct marker_hold_stats st0, st;
	const struct marker_site *s;

	if (mkt_held_start(test, &s))
		return;
	mkt_hd.helper = mkt_thread_on(held_mover, NULL, mkt_hd.second,
				      "markers_mover/%u");
	marker_x86_hold_stats(&st0);
	WRITE_ONCE(marker_x86_test_step, held_move_step);
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, true));
	mkt_held_stop(test);
	marker_x86_hold_stats(&st);

	KUNIT_EXPECT_TRUE_MSG(test, mkt_hd.ok_step,
			      "not migrated while held (on CPU %d, held %d)",
			      task_cpu(mkt_hd.passer), mkt_holding());
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_hd.probe_calls), 1);
	KUNIT_EXPECT_EQ(test, mkt_hd.probe_cpu, mkt_hd.second);
	KUNIT_EXPECT_EQ(test, st.holds - st0.holds, 1UL);
	KUNIT_EXPECT_EQ(test, st.emulated - st0.emulated, 0UL);
	KUNIT_EXPECT_EQ(test, st.late - st0.late, 0UL);
}

/* On @first, FIFO: spin, keeping the held passer off its CPU. */
static int held_hog(void *data)
{
	if (held_wait_act()) {
		WRITE_ONCE(mkt_hd.acted, 1);
		while (!READ_ONCE(mkt_hd.hog_stop))
			cpu_relax();
		WRITE_ONCE(mkt_hd.acted, 2);
	}
	return mkt_park();
}

static bool held_hogged(void)
{
	return READ_ONCE(mkt_hd.acted) == 1 &&
	       !task_curr(mkt_hd.passer) && mkt_holding() == 1;
}

static bool held_back(void)
{
	return READ_ONCE(mkt_hd.acted) == 2 &&
	       task_curr(mkt_hd.passer);
}

/* Chunk 1, step 1: the passer is held, then preempted by the hog. */
static void held_hog_step(unsigned int step)
{
	held_act(step, held_hogged);
}

/*
 * Chunk 2, step 1: the hog goes; the passer runs, returns to the site
 * and is held again, by this chunk.
 */
static void held_rearm_step(unsigned int step)
{
	if (step != 1)
		return;
	WRITE_ONCE(mkt_hd.hog_stop, 1);
	if (mkt_spin_until(held_back, 2000)) {
		mdelay(20);
		mkt_hd.ok_rearm = mkt_holding() == 1 && !mkt_held_passed();
	}
}

/*
 * A held task kept off its CPU until its site is in a later chunk ends
 * its hold when it runs (its own chunk is released), meets the later
 * chunk's int3 and is held again, and runs what that chunk leaves:
 * armed, then disarmed before the task ran again, the site calls no
 * probe for this pass.
 */
static void markers_x86_test_held_rearm(struct kunit *test)
{
	struct marker_hold_stats st0, st;
	const struct marker_site *s;
	bool early;

	if (mkt_held_start(test, &s))
		return;
	held_hog_start(held_hog);
	marker_x86_hold_stats(&st0);
	WRITE_ONCE(marker_x86_test_step, held_hog_step);
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, true));
	early = mkt_held_passed();
	WRITE_ONCE(marker_x86_test_step, held_rearm_step);
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, false));
	/* In case chunk 1 did not get that far. */
	WRITE_ONCE(mkt_hd.hog_stop, 1);
	mkt_held_stop(test);
	marker_x86_hold_stats(&st);

	KUNIT_EXPECT_TRUE_MSG(test, mkt_hd.ok_step,
			      "not preempted while held (held %d)", mkt_holding());
	KUNIT_EXPECT_FALSE(test, early);
	KUNIT_EXPECT_TRUE(test, mkt_hd.ok_rearm);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_hd.probe_calls), 0);
	KUNIT_EXPECT_EQ(test, st.holds - st0.holds, 2UL);
	KUNIT_EXPECT_EQ(test, st.emulated - st0.emulated, 0UL);
	KUNIT_EXPECT_EQ(test, st.late - st0.late, 0UL);
}

/*
 * Wake the FIFO passer on this CPU, in the middle of the window, and give
 * it the CPU until it has passed (up to 2 s): it meets the int3.
 */
static void held_wake_step(unsigned int step)
{
	int i;

	if (step != 1)
		return;
	WRITE_ONCE(mkt_hd.go, 1);
	wake_up_process(mkt_hd.passer);
	for (i = 0; i < 100 && !mkt_held_passed(); i++)
		msleep(20);
	mkt_hd.ok_step = mkt_held_passed();
}

static int held_fifo_passer(void *data)
{
	while (!READ_ONCE(mkt_hd.go) && !kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!READ_ONCE(mkt_hd.go))
			schedule_timeout(HZ);
		__set_current_state(TASK_RUNNING);
	}
	return mkt_held_passer(data);
}

/*
 * The patcher may be preempted, and a FIFO task that preempts it would,
 * if held, spin ahead of the only task that can release it.  So such a
 * task is never held: woken on the patching CPU in the middle of the
 * window, it runs the new instruction emulated, and the patch ends.
 */
static void markers_x86_test_held_patcher_cpu(struct kunit *test)
{
	struct marker_hold_stats st0, st;
	const struct marker_site *s;
	u64 t0, t;
	int i;

	memset(&mkt_hd, 0, sizeof(mkt_hd));
	mkt_hd.seed = get_random_u32();
	s = marker_test_site("markers_x86_held");
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_x86_held",
						       "magic %lu",
						       mkt_probe_held, NULL));
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, false));
	migrate_disable();
	mkt_hd.patcher = raw_smp_processor_id();
	mkt_hd.passer = kthread_create_on_cpu(held_fifo_passer, NULL,
					      mkt_hd.patcher, "markers_fifo/%u");
	if (IS_ERR(mkt_hd.passer)) {
		migrate_enable();
		marker_probe_unregister("markers_x86_held", mkt_probe_held, NULL);
		KUNIT_FAIL(test, "no passer");
		return;
	}
	sched_set_fifo(mkt_hd.passer);
	marker_x86_hold_stats(&st0);
	WRITE_ONCE(marker_x86_test_step, held_wake_step);
	t0 = ktime_get_ns();
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, true));
	t = ktime_get_ns() - t0;
	WRITE_ONCE(marker_x86_test_step, NULL);
	for (i = 0; i < 250 && !mkt_held_passed(); i++)
		msleep(20);
	marker_x86_hold_stats(&st);
	migrate_enable();
	kthread_stop(mkt_hd.passer);
	marker_probe_unregister("markers_x86_held", mkt_probe_held, NULL);

	KUNIT_EXPECT_TRUE(test, mkt_hd.ok_step);
	KUNIT_EXPECT_LT_MSG(test, t, 100 * NSEC_PER_MSEC,
			    "arming took %llu ms", t / NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_hd.probe_calls), 1);
	KUNIT_EXPECT_EQ(test, mkt_hd.probe_cpu, mkt_hd.patcher);
	KUNIT_EXPECT_EQ(test, st.holds - st0.holds, 0UL);
	KUNIT_EXPECT_EQ(test, st.emulated - st0.emulated, 1UL);
	KUNIT_EXPECT_EQ(test, mkt_hd.result, mkt_pass_held(mkt_hd.seed, false));
}

/*
 * A site toggled without pause, its held task kept off its CPU whenever
 * a chunk releases it: each hold ends once the task runs after its own
 * chunk's release, whatever later chunks do.  The passer, back at the
 * site while the next chunk has it, is held again: one hold per chunk.
 */
#define BOUND_CHUNKS	8

static int held_bound_hog(void *data)
{
	while (!kthread_should_stop()) {
		if (!READ_ONCE(mkt_hd.act)) {
			schedule_timeout_interruptible(1);
			continue;
		}
		WRITE_ONCE(mkt_hd.acted, 1);
		while (READ_ONCE(mkt_hd.act))
			cpu_relax();
		WRITE_ONCE(mkt_hd.acted, 0);
	}
	return 0;
}

static bool held_holds_reached(void)
{
	struct marker_hold_stats st;

	marker_x86_hold_stats(&st);
	return st.holds >= mkt_hd.want_holds;
}

/*
 * Step 1 of each chunk: the hog lets the passer run, while this chunk
 * has the site; step 2: the hog takes its CPU until the next chunk.
 */
static void held_bound_step(unsigned int step)
{
	if (step == 1) {
		WRITE_ONCE(mkt_hd.go, 1);
		WRITE_ONCE(mkt_hd.act, 0);
		mkt_hd.want_holds++;
		if (mkt_spin_until(held_holds_reached, 500))
			mkt_hd.chunks_held++;
	} else if (step == 2) {
		WRITE_ONCE(mkt_hd.act, 1);
		wake_up_process(mkt_hd.helper);
		if (!mkt_spin_until(held_hogged, 2000))
			mkt_hd.hog_missed++;
	}
}

static void markers_x86_test_held_bound(struct kunit *test)
{
	struct marker_hold_stats st0, st;
	const struct marker_site *s;
	int i;

	if (mkt_held_start(test, &s))
		return;
	if (held_hog_start(held_bound_hog)) {
		WRITE_ONCE(mkt_hd.go, 1);
		mkt_held_stop(test);
		KUNIT_FAIL(test, "no hog");
		return;
	}
	marker_x86_hold_stats_reset_max();
	marker_x86_hold_stats(&st0);
	mkt_hd.want_holds = st0.holds;
	WRITE_ONCE(marker_x86_test_step, held_bound_step);
	for (i = 0; i < BOUND_CHUNKS; i++)
		KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, !(i & 1)));
	WRITE_ONCE(marker_x86_test_step, NULL);
	WRITE_ONCE(mkt_hd.act, 0);
	mkt_held_stop(test);
	marker_x86_hold_stats(&st);

	kunit_info(test, "%d chunks: %lu holds, %d chunks that held the passer anew, longest hold %llu us\n",
		   BOUND_CHUNKS, st.holds - st0.holds, mkt_hd.chunks_held,
		   st.max_hold_us);
	KUNIT_EXPECT_EQ(test, mkt_hd.hog_missed, 0);
	KUNIT_EXPECT_EQ(test, mkt_hd.chunks_held, BOUND_CHUNKS);
	KUNIT_EXPECT_EQ(test, st.holds - st0.holds, (unsigned long)BOUND_CHUNKS);
	KUNIT_EXPECT_EQ(test, mkt_holding(), 0);
}

/*
 * A held task that becomes real-time while it waits: raised by
 * sched_setscheduler(), or by priority inheritance when a FIFO task
 * blocks on an rt_mutex it holds.  The patcher here is a FIFO task of the
 * lowest priority on the held task's CPU, as a fair patcher is where the
 * fair server has no runtime: a task raised above it that went on
 * waiting would spin ahead of the only task that can release it, for
 * good.  It must leave the hold at once, run the new instruction
 * emulated, and let the patch end.  After RAISED_MS a watchdog on another
 * CPU undoes the raise, so that a patcher that would hang fails the case
 * instead.
 */
#define RAISED_MS	5000

enum raised_how { RAISED_SETSCHED, RAISED_PI };

static const char * const raised_names[] = {
	[RAISED_SETSCHED] = "sched_setscheduler",
	[RAISED_PI] = "priority inheritance",
};

static DEFINE_RT_MUTEX(raised_lock);

static struct raised_test {
	enum raised_how how;
	struct task_struct *passer;
	struct task_struct *waiter;	/* blocks on raised_lock (PI) */
	struct task_struct *watchdog;
	int go;
	int passed;
	int patched;
	int rescued;
	u64 seed;
	u64 result;
} rt;

static int raised_passer(void *data)
{
	while (!READ_ONCE(rt.go) && !kthread_should_stop())
		schedule_timeout_interruptible(1);
	if (rt.how == RAISED_PI)
		rt_mutex_lock(&raised_lock);
	rt.result = mkt_pass_held(rt.seed, true);
	if (rt.how == RAISED_PI)
		rt_mutex_unlock(&raised_lock);
	/* The result before the flag. */
	smp_store_release(&rt.passed, 1);
	return mkt_park();
}

/* FIFO, on another CPU: block on the passer's lock, boosting it. */
static int raised_waiter(void *data)
{
	while (!READ_ONCE(rt.go) && !kthread_should_stop())
		schedule_timeout_interruptible(1);
	if (!kthread_should_stop()) {
		rt_mutex_lock(&raised_lock);
		rt_mutex_unlock(&raised_lock);
	}
	return mkt_park();
}

static bool raised_passed(void)
{
	/* The flag before the result. */
	return smp_load_acquire(&rt.passed);
}

static bool raised_passed_or_rescued(void)
{
	return raised_passed() || READ_ONCE(rt.rescued);
}

static bool raised_patched(void)
{
	return READ_ONCE(rt.patched);
}

/* Undo the raise if the patch has not ended within RAISED_MS. */
static int raised_watchdog(void *data)
{
	if (!mkt_sleep_until(raised_patched, RAISED_MS)) {
		WRITE_ONCE(rt.rescued, 1);
		sched_set_normal(rt.how == RAISED_PI ? rt.waiter : rt.passer, 0);
	}
	return mkt_park();
}

/* Step 1: let the passer be held, then raise it and let it run. */
static void raised_step(unsigned int step)
{
	if (step != 1)
		return;
	WRITE_ONCE(rt.go, 1);
	wake_up_process(rt.passer);
	if (!mkt_sleep_until(mkt_one_held, 2000))
		return;
	if (rt.how == RAISED_PI)
		wake_up_process(rt.waiter);
	else
		sched_set_fifo(rt.passer);
	mkt_sleep_until(raised_passed_or_rescued, 2 * RAISED_MS);
}

static void raised_gen_desc(const enum raised_how *how, char *desc)
{
	strscpy(desc, raised_names[*how], KUNIT_PARAM_DESC_SIZE);
}

static const enum raised_how raised_params[] = { RAISED_SETSCHED, RAISED_PI };

KUNIT_ARRAY_PARAM(raised, raised_params, raised_gen_desc);

static void markers_x86_test_held_raised(struct kunit *test)
{
	struct marker_hold_stats st0, st;
	const struct marker_site *s;
	int cpu, other;
	bool rescued;

	if (!marker_hold_supported(&boot_cpu_data))
		kunit_skip(test, "no task is held in this kernel");
	memset(&rt, 0, sizeof(rt));
	rt.how = *(const enum raised_how *)test->param_value;
	rt.seed = get_random_u32();
	atomic_set(&mkt_hd.probe_calls, 0);
	s = marker_test_site("markers_x86_held");
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_x86_held",
						       "magic %lu",
						       mkt_probe_held, NULL));
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, false));
	migrate_disable();
	cpu = raw_smp_processor_id();
	other = cpumask_next_wrap(cpu, cpu_online_mask, cpu, false);
	rt.passer = kthread_create_on_cpu(raised_passer, NULL, cpu,
					  "markers_raised/%u");
	if (rt.how == RAISED_PI && other < nr_cpu_ids)
		rt.waiter = kthread_create_on_cpu(raised_waiter, NULL, other,
						  "markers_waiter/%u");
	if (other < nr_cpu_ids)
		rt.watchdog = mkt_thread_on(raised_watchdog, NULL, other,
					    "markers_watchdog/%u");
	if (IS_ERR(rt.passer) || IS_ERR(rt.waiter) || !rt.watchdog) {
		migrate_enable();
		KUNIT_FAIL(test, "no threads (needs 2 CPUs)");
		goto stop;
	}
	if (rt.waiter)
		sched_set_fifo(rt.waiter);
	sched_set_fifo_low(current);
	marker_x86_hold_stats(&st0);
	WRITE_ONCE(marker_x86_test_step, raised_step);
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, true));
	WRITE_ONCE(marker_x86_test_step, NULL);
	WRITE_ONCE(rt.patched, 1);
	marker_x86_hold_stats(&st);
	sched_set_normal(current, 0);
	migrate_enable();
	KUNIT_EXPECT_TRUE(test, mkt_sleep_until(raised_passed, RAISED_MS));

	rescued = READ_ONCE(rt.rescued);
	KUNIT_EXPECT_FALSE_MSG(test, rescued,
			       "the raised task kept the patcher off its CPU for %d ms",
			       RAISED_MS);
	KUNIT_EXPECT_EQ(test, st.holds - st0.holds, 1UL);
	KUNIT_EXPECT_EQ(test, st.abandoned - st0.abandoned, 1UL);
	KUNIT_EXPECT_EQ(test, st.emulated - st0.emulated, 1UL);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_hd.probe_calls), 1);
	KUNIT_EXPECT_EQ(test, rt.result, mkt_pass_held(rt.seed, false));
	KUNIT_EXPECT_EQ(test, mkt_holding(), 0);
stop:
	WRITE_ONCE(rt.go, 1);
	WRITE_ONCE(rt.patched, 1);
	if (!IS_ERR_OR_NULL(rt.waiter))
		kthread_stop(rt.waiter);
	if (rt.watchdog)
		kthread_stop(rt.watchdog);
	if (!IS_ERR(rt.passer))
		kthread_stop(rt.passer);
	marker_probe_unregister("markers_x86_held", mkt_probe_held, NULL);
}

/*
 * A chain that would stall every sync if a task were held with
 * interrupts off: CPU B takes spinlock L with interrupts on and sends
 * CPU A a synchronous IPI; CPU C takes L with interrupts off; a task on
 * CPU A passes a site in a preemptible loop; this CPU connects and
 * disconnects a probe.  A held task has interrupts on: it answers B's
 * IPI, B lets L go, C gets it, and C answers the patcher's sync.  Held
 * with interrupts off, A would answer neither, and every toggle would
 * wait for the sync's patience to run out (about 500 ms).
 *
 * A toggle's three syncs and a disconnect's grace period wait for every
 * CPU, so the slowest of 80 toggles follows the load of the machine:
 * 92 to 204 ms with KASAN and lockdep, and 247 ms in a kernel without
 * them that shared its host, all with no sync waiting for a hold.  So
 * the worst toggle is held under that stall (500 ms), and the mean
 * toggle and the longest sync to 100 ms, in every kernel.
 */
#define CHAIN_TOGGLES	40
#define CHAIN_MS	100
#define CHAIN_WORST_MS	500

static DEFINE_SPINLOCK(chain_lock);

static struct chain_test {
	int stop;
	int a;
	atomic_long_t passes;
	atomic_long_t ipis;
	atomic_long_t takes;
} ct;

static noinline void pass_chain(void)
{
	MARK(markers_x86_chain, "magic %lu", HOLD_MAGIC);
}

static void chain_ipi(void *info)
{
	atomic_long_inc(&ct.ipis);
}

/* B: L taken with interrupts on, and a synchronous IPI to A. */
static void chain_send(void)
{
	spin_lock(&chain_lock);
	smp_call_function_single(ct.a, chain_ipi, NULL, 1);
	spin_unlock(&chain_lock);
}

/* C: L taken with interrupts off. */
static void chain_take_irqoff(void)
{
	spin_lock_irq(&chain_lock);
	atomic_long_inc(&ct.takes);
	spin_unlock_irq(&chain_lock);
}

/* A's passer, B and C, on three CPUs after this one. */
static const struct mkt_loop chain_loops[] = {
	{ .round = pass_chain, .stop = &ct.stop, .every = 256,
	  .rounds = &ct.passes },
	{ .round = chain_send, .stop = &ct.stop, .every = 16 },
	{ .round = chain_take_irqoff, .stop = &ct.stop, .every = 16 },
};

static void markers_x86_test_chain(struct kunit *test)
{
	struct task_struct *t[ARRAY_SIZE(chain_loops)] = {};
	struct marker_hold_stats st0, st;
	u64 t0, dt, worst = 0, total = 0, worst_of[2] = {};
	int cpu, i, n = 0, toggles;

	if (num_online_cpus() < 4)
		kunit_skip(test, "needs 4 CPUs");
	memset(&ct, 0, sizeof(ct));
	migrate_disable();
	cpu = raw_smp_processor_id();
	for (i = 0; i < ARRAY_SIZE(chain_loops); i++) {
		cpu = cpumask_next_wrap(cpu, cpu_online_mask,
					raw_smp_processor_id(), false);
		if (!i)
			ct.a = cpu;
		t[i] = mkt_thread_on(mkt_loop_thread, (void *)&chain_loops[i],
				     cpu, "markers_chain/%u");
		n += !!t[i];
	}

	marker_x86_hold_stats_reset_max();
	marker_x86_hold_stats(&st0);
	for (i = 0; i < 2 * CHAIN_TOGGLES && n == ARRAY_SIZE(chain_loops); i++) {
		t0 = ktime_get_ns();
		if (i & 1)
			marker_probe_unregister("markers_x86_chain",
						mkt_probe_count, NULL);
		else
			KUNIT_EXPECT_EQ(test, 0,
					marker_probe_register("markers_x86_chain",
							      "magic %lu",
							      mkt_probe_count,
							      NULL));
		dt = ktime_get_ns() - t0;
		worst = max(worst, dt);
		worst_of[i & 1] = max(worst_of[i & 1], dt);
		total += dt;
	}
	toggles = i;
	marker_x86_hold_stats(&st);
	WRITE_ONCE(ct.stop, 1);
	migrate_enable();
	mkt_threads_stop(t, ARRAY_SIZE(t));

	kunit_info(test, "%d connects and disconnects in %llu ms, the worst %llu ms (connect %llu, disconnect %llu); %ld passes, %ld IPIs, %ld irq-off lock takes; %lu holds, %lu emulated, %lu syncs; longest hold %llu us, longest sync %llu us, longest text_poke %llu us\n",
		   toggles, total / NSEC_PER_MSEC, worst / NSEC_PER_MSEC,
		   worst_of[0] / NSEC_PER_MSEC, worst_of[1] / NSEC_PER_MSEC,
		   atomic_long_read(&ct.passes), atomic_long_read(&ct.ipis),
		   atomic_long_read(&ct.takes), st.holds - st0.holds,
		   st.emulated - st0.emulated, st.syncs - st0.syncs,
		   st.max_hold_ns / 1000, st.max_sync_ns / 1000,
		   st.max_poke_ns / 1000);
	KUNIT_EXPECT_EQ(test, n, (int)ARRAY_SIZE(chain_loops));
	KUNIT_EXPECT_EQ(test, toggles, 2 * CHAIN_TOGGLES);
	KUNIT_EXPECT_LT_MSG(test, total / max(toggles, 1),
			    CHAIN_MS * NSEC_PER_MSEC, "a toggle took %llu ms",
			    total / max(toggles, 1) / NSEC_PER_MSEC);
	KUNIT_EXPECT_LT(test, st.max_sync_ns, CHAIN_MS * NSEC_PER_MSEC);
	KUNIT_EXPECT_LT_MSG(test, worst, CHAIN_WORST_MS * NSEC_PER_MSEC,
			    "the worst toggle took %llu ms",
			    worst / NSEC_PER_MSEC);
	KUNIT_EXPECT_GT(test, st.holds - st0.holds, 0UL);
	KUNIT_EXPECT_GT(test, atomic_long_read(&ct.ipis), 0L);
	/* The passers have exited: none is left holding. */
	KUNIT_EXPECT_EQ(test, mkt_holding(), 0);
}

static struct kunit_case markers_x86_hazard_cases[] = {
	KUNIT_CASE(markers_x86_test_write_then_sync),
	KUNIT_CASE(markers_x86_test_foreign_int3),
	KUNIT_CASE(markers_x86_test_refused),
	KUNIT_CASE(markers_x86_test_held_frame),
	KUNIT_CASE(markers_x86_test_held_tf),
#ifdef CONFIG_HAVE_HW_BREAKPOINT
	KUNIT_CASE(markers_x86_test_breakpoint),
	KUNIT_CASE(markers_x86_test_breakpoint_held),
#endif
#ifdef CONFIG_KPROBES
	KUNIT_CASE(markers_x86_test_kprobe_text_poke),
	KUNIT_CASE(markers_x86_test_kprobe_foreign),
#endif
	KUNIT_CASE_PARAM(markers_x86_test_lock, lock_gen_params),
	KUNIT_CASE(markers_x86_test_held_migrate),
	KUNIT_CASE(markers_x86_test_held_rearm),
	KUNIT_CASE(markers_x86_test_held_patcher_cpu),
	KUNIT_CASE(markers_x86_test_held_bound),
	KUNIT_CASE_PARAM(markers_x86_test_held_raised, raised_gen_params),
	KUNIT_CASE(markers_x86_test_chain),
	{}
};

static struct kunit_suite markers_x86_hazard_suite = {
	.name = "markers_x86_hazards",
	.init = mkt_hold_init,
	.exit = mkt_hold_exit,
	.test_cases = markers_x86_hazard_cases,
};

kunit_test_suites(&markers_x86_hazard_suite);

MODULE_DESCRIPTION("KUnit tests for the hazards of holding tasks at x86 marker sites");
MODULE_LICENSE("GPL");
