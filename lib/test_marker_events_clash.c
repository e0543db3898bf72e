// SPDX-License-Identifier: GPL-2.0
/*
 * A marker of the same name as one of test_marker_events, with another
 * format: its event is refused while test_marker_events is loaded.  And
 * one of the same name and format (tme_dup), whose event the two modules
 * share.
 */

#include <linux/marker.h>
#include <linux/module.h>

static int pass_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	MARK(tme_basic, "pid %u", n);
	MARK(tme_dup, "x %d x %d", (int)n, -(int)n);
	return 0;
}

static const struct kernel_param_ops pass_ops = {
	.set = pass_set,
};
module_param_cb(pass, &pass_ops, NULL, 0200);
MODULE_PARM_DESC(pass, "Pass the markers with this number");

MODULE_DESCRIPTION("A marker whose format clashes with test_marker_events'");
MODULE_LICENSE("GPL");
