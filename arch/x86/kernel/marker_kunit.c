// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for x86 marker site patching: the bytes in every step, tasks
 * held at a site being patched, emulation, chunks, and a stress run
 * (x86-64, CONFIG_HAVE_ARCH_MARKERS); and, on 32-bit x86 too, a marker in
 * NMI context.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/hw_breakpoint.h>
#include <linux/kallsyms.h>
#include <linux/kdebug.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/marker.h>
#include <linux/marker_test.h>
#include <linux/memory.h>
#include <linux/nmi.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stacktrace.h>
#include <linux/workqueue.h>
#include <asm/apic.h>
#include <asm/insn.h>
#include <asm/nops.h>
#include <asm/sections.h>
#include <asm/text-patching.h>
#include <asm/trapnr.h>
#include <asm/unwind.h>

/*
 * markers_x86_site and its probe: a site at rest and armed, kprobes on
 * and next to a site, the call of its probes, and a marker passed in NMI
 * context.
 */
struct site_log {
	int calls;
	int arg;
	bool in_nmi;
};

static void probe_site(void *probe_private, void *call_private,
		       const char *fmt, va_list *args)
{
	struct site_log *l = probe_private;

	l->arg = va_arg(*args, int);
	l->in_nmi = in_nmi();
	WRITE_ONCE(l->calls, l->calls + 1);
}

static noinline void pass_site(int v)
{
	MARK(markers_x86_site, "value %d", v);
}

static int site_connect(struct site_log *l)
{
	return marker_probe_register("markers_x86_site", "value %d",
				     probe_site, l);
}

static int site_disconnect(struct site_log *l)
{
	return marker_probe_unregister("markers_x86_site", probe_site, l);
}

#ifdef CONFIG_HAVE_ARCH_MARKERS
#define HOLD_MAGIC	0x5eedUL

static atomic_long_t probe_hits;
static atomic_long_t probe_bad;

static void probe_count(void *probe_private, void *call_private,
			const char *fmt, va_list *args)
{
	if (va_arg(*args, unsigned long) != HOLD_MAGIC)
		atomic_long_inc(&probe_bad);
	atomic_long_inc(&probe_hits);
}

static noinline void pass_hold(void)
{
	MARK(markers_x86_hold, "magic %lu", HOLD_MAGIC);
}

#define MARK_BATCH()	MARK(markers_x86_batch, "magic %lu", HOLD_MAGIC)
#define MARK_BATCH4()	\
	do { MARK_BATCH(); MARK_BATCH(); MARK_BATCH(); MARK_BATCH(); } while (0)

/* 20 sites of one marker: two chunks. */
#define BATCH_SITES	20
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

#ifdef CONFIG_MARKERS_KUNIT_STRESS
#define MARK_STRESS()	MARK(markers_x86_stress, "magic %lu", HOLD_MAGIC)

/*
 * 4 sites of one marker, one chunk: two bare, one inside an irq-safe lock
 * that the hrtimers also take, one inside a lock that only tasks take,
 * some of them with interrupts off.
 */
#define STRESS_SITES	4
static DEFINE_RAW_SPINLOCK(stress_irqsafe);
static DEFINE_SPINLOCK(stress_process);

static noinline void pass_stress(void)
{
	MARK_STRESS();
	MARK_STRESS();
}

static noinline void pass_stress_irqsafe(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&stress_irqsafe, flags);
	MARK_STRESS();
	raw_spin_unlock_irqrestore(&stress_irqsafe, flags);
}

static noinline void pass_stress_process(void)
{
	spin_lock(&stress_process);
	MARK_STRESS();
	spin_unlock(&stress_process);
}
#endif

static int sites_get(const char *name, const struct marker_site **v, int max)
{
	const struct marker_site *s;
	int n = 0;

	for (s = __start___markers; s < __stop___markers; s++)
		if (!strcmp(marker_site_marker(s)->name, name) && n < max)
			v[n++] = s;
	return n;
}

static const struct marker_site *site_of(const char *name)
{
	const struct marker_site *s = NULL;

	return sites_get(name, &s, 1) ? s : NULL;
}

static bool sites_armed(const struct marker_site **v, int n, bool armed)
{
	int i;

	for (i = 0; i < n; i++)
		if (arch_marker_site_armed(v[i]) != armed)
			return false;
	return true;
}

static void site_bytes(const struct marker_site *s, bool armed, u8 *insn)
{
	if (armed)
		__text_gen_insn(insn, JMP32_INSN_OPCODE,
				(void *)marker_site_code(s),
				(void *)marker_site_target(s), JMP32_INSN_SIZE);
	else
		memcpy(insn, x86_nops[MARKER_SITE_SIZE], MARKER_SITE_SIZE);
}

static int holding(void)
{
	struct marker_hold_stats st;

	marker_x86_hold_stats(&st);
	return st.holding;
}

/*
 * The hold test: the patcher, stopped by the step hook, lets a passer on
 * another CPU meet the site, and checks what it sees at each step.
 */
static struct hold_test {
	struct kunit *test;
	const struct marker_site *site;
	bool armed;		/* the state being patched to */
	bool owner_pass;	/* pass on the patching CPU at step 1 */
	bool late;		/* trap twice on the passer's CPU at step 3 */
	int cpu;		/* the passer's CPU */
	bool late_handled[2];
	unsigned long late_ip[2];
	int go;
	int passed;
	bool fake;		/* the passer calls the handler itself */
	struct pt_regs regs;	/* with these registers, returned here */
	unsigned long stack[8];	/* and this stack */
	bool handled;
	bool bp_while_held;	/* arm a breakpoint at step 2 */
	int held[4];		/* a CPU was held after step n */
	u8 bytes[4][MARKER_SITE_SIZE];
	long hits_at_owner_pass;
} ht;

static int hold_passer(void *data)
{
	unsigned long end = jiffies + 10 * HZ;

	while (!READ_ONCE(ht.go) && time_before(jiffies, end))
		cpu_relax();
	if (READ_ONCE(ht.go) && ht.fake) {
		/* A trap on the site from a preemptible context. */
		local_irq_disable();
		ht.handled = marker_int3_handler(&ht.regs);
		local_irq_enable();
	} else if (READ_ONCE(ht.go)) {
		pass_hold();
	}
	/* The pass before the flag the step hook waits for. */
	smp_store_release(&ht.passed, 1);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* Spin up to @ms for @cond(), in the patcher, between two of its steps. */
static bool spin_until(bool (*cond)(void), int ms)
{
	int i;

	for (i = 0; i < ms * 100 && !cond(); i++)
		ndelay(10000);
	return cond();
}

static bool one_held(void)
{
	return holding() == 1;
}

static bool passed(void)
{
	return READ_ONCE(ht.passed);
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
		regs.ip = marker_site_code(ht.site) + INT3_INSN_SIZE;
		ht.late_handled[i] = marker_int3_handler(&regs);
		ht.late_ip[i] = regs.ip;
	}
}

static void hold_bp_register(void);

static void hold_step(unsigned int step)
{
	if (!step)
		return;		/* a write, not a step's end */
	memcpy(ht.bytes[step], (void *)marker_site_code(ht.site),
	       MARKER_SITE_SIZE);
	if (step == 1) {
		if (ht.owner_pass) {
			pass_hold();
			ht.hits_at_owner_pass = atomic_long_read(&probe_hits);
		}
		/* The pass on this CPU before the passer's. */
		smp_store_release(&ht.go, 1);
		/* A fake trap holds nobody: it only returns. */
		if (ht.fake)
			spin_until(passed, 2000);
		else
			ht.held[1] = spin_until(one_held, 2000);
	} else if (step == 2) {
		if (ht.bp_while_held)
			hold_bp_register();
		else
			mdelay(10);
		ht.held[2] = holding() == 1 && !READ_ONCE(ht.passed);
	} else if (step == 3) {
		ht.held[3] = !spin_until(passed, 2000);
		if (ht.late)
			smp_call_function_single(ht.cpu, late_traps, NULL, 1);
	}
}

static bool hold_fake;
static unsigned long hold_fake_flags;	/* more flags in the fake trap */
static bool hold_late_bp;

/* Patch the hold site to @armed with a passer on another CPU. */
static void hold_run(struct kunit *test, bool armed, bool owner_pass,
		     bool late)
{
	struct task_struct *t;
	int cpu;

	/* Stay on this CPU: the passer must run on another one. */
	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu >= nr_cpu_ids) {
		migrate_enable();
		kunit_skip(test, "needs a second CPU");
	}
	memset(&ht, 0, sizeof(ht));
	ht.test = test;
	ht.site = site_of("markers_x86_hold");
	ht.armed = armed;
	ht.owner_pass = owner_pass;
	ht.late = late;
	ht.cpu = cpu;
	ht.fake = hold_fake;
	ht.bp_while_held = hold_late_bp;
	ht.regs.cs = __KERNEL_CS;
	ht.regs.ss = __KERNEL_DS;
	ht.regs.flags = X86_EFLAGS_IF | X86_EFLAGS_FIXED | hold_fake_flags;
	ht.regs.sp = (unsigned long)&ht.stack[ARRAY_SIZE(ht.stack)];
	if (ht.site)
		ht.regs.ip = marker_site_code(ht.site) + INT3_INSN_SIZE;
	t = kthread_create(hold_passer, NULL, "markers_hold");
	if (!ht.site || IS_ERR(t)) {
		migrate_enable();
		KUNIT_FAIL(test, "no site or no passer");
		return;
	}
	kthread_bind(t, cpu);
	wake_up_process(t);

	WRITE_ONCE(marker_x86_test_step, hold_step);
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(ht.site, armed));
	WRITE_ONCE(marker_x86_test_step, NULL);
	migrate_enable();
	kthread_stop(t);
}

