// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the kernel markers core.
 */

#include <kunit/test.h>
#include <linux/context_tracking.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/error-injection.h>
#include <linux/hardirq.h>
#include <linux/irq_work.h>
#include <linux/interrupt.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/kprobes.h>
#include <linux/marker.h>
#include <linux/marker_test.h>
#include <linux/rcupdate.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#ifdef CONFIG_ARM64
#include <asm/insn.h>
#endif

#define MAX_CALLS 8

struct probe_log {
	int calls;
	int order[MAX_CALLS];
	long long args[MAX_CALLS];
	const char *fmt;
	void *call_private;
	bool in_hardirq;
	bool in_softirq;
};

static struct probe_log *log_of(void *probe_private)
{
	return probe_private;
}

static void log_call(struct probe_log *l, int who, long long arg)
{
	if (l->calls < MAX_CALLS) {
		l->order[l->calls] = who;
		l->args[l->calls] = arg;
	}
	l->calls++;
}

/* Probe for the "value %d" format: records its argument. */
static void probe_int(void *probe_private, void *call_private,
		      const char *fmt, va_list *args)
{
	struct probe_log *l = log_of(probe_private);

	l->fmt = fmt;
	l->call_private = call_private;
	l->in_hardirq = in_hardirq();
	l->in_softirq = in_serving_softirq();
	log_call(l, 1, va_arg(*args, int));
}

/* Probes that record which of them ran, for the ordering test. */
static void probe_a(void *p, void *c, const char *f, va_list *a)
{
	log_call(p, 1, 0);
}

static void probe_b(void *p, void *c, const char *f, va_list *a)
{
	log_call(p, 2, 0);
}

static void probe_c(void *p, void *c, const char *f, va_list *a)
{
	log_call(p, 3, 0);
}

/* Probe for "a %d b %lld s %s": sums what it decodes. */
static void probe_mixed(void *probe_private, void *call_private,
			const char *fmt, va_list *args)
{
	int a = va_arg(*args, int);
	long long b = va_arg(*args, long long);
	const char *s = va_arg(*args, const char *);

	log_call(probe_private, 1, a + b + strlen(s));
}

static noinline void pass_basic(int v)
{
	MARK(markers_kunit_basic, "value %d", v);
}

static noinline void pass_mixed(int a, long long b, const char *s)
{
	MARK(markers_kunit_mixed, "a %d b %lld s %s", a, b, s);
}

/* One name, two formats: a probe connects to the sites of one of them. */
static noinline void pass_formats(int v)
{
	MARK(markers_kunit_formats, "value %d", v);
	MARK(markers_kunit_formats, "count %d", v + 1);
}

static noinline void pass_noargs(void)
{
	MARK(markers_kunit_noargs, MARK_NOARGS);
}

static noinline void pass_compat(int v)
{
	trace_mark(markers_kunit_compat, "value %d", v);
	_trace_mark(markers_kunit_compat, "value %d", v + 1);
}

static noinline void pass_private(int v)
{
	__MARK(markers_kunit_private, (void *)0x1234, "value %d", v);
}

/* Each inlined copy is a site of its own. */
static __always_inline void pass_inline(int v)
{
	MARK(markers_kunit_inline, "value %d", v);
}

static noinline void pass_inline_twice(void)
{
	pass_inline(10);
	pass_inline(20);
}

/* A macro expanded three times on one line: three sites, one symbol each. */
#define pass_macro(v) MARK(markers_kunit_macro, "value %d", v)

static noinline void pass_macro_thrice(void)
{
	pass_macro(1); pass_macro(2); pass_macro(3);
}

/*
 * A site in vmlinux init text, passed once at boot.  Connecting a probe
 * after the text is freed must leave it alone (the markers kselftest
 * connects test_markers_probe to it).
 */
static noinline void __init pass_init_race(void)
{
	MARK(markers_kunit_init_race, MARK_NOARGS);
}

static int __init markers_kunit_init_site(void)
{
	MARK(markers_kunit_init, "value %d", 1);
	pass_init_race();
	return 0;
}
late_initcall(markers_kunit_init_site);

/*
 * A site in built-in __exit code, which x86 keeps among the init sections
 * and frees with them at boot: connecting a probe to it after boot must
 * not write it (the kselftest test_init.sh does so).
 */
static void __exit __used markers_kunit_exit_site(void)
{
	MARK(markers_kunit_exit, "value %d", 1);
}

/* MARK_ENABLED() around an argument that only a probe needs. */
static int prepared;

static noinline int prepare_value(int v)
{
	prepared++;
	return v * 3;
}

static noinline bool pass_enabled(int v)
{
	if (!MARK_ENABLED(markers_kunit_enabled))
		return false;
	MARK(markers_kunit_enabled, "value %d", prepare_value(v));
	return true;
}

/* The MARK_ENABLED() expansion of @name in vmlinux (format NULL). */
static struct marker *enabled_marker_of(const char *name)
{
	struct marker *m;

	for (m = __start___markers; m < __stop___markers; m++)
		if (!m->format && !strcmp(m->name, name))
			return m;
	return NULL;
}

#ifdef CONFIG_HAVE_ARCH_MARKERS
/* Whether the MARK_ENABLED() site of @m is armed; -1 if it has none. */
static int enabled_site_armed(const struct marker *m)
{
	const struct marker_site *s;

	for (s = __start___marker_sites; s < __stop___marker_sites; s++)
		if (marker_site_marker(s) == m)
			return arch_marker_site_armed(s);
	return -1;
}
#endif

/*
 * Ten passes, each of which tests MARK_ENABLED() @on; and the test's
 * site (arch sites) or key (jump labels) switched @on.
 */
static void expect_enabled(struct kunit *test, struct marker *m, bool on)
{
	int i;

	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_EQ(test, pass_enabled(i), on);
#ifdef CONFIG_HAVE_ARCH_MARKERS
	KUNIT_EXPECT_EQ(test, enabled_site_armed(m), (int)on);
#endif
#ifdef CONFIG_MARKERS_STATIC_KEYS
	KUNIT_EXPECT_EQ(test, static_key_enabled(&m->key), on);
#endif
}

/*
 * MARK_ENABLED() is true exactly while a probe is connected: the
 * preparing function is never called while it is false, and once per
 * pass while it is true.  Where sites are patched it is a site of its
 * own, armed with the marker's; with jump labels, a key of its own.
 */
static void markers_test_enabled(struct kunit *test)
{
	static const char *name = "markers_kunit_enabled";
	struct marker *m = enabled_marker_of(name);
	struct probe_log l = {};

	KUNIT_ASSERT_NOT_NULL(test, m);
	prepared = 0;
	expect_enabled(test, m, false);
	KUNIT_EXPECT_EQ(test, prepared, 0);

	/* Any probe of the name: the test has no format to check. */
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(name, "value %d",
						       probe_int, &l));
	expect_enabled(test, m, true);
	KUNIT_EXPECT_EQ(test, prepared, 10);
	KUNIT_EXPECT_EQ(test, l.calls, 10);
	KUNIT_EXPECT_EQ(test, l.args[MAX_CALLS - 1], 3LL * (MAX_CALLS - 1));

	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister(name, probe_int, &l));
	expect_enabled(test, m, false);
	KUNIT_EXPECT_EQ(test, prepared, 10);
	KUNIT_EXPECT_EQ(test, l.calls, 10);
}

