// SPDX-License-Identifier: GPL-2.0
/*
 * marker-example.c: markers in several contexts, passed on demand.
 *
 * Each write to /sys/kernel/debug/marker-example/trigger passes, in the
 * writer's process context:
 *
 *	example_process	"pid %d comm %s"
 *	example_noargs	no arguments
 *	example_wide	"count %llu delta %lld path %s"
 *
 * and starts a timer that passes, in softirq context:
 *
 *	example_timer	"count %llu"
 *
 * The markers cost a NOP each while no probe is connected; see
 * probe-example.c for a module that connects probes, and
 * Documentation/trace/markers.rst.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/timer.h>

static struct dentry *example_dir;
static struct timer_list example_timer;
static atomic64_t example_count = ATOMIC64_INIT(0);

static void example_timer_fn(struct timer_list *t)
{
	MARK(example_timer, "count %llu",
	     (unsigned long long)atomic64_read(&example_count));
}

static ssize_t example_trigger(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	u64 n = atomic64_inc_return(&example_count);

	MARK(example_process, "pid %d comm %s", task_pid_nr(current),
	     current->comm);
	MARK(example_noargs, MARK_NOARGS);
	MARK(example_wide, "count %llu delta %lld path %s",
	     (unsigned long long)n, -(long long)n, file->f_path.dentry->d_name.name);
	mod_timer(&example_timer, jiffies + 1);
	return count;
}

static const struct file_operations example_fops = {
	.owner = THIS_MODULE,
	.write = example_trigger,
	.llseek = noop_llseek,
};

static int __init marker_example_init(void)
{
	timer_setup(&example_timer, example_timer_fn, 0);
	example_dir = debugfs_create_dir("marker-example", NULL);
	debugfs_create_file("trigger", 0200, example_dir, NULL, &example_fops);
	return 0;
}

static void __exit marker_example_exit(void)
{
	debugfs_remove_recursive(example_dir);
	del_timer_sync(&example_timer);
}

module_init(marker_example_init);
module_exit(marker_example_exit);

MODULE_DESCRIPTION("Kernel markers sample: markers passed on demand");
MODULE_LICENSE("GPL");
