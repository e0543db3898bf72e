// SPDX-License-Identifier: GPL-2.0
/*
 * Test module for kernel markers: its own markers, in module text and in
 * its init code, connected and disconnected while it loads.  Loading
 * fails with -EINVAL if any check fails; tools/testing/selftests/markers/
 * loads it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/async.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/kthread.h>
#include <linux/marker.h>
#include <linux/marker_test.h>
#include <linux/mm.h>
#include <linux/module.h>

static bool verbose;
module_param(verbose, bool, 0444);
MODULE_PARM_DESC(verbose, "Say what happens at each step");

static int hits;
static long long sum;

#define say(fmt, ...)							\
	do {								\
		if (verbose)						\
			pr_info(fmt, ##__VA_ARGS__);			\
	} while (0)

static void test_probe(void *probe_private, void *call_private,
		       const char *fmt, va_list *args)
{
	int v = va_arg(*args, int);

	hits++;
	sum += v;
	say("  probe called: format \"%s\", value %d\n", fmt, v);
}

static noinline void test_markers_pass(int v)
{
	MARK(test_markers_module, "value %d", v);
}

static noinline void __init test_markers_pass_init(int v)
{
	_trace_mark(test_markers_module_init, "value %d", v);
}

/*
 * test_markers_event is for probes from outside: passed once at init, by
 * a patchable site in init text (armed only while that text exists), and
 * on each write to the "pass" parameter.
 */
static noinline void __init test_markers_event_init(int v)
{
	MARK(test_markers_event, "value %d", v);
}

static noinline void test_markers_event(int v)
{
	MARK(test_markers_event, "value %d", v);
}

/* Writing N to the "pass" parameter passes test_markers_event with N. */
static int pass_set(const char *val, const struct kernel_param *kp)
{
	int v, ret = kstrtoint(val, 0, &v);

	if (!ret)
		test_markers_event(v);
	return ret;
}

static const struct kernel_param_ops pass_ops = {
	.set = pass_set,
};
module_param_cb(pass, &pass_ops, NULL, 0200);
MODULE_PARM_DESC(pass, "Pass marker test_markers_event with this value");

#if defined(CONFIG_MARKERS_KUNIT_TEST) && defined(CONFIG_HAVE_ARCH_MARKERS)
/*
 * init_race=1: a thread connects a probe to test_markers_init_race, whose
 * site is in this module's init text, while the module initializes, and
 * holds the chunk (marker_test_set_flush()) until init text is freed or 3 s
 * have passed.  The module then finishes initializing, and its init text
 * must not be freed while the chunk is pending.
 */
static bool init_race;
module_param(init_race, bool, 0444);
MODULE_PARM_DESC(init_race, "Race the freeing of init text against arming a site in it");

static struct {
	unsigned long site;
	struct completion chosen;
	struct completion done;
	bool freed;
} race;

static noinline void __init pass_init_race(void)
{
	MARK(test_markers_init_race, MARK_NOARGS);
}

static void race_probe(void *probe_private, void *call_private,
		       const char *fmt, va_list *args)
{
}

static void race_flush(unsigned long addr)
{
	unsigned int ms;

	if (addr != race.site)
		return;
	complete(&race.chosen);
	for (ms = 0; ms < 3000 && vmalloc_to_page((void *)race.site); ms += 20)
		msleep(20);
	race.freed = !vmalloc_to_page((void *)race.site);
}

static int race_thread(void *data)
{
	int ret;

	marker_test_set_flush(race_flush);
	ret = marker_probe_register("test_markers_init_race", NULL, race_probe,
				    NULL);
	marker_test_set_flush(NULL);
	pr_info("init race: connected (%d); init text %s when the site was written\n",
		ret, race.freed ? "was freed" : "was there");
	if (!ret)
		marker_probe_unregister("test_markers_init_race", race_probe,
					NULL);
	complete(&race.done);
	return 0;
}

static int __init race_start(void)
{
	const struct marker_site *s = THIS_MODULE->marker_sites;
	const struct marker_site *stop = s + THIS_MODULE->num_marker_sites;
	struct task_struct *t;

	pass_init_race();
	for (; s < stop; s++)
		if (!strcmp(marker_site_marker(s)->name, "test_markers_init_race"))
			race.site = marker_site_code(s);
	init_completion(&race.chosen);
	init_completion(&race.done);
	t = kthread_run(race_thread, NULL, "test_markers_race");
	if (IS_ERR(t)) {
		complete(&race.done);
		return PTR_ERR(t);
	}
	if (!wait_for_completion_timeout(&race.chosen, 10 * HZ)) {
		pr_err("FAIL: init race: the site was not chosen\n");
		wait_for_completion(&race.done);
		return -EINVAL;
	}
	return 0;
}

