// SPDX-License-Identifier: GPL-2.0
/*
 * Markers whose trace events the markers kselftests read: one of each
 * kind of format.  Writing N to the "pass" parameter passes every marker
 * once with values derived from N; writing K to "burst" passes tme_basic
 * K times, and tme_typeclash once.  tools/testing/selftests/ftrace/
 * test.d/markers/ and the markers kselftests know the values.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>

/* A string longer than a recorded string may be. */
static char tme_long[300];

static noinline void tme_pass(int n)
{
	char comm[16];

	snprintf(comm, sizeof(comm), "tme%d", n);
	MARK(tme_basic, "pid %d comm %s value %llu", n, comm,
	     n + 10000000000ULL);
	MARK(tme_noname, "%d-%u %s", n, n + 1, comm);
	MARK(tme_dup, "x %d x %d", n, -n);
	MARK(tme_ints, "c %c hh %hhd uhh %hhu h %hd uh %hu i %i u %u x %x X %X o %o",
	     'A' + n % 26, (signed char)-n, (unsigned char)(n + 200),
	     (short)(-n * 100), (unsigned short)(n + 60000), -n,
	     4000000000U + n, 0xdead0000U + n, 0xdead0000U + n, n);
	/* No %c first: libtraceevent before 1.7.3 loses the fields after one. */
	MARK(tme_narrow, "hh %hhd uhh %hhu h %hd uh %hu", (signed char)-n,
	     (unsigned char)(n + 200), (short)(-n * 100),
	     (unsigned short)(n + 60000));
	MARK(tme_longs, "l %ld ul %lu ll %lld ull %llu z %zu zd %zd t %td p %p w %08x pad %-4d end",
	     n * -1000000000L, ULONG_MAX - n, -1000000000000000LL * n,
	     18000000000000000000ULL + n, (size_t)n * 3, (ssize_t)-n,
	     (ptrdiff_t)(-2 * n), (void *)(0x1000UL + n), n, n);
	MARK(tme_str, "s %s empty %s null %s quote \"%s\" pct %% long %s",
	     comm, "", (char *)NULL, comm, tme_long);
	MARK(tme_partial, "ok %d sym %pS w %*d after %u", n,
	     (void *)tme_pass, 3, n, n + 1);
	/* Names after "=", ":" and "0x"; a conversion the events do not know. */
	MARK(tme_edge, "a=%d b: %u addr 0x%lx pct %%d w %5.3s m %m after %d",
	     n, n + 1, 0x1000UL + n, "abcdef", n);
	MARK(tme_noargs, MARK_NOARGS);
	/* Typed in BTF: a tp_btf program follows the task pointer. */
	MARK(tme_task, "task %p pid %d comm %s", current, current->pid,
	     current->comm);
	/* Two sites of one name passing different types (see tme_burst()). */
	MARK(tme_typeclash, "p %p", current);
	/* Never patched: its probes read a va_list of a variadic function. */
	_trace_mark(tme_unpatched, "n %d s %s v %lld c %c", n, comm,
		    -1000000000000LL * n, 'A' + n % 26);
}

static int pass_set(const char *val, const struct kernel_param *kp)
{
	int n, ret = kstrtoint(val, 0, &n);

	if (ret)
		return ret;
	tme_pass(n);
	return 0;
}

static const struct kernel_param_ops pass_ops = {
	.set = pass_set,
};
module_param_cb(pass, &pass_ops, NULL, 0200);
MODULE_PARM_DESC(pass, "Pass every marker once with values from this number");

static noinline void tme_burst(int k)
{
	char comm[16];
	int i;

	for (i = 0; i < k; i++) {
		snprintf(comm, sizeof(comm), "tme%d", i);
		MARK(tme_basic, "pid %d comm %s value %llu", i, comm,
		     i + 10000000000ULL);
	}
	MARK(tme_typeclash, "p %p", comm);
}

static int burst_set(const char *val, const struct kernel_param *kp)
{
	int k, ret = kstrtoint(val, 0, &k);

	if (ret)
		return ret;
	if (k < 0 || k > 1000000) {
		pr_err("burst: %d passes refused, 0 to 1000000\n", k);
		return -EINVAL;
	}
	tme_burst(k);
	return 0;
}

static const struct kernel_param_ops burst_ops = {
	.set = burst_set,
};
module_param_cb(burst, &burst_ops, NULL, 0200);
MODULE_PARM_DESC(burst, "Pass tme_basic this many times");

static int __init test_marker_events_init(void)
{
	memset(tme_long, 'L', sizeof(tme_long) - 1);
	return 0;
}

static void __exit test_marker_events_exit(void)
{
}

module_init(test_marker_events_init);
module_exit(test_marker_events_exit);
MODULE_DESCRIPTION("Markers of every kind of format, for their trace events");
MODULE_LICENSE("GPL");
