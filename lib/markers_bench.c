// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark of kernel markers against what a kernel developer would use
 * instead: tracepoints, static branches, a flag check and kprobes.  Not a
 * test: a script loads it and writes commands to
 * /sys/kernel/debug/markers_bench/run; each timing is printed as
 *
 *   markers_bench: row LABEL TICKS
 *
 * TICKS being the median over @runs runs of the clock's ticks per
 * iteration of a loop of @loops iterations, times 100.  The clock is the
 * TSC on x86 and ktime's ns elsewhere.  Commands:
 *
 *   time LOOP LABEL      time LOOP (see bench_loops[]) and print a row
 *   probes WHAT N        connect N empty probes to WHAT (mark, trace_mark,
 *                        tp), disconnecting the previous ones
 *   key 0|1, flag 0|1    switch the static branch or the flag of the loops
 *   kprobe 0|1           a kprobe with an empty handler on the MARK_SYM
 *                        address of the site in the "mark" loop
 *   arm                  arming and disarming 1 to 10,000 sites (kprobes:
 *                        up to 100), each operation printed as
 *                        "arm WHAT SITES TICKS SYNC_ROUNDS LONGEST_HOLD_NS"
 *
 * kprobe and arm need the architecture's own sites (HAVE_ARCH_MARKERS:
 * MARK_SYM, the hold statistics); elsewhere they are refused.
 *
 * A command is one write of one line, its words made of letters, digits
 * and "_./-"; anything else is refused with -EINVAL and a log line.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/marker.h>
#include <linux/marker_test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#ifdef CONFIG_X86
#include <asm/msr.h>
#include <asm/tsc.h>
#endif

#define CREATE_TRACE_POINTS
#include "markers_bench_trace.h"

#define BENCH_MAX_LOOPS		1000000
#define BENCH_MAX_RUNS		31
#define BENCH_MAX_PROBES	4
#define BENCH_MAX_KPROBES	100

/*
 * loops and runs: a run spins with interrupts off, so both are bounded,
 * and a value out of bounds is refused, leaving the old one.
 */
static int bench_param_set(const char *val, const struct kernel_param *kp,
			   unsigned int max)
{
	unsigned int n;

	if (kstrtouint(val, 0, &n) || !n || n > max) {
		pr_err("%s=%*pE refused: from 1 to %u\n", kp->name,
		       (int)strcspn(val, "\n"), val, max);
		return -EINVAL;
	}
	WRITE_ONCE(*(unsigned int *)kp->arg, n);
	return 0;
}

static int bench_loops_set(const char *val, const struct kernel_param *kp)
{
	return bench_param_set(val, kp, BENCH_MAX_LOOPS);
}

static int bench_runs_set(const char *val, const struct kernel_param *kp)
{
	return bench_param_set(val, kp, BENCH_MAX_RUNS);
}

static const struct kernel_param_ops bench_loops_ops = {
	.set = bench_loops_set,
	.get = param_get_uint,
};

static const struct kernel_param_ops bench_runs_ops = {
	.set = bench_runs_set,
	.get = param_get_uint,
};

static unsigned int loops = 10000;
module_param_cb(loops, &bench_loops_ops, &loops, 0644);
MODULE_PARM_DESC(loops, "Iterations of each timed loop, 1 to 1,000,000");

static unsigned int runs = 7;
module_param_cb(runs, &bench_runs_ops, &runs, 0644);
MODULE_PARM_DESC(runs, "Runs of each timing, 1 to 31; the median is printed");

static DEFINE_STATIC_KEY_FALSE(bench_key);
static int bench_flag;

/* What the recording loops record; kprobe events fetch them by symbol. */
static u32 bench_seq __used;
static u64 bench_value __used = 0x123456789aULL;
static const char bench_name[] = "markers-bench";
static const char *bench_name_p __used = bench_name;

/* The work every enabled contender in the "pass" loops does. */
static noinline void bench_target(u32 i)
{
	asm volatile("" : : "r" (i));
}

