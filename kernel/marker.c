// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers: probes connected by name to MARK() sites.
 *
 * Every MARK() expansion has a struct marker in __markers.  Probes
 * are kept per name in marker_table, whether or not a marker of that name
 * exists yet; connecting a name points every struct marker of that name
 * (in vmlinux and in every module) at the name's probe array and, with
 * CONFIG_HAVE_ARCH_MARKERS, arms its patchable sites.
 *
 * See Documentation/trace/markers.rst.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/cpu.h>
#include <linux/hashtable.h>
#include <linux/irq_work.h>
#include <linux/jhash.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/marker.h>
#include <linux/marker_test.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/sections.h>
#include <kunit/visibility.h>

#include "marker_internal.h"

/**
 * DOC: Probe arrays, RCU and locking
 *
 * Probes are kept per name in marker_table, whether or not a marker of
 * that name exists yet, with the format its probes asked for, if any.  A
 * name's probes are an array of closures (probe, probe_private) in
 * registration order, ended by a NULL probe, and never empty.  Every
 * change builds a new array, publishes it with rcu_assign_pointer() in
 * each struct marker of the name, in vmlinux and in every module, and
 * frees the old one with kfree_rcu().  The hit path takes no lock: sites,
 * marker_run_probes() and marker_run_probes_va() read the array with
 * preemption off, so a grace period after it is unpublished no CPU still
 * reads it.  A marker that was
 * connected once is never NULL again (marker_probes_none), so an armed
 * site reads an array without testing it.
 *
 * Where RCU is not watching.  A grace period does not wait for a CPU that
 * RCU does not watch.  Kernel code runs so in two places: noinstr text
 * (the idle loop, entry code), which must not call instrumentable code,
 * hence hold no MARK() (objtool checks it with CONFIG_NOINSTR_VALIDATION,
 * as for tracepoints), and a CPU going offline, which runs instrumentable
 * code once it has told RCU it is dead (cpuhp_report_idle_dead()).  That
 * CPU goes while its hotplug operation holds the CPU hotplug lock, and
 * every publication of a probe array, like every change of a site or a
 * call, happens under markers_lock(), which takes that lock for reading:
 * the CPU reads only arrays published before it began to go, and those are
 * unpublished, and freed a grace period later, only once it is dead.  So
 * sites test nothing.  Where the architecture does not confine such code to
 * noinstr text (no CONFIG_ARCH_WANTS_NO_INSTR), and with CONFIG_PROVE_RCU
 * (which checks, as tracepoints do with lockdep), sites and
 * marker_run_probes() (or _va()) test the CPU first and call no probe there:
 * marker_skip_unwatched() counts the pass and logs the first one from an
 * irq_work, which runs where printk() may.
 *
 * marker_probe_unregister() and marker_probe_unregister_private_data()
 * wait for a grace period before they return, and so does
 * marker_probe_register() when it fails with -EINVAL, as a refused site
 * makes it fail after sites were armed: then no CPU runs the probe any
 * more, and its module may go.
 * Unregistering cannot fail for lack of memory: without memory for a
 * smaller array, the closure is replaced by marker_probe_stub() in the
 * array in use, and copies of the array leave stubs out.
 *
 * Where sites are jump labels (CONFIG_MARKERS_STATIC_KEYS), a marker's
 * static key is enabled after its array is published and disabled after
 * the array is cleared: a site still on the enabled path calls
 * marker_run_probes(), which calls the array it reads, or nothing.  jump_label
 * keeps off freed init text, handles modules, and is kept off by kprobes.
 *
 * markers_mutex serializes registration, module load and unload, and
 * every change of a site or a call.  It protects marker_table, the ranges
 * of markers (marker_ranges: vmlinux's, then each module's), and the
 * state and probes of every struct marker, and may be held across
 * sleeping allocations and code patching.  What publishes or patches
 * takes it with markers_lock(), which adds the architecture's lock
 * (arch_marker_lock(): kprobe_mutex on x86) and the CPU hotplug lock for
 * reading, in kprobes' order; arch_marker_change() then takes
 * text_mutex, and where sites are jump labels
 * static_branch_enable_cpuslocked() takes jump_label_mutex (then
 * text_mutex).  The debugfs sites file walks kallsyms and takes
 * module_mutex before it takes markers_mutex.
 */

/**
 * DOC: Pointing calls at probes
 *
 * Where the architecture patches its own sites (CONFIG_HAVE_ARCH_MARKERS),
 * each site's out-of-line block makes a direct call that the core points
 * at the marker's probe while it has exactly one; at a trampoline of the
 * architecture's, which calls each probe of the array directly, while it
 * has two to MARKER_TRAMP_MAX_PROBES; and at marker_iterate() otherwise
 * (none, more, a stub among them, or no trampoline free).  The sites and
 * calls to change are gathered in batches of MARKER_CHANGE_MAX, one chunk
 * of the architecture's each (marker_patch_range()).
 *
 * A trampoline belongs to one probe array (arch_marker_tramp_get()) and
 * has its probes and their probe_private as immediates: it calls them
 * whatever array the site read.  The calls leave it for the iterator
 * before the array changes, and go to the new array's trampoline once
 * the steps below are done, so that the steps are taken with the calls
 * where they would be without trampolines.  It goes back to the
 * architecture with its array (marker_probes_free()), which writes it
 * again only a grace period later; one that a call may still lead to,
 * because the call was refused, is never given back.
 *
 * A site reads the probe array, then the first closure's probe_private,
 * then calls, with preemption off throughout: a CPU may call a new target
 * with what it read in an older array.  So the target of a call changes
 * in an order taken from the static calls of kernel/tracepoint.c, in which
 * no CPU calls a probe with another probe's probe_private
 * (marker_entry_set()):
 *
 * 0 -> 1
 *   the single probe's array is published, then the sites are armed and
 *   their calls pointed at the probe; a site armed before its call changed
 *   calls the iterator, which calls the same probe.
 * 1 -> 2
 *   the calls are pointed at marker_iterate() first, then the array of two
 *   is published.  A CPU that read the old array calls its one closure,
 *   directly or through the iterator.
 * 2 -> 1
 *   the array of one is published while the calls still point at the
 *   iterator; a grace period later (started when the first closure last
 *   changed), the calls are pointed at the probe.  A CPU that read [A, B]
 *   and still runs the block would otherwise call B with A's
 *   probe_private.
 * 1 -> 0
 *   the sites are disarmed and the calls pointed back at the iterator,
 *   then the array is replaced by marker_probes_none, whose only closure
 *   is a stub without probe_private: a CPU that still runs the block calls
 *   the iterator with the array it read, either one.  If a probe is then
 *   connected again, the calls are pointed at it only a grace period after
 *   this (1 -> 0 -> 1: a CPU that read [A] must not call B with A's
 *   probe_private).
 *
 * Grace periods are waited for only when such a transition follows, with
 * cond_synchronize_rcu() on a cookie taken at the earlier step, as
 * tracepoint.c does.  Replacing a probe by a stub points the calls at the
 * iterator.  A change of selection (marker_select()) points every call of
 * the name at the iterator first, as some sites may lose their probes, and
 * a going module's sites and calls are set as for 1 -> 0 before its
 * markers lose theirs.
 *
 * The architecture checks each instruction's bytes before it writes it,
 * and leaves alone, with a log line, one that is in neither its old nor
 * its new state.  A registration that meets such a site fails with
 * -EINVAL: the previous array is published again and the sites armed
 * meanwhile are disarmed.  A disconnection still succeeds, and a site
 * left armed finds no probe in the array it reads.
 */

