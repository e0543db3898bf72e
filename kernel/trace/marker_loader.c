// SPDX-License-Identifier: GPL-2.0
/*
 * marker_loader: connect a generic probe to markers by name, no module to
 * write, and record each hit as a markers:marker trace event:
 *
 *	modprobe marker_loader markers=subsys_a,subsys_b
 *	echo subsys_c > /sys/kernel/debug/markers/enable
 *	echo subsys_a > /sys/kernel/debug/markers/disable
 *	echo 1 > /sys/kernel/tracing/events/markers/marker/enable
 *	cat /sys/kernel/tracing/trace
 *
 * The hit's arguments are stored in binary, strings copied (bounded by
 * the record's size), and formatted by the marker's own format when the
 * trace is read.  See Documentation/markers.txt.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/list.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_seq.h>
#include <linux/uaccess.h>

#define CREATE_TRACE_POINTS
#include <trace/events/markers.h>

/* As the core: a C identifier, shorter than 128 characters. */
#define MARKER_LOADER_NAME_MAX	127
/* The arguments of one hit, strings included: 512 bytes of stack. */
#define MARKER_LOADER_WORDS	128

/**
 * struct marker_loader_entry - a marker the loader's probe is connected to
 * @list: link in marker_loader_entries
 * @name: its name
 */
struct marker_loader_entry {
	struct list_head list;
	char name[];
};

/* Serializes enabling and disabling; protects marker_loader_entries. */
static DEFINE_MUTEX(marker_loader_mutex);
static LIST_HEAD(marker_loader_entries);

/*
 * The probe: called in the marker's context, any context, NMI included.
 * It stores the arguments as they are now; strings are copied, so that
 * reading the trace later never touches what they pointed to.
 */
static void marker_loader_probe(void *probe_private, void *call_private,
				const char *fmt, va_list *args)
{
	struct marker_loader_entry *e = probe_private;
	u32 buf[MARKER_LOADER_WORDS];
	va_list ap;
	int words;

	if (!trace_marker_enabled())
		return;
	va_copy(ap, *args);
	words = vbin_printf(buf, ARRAY_SIZE(buf), fmt, ap);
	va_end(ap);
	if (words < 0 || (unsigned int)words > ARRAY_SIZE(buf))
		trace_marker(e->name, fmt, buf, 0, true);
	else
		trace_marker(e->name, fmt, buf, words, false);
}

/**
 * marker_loader_print() - format a recorded hit's arguments
 * @p: the trace_seq the event is printed into
 * @fmt: the marker's format, from the record
 * @args: the arguments, from the record
 * @lost: whether they did not fit
 *
 * Return: the formatted arguments, in @p's buffer.
 */
const char *marker_loader_print(struct trace_seq *p, const char *fmt,
				const u32 *args, bool lost)
{
	const char *ret = trace_seq_buffer_ptr(p);

	if (lost)
		trace_seq_puts(p, "(arguments too long, not recorded)");
	else
		trace_seq_bprintf(p, fmt, args);
	trace_seq_putc(p, '\0');
	return ret;
}

static struct marker_loader_entry *marker_loader_find(const char *name)
{
	struct marker_loader_entry *e;