static noinline void loop_empty(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		barrier();
}

static noinline void loop_mark(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		MARK(bench_pass, "i %u", i);
		barrier();
	}
}

static noinline void loop_trace_mark(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		_trace_mark(bench_pass_unpatched, "i %u", i);
		barrier();
	}
}

static noinline void loop_tp(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		trace_bench_pass(i);
		barrier();
	}
}

static noinline void loop_key(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (static_branch_unlikely(&bench_key))
			bench_target(i);
		barrier();
	}
}

static noinline void loop_flag(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (unlikely(READ_ONCE(bench_flag)))
			bench_target(i);
		barrier();
	}
}

static noinline void loop_rec_mark(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		WRITE_ONCE(bench_seq, i);
		MARK(bench_rec, "seq %u value %llu name %s", i, bench_value,
		     bench_name);
		barrier();
	}
}

static noinline void loop_rec_event(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		WRITE_ONCE(bench_seq, i);
		trace_bench_rec(i, bench_value, bench_name);
		barrier();
	}
}

/*
 * The same values through the other ways 6.12 has of instrumenting a
 * place: a marker whose name no tracepoint has (a tp_btf program on
 * "bench_rec" takes the tracepoint), a function that fprobe and kprobe
 * events can fetch the arguments of (not cloned, so that they find it by
 * its name and its BTF), and a pr_debug() site.
 */
static noinline void loop_rec_typed(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		WRITE_ONCE(bench_seq, i);
		MARK(bench_typed, "seq %u value %llu name %s", i, bench_value,
		     bench_name);
		barrier();
	}
}

static noinline __noclone void
bench_rec_fn(u32 seq, u64 value, const char *name)
{
	asm volatile("" : : "r" (seq), "r" (value), "r" (name));
}

static noinline void loop_rec_fn(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		WRITE_ONCE(bench_seq, i);
		bench_rec_fn(i, bench_value, bench_name);
		barrier();
	}
}

static noinline void loop_rec_debug(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		WRITE_ONCE(bench_seq, i);
		pr_debug("seq %u value %llu name %s\n", i, bench_value,
			 bench_name);
		barrier();
	}
}

static const struct {
	const char *name;
	void (*fn)(unsigned int n);
} bench_loops[] = {
	{ "empty", loop_empty },
	{ "mark", loop_mark },
	{ "trace_mark", loop_trace_mark },
	{ "tp", loop_tp },
	{ "key", loop_key },
	{ "flag", loop_flag },
	{ "rec_mark", loop_rec_mark },
	{ "rec_event", loop_rec_event },
	{ "rec_typed", loop_rec_typed },
	{ "rec_fn", loop_rec_fn },
	{ "rec_debug", loop_rec_debug },
};

/*
 * Functions whose size a script reads from the module: 10 sites of
 * each kind, against none.  The loops are unrolled completely, so each
 * iteration is a site of its own, like the copies of an inlined function.
 */
static noinline __used void markers_bench_size_none(u32 i)
{
	int k;

#pragma GCC unroll 10
	for (k = 0; k < 10; k++)
		barrier();
}

static noinline __used void markers_bench_size_mark(u32 i)
{
	int k;

#pragma GCC unroll 10
	for (k = 0; k < 10; k++) {
		MARK(bench_size, "i %u", i);
		barrier();
	}
}

static noinline __used void markers_bench_size_tp(u32 i)
{
	int k;

#pragma GCC unroll 10
	for (k = 0; k < 10; k++) {
		trace_bench_pass(i);
		barrier();
	}
}

static noinline __used void markers_bench_size_key(u32 i)
{
	int k;

#pragma GCC unroll 10
	for (k = 0; k < 10; k++) {
		if (static_branch_unlikely(&bench_key))
			bench_target(i);
		barrier();
	}
}

#ifdef CONFIG_HAVE_ARCH_MARKERS
/*
 * The sites the arming figures are taken on: one marker and one key per
 * size.
 */