static void hold_expect_bytes(struct kunit *test, bool armed)
{
	u8 old[MARKER_SITE_SIZE], new[MARKER_SITE_SIZE];

	site_bytes(ht.site, !armed, old);
	site_bytes(ht.site, armed, new);
	/* int3, then the new tail behind it, then the new first byte. */
	KUNIT_EXPECT_EQ(test, ht.bytes[1][0], INT3_INSN_OPCODE);
	KUNIT_EXPECT_EQ(test, 0, memcmp(ht.bytes[1] + 1, old + 1, 4));
	KUNIT_EXPECT_EQ(test, ht.bytes[2][0], INT3_INSN_OPCODE);
	KUNIT_EXPECT_EQ(test, 0, memcmp(ht.bytes[2] + 1, new + 1, 4));
	KUNIT_EXPECT_EQ(test, 0, memcmp(ht.bytes[3], new, 5));
	KUNIT_EXPECT_EQ(test, 0, memcmp((void *)marker_site_code(ht.site),
					new, 5));
}

static int hold_init(struct kunit *test)
{
	atomic_long_set(&probe_hits, 0);
	atomic_long_set(&probe_bad, 0);
	return marker_probe_register("markers_x86_hold", "magic %lu",
				     probe_count, NULL);
}

static void hold_exit(struct kunit *test)
{
	marker_probe_unregister("markers_x86_hold", probe_count, NULL);
}

/*
 * A task that meets the site after step 1 is held through step 2, is
 * released by step 3, and runs the new instruction: the armed path when
 * arming, the NOP when disarming (the probe stays connected throughout).
 */
static void markers_x86_test_hold(struct kunit *test)
{
	struct marker_hold_stats st0, st;
	bool armed;

	marker_x86_hold_stats_reset_max();
	for (armed = false; ; armed = true) {
		long hits = atomic_long_read(&probe_hits);

		marker_x86_hold_stats(&st0);
		hold_run(test, armed, false, false);
		marker_x86_hold_stats(&st);
		KUNIT_EXPECT_TRUE_MSG(test, ht.held[1], "armed %d", armed);
		KUNIT_EXPECT_TRUE_MSG(test, ht.held[2], "armed %d", armed);
		KUNIT_EXPECT_TRUE_MSG(test, !ht.held[3], "armed %d", armed);
		KUNIT_EXPECT_EQ(test, ht.passed, 1);
		KUNIT_EXPECT_EQ(test, atomic_long_read(&probe_hits),
				hits + armed);
		KUNIT_EXPECT_EQ(test, st.holds, st0.holds + 1);
		KUNIT_EXPECT_EQ(test, st.emulated, st0.emulated);
		KUNIT_EXPECT_EQ(test, st.syncs, st0.syncs + 3);
		hold_expect_bytes(test, armed);
		if (armed)
			break;
	}
	KUNIT_EXPECT_EQ(test, atomic_long_read(&probe_bad), 0);
	/* The two holds above are measured, and the measure resets. */
	KUNIT_EXPECT_GT(test, st.max_hold_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, st.max_hold_us, st.max_hold_ns / 1000);
	kunit_info(test, "longest hold here: %llu ns\n", st.max_hold_ns);
	marker_x86_hold_stats_reset_max();
	marker_x86_hold_stats(&st);
	KUNIT_EXPECT_EQ(test, st.max_hold_ns, 0ULL);
}

/*
 * A hit of the patcher itself, preemptible between its steps, is emulated
 * as the new instruction: it would wait for its own release.
 */
static void markers_x86_test_owner(struct kunit *test)
{
	struct marker_hold_stats st0, st;
	long hits;

	/* Disarm: the emulated NOP does not call the probe. */
	hits = atomic_long_read(&probe_hits);
	marker_x86_hold_stats(&st0);
	hold_run(test, false, true, false);
	marker_x86_hold_stats(&st);
	KUNIT_EXPECT_EQ(test, ht.hits_at_owner_pass, hits);
	KUNIT_EXPECT_EQ(test, st.emulated, st0.emulated + 1);

	/* Arm: the emulated jmp does. */
	hits = atomic_long_read(&probe_hits);
	marker_x86_hold_stats(&st0);
	hold_run(test, true, true, false);
	marker_x86_hold_stats(&st);
	KUNIT_EXPECT_EQ(test, ht.hits_at_owner_pass, hits + 1);
	KUNIT_EXPECT_EQ(test, st.emulated, st0.emulated + 1);
	KUNIT_EXPECT_EQ(test, st.holds, st0.holds + 1);
}

/* Nobody else passes the hold site: one byte may be written as is. */
static void poke_byte(const struct marker_site *s, u8 byte)
{
	mutex_lock(&text_mutex);
	text_poke((void *)marker_site_code(s), &byte, 1);
	text_poke_sync();
	mutex_unlock(&text_mutex);
}

/* Bad bytes are refused with an error, never overwritten. */
static void markers_x86_test_refuse(struct kunit *test)
{
	const struct marker_site *s = site_of("markers_x86_hold");
	u8 before[MARKER_SITE_SIZE];

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_TRUE(test, arch_marker_site_armed(s));
	memcpy(before, (void *)marker_site_code(s), MARKER_SITE_SIZE);
	/* Disarming twice: the second call finds it already disarmed. */
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, false));
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, false));
	/* A torn site (armed byte 0 over a NOP tail) is left alone. */
	poke_byte(s, JMP32_INSN_OPCODE);
	KUNIT_EXPECT_EQ(test, -EINVAL, arch_marker_site_set(s, false));
	KUNIT_EXPECT_EQ(test, -EINVAL, arch_marker_site_set(s, true));
	KUNIT_EXPECT_EQ(test, *(u8 *)marker_site_code(s), JMP32_INSN_OPCODE);
	poke_byte(s, x86_nops[5][0]);
	KUNIT_EXPECT_EQ(test, 0, memcmp((void *)marker_site_code(s),
					x86_nops[5], MARKER_SITE_SIZE));
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, true));
	KUNIT_EXPECT_EQ(test, 0, memcmp((void *)marker_site_code(s), before,
					MARKER_SITE_SIZE));
}

/*
 * A kprobe on the site's first byte counts every pass exactly, while the
 * site is armed and disarmed under it with passers on every CPU, the
 * patcher's own included: between two patches the patcher lets them run.
 */
#define KPROBE_PASSES	2000
#define KPROBE_TOGGLES	200
#define KPROBE_SECONDS	120

static atomic_long_t kprobe_hits;
static atomic_t kprobe_passers_done;

static int count_kprobe(struct kprobe *p, struct pt_regs *regs)
{
	atomic_long_inc(&kprobe_hits);
	return 0;
}

static int kprobe_passer(void *data)
{
	int i;

	for (i = 0; i < KPROBE_PASSES; i++) {
		pass_hold();
		if (!(i & 63))
			cond_resched();
	}
	atomic_inc(&kprobe_passers_done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static bool passers_running(int n)
{
	return atomic_read(&kprobe_passers_done) < n;
}

static void markers_x86_test_kprobe_toggle(struct kunit *test)
{
	const struct marker_site *s = site_of("markers_x86_hold");
	struct task_struct *t[NR_CPUS] = {};
	struct kprobe *kp;
	unsigned long end = jiffies + KPROBE_SECONDS * HZ;
	int cpu, i, n = 0, refused = 0;

	KUNIT_ASSERT_NOT_NULL(test, s);
	kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kp);
	kp->addr = (void *)marker_site_code(s);
	kp->pre_handler = count_kprobe;
	atomic_long_set(&kprobe_hits, 0);
	atomic_long_set(&probe_hits, 0);
	atomic_set(&kprobe_passers_done, 0);
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(kp));

	for_each_online_cpu(cpu) {
		t[cpu] = kthread_create_on_cpu(kprobe_passer, NULL, cpu,
					       "markers_kp/%u");
		if (IS_ERR(t[cpu])) {
			t[cpu] = NULL;
			continue;
		}
		wake_up_process(t[cpu]);
		n++;
	}
	/* At least KPROBE_TOGGLES, and until every passer is done. */
	for (i = 0; i < KPROBE_TOGGLES || passers_running(n); i++) {
		if (time_after(jiffies, end))
			break;
		refused += !!arch_marker_site_set(s, i & 1);
		/* Without preemption, the passer here runs only now. */
		cond_resched();
	}
	for_each_online_cpu(cpu)
		if (t[cpu])
			kthread_stop(t[cpu]);
	arch_marker_site_set(s, true);
	unregister_kprobe(kp);

	kunit_info(test, "%d toggles, %ld probe hits of %d passes\n", i,
		   atomic_long_read(&probe_hits), n * KPROBE_PASSES);
	KUNIT_EXPECT_EQ(test, refused, 0);
	KUNIT_EXPECT_FALSE_MSG(test, passers_running(n),
			       "passers still running after %d s",
			       KPROBE_SECONDS);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&kprobe_hits),
			(long)n * KPROBE_PASSES);
	KUNIT_EXPECT_LE(test, atomic_long_read(&probe_hits),
			(long)n * KPROBE_PASSES);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&probe_bad), 0);
	KUNIT_EXPECT_TRUE(test, arch_marker_site_armed(s));
	KUNIT_EXPECT_EQ(test, *(u8 *)marker_site_code(s), JMP32_INSN_OPCODE);
}

