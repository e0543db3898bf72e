// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the x86 marker KUnit suites (marker_kunit.h): the markers
 * that several suites pass and their probes, the hold and held tests'
 * passers and patcher steps, and the kthreads that pass sites in loops.
 */

#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/memory.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>

#include "marker_kunit.h"

void mkt_probe_site(void *probe_private, void *call_private,
		    const char *fmt, va_list *args)
{
	struct mkt_site_log *l = probe_private;

	l->arg = va_arg(*args, int);
	l->in_nmi = in_nmi();
	WRITE_ONCE(l->calls, l->calls + 1);
}

noinline void mkt_pass_site(int v)
{
	MARK(markers_x86_site, "value %d", v);
}

int mkt_site_connect(struct mkt_site_log *l)
{
	return marker_probe_register("markers_x86_site", "value %d",
				     mkt_probe_site, l);
}

int mkt_site_disconnect(struct mkt_site_log *l)
{
	return marker_probe_unregister("markers_x86_site", mkt_probe_site, l);
}

#ifdef CONFIG_HAVE_ARCH_MARKERS
atomic_long_t mkt_probe_hits;
atomic_long_t mkt_probe_bad;

void mkt_probe_count(void *probe_private, void *call_private,
		     const char *fmt, va_list *args)
{
	if (va_arg(*args, unsigned long) != HOLD_MAGIC)
		atomic_long_inc(&mkt_probe_bad);
	atomic_long_inc(&mkt_probe_hits);
}

noinline void mkt_pass_hold(void)
{
	MARK(markers_x86_hold, "magic %lu", HOLD_MAGIC);
}

atomic_long_t mkt_kprobe_hits;

int mkt_count_kprobe(struct kprobe *p, struct pt_regs *regs)
{
	atomic_long_inc(&mkt_kprobe_hits);
	return 0;
}

/*
 * A kprobe on @s's first byte, not registered yet, whose hits
 * mkt_kprobe_hits counts from 0.
 */
struct kprobe *mkt_site_kprobe(struct kunit *test, const struct marker_site *s)
{
	struct kprobe *kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, kp);
	kp->addr = (void *)marker_site_code(s);
	kp->pre_handler = mkt_count_kprobe;
	atomic_long_set(&mkt_kprobe_hits, 0);
	return kp;
}

/* Up to @max vmlinux sites of the marker @name in @v; how many. */
int mkt_sites_get(const char *name, const struct marker_site **v, int max)
{
	const struct marker_site *s;
	int n = 0;

	for (s = __start___marker_sites; s < __stop___marker_sites; s++)
		if (!strcmp(marker_site_marker(s)->name, name) && n < max)
			v[n++] = s;
	return n;
}

/* Nobody else passes the site: one byte may be written as is. */
void mkt_poke_byte(const struct marker_site *s, u8 byte)
{
	mutex_lock(&text_mutex);
	text_poke((void *)marker_site_code(s), &byte, 1);
	text_poke_sync();
	mutex_unlock(&text_mutex);
}

/* Spin up to @ms for @cond(), in the patcher, between two of its steps. */
bool mkt_spin_until(bool (*cond)(void), int ms)
{
	u64 end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;

	while (!cond() && ktime_get_ns() < end)
		cpu_relax();
	return cond();
}

/* Sleep up to @ms for @cond(): other tasks run on this CPU meanwhile. */
bool mkt_sleep_until(bool (*cond)(void), int ms)
{
	u64 end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;

	while (!cond() && ktime_get_ns() < end)
		usleep_range(500, 1000);
	return cond();
}

bool mkt_one_held(void)
{
	return mkt_holding() == 1;
}

struct mkt_hold mkt_ht;

static int hold_passer(void *data)
{
	unsigned long end = jiffies + 10 * HZ;

	while (!READ_ONCE(mkt_ht.go) && time_before(jiffies, end))
		cpu_relax();
	if (READ_ONCE(mkt_ht.go) && mkt_ht.fake) {
		/* A trap on the site from a preemptible context. */
		local_irq_disable();
		mkt_ht.handled = marker_int3_handler(&mkt_ht.regs);
		local_irq_enable();
	} else if (READ_ONCE(mkt_ht.go)) {
		mkt_pass_hold();
	}
	/* The pass before the flag the step hook waits for. */
	smp_store_release(&mkt_ht.passed, 1);
	return mkt_park();
}

static bool hold_passed(void)
{
	return READ_ONCE(mkt_ht.passed);
}

/*
 * Two traps on the site after release, as CPUs that fetched the int3
 * before byte 0 became final would take.
 */
static void late_traps(void *info)
{
	struct pt_regs regs = { .cs = __KERNEL_CS };
	int i;

	for (i = 0; i < 2; i++) {
		regs.ip = marker_site_code(mkt_ht.site) + INT3_INSN_SIZE;
		mkt_ht.late_handled[i] = marker_int3_handler(&regs);
		mkt_ht.late_ip[i] = regs.ip;
	}
}