/**
 * DOC: Modules and init text
 *
 * Every module with markers gets a range in marker_ranges from the core's
 * module notifier.  It runs at priority 1: for MODULE_STATE_COMING before
 * the marker events' notifier and KUnit's (priority 0), which then find
 * the module's markers connected; for MODULE_STATE_GOING after the marker
 * events' notifier (priority 2), which disconnects the events' probes
 * first.
 *
 * MODULE_STATE_COMING
 *   the module's markers are connected to the probes that wait for their
 *   names and its sites are armed, with their calls pointed at once: code
 *   that never ran needs no grace period.  A site that is refused is
 *   logged; the module's other sites work.
 * MODULE_STATE_LIVE
 *   the module's init text is freed once the notifiers return, and is
 *   not written after; but do_init_module() runs these notifiers before
 *   async_synchronize_full(), so the module's async __init work may still
 *   pass its init-text sites.  A call there left pointing at a single
 *   probe would call it after it was replaced, with its successor's
 *   probe_private, and after its module was unloaded.  So the calls in
 *   init text are pointed at marker_iterate(), which calls whatever probes
 *   the site reads, before the text is marked gone.
 * MODULE_STATE_GOING
 *   a going module's code may still run: a write to one of its parameters
 *   does not hold the module, and sysfs waits for that write only after
 *   the GOING notifiers.  The core disconnects the module's markers and
 *   disarms its sites before it forgets them: a site left armed would go
 *   on calling probes whose data is freed (a marker event's file, for
 *   one), from a probe array that is freed too.
 *
 * Text is written only while it exists.  Every batch of changes is chosen
 * and written under markers_mutex, and whoever frees text with sites in
 * it takes markers_mutex first and marks it gone: kernel_init() calls
 * marker_free_init_mem() before it frees vmlinux's init memory (which on
 * x86 holds built-in __exit text too), and the MODULE_STATE_LIVE notifier
 * marks a module's init text gone before it is freed.  vmlinux's init
 * text runs no more by then: kernel_init() waits for async work first.
 * A site chosen while its text existed is therefore written before that
 * text goes, and none is chosen after.
 */

/**
 * struct marker_probes - an RCU-managed, NULL-terminated probe array
 * @rcu: frees the array once no site can still be reading it
 * @tramp: where the architecture patches calls, a trampoline that calls
 *	   these probes, or 0 (arch_marker_tramp_get())
 * @probes: the closures, in registration order, then a NULL @func
 */
struct marker_probes {
	struct rcu_head rcu;
	unsigned long tramp;
	struct marker_probe_closure probes[];
};

/*
 * markers_mutex serializes registration and module load/unload.  It
 * protects marker_table and every entry in it, marker_ranges, and the
 * @state and @probes fields of every struct marker.  It may be held across
 * sleeping allocations and code patching.
 *
 * Lock order: markers_mutex -> kprobe_mutex (arch_marker_lock(), x86)
 * -> CPU hotplug lock -> text_mutex (arch_marker_change()), or ->
 * jump_label_mutex (-> text_mutex) where sites are jump labels.
 * markers_lock() takes the first three.  The debugfs sites file walks
 * kallsyms and module_mutex before it takes markers_mutex.
 *
 * The hit path takes no lock: it reads struct marker::probes with
 * preemption off, and old probe arrays are freed only after an RCU grace
 * period.
 */
DEFINE_MUTEX(markers_mutex);
DEFINE_HASHTABLE(marker_table, MARKER_HASH_BITS);

/*
 * Every range of markers: vmlinux's first, from the start (registration
 * may come from an early initcall), then each module's as it comes.
 */
static struct marker_range marker_vmlinux = {
	.list = LIST_HEAD_INIT(marker_ranges),
	.start = __start___markers,
	.stop = __stop___markers,
#ifdef CONFIG_HAVE_ARCH_MARKERS
	.sites = __start___marker_sites,
	.sites_stop = __stop___marker_sites,
	.calls = __start___marker_calls,
	.calls_stop = __stop___marker_calls,
#endif
};

struct list_head marker_ranges = LIST_HEAD_INIT(marker_vmlinux.list);

/*
 * For what publishes probes or patches sites: markers_mutex, then what
 * patching needs in kprobes' order, the CPU hotplug lock included, so
 * that no CPU is on its way offline meanwhile (see "Probe arrays, RCU and
 * locking").
 */
static void markers_lock(void)
{
	mutex_lock(&markers_mutex);
	arch_marker_lock();
	cpus_read_lock();
}

static void markers_unlock(void)
{
	cpus_read_unlock();
	arch_marker_unlock();
	mutex_unlock(&markers_mutex);
}

/*
 * A marker passed where RCU is not watching: said once, from an irq_work,
 * which runs where printk() may.
 */
static const char *marker_unwatched_name;
static atomic_long_t marker_unwatched;

static void marker_unwatched_tell(struct irq_work *work)
{
	pr_warn("%s passed where RCU is not watching (idle, or a CPU going offline): its probes are not called there\n",
		READ_ONCE(marker_unwatched_name));
}

static DEFINE_IRQ_WORK(marker_unwatched_work, marker_unwatched_tell);

/**
 * marker_skip_unwatched() - a marker passed where RCU is not watching
 * @mark: the marker
 *
 * Called by MARK() sites and marker_run_probes() (or _va()) instead of the
 * probes, where they test whether RCU watches (MARKER_CHECK_RCU).  The
 * first such pass is logged.
 *
 * Context: any, RCU not watching, preemption off.
 */
void notrace marker_skip_unwatched(const struct marker *mark)
{
	if (atomic_long_inc_return(&marker_unwatched) != 1)
		return;
	WRITE_ONCE(marker_unwatched_name, mark->name);
	irq_work_queue(&marker_unwatched_work);
}
EXPORT_SYMBOL_GPL(marker_skip_unwatched);
NOKPROBE_SYMBOL(marker_skip_unwatched);

/*
 * The probe array that a flag site or a jump label site on its enabled
 * path calls, or NULL: before the first connection (such a site may see
 * its state before the array), or where RCU does not watch the CPU and
 * sites test it (MARKER_CHECK_RCU).  An array is never empty.
 */
static __always_inline struct marker_probe_closure *
marker_probes_to_call(const struct marker *mark)
{
	if (MARKER_CHECK_RCU && unlikely(marker_rcu_ignores_cpu())) {
		marker_skip_unwatched(mark);
		return NULL;
	}
	return rcu_dereference_sched(mark->probes);
}

#if !defined(CONFIG_HAVE_ARCH_MARKERS) && !defined(CONFIG_HAVE_ARCH_MARKER_VA)
/**
 * marker_run_probes() - call the probes connected to a marker
 * @mark: the marker hit
 * @call_private: the site's private data
 *
 * Called by every site where the architecture does not build a va_list
 * (_trace_mark(), and MARK() on jump labels or a flag) while probes are
 * connected, and by those that were a moment ago; safe in any context
 * where a MARK() may be, NMI included (see "Probe arrays, RCU and
 * locking").  Where sites test whether RCU watches (MARKER_CHECK_RCU) and
 * it does not, the probes are not called, and the first such pass is
 * logged.
 */