/*
 * A trap after release (the CPU fetched the int3 before byte 0 became
 * final) emulates the new instruction, and is counted late.
 */
static void markers_x86_test_late(struct kunit *test)
{
	struct marker_hold_stats st0, st;
	unsigned long next;
	bool armed;

	for (armed = false; ; armed = true) {
		marker_x86_hold_stats(&st0);
		hold_run(test, armed, false, true);
		marker_x86_hold_stats(&st);
		next = armed ? marker_site_target(ht.site) :
			       marker_site_code(ht.site) + MARKER_SITE_SIZE;
		KUNIT_EXPECT_TRUE(test, ht.late_handled[0]);
		KUNIT_EXPECT_TRUE(test, ht.late_handled[1]);
		KUNIT_EXPECT_EQ(test, ht.late_ip[0], next);
		KUNIT_EXPECT_EQ(test, ht.late_ip[1], next);
		KUNIT_EXPECT_EQ(test, st.late - st0.late, 2UL);
		KUNIT_EXPECT_EQ(test, st.emulated - st0.emulated, 2UL);
		if (armed)
			break;
	}
}

static struct kunit_case markers_x86_hold_cases[] = {
	KUNIT_CASE(markers_x86_test_hold),
	KUNIT_CASE(markers_x86_test_owner),
	KUNIT_CASE(markers_x86_test_refuse),
	KUNIT_CASE(markers_x86_test_kprobe_toggle),
	KUNIT_CASE(markers_x86_test_late),
	{}
};

static struct kunit_suite markers_x86_hold_suite = {
	.name = "markers_x86_hold",
	.init = hold_init,
	.exit = hold_exit,
	.test_cases = markers_x86_hold_cases,
};

/*
 * The hazards of holding tasks, one case each: a patcher that did not
 * handle one fails its case (Documentation/trace/markers.rst, section 5).
 */

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
	const struct marker_site *s = site_of("markers_x86_quiet");
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
	const struct marker_site *s = site_of("markers_x86_quiet");
	struct pt_regs regs = { .cs = __KERNEL_CS };
	struct marker_hold_stats st0, st;
	unsigned long code;
	bool handled;
	u8 byte0;

	KUNIT_ASSERT_NOT_NULL(test, s);
	code = marker_site_code(s);
	byte0 = *(u8 *)code;
	marker_x86_hold_stats(&st0);
	poke_byte(s, INT3_INSN_OPCODE);
	regs.ip = code + INT3_INSN_SIZE;
	local_irq_disable();
	handled = marker_int3_handler(&regs);
	local_irq_enable();
	KUNIT_EXPECT_FALSE(test, handled);
	KUNIT_EXPECT_EQ(test, regs.ip, code + INT3_INSN_SIZE);
	poke_byte(s, byte0);
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
	int n = sites_get("markers_x86_batch", v, ARRAY_SIZE(v));
	u8 byte0;
	int ret;

	KUNIT_ASSERT_EQ(test, n, BATCH_SITES);
	KUNIT_ASSERT_TRUE(test, sites_armed(v, n, false));
	byte0 = *(u8 *)marker_site_code(v[5]);
	/* A torn site: a jmp's first byte over a NOP's tail. */
	poke_byte(v[5], JMP32_INSN_OPCODE);
	ret = marker_probe_register("markers_x86_batch", "magic %lu",
				    probe_count, NULL);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, marker_get_private_data("markers_x86_batch",
							  probe_count, 0),
			    ERR_PTR(-ENOENT));
	poke_byte(v[5], byte0);
	KUNIT_EXPECT_TRUE(test, sites_armed(v, n, false));
	if (!ret)
		marker_probe_unregister("markers_x86_batch", probe_count, NULL);
	KUNIT_EXPECT_TRUE(test, sites_armed(v, n, false));
}

#ifdef CONFIG_HAVE_HW_BREAKPOINT
static atomic_t bp_hits;

static void count_bp(struct perf_event *bp, struct perf_sample_data *data,
		     struct pt_regs *regs)
{
	if (raw_smp_processor_id() == READ_ONCE(ht.cpu))
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
		attr.bp_addr = marker_site_code(site_of("markers_x86_hold"));
		attr.bp_len = sizeof(long);
		attr.bp_type = HW_BREAKPOINT_X;
		bp = register_wide_hw_breakpoint(&attr, count_bp, NULL);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR((void __force *)bp),
				       "breakpoint: %ld",
				       PTR_ERR((void __force *)bp));
		atomic_set(&bp_hits, 0);
		hold_run(test, armed, false, false);
		unregister_wide_hw_breakpoint(bp);
		KUNIT_EXPECT_TRUE_MSG(test, ht.held[2], "armed %d", armed);
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
	attr.bp_addr = marker_site_code(site_of("markers_x86_hold"));
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

static void hold_bp_register(void)
{
	queue_work_on(ht.cpu, system_wq, &bp_late_work);
	spin_until(bp_late_registered, 2000);
}

static void markers_x86_test_breakpoint_held(struct kunit *test)
{
	bool armed;

	for (armed = false; ; armed = true) {
		bp_late = NULL;
		bp_late_done = 0;
		atomic_set(&bp_hits, 0);
		hold_late_bp = true;
		hold_run(test, armed, false, false);
		hold_late_bp = false;
		flush_work(&bp_late_work);
		KUNIT_ASSERT_TRUE(test, bp_late_registered());
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR((void __force *)bp_late),
				       "breakpoint: %ld",
				       PTR_ERR((void __force *)bp_late));
		unregister_wide_hw_breakpoint(bp_late);
		KUNIT_EXPECT_TRUE_MSG(test, ht.held[2], "armed %d", armed);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&bp_hits), 1,
				    "armed %d", armed);
		if (armed)
			break;
	}
}
#else
static void hold_bp_register(void)
{
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
	const struct marker_site *s = site_of("markers_x86_quiet");
	struct kprobe *kp, *watch;

	KUNIT_ASSERT_NOT_NULL(test, s);
	kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);
	watch = kunit_kzalloc(test, sizeof(*watch), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kp);
	KUNIT_ASSERT_NOT_NULL(test, watch);
	kp->addr = (void *)marker_site_code(s);
	kp->pre_handler = count_kprobe;
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
	const struct marker_site *s = site_of("markers_x86_quiet");
	struct kprobe *kp;
	u8 *code;

	KUNIT_ASSERT_NOT_NULL(test, s);
	code = (u8 *)marker_site_code(s);
	kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kp);
	kp->addr = (void *)code;
	kp->pre_handler = count_kprobe;
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(kp));
	KUNIT_ASSERT_EQ(test, 0, disable_kprobe(kp));
	KUNIT_ASSERT_EQ(test, code[0], x86_nops[5][0]);
	poke_byte(s, INT3_INSN_OPCODE);

	KUNIT_EXPECT_EQ(test, -EINVAL, arch_marker_site_set(s, true));
	KUNIT_EXPECT_EQ(test, 0, memcmp(code + 1, x86_nops[5] + 1,
					MARKER_SITE_SIZE - 1));
	KUNIT_EXPECT_EQ(test, kp->opcode, x86_nops[5][0]);

	poke_byte(s, x86_nops[5][0]);
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
	unsigned long *frame, seq[2] = {};
	bool armed;

	for (armed = false; ; armed = true) {
		hold_fake = true;
		hold_run(test, armed, false, false);
		hold_fake = false;
		frame = (unsigned long *)ht.regs.sp;
		KUNIT_EXPECT_TRUE_MSG(test, ht.handled, "armed %d", armed);
		KUNIT_EXPECT_FALSE_MSG(test, ht.held[2], "armed %d", armed);
		KUNIT_EXPECT_EQ(test, ht.regs.ip,
				(unsigned long)marker_hold_thunk);
		KUNIT_EXPECT_PTR_EQ(test, frame, &ht.stack[2]);
		seq[armed] = frame[0];
		KUNIT_EXPECT_EQ(test, frame[1], marker_site_code(ht.site));
		KUNIT_EXPECT_EQ(test, frame[2], (unsigned long)__KERNEL_CS);
		KUNIT_EXPECT_EQ(test, frame[3], X86_EFLAGS_IF | X86_EFLAGS_FIXED);
		KUNIT_EXPECT_EQ(test, frame[4],
				(unsigned long)&ht.stack[ARRAY_SIZE(ht.stack)]);
		KUNIT_EXPECT_EQ(test, frame[5], (unsigned long)__KERNEL_DS);
		if (armed)
			break;
	}
	/* Each hold_run() is one chunk. */
	KUNIT_EXPECT_EQ(test, seq[1], seq[0] + 1);
}