static int bench_sink;

static DEFINE_STATIC_KEY_FALSE(key_n1);
static DEFINE_STATIC_KEY_FALSE(key_n10);
static DEFINE_STATIC_KEY_FALSE(key_n100);
static DEFINE_STATIC_KEY_FALSE(key_n1000);
static DEFINE_STATIC_KEY_FALSE(key_n10000);

static noinline void marks_n1(void)
{
	MARK(bench_n1, MARK_NOARGS);
}

static noinline void keys_n1(void)
{
	if (static_branch_unlikely(&key_n1))
		bench_sink++;
}

static noinline void marks_n10(void)
{
	int k;

#pragma GCC unroll 10
	for (k = 0; k < 10; k++)
		MARK(bench_n10, MARK_NOARGS);
}

static noinline void keys_n10(void)
{
	int k;

#pragma GCC unroll 10
	for (k = 0; k < 10; k++)
		if (static_branch_unlikely(&key_n10))
			bench_sink++;
}

static noinline void marks_n100(void)
{
	int k;

#pragma GCC unroll 100
	for (k = 0; k < 100; k++)
		MARK(bench_n100, MARK_NOARGS);
}

static noinline void keys_n100(void)
{
	int k;

#pragma GCC unroll 100
	for (k = 0; k < 100; k++)
		if (static_branch_unlikely(&key_n100))
			bench_sink++;
}

static noinline void marks_n1000(void)
{
	int k;

#pragma GCC unroll 1000
	for (k = 0; k < 1000; k++)
		MARK(bench_n1000, MARK_NOARGS);
}

static noinline void keys_n1000(void)
{
	int k;

#pragma GCC unroll 1000
	for (k = 0; k < 1000; k++)
		if (static_branch_unlikely(&key_n1000))
			bench_sink++;
}

/*
 * 10,000 sites, in ten functions of 1,000: building one function of
 * 10,000 crashed (a segfault in the object's build).  The functions
 * differ (by @k) so that GCC does not fold them into one.
 */
static __always_inline void marks_1000(int k)
{
	int j;

#pragma GCC unroll 1000
	for (j = 0; j < 1000; j++)
		MARK(bench_n10000, MARK_NOARGS);
	WRITE_ONCE(bench_sink, k);
}

static __always_inline void keys_1000(int k)
{
	int j;

#pragma GCC unroll 1000
	for (j = 0; j < 1000; j++)
		if (static_branch_unlikely(&key_n10000))
			bench_sink++;
	WRITE_ONCE(bench_sink, k);
}

static noinline void marks_n10000_0(void)
{
	marks_1000(0);
}

static noinline void keys_n10000_0(void)
{
	keys_1000(0);
}

static noinline void marks_n10000_1(void)
{
	marks_1000(1);
}

static noinline void keys_n10000_1(void)
{
	keys_1000(1);
}

static noinline void marks_n10000_2(void)
{
	marks_1000(2);
}

static noinline void keys_n10000_2(void)
{
	keys_1000(2);
}

static noinline void marks_n10000_3(void)
{
	marks_1000(3);
}

static noinline void keys_n10000_3(void)
{
	keys_1000(3);
}

static noinline void marks_n10000_4(void)
{
	marks_1000(4);
}

static noinline void keys_n10000_4(void)
{
	keys_1000(4);
}

static noinline void marks_n10000_5(void)
{
	marks_1000(5);
}

static noinline void keys_n10000_5(void)
{
	keys_1000(5);
}

static noinline void marks_n10000_6(void)
{
	marks_1000(6);
}

static noinline void keys_n10000_6(void)
{
	keys_1000(6);
}

static noinline void marks_n10000_7(void)
{
	marks_1000(7);
}

static noinline void keys_n10000_7(void)
{
	keys_1000(7);
}

static noinline void marks_n10000_8(void)
{
	marks_1000(8);
}