void notrace marker_run_probes(const struct marker *mark, void *call_private, ...)
{
	va_list args __uninitialized;
	struct marker_probe_closure *p;

	rcu_read_lock_sched_notrace();
	p = marker_probes_to_call(mark);
	if (p) {
		do {
			va_start(args, call_private);
			p->func(p->probe_private, call_private, mark->format,
				&args);
			va_end(args);
		} while ((++p)->func);
	}
	rcu_read_unlock_sched_notrace();
}
EXPORT_SYMBOL_GPL(marker_run_probes);
NOKPROBE_SYMBOL(marker_run_probes);
#endif

#if defined(CONFIG_HAVE_ARCH_MARKERS) || defined(CONFIG_HAVE_ARCH_MARKER_VA)
/**
 * marker_iterate() - call every probe of a marker, from a site
 * @probe_private: ignored (the first closure's)
 * @call_private: the site's private data
 * @fmt: the marker's format
 * @args: the arguments, as the site stored them
 * @p: the probe array that the site read, not empty
 *
 * What a site calls while its marker has no probe or more than one, and
 * while the call is being changed.  It calls the closures of the array
 * the site read, each with its own probe_private, whatever the marker's
 * array is by now: the site read it with preemption off, so it is not
 * freed before the site returns.
 *
 * Context: a MARK() site: preemption off, RCU watching.
 */
void notrace marker_iterate(void *probe_private, void *call_private,
			    const char *fmt, va_list *args,
			    struct marker_probe_closure *p)
{
	void *start = arch_marker_va_start(args);

	/* Each probe reads the arguments from the first; the last, tail-called. */
	for (; p[1].func; p++) {
		p->func(p->probe_private, call_private, fmt, args);
		arch_marker_va_rewind(args, start);
	}
	p->func(p->probe_private, call_private, fmt, args);
}
EXPORT_SYMBOL_GPL(marker_iterate);
NOKPROBE_SYMBOL(marker_iterate);

/**
 * marker_run_probes_va() - call the probes connected to a marker
 * @mark: the marker hit
 * @call_private: the site's private data
 * @args: the arguments, in a va_list that the site built as the
 *	  architecture's sites do (<asm/marker.h>)
 *
 * marker_run_probes() where the architecture builds the va_list: called
 * by _trace_mark() and the other flag sites, so that every probe gets its
 * arguments laid out as an armed site lays them out.  Safe where a MARK()
 * may be, as marker_run_probes() is.
 */
void notrace marker_run_probes_va(const struct marker *mark,
				  void *call_private, va_list *args)
{
	struct marker_probe_closure *p;

	rcu_read_lock_sched_notrace();
	p = marker_probes_to_call(mark);
	if (p)
		marker_iterate(p->probe_private, call_private, mark->format,
			       args, p);
	rcu_read_unlock_sched_notrace();
}
EXPORT_SYMBOL_GPL(marker_run_probes_va);
NOKPROBE_SYMBOL(marker_run_probes_va);
#endif

static struct hlist_head *marker_bucket(const char *name)
{
	return &marker_table[hash_min(jhash(name, strlen(name), 0),
				      MARKER_HASH_BITS)];
}

struct marker_entry *marker_entry_find(const char *name)
{
	struct marker_entry *e;

	lockdep_assert_held(&markers_mutex);
	hlist_for_each_entry(e, marker_bucket(name), hlist)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

static struct marker_entry *marker_entry_find_or_add(const char *name)
{
	struct marker_entry *e = marker_entry_find(name);
	size_t len = strlen(name) + 1;

	if (e)
		return e;
	e = kzalloc(struct_size(e, name, len), GFP_KERNEL);
	if (!e)
		return NULL;
	memcpy(e->name, name, len);
	hlist_add_head(&e->hlist, marker_bucket(name));
	return e;
}

/*
 * Free @e if nothing is connected to it any more and it selects no sites;
 * the format is the probes', and goes with the last of them.
 */
static void marker_entry_put(struct marker_entry *e)
{
	if (e->nr_probes)
		return;
	kfree(e->format);
	e->format = NULL;
	if (e->query)
		return;
	hash_del(&e->hlist);
	kfree(e);
}

/* Whether a probe of @format may connect to @m; MARK_ENABLED() takes any. */
static bool marker_format_ok(const struct marker *m, const char *format)
{
	return !format || !m->format || !strcmp(m->format, format);
}

#ifdef CONFIG_MARKERS_STATIC_KEYS
/*
 * Sites that are jump labels follow @m's probes: the key goes on after the
 * array is published and off after it is cleared, as @state does.  A site
 * still on its enabled path meanwhile calls marker_run_probes(), which calls the
 * array it reads, or nothing if it reads NULL.  jump_label keeps off freed
 * init text and handles modules.
 */
static void marker_key_set(struct marker *m, bool connected)
{
	if (connected)
		static_branch_enable_cpuslocked(&m->key);
	else
		static_branch_disable_cpuslocked(&m->key);
}
#else
static inline void marker_key_set(struct marker *m, bool connected)
{
}
#endif

/*
 * Stands in for a probe that was disconnected when no smaller array could
 * be allocated; copies of the array leave it out.  Also the only probe of
 * marker_probes_none.
 */
static void marker_probe_stub(void *probe_private, void *call_private,
			      const char *fmt, va_list *args)
{
}

/*
 * The probes of a marker that was connected and is not any more: sites
 * that were armed read an array, never NULL, and need not test it.
 */
static struct marker_probe_closure marker_probes_none[] = {
	{ .func = marker_probe_stub },
	{ }
};

/*
 * Point @m at @e's probes if it is among @e's selected sites, or
 * disconnect it; keep format mismatches out.
 */
static void marker_set_probes(struct marker *m, const struct marker_entry *e,
			      struct module *mod)
{
	struct marker_probe_closure *p = marker_probes_none;