static void markers_test_connect(struct kunit *test)
{
	struct probe_log l = {};

	pass_basic(1);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_kunit_basic",
						       "value %d", probe_int, &l));
	pass_basic(42);
	KUNIT_EXPECT_EQ(test, l.calls, 1);
	KUNIT_EXPECT_EQ(test, l.args[0], 42);
	KUNIT_EXPECT_STREQ(test, l.fmt, "value %d");
	KUNIT_EXPECT_PTR_EQ(test, l.call_private, NULL);
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister("markers_kunit_basic",
							 probe_int, &l));
	pass_basic(43);
	KUNIT_EXPECT_EQ(test, l.calls, 1);
}

static void markers_test_args(struct kunit *test)
{
	struct probe_log l = {};

	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register("markers_kunit_mixed",
					      "a %d b %lld s %s",
					      probe_mixed, &l));
	pass_mixed(3, 1LL << 40, "four");
	KUNIT_EXPECT_EQ(test, l.calls, 1);
	KUNIT_EXPECT_EQ(test, l.args[0], 3 + (1LL << 40) + 4);
	marker_probe_unregister("markers_kunit_mixed", probe_mixed, &l);
}

static void markers_test_order(struct kunit *test)
{
	static const char *name = "markers_kunit_basic";
	struct probe_log l = {};

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(name, NULL, probe_b, &l));
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(name, NULL, probe_a, &l));
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(name, NULL, probe_c, &l));
	pass_basic(0);
	KUNIT_ASSERT_EQ(test, l.calls, 3);
	KUNIT_EXPECT_EQ(test, l.order[0], 2);
	KUNIT_EXPECT_EQ(test, l.order[1], 1);
	KUNIT_EXPECT_EQ(test, l.order[2], 3);

	/* Removing the middle one keeps the others in order. */
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister(name, probe_a, &l));
	l.calls = 0;
	pass_basic(0);
	KUNIT_ASSERT_EQ(test, l.calls, 2);
	KUNIT_EXPECT_EQ(test, l.order[0], 2);
	KUNIT_EXPECT_EQ(test, l.order[1], 3);
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister_private_data(probe_b, &l));
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister(name, probe_c, &l));
}

/*
 * While probes are connected, a name has one format, that of its first
 * loaded marker if no probe names one: a probe that accepts any format
 * gets the markers of that one, with it as the format it is passed.
 */
static void markers_test_one_format(struct kunit *test)
{
	static const char *name = "markers_kunit_formats";
	struct probe_log l = {}, l2 = {};
	const char *other;

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(name, NULL,
						       probe_int, &l));
	pass_formats(10);
	KUNIT_ASSERT_EQ(test, l.calls, 1);
	other = l.args[0] == 10 ? "count %d" : "value %d";
	KUNIT_EXPECT_STREQ(test, l.fmt,
			   l.args[0] == 10 ? "value %d" : "count %d");
	KUNIT_EXPECT_EQ(test, -EPERM,
			marker_probe_register(name, other, probe_int, &l2));
	KUNIT_EXPECT_EQ(test, 0, marker_probe_register(name, l.fmt,
						       probe_int, &l2));
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister(name, probe_int, &l));
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister(name, probe_int, &l2));

	/* With no probe left, the other format may be the name's. */
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(name, other,
						       probe_int, &l2));
	l2.calls = 0;
	pass_formats(20);
	KUNIT_EXPECT_EQ(test, l2.calls, 1);
	KUNIT_EXPECT_STREQ(test, l2.fmt, other);
	KUNIT_EXPECT_EQ(test, l2.args[0], !strcmp(other, "value %d") ? 20 : 21);
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister(name, probe_int, &l2));
}

static void markers_test_private(struct kunit *test)
{
	static const char *name = "markers_kunit_private";
	struct probe_log l1 = {}, l2 = {};

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(name, "value %d",
						       probe_int, &l1));
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(name, "value %d",
						       probe_int, &l2));
	pass_private(7);
	KUNIT_EXPECT_EQ(test, l1.calls, 1);
	KUNIT_EXPECT_EQ(test, l2.calls, 1);
	KUNIT_EXPECT_PTR_EQ(test, l1.call_private, (void *)0x1234);
	KUNIT_EXPECT_PTR_EQ(test, marker_get_private_data(name, probe_int, 0),
			    (void *)&l1);
	KUNIT_EXPECT_PTR_EQ(test, marker_get_private_data(name, probe_int, 1),
			    (void *)&l2);
	KUNIT_EXPECT_PTR_EQ(test, marker_get_private_data(name, probe_int, 2),
			    ERR_PTR(-ENOENT));
	KUNIT_EXPECT_PTR_EQ(test, marker_get_private_data(name, probe_a, 0),
			    ERR_PTR(-ENOENT));
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister(name, probe_int, &l1));
	pass_private(8);
	KUNIT_EXPECT_EQ(test, l1.calls, 1);
	KUNIT_EXPECT_EQ(test, l2.calls, 2);
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister(name, probe_int, &l2));
}

static void markers_test_errors(struct kunit *test)
{
	static const char *name = "markers_kunit_basic";
	char *long_name;
	struct probe_log l = {};

	KUNIT_EXPECT_EQ(test, -EINVAL,
			marker_probe_register(NULL, NULL, probe_int, &l));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			marker_probe_register("", NULL, probe_int, &l));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			marker_probe_register(name, NULL, NULL, &l));
	long_name = kunit_kzalloc(test, 4096, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, long_name);
	memset(long_name, 'x', 4095);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			marker_probe_register(long_name, NULL, probe_int, &l));

	KUNIT_EXPECT_EQ(test, -EPERM,
			marker_probe_register(name, "value %s", probe_int, &l));
	KUNIT_ASSERT_EQ(test, 0,
			marker_probe_register(name, "value %d", probe_int, &l));
	KUNIT_EXPECT_EQ(test, -EBUSY,
			marker_probe_register(name, "value %d", probe_int, &l));
	/* A failed registration changed nothing. */
	pass_basic(5);
	KUNIT_EXPECT_EQ(test, l.calls, 1);

	KUNIT_EXPECT_EQ(test, -ENOENT,
			marker_probe_unregister(name, probe_a, &l));
	KUNIT_EXPECT_EQ(test, -ENOENT,
			marker_probe_unregister("markers_kunit_none", probe_int, &l));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			marker_probe_unregister(NULL, probe_int, &l));
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister(name, probe_int, &l));
	KUNIT_EXPECT_EQ(test, -ENOENT,
			marker_probe_unregister(name, probe_int, &l));
	KUNIT_EXPECT_EQ(test, -ENOENT,
			marker_probe_unregister_private_data(probe_int, &l));
}

/* marker_is_loaded(): vmlinux's markers are, names no code has are not. */
static void markers_test_is_loaded(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, marker_is_loaded("markers_kunit_basic"));
	KUNIT_EXPECT_TRUE(test, marker_is_loaded("markers_kunit_noargs"));
	KUNIT_EXPECT_FALSE(test, marker_is_loaded("markers_kunit_none"));
	KUNIT_EXPECT_FALSE(test, marker_is_loaded("markers_kunit_basi"));
	KUNIT_EXPECT_FALSE(test, marker_is_loaded(""));
}