static void hold_step(unsigned int step)
{
	if (!step)
		return;		/* a write, not a step's end */
	memcpy(mkt_ht.bytes[step], (void *)marker_site_code(mkt_ht.site),
	       MARKER_SITE_SIZE);
	if (step == 1) {
		if (mkt_ht.owner_pass) {
			mkt_pass_hold();
			mkt_ht.hits_at_owner_pass =
				atomic_long_read(&mkt_probe_hits);
		}
		/* The pass on this CPU before the passer's. */
		smp_store_release(&mkt_ht.go, 1);
		/* A fake trap holds nobody: it only returns. */
		if (mkt_ht.fake)
			mkt_spin_until(hold_passed, 2000);
		else
			mkt_ht.held[1] = mkt_spin_until(mkt_one_held, 2000);
	} else if (step == 2) {
		if (mkt_ht.at_step2)
			mkt_ht.at_step2();
		else
			mdelay(10);
		mkt_ht.held[2] = mkt_holding() == 1 &&
				 !READ_ONCE(mkt_ht.passed);
	} else if (step == 3) {
		mkt_ht.held[3] = !mkt_spin_until(hold_passed, 2000);
		if (mkt_ht.late)
			smp_call_function_single(mkt_ht.cpu, late_traps, NULL,
						 1);
	}
}

/* Patch the hold site to @armed with a passer on another CPU. */
void mkt_hold_run(struct kunit *test, bool armed,
		  const struct mkt_hold_opts *o)
{
	static const struct mkt_hold_opts plain;
	struct task_struct *t;
	int cpu;

	if (!o)
		o = &plain;
	/* Stay on this CPU: the passer must run on another one. */
	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu >= nr_cpu_ids) {
		migrate_enable();
		kunit_skip(test, "needs a second CPU");
	}
	memset(&mkt_ht, 0, sizeof(mkt_ht));
	mkt_ht.test = test;
	mkt_ht.site = marker_test_site("markers_x86_hold");
	mkt_ht.armed = armed;
	mkt_ht.owner_pass = o->owner_pass;
	mkt_ht.late = o->late;
	mkt_ht.cpu = cpu;
	mkt_ht.fake = o->fake;
	mkt_ht.at_step2 = o->at_step2;
	mkt_ht.regs.cs = __KERNEL_CS;
	mkt_ht.regs.ss = __KERNEL_DS;
	mkt_ht.regs.flags = X86_EFLAGS_IF | X86_EFLAGS_FIXED | o->fake_flags;
	mkt_ht.regs.sp = (unsigned long)&mkt_ht.stack[ARRAY_SIZE(mkt_ht.stack)];
	if (mkt_ht.site)
		mkt_ht.regs.ip = marker_site_code(mkt_ht.site) + INT3_INSN_SIZE;
	t = kthread_create(hold_passer, NULL, "markers_hold");
	if (!mkt_ht.site || IS_ERR(t)) {
		migrate_enable();
		KUNIT_FAIL(test, "no site or no passer");
		return;
	}
	kthread_bind(t, cpu);
	wake_up_process(t);

	WRITE_ONCE(marker_x86_test_step, hold_step);
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(mkt_ht.site, armed));
	WRITE_ONCE(marker_x86_test_step, NULL);
	migrate_enable();
	kthread_stop(t);
}

/* The init and exit of the suites that pass markers_x86_hold. */
int mkt_hold_init(struct kunit *test)
{
	atomic_long_set(&mkt_probe_hits, 0);
	atomic_long_set(&mkt_probe_bad, 0);
	return marker_probe_register("markers_x86_hold", "magic %lu",
				     mkt_probe_count, NULL);
}

void mkt_hold_exit(struct kunit *test)
{
	marker_probe_unregister("markers_x86_hold", mkt_probe_count, NULL);
}

struct mkt_held mkt_hd;

/*
 * Twelve values live across the site, in registers where the compiler
 * can: the pass, if any, must leave every one of them as it was.
 */
noinline u64 mkt_pass_held(u64 x, bool pass)
{
	u64 a = x * 3, b = x ^ 0x55, c = x + 7, d = x * 11, e = x - 13;
	u64 f = x << 3, g = x >> 2, h = ~x, i = x * 17, j = x + 0x1234;
	u64 k = x ^ 0xf0f0, l = x * 5;

	asm volatile("" : "+r" (a), "+r" (b), "+r" (c), "+r" (d), "+r" (e),
		     "+r" (f), "+r" (g), "+r" (h), "+r" (i), "+r" (j),
		     "+r" (k), "+r" (l));
	if (pass)
		MARK(markers_x86_held, "magic %lu", HOLD_MAGIC);
	asm volatile("" : "+r" (a), "+r" (b), "+r" (c), "+r" (d), "+r" (e),
		     "+r" (f), "+r" (g), "+r" (h), "+r" (i), "+r" (j),
		     "+r" (k), "+r" (l));
	return a + 2 * b + 3 * c + 5 * d + 7 * e + 11 * f + 13 * g + 17 * h +
	       19 * i + 23 * j + 29 * k + 31 * l;
}