	if (e && e->probes && marker_query_match(e->query, m, mod)) {
		if (!marker_format_ok(m, e->format)) {
			pr_warn("%s%s%s: format \"%s\" differs from the probes' \"%s\", not connected\n",
				mod ? module_name(mod) : "", mod ? ":" : "",
				m->name, m->format, e->format);
			return;
		}
		p = e->probes->probes;
	}
	rcu_assign_pointer(m->probes, p);
	WRITE_ONCE(m->state, p != marker_probes_none);
	marker_key_set(m, p != marker_probes_none);
}

/* What marker_patch() changes. */
#define MARKER_SITES	1	/* arm the sites of connected markers */
#define MARKER_CALLS	2	/* point calls at what marker_call_wanted() says */
#define MARKER_ITERATE	4	/* point calls at marker_iterate() */
#define MARKER_OFF	8	/* disarm the sites, point calls at marker_iterate() */

#ifdef CONFIG_HAVE_ARCH_MARKERS
/*
 * Init text may be written only while it exists: vmlinux's until
 * kernel_init() frees it, a module's until the module goes live.  Both
 * set @init_freed under markers_mutex first (marker_free_init_mem(), the
 * MODULE_STATE_LIVE notifier), and every batch is chosen and written
 * under markers_mutex: a site chosen while its text existed is written
 * before that text goes.
 */
static bool marker_text_writable(unsigned long code,
				 const struct marker_range *r)
{
	if (!r->init_freed)
		return true;
	/* vmlinux: init text, and built-in __exit text, freed with it. */
	if (!r->mod)
		return !init_section_contains((void *)code, 1);
	return code < r->init_start || code >= r->init_end;
}

bool marker_site_writable(const struct marker_site *s,
			  const struct marker_range *r)
{
	return marker_text_writable(marker_site_code(s), r);
}

/* Whether [@start, @end] touches the @size bytes at @code. */
static __always_inline bool marker_overlaps(unsigned long code,
					    unsigned int size,
					    unsigned long start,
					    unsigned long end)
{
	return start <= code + size - 1 && end >= code;
}

/*
 * A range touches a site unless it is the site's first byte alone: a kprobe
 * there (at the MARK_SYM symbol) is on an instruction boundary in either
 * state; any other byte, or a longer range, would be torn by arming.
 */
static bool marker_sites_reserved(const struct marker_site *s,
				  const struct marker_site *stop,
				  unsigned long start, unsigned long end)
{
	unsigned long code;

	for (; s < stop; s++) {
		code = marker_site_code(s);
		if (marker_overlaps(code, MARKER_SITE_SIZE, start, end) &&
		    !(start == code && end == code))
			return true;
	}
	return false;
}

/* Whether a call of probes in [@c, @stop) touches [@start, @end]. */
static bool marker_calls_at(const struct marker_probe_call *c,
			    const struct marker_probe_call *stop,
			    unsigned long start, unsigned long end)
{
	for (; c < stop; c++)
		if (marker_overlaps(marker_probe_call_code(c), MARKER_CALL_SIZE,
				    start, end))
			return true;
	return false;
}

NOKPROBE_SYMBOL(marker_calls_at);

static unsigned long marker_sites_target(const struct marker_site *s,
					 const struct marker_site *stop,
					 unsigned long addr)
{
	for (; s < stop; s++)
		if (marker_site_code(s) == addr)
			return marker_site_target(s);
	return 0;
}

NOKPROBE_SYMBOL(marker_sites_target);

#ifdef CONFIG_MODULES
/* The module whose text holds @addr, with a reference; or NULL. */
static struct module *marker_text_module(unsigned long addr)
{
	struct module *mod;

	preempt_disable();
	mod = __module_text_address(addr);
	if (!try_module_get(mod))
		mod = NULL;
	preempt_enable();
	return mod;
}

NOKPROBE_SYMBOL(marker_text_module);

/* marker_text_reserved() for the module whose text holds @s, if any. */
static int marker_module_text_reserved(unsigned long s, unsigned long e)
{
	struct module *mod = marker_text_module(s);
	int ret;

	if (!mod)
		return 0;
	ret = marker_sites_reserved(mod->marker_sites,
				    mod->marker_sites + mod->num_marker_sites,
				    s, e) ||
	      marker_calls_at(mod->marker_calls,
			      mod->marker_calls + mod->num_marker_calls, s, e);
	module_put(mod);
	return ret;
}

NOKPROBE_SYMBOL(marker_module_text_reserved);

/* marker_site_target_at() for the module whose text holds @addr. */
static unsigned long marker_module_site_target(unsigned long addr)
{
	struct module *mod = marker_text_module(addr);
	unsigned long ret;

	if (!mod)
		return 0;
	ret = marker_sites_target(mod->marker_sites,
				  mod->marker_sites + mod->num_marker_sites,
				  addr);
	module_put(mod);
	return ret;
}

NOKPROBE_SYMBOL(marker_module_site_target);
#else
static int marker_module_text_reserved(unsigned long s, unsigned long e)
{
	return 0;
}

static unsigned long marker_module_site_target(unsigned long addr)
{
	return 0;
}
#endif

/**
 * marker_text_reserved() - whether text belongs to a marker site
 * @start: first byte of the range
 * @end: last byte of the range
 *
 * kprobes must not write a site's bytes: arming rewrites them.  A probe
 * on a site's first byte, where its MARK_SYM symbol points, is allowed.
 *
 * Context: any; takes no lock (kprobes call it holding text_mutex, with
 * preemption off).
 * Return: 1 if the range touches a site other than at its first byte
 * alone, 0 otherwise.
 */
int marker_text_reserved(void *start, void *end)
{
	unsigned long s = (unsigned long)start, e = (unsigned long)end;

	if (marker_sites_reserved(__start___marker_sites, __stop___marker_sites, s, e) ||
	    marker_calls_at(__start___marker_calls, __stop___marker_calls,
			    s, e))
		return 1;
	return marker_module_text_reserved(s, e);
}

/**
 * marker_site_target_at() - the out-of-line block of the site at @addr
 * @addr: an address, the first byte of a site or not
 *
 * For kprobes, which emulate a site they probe as its current state says.
 *
 * Context: any; takes no lock.
 * Return: where the site jumps when armed, or 0 if @addr is not the first
 * byte of a site.
 */
unsigned long marker_site_target_at(void *addr)
{
	unsigned long a = (unsigned long)addr, ret;

	ret = marker_sites_target(__start___marker_sites, __stop___marker_sites, a);
	return ret ?: marker_module_site_target(a);
}

NOKPROBE_SYMBOL(marker_site_target_at);

/*
 * Sites to arm or disarm and calls to point elsewhere, gathered by
 * marker_patch_range() and handed to the arch in one call, which changes
 * them with a fixed number of syncs per chunk of MARKER_CHANGE_MAX: a
 * batch fills one chunk.  @err keeps the first error of the arch since
 * the last marker_batch_done().  Protected by markers_mutex.
 */
static struct marker_batch {
	struct marker_change v[MARKER_CHANGE_MAX];
	unsigned int nr;
	int err;
} marker_batch;

#ifdef CONFIG_MARKERS_KUNIT_TEST
static void (*marker_test_flush)(const struct marker_change *v, unsigned int nr);

/**
 * marker_test_set_flush() - set a hook on every batch of changes, for tests
 * @fn: called with a batch that is about to be written, markers_mutex
 *	held, to widen the window between choosing sites and writing them;
 *	NULL for none
 */
void marker_test_set_flush(void (*fn)(const struct marker_change *v, unsigned int nr))
{
	WRITE_ONCE(marker_test_flush, fn);
}
EXPORT_SYMBOL_IF_KUNIT(marker_test_set_flush);

static void marker_test_flush_hook(const struct marker_batch *b)
{
	typeof(marker_test_flush) fn = READ_ONCE(marker_test_flush);

	if (fn)
		fn(b->v, b->nr);
}
#else
static inline void marker_test_flush_hook(const struct marker_batch *b)
{
}
#endif

static void marker_batch_flush(void)
{
	struct marker_batch *b = &marker_batch;
	int ret;

	lockdep_assert_held(&markers_mutex);
	if (b->nr) {
		marker_test_flush_hook(b);
		ret = arch_marker_change(b->v, b->nr);
		b->err = b->err ?: ret;
	}
	b->nr = 0;
}

/* Write what is left; return the first error since the last call. */
static int marker_batch_done(void)
{
	int ret;

	marker_batch_flush();
	ret = marker_batch.err;
	marker_batch.err = 0;
	return ret;
}

static struct marker_change *marker_batch_next(void)
{
	struct marker_batch *b = &marker_batch;