static void markers_test_pending(struct kunit *test)
{
	struct probe_log l = {};

	/* No marker of that name exists: the probe waits for one. */
	KUNIT_EXPECT_EQ(test, 0, marker_probe_register("markers_kunit_nowhere",
						       "x %d", probe_int, &l));
	KUNIT_EXPECT_PTR_EQ(test, marker_get_private_data("markers_kunit_nowhere",
							  probe_int, 0),
			    (void *)&l);
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister("markers_kunit_nowhere",
							 probe_int, &l));
}

static noinline void pass_compat_1(void)
{
	pass_compat(1);
}

/* Markers passed in several ways, and the calls each pass must make. */
struct expansion_case {
	const char *name;
	const char *format;
	void (*pass)(void);
	int calls;
	int args[3];
};

static const struct expansion_case expansion_cases[] = {
	{ "markers_kunit_noargs", MARK_NOARGS, pass_noargs, 1 },
	/* A static inline function inlined twice. */
	{ "markers_kunit_inline", "value %d", pass_inline_twice, 2, { 10, 20 } },
	/* trace_mark() and _trace_mark() of one name. */
	{ "markers_kunit_compat", "value %d", pass_compat_1, 2, { 1, 2 } },
	/* A macro expanded three times on one line. */
	{ "markers_kunit_macro", "value %d", pass_macro_thrice, 3, { 1, 2, 3 } },
};

static void expansion_desc(const struct expansion_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(expansion, expansion_cases, expansion_desc);

static void markers_test_expansions(struct kunit *test)
{
	const struct expansion_case *c = test->param_value;
	marker_probe_func *probe = c->args[0] ? probe_int : probe_a;
	struct probe_log l = {};
	int i;

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(c->name, c->format,
						       probe, &l));
	c->pass();
	marker_probe_unregister(c->name, probe, &l);
	KUNIT_EXPECT_EQ(test, l.calls, c->calls);
	for (i = 0; c->args[0] && i < c->calls; i++)
		KUNIT_EXPECT_EQ(test, l.args[i], c->args[i]);
}

/* Every conversion a format may carry, mixed, read back exactly. */
#define TYPES_FMT "d %d u %u ld %ld lu %lu lld %lld llu %llu zu %zu p %p s %s c %c"

struct types_log {
	int calls;
	int bad;
};

static noinline void pass_types(void)
{
	MARK(markers_kunit_types, TYPES_FMT, -5, 4000000000U, -6L, ULONG_MAX,
	     LLONG_MIN, ULLONG_MAX, (size_t)SIZE_MAX - 1,
	     (void *)&pass_types, "str", 'x');
}

static bool types_read(va_list *args)
{
	bool ok = true;

	ok &= va_arg(*args, int) == -5;
	ok &= va_arg(*args, unsigned int) == 4000000000U;
	ok &= va_arg(*args, long) == -6L;
	ok &= va_arg(*args, unsigned long) == ULONG_MAX;
	ok &= va_arg(*args, long long) == LLONG_MIN;
	ok &= va_arg(*args, unsigned long long) == ULLONG_MAX;
	ok &= va_arg(*args, size_t) == (size_t)SIZE_MAX - 1;
	ok &= va_arg(*args, void *) == (void *)&pass_types;
	ok &= !strcmp(va_arg(*args, const char *), "str");
	ok &= va_arg(*args, int) == 'x';
	return ok;
}

static void probe_types(void *probe_private, void *call_private,
			const char *fmt, va_list *args)
{
	struct types_log *l = probe_private;

	l->calls++;
	l->bad += !types_read(args);
}

/* Reads a copy first, then the list itself. */
static void probe_types_twice(void *probe_private, void *call_private,
			      const char *fmt, va_list *args)
{
	struct types_log *l = probe_private;
	va_list copy;

	va_copy(copy, *args);
	l->bad += !types_read(&copy);
	va_end(copy);
	l->bad += !types_read(args);
	l->calls++;
}

static void markers_test_types(struct kunit *test)
{
	struct types_log one = {}, twice = {};

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_kunit_types",
						       TYPES_FMT, probe_types,
						       &one));
	pass_types();
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_kunit_types",
						       TYPES_FMT,
						       probe_types_twice,
						       &twice));
	pass_types();
	marker_probe_unregister("markers_kunit_types", probe_types, &one);
	pass_types();
	marker_probe_unregister("markers_kunit_types", probe_types_twice,
				&twice);
	pass_types();
	KUNIT_EXPECT_EQ(test, one.calls, 2);
	KUNIT_EXPECT_EQ(test, twice.calls, 2);
	KUNIT_EXPECT_EQ(test, one.bad, 0);
	KUNIT_EXPECT_EQ(test, twice.bad, 0);
}

/*
 * Probes swapped while other CPUs pass the marker: every call gets the
 * probe_private of the probe called, and the site's arguments.
 */
#define SWAP_MAGIC	0x5a5aUL

/* Each swap waits for two grace periods. */
static unsigned int swaps = 1000;
module_param(swaps, uint, 0444);
MODULE_PARM_DESC(swaps, "Probe swaps of markers_test_swap");

static struct swap_test {
	int stop;
	atomic64_t passes;	/* over 2^32 in a run: 64 bits on i386 too */
	atomic64_t hits[2];
	atomic_long_t bad;
} sw;

static int swap_tag[2];

static noinline void pass_swap(unsigned long seq)
{
	MARK(markers_kunit_swap, "magic %lu seq %lu", SWAP_MAGIC, seq);
}

static void swap_probe(int who, void *probe_private, va_list *args)
{
	unsigned long magic = va_arg(*args, unsigned long);

	if (probe_private != &swap_tag[who] || magic != SWAP_MAGIC)
		atomic_long_inc(&sw.bad);
	atomic64_inc(&sw.hits[who]);
}

static void swap_probe_a(void *probe_private, void *call_private,
			 const char *fmt, va_list *args)
{
	swap_probe(0, probe_private, args);
}

static void swap_probe_b(void *probe_private, void *call_private,
			 const char *fmt, va_list *args)
{
	swap_probe(1, probe_private, args);
}

static marker_probe_func *const swap_probes[2] = {
	swap_probe_a, swap_probe_b,
};

