// SPDX-License-Identifier: GPL-2.0
/*
 * Torture test of x86-64 marker site patching: a thread on every CPU, an
 * hrtimer on every CPU and NMIs pass the sites of one marker in loops,
 * two of them inside spinlocks, while a patcher thread arms and disarms
 * them; every pass must be accounted for, every toggle must take its
 * three syncs, and no task may be left holding.  With two to four probes
 * (nprobes), the sites call them through a trampoline; each must get
 * every hit, with its own probe_private and the site's argument.
 *
 * It runs at boot when marker_torture.run_at_boot=1 is given, and the
 * boot goes on once it has ended: nothing else may patch marker sites
 * meanwhile, as it counts the syncs.  It ends with
 * "marker-torture:--- End of test: SUCCESS" (or FAILURE).
 */

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/marker.h>
#include <linux/marker_test.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/nmi.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/torture.h>
#include <asm/apic.h>

MODULE_DESCRIPTION("Torture test of x86 marker site patching");
MODULE_LICENSE("GPL");

/* The sites of markers_x86_stress below. */
#define TORTURE_SITES	4

torture_param(int, nsites, TORTURE_SITES,
	      "Sites the patcher arms and disarms (1-4); the others stay armed");
torture_param(int, nprobes, 2,
	      "Probes connected to the marker (1-4; 2-4 through a trampoline)");
torture_param(int, toggles, 10000,
	      "Times the patcher arms or disarms them (0: until duration)");
torture_param(int, nthreads, -1,
	      "Passer threads (-1: one per online CPU)");
torture_param(int, duration, 0,
	      "Seconds the patcher toggles at most (0: until toggles)");
torture_param(int, stat_interval, 60,
	      "Seconds between statistics (0: at the end only)");
torture_param(int, verbose, 0, "Log the threads' starts and stops");
torture_param(bool, run_at_boot, false,
	      "Built in: run at boot, before the KUnit suites and user space");

static char *torture_type = "marker";

/* A line of this test's log, prefixed as torture.h's TOROUT_STRING(). */
#define MT_OUT(fmt, ...) \
	pr_alert("%s" TORTURE_FLAG " " fmt, torture_type, ##__VA_ARGS__)

#define TORTURE_MAGIC	0x5eedUL
#define TORTURE_PROBES	4
#define MARK_STRESS()	MARK(markers_x86_stress, "magic %lu", TORTURE_MAGIC)

/*
 * Four sites of one marker, one chunk: two bare, one inside an irq-safe
 * lock that the hrtimers also take, one inside a lock that only tasks
 * take, some of them with interrupts off.
 */
static DEFINE_RAW_SPINLOCK(torture_irqsafe);
static DEFINE_SPINLOCK(torture_process);

static noinline void pass_bare(void)
{
	MARK_STRESS();
	MARK_STRESS();
}

static noinline void pass_irqsafe(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&torture_irqsafe, flags);
	MARK_STRESS();
	raw_spin_unlock_irqrestore(&torture_irqsafe, flags);
}

static noinline void pass_process(void)
{
	spin_lock(&torture_process);
	MARK_STRESS();
	spin_unlock(&torture_process);
}

struct torture_passer {
	struct task_struct *task;
	int cpu;
	long passes;		/* rounds of the four sites */
};

static struct {
	const struct marker_site *sites[TORTURE_SITES];
	struct torture_passer *passers;
	int npassers;
	struct task_struct *patcher;
	struct task_struct *stats;
	struct completion end;		/* the result is out */
	bool nmi_registered;
	int probes_registered;
	cpumask_t timer_cpus;		/* CPUs whose hrtimer started */
	int done;			/* the patcher has stopped toggling */
	atomic_t passing;		/* passers still in their loops */
	atomic_long_t hits[TORTURE_PROBES];
	atomic_long_t bad;
	atomic_long_t timer_passes;
	atomic_long_t nmi_passes;
	atomic_long_t nmi_sent;
	int toggled;
	int refused;
	unsigned long start;		/* jiffies */
	struct marker_hold_stats st0, st;
} tt;