/*
 * A trap with TF set (code being single-stepped) is emulated: a hold
 * would single-step the thunk and the C code it calls.
 */
static void markers_x86_test_held_tf(struct kunit *test)
{
	unsigned long next;
	bool armed;

	for (armed = false; ; armed = true) {
		hold_fake = true;
		hold_fake_flags = X86_EFLAGS_TF;
		hold_run(test, armed, false, false);
		hold_fake_flags = 0;
		hold_fake = false;
		next = armed ? marker_site_target(ht.site) :
			       marker_site_code(ht.site) + MARKER_SITE_SIZE;
		KUNIT_EXPECT_TRUE_MSG(test, ht.handled, "armed %d", armed);
		KUNIT_EXPECT_EQ_MSG(test, ht.regs.ip, next, "armed %d", armed);
		KUNIT_EXPECT_EQ_MSG(test, ht.regs.sp,
				    (unsigned long)&ht.stack[ARRAY_SIZE(ht.stack)],
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

static int lock_passer(void *data)
{
	unsigned long flags;
	long n = 0;

	while (!READ_ONCE(lt.stop)) {
		if (lt.mode == LOCK_PROCESS) {
			spin_lock(&lock_process);
			pass_lock();
			spin_unlock(&lock_process);
		} else {
			raw_spin_lock_irqsave(&lock_irqsafe, flags);
			if (lt.mode == LOCK_IRQSAFE_IPI)
				smp_call_function_single_async(lt.patcher,
							       &lt.csd);
			pass_lock();
			raw_spin_unlock_irqrestore(&lock_irqsafe, flags);
		}
		if (!(++n & 15))
			cond_resched();
	}
	atomic_long_add(n, &lt.passes);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* Takes the process-only lock with interrupts off, as it may. */
static int lock_contender(void *data)
{
	long n = 0;

	while (!READ_ONCE(lt.stop)) {
		spin_lock_irq(&lock_process);
		atomic_long_inc(&lt.takes);
		spin_unlock_irq(&lock_process);
		if (!(++n & 15))
			cond_resched();
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

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
	const struct marker_site *s = site_of("markers_x86_lock");
	unsigned long start = jiffies, end = start + LOCK_SECONDS * HZ;
	struct marker_hold_stats st0, st;
	int cpu, i, passer = -1;

	KUNIT_ASSERT_NOT_NULL(test, s);
	memset(&lt, 0, sizeof(lt));
	lt.mode = mode - lock_modes;
	INIT_CSD(&lt.csd, lock_ipi, NULL);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_x86_lock",
						       "magic %lu",
						       probe_count, NULL));
	migrate_disable();
	lt.patcher = raw_smp_processor_id();
	for_each_online_cpu(cpu) {
		if (cpu == lt.patcher)
			continue;
		if (passer < 0) {
			passer = cpu;
			t[cpu] = kthread_create_on_cpu(lock_passer, NULL, cpu,
						       "markers_lock/%u");
		} else if (lt.mode == LOCK_PROCESS) {
			t[cpu] = kthread_create_on_cpu(lock_contender, NULL,
						       cpu, "markers_lockc/%u");
		}
		if (IS_ERR_OR_NULL(t[cpu]))
			t[cpu] = NULL;
		else
			wake_up_process(t[cpu]);
	}
	if (passer < 0) {
		migrate_enable();
		marker_probe_unregister("markers_x86_lock", probe_count, NULL);
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
	for_each_online_cpu(cpu)
		if (t[cpu])
			kthread_stop(t[cpu]);
	arch_marker_site_set(s, true);
	marker_probe_unregister("markers_x86_lock", probe_count, NULL);

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
	KUNIT_EXPECT_EQ(test, holding(), 0);
	KUNIT_EXPECT_GT(test, atomic_long_read(&lt.passes), 0L);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&probe_bad), 0);
}

/*
 * Held tasks.  A task held at a site waits with interrupts on: it may be
 * preempted and migrated meanwhile, and its site may be in a later chunk
 * by the time it runs again.  Wherever it runs then, it returns to the
 * site with every register as it was and runs what the last chunk left
 * there, for real: no emulation, no second trap.
 */
static struct held_test {
	struct task_struct *passer;
	struct task_struct *helper;
	int patcher;		/* the patching CPU */
	int first;		/* where the passer meets the site */
	int second;		/* where it is moved to, or a hog runs */
	int go;			/* the passer may pass */
	int passed;
	u64 seed;
	u64 result;
	int probe_cpu;		/* where the probe last ran */
	atomic_t probe_calls;
	int act;		/* the helper may act */
	int acted;		/* the helper has acted */
	int hog_stop;
	unsigned long want_holds;	/* holds since boot, awaited */
	int chunks_held;	/* chunks in which the passer was held anew */
	int hog_missed;		/* steps at which the hog did not take over */
	bool ok_step;		/* the step hook saw what it waited for */
	bool ok_rearm;
} hd;

/*
 * Twelve values live across the site, in registers where the compiler
 * can: the pass, if any, must leave every one of them as it was.
 */
static noinline u64 pass_held(u64 x, bool pass)
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

static void probe_held(void *probe_private, void *call_private,
		       const char *fmt, va_list *args)
{
	if (va_arg(*args, unsigned long) != HOLD_MAGIC)
		atomic_long_inc(&probe_bad);
	WRITE_ONCE(hd.probe_cpu, raw_smp_processor_id());
	atomic_inc(&hd.probe_calls);
}

static int held_passer(void *data)
{
	unsigned long end = jiffies + 10 * HZ;

	while (!READ_ONCE(hd.go) && time_before(jiffies, end))
		cpu_relax();
	if (READ_ONCE(hd.go))
		hd.result = pass_held(hd.seed, true);
	/* The result before the flag. */
	smp_store_release(&hd.passed, 1);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* Spin up to @ms for @cond(), in the patcher, between two of its steps. */
static bool held_until(bool (*cond)(void), int ms)
{
	u64 end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;

	while (!cond() && ktime_get_ns() < end)
		cpu_relax();
	return cond();
}

static bool held_one(void)
{
	return holding() == 1;
}

static bool held_passed(void)
{
	/* The flag before the result. */
	return smp_load_acquire(&hd.passed);
}

/* Three distinct CPUs: this one (the patcher), and two others. */
static bool held_cpus(void)
{
	hd.patcher = raw_smp_processor_id();
	hd.first = cpumask_next_wrap(hd.patcher, cpu_online_mask,
				     hd.patcher, false);
	hd.second = cpumask_next_wrap(hd.first, cpu_online_mask,
				      hd.patcher, false);
	return hd.first < nr_cpu_ids && hd.first != hd.patcher &&
	       hd.second < nr_cpu_ids && hd.second != hd.patcher &&
	       hd.second != hd.first;
}

/*
 * Set up the held-task tests: the marker connected and its site disarmed
 * (the probe stays connected, as in the hold test), a passer that may
 * run on @first, the patcher pinned here.
 */
static int held_start(struct kunit *test, const struct marker_site **s)
{
	memset(&hd, 0, sizeof(hd));
	hd.seed = get_random_u32() | (1ULL << 40);
	*s = site_of("markers_x86_held");
	KUNIT_ASSERT_NOT_NULL(test, *s);
	hd.passer = kthread_create(held_passer, NULL, "markers_held");
	KUNIT_ASSERT_FALSE(test, IS_ERR(hd.passer));
	migrate_disable();
	if (!held_cpus()) {
		migrate_enable();
		kthread_stop(hd.passer);
		kunit_skip(test, "needs 3 CPUs");
		return -ENODEV;
	}
	set_cpus_allowed_ptr(hd.passer, cpumask_of(hd.first));
	marker_probe_register("markers_x86_held", "magic %lu", probe_held,
			      NULL);
	arch_marker_site_set(*s, false);
	wake_up_process(hd.passer);
	return 0;
}

static void held_stop(struct kunit *test)
{
	int i;

	/* The passer returns once the chunk is released (5 s at most). */
	for (i = 0; i < 250 && !held_passed(); i++)
		msleep(20);
	KUNIT_EXPECT_TRUE(test, held_passed());
	WRITE_ONCE(marker_x86_test_step, NULL);
	migrate_enable();
	kthread_stop(hd.passer);
	if (hd.helper)
		kthread_stop(hd.helper);
	marker_probe_unregister("markers_x86_held", probe_held, NULL);
	KUNIT_EXPECT_EQ(test, hd.result, pass_held(hd.seed, false));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&probe_bad), 0);
}

/* A FIFO task on @first, the passer's CPU, running @fn: the helper. */
static int held_hog_start(int (*fn)(void *data))
{
	hd.helper = kthread_create_on_cpu(fn, NULL, hd.first, "markers_hog/%u");
	if (IS_ERR(hd.helper)) {
		hd.helper = NULL;
		return -ENOMEM;
	}
	sched_set_fifo(hd.helper);
	wake_up_process(hd.helper);
	return 0;
}

/* On @second: move the passer there when told. */
static int held_mover(void *data)
{
	while (!READ_ONCE(hd.act) && !kthread_should_stop())
		schedule_timeout_interruptible(1);
	if (READ_ONCE(hd.act) &&
	    !set_cpus_allowed_ptr(hd.passer, cpumask_of(hd.second)))
		WRITE_ONCE(hd.acted, 1);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static bool held_moved(void)
{
	return READ_ONCE(hd.acted) &&
	       task_cpu(hd.passer) == hd.second &&
	       READ_ONCE(hd.passer->on_cpu) && holding() == 1;
}

/* At step 1: the passer meets the site, is held, and is moved. */
static void held_move_step(unsigned int step)
{
	if (step != 1)
		return;
	WRITE_ONCE(hd.go, 1);
	if (!held_until(held_one, 2000))
		return;
	WRITE_ONCE(hd.act, 1);
	if (hd.helper)
		wake_up_process(hd.helper);
	/* Moved, running on @second, still held. */
	hd.ok_step = held_until(held_moved, 2000);
}

/*
 * A held task is preempted and migrated before its site is released; it
 * resumes on the other CPU, on the new instruction.
 */
static void markers_x86_test_held_migrate(struct kunit *test)
{
	struct marker_hold_stats st0, st;
	const struct marker_site *s;

	if (held_start(test, &s))
		return;
	hd.helper = kthread_create_on_cpu(held_mover, NULL, hd.second,
					  "markers_mover/%u");
	if (IS_ERR(hd.helper))
		hd.helper = NULL;
	else
		wake_up_process(hd.helper);
	marker_x86_hold_stats(&st0);
	WRITE_ONCE(marker_x86_test_step, held_move_step);
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, true));
	held_stop(test);
	marker_x86_hold_stats(&st);

	KUNIT_EXPECT_TRUE_MSG(test, hd.ok_step,
			      "not migrated while held (on CPU %d, held %d)",
			      task_cpu(hd.passer), holding());
	KUNIT_EXPECT_EQ(test, atomic_read(&hd.probe_calls), 1);
	KUNIT_EXPECT_EQ(test, hd.probe_cpu, hd.second);
	KUNIT_EXPECT_EQ(test, st.holds - st0.holds, 1UL);
	KUNIT_EXPECT_EQ(test, st.emulated - st0.emulated, 0UL);
	KUNIT_EXPECT_EQ(test, st.late - st0.late, 0UL);
}

