// SPDX-License-Identifier: GPL-2.0
/*
 * probe-example.c: connect probes to the markers of marker-example.c by
 * name and print every hit with its arguments, decoded by the marker's
 * own format.
 *
 * Either module may be loaded first: a probe connected to a name that no
 * loaded code has yet waits for it.  Then
 *
 *	echo > /sys/kernel/debug/marker-example/trigger
 *
 * prints, for instance,
 *
 *	probe_example: example_process: pid 42 comm sh
 *	probe_example: example_noargs:
 *	probe_example: example_wide: count 1 delta -1 path trigger
 *	probe_example: example_timer: count 1
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/printk.h>

/*
 * A probe gets the marker's format and a va_list of its arguments; %pV
 * prints them through that format.  It may be called in any context the
 * marker is passed in (here process and softirq), so it must not sleep.
 */
static void probe_print(void *probe_private, void *call_private,
			const char *fmt, va_list *args)
{
	struct va_format vaf = { .fmt = fmt, .va = args };

	pr_info("%s: %pV\n", (const char *)probe_private, &vaf);
}

static const struct {
	const char *name;
	const char *format;
} probe_markers[] = {
	{ "example_process", "pid %d comm %s" },
	{ "example_noargs", MARK_NOARGS },
	{ "example_wide", "count %llu delta %lld path %s" },
	{ "example_timer", "count %llu" },
};

/* On return no CPU is in probe_print() any more: the module may go. */
static void probe_example_disconnect(unsigned int n)
{
	while (n--)
		marker_probe_unregister(probe_markers[n].name, probe_print,
					(void *)probe_markers[n].name);
}

static int __init probe_example_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(probe_markers); i++) {
		ret = marker_probe_register(probe_markers[i].name,
					    probe_markers[i].format,
					    probe_print,
					    (void *)probe_markers[i].name);
		if (ret) {
			pr_err("cannot connect to %s: %d\n",
			       probe_markers[i].name, ret);
			probe_example_disconnect(i);
			return ret;
		}
	}
	return 0;
}

static void __exit probe_example_exit(void)
{
	probe_example_disconnect(ARRAY_SIZE(probe_markers));
}

module_init(probe_example_init);
module_exit(probe_example_exit);

MODULE_DESCRIPTION("Kernel markers sample: probes that print each hit");
MODULE_LICENSE("GPL");