static DEFINE_PER_CPU(struct hrtimer, torture_timer);
static DEFINE_PER_CPU(atomic_t, torture_nmi_pending);

static bool torture_stopping(void)
{
	return READ_ONCE(tt.done) || torture_must_stop();
}

/* Each probe's probe_private is its counter of hits. */
static void probe_count(void *probe_private, void *call_private,
			const char *fmt, va_list *args)
{
	atomic_long_t *hits = probe_private;

	if (va_arg(*args, unsigned long) != TORTURE_MAGIC ||
	    hits < tt.hits || hits >= tt.hits + TORTURE_PROBES)
		atomic_long_inc(&tt.bad);
	else
		atomic_long_inc(hits);
}

/* Connect the first @n probes; returns 0 or the first error. */
static int torture_probes_connect(int n)
{
	int ret;

	for (; tt.probes_registered < n; tt.probes_registered++) {
		ret = marker_probe_register("markers_x86_stress", "magic %lu",
					    probe_count,
					    &tt.hits[tt.probes_registered]);
		if (ret)
			return ret;
	}
	return 0;
}

static void torture_probes_disconnect(void)
{
	while (tt.probes_registered)
		marker_probe_unregister("markers_x86_stress", probe_count,
					&tt.hits[--tt.probes_registered]);
}

/* The sites of markers_x86_stress, in vmlinux. */
static int torture_sites_get(void)
{
	const struct marker_site *s;
	int n = 0;

	for (s = __start___marker_sites; s < __stop___marker_sites; s++)
		if (!strcmp(marker_site_marker(s)->name, "markers_x86_stress") &&
		    n < TORTURE_SITES)
			tt.sites[n++] = s;
	return n;
}

/*
 * On its CPU, niced, so that the patcher gets its CPU when it needs it:
 * the four sites in a loop, and every 8 rounds the task-only lock with
 * interrupts off.
 */
static int marker_torture_passer(void *arg)
{
	struct torture_passer *p = arg;
	long n = 0;

	VERBOSE_TOROUT_STRING("passer started");
	set_cpus_allowed_ptr(current, cpumask_of(p->cpu));
	set_user_nice(current, MAX_NICE);
	while (!torture_stopping()) {
		pass_bare();
		pass_irqsafe();
		pass_process();
		if (!(++n & 7)) {
			spin_lock_irq(&torture_process);
			spin_unlock_irq(&torture_process);
		}
		if (!(n & 63)) {
			WRITE_ONCE(p->passes, n);
			cond_resched_tasks_rcu_qs();
		}
	}
	WRITE_ONCE(p->passes, n);
	atomic_dec(&tt.passing);
	torture_kthread_stopping("marker_torture_passer");
	return 0;
}

/*
 * Every 2 ms: pass three of the sites, one inside the irq-safe lock, and
 * every 10 ms send the next CPU an NMI.
 */
static enum hrtimer_restart torture_tick(struct hrtimer *t)
{
	int cpu = smp_processor_id();
	int next = cpumask_next_wrap(cpu, cpu_online_mask, cpu, false);
	atomic_t *pending;

	pass_bare();
	pass_irqsafe();
	if (!(atomic_long_inc_return(&tt.timer_passes) % 5) &&
	    next < nr_cpu_ids && next != cpu) {
		pending = per_cpu_ptr(&torture_nmi_pending, next);
		if (!atomic_cmpxchg(pending, 0, 1)) {
			atomic_long_inc(&tt.nmi_sent);
			apic->send_IPI(next, NMI_VECTOR);
		}
	}
	if (READ_ONCE(tt.done) || torture_must_stop_irq())
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ms_to_ktime(2));
	return HRTIMER_RESTART;
}