/* On @first, FIFO: spin, keeping the held passer off its CPU. */
static int held_hog(void *data)
{
	while (!READ_ONCE(hd.act) && !kthread_should_stop())
		schedule_timeout_interruptible(1);
	if (READ_ONCE(hd.act)) {
		WRITE_ONCE(hd.acted, 1);
		while (!READ_ONCE(hd.hog_stop))
			cpu_relax();
		WRITE_ONCE(hd.acted, 2);
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static bool held_hogged(void)
{
	return READ_ONCE(hd.acted) == 1 &&
	       !READ_ONCE(hd.passer->on_cpu) && holding() == 1;
}

static bool held_back(void)
{
	return READ_ONCE(hd.acted) == 2 &&
	       READ_ONCE(hd.passer->on_cpu);
}

/* Chunk 1, step 1: the passer is held, then preempted by the hog. */
static void held_hog_step(unsigned int step)
{
	if (step != 1)
		return;
	WRITE_ONCE(hd.go, 1);
	if (!held_until(held_one, 2000))
		return;
	WRITE_ONCE(hd.act, 1);
	if (hd.helper)
		wake_up_process(hd.helper);
	hd.ok_step = held_until(held_hogged, 2000);
}

/*
 * Chunk 2, step 1: the hog goes; the passer runs, returns to the site
 * and is held again, by this chunk.
 */
static void held_rearm_step(unsigned int step)
{
	if (step != 1)
		return;
	WRITE_ONCE(hd.hog_stop, 1);
	if (held_until(held_back, 2000)) {
		mdelay(20);
		hd.ok_rearm = holding() == 1 && !held_passed();
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

	if (held_start(test, &s))
		return;
	held_hog_start(held_hog);
	marker_x86_hold_stats(&st0);
	WRITE_ONCE(marker_x86_test_step, held_hog_step);
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, true));
	early = held_passed();
	WRITE_ONCE(marker_x86_test_step, held_rearm_step);
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, false));
	/* In case chunk 1 did not get that far. */
	WRITE_ONCE(hd.hog_stop, 1);
	held_stop(test);
	marker_x86_hold_stats(&st);

	KUNIT_EXPECT_TRUE_MSG(test, hd.ok_step,
			      "not preempted while held (held %d)", holding());
	KUNIT_EXPECT_FALSE(test, early);
	KUNIT_EXPECT_TRUE(test, hd.ok_rearm);
	KUNIT_EXPECT_EQ(test, atomic_read(&hd.probe_calls), 0);
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
	WRITE_ONCE(hd.go, 1);
	wake_up_process(hd.passer);
	for (i = 0; i < 100 && !held_passed(); i++)
		msleep(20);
	hd.ok_step = held_passed();
}

static int held_fifo_passer(void *data)
{
	while (!READ_ONCE(hd.go) && !kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!READ_ONCE(hd.go))
			schedule_timeout(HZ);
		__set_current_state(TASK_RUNNING);
	}
	return held_passer(data);
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

	memset(&hd, 0, sizeof(hd));
	hd.seed = get_random_u32();
	s = site_of("markers_x86_held");
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_x86_held",
						       "magic %lu",
						       probe_held, NULL));
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, false));
	migrate_disable();
	hd.patcher = raw_smp_processor_id();
	hd.passer = kthread_create_on_cpu(held_fifo_passer, NULL, hd.patcher,
					  "markers_fifo/%u");
	if (IS_ERR(hd.passer)) {
		migrate_enable();
		marker_probe_unregister("markers_x86_held", probe_held, NULL);
		KUNIT_FAIL(test, "no passer");
		return;
	}
	sched_set_fifo(hd.passer);
	marker_x86_hold_stats(&st0);
	WRITE_ONCE(marker_x86_test_step, held_wake_step);
	t0 = ktime_get_ns();
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, true));
	t = ktime_get_ns() - t0;
	WRITE_ONCE(marker_x86_test_step, NULL);
	for (i = 0; i < 250 && !held_passed(); i++)
		msleep(20);
	marker_x86_hold_stats(&st);
	migrate_enable();
	kthread_stop(hd.passer);
	marker_probe_unregister("markers_x86_held", probe_held, NULL);

	KUNIT_EXPECT_TRUE(test, hd.ok_step);
	KUNIT_EXPECT_LT_MSG(test, t, 100 * NSEC_PER_MSEC,
			    "arming took %llu ms", t / NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, atomic_read(&hd.probe_calls), 1);
	KUNIT_EXPECT_EQ(test, hd.probe_cpu, hd.patcher);
	KUNIT_EXPECT_EQ(test, st.holds - st0.holds, 0UL);
	KUNIT_EXPECT_EQ(test, st.emulated - st0.emulated, 1UL);
	KUNIT_EXPECT_EQ(test, hd.result, pass_held(hd.seed, false));
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
		if (!READ_ONCE(hd.act)) {
			schedule_timeout_interruptible(1);
			continue;
		}
		WRITE_ONCE(hd.acted, 1);
		while (READ_ONCE(hd.act))
			cpu_relax();
		WRITE_ONCE(hd.acted, 0);
	}
	return 0;
}

static bool held_holds_reached(void)
{
	struct marker_hold_stats st;

	marker_x86_hold_stats(&st);
	return st.holds >= hd.want_holds;
}

/*
 * Step 1 of each chunk: the hog lets the passer run, while this chunk
 * has the site; step 2: the hog takes its CPU until the next chunk.
 */
static void held_bound_step(unsigned int step)
{
	if (step == 1) {
		WRITE_ONCE(hd.go, 1);
		WRITE_ONCE(hd.act, 0);
		hd.want_holds++;
		if (held_until(held_holds_reached, 500))
			hd.chunks_held++;
	} else if (step == 2) {
		WRITE_ONCE(hd.act, 1);
		wake_up_process(hd.helper);
		if (!held_until(held_hogged, 2000))
			hd.hog_missed++;
	}
}

static void markers_x86_test_held_bound(struct kunit *test)
{
	struct marker_hold_stats st0, st;
	const struct marker_site *s;
	int i;

	if (held_start(test, &s))
		return;
	if (held_hog_start(held_bound_hog)) {
		WRITE_ONCE(hd.go, 1);
		held_stop(test);
		KUNIT_FAIL(test, "no hog");
		return;
	}
	marker_x86_hold_stats_reset_max();
	marker_x86_hold_stats(&st0);
	hd.want_holds = st0.holds;
	WRITE_ONCE(marker_x86_test_step, held_bound_step);
	for (i = 0; i < BOUND_CHUNKS; i++)
		KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, !(i & 1)));
	WRITE_ONCE(marker_x86_test_step, NULL);
	WRITE_ONCE(hd.act, 0);
	held_stop(test);
	marker_x86_hold_stats(&st);

	kunit_info(test, "%d chunks: %lu holds, %d chunks that held the passer anew, longest hold %llu us\n",
		   BOUND_CHUNKS, st.holds - st0.holds, hd.chunks_held,
		   st.max_hold_us);
	KUNIT_EXPECT_EQ(test, hd.hog_missed, 0);
	KUNIT_EXPECT_EQ(test, hd.chunks_held, BOUND_CHUNKS);
	KUNIT_EXPECT_EQ(test, st.holds - st0.holds, (unsigned long)BOUND_CHUNKS);
	KUNIT_EXPECT_EQ(test, holding(), 0);
}