	lockdep_assert_held(&marker_loader_mutex);
	list_for_each_entry(e, &marker_loader_entries, list)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

/*
 * Connect the probe to @name.  @pending: the name need not be loaded yet
 * (the probe then waits for it); otherwise it must be.
 */
static int marker_loader_enable(const char *name, bool pending)
{
	struct marker_loader_entry *e;
	int ret;

	lockdep_assert_held(&marker_loader_mutex);
	if (marker_loader_find(name))
		return 0;
	if (!pending && !marker_is_loaded(name)) {
		pr_err("enable %s: no such marker is loaded\n", name);
		return -ENOENT;
	}
	e = kzalloc(struct_size(e, name, strlen(name) + 1), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	strcpy(e->name, name);
	ret = marker_probe_register(name, NULL, marker_loader_probe, e);
	if (ret) {
		pr_err("enable %s: cannot connect: %d\n", name, ret);
		kfree(e);
		return ret;
	}
	list_add_tail(&e->list, &marker_loader_entries);
	if (!marker_is_loaded(name))
		pr_info("%s: waiting for the marker to be loaded\n", name);
	return 0;
}

/* Disconnect; on return no CPU is in the probe for @e any more. */
static void marker_loader_disable(struct marker_loader_entry *e)
{
	lockdep_assert_held(&marker_loader_mutex);
	marker_probe_unregister(e->name, marker_loader_probe, e);
	list_del(&e->list);
	kfree(e);
}

static void marker_loader_disable_all(void)
{
	struct marker_loader_entry *e, *tmp;

	mutex_lock(&marker_loader_mutex);
	list_for_each_entry_safe(e, tmp, &marker_loader_entries, list)
		marker_loader_disable(e);
	mutex_unlock(&marker_loader_mutex);
}

/* A marker name: a C identifier of at most MARKER_LOADER_NAME_MAX. */
static bool marker_loader_name_ok(const char *what, const char *name)
{
	const char *c;

	if (!*name)
		goto bad;
	for (c = name; *c; c++)
		if (!isalnum(*c) && *c != '_')
			goto bad;
	if (c - name <= MARKER_LOADER_NAME_MAX && !isdigit(*name))
		return true;
bad:
	pr_err("%s: invalid marker name \"%*pE\"%s\n", what,
	       (int)min_t(size_t, strlen(name), MARKER_LOADER_NAME_MAX), name,
	       strlen(name) > MARKER_LOADER_NAME_MAX ? "..." : "");
	return false;
}

/*
 * A debugfs write: one name, with or without a final newline.  Anything
 * else, a longer write included, is refused before it is copied whole.
 */
static ssize_t marker_loader_write(const char *what, const char __user *ubuf,
				   size_t count, char *name)
{
	size_t len = count;

	if (!count || count > MARKER_LOADER_NAME_MAX + 1) {
		pr_err("%s: a write of %zu bytes: write one marker name\n",
		       what, count);
		return -EINVAL;
	}
	if (copy_from_user(name, ubuf, count))
		return -EFAULT;
	if (name[len - 1] == '\n')
		len--;
	name[len] = '\0';
	if (strlen(name) != len || !marker_loader_name_ok(what, name))
		return -EINVAL;
	return count;
}

static ssize_t marker_loader_enable_write(struct file *file,
					  const char __user *ubuf,
					  size_t count, loff_t *ppos)
{
	char name[MARKER_LOADER_NAME_MAX + 2];
	ssize_t ret;
	int err;

	ret = marker_loader_write("enable", ubuf, count, name);
	if (ret < 0)
		return ret;
	mutex_lock(&marker_loader_mutex);
	err = marker_loader_enable(name, false);
	mutex_unlock(&marker_loader_mutex);
	return err ?: ret;
}

static ssize_t marker_loader_disable_write(struct file *file,
					   const char __user *ubuf,
					   size_t count, loff_t *ppos)
{
	char name[MARKER_LOADER_NAME_MAX + 2];
	struct marker_loader_entry *e;
	ssize_t ret;

	ret = marker_loader_write("disable", ubuf, count, name);
	if (ret < 0)
		return ret;
	mutex_lock(&marker_loader_mutex);
	e = marker_loader_find(name);
	if (e)
		marker_loader_disable(e);
	mutex_unlock(&marker_loader_mutex);
	if (!e) {
		pr_err("disable %s: not enabled\n", name);
		return -ENOENT;
	}
	return ret;
}

/* Reading "enable" lists the markers the probe is connected to. */
static int marker_loader_show(struct seq_file *f, void *v)
{
	struct marker_loader_entry *e;

	mutex_lock(&marker_loader_mutex);
	list_for_each_entry(e, &marker_loader_entries, list)
		seq_printf(f, "%s\n", e->name);
	mutex_unlock(&marker_loader_mutex);
	return 0;
}

static int marker_loader_open(struct inode *inode, struct file *file)
{
	return single_open(file, marker_loader_show, NULL);
}

static const struct file_operations marker_loader_enable_fops = {
	.owner = THIS_MODULE,
	.open = marker_loader_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = marker_loader_enable_write,
};

static const struct file_operations marker_loader_disable_fops = {
	.owner = THIS_MODULE,
	.write = marker_loader_disable_write,
	.llseek = noop_llseek,
};

static struct dentry *marker_loader_files[2];

static void marker_loader_debugfs_init(void)
{
	struct dentry *dir = debugfs_lookup("markers", NULL);

	if (IS_ERR_OR_NULL(dir))
		return;
	marker_loader_files[0] = debugfs_create_file("enable", 0600, dir,
						     NULL,
						     &marker_loader_enable_fops);
	marker_loader_files[1] = debugfs_create_file("disable", 0200, dir,
						     NULL,
						     &marker_loader_disable_fops);
	dput(dir);
}

static char *markers;
module_param(markers, charp, 0400);
MODULE_PARM_DESC(markers, "markers to connect at load, comma-separated; they may be loaded later");

/* The "markers" parameter: every name valid, or the load fails. */
static int marker_loader_enable_param(void)
{
	char *names, *p, *name;
	int ret = 0;

	if (!markers)
		return 0;
	names = kstrdup(markers, GFP_KERNEL);
	if (!names)
		return -ENOMEM;
	mutex_lock(&marker_loader_mutex);
	p = names;
	while (!ret && (name = strsep(&p, ",")))
		ret = marker_loader_name_ok("markers=", name) ?
		      marker_loader_enable(name, true) : -EINVAL;
	mutex_unlock(&marker_loader_mutex);
	kfree(names);
	return ret;
}

static int __init marker_loader_init(void)
{
	int ret = marker_loader_enable_param();

	if (ret) {
		marker_loader_disable_all();
		return ret;
	}
	marker_loader_debugfs_init();
	return 0;
}

static void __exit marker_loader_exit(void)
{
	debugfs_remove(marker_loader_files[0]);
	debugfs_remove(marker_loader_files[1]);
	marker_loader_disable_all();
}

module_init(marker_loader_init);
module_exit(marker_loader_exit);

MODULE_DESCRIPTION("Record kernel marker hits as trace events, markers chosen at run time");
MODULE_LICENSE("GPL");