	if (b->nr == ARRAY_SIZE(b->v))
		marker_batch_flush();
	memset(&b->v[b->nr], 0, sizeof(b->v[0]));
	return &b->v[b->nr++];
}

/* Whether @p, not empty, has a stub among its closures. */
static bool marker_probes_stubbed(const struct marker_probe_closure *p)
{
	for (; p->func; p++)
		if (p->func == marker_probe_stub)
			return true;
	return false;
}

/*
 * What a call of @m's probes should call: the only probe while @m has
 * exactly one, the array's trampoline while it has several and one,
 * marker_iterate() otherwise (no probe, more than a trampoline takes, or
 * a stub left by an unregistration that ran out of memory).
 */
static unsigned long marker_call_wanted(const struct marker *m)
{
	const struct marker_probe_closure *p;
	const struct marker_probes *array;

	p = rcu_dereference_protected(m->probes,
				      lockdep_is_held(&markers_mutex));
	if (!p || marker_probes_stubbed(p))
		return (unsigned long)marker_iterate;
	if (!p[1].func)
		return (unsigned long)p[0].func;
	array = container_of(p, struct marker_probes, probes[0]);
	return array->tramp ?: (unsigned long)marker_iterate;
}

/*
 * Set the sites and calls of the markers called @name in @r (all, for
 * NULL) as their struct marker says, or as a disconnected one would have
 * them (MARKER_OFF).
 */
static void marker_patch_range(const struct marker_range *r,
			       const char *name, unsigned int what)
{
	const struct marker_site *s;
	const struct marker_probe_call *c;
	struct marker_change *v;
	const struct marker *m;

	for (s = r->sites; what & (MARKER_SITES | MARKER_OFF) &&
	     s < r->sites_stop; s++) {
		m = marker_site_marker(s);
		if ((name && strcmp(m->name, name)) ||
		    !marker_site_writable(s, r))
			continue;
		v = marker_batch_next();
		v->site = s;
		v->armed = !(what & MARKER_OFF) && READ_ONCE(m->state);
	}
	for (c = r->calls;
	     what & (MARKER_CALLS | MARKER_ITERATE | MARKER_OFF) &&
	     c < r->calls_stop; c++) {
		m = marker_probe_call_marker(c);
		if ((name && strcmp(m->name, name)) ||
		    !marker_text_writable(marker_probe_call_code(c), r))
			continue;
		v = marker_batch_next();
		v->call = c;
		v->target = what & (MARKER_ITERATE | MARKER_OFF) ?
			    (unsigned long)marker_iterate :
			    marker_call_wanted(m);
	}
}
#else
static int marker_batch_done(void)
{
	return 0;
}

static void marker_patch_range(const struct marker_range *r,
			       const char *name, unsigned int what)
{
}
#endif

/* Connect the markers called @e's name in @r to @e's probes, or not. */
static void marker_connect_range(const struct marker_range *r,
				 const struct marker_entry *e)
{
	struct marker *m;

	for (m = r->start; m < r->stop; m++)
		if (!strcmp(m->name, e->name))
			marker_set_probes(m, e, r->mod);
}

/* Connect every marker of @e's name to its probes, or disconnect it. */
static void marker_connect_all(const struct marker_entry *e)
{
	struct marker_range *r;

	lockdep_assert_held(&markers_mutex);
	list_for_each_entry(r, &marker_ranges, list)
		marker_connect_range(r, e);
}

/*
 * Set the sites and calls (@what) of every marker of @e's name as their
 * struct marker says.  Returns 0, or -EINVAL if an instruction's bytes
 * were not as expected (logged): it is left alone, the others are set.
 */
static int marker_patch(const struct marker_entry *e, unsigned int what)
{
	struct marker_range *r;

	lockdep_assert_held(&markers_mutex);
	list_for_each_entry(r, &marker_ranges, list)
		marker_patch_range(r, e->name, what);
	return marker_batch_done();
}

/*
 * In @r, the first marker called @name with a format: one of @format if
 * there is one.
 */
static const struct marker *marker_range_format(const struct marker_range *r,
						const char *name,
						const char *format)
{
	const struct marker *first = NULL;
	struct marker *m;

	for (m = r->start; m < r->stop; m++) {
		if (!m->format || strcmp(m->name, name))
			continue;
		if (!strcmp(m->format, format))
			return m;
		first = first ?: m;
	}
	return first;
}

/*
 * A loaded marker called @name with @format if there is one, else one
 * with another format, else NULL (none is loaded, or only MARK_ENABLED()
 * ones, which have no format).
 */
static const struct marker *marker_format_find(const char *name,
					       const char *format)
{
	const struct marker *m, *found = NULL;
	struct marker_range *r;

	lockdep_assert_held(&markers_mutex);
	list_for_each_entry(r, &marker_ranges, list) {
		m = marker_range_format(r, name, format);
		if (m && !strcmp(m->format, format))
			return m;
		found = found ?: m;
	}
	return found;
}

/*
 * A probe of @format is refused if it differs from the probes connected
 * to the name, or if markers of the name are loaded and none has it.
 * Markers of the name with another format are then left out of the
 * probes (marker_set_probes()).
 */
static int marker_check_format(struct marker_entry *e, const char *format)
{
	const struct marker *m;

	if (!format)
		return 0;
	if (e->format && strcmp(e->format, format)) {
		pr_err("%s: probe format \"%s\" differs from connected probes' \"%s\"\n",
		       e->name, format, e->format);
		return -EPERM;
	}
	m = marker_format_find(e->name, format);
	if (m && strcmp(m->format, format)) {
		pr_err("%s: probe format \"%s\" differs from marker format \"%s\"\n",
		       e->name, format, m->format);
		return -EPERM;
	}
	return 0;
}

static bool marker_probe_match(const struct marker_probe_closure *c,
			       marker_probe_func *probe, void *probe_private)
{
	return c->func == probe && c->probe_private == probe_private;
}

/* How many of @e's closures are not stubs, and how many match. */
static void marker_probes_count(const struct marker_entry *e,
				marker_probe_func *probe, void *probe_private,
				unsigned int *live, unsigned int *hits)
{
	const struct marker_probe_closure *c;
	unsigned int i;

	*live = 0;
	*hits = 0;
	for (i = 0; i < e->nr_probes; i++) {
		c = &e->probes->probes[i];
		*live += c->func != marker_probe_stub;
		*hits += marker_probe_match(c, probe, probe_private);
	}
}

/*
 * A new array with room for @size closures and the NULL end, holding @e's
 * closures but stubs and (@probe, @probe_private); *@n says how many.
 */
static struct marker_probes *marker_probes_copy(const struct marker_entry *e,
						marker_probe_func *probe,
						void *probe_private,
						unsigned int size,
						unsigned int *n)
{
	const struct marker_probe_closure *c;
	struct marker_probes *new;
	unsigned int i;

	new = kzalloc(struct_size(new, probes, size + 1), GFP_KERNEL);
	if (!new)
		return NULL;
	*n = 0;
	for (i = 0; i < e->nr_probes; i++) {
		c = &e->probes->probes[i];
		if (c->func != marker_probe_stub &&
		    !marker_probe_match(c, probe, probe_private))
			new->probes[(*n)++] = *c;
	}
	return new;
}

/*
 * @e's new probe array, with (@probe, @probe_private) appended and stubs
 * dropped, in *@newp.  Returns the number of closures in it, or -EBUSY if
 * the closure is there already, or -ENOMEM; the caller publishes it.
 */
static int marker_probes_add(const struct marker_entry *e,
			     marker_probe_func *probe, void *probe_private,
			     struct marker_probes **newp)
{
	unsigned int live, hits, n;
	struct marker_probes *new;