/*
 * The chain a hold used to stall: CPU B takes spinlock L with interrupts
 * on and sends CPU A a synchronous IPI; CPU C takes L with interrupts
 * off; a task on CPU A passes a site in a preemptible loop; this CPU
 * connects and disconnects a probe.  A held task has interrupts on: it
 * answers B's IPI, B lets L go, C gets it, and C answers the patcher's
 * sync.  Before, A was held with interrupts off, and every toggle waited
 * for the sync's patience to run out (about 500 ms; 271 ms on average).
 *
 * A toggle's three syncs and a disconnect's grace period wait for every
 * CPU, so the slowest of 80 toggles follows the load of the machine:
 * 92 to 204 ms with KASAN and lockdep, and 247 ms in a kernel without
 * them that shared its host, all with no sync waiting for a hold.  So
 * the worst toggle is held under the old stall (500 ms), and the mean
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

static int chain_park(void)
{
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static int chain_passer(void *data)
{
	long n = 0;

	while (!READ_ONCE(ct.stop)) {
		pass_chain();
		if (!(++n & 255))
			cond_resched();
	}
	atomic_long_add(n, &ct.passes);
	return chain_park();
}

static int chain_sender(void *data)
{
	long n = 0;

	while (!READ_ONCE(ct.stop)) {
		spin_lock(&chain_lock);
		smp_call_function_single(ct.a, chain_ipi, NULL, 1);
		spin_unlock(&chain_lock);
		if (!(++n & 15))
			cond_resched();
	}
	return chain_park();
}

static int chain_irqoff(void *data)
{
	long n = 0;

	while (!READ_ONCE(ct.stop)) {
		spin_lock_irq(&chain_lock);
		atomic_long_inc(&ct.takes);
		spin_unlock_irq(&chain_lock);
		if (!(++n & 15))
			cond_resched();
	}
	return chain_park();
}

static void markers_x86_test_chain(struct kunit *test)
{
	static int (* const fn[])(void *) = {
		chain_passer, chain_sender, chain_irqoff,
	};
	struct task_struct *t[ARRAY_SIZE(fn)] = {};
	struct marker_hold_stats st0, st;
	u64 t0, dt, worst = 0, total = 0, worst_of[2] = {};
	int cpu, i, n = 0, toggles;

	if (num_online_cpus() < 4)
		kunit_skip(test, "needs 4 CPUs");
	memset(&ct, 0, sizeof(ct));
	migrate_disable();
	cpu = raw_smp_processor_id();
	for (i = 0; i < ARRAY_SIZE(fn); i++) {
		cpu = cpumask_next_wrap(cpu, cpu_online_mask,
					raw_smp_processor_id(), false);
		if (!i)
			ct.a = cpu;
		t[i] = kthread_create_on_cpu(fn[i], NULL, cpu, "markers_chain/%u");
		if (IS_ERR(t[i])) {
			t[i] = NULL;
			continue;
		}
		wake_up_process(t[i]);
		n++;
	}

	marker_x86_hold_stats_reset_max();
	marker_x86_hold_stats(&st0);
	for (i = 0; i < 2 * CHAIN_TOGGLES && n == ARRAY_SIZE(fn); i++) {
		t0 = ktime_get_ns();
		if (i & 1)
			marker_probe_unregister("markers_x86_chain",
						probe_count, NULL);
		else
			KUNIT_EXPECT_EQ(test, 0,
					marker_probe_register("markers_x86_chain",
							      "magic %lu",
							      probe_count,
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
	for (i = 0; i < ARRAY_SIZE(fn); i++)
		if (t[i])
			kthread_stop(t[i]);

	kunit_info(test, "%d connects and disconnects in %llu ms, the worst %llu ms (connect %llu, disconnect %llu); %ld passes, %ld IPIs, %ld irq-off lock takes; %lu holds, %lu emulated, %lu syncs; longest hold %llu us, longest sync %llu us, longest text_poke %llu us\n",
		   toggles, total / NSEC_PER_MSEC, worst / NSEC_PER_MSEC,
		   worst_of[0] / NSEC_PER_MSEC, worst_of[1] / NSEC_PER_MSEC,
		   atomic_long_read(&ct.passes), atomic_long_read(&ct.ipis),
		   atomic_long_read(&ct.takes), st.holds - st0.holds,
		   st.emulated - st0.emulated, st.syncs - st0.syncs,
		   st.max_hold_ns / 1000, st.max_sync_ns / 1000,
		   st.max_poke_ns / 1000);
	KUNIT_EXPECT_EQ(test, n, (int)ARRAY_SIZE(fn));
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
	KUNIT_EXPECT_EQ(test, holding(), 0);
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
	KUNIT_CASE(markers_x86_test_chain),
	{}
};

static struct kunit_suite markers_x86_hazard_suite = {
	.name = "markers_x86_hazards",
	.init = hold_init,
	.exit = hold_exit,
	.test_cases = markers_x86_hazard_cases,
};

/*
 * Arming a marker with 20 sites changes them and their 20 calls in one
 * chunk: three syncs, not sixty; disarming, the same.
 */
static void markers_x86_test_batch(struct kunit *test)
{
	const struct marker_site *v[BATCH_SITES + 1];
	struct marker_hold_stats st0, st;
	int n = sites_get("markers_x86_batch", v, ARRAY_SIZE(v));

	KUNIT_ASSERT_EQ(test, n, BATCH_SITES);
	atomic_long_set(&probe_hits, 0);
	marker_x86_hold_stats(&st0);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_x86_batch",
						       "magic %lu",
						       probe_count, NULL));
	marker_x86_hold_stats(&st);
	KUNIT_EXPECT_EQ(test, st.syncs - st0.syncs, 3UL);
	KUNIT_EXPECT_TRUE(test, sites_armed(v, n, true));
	pass_batch();
	KUNIT_EXPECT_EQ(test, atomic_long_read(&probe_hits), BATCH_SITES);

	marker_x86_hold_stats(&st0);
	marker_probe_unregister("markers_x86_batch", probe_count, NULL);
	marker_x86_hold_stats(&st);
	KUNIT_EXPECT_EQ(test, st.syncs - st0.syncs, 3UL);
	KUNIT_EXPECT_TRUE(test, sites_armed(v, n, false));
}

static atomic_t chunks_stop;
static atomic_long_t chunks_passes;