static int swap_passer(void *data)
{
	u64 n = 0;

	while (!READ_ONCE(sw.stop)) {
		pass_swap(n);
		if (!(++n & 63))
			cond_resched_tasks_rcu_qs();
	}
	atomic64_add(n, &sw.passes);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static int swap_reg(int who)
{
	return marker_probe_register("markers_kunit_swap", "magic %lu seq %lu",
				     swap_probes[who], &swap_tag[who]);
}

static int swap_unreg(int who)
{
	return marker_probe_unregister("markers_kunit_swap", swap_probes[who],
				       &swap_tag[who]);
}

/*
 * @swaps swaps, in two runs of half as many: each run gets KUnit's
 * timeout of its own, which a kernel with lockdep, KASAN and PREEMPT_RT
 * needs.
 */
static const char *const swap_halves[] = { "first half", "second half" };

static void swap_half_desc(const char *const *half, char *desc)
{
	strscpy(desc, *half, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(swap_half, swap_halves, swap_half_desc);

static void markers_test_swap(struct kunit *test)
{
	unsigned int n = swaps / 2 + (test->param_value == &swap_halves[0] ?
				      swaps % 2 : 0);
	struct task_struct **t;
	unsigned long start = jiffies;
	int cpu, i, who = 0, err = 0;

	t = kunit_kcalloc(test, nr_cpu_ids, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	memset(&sw, 0, sizeof(sw));
	KUNIT_ASSERT_EQ(test, 0, swap_reg(0));
	for_each_online_cpu(cpu) {
		t[cpu] = kthread_create_on_cpu(swap_passer, NULL, cpu,
					       "markers_swap/%u");
		if (IS_ERR(t[cpu]))
			t[cpu] = NULL;
		else
			wake_up_process(t[cpu]);
	}
	/*
	 * A -> B -> A ...: through two probes (1 -> 2 -> 1) on even rounds,
	 * through none (1 -> 0 -> 1) on odd ones.
	 */
	for (i = 0; i < n; i++) {
		if (i & 1) {
			err |= swap_unreg(who);
			err |= swap_reg(!who);
		} else {
			err |= swap_reg(!who);
			err |= swap_unreg(who);
		}
		who = !who;
	}
	WRITE_ONCE(sw.stop, 1);
	for_each_online_cpu(cpu)
		if (t[cpu])
			kthread_stop(t[cpu]);
	err |= swap_unreg(who);
	/* 1 -> 2 -> 1 -> 0, nobody passing. */
	err |= swap_reg(0);
	err |= swap_reg(1);
	pass_swap(0);
	err |= swap_unreg(0);
	pass_swap(0);
	err |= swap_unreg(1);
	pass_swap(0);

	kunit_info(test, "%u swaps in %u ms: %lld passes, %lld calls of A, %lld of B\n",
		   n, jiffies_to_msecs(jiffies - start),
		   atomic64_read(&sw.passes), atomic64_read(&sw.hits[0]),
		   atomic64_read(&sw.hits[1]));
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&sw.bad), 0L);
	KUNIT_EXPECT_GT(test, atomic64_read(&sw.hits[0]), 0LL);
	KUNIT_EXPECT_GT(test, atomic64_read(&sw.hits[1]), 0LL);
	KUNIT_EXPECT_LE(test, atomic64_read(&sw.hits[0]) +
			atomic64_read(&sw.hits[1]),
			2 * atomic64_read(&sw.passes) + 3);
}

static atomic_t probes_inside, probes_late, probes_calls;
static bool probe_gone;

/* Lingers (it may not sleep), so that other CPUs are in it when it goes. */
static void probe_slow(void *probe_private, void *call_private,
		       const char *fmt, va_list *args)
{
	atomic_inc(&probes_inside);
	atomic_inc(&probes_calls);
	mdelay(10);
	if (READ_ONCE(probe_gone))
		atomic_inc(&probes_late);
	atomic_dec(&probes_inside);
}

static int passer(void *data)
{
	while (!kthread_should_stop()) {
		pass_basic(1);
		cond_resched_tasks_rcu_qs();
	}
	return 0;
}

/*
 * When unregistering returns, no CPU is in the probe, nor enters it.  A
 * second probe stays connected, so that the site stays armed: nothing is
 * patched, and only the wait for readers of the old array gives this.
 */
static void markers_test_unregister_waits(struct kunit *test)
{
	struct probe_log l = {};
	struct task_struct *t[2];
	int i, cpu = -1;

	if (num_online_cpus() < 3)
		kunit_skip(test, "needs three CPUs");
	atomic_set(&probes_inside, 0);
	atomic_set(&probes_late, 0);
	atomic_set(&probes_calls, 0);
	WRITE_ONCE(probe_gone, false);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_kunit_basic",
						       "value %d", probe_slow,
						       NULL));
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_kunit_basic",
						       "value %d", probe_int,
						       &l));
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu == raw_smp_processor_id())
			cpu = cpumask_next(cpu, cpu_online_mask);
		t[i] = kthread_run_on_cpu(passer, NULL, cpu, "markers_pass/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i]));
	}
	/* Let the passers get going (slowly, on a loaded host). */
	for (i = 0; i < 100 && atomic_read(&probes_calls) < 4; i++)
		msleep(20);
	KUNIT_EXPECT_GE(test, atomic_read(&probes_calls), 4);
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister("markers_kunit_basic",
							 probe_slow, NULL));
	WRITE_ONCE(probe_gone, true);
	KUNIT_EXPECT_EQ(test, atomic_read(&probes_inside), 0);
	msleep(20);
	for (i = 0; i < ARRAY_SIZE(t); i++)
		kthread_stop(t[i]);
	KUNIT_EXPECT_EQ(test, atomic_read(&probes_late), 0);
	marker_probe_unregister("markers_kunit_basic", probe_int, &l);
}

#ifdef CONFIG_HOTPLUG_CPU
/*
 * A CPU going offline runs instrumentable code after RCU has stopped
 * watching it, while its hotplug operation holds the CPU hotplug lock for
 * writing.  Sites do not test RCU: what publishes a probe array waits for
 * the operation to end, so that such a CPU never reads an array that is
 * unpublished, and freed, meanwhile.  Here a thread holds the lock as an
 * operation would, while a third probe is connected to a marker with two:
 * no site or call changes, only the array.
 */
static struct {
	int held;		/* the writer holds the lock */
	int release;		/* the writer may let it go */
	int registered;		/* the registration returned */
	int ret;
	struct probe_log l;
} hp;

static int hotplug_writer(void *data)
{
	u64 end = ktime_get_ns() + 10ULL * NSEC_PER_SEC;

	cpus_write_lock();
	/* Pairs with the test's smp_load_acquire(): the lock is held. */
	smp_store_release(&hp.held, 1);
	while (!READ_ONCE(hp.release) && ktime_get_ns() < end)
		usleep_range(1000, 2000);
	cpus_write_unlock();
	return 0;
}

static int hotplug_registrar(void *data)
{
	hp.ret = marker_probe_register("markers_kunit_basic", "value %d",
				       probe_int, &hp.l);
	/* The return value before the flag. */
	smp_store_release(&hp.registered, 1);
	return 0;
}

/* Sleep up to @ms for @cond(). */
static bool sleep_until(bool (*cond)(void), int ms)
{
	u64 end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;

	while (!cond() && ktime_get_ns() < end)
		usleep_range(1000, 2000);
	return cond();
}

static bool hotplug_held(void)
{
	/* The lock is held once the flag is seen. */
	return smp_load_acquire(&hp.held);
}

static bool hotplug_registered(void)
{
	/* The flag before the return value. */
	return smp_load_acquire(&hp.registered);
}

static struct task_struct *hotplug_waiter;

static bool hotplug_waiter_blocked(void)
{
	return READ_ONCE(hotplug_waiter->__state) == TASK_UNINTERRUPTIBLE;
}