void mkt_probe_held(void *probe_private, void *call_private,
		    const char *fmt, va_list *args)
{
	if (va_arg(*args, unsigned long) != HOLD_MAGIC)
		atomic_long_inc(&mkt_probe_bad);
	WRITE_ONCE(mkt_hd.probe_cpu, raw_smp_processor_id());
	atomic_inc(&mkt_hd.probe_calls);
}

int mkt_held_passer(void *data)
{
	unsigned long end = jiffies + 10 * HZ;

	while (!READ_ONCE(mkt_hd.go) && time_before(jiffies, end))
		cpu_relax();
	if (READ_ONCE(mkt_hd.go))
		mkt_hd.result = mkt_pass_held(mkt_hd.seed, true);
	/* The result before the flag. */
	smp_store_release(&mkt_hd.passed, 1);
	return mkt_park();
}

bool mkt_held_passed(void)
{
	/* The flag before the result. */
	return smp_load_acquire(&mkt_hd.passed);
}

/* Three distinct CPUs: this one (the patcher), and two others. */
static bool held_cpus(void)
{
	mkt_hd.patcher = raw_smp_processor_id();
	mkt_hd.first = cpumask_next_wrap(mkt_hd.patcher, cpu_online_mask,
					 mkt_hd.patcher, false);
	mkt_hd.second = cpumask_next_wrap(mkt_hd.first, cpu_online_mask,
					  mkt_hd.patcher, false);
	return mkt_hd.first < nr_cpu_ids && mkt_hd.first != mkt_hd.patcher &&
	       mkt_hd.second < nr_cpu_ids && mkt_hd.second != mkt_hd.patcher &&
	       mkt_hd.second != mkt_hd.first;
}

/*
 * Set up the held-task tests: the marker connected and its site disarmed
 * (the probe stays connected, as in the hold test), a passer that may
 * run on @first, the patcher pinned here.
 */
int mkt_held_start(struct kunit *test, const struct marker_site **s)
{
	memset(&mkt_hd, 0, sizeof(mkt_hd));
	mkt_hd.seed = get_random_u32() | (1ULL << 40);
	*s = marker_test_site("markers_x86_held");
	KUNIT_ASSERT_NOT_NULL(test, *s);
	mkt_hd.passer = kthread_create(mkt_held_passer, NULL, "markers_held");
	KUNIT_ASSERT_FALSE(test, IS_ERR(mkt_hd.passer));
	migrate_disable();
	if (!held_cpus()) {
		migrate_enable();
		kthread_stop(mkt_hd.passer);
		kunit_skip(test, "needs 3 CPUs");
		return -ENODEV;
	}
	set_cpus_allowed_ptr(mkt_hd.passer, cpumask_of(mkt_hd.first));
	marker_probe_register("markers_x86_held", "magic %lu", mkt_probe_held,
			      NULL);
	arch_marker_site_set(*s, false);
	wake_up_process(mkt_hd.passer);
	return 0;
}

void mkt_held_stop(struct kunit *test)
{
	int i;

	/* The passer returns once the chunk is released (5 s at most). */
	for (i = 0; i < 250 && !mkt_held_passed(); i++)
		msleep(20);
	KUNIT_EXPECT_TRUE(test, mkt_held_passed());
	WRITE_ONCE(marker_x86_test_step, NULL);
	migrate_enable();
	kthread_stop(mkt_hd.passer);
	if (mkt_hd.helper)
		kthread_stop(mkt_hd.helper);
	marker_probe_unregister("markers_x86_held", mkt_probe_held, NULL);
	KUNIT_EXPECT_EQ(test, mkt_hd.result, mkt_pass_held(mkt_hd.seed, false));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mkt_probe_bad), 0);
}

int mkt_loop_thread(void *data)
{
	const struct mkt_loop *l = data;
	long n = 0;

	while (!READ_ONCE(*l->stop)) {
		l->round();
		if (!(++n & (l->every - 1)))
			cond_resched_tasks_rcu_qs();
	}
	if (l->rounds)
		atomic_long_add(n, l->rounds);
	return mkt_park();
}

/* Start @fn(@data) on @cpu, named @namefmt ("%u": the CPU); NULL if not. */
struct task_struct *mkt_thread_on(int (*fn)(void *data), void *data,
				  unsigned int cpu, const char *namefmt)
{
	struct task_struct *t = kthread_create_on_cpu(fn, data, cpu, namefmt);

	if (IS_ERR(t))
		return NULL;
	wake_up_process(t);
	return t;
}

/* kthread_stop() each of the @n threads of @t that started. */
void mkt_threads_stop(struct task_struct **t, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (t[i])
			kthread_stop(t[i]);
}
#endif /* CONFIG_HAVE_ARCH_MARKERS */