static int chunks_passer(void *data)
{
	long n = 0;

	while (!atomic_read(&chunks_stop)) {
		pass_chunks();
		if (!(++n & 3))
			cond_resched();
	}
	atomic_long_add(n, &chunks_passes);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

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
	n = sites_get("markers_x86_chunks", v, CHUNK_SITES + 1);
	KUNIT_ASSERT_EQ(test, n, CHUNK_SITES);
	atomic_set(&chunks_stop, 0);
	atomic_long_set(&chunks_passes, 0);
	atomic_long_set(&probe_hits, 0);
	atomic_long_set(&probe_bad, 0);
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu < nr_cpu_ids) {
		t = kthread_create_on_cpu(chunks_passer, NULL, cpu,
					  "markers_chunks/%u");
		if (IS_ERR(t))
			t = NULL;
		else
			wake_up_process(t);
	}

	marker_x86_hold_stats(&st0);
	KUNIT_EXPECT_EQ(test, 0, marker_probe_register("markers_x86_chunks",
						       "magic %lu",
						       probe_count, NULL));
	marker_x86_hold_stats(&st);
	syncs[0] = st.syncs - st0.syncs;
	KUNIT_EXPECT_TRUE(test, sites_armed(v, n, true));
	marker_x86_hold_stats(&st0);
	marker_probe_unregister("markers_x86_chunks", probe_count, NULL);
	marker_x86_hold_stats(&st);
	syncs[1] = st.syncs - st0.syncs;
	KUNIT_EXPECT_TRUE(test, sites_armed(v, n, false));
	atomic_set(&chunks_stop, 1);
	if (t)
		kthread_stop(t);

	kunit_info(test, "%d sites: armed in %lu syncs, disarmed in %lu; %ld passes of all of them meanwhile\n",
		   n, syncs[0], syncs[1], atomic_long_read(&chunks_passes));
	KUNIT_EXPECT_EQ(test, syncs[0], 6UL);
	KUNIT_EXPECT_EQ(test, syncs[1], 6UL);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&probe_bad), 0);

	hits = atomic_long_read(&probe_hits);
	KUNIT_EXPECT_EQ(test, 0, marker_probe_register("markers_x86_chunks",
						       "magic %lu",
						       probe_count, NULL));
	pass_chunks();
	marker_probe_unregister("markers_x86_chunks", probe_count, NULL);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&probe_hits) - hits,
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

	atomic_long_set(&probe_bad, 0);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_x86_hold",
						       "magic %lu",
						       probe_count, NULL));
	hits = atomic_long_read(&probe_hits);
	marker_x86_hold_stats(&st0);
	hold_run(test, false, false, false);
	marker_x86_hold_stats(&st);
	marker_probe_unregister("markers_x86_hold", probe_count, NULL);

	kunit_info(test, "CONFIG_PREEMPTION=%c, CONFIG_PREEMPT_COUNT=%c: %lu held, %lu emulated\n",
		   IS_ENABLED(CONFIG_PREEMPTION) ? 'y' : 'n',
		   IS_ENABLED(CONFIG_PREEMPT_COUNT) ? 'y' : 'n',
		   st.holds - st0.holds,
		   st.emulated - st0.emulated);
	KUNIT_EXPECT_EQ(test, ht.passed, 1);
	KUNIT_EXPECT_EQ(test, ht.held[2], counted);
	KUNIT_EXPECT_EQ(test, st.holds - st0.holds, counted ? 1UL : 0UL);
	KUNIT_EXPECT_EQ(test, st.emulated - st0.emulated, counted ? 0UL : 1UL);
	/* Disarmed: the pass, held or emulated, called no probe. */
	KUNIT_EXPECT_EQ(test, atomic_long_read(&probe_hits), hits);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&probe_bad), 0);
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
	const struct marker_site *s = site_of("markers_x86_hold");

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

	if (current != hd.passer || READ_ONCE(hu.done))
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
	WRITE_ONCE(hd.go, 1);
	hd.ok_step = held_until(held_one, 2000) &&
		     held_until(held_unwound, 2000);
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
	if (held_start(test, &s))
		return;
	memset(&hu, 0, sizeof(hu));
	WRITE_ONCE(marker_x86_test_held, held_unwind_hook);
	WRITE_ONCE(marker_x86_test_step, held_unwind_step);
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, true));
	WRITE_ONCE(marker_x86_test_held, NULL);
	held_stop(test);

	kunit_info(test, "%s unwinder: %d, the site %s\n",
		   IS_ENABLED(CONFIG_UNWINDER_ORC) ? "ORC" : "frame pointer",
		   hu.ret, hu.site ? "named" : "not named");
	KUNIT_EXPECT_TRUE(test, hd.ok_step);
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

	for (c = __start___markers_calls; c < __stop___markers_calls; c++) {
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
 * iterator's, and a pass leaves the count as it found it.
 */
static void markers_x86_test_call_depth(struct kunit *test)
{
	struct site_log l1 = {}, l2 = {};
	unsigned long flags;
	u64 before, after;

	kunit_info(test, "call depth tracking %s\n",
		   cpu_feature_enabled(X86_FEATURE_CALL_DEPTH) ?
		   "on" : "off");
	KUNIT_ASSERT_EQ(test, 0, site_connect(&l1));
	KUNIT_EXPECT_EQ(test, probe_call_target("markers_x86_site"),
			call_dest(probe_site));
	if (cpu_feature_enabled(X86_FEATURE_CALL_DEPTH))
		KUNIT_EXPECT_NE(test, call_dest(probe_site),
				(unsigned long)probe_site);
	local_irq_save(flags);
	before = call_depth();
	pass_site(1);
	after = call_depth();
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, l1.calls, 1);
	KUNIT_EXPECT_EQ_MSG(test, before, after, "depth %llx, then %llx",
			    before, after);

	KUNIT_ASSERT_EQ(test, 0, site_connect(&l2));
	KUNIT_EXPECT_EQ(test, probe_call_target("markers_x86_site"),
			call_dest(marker_iterate));
	local_irq_save(flags);
	before = call_depth();
	pass_site(2);
	after = call_depth();
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, l2.calls, 1);
	KUNIT_EXPECT_EQ(test, before, after);

	site_disconnect(&l2);
	KUNIT_EXPECT_EQ(test, probe_call_target("markers_x86_site"),
			call_dest(probe_site));
	site_disconnect(&l1);
}

#ifdef CONFIG_MARKERS_KUNIT_STRESS
/*
 * Stress: a thread on every CPU, an hrtimer on every CPU and NMIs pass the
 * 4 sites in loops while this thread arms and disarms them 10,000 times.
 * The threads are niced, so that this one gets its CPU when it needs it.
 */
#define STRESS_TOGGLES	10000

static struct stress {
	int stop;
	atomic_long_t passes;
	atomic_long_t timer_passes;
	atomic_long_t nmi_passes;
	atomic_long_t nmi_sent;
} stress;

static DEFINE_PER_CPU(struct hrtimer, stress_timer);
static DEFINE_PER_CPU(atomic_t, stress_nmi_pending);

static int stress_thread(void *data)
{
	long n = 0;

	while (!READ_ONCE(stress.stop)) {
		pass_stress();
		pass_stress_irqsafe();
		pass_stress_process();
		if (!(++n & 7)) {
			/* Contend for the task-only lock, interrupts off. */
			spin_lock_irq(&stress_process);
			spin_unlock_irq(&stress_process);
		}
		if (!(n & 63))
			cond_resched();
	}
	atomic_long_add(n, &stress.passes);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/*
 * Every 2 ms: pass the sites, two of them inside the irq-safe lock, and
 * every 10 ms send the next CPU an NMI.
 */
static enum hrtimer_restart stress_tick(struct hrtimer *t)
{
	int cpu = smp_processor_id();
	int next = cpumask_next_wrap(cpu, cpu_online_mask, cpu, false);
	atomic_t *pending;

	pass_stress();
	pass_stress_irqsafe();
	if (!(atomic_long_inc_return(&stress.timer_passes) % 5) &&
	    next < nr_cpu_ids && next != cpu) {
		pending = per_cpu_ptr(&stress_nmi_pending, next);
		if (!atomic_cmpxchg(pending, 0, 1)) {
			atomic_long_inc(&stress.nmi_sent);
			apic->send_IPI(next, NMI_VECTOR);
		}
	}
	if (READ_ONCE(stress.stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ms_to_ktime(2));
	return HRTIMER_RESTART;
}

static int stress_nmi(unsigned int type, struct pt_regs *regs)
{
	if (!atomic_xchg(this_cpu_ptr(&stress_nmi_pending), 0))
		return NMI_DONE;
	pass_stress();
	atomic_long_inc(&stress.nmi_passes);
	return NMI_HANDLED;
}

static void stress_timer_start(void *info)
{
	struct hrtimer *t = this_cpu_ptr(&stress_timer);

	hrtimer_init(t, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	t->function = stress_tick;
	hrtimer_start(t, ms_to_ktime(1), HRTIMER_MODE_REL_PINNED_HARD);
}

static void markers_x86_test_stress(struct kunit *test)
{
	const struct marker_site *v[STRESS_SITES];
	struct marker_hold_stats st0, st;
	struct task_struct **threads;
	unsigned long start = jiffies;
	int cpu, i, n;

	n = sites_get("markers_x86_stress", v, ARRAY_SIZE(v));
	KUNIT_ASSERT_EQ(test, n, STRESS_SITES);
	threads = kunit_kcalloc(test, nr_cpu_ids, sizeof(*threads),
				GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, threads);
	memset(&stress, 0, sizeof(stress));
	atomic_long_set(&probe_hits, 0);
	atomic_long_set(&probe_bad, 0);
	KUNIT_ASSERT_EQ(test, 0, register_nmi_handler(NMI_LOCAL, stress_nmi, 0,
						      "markers_stress"));
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_x86_stress",
						       "magic %lu",
						       probe_count, NULL));
	for_each_online_cpu(cpu) {
		threads[cpu] = kthread_create_on_cpu(stress_thread, NULL, cpu,
						     "markers_stress/%u");
		if (IS_ERR(threads[cpu]))
			continue;
		sched_set_normal(threads[cpu], MAX_NICE);
		wake_up_process(threads[cpu]);
	}
	on_each_cpu(stress_timer_start, NULL, 1);

	marker_x86_hold_stats_reset_max();
	marker_x86_hold_stats(&st0);
	for (i = 0; i < STRESS_TOGGLES; i++) {
		arch_marker_sites_set(v, n, i & 1);
		if (!(i & 63))
			cond_resched();
		if (i && !(i % 2000))
			kunit_info(test, "%d toggles\n", i);
	}
	marker_x86_hold_stats(&st);

	WRITE_ONCE(stress.stop, 1);
	for_each_online_cpu(cpu) {
		hrtimer_cancel(per_cpu_ptr(&stress_timer, cpu));
		if (!IS_ERR_OR_NULL(threads[cpu]))
			kthread_stop(threads[cpu]);
	}
	/* Leave the sites as their connected marker says: armed. */
	KUNIT_EXPECT_EQ(test, 0, arch_marker_sites_set(v, n, true));
	marker_probe_unregister("markers_x86_stress", probe_count, NULL);
	unregister_nmi_handler(NMI_LOCAL, "markers_stress");

	kunit_info(test, "%d toggles in %u ms: %ld thread, %ld timer, %ld NMI passes; %ld probe hits\n",
		   STRESS_TOGGLES, jiffies_to_msecs(jiffies - start),
		   atomic_long_read(&stress.passes),
		   atomic_long_read(&stress.timer_passes),
		   atomic_long_read(&stress.nmi_passes),
		   atomic_long_read(&probe_hits));
	kunit_info(test, "%lu holds, %lu emulated (%lu late), %lu syncs, longest hold %llu us, longest chunk %llu us (preemptible), longest sync %llu us (preemption off), longest text_poke %llu us (interrupts off)\n",
		   st.holds - st0.holds, st.emulated - st0.emulated,
		   st.late - st0.late, st.syncs - st0.syncs,
		   st.max_hold_us, st.max_window_ns / 1000,
		   st.max_sync_ns / 1000, st.max_poke_ns / 1000);

	KUNIT_EXPECT_TRUE(test, sites_armed(v, n, false));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&probe_bad), 0);
	/* The passers have exited: none is left holding. */
	KUNIT_EXPECT_EQ(test, holding(), 0);
	KUNIT_EXPECT_EQ(test, st.syncs - st0.syncs, 3UL * STRESS_TOGGLES);
	/* Tasks are held only in kernels that preempt them. */
	if (IS_ENABLED(CONFIG_PREEMPTION) &&
	    marker_hold_supported(&boot_cpu_data))
		KUNIT_EXPECT_GT(test, st.holds, st0.holds);
	else
		KUNIT_EXPECT_EQ(test, st.holds, st0.holds);
	KUNIT_EXPECT_GT(test, atomic_long_read(&stress.nmi_passes), 0);
	KUNIT_EXPECT_GT(test, atomic_long_read(&stress.timer_passes), 0);
	KUNIT_EXPECT_LE(test, atomic_long_read(&probe_hits),
			STRESS_SITES * (atomic_long_read(&stress.passes) +
					atomic_long_read(&stress.timer_passes) +
					atomic_long_read(&stress.nmi_passes)));
}