static void markers_test_hotplug_waits(struct kunit *test)
{
	struct probe_log a = {}, b = {};
	struct task_struct *w;

	memset(&hp, 0, sizeof(hp));
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_kunit_basic",
						       "value %d", probe_a, &a));
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_kunit_basic",
						       "value %d", probe_b, &b));
	/* Both threads made first: making one may want the lock. */
	hotplug_waiter = kthread_create(hotplug_registrar, NULL, "markers_reg");
	KUNIT_ASSERT_FALSE(test, IS_ERR(hotplug_waiter));
	get_task_struct(hotplug_waiter);
	w = kthread_run(hotplug_writer, NULL, "markers_hotplug");
	KUNIT_EXPECT_FALSE(test, IS_ERR(w));
	KUNIT_EXPECT_TRUE(test, sleep_until(hotplug_held, 5000));
	wake_up_process(hotplug_waiter);
	/* Waiting for the lock, or returned already. */
	sleep_until(hotplug_waiter_blocked, 2000);
	KUNIT_EXPECT_FALSE_MSG(test, hotplug_registered(),
			       "a probe array was published during a CPU hotplug operation");
	WRITE_ONCE(hp.release, 1);
	KUNIT_EXPECT_TRUE(test, sleep_until(hotplug_registered, 5000));
	put_task_struct(hotplug_waiter);
	KUNIT_EXPECT_EQ(test, hp.ret, 0);
	pass_basic(7);
	KUNIT_EXPECT_EQ(test, hp.l.calls, 1);
	marker_probe_unregister("markers_kunit_basic", probe_int, &hp.l);
	marker_probe_unregister("markers_kunit_basic", probe_b, &b);
	marker_probe_unregister("markers_kunit_basic", probe_a, &a);
}
#endif

static void pass_from_irq_work(struct irq_work *w)
{
	pass_basic(100);
}

static void pass_from_tasklet(struct tasklet_struct *t)
{
	pass_basic(200);
}

static void markers_test_contexts(struct kunit *test)
{
	struct irq_work work = IRQ_WORK_INIT_HARD(pass_from_irq_work);
	struct tasklet_struct tasklet;
	struct probe_log l = {};

	tasklet_setup(&tasklet, pass_from_tasklet);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_kunit_basic",
						       "value %d", probe_int, &l));
	irq_work_queue(&work);
	irq_work_sync(&work);
	KUNIT_EXPECT_EQ(test, l.calls, 1);
	KUNIT_EXPECT_EQ(test, l.args[0], 100);
	KUNIT_EXPECT_TRUE(test, l.in_hardirq);

	tasklet_schedule(&tasklet);
	tasklet_kill(&tasklet);
	KUNIT_EXPECT_EQ(test, l.calls, 2);
	KUNIT_EXPECT_EQ(test, l.args[1], 200);
	KUNIT_EXPECT_TRUE(test, l.in_softirq);
	marker_probe_unregister("markers_kunit_basic", probe_int, &l);
}

#if defined(CONFIG_CONTEXT_TRACKING_IDLE) && \
	(!defined(CONFIG_ARCH_WANTS_NO_INSTR) || defined(CONFIG_PROVE_RCU))
/*
 * Where sites test whether RCU watches (MARKER_CHECK_RCU), a marker
 * passed where it does not calls no probe: the probe array it would be
 * read from is freed after a grace period that does not wait for such a
 * CPU.  (Elsewhere no MARK() may be passed there.)
 */
static void markers_test_rcu_idle(struct kunit *test)
{
	struct probe_log l = {};
	unsigned long flags;

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_kunit_basic",
						       "value %d", probe_int, &l));
	local_irq_save(flags);
	ct_idle_enter();
	pass_basic(1);
	ct_idle_exit();
	local_irq_restore(flags);
	pass_basic(2);
	marker_probe_unregister("markers_kunit_basic", probe_int, &l);
	KUNIT_EXPECT_EQ(test, l.calls, 1);
	KUNIT_EXPECT_EQ(test, l.args[0], 2);
}
#endif

#if defined(CONFIG_FAILSLAB) && defined(CONFIG_FUNCTION_ERROR_INJECTION) && \
	defined(CONFIG_KPROBES)
/*
 * Make one slab allocation of one task fail, the fail_countdown-th from
 * now, as fail_function does: a kprobe on should_failslab() that returns
 * -ENOMEM from it.
 */
static struct task_struct *fail_task;
static int fail_countdown;
static int fail_injected;

static int fail_slab(struct kprobe *kp, struct pt_regs *regs)
{
	gfp_t gfp = (__force gfp_t)regs_get_kernel_argument(regs, 1);

	/*
	 * Not kmemleak's own metadata, allocated with each object: it asks
	 * with __GFP_NOMEMALLOC (gfp_kmemleak_mask()), which markers never
	 * use, and falls back to a pool when it fails.
	 */
	if (gfp & __GFP_NOMEMALLOC)
		return 0;
	if (current != READ_ONCE(fail_task) || --fail_countdown)
		return 0;
	fail_injected++;
	regs_set_return_value(regs, -ENOMEM);
	override_function_with_return(regs);
	return 1;
}

static int register_failing(const char *name, struct probe_log *l, int nth)
{
	int ret;

	fail_injected = 0;
	fail_countdown = nth;
	WRITE_ONCE(fail_task, current);
	ret = marker_probe_register(name, "value %d", probe_int, l);
	WRITE_ONCE(fail_task, NULL);
	return ret;
}

/* A registration that runs out of memory changes nothing. */
static void markers_test_enomem(struct kunit *test)
{
	struct kprobe kp = { .symbol_name = "should_failslab",
			     .pre_handler = fail_slab };
	static const char *name = "markers_kunit_basic";
	struct probe_log l1 = {}, l2 = {};
	int n, ret;

	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&kp));

	/* A new name: entry, format and probe array may each fail. */
	for (n = 1; n < 8; n++) {
		ret = register_failing("markers_kunit_enomem", &l2, n);
		if (!fail_injected)
			break;
		KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
		KUNIT_EXPECT_PTR_EQ(test,
				    marker_get_private_data("markers_kunit_enomem",
							    probe_int, 0),
				    ERR_PTR(-ENOENT));
	}
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, n, 4);
	marker_probe_unregister("markers_kunit_enomem", probe_int, &l2);

	/* A name with a connected probe, which keeps being called. */
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(name, "value %d",
						       probe_int, &l1));
	KUNIT_EXPECT_EQ(test, -ENOMEM, register_failing(name, &l2, 1));
	pass_basic(1);
	KUNIT_EXPECT_EQ(test, l1.calls, 1);
	KUNIT_EXPECT_EQ(test, l2.calls, 0);
	KUNIT_ASSERT_EQ(test, 0, register_failing(name, &l2, 2));

	/* Unregistering cannot fail: without memory, a stub takes over. */
	fail_countdown = 1;
	WRITE_ONCE(fail_task, current);
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister(name, probe_int, &l1));
	WRITE_ONCE(fail_task, NULL);
	KUNIT_EXPECT_EQ(test, fail_injected, 1);
	pass_basic(2);
	KUNIT_EXPECT_EQ(test, l1.calls, 1);
	KUNIT_EXPECT_EQ(test, l2.calls, 1);
	KUNIT_EXPECT_EQ(test, l2.args[0], 2);
	KUNIT_EXPECT_EQ(test, -ENOENT,
			marker_probe_unregister(name, probe_int, &l1));
	KUNIT_EXPECT_EQ(test, 0, marker_probe_unregister(name, probe_int, &l2));
	pass_basic(3);
	KUNIT_EXPECT_EQ(test, l2.calls, 1);

	unregister_kprobe(&kp);
}
#endif