static noinline void keys_n10000_8(void)
{
	keys_1000(8);
}

static noinline void marks_n10000_9(void)
{
	marks_1000(9);
}

static noinline void keys_n10000_9(void)
{
	keys_1000(9);
}

static void marks_n10000(void)
{
	marks_n10000_0();
	marks_n10000_1();
	marks_n10000_2();
	marks_n10000_3();
	marks_n10000_4();
	marks_n10000_5();
	marks_n10000_6();
	marks_n10000_7();
	marks_n10000_8();
	marks_n10000_9();
}

static void keys_n10000(void)
{
	keys_n10000_0();
	keys_n10000_1();
	keys_n10000_2();
	keys_n10000_3();
	keys_n10000_4();
	keys_n10000_5();
	keys_n10000_6();
	keys_n10000_7();
	keys_n10000_8();
	keys_n10000_9();
}

static const struct bench_size {
	unsigned int sites;
	const char *marker;
	struct static_key_false *key;
	void (*marks)(void);
	void (*keys)(void);
} bench_sizes[] = {
	{ 1, "bench_n1", &key_n1, marks_n1, keys_n1 },
	{ 10, "bench_n10", &key_n10, marks_n10, keys_n10 },
	{ 100, "bench_n100", &key_n100, marks_n100, keys_n100 },
	{ 1000, "bench_n1000", &key_n1000, marks_n1000, keys_n1000 },
	{ 10000, "bench_n10000", &key_n10000, marks_n10000, keys_n10000 },
};
#endif /* CONFIG_HAVE_ARCH_MARKERS */

/* Probes: empty, told apart by their private data. */
static int bench_priv[BENCH_MAX_PROBES];
static const char *bench_probed;	/* bench_mutex */
static unsigned int bench_nr_probes;	/* bench_mutex */

static void bench_probe(void *probe_private, void *call_private,
			const char *fmt, va_list *args)
{
}

static void bench_tp_probe(void *data, u32 i)
{
}

/*
 * The clock of the timings: the TSC on x86; elsewhere ktime's ns, in
 * steps of the clocksource's tick.
 */
static __always_inline u64 bench_clock(void)
{
#ifdef CONFIG_X86
	return rdtsc_ordered();
#else
	return ktime_get_ns();
#endif
}

static unsigned int bench_clock_khz(void)
{
#ifdef CONFIG_X86
	return tsc_khz;
#else
	return 1000000;		/* ns: 1 GHz */
#endif
}

static u64 bench_time_one(void (*fn)(unsigned int n), unsigned int n)
{
	unsigned long flags;
	u64 t0, t1;

	local_irq_save(flags);
	t0 = bench_clock();
	fn(n);
	t1 = bench_clock();
	local_irq_restore(flags);
	return t1 - t0;
}

static int bench_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 bench_median(u64 *v, unsigned int nr)
{
	sort(v, nr, sizeof(*v), bench_cmp_u64, NULL);
	return v[nr / 2];
}

static int bench_time(const char *loop, const char *label)
{
	/* One value each for the whole run, whatever is written meanwhile. */
	unsigned int i, n = READ_ONCE(loops), nr = READ_ONCE(runs);
	u64 t[BENCH_MAX_RUNS];
	void (*fn)(unsigned int n) = NULL;

	for (i = 0; i < ARRAY_SIZE(bench_loops); i++)
		if (!strcmp(loop, bench_loops[i].name))
			fn = bench_loops[i].fn;
	if (!fn) {
		pr_err("time %s: no such loop\n", loop);
		return -EINVAL;
	}
	fn(n);	/* warm up */
	for (i = 0; i < nr; i++)
		t[i] = bench_time_one(fn, n);
	pr_info("row %s %llu\n", label,
		div_u64(bench_median(t, nr) * 100, n));
	return 0;
}