#endif /* CONFIG_MARKERS_KUNIT_STRESS */

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
#ifdef CONFIG_MARKERS_KUNIT_STRESS
	KUNIT_CASE(markers_x86_test_stress),
#endif
	{}
};

static struct kunit_suite markers_x86_suite = {
	.name = "markers_x86",
	.test_cases = markers_x86_cases,
};
#endif /* CONFIG_HAVE_ARCH_MARKERS */

#ifdef CONFIG_HAVE_ARCH_MARKERS
/* The site's bytes, armed or not, with a kprobe's int3 on byte 0 or not. */
static void expect_site(struct kunit *test, const struct marker_site *s,
			bool armed, bool kprobed)
{
	u8 want[MARKER_SITE_SIZE];

	site_bytes(s, armed, want);
	if (kprobed)
		want[0] = INT3_INSN_OPCODE;
	KUNIT_EXPECT_EQ_MSG(test, 0, memcmp((void *)marker_site_code(s), want,
					    MARKER_SITE_SIZE),
			    "%*ph, armed %d kprobed %d", MARKER_SITE_SIZE,
			    (void *)marker_site_code(s), armed, kprobed);
	KUNIT_EXPECT_EQ(test, arch_marker_site_armed(s), armed);
}

/* A site is the 5-byte NOP at rest and a jmp to its block while armed. */
static void markers_x86_test_site_bytes(struct kunit *test)
{
	const struct marker_site *s = site_of("markers_x86_site");
	struct site_log l = {};

	KUNIT_ASSERT_NOT_NULL(test, s);
	expect_site(test, s, false, false);
	KUNIT_ASSERT_EQ(test, 0, site_connect(&l));
	expect_site(test, s, true, false);
	pass_site(9);
	KUNIT_EXPECT_EQ(test, l.calls, 1);
	KUNIT_EXPECT_EQ(test, l.arg, 9);
	KUNIT_EXPECT_EQ(test, 0, site_disconnect(&l));
	expect_site(test, s, false, false);
}

#ifdef CONFIG_KPROBES
/*
 * kprobes keep off a site's bytes, except a probe on its first byte,
 * which the optimizer must not turn into a jump over the site.
 */
static void markers_x86_test_kprobe_reserved(struct kunit *test)
{
	const struct marker_site *s = site_of("markers_x86_site");
	struct kprobe *kp;
	u8 *code;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	code = (u8 *)marker_site_code(s);
	kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kp);
	for (i = 1; i < MARKER_SITE_SIZE; i++) {
		memset(kp, 0, sizeof(*kp));
		kp->addr = (kprobe_opcode_t *)(code + i);
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL, register_kprobe(kp),
				    "kprobe on byte %d", i);
	}

	memset(kp, 0, sizeof(*kp));
	kp->addr = (kprobe_opcode_t *)code;
	kp->pre_handler = count_kprobe;
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(kp));
	msleep(200);		/* the optimizer runs after a delay */
	KUNIT_EXPECT_FALSE(test, kp->flags & KPROBE_FLAG_OPTIMIZED);
	expect_site(test, s, false, true);
	unregister_kprobe(kp);
	expect_site(test, s, false, false);
}

/*
 * A kprobe on a site's first byte fires on every pass, armed or not, and
 * the site is armed and disarmed under it: kprobes emulate what the site
 * is now, and put the right byte back when they go.
 */
static void markers_x86_test_kprobe_arm(struct kunit *test)
{
	const struct marker_site *s = site_of("markers_x86_site");
	struct site_log l = {};
	struct kprobe *kp;

	KUNIT_ASSERT_NOT_NULL(test, s);
	kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kp);
	kp->addr = (void *)marker_site_code(s);
	kp->pre_handler = count_kprobe;
	atomic_long_set(&kprobe_hits, 0);
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(kp));
	expect_site(test, s, false, true);

	/* Arm under the kprobe. */
	KUNIT_ASSERT_EQ(test, 0, site_connect(&l));
	expect_site(test, s, true, true);
	pass_site(1);
	pass_site(2);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&kprobe_hits), 2);
	KUNIT_EXPECT_EQ(test, l.calls, 2);

	/* Disarm under it. */
	site_disconnect(&l);
	expect_site(test, s, false, true);
	pass_site(3);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&kprobe_hits), 3);
	KUNIT_EXPECT_EQ(test, l.calls, 2);

	/* Arm while the kprobe is disabled; it fires once enabled. */
	KUNIT_EXPECT_EQ(test, 0, disable_kprobe(kp));
	expect_site(test, s, false, false);
	KUNIT_ASSERT_EQ(test, 0, site_connect(&l));
	expect_site(test, s, true, false);
	KUNIT_EXPECT_EQ(test, 0, enable_kprobe(kp));
	expect_site(test, s, true, true);
	pass_site(4);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&kprobe_hits), 4);
	KUNIT_EXPECT_EQ(test, l.calls, 3);

	/* The kprobe goes while armed: it puts the jmp's byte back. */
	unregister_kprobe(kp);
	expect_site(test, s, true, false);
	pass_site(5);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&kprobe_hits), 4);
	KUNIT_EXPECT_EQ(test, l.calls, 4);
	site_disconnect(&l);
	expect_site(test, s, false, false);
}
#endif /* CONFIG_KPROBES */
#endif /* CONFIG_HAVE_ARCH_MARKERS */

#ifdef CONFIG_X86_LOCAL_APIC
static atomic_t nmi_pending;
static int nmi_cpu;

static int site_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	if (!atomic_read(&nmi_pending) || smp_processor_id() != nmi_cpu)
		return NMI_DONE;
	pass_site(300);
	atomic_set_release(&nmi_pending, 0);
	return NMI_HANDLED;
}

/* A marker passed in an NMI handler calls its probe, in NMI context. */
static void markers_x86_test_nmi(struct kunit *test)
{
	struct site_log l = {};
	int i;

	nmi_cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (nmi_cpu >= nr_cpu_ids)
		kunit_skip(test, "needs a second CPU");
	KUNIT_ASSERT_EQ(test, 0, register_nmi_handler(NMI_LOCAL,
						      site_nmi_handler, 0,
						      "markers_x86_site"));
	KUNIT_ASSERT_EQ(test, 0, site_connect(&l));
	atomic_set(&nmi_pending, 1);
	apic->send_IPI_mask(cpumask_of(nmi_cpu), NMI_VECTOR);
	for (i = 0; i < 50 && atomic_read_acquire(&nmi_pending); i++)
		msleep(20);
	site_disconnect(&l);
	unregister_nmi_handler(NMI_LOCAL, "markers_x86_site");

	KUNIT_EXPECT_EQ(test, atomic_read(&nmi_pending), 0);
	KUNIT_EXPECT_EQ(test, l.calls, 1);
	KUNIT_EXPECT_EQ(test, l.arg, 300);
	KUNIT_EXPECT_TRUE(test, l.in_nmi);
}
#endif

static struct kunit_case markers_x86_site_cases[] = {
#ifdef CONFIG_HAVE_ARCH_MARKERS
	KUNIT_CASE(markers_x86_test_site_bytes),
#ifdef CONFIG_KPROBES
	KUNIT_CASE(markers_x86_test_kprobe_reserved),
	KUNIT_CASE(markers_x86_test_kprobe_arm),
#endif
#endif
#ifdef CONFIG_X86_LOCAL_APIC
	KUNIT_CASE(markers_x86_test_nmi),
#endif
	{}
};

static struct kunit_suite markers_x86_site_suite = {
	.name = "markers_x86_site",
	.test_cases = markers_x86_site_cases,
};

#ifdef CONFIG_HAVE_ARCH_MARKERS
kunit_test_suites(&markers_x86_site_suite, &markers_x86_hold_suite,
		  &markers_x86_hazard_suite, &markers_x86_suite);
#else
kunit_test_suites(&markers_x86_site_suite);
#endif

MODULE_DESCRIPTION("KUnit tests for x86 marker site patching");
MODULE_LICENSE("GPL");