static void race_wait(void)
{
	if (init_race)
		wait_for_completion(&race.done);
}
#else
static bool init_race;

static int __init race_start(void)
{
	pr_err("init_race needs CONFIG_MARKERS_KUNIT_TEST\n");
	return -EOPNOTSUPP;
}

static void race_wait(void)
{
}
#endif

/*
 * async_init=1: async __init work passes test_markers_async, whose site is
 * in this module's init text, once "async_go" is written.  Until then the
 * module waits in its loader, live, with its init text not freed yet.
 * Writing "async_swap" connects a probe of this module to the marker;
 * "async_hits" counts its calls.
 */
static bool async_work_on;
module_param_named(async_init, async_work_on, bool, 0444);
MODULE_PARM_DESC(async_init, "Pass a site in init text from async init work");

static int async_hits;
module_param(async_hits, int, 0444);
MODULE_PARM_DESC(async_hits, "Calls of the async_swap probe");

static DECLARE_COMPLETION(async_go);
static int async_magic;
static bool async_connected;

static void async_probe(void *probe_private, void *call_private,
			const char *fmt, va_list *args)
{
	if (probe_private == &async_magic && va_arg(*args, int) == 7)
		async_hits++;
}

static int async_swap_set(const char *val, const struct kernel_param *kp)
{
	int ret = marker_probe_register("test_markers_async", "value %d",
					async_probe, &async_magic);

	async_connected = !ret;
	return ret;
}

static const struct kernel_param_ops async_swap_ops = {
	.set = async_swap_set,
};
module_param_cb(async_swap, &async_swap_ops, NULL, 0200);
MODULE_PARM_DESC(async_swap, "Connect this module's probe to test_markers_async");

static int async_go_set(const char *val, const struct kernel_param *kp)
{
	complete(&async_go);
	return 0;
}

static const struct kernel_param_ops async_go_ops = {
	.set = async_go_set,
};
module_param_cb(async_go, &async_go_ops, NULL, 0200);
MODULE_PARM_DESC(async_go, "Let the async init work pass its marker");

static noinline void __init async_pass(int v)
{
	MARK(test_markers_async, "value %d", v);
}

static void __init async_work(void *data, async_cookie_t cookie)
{
	if (!wait_for_completion_timeout(&async_go, 60 * HZ)) {
		pr_err("async init: nobody wrote async_go in 60 s\n");
		return;
	}
	async_pass(7);
	pr_info("async init: passed test_markers_async\n");
}

static int __init check(const char *what, bool ok)
{
	if (ok)
		return 0;
	pr_err("FAIL: %s (hits %d, sum %lld)\n", what, hits, sum);
	return -EINVAL;
}

static int __init test_markers_init(void)
{
	int ret;

	say("passing marker test_markers_module with value 1, no probe connected\n");
	test_markers_pass(1);
	ret = check("no probe, no call", hits == 0);
	say("connecting a probe to test_markers_module\n");
	ret = ret ?: marker_probe_register("test_markers_module", "value %d",
					   test_probe, NULL);
	say("passing marker test_markers_module with value 2\n");
	test_markers_pass(2);
	ret = ret ?: check("module marker connected", hits == 1 && sum == 2);
	say("disconnecting the probe\n");
	ret = ret ?: marker_probe_unregister("test_markers_module", test_probe,
					     NULL);
	say("passing marker test_markers_module with value 3\n");
	test_markers_pass(3);
	ret = ret ?: check("module marker disconnected", hits == 1);

	say("the same with a _trace_mark() marker in __init code, value 4\n");
	ret = ret ?: marker_probe_register("test_markers_module_init",
					   "value %d", test_probe, NULL);
	test_markers_pass_init(4);
	ret = ret ?: check("init marker connected", hits == 2 && sum == 6);
	ret = ret ?: marker_probe_unregister("test_markers_module_init",
					     test_probe, NULL);

	test_markers_event_init(10);
	if (!ret && init_race)
		ret = race_start();
	if (!ret && async_work_on)
		async_schedule(async_work, NULL);
	if (!ret)
		pr_info("ok\n");
	return ret;
}
module_init(test_markers_init);

/* test_markers_exit is passed once, as the module goes. */
static void __exit test_markers_exit(void)
{
	race_wait();
	if (async_connected)
		marker_probe_unregister("test_markers_async", async_probe,
					&async_magic);
	MARK(test_markers_exit, "value %d", 1);
}
module_exit(test_markers_exit);

MODULE_DESCRIPTION("Kernel markers test module");
MODULE_LICENSE("GPL");
#if defined(CONFIG_MARKERS_KUNIT_TEST) && defined(CONFIG_HAVE_ARCH_MARKERS)
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
#endif