static void bench_probes_off(void)
{
	unsigned int k;

	for (k = 0; k < bench_nr_probes; k++) {
		if (!strcmp(bench_probed, "tp"))
			unregister_trace_bench_pass(bench_tp_probe,
						    &bench_priv[k]);
		else
			marker_probe_unregister(bench_probed, bench_probe,
						&bench_priv[k]);
	}
	if (bench_nr_probes)
		tracepoint_synchronize_unregister();
	bench_nr_probes = 0;
}

static int bench_probes(const char *what, unsigned int nr)
{
	const char *name;
	unsigned int k;
	int ret = 0;

	if (!strcmp(what, "mark"))
		name = "bench_pass";
	else if (!strcmp(what, "trace_mark"))
		name = "bench_pass_unpatched";
	else if (!strcmp(what, "tp"))
		name = "tp";
	else
		name = NULL;
	if (!name || nr > BENCH_MAX_PROBES) {
		pr_err("probes %s %u: what is mark, trace_mark or tp; at most %d\n",
		       what, nr, BENCH_MAX_PROBES);
		return -EINVAL;
	}
	bench_probes_off();
	bench_probed = name;
	for (k = 0; k < nr && !ret; k++) {
		if (!strcmp(name, "tp"))
			ret = register_trace_bench_pass(bench_tp_probe,
							&bench_priv[k]);
		else
			ret = marker_probe_register(name, "i %u", bench_probe,
						    &bench_priv[k]);
		if (!ret)
			bench_nr_probes++;
	}
	if (ret)
		pr_err("probes %s %u: error %d\n", what, nr, ret);
	return ret;
}

#ifdef CONFIG_HAVE_ARCH_MARKERS
static int bench_kprobe_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static struct kprobe bench_kp = { .pre_handler = bench_kprobe_pre };
static bool bench_kp_on;	/* bench_mutex */

/* The address of the @nth site of @name in this module, or 0. */
static unsigned long bench_site_addr(const char *name, unsigned int nth)
{
	const struct marker_site *s = THIS_MODULE->marker_sites;
	unsigned int i;

	for (i = 0; i < THIS_MODULE->num_marker_sites; i++, s++)
		if (!strcmp(marker_site_marker(s)->name, name) && !nth--)
			return marker_site_code(s);
	return 0;
}

static int bench_kprobe(bool on)
{
	int ret;

	if (on == bench_kp_on)
		return 0;
	if (!on) {
		unregister_kprobe(&bench_kp);
		bench_kp_on = false;
		return 0;
	}
	memset(&bench_kp, 0, sizeof(bench_kp));
	bench_kp.pre_handler = bench_kprobe_pre;
	bench_kp.addr = (kprobe_opcode_t *)bench_site_addr("bench_pass", 0);
	ret = register_kprobe(&bench_kp);
	if (ret) {
		pr_err("kprobe at the bench_pass site: error %d\n", ret);
		return ret;
	}
	bench_kp_on = true;
	return 0;
}

/*
 * Counts do_sync_core(), which text_poke_sync() runs on every CPU: the
 * sync rounds of markers, static keys and kprobes, times the number of
 * CPUs.
 */
static atomic_long_t bench_syncs;

static int bench_sync_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_long_inc(&bench_syncs);
	return 0;
}

static struct kprobe bench_sync_kp = {
	.symbol_name = "do_sync_core",
	.pre_handler = bench_sync_pre,
};

/* A second CPU passing the sites while they are patched. */
static const struct bench_size *bench_passer_size;
static bool bench_passer_keys;

static int bench_passer(void *data)
{
	while (!kthread_should_stop()) {
		const struct bench_size *sz = READ_ONCE(bench_passer_size);

		if (sz && READ_ONCE(bench_passer_keys))
			sz->keys();
		else if (sz)
			sz->marks();
		cond_resched();
	}
	return 0;
}

static unsigned long bench_sync_count(void)
{
	return atomic_long_read(&bench_syncs) / num_online_cpus();
}