static int torture_nmi(unsigned int type, struct pt_regs *regs)
{
	if (!atomic_xchg(this_cpu_ptr(&torture_nmi_pending), 0))
		return NMI_DONE;
	pass_bare();
	atomic_long_inc(&tt.nmi_passes);
	return NMI_HANDLED;
}

static void torture_timer_start(void *info)
{
	struct hrtimer *t = this_cpu_ptr(&torture_timer);

	hrtimer_init(t, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	t->function = torture_tick;
	cpumask_set_cpu(smp_processor_id(), &tt.timer_cpus);
	hrtimer_start(t, ms_to_ktime(1), HRTIMER_MODE_REL_PINNED_HARD);
}

static void torture_timers_cancel(void)
{
	int cpu;

	for_each_cpu(cpu, &tt.timer_cpus)
		hrtimer_cancel(per_cpu_ptr(&torture_timer, cpu));
	cpumask_clear(&tt.timer_cpus);
}

static int torture_holding(void)
{
	struct marker_hold_stats st;

	marker_x86_hold_stats(&st);
	return st.holding;
}

static long torture_passes(void)
{
	long n = 0;
	int i;

	for (i = 0; i < tt.npassers; i++)
		n += READ_ONCE(tt.passers[i].passes);
	return n;
}

/* What the patcher has done, and the patcher's work @st since it began. */
static void marker_torture_stats_print(const struct marker_hold_stats *st)
{
	MT_OUT("%d toggles, %d refused in %u ms\n", READ_ONCE(tt.toggled),
	       READ_ONCE(tt.refused), jiffies_to_msecs(jiffies - tt.start));
	MT_OUT("passes: %ld thread, %ld timer, %ld NMI (%ld NMIs sent)\n",
	       torture_passes(), atomic_long_read(&tt.timer_passes),
	       atomic_long_read(&tt.nmi_passes), atomic_long_read(&tt.nmi_sent));
	MT_OUT("probe hits: %ld (the first probe's), %ld with a bad argument\n",
	       atomic_long_read(&tt.hits[0]), atomic_long_read(&tt.bad));
	MT_OUT("%lu holds, %lu emulated (%lu late), %lu syncs\n",
	       st->holds - tt.st0.holds, st->emulated - tt.st0.emulated,
	       st->late - tt.st0.late, st->syncs - tt.st0.syncs);
	MT_OUT("longest hold %llu us, longest chunk %llu us (preemptible)\n",
	       st->max_hold_us, st->max_window_ns / 1000);
	MT_OUT("longest sync %llu us (preemption off), text_poke %llu us (interrupts off)\n",
	       st->max_sync_ns / 1000, st->max_poke_ns / 1000);
}

static int marker_torture_stats(void *arg)
{
	struct marker_hold_stats st;

	VERBOSE_TOROUT_STRING("stats started");
	while (!torture_stopping()) {
		schedule_timeout_interruptible(stat_interval * HZ);
		marker_x86_hold_stats(&st);
		if (!torture_stopping())
			marker_torture_stats_print(&st);
	}
	torture_kthread_stopping("marker_torture_stats");
	return 0;
}

/* @tag, and the parameters; the harness reads "End of test" lines. */
static void marker_torture_print_module_parms(const char *tag)
{
	pr_alert("%s" TORTURE_FLAG "--- %s: nsites=%d toggles=%d nthreads=%d duration=%d\n",
		 torture_type, tag, nsites, toggles, tt.npassers, duration);
	pr_alert("%s" TORTURE_FLAG "--- nprobes=%d\n", torture_type, nprobes);
}

/* A check of the result: logs it if it fails. */
static bool torture_check(bool ok, const char *what)
{
	if (!ok)
		TOROUT_ERRSTRING(what);
	return ok;
}

/*
 * Whether every probe got the first one's hits: each pass calls them all.
 * NMIs sent before the passers stopped may still pass, one per CPU, and
 * be counted by some probes and not yet by others.
 */
static bool torture_hits_even(void)
{
	long first = atomic_long_read(&tt.hits[0]), d;
	int i;

	for (i = 1; i < nprobes; i++) {
		d = atomic_long_read(&tt.hits[i]) - first;
		if (abs(d) > 2L * num_online_cpus())
			return false;
	}
	return true;
}

/*
 * After the last toggle: stop the passes, leave the sites as their
 * connected marker says (armed), disconnect, and check every count.
 */
static void marker_torture_end(void)
{
	bool holds = IS_ENABLED(CONFIG_PREEMPTION) &&
		     marker_hold_supported(&boot_cpu_data);
	long passes, bound;
	bool ok = true;
	int i;

	WRITE_ONCE(tt.done, 1);
	torture_timers_cancel();
	while (atomic_read(&tt.passing))
		schedule_timeout_uninterruptible(1);
	ok &= torture_check(!arch_marker_sites_set(tt.sites, nsites, true),
			    "the sites were not armed again");
	ok &= torture_check(torture_hits_even(), "a probe missed hits");
	torture_probes_disconnect();
	unregister_nmi_handler(NMI_LOCAL, "marker_torture");
	tt.nmi_registered = false;

	marker_torture_stats_print(&tt.st);
	passes = torture_passes() + atomic_long_read(&tt.timer_passes) +
		 atomic_long_read(&tt.nmi_passes);
	bound = TORTURE_SITES * passes;
	for (i = 0; i < TORTURE_SITES; i++)
		ok &= torture_check(!arch_marker_site_armed(tt.sites[i]),
				    "a site is armed with no probe");
	ok &= torture_check(!tt.refused, "the patcher refused a toggle");
	ok &= torture_check(!atomic_long_read(&tt.bad),
			    "a probe got a bad argument");
	/* The passers have left their loops: none is left holding. */
	ok &= torture_check(!torture_holding(), "a task is left holding");
	ok &= torture_check(tt.st.syncs - tt.st0.syncs == 3UL * tt.toggled,
			    "a toggle did not take three syncs");
	/* Tasks are held only in kernels that preempt them. */
	if (holds && tt.npassers)
		ok &= torture_check(tt.st.holds > tt.st0.holds,
				    "no task was held");
	else if (!holds)
		ok &= torture_check(tt.st.holds == tt.st0.holds,
				    "a task was held in a kernel that holds none");
	ok &= torture_check(atomic_long_read(&tt.nmi_passes) > 0,
			    "no pass in NMI");
	ok &= torture_check(atomic_long_read(&tt.timer_passes) > 0,
			    "no pass in an hrtimer");
	for (i = 0; i < nprobes; i++)
		ok &= torture_check(atomic_long_read(&tt.hits[i]) <= bound,
				    "more probe hits than passes");
	marker_torture_print_module_parms(ok ? "End of test: SUCCESS" :
					       "End of test: FAILURE");
	complete(&tt.end);
}

static int marker_torture_patcher(void *arg)
{
	unsigned long end = jiffies + duration * HZ;
	int i;

	VERBOSE_TOROUT_STRING("patcher started");
	marker_x86_hold_stats_reset_max();
	marker_x86_hold_stats(&tt.st0);
	for (i = 0; (!toggles || i < toggles) && !torture_must_stop(); i++) {
		if (duration && time_after(jiffies, end))
			break;
		if (arch_marker_sites_set(tt.sites, nsites, i & 1))
			WRITE_ONCE(tt.refused, tt.refused + 1);
		WRITE_ONCE(tt.toggled, i + 1);
		if (!(i & 63))
			cond_resched();
	}
	marker_x86_hold_stats(&tt.st);
	marker_torture_end();
	torture_kthread_stopping("marker_torture_patcher");
	return 0;
}

static void marker_torture_cleanup(void)
{
	int i;

	if (torture_cleanup_begin())
		return;
	/* The patcher, if it started, ends the test before it stops. */
	torture_stop_kthread(marker_torture_patcher, tt.patcher);
	torture_stop_kthread(marker_torture_stats, tt.stats);
	WRITE_ONCE(tt.done, 1);
	torture_timers_cancel();
	for (i = 0; tt.passers && i < tt.npassers; i++)
		torture_stop_kthread(marker_torture_passer,
				     tt.passers[i].task);
	kfree(tt.passers);
	tt.passers = NULL;
	torture_probes_disconnect();
	if (tt.nmi_registered)
		unregister_nmi_handler(NMI_LOCAL, "marker_torture");
	tt.nmi_registered = false;
	torture_cleanup_end();
}

static int __init marker_torture_init(void)
{
	int i, firsterr;

	if (!run_at_boot)
		return 0;
	if (nsites < 1 || nsites > TORTURE_SITES || nprobes < 1 ||
	    nprobes > TORTURE_PROBES || toggles < 0 ||
	    duration < 0 || (!toggles && !duration) || nthreads < -1 ||
	    stat_interval < 0) {
		MT_OUT("bad parameters: nsites=%d (1 to %d), nprobes=%d (1 to %d),\n",
		       nsites, TORTURE_SITES, nprobes, TORTURE_PROBES);
		MT_OUT("toggles=%d and\n", toggles);
		MT_OUT("duration=%d (0 or more, not both 0), nthreads=%d (-1 or more),\n",
		       duration, nthreads);
		MT_OUT("stat_interval=%d (0 or more)\n", stat_interval);
		return -EINVAL;
	}
	if (!torture_init_begin(torture_type, verbose))
		return -EBUSY;

	memset(&tt, 0, sizeof(tt));
	init_completion(&tt.end);
	tt.start = jiffies;
	if (torture_sites_get() != TORTURE_SITES) {
		TOROUT_ERRSTRING("markers_x86_stress has not 4 sites");
		firsterr = -ENOENT;
		goto unwind;
	}
	tt.npassers = nthreads < 0 ? num_online_cpus() : nthreads;
	tt.passers = kcalloc(tt.npassers, sizeof(*tt.passers), GFP_KERNEL);
	if (tt.npassers && !tt.passers) {
		TOROUT_ERRSTRING("passers: out of memory");
		firsterr = -ENOMEM;
		goto unwind;
	}
	firsterr = register_nmi_handler(NMI_LOCAL, torture_nmi, 0,
					"marker_torture");
	if (torture_init_error(firsterr))
		goto unwind;
	tt.nmi_registered = true;
	firsterr = torture_probes_connect(nprobes);
	if (torture_init_error(firsterr))
		goto unwind;
	marker_torture_print_module_parms("Start of test");

	for (i = 0; i < tt.npassers; i++) {
		tt.passers[i].cpu = cpumask_nth(i % num_online_cpus(),
						cpu_online_mask);
		atomic_inc(&tt.passing);
		firsterr = torture_create_kthread(marker_torture_passer,
						  &tt.passers[i],
						  tt.passers[i].task);
		if (firsterr)
			atomic_dec(&tt.passing);
		if (torture_init_error(firsterr))
			goto unwind;
	}
	on_each_cpu(torture_timer_start, NULL, 1);
	if (stat_interval > 0) {
		firsterr = torture_create_kthread(marker_torture_stats, NULL,
						  tt.stats);
		if (torture_init_error(firsterr))
			goto unwind;
	}
	firsterr = torture_create_kthread(marker_torture_patcher, NULL,
					  tt.patcher);
	if (torture_init_error(firsterr))
		goto unwind;
	torture_init_end();

	/*
	 * The KUnit suites and user space that run next patch marker sites
	 * too: they start once this test has ended.
	 */
	wait_for_completion_state(&tt.end, TASK_IDLE);
	marker_torture_cleanup();
	return 0;

unwind:
	torture_init_end();
	marker_torture_cleanup();
	return firsterr;
}

module_init(marker_torture_init);