	lockdep_assert_held(&markers_mutex);
	marker_probes_count(e, probe, probe_private, &live, &hits);
	if (hits)
		return -EBUSY;
	new = marker_probes_copy(e, probe, probe_private, live + 1, &n);
	if (!new)
		return -ENOMEM;
	new->probes[n].func = probe;
	new->probes[n++].probe_private = probe_private;
	*newp = new;
	return n;
}

/*
 * @e's new probe array, without (@probe, @probe_private) and without
 * stubs, in *@newp: NULL when nothing is left.  Returns the number of
 * closures in it, or -ENOENT if the closure is not there, or -ENOMEM; the
 * caller publishes it.
 */
static int marker_probes_remove(const struct marker_entry *e,
				marker_probe_func *probe, void *probe_private,
				struct marker_probes **newp)
{
	unsigned int live, hits, n;

	lockdep_assert_held(&markers_mutex);
	marker_probes_count(e, probe, probe_private, &live, &hits);
	if (!hits)
		return -ENOENT;
	*newp = NULL;
	if (hits == live)
		return 0;
	*newp = marker_probes_copy(e, probe, probe_private, live - hits, &n);
	return *newp ? n : -ENOMEM;
}

/*
 * Grace periods before a call is pointed at a single probe, as
 * kernel/tracepoint.c has them for its static calls (tp_rcu_get_state(),
 * tp_rcu_cond_sync()).  A site reads the probe array, then the first
 * closure's probe_private, then calls, with preemption off throughout; a
 * CPU may therefore call a new target with what it read in an older array:
 *
 *  1->0->1: a CPU that read [A] before the last probe went, and still runs
 *	the block, must not call a new single probe B with A's probe_private.
 *	Going to one probe waits for a grace period started when the last
 *	one went.
 *  N->2->1: a CPU that read [A, B] calls marker_iterate() (which calls
 *	the closures of [A, B]), until the call points at B; then it
 *	would call B with A's.  Going to one probe waits for a grace period
 *	started when the array's first probe_private last changed.
 *
 * marker_gp is protected by markers_mutex.
 */
enum { MARKER_GP_1_0_1, MARKER_GP_N_2_1, MARKER_GP_NR };

static struct {
	unsigned long cookie;
	bool pending;
} marker_gp[MARKER_GP_NR];

static void marker_gp_start(int which)
{
	marker_gp[which].cookie = get_state_synchronize_rcu();
	marker_gp[which].pending = true;
}

static void marker_gp_wait(int which)
{
	if (marker_gp[which].pending)
		cond_synchronize_rcu(marker_gp[which].cookie);
	marker_gp[which].pending = false;
}

static void *marker_priv0(const struct marker_probes *p)
{
	return p ? p->probes[0].probe_private : NULL;
}

/*
 * Make @new (of @nr closures, NULL for none) @e's probe array, and change
 * the sites and calls of its markers in an order in which no CPU calls a
 * probe with another's probe_private (see marker_gp above), with calls
 * that are not at a trampoline.  Returns 0, or -EINVAL if an instruction
 * was refused (logged).
 */
static int marker_entry_switch(struct marker_entry *e,
			       struct marker_probes *new, unsigned int nr)
{
	struct marker_probes *old = e->probes;
	unsigned int old_nr = e->nr_probes;
	int ret = 0;

	lockdep_assert_held(&markers_mutex);
	e->probes = new;
	e->nr_probes = nr;
	if (!old_nr && nr) {
		/* 0 -> 1: arm the sites, their calls at the probe. */
		marker_gp_wait(MARKER_GP_1_0_1);
		marker_connect_all(e);
		return marker_patch(e, MARKER_SITES | MARKER_CALLS);
	}
	if (!nr) {
		/*
		 * 1 -> 0: disarm, calls back at the iterator; then the empty
		 * array, which only the iterator may call.
		 */
		ret = marker_patch(e, MARKER_OFF);
		marker_connect_all(e);
		marker_gp_start(MARKER_GP_1_0_1);
		return ret;
	}
	if (old_nr == 1 && nr > 1) {
		/* 1 -> 2: the iterator first, which calls all it is given. */
		ret = marker_patch(e, MARKER_ITERATE);
		marker_connect_all(e);
		return ret;
	}
	marker_connect_all(e);
	if (marker_priv0(new) != marker_priv0(old))
		marker_gp_start(MARKER_GP_N_2_1);
	if (nr > 1)
		return 0;
	/* 2 -> 1: the probe, once no CPU can hold an older first closure. */
	marker_gp_wait(MARKER_GP_N_2_1);
	return marker_patch(e, MARKER_CALLS);
}

#ifdef CONFIG_HAVE_ARCH_MARKERS
/* Give @p, of @nr closures, a trampoline if it may have one. */
static bool marker_tramp_get(struct marker_probes *p, unsigned int nr)
{
	if (nr < 2 || p->tramp || marker_probes_stubbed(p->probes))
		return false;
	p->tramp = arch_marker_tramp_get(p->probes, nr);
	return p->tramp;
}

static void marker_tramp_put(struct marker_probes *p)
{
	if (p->tramp)
		arch_marker_tramp_put(p->tramp);
	p->tramp = 0;
}
#else
static bool marker_tramp_get(struct marker_probes *p, unsigned int nr)
{
	return false;
}

static void marker_tramp_put(struct marker_probes *p)
{
}
#endif

/*
 * marker_entry_switch(), for calls that may be at a trampoline: calls
 * leave the old array's before anything else changes, and go to the new
 * one's once the rest is done.  The old array keeps its trampoline until
 * it is freed (marker_probes_free()), so that a failed change can publish
 * it again.
 */
static int marker_entry_set(struct marker_entry *e, struct marker_probes *new,
			    unsigned int nr)
{
	int ret = 0;

	if (e->probes && e->probes->tramp &&
	    marker_patch(e, MARKER_ITERATE)) {
		/* A call may still lead there: it is never rewritten. */
		e->probes->tramp = 0;
		ret = -EINVAL;
	}
	ret = marker_entry_switch(e, new, nr) ?: ret;
	if (new && (new->tramp || marker_tramp_get(new, nr)))
		ret = marker_patch(e, MARKER_CALLS) ?: ret;
	return ret;
}

/* Free an array that no marker has any more, after a grace period. */
static void marker_probes_free(struct marker_probes *p)
{
	marker_tramp_put(p);
	kfree_rcu(p, rcu);
}

/* The same, for good: the old array goes after a grace period. */
static void marker_entry_publish(struct marker_entry *e,
				 struct marker_probes *new, unsigned int nr)
{
	struct marker_probes *old = e->probes;