/* Time @op, a sync count and the longest hold; print one row. */
static int bench_arm_row(const char *what, const struct bench_size *sz,
			 int (*op)(const struct bench_size *sz))
{
	struct marker_hold_stats st;
	unsigned long syncs;
	u64 t0, t1;
	int ret;

	marker_x86_hold_stats_reset_max();
	syncs = bench_sync_count();
	t0 = bench_clock();
	ret = op(sz);
	t1 = bench_clock();
	if (ret) {
		pr_err("arm: %s %u sites: error %d\n", what, sz->sites, ret);
		return ret;
	}
	marker_x86_hold_stats(&st);
	pr_info("arm %s %u %llu %lu %llu\n", what, sz->sites, t1 - t0,
		bench_sync_count() - syncs, st.max_hold_ns);
	return 0;
}

static int bench_mark_on(const struct bench_size *sz)
{
	return marker_probe_register(sz->marker, MARK_NOARGS, bench_probe,
				     NULL);
}

static int bench_mark_off(const struct bench_size *sz)
{
	return marker_probe_unregister(sz->marker, bench_probe, NULL);
}

static int bench_key_on(const struct bench_size *sz)
{
	static_branch_enable(sz->key);
	return 0;
}

static int bench_key_off(const struct bench_size *sz)
{
	static_branch_disable(sz->key);
	return 0;
}

static struct kprobe *bench_kps;
static struct kprobe **bench_kpp;

static int bench_kprobes_on(const struct bench_size *sz)
{
	unsigned int i;

	for (i = 0; i < sz->sites; i++) {
		memset(&bench_kps[i], 0, sizeof(bench_kps[i]));
		bench_kps[i].addr =
			(kprobe_opcode_t *)bench_site_addr(sz->marker, i);
		bench_kps[i].pre_handler = bench_kprobe_pre;
		bench_kpp[i] = &bench_kps[i];
	}
	return register_kprobes(bench_kpp, sz->sites);
}

static int bench_kprobes_off(const struct bench_size *sz)
{
	unregister_kprobes(bench_kpp, sz->sites);
	return 0;
}

static int bench_synchronize(const struct bench_size *sz)
{
	synchronize_rcu();
	return 0;
}

static int bench_arm_size(const struct bench_size *sz)
{
	int ret;

	WRITE_ONCE(bench_passer_keys, false);
	WRITE_ONCE(bench_passer_size, sz);
	ret = bench_arm_row("mark-arm", sz, bench_mark_on) ?:
	      bench_arm_row("mark-disarm", sz, bench_mark_off);
	/*
	 * Registering a kprobe decodes its whole function, looking each
	 * instruction up in the module's kallsyms, linearly: with 11,111
	 * MARK_SYM symbols here, each registration is slow: kprobes are
	 * timed on up to BENCH_MAX_KPROBES sites.
	 */
	if (sz->sites <= BENCH_MAX_KPROBES)
		ret = ret ?: bench_arm_row("kprobes-register", sz,
					   bench_kprobes_on) ?:
			     bench_arm_row("kprobes-unregister", sz,
					   bench_kprobes_off);
	WRITE_ONCE(bench_passer_keys, true);
	ret = ret ?: bench_arm_row("key-enable", sz, bench_key_on) ?:
		     bench_arm_row("key-disable", sz, bench_key_off);
	WRITE_ONCE(bench_passer_size, NULL);
	return ret;
}

/* On the first CPU, while the passer runs on the last. */
static long bench_arm_all(void *data)
{
	unsigned int i, r, nr = clamp(runs, 1U, BENCH_MAX_RUNS);
	int ret = 0;

	for (r = 0; r < nr && !ret; r++)
		for (i = 0; i < ARRAY_SIZE(bench_sizes) && !ret; i++)
			ret = bench_arm_size(&bench_sizes[i]);
	if (!ret)
		ret = bench_arm_row("synchronize_rcu", &bench_sizes[0],
				    bench_synchronize);
	return ret;
}

