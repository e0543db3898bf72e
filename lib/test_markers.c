// SPDX-License-Identifier: GPL-2.0
/*
 * Test module for kernel markers: its own markers, in module text and in
 * its init code, connected and disconnected while it loads.  Loading
 * fails with -EINVAL if any check fails; tools/testing/selftests/markers/
 * loads it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/marker.h>
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
	if (!ret)
		pr_info("ok\n");
	return ret;
}
module_init(test_markers_init);

static void __exit test_markers_exit(void)
{
}
module_exit(test_markers_exit);

MODULE_DESCRIPTION("Kernel markers test module");
MODULE_LICENSE("GPL");