#ifdef CONFIG_HAVE_ARCH_MARKERS
static int sites_of(const char *name)
{
	const struct marker_site *s;
	int n = 0;

	for (s = __start___marker_sites; s < __stop___marker_sites; s++)
		n += !strcmp(marker_site_marker(s)->name, name);
	return n;
}

/*
 * Every expansion is a site of its own, and every inlined copy of one;
 * _trace_mark() is never patched, so it has no site.
 */
static void markers_test_sites(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sites_of("markers_kunit_macro"), 3);
	KUNIT_EXPECT_EQ(test, sites_of("markers_kunit_inline"), 2);
	KUNIT_EXPECT_EQ(test, sites_of("markers_kunit_compat"), 1);
}

static bool site_has_code(unsigned long addr)
{
	const struct marker_site *s;

	for (s = __start___marker_sites; s < __stop___marker_sites; s++)
		if (marker_site_code(s) == addr)
			return true;
	return false;
}

struct mark_syms {
	int syms;
	int on_site;
	int unique;
	const char *want;		/* prefix of a symbol to remember */
	unsigned long want_addr;
	char want_name[KSYM_NAME_LEN];
};

static int mark_sym_check(void *data, const char *name, unsigned long addr)
{
	struct mark_syms *ms = data;

	if (!is_marker_symbol(name))
		return 0;
	ms->syms++;
	ms->on_site += site_has_code(addr);
	ms->unique += kallsyms_lookup_name(name) == addr;
	if (!site_has_code(addr) || kallsyms_lookup_name(name) != addr)
		pr_info("%s at %pS: %s\n", name, (void *)addr,
			site_has_code(addr) ? "not unique" : "not on a site");
	if (ms->want && str_has_prefix(name, ms->want) && !ms->want_addr) {
		ms->want_addr = addr;
		strscpy(ms->want_name, name, sizeof(ms->want_name));
	}
	return 0;
}

/* The vmlinux sites of MARK() expansions, not of MARK_ENABLED() ones. */
static int mark_sites(void)
{
	const struct marker_site *s;
	int n = 0;

	for (s = __start___marker_sites; s < __stop___marker_sites; s++)
		n += !!marker_site_marker(s)->format;
	return n;
}

/*
 * Every MARK() site has one MARK_SYM symbol, on its first byte, of its
 * own; a MARK_ENABLED() site, which is not the marker, has none.
 */
static void markers_test_mark_sym(struct kunit *test)
{
	const struct marker_site *s = marker_test_site("markers_kunit_basic");
	struct mark_syms *ms;
	char buf[KSYM_SYMBOL_LEN];

	KUNIT_ASSERT_NOT_NULL(test, s);
	ms = kunit_kzalloc(test, sizeof(*ms), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ms);
	ms->want = MARK_SYM_PREFIX "markers_kunit_basic.marker_kunit.";
	kallsyms_on_each_symbol(mark_sym_check, ms);

	KUNIT_EXPECT_LT(test, mark_sites(), (int)(__stop___marker_sites - __start___marker_sites));
	KUNIT_EXPECT_EQ(test, ms->syms, mark_sites());
	KUNIT_EXPECT_EQ(test, ms->on_site, ms->syms);
	KUNIT_EXPECT_EQ(test, ms->unique, ms->syms);
	KUNIT_EXPECT_EQ(test, ms->want_addr, marker_site_code(s));

	/* The code around the site is named after its function. */
	sprint_symbol(buf, marker_site_code(s));
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(buf, "pass_basic+"),
			      "site named %s", buf);
}

#ifdef CONFIG_KPROBES
static int kprobe_hits;

static int count_kprobe(struct kprobe *p, struct pt_regs *regs)
{
	kprobe_hits++;
	return 0;
}

/* A kprobe placed by MARK_SYM name lands on the site and fires. */
static void markers_test_kprobe_sym(struct kunit *test)
{
	const struct marker_site *s = marker_test_site("markers_kunit_basic");
	struct kprobe kp = { .pre_handler = count_kprobe };
	struct mark_syms *ms;

	KUNIT_ASSERT_NOT_NULL(test, s);
	ms = kunit_kzalloc(test, sizeof(*ms), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ms);
	ms->want = MARK_SYM_PREFIX "markers_kunit_basic.";
	kallsyms_on_each_symbol(mark_sym_check, ms);
	KUNIT_ASSERT_NE(test, ms->want_addr, 0UL);

	kp.symbol_name = ms->want_name;
	kprobe_hits = 0;
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(&kp));
	KUNIT_EXPECT_PTR_EQ(test, (void *)kp.addr, (void *)marker_site_code(s));
	pass_basic(1);
	pass_basic(2);
	unregister_kprobe(&kp);
	KUNIT_EXPECT_EQ(test, kprobe_hits, 2);
}
#endif

#endif /* CONFIG_HAVE_ARCH_MARKERS */

/* Where marker_call_site() said a probe's first two hits came from. */
struct site_log {
	unsigned int calls;
	unsigned long ip[2];
};

static void probe_site(void *probe_private, void *call_private,
		       const char *fmt, va_list *args)
{
	struct site_log *sl = probe_private;

	if (sl->calls < ARRAY_SIZE(sl->ip))
		sl->ip[sl->calls] = marker_call_site(args, _RET_IP_);
	sl->calls++;
}

static noinline void pass_site_inner(int v)
{
	MARK(markers_kunit_site_inner, "value %d", v);
}

/* A probe that passes a site of another marker. */
static void probe_site_nested(void *probe_private, void *call_private,
			      const char *fmt, va_list *args)
{
	pass_site_inner(1);
}

static noinline void pass_site(int v)
{
	MARK(markers_kunit_site, "value %d", v);
}

static noinline void pass_site_flag(int v)
{
	_trace_mark(markers_kunit_site, "value %d", v);
}

/* Whether @ip is in @func, or in a part of it the compiler split off. */
static bool ip_in(unsigned long ip, const char *func, char *buf)
{
	size_t len = strlen(func);

	sprint_symbol_no_offset(buf, ip);
	return str_has_prefix(buf, func) &&
	       (buf[len] == '\0' || buf[len] == '.' || buf[len] == ' ');
}

static void expect_sites(struct kunit *test, struct site_log *sl, char *buf)
{
	KUNIT_ASSERT_EQ(test, sl->calls, 2U);
	KUNIT_EXPECT_TRUE_MSG(test, ip_in(sl->ip[0], "pass_site", buf),
			      "%pS", (void *)sl->ip[0]);
	KUNIT_EXPECT_TRUE_MSG(test, ip_in(sl->ip[1], "pass_site_flag", buf),
			      "%pS", (void *)sl->ip[1]);
	memset(sl, 0, sizeof(*sl));
}

/*
 * While call sites are noted, a probe finds the function of the site
 * that called it, whether the site called it itself or a dispatcher did
 * (two probes, a flag site), and a site passed within a probe that a
 * dispatcher called finds its own.  The test notes them if the boot
 * does not (markers.site_field=1).
 */