static int bench_arm(void)
{
	unsigned int first = cpumask_first(cpu_online_mask);
	unsigned int last = cpumask_last(cpu_online_mask);
	struct task_struct *passer = NULL;
	int ret;

	bench_kps = kvcalloc(BENCH_MAX_KPROBES, sizeof(*bench_kps), GFP_KERNEL);
	bench_kpp = kvcalloc(BENCH_MAX_KPROBES, sizeof(*bench_kpp), GFP_KERNEL);
	ret = -ENOMEM;
	if (!bench_kps || !bench_kpp)
		goto free;
	ret = register_kprobe(&bench_sync_kp);
	if (ret) {
		pr_err("arm: no kprobe on do_sync_core(): error %d\n", ret);
		goto free;
	}
	if (last != first) {
		passer = kthread_create(bench_passer, NULL, "bench_passer");
		if (IS_ERR(passer)) {
			ret = PTR_ERR(passer);
			goto unregister;
		}
		kthread_bind(passer, last);
		wake_up_process(passer);
	}
	pr_info("arm: %s\n", passer ? "a second CPU passes the sites" :
		"one CPU: no hold figures");
	ret = work_on_cpu(first, bench_arm_all, NULL);
	if (passer)
		kthread_stop(passer);
unregister:
	unregister_kprobe(&bench_sync_kp);
free:
	kvfree(bench_kps);
	kvfree(bench_kpp);
	return ret;
}

/*
 * kallsyms' address lookups skip MARK_SYMs by a map built at boot.  Time
 * them naming the frames of a stack trace 16 deep, as a stack dump does.
 * The frames are vmlinux's return addresses on the way here, repeated:
 * the module's own would time the module's symbol table, which is
 * searched apart.  The guest script times a /proc/kallsyms read.
 */
#define BENCH_FRAMES	16

static unsigned long bench_frames[BENCH_FRAMES];

static void bench_name_frames(unsigned int n)
{
	char buf[KSYM_SYMBOL_LEN];
	unsigned int i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < BENCH_FRAMES; j++)
			sprint_symbol(buf, bench_frames[j]);
}

/* vmlinux's frames of this call, repeated to BENCH_FRAMES; 0 if none. */
static unsigned int bench_vmlinux_frames(void)
{
	unsigned long trace[2 * BENCH_FRAMES];
	unsigned int i, nr, own = 0;

	nr = stack_trace_save(trace, ARRAY_SIZE(trace), 0);
	for (i = 0; i < nr; i++)
		if (!within_module(trace[i], THIS_MODULE))
			trace[own++] = trace[i];
	for (i = 0; own && i < BENCH_FRAMES; i++)
		bench_frames[i] = trace[i % own];
	return own;
}

static int bench_kallsyms(void)
{
	/* A lookup costs thousands of instructions: 100 traces at most. */
	unsigned int i, own, n = min(READ_ONCE(loops), 100U);
	unsigned int nr = READ_ONCE(runs);
	u64 t[BENCH_MAX_RUNS];

	own = bench_vmlinux_frames();
	if (!own) {
		pr_err("kallsyms: no vmlinux frame to name\n");
		return -ENOENT;
	}
	bench_name_frames(1);	/* warm up */
	for (i = 0; i < nr; i++)
		t[i] = bench_time_one(bench_name_frames, n);
	pr_info("kallsyms map frames %u of %u stack %llu\n", BENCH_FRAMES,
		own, div_u64(bench_median(t, nr), n));
	return 0;
}
#else
static int bench_kprobe(bool on)
{
	if (on)
		pr_err("kprobe: no MARK_SYM sites on this architecture\n");
	return on ? -EOPNOTSUPP : 0;
}

static int bench_arm(void)
{
	pr_err("arm: no arming figures without the architecture's own sites\n");
	return -EOPNOTSUPP;
}

static int bench_kallsyms(void)
{
	pr_err("kallsyms: no MARK_SYMs to skip on this architecture\n");
	return -EOPNOTSUPP;
}
#endif /* CONFIG_HAVE_ARCH_MARKERS */

