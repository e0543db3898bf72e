// SPDX-License-Identifier: GPL-2.0
/*
 * Probe module for the markers kselftest: connects a probe to the marker
 * named by its "name" parameter when it loads, whether or not a marker of
 * that name exists yet, and counts the calls in its "hits" and "sum"
 * parameters, and those passed the format "value %d" in "fmt_hits".
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/string.h>

static char *name = "test_markers_event";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "Marker to connect to, with format \"value %d\"");

static bool any_format;
module_param(any_format, bool, 0444);
MODULE_PARM_DESC(any_format, "Register without a format, taking the marker's");

static int hits;
module_param(hits, int, 0444);
MODULE_PARM_DESC(hits, "Calls of the probe");

static int sum;
module_param(sum, int, 0444);
MODULE_PARM_DESC(sum, "Sum of the values the probe was called with");

static int fmt_hits;
module_param(fmt_hits, int, 0444);
MODULE_PARM_DESC(fmt_hits, "Calls passed the format \"value %d\"");

/* Set once the probe is disconnected: no call may start after that. */
static bool unregistered;

static void test_probe(void *probe_private, void *call_private,
		       const char *fmt, va_list *args)
{
	int v = va_arg(*args, int);

	WARN_ONCE(READ_ONCE(unregistered),
		  "test_markers_probe: %s called after its unregistration\n",
		  name);

	/* Calls may come from several CPUs at once. */
	atomic_inc((atomic_t *)&hits);
	atomic_add(v, (atomic_t *)&sum);
	if (fmt && !strcmp(fmt, "value %d"))
		atomic_inc((atomic_t *)&fmt_hits);
}

static int __init test_markers_probe_init(void)
{
	return marker_probe_register(name, any_format ? NULL : "value %d",
				     test_probe, NULL);
}
module_init(test_markers_probe_init);

static void __exit test_markers_probe_exit(void)
{
	marker_probe_unregister(name, test_probe, NULL);
	WRITE_ONCE(unregistered, true);
	pr_info("%s: disconnected\n", name);
}
module_exit(test_markers_probe_exit);

MODULE_DESCRIPTION("Kernel markers test probe");
MODULE_LICENSE("GPL");