static void markers_test_call_site(struct kunit *test)
{
	static const char *name = "markers_kunit_site";
	char *buf = kunit_kzalloc(test, KSYM_SYMBOL_LEN, GFP_KERNEL);
	struct site_log l1 = {}, l2 = {}, inner = {};
	bool noted = static_key_enabled(&marker_call_sites);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	if (!noted)
		static_branch_enable(&marker_call_sites);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(name, "value %d",
						       probe_site, &l1));
	pass_site(1);
	pass_site_flag(2);
	expect_sites(test, &l1, buf);

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(name, "value %d",
						       probe_site, &l2));
	pass_site(1);
	pass_site_flag(2);
	expect_sites(test, &l1, buf);
	expect_sites(test, &l2, buf);

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_kunit_site_inner",
						       "value %d", probe_site,
						       &inner));
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(name, "value %d",
						       probe_site_nested, NULL));
	pass_site(1);
	KUNIT_EXPECT_EQ(test, inner.calls, 1U);
	KUNIT_EXPECT_TRUE_MSG(test, ip_in(inner.ip[0], "pass_site_inner", buf),
			      "%pS", (void *)inner.ip[0]);

	marker_probe_unregister(name, probe_site_nested, NULL);
	marker_probe_unregister("markers_kunit_site_inner", probe_site, &inner);
	marker_probe_unregister(name, probe_site, &l2);
	marker_probe_unregister(name, probe_site, &l1);
	if (!noted)
		static_branch_disable(&marker_call_sites);
}

#ifdef CONFIG_STACKTRACE
struct stack_log {
	unsigned long entries[32];
	unsigned int nr;
};

static void probe_stack(void *probe_private, void *call_private,
			const char *fmt, va_list *args)
{
	struct stack_log *sl = probe_private;

	sl->nr = stack_trace_save(sl->entries, ARRAY_SIZE(sl->entries), 0);
}

static bool stack_has(struct stack_log *sl, const char *func, char *buf)
{
	unsigned int i;

	for (i = 0; i < sl->nr; i++) {
		sprint_symbol(buf, sl->entries[i]);
		if (str_has_prefix(buf, func) && buf[strlen(func)] == '+')
			return true;
	}
	return false;
}

/*
 * A stack trace taken in a probe names the instrumented function and
 * unwinds through it to its callers.
 */
static void markers_test_stacktrace(struct kunit *test)
{
	struct stack_log *sl = kunit_kzalloc(test, sizeof(*sl), GFP_KERNEL);
	char *buf = kunit_kzalloc(test, KSYM_SYMBOL_LEN, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, sl);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_kunit_basic",
						       "value %d", probe_stack,
						       sl));
	pass_basic(1);
	marker_probe_unregister("markers_kunit_basic", probe_stack, sl);
	KUNIT_ASSERT_GT(test, sl->nr, 0U);
	for (i = 0; i < sl->nr; i++)
		kunit_info(test, "stack: %pS\n", (void *)sl->entries[i]);
	KUNIT_EXPECT_TRUE(test, stack_has(sl, "probe_stack", buf));
	KUNIT_EXPECT_TRUE(test, stack_has(sl, "pass_basic", buf));
	KUNIT_EXPECT_TRUE(test, stack_has(sl, "markers_test_stacktrace", buf));
}
#endif

#ifdef CONFIG_MARKERS_STATIC_KEYS
/* The struct marker of the one expansion of @name in vmlinux. */
static struct marker *marker_of(const char *name)
{
	struct marker *m;

	for (m = __start___markers; m < __stop___markers; m++)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

/* The jump label on @m's key in vmlinux, or NULL unless there is one. */
static struct jump_entry *jump_site_of(struct marker *m)
{
	struct jump_entry *e, *found = NULL;

	for (e = __start___jump_table; e < __stop___jump_table; e++) {
		if (jump_entry_key(e) != &m->key.key)
			continue;
		if (found)
			return NULL;
		found = e;
	}
	return found;
}

#define MAX_JUMP_SIZE	8

/*
 * Where jump labels make the sites: a disconnected marker's site is a
 * NOP (the arch's one, on arm64), connecting a probe turns it into a
 * branch and disconnecting it turns it back, and kprobes keeps off it as
 * off any jump label.
 */
static void markers_test_jump_labels(struct kunit *test)
{
	struct marker *m = marker_of("markers_kunit_basic");
	u8 off[MAX_JUMP_SIZE];
	struct probe_log l = {};
	struct jump_entry *e;
	void *code;
	int size;

	KUNIT_ASSERT_NOT_NULL(test, m);
	e = jump_site_of(m);
	KUNIT_ASSERT_NOT_NULL(test, e);
	code = (void *)jump_entry_code(e);
	size = jump_entry_size(e);
	KUNIT_ASSERT_LE(test, size, MAX_JUMP_SIZE);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&m->key));
	memcpy(off, code, size);
#ifdef CONFIG_ARM64
	KUNIT_EXPECT_EQ(test, le32_to_cpup((__le32 *)off),
			aarch64_insn_gen_nop());
#endif

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register("markers_kunit_basic",
						       "value %d", probe_int,
						       &l));
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&m->key));
	KUNIT_EXPECT_NE(test, 0, memcmp(code, off, size));
	pass_basic(7);
	KUNIT_EXPECT_EQ(test, l.calls, 1);
	KUNIT_EXPECT_EQ(test, l.args[0], 7LL);
#ifdef CONFIG_KPROBES
	{
		struct kprobe kp = { .addr = code };

		KUNIT_EXPECT_EQ(test, -EINVAL, register_kprobe(&kp));
	}
#endif

	marker_probe_unregister("markers_kunit_basic", probe_int, &l);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&m->key));
	KUNIT_EXPECT_EQ(test, 0, memcmp(code, off, size));
	pass_basic(8);
	KUNIT_EXPECT_EQ(test, l.calls, 1);
}

struct jump_sym {
	const char *want;
	unsigned long addr;
	char name[KSYM_NAME_LEN];
	int syms;
};

static int jump_sym_find(void *data, const char *name, unsigned long addr)
{
	struct jump_sym *js = data;

	if (!is_marker_symbol(name))
		return 0;
	js->syms++;
	if (str_has_prefix(name, js->want) && !js->addr) {
		js->addr = addr;
		strscpy(js->name, name, sizeof(js->name));
	}
	return 0;
}

#ifdef CONFIG_KPROBES
static int jump_kprobe_hits;

static int jump_count_kprobe(struct kprobe *p, struct pt_regs *regs)
{
	jump_kprobe_hits++;
	return 0;
}
#endif

/*
 * Where sites are jump labels, a MARK() site has a MARK_SYM in its
 * function, after its jump label, where the code around it is named after
 * the function; a kprobe placed by that name fires once per pass, the
 * site enabled or not.
 */
