// SPDX-License-Identifier: GPL-2.0
/*
 * An external module with markers, built with M= by
 * harness/kbuild-check.sh: its own Module.markers lists them.
 */
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/sched.h>

static int __init ext_markers_init(void)
{
	MARK(ext_markers_load, "pid %d comm %s", current->pid, current->comm);
	MARK(ext_markers_noargs, MARK_NOARGS);
	if (MARK_ENABLED(ext_markers_only_enabled))
		pr_info("ext_markers: probed\n");
	return 0;
}
module_init(ext_markers_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("External module with kernel markers");