	/* A site that stays armed finds no probe of this array: harmless. */
	marker_entry_set(e, new, nr);
	if (old)
		marker_probes_free(old);
}

/*
 * Disconnect (@probe, @probe_private) without allocating, as tracepoints
 * do: the closures become stubs in the array in use.
 */
static void marker_entry_stub(struct marker_entry *e,
			      marker_probe_func *probe, void *probe_private)
{
	unsigned int i;

	for (i = 0; i < e->nr_probes; i++)
		if (marker_probe_match(&e->probes->probes[i], probe,
				       probe_private))
			WRITE_ONCE(e->probes->probes[i].func,
				   marker_probe_stub);
	/*
	 * A call that went straight to it, or to the array's trampoline,
	 * goes to the iterator.  A trampoline that a call may still lead to
	 * is never rewritten.
	 */
	if (marker_patch(e, MARKER_CALLS))
		e->probes->tramp = 0;
}

static bool marker_name_ok(const char *name)
{
	if (name && *name && strnlen(name, MARKER_NAME_MAX) < MARKER_NAME_MAX)
		return true;
	pr_err("invalid marker name: %s\n",
	       !name ? "NULL" : *name ? "too long" : "empty");
	return false;
}

/*
 * Connect @e's probes to the markers its query selects, and disconnect
 * the others: each marker goes 0 -> 1 or 1 -> 0 as for the name's first
 * and last probe.
 */
static int marker_entry_reselect(struct marker_entry *e)
{
	int ret;

	if (!e->nr_probes)
		return 0;
	/* Sites it leaves get the empty array: calls at the iterator first. */
	ret = marker_patch(e, MARKER_ITERATE);
	marker_gp_wait(MARKER_GP_1_0_1);
	marker_connect_all(e);
	ret = marker_patch(e, MARKER_SITES | MARKER_CALLS) ?: ret;
	marker_gp_start(MARKER_GP_1_0_1);
	return ret;
}

/**
 * marker_select() - choose which sites of a marker its probes connect to
 * @name: the marker's name
 * @query: the sites, by module, file, function and line ("file foo.c
 *	   line 10-20"; see Documentation/trace/markers.rst), or NULL or
 *	   "" for all of them
 *
 * From then on the probes of @name, those of its trace event included,
 * are connected to the MARK() sites that @query matches, in vmlinux and
 * in modules loaded later; the name's other sites stay disabled.  The
 * query is kept while no probe is connected, so that it may be set
 * before the first probe arms any site.  MARK_ENABLED() is not a site:
 * it is true while the name has probes, whatever the query.
 *
 * Return: 0; -EINVAL for a bad @name or @query (logged; nothing changes),
 * or if a site could not be set (its bytes were not as expected; logged:
 * the query is in force for the others); -ENOMEM.
 */
int marker_select(const char *name, const char *query)
{
	struct marker_query *q, *old;
	struct marker_entry *e;
	int ret;

	if (!marker_name_ok(name))
		return -EINVAL;
	ret = marker_query_parse(name, query, &q);
	if (ret)
		return ret;
	markers_lock();
	e = q ? marker_entry_find_or_add(name) : marker_entry_find(name);
	if (!e) {
		ret = q ? -ENOMEM : 0;
		marker_query_free(q);
		goto unlock;
	}
	old = e->query;
	e->query = q;
	ret = marker_entry_reselect(e);
	marker_query_free(old);
	marker_entry_put(e);
unlock:
	markers_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(marker_select);

/**
 * marker_probe_register() - connect a probe to a marker by name
 * @name: the marker's name
 * @format: the format the probe expects, or NULL to accept any
 * @probe: the probe
 * @probe_private: passed back to @probe
 *
 * The probe is called, after the probes registered before it, each time a
 * marker called @name is passed, including in modules loaded later.
 *
 * Return: 0; -EINVAL for a bad @name or no @probe, or if a site of
 * @name could not be armed (its bytes were not as expected; logged);
 * -EBUSY if (@probe, @probe_private) is already connected to @name;
 * -EPERM if @format differs from the connected probes', or if markers
 * of @name are loaded and none has @format (those with another format
 * are left out while it is connected); -ENOMEM.  On error nothing is connected, and no CPU runs
 * @probe any more.
 */
int marker_probe_register(const char *name, const char *format,
			  marker_probe_func *probe, void *probe_private)
{
	struct marker_probes *new, *old;
	struct marker_entry *e;
	unsigned int old_nr;
	char *fmt = NULL;
	int ret;

	if (!marker_name_ok(name))
		return -EINVAL;
	if (!probe) {
		pr_err("%s: no probe function\n", name);
		return -EINVAL;
	}

	markers_lock();
	ret = -ENOMEM;
	e = marker_entry_find_or_add(name);
	if (!e)
		goto unlock;
	ret = marker_check_format(e, format);
	if (ret)
		goto put;
	if (format && !e->format) {
		ret = -ENOMEM;
		fmt = kstrdup(format, GFP_KERNEL);
		if (!fmt)
			goto put;
	}
	ret = marker_probes_add(e, probe, probe_private, &new);
	if (ret < 0)
		goto free_fmt;
	if (fmt)
		e->format = fmt;
	old = e->probes;
	old_nr = e->nr_probes;
	ret = marker_entry_set(e, new, ret);
	if (ret)
		goto restore;
	if (old)
		marker_probes_free(old);
	goto unlock;

restore:
	/* A site was refused: connect what was there before, and fail. */
	marker_entry_set(e, old, old_nr);
	marker_probes_free(new);
	if (fmt)
		e->format = NULL;
free_fmt:
	kfree(fmt);
put:
	marker_entry_put(e);
unlock:
	markers_unlock();
	/* Sites armed meanwhile may have called @probe. */
	if (ret == -EINVAL)
		synchronize_rcu();
	return ret;
}
EXPORT_SYMBOL_GPL(marker_probe_register);

/*
 * Remove (@probe, @probe_private) from @e; the caller must synchronize.
 * Returns 0 or -ENOENT: without memory for a smaller array the closure is
 * stubbed out in place, so that unregistering cannot fail.
 */
static int marker_entry_remove(struct marker_entry *e,
			       marker_probe_func *probe, void *probe_private)
{
	struct marker_probes *new;
	int ret;

	ret = marker_probes_remove(e, probe, probe_private, &new);
	if (ret == -ENOMEM) {
		marker_entry_stub(e, probe, probe_private);
		return 0;
	}
	if (ret < 0)
		return ret;
	marker_entry_publish(e, new, ret);
	marker_entry_put(e);
	return 0;
}

/**
 * marker_probe_unregister() - disconnect a probe from a marker
 * @name: the marker's name
 * @probe: the probe
 * @probe_private: the private data it was registered with
 *
 * On return no CPU is still running @probe for this connection, so that
 * a module may unregister in its exit function and be unloaded at once.
 *
 * Return: 0, or -ENOENT if (@probe, @probe_private) is not connected to
 * @name, or -EINVAL for a bad @name.
 */
int marker_probe_unregister(const char *name, marker_probe_func *probe,
			    void *probe_private)
{
	struct marker_entry *e;
	int ret = -ENOENT;

	if (!marker_name_ok(name))
		return -EINVAL;

	markers_lock();
	e = marker_entry_find(name);
	if (e)
		ret = marker_entry_remove(e, probe, probe_private);
	markers_unlock();
	if (!ret)
		synchronize_rcu();
	return ret;
}
EXPORT_SYMBOL_GPL(marker_probe_unregister);

/**
 * marker_probe_unregister_private_data() - disconnect a probe everywhere
 * @probe: the probe
 * @probe_private: the private data it was registered with
 *
 * Disconnects (@probe, @probe_private) from every marker name it is
 * connected to and waits, as marker_probe_unregister() does.
 *
 * Return: 0, or -ENOENT if it was connected nowhere.
 */
int marker_probe_unregister_private_data(marker_probe_func *probe,
					 void *probe_private)
{
	struct marker_entry *e;
	struct hlist_node *tmp;
	int bkt, ret = -ENOENT;

	markers_lock();
	hash_for_each_safe(marker_table, bkt, tmp, e, hlist)
		if (!marker_entry_remove(e, probe, probe_private))
			ret = 0;
	markers_unlock();
	if (!ret)
		synchronize_rcu();
	return ret;
}
EXPORT_SYMBOL_GPL(marker_probe_unregister_private_data);

/**
 * marker_get_private_data() - find a probe's private data
 * @name: the marker's name
 * @probe: the probe
 * @num: which of @probe's connections to @name, counting from 0
 *
 * Return: the probe_private of the @num-th connection of @probe to @name,
 * or ERR_PTR(-ENOENT).
 */
void *marker_get_private_data(const char *name, marker_probe_func *probe,
			      int num)
{
	void *ret = ERR_PTR(-ENOENT);
	struct marker_probe_closure *c;
	struct marker_entry *e;

	if (!marker_name_ok(name))
		return ERR_PTR(-EINVAL);

	mutex_lock(&markers_mutex);
	e = marker_entry_find(name);
	for (c = e && e->probes ? e->probes->probes : NULL; c && c->func; c++)
		if (c->func == probe && num-- == 0) {
			ret = c->probe_private;
			break;
		}
	mutex_unlock(&markers_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_get_private_data);

static bool marker_range_has(const struct marker_range *r, const char *name)
{
	const struct marker *m;

	for (m = r->start; m < r->stop; m++)
		if (!strcmp(m->name, name))
			return true;
	return false;
}

/* Whether any loaded code has a marker called @name. */
bool marker_name_present(const char *name)
{
	const struct marker_range *r;

	lockdep_assert_held(&markers_mutex);
	list_for_each_entry(r, &marker_ranges, list)
		if (marker_range_has(r, name))
			return true;
	return false;
}

#ifdef CONFIG_MARKERS_KUNIT_TEST
/**
 * marker_is_loaded() - whether loaded code has a marker of a given name
 * @name: the marker's name
 *
 * For the KUnit tests, which are built in.
 *
 * Context: may sleep.
 * Return: true if vmlinux or a loaded module has a marker called @name.
 */
bool marker_is_loaded(const char *name)
{
	bool ret;

	mutex_lock(&markers_mutex);
	ret = marker_name_present(name);
	mutex_unlock(&markers_mutex);
	return ret;
}
#endif

#ifdef CONFIG_HAVE_ARCH_MARKERS
/**
 * marker_free_init_mem() - vmlinux init memory is about to be freed
 *
 * Called by kernel_init() before it frees init memory (and built-in
 * __exit text with it): no site there is written from now on, and a
 * batch that chose one before has been written when this returns.
 */
void __init marker_free_init_mem(void)
{
	mutex_lock(&markers_mutex);
	marker_vmlinux.init_freed = true;
	mutex_unlock(&markers_mutex);
}
#endif

/**
 * marker_synchronize_unregister() - wait for probe calls in flight
 *
 * Waits until every CPU has left every probe call that started before;
 * after disconnecting probes, call it before freeing what they use.
 */
void marker_synchronize_unregister(void)
{
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(marker_synchronize_unregister);

#ifdef CONFIG_MODULES

/* Connect the markers of a module that probes are waiting for. */
static void marker_range_connect_waiting(const struct marker_range *r)
{
	struct marker *m;

	for (m = r->start; m < r->stop; m++)
		marker_set_probes(m, marker_entry_find(m->name), r->mod);
}

static int marker_module_coming(struct module *mod)
{
	struct marker_range *r;

	lockdep_assert_held(&markers_mutex);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->mod = mod;
	r->start = mod->markers;
	r->stop = mod->markers + mod->num_markers;
#ifdef CONFIG_HAVE_ARCH_MARKERS
	r->sites = mod->marker_sites;
	r->sites_stop = mod->marker_sites + mod->num_marker_sites;
	r->calls = mod->marker_calls;
	r->calls_stop = mod->marker_calls + mod->num_marker_calls;
	r->init_start = (unsigned long)mod->mem[MOD_INIT_TEXT].base;
	r->init_end = r->init_start + mod->mem[MOD_INIT_TEXT].size;
#endif
	marker_range_connect_waiting(r);
	/* Code that never ran: no grace period before a call changes. */
	marker_patch_range(r, NULL, MARKER_SITES | MARKER_CALLS);
	/* A refused site is logged; the module's other sites still work. */
	marker_batch_done();
	list_add_tail(&r->list, &marker_ranges);
	return 0;
}

#ifdef CONFIG_HAVE_ARCH_MARKERS
/* Point the calls in @r's init text at marker_iterate(). */
static void marker_patch_init_calls(const struct marker_range *r)
{
	const struct marker_probe_call *c;
	struct marker_change *v;
	unsigned long code;

	for (c = r->calls; c < r->calls_stop; c++) {
		code = marker_probe_call_code(c);
		if (r->init_freed || code < r->init_start ||
		    code >= r->init_end)
			continue;
		v = marker_batch_next();
		v->call = c;
		v->target = (unsigned long)marker_iterate;
	}
}

/*
 * The module's init text is freed once this returns, and its sites are
 * never written again; but do_init_module() calls the MODULE_STATE_LIVE
 * notifiers before async_synchronize_full(), so the module's async
 * __init work may still pass them.  A call there left pointing at a
 * single probe would call it after it is replaced, with its successor's
 * probe_private, and after its module is gone.  Point those calls at
 * marker_iterate(), which calls whatever probes the site reads.
 */
static void marker_module_live(struct module *mod)
{
	struct marker_range *r;

	lockdep_assert_held(&markers_mutex);
	list_for_each_entry(r, &marker_ranges, list) {
		if (r->mod != mod)
			continue;
		marker_patch_init_calls(r);
		/* A call refused is logged; it is left as it was. */
		marker_batch_done();
		r->init_freed = true;
	}
}
#else
static inline void marker_module_live(struct module *mod)
{
}
#endif

/*
 * A going module's code may still run: a write to one of its parameters
 * does not hold the module, and sysfs waits for it only after the GOING
 * notifiers.  So disconnect its markers and disarm its sites before
 * forgetting them: later unregistrations no longer reach them, and a
 * site left armed would go on calling probes whose data is freed, from
 * a probe array that is freed too.
 */
static void marker_module_going(struct module *mod)
{
	struct marker_range *r;
	struct marker *m;

	lockdep_assert_held(&markers_mutex);
	list_for_each_entry(r, &marker_ranges, list) {
		if (r->mod != mod)
			continue;
		marker_patch_range(r, NULL, MARKER_OFF);
		marker_batch_done();
		for (m = r->start; m < r->stop; m++)
			marker_set_probes(m, NULL, mod);
		list_del(&r->list);
		kfree(r);
		return;
	}
}

static int marker_module_notify(struct notifier_block *nb,
				unsigned long val, void *data)
{
	struct module *mod = data;
	int ret = 0;

	if (!mod->num_markers)
		return NOTIFY_DONE;

	markers_lock();
	switch (val) {
	case MODULE_STATE_COMING:
		ret = marker_module_coming(mod);
		break;
	case MODULE_STATE_LIVE:
		marker_module_live(mod);
		break;
	case MODULE_STATE_GOING:
		marker_module_going(mod);
		break;
	}
	markers_unlock();
	return notifier_from_errno(ret);
}

/* Before KUnit's notifier (priority 0), so module tests see connections. */
static struct notifier_block marker_module_nb = {
	.notifier_call = marker_module_notify,
	.priority = 1,
};

static int __init marker_init(void)
{
	return register_module_notifier(&marker_module_nb);
}
early_initcall(marker_init);

#endif /* CONFIG_MODULES */