static DEFINE_MUTEX(bench_mutex);	/* serializes commands */

#define BENCH_MAX_WORDS	4

/*
 * Split @cmd at spaces into at most BENCH_MAX_WORDS words, each made of
 * letters, digits and "_./-" only (so that a label is safe to log).
 * Returns the number of words, or -EINVAL.
 */
static int bench_words(char *cmd, char **w)
{
	int n = 0;
	char *p, *c;

	while ((p = strsep(&cmd, " "))) {
		if (!*p)
			continue;
		for (c = p; *c && (isalnum(*c) || strchr("_./-", *c)); c++)
			;
		if (n == BENCH_MAX_WORDS || *c)
			return -EINVAL;
		w[n++] = p;
	}
	return n;
}

static int bench_cmd(char *cmd)
{
	char *w[BENCH_MAX_WORDS];
	int nw = bench_words(cmd, w);
	unsigned int n;

	if (nw == 3 && !strcmp(w[0], "time"))
		return bench_time(w[1], w[2]);
	if (nw == 3 && !strcmp(w[0], "probes") && !kstrtouint(w[2], 10, &n))
		return bench_probes(w[1], n);
	if (nw == 2 && !strcmp(w[0], "key") && !kstrtouint(w[1], 10, &n)) {
		if (n)
			static_branch_enable(&bench_key);
		else
			static_branch_disable(&bench_key);
		return 0;
	}
	if (nw == 2 && !strcmp(w[0], "flag") && !kstrtouint(w[1], 10, &n)) {
		WRITE_ONCE(bench_flag, !!n);
		return 0;
	}
	if (nw == 2 && !strcmp(w[0], "kprobe") && !kstrtouint(w[1], 10, &n))
		return bench_kprobe(n);
	if (nw == 1 && !strcmp(w[0], "arm"))
		return bench_arm();
	if (nw == 1 && !strcmp(w[0], "kallsyms"))
		return bench_kallsyms();
	return 1;
}

static ssize_t bench_run_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char buf[64], cmd[64], *s;
	int ret;

	if (count >= sizeof(buf)) {
		pr_err("a write of %zu bytes: a command has at most %zu\n",
		       count, sizeof(buf) - 1);
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	/* One line, and no NUL in it. */
	s = strlen(buf) == count ? strim(buf) : NULL;
	if (!s || strchr(s, '\n')) {
		pr_err("command \"%*pE\" refused: one line, no NUL byte\n",
		       (int)count, buf);
		return -EINVAL;
	}
	strscpy(cmd, s, sizeof(cmd));
	mutex_lock(&bench_mutex);
	ret = bench_cmd(s);
	mutex_unlock(&bench_mutex);
	if (ret == 1) {
		pr_err("command \"%*pE\" refused: unknown, or bad words\n",
		       (int)strlen(cmd), cmd);
		ret = -EINVAL;
	}
	return ret ?: count;
}

static const struct file_operations bench_run_fops = {
	.owner = THIS_MODULE,
	.write = bench_run_write,
};

static struct dentry *bench_dir;

static int __init markers_bench_init(void)
{
	bench_dir = debugfs_create_dir("markers_bench", NULL);
	debugfs_create_file("run", 0200, bench_dir, NULL, &bench_run_fops);
	pr_info("clock_khz %u loops %u runs %u\n", bench_clock_khz(), loops,
		runs);
	return 0;
}

static void __exit markers_bench_exit(void)
{
	debugfs_remove_recursive(bench_dir);
	mutex_lock(&bench_mutex);
	bench_probes_off();
	bench_kprobe(false);
	static_branch_disable(&bench_key);
	mutex_unlock(&bench_mutex);
}

module_init(markers_bench_init);
module_exit(markers_bench_exit);
MODULE_DESCRIPTION("Benchmark of kernel markers");
MODULE_LICENSE("GPL");