static void markers_test_jump_sym(struct kunit *test)
{
	struct marker *m = marker_of("markers_kunit_basic");
	struct jump_sym *js = kunit_kzalloc(test, sizeof(*js), GFP_KERNEL);
	char *buf = kunit_kzalloc(test, KSYM_SYMBOL_LEN, GFP_KERNEL);
	struct jump_entry *e;

	KUNIT_ASSERT_NOT_NULL(test, js);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, m);
	e = jump_site_of(m);
	KUNIT_ASSERT_NOT_NULL(test, e);
	js->want = MARK_SYM_PREFIX "markers_kunit_basic.marker_kunit.";
	kallsyms_on_each_symbol(jump_sym_find, js);
	KUNIT_ASSERT_NE_MSG(test, js->addr, 0UL, "%d marker symbols",
			    js->syms);
	KUNIT_EXPECT_NE(test, js->addr, jump_entry_code(e));
	sprint_symbol(buf, js->addr);
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(buf, "pass_basic+"),
			      "%s at %s", js->name, buf);
	sprint_symbol(buf, jump_entry_code(e));
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(buf, "pass_basic+"),
			      "jump label at %s", buf);
#ifdef CONFIG_KPROBES
	{
		struct kprobe kp = { .symbol_name = js->name,
				     .pre_handler = jump_count_kprobe };
		struct probe_log l = {};

		jump_kprobe_hits = 0;
		KUNIT_ASSERT_EQ(test, 0, register_kprobe(&kp));
		KUNIT_EXPECT_EQ(test, (unsigned long)kp.addr, js->addr);
		pass_basic(1);
		KUNIT_EXPECT_EQ(test, jump_kprobe_hits, 1);
		KUNIT_EXPECT_EQ(test, 0,
				marker_probe_register("markers_kunit_basic",
						      "value %d", probe_int,
						      &l));
		pass_basic(2);
		KUNIT_EXPECT_EQ(test, jump_kprobe_hits, 2);
		KUNIT_EXPECT_EQ(test, l.calls, 1);
		marker_probe_unregister("markers_kunit_basic", probe_int, &l);
		pass_basic(3);
		KUNIT_EXPECT_EQ(test, jump_kprobe_hits, 3);
		unregister_kprobe(&kp);
	}
#endif
}
#endif

static struct kunit_case markers_test_cases[] = {
	KUNIT_CASE(markers_test_connect),
	KUNIT_CASE(markers_test_enabled),
	KUNIT_CASE(markers_test_args),
	KUNIT_CASE(markers_test_order),
	KUNIT_CASE(markers_test_one_format),
	KUNIT_CASE(markers_test_private),
	KUNIT_CASE(markers_test_errors),
	KUNIT_CASE(markers_test_pending),
	KUNIT_CASE(markers_test_is_loaded),
	KUNIT_CASE_PARAM(markers_test_expansions, expansion_gen_params),
	KUNIT_CASE(markers_test_contexts),
	KUNIT_CASE(markers_test_types),
	KUNIT_CASE_PARAM_ATTR(markers_test_swap, swap_half_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
#if defined(CONFIG_CONTEXT_TRACKING_IDLE) && \
	(!defined(CONFIG_ARCH_WANTS_NO_INSTR) || defined(CONFIG_PROVE_RCU))
	KUNIT_CASE(markers_test_rcu_idle),
#endif
#ifdef CONFIG_HOTPLUG_CPU
	KUNIT_CASE(markers_test_hotplug_waits),
#endif
	KUNIT_CASE(markers_test_unregister_waits),
#if defined(CONFIG_FAILSLAB) && defined(CONFIG_FUNCTION_ERROR_INJECTION) && \
	defined(CONFIG_KPROBES)
	KUNIT_CASE(markers_test_enomem),
#endif
#ifdef CONFIG_HAVE_ARCH_MARKERS
	KUNIT_CASE(markers_test_sites),
	KUNIT_CASE(markers_test_mark_sym),
#ifdef CONFIG_KPROBES
	KUNIT_CASE(markers_test_kprobe_sym),
#endif
#endif
#ifdef CONFIG_MARKERS_STATIC_KEYS
	KUNIT_CASE(markers_test_jump_labels),
	KUNIT_CASE(markers_test_jump_sym),
#endif
#ifdef CONFIG_STACKTRACE
	KUNIT_CASE(markers_test_stacktrace),
#endif
	KUNIT_CASE(markers_test_call_site),
	{}
};

static struct kunit_suite markers_test_suite = {
	.name = "markers",
	.test_cases = markers_test_cases,
};

#ifdef CONFIG_HAVE_ARCH_MARKERS
/*
 * vmlinux init text freed while a chunk that chose one of its sites is
 * being written.  A thread connects a probe to markers_kunit_init_race,
 * whose site is in init text, and holds its chunk (marker_test_set_flush())
 * until the kernel sets SYSTEM_FREEING_INITMEM, which it does after every
 * suite has run, then until init memory is freed, or 2 s.  The kernel
 * must not free it while the chunk is pending.  The verdict is logged
 * after the boot; test_init.sh reads it.
 */
static struct {
	unsigned long site;
	struct completion chosen;
	bool freed;
	struct probe_log log;
} init_race;

/* /sys/module/marker_kunit/parameters/init_race: what happened. */
static char *init_race_verdict = "not run";
module_param_named(init_race, init_race_verdict, charp, 0444);
MODULE_PARM_DESC(init_race, "Whether init memory was there when the init race's site was written");

static void init_race_flush(unsigned long addr)
{
	unsigned int ms;

	if (addr != init_race.site)
		return;
	complete(&init_race.chosen);
	for (ms = 0; ms < 300000 && system_state < SYSTEM_FREEING_INITMEM;
	     ms += 20)
		msleep(20);
	for (ms = 0; ms < 2000 && system_state < SYSTEM_RUNNING; ms += 20)
		msleep(20);
	init_race.freed = system_state == SYSTEM_RUNNING;
}

static int init_race_thread(void *data)
{
	int ret;

	marker_test_set_flush(init_race_flush);
	ret = marker_probe_register("markers_kunit_init_race", NULL, probe_a,
				    &init_race.log);
	marker_test_set_flush(NULL);
	init_race_verdict = ret ? "not connected" :
			    init_race.freed ? "freed" : "there";
	pr_info("markers_kunit: init race: connected (%d); init memory %s when the site was written\n",
		ret, init_race.freed ? "was freed" : "was there");
	if (!ret)
		marker_probe_unregister("markers_kunit_init_race", probe_a,
					&init_race.log);
	return 0;
}

static void markers_test_init_race(struct kunit *test)
{
	const struct marker_site *s = marker_test_site("markers_kunit_init_race");
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, s);
	init_race.site = marker_site_code(s);
	init_completion(&init_race.chosen);
	t = kthread_run(init_race_thread, NULL, "markers_initrace");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&init_race.chosen,
							    10 * HZ));
}

static struct kunit_case markers_init_race_cases[] = {
	KUNIT_CASE(markers_test_init_race),
	{}
};

/*
 * After every other markers suite, its batch holding markers_mutex: last
 * in the last object of the markers suites (kernel/Makefile).
 */
static struct kunit_suite markers_init_race_suite = {
	.name = "markers_init_race",
	.test_cases = markers_init_race_cases,
};

kunit_test_suites(&markers_test_suite, &markers_init_race_suite);
#else
kunit_test_suites(&markers_test_suite);
#endif

MODULE_DESCRIPTION("KUnit tests for kernel markers");
MODULE_LICENSE("GPL");
