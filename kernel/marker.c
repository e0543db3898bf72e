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
#include <linux/glob.h>
#include <linux/hashtable.h>
#include <linux/irq_work.h>
#include <linux/jhash.h>
#include <linux/jump_label.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/marker.h>
#include <linux/marker_select.h>
#include <linux/marker_test.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "marker_internal.h"

/**
 * DOC: Probe arrays, RCU and locking
 *
 * Probes are kept per name in marker_table, whether or not a marker of
 * that name exists yet, with the one format its connected markers have:
 * the probes', or the first loaded marker's (marker_entry_fix_format()).
 * A name's probes are an array of closures (probe, probe_private) in
 * registration order, ended by a NULL probe, and never empty, headed by
 * that format, which x86-64 sites pass from there.  Every change builds a
 * new array, publishes it with rcu_assign_pointer() in each struct marker
 * of the name, in vmlinux and in every module, and frees the old one with
 * kfree_rcu(); the format goes a grace period after the last probe.  The
 * hit path takes no lock: sites, marker_run_probes() and
 * marker_run_probes_va() read the array with preemption off, so a grace
 * period after it is unpublished no CPU still reads it.  A marker that
 * was connected once is never NULL again (marker_probes_none), so an
 * armed site reads an array without testing it.
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
 * marker_probe_register() when a refused site makes it fail after sites
 * were armed: then no CPU runs the probe any more, and its module may go.
 * Unregistering cannot fail for lack of memory: without memory for a
 * smaller array, the closure is replaced by marker_probe_stub() in the
 * array in use, and copies of the array leave stubs out.
 *
 * Where sites are jump labels (CONFIG_MARKERS_STATIC_KEYS), a marker's
 * static key is enabled after its array is published and disabled after
 * the array is cleared: a site still on the enabled path calls
 * marker_run_probes(), which calls the array it reads, or nothing.  jump_label
 * keeps off freed init text, handles modules, and is kept off by kprobes.
 * markers_mutex, below, orders every change ("Locking").
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
 * calls to change are queued with the architecture, which writes them a
 * chunk at a time (marker_patch_range(), kernel/marker_patch.c).
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
 * Each probe connects to the sites its selector's queries choose
 * (marker_probe_register_selector()).  A site that some of the name's
 * probes leave out, and others do not, reads an array of the others: a
 * subset (struct marker_subset), shared by the sites that call the same
 * probes, built when the sites are connected and freed with kfree_rcu()
 * once they are connected again, as the name's own array.  A subset's
 * calls always go to the iterator, which calls the closures of the array
 * it is given: the steps above, which follow the name's array, never have
 * a subset's call point at a probe.
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
 * module notifier, which runs after jump_label's, so that a coming
 * module's static keys are set up before the core enables one.  It calls
 * what follows markers (register_marker_module_notifier(): the marker
 * events) for MODULE_STATE_COMING once it connected the module's markers;
 * for MODULE_STATE_GOING the core calls them from a notifier that runs
 * before the trace core's, so that the marker events take their probes
 * off before the trace core removes the module's events, and disconnects
 * the markers after.
 *
 * MODULE_STATE_COMING
 *   the module's markers are connected to the probes that wait for their
 *   names and its sites are armed, with their calls pointed at once: code
 *   that never ran needs no grace period.  A site that is refused is
 *   logged; the module's other sites work.
 * MODULE_STATE_LIVE
 *   where the architecture patches its own sites, the module's init
 *   text is marked gone before it is freed ("Init text").
 * MODULE_STATE_GOING
 *   a going module's code may still run: a write to one of its parameters
 *   does not hold the module, and sysfs waits for that write only after
 *   the GOING notifiers.  The core disconnects the module's markers and
 *   disarms its sites before it forgets them: a site left armed would go
 *   on calling probes whose data is freed (a marker event's file, for
 *   one), from a probe array that is freed too.
 */

/**
 * DOC: Locking
 *
 * markers_mutex serializes registration, module load and unload, and
 * every change of a site or a call.  It protects marker_table and every
 * entry in it, the ranges of markers (marker_ranges: vmlinux's, then each
 * module's), and the state and probes of every struct marker, and may be
 * held across sleeping allocations and code patching.  The hit path takes
 * no lock ("Probe arrays, RCU and locking").
 *
 * Lock order: markers_mutex -> kprobe_mutex (arch_marker_lock(), x86) ->
 * CPU hotplug lock -> text_mutex (the architecture's queue), or ->
 * jump_label_mutex (-> text_mutex) where sites are jump labels
 * (static_branch_enable_cpuslocked()).  What publishes or patches takes
 * the first three with markers_lock(), in kprobes' order.  event_mutex
 * (the marker events) is taken before markers_mutex; the debugfs sites
 * file walks kallsyms and takes module_mutex before it.
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

/**
 * DOC: Call sites
 *
 * A probe that a site calls itself finds the site in its return address.
 * One that a dispatcher calls (marker_iterate(), marker_run_probes() or
 * marker_run_probes_va()) finds the dispatcher there.  So while call
 * sites are noted (marker_note_call_sites(), for the marker events'
 * call_site field), a dispatcher notes the return address of the site's
 * call, and the va_list it passes its probes, in this CPU's marker_hit,
 * and puts back what it found there when its probes return: a hit that
 * interrupts another, or that a probe makes, leaves the note as it found
 * it.  marker_call_site() takes the note only for the va_list it names:
 * a site passed within a probe builds a va_list of its own, so a probe
 * that such a site calls directly finds its own return address, not the
 * note of the dispatcher below it.  No trampoline is used while sites
 * are noted.
 */
DEFINE_PER_CPU(struct marker_hit, marker_hit);
EXPORT_PER_CPU_SYMBOL_GPL(marker_hit);
DEFINE_STATIC_KEY_FALSE(marker_call_sites);
EXPORT_SYMBOL_GPL(marker_call_sites);

/**
 * marker_note_call_sites() - have probes find the sites that called them
 *
 * From then on, marker_call_site() finds the site whichever way it
 * called the probe.  Called before any probe is connected: a trampoline
 * taken earlier would not note it.
 */
void __init marker_note_call_sites(void)
{
	static_branch_enable(&marker_call_sites);
}

/* Note the site at @ip for the probes of @args; return what was noted. */
static __always_inline struct marker_hit marker_hit_note(va_list *args,
							 unsigned long ip)
{
	struct marker_hit old = {
		.args = __this_cpu_read(marker_hit.args),
		.ip = __this_cpu_read(marker_hit.ip),
	};

	__this_cpu_write(marker_hit.args, args);
	__this_cpu_write(marker_hit.ip, ip);
	return old;
}

static __always_inline void marker_hit_restore(struct marker_hit old)
{
	__this_cpu_write(marker_hit.args, old.args);
	__this_cpu_write(marker_hit.ip, old.ip);
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
	struct marker_hit old;
	bool noting;

	rcu_read_lock_sched_notrace();
	p = marker_probes_to_call(mark);
	noting = p && static_branch_unlikely(&marker_call_sites);
	if (noting)
		old = marker_hit_note(&args, _RET_IP_);
	if (p) {
		do {
			va_start(args, call_private);
			p->func(p->probe_private, call_private, mark->format,
				&args);
			va_end(args);
		} while ((++p)->func);
	}
	if (noting)
		marker_hit_restore(old);
	rcu_read_unlock_sched_notrace();
}
EXPORT_SYMBOL_GPL(marker_run_probes);
NOKPROBE_SYMBOL(marker_run_probes);
#endif

#if defined(CONFIG_HAVE_ARCH_MARKERS) || defined(CONFIG_HAVE_ARCH_MARKER_VA)
/*
 * marker_iterate() while call sites are noted, for the site at @ip; its
 * arguments first, in its order, so that it jumps here as it was called.
 */
static noinline void notrace marker_iterate_noting(void *probe_private,
						   void *call_private,
						   const char *fmt,
						   va_list *args,
						   struct marker_probe_closure *p,
						   unsigned long ip)
{
	struct marker_hit old = marker_hit_note(args, ip);
	void *start = arch_marker_va_start(args);

	for (; p->func; p++) {
		p->func(p->probe_private, call_private, fmt, args);
		arch_marker_va_rewind(args, start);
	}
	marker_hit_restore(old);
}

NOKPROBE_SYMBOL(marker_iterate_noting);

/*
 * marker_iterate() for two closures or more; its arguments, in its
 * order, so that it jumps here as it was called.
 */
static noinline void notrace marker_iterate_all(void *probe_private,
						void *call_private,
						const char *fmt,
						va_list *args,
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

NOKPROBE_SYMBOL(marker_iterate_all);

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
	/*
	 * A single closure (a subset of the name's probes, or a call not yet
	 * pointed at its probe) is tail-called: the paths that keep
	 * registers are out of line.
	 */
	if (static_branch_unlikely(&marker_call_sites))
		marker_iterate_noting(probe_private, call_private, fmt, args,
				      p, _RET_IP_);
	else if (p[1].func)
		marker_iterate_all(probe_private, call_private, fmt, args, p);
	else
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
	if (p && static_branch_unlikely(&marker_call_sites))
		marker_iterate_noting(p->probe_private, call_private,
				      mark->format, args, p, _RET_IP_);
	else if (p)
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
	INIT_LIST_HEAD(&e->selected);
	INIT_LIST_HEAD(&e->subsets);
	hlist_add_head(&e->hlist, marker_bucket(name));
	return e;
}

/*
 * Forget @e's format.  Sites pass it to probes from the arrays that
 * point at it (struct marker_probes), which a CPU may still read until a
 * grace period has passed: it is freed after one.
 */
static void marker_entry_drop_format(struct marker_entry *e)
{
	kvfree_rcu_mightsleep(e->format);
	e->format = NULL;
}

/*
 * Free @e if nothing is connected to it any more and it selects no sites;
 * the format is the probes', and goes with the last of them.
 */
static void marker_entry_put(struct marker_entry *e)
{
	if (e->nr_probes)
		return;
	marker_entry_drop_format(e);
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
void marker_probe_stub(void *probe_private, void *call_private,
		       const char *fmt, va_list *args)
{
}

/*
 * The probes of a marker that was connected and is not any more: sites
 * that were armed read an array, never NULL, and need not test it.
 */
static struct marker_probes marker_probes_none = {
	.probes = { { .func = marker_probe_stub }, { } },
};

/**
 * struct marker_selected - a probe connected with a selector of its own
 * @list: link in its marker_entry's @selected
 * @func: the probe
 * @probe_private: its data
 * @selector: whose queries choose its sites (struct marker_query)
 */
struct marker_selected {
	struct list_head list;
	marker_probe_func *func;
	void *probe_private;
	const void *selector;
};

/**
 * struct marker_subset - the probes of sites that some probes leave out
 * @list: link in its marker_entry's @subsets
 * @probes: the closures of the entry's array that these sites call, in
 *	    its order; freed after a grace period, as the entry's array
 */
struct marker_subset {
	struct list_head list;
	struct marker_probes *probes;
};

/* The selector of @e's closure @c: NULL unless it connected with one. */
static const void *marker_probe_selector(const struct marker_entry *e,
					 const struct marker_probe_closure *c)
{
	const struct marker_selected *sel;

	list_for_each_entry(sel, &e->selected, list)
		if (sel->func == c->func &&
		    sel->probe_private == c->probe_private)
			return sel->selector;
	return NULL;
}

/* Whether @e's closure @c connects to @m, of @mod. */
static bool marker_probe_selects(const struct marker_entry *e,
				 const struct marker_probe_closure *c,
				 const struct marker *m, struct module *mod)
{
	return marker_query_match(e->query, marker_probe_selector(e, c), m,
				  mod);
}

/* Whether @p holds, in order, the closures of @e that connect to @m. */
static bool marker_subset_is(const struct marker_entry *e,
			     const struct marker_probe_closure *p,
			     const struct marker *m, struct module *mod)
{
	const struct marker_probe_closure *c;

	for (c = e->probes->probes; c->func; c++) {
		if (!marker_probe_selects(e, c, m, mod))
			continue;
		if (p->func != c->func || p->probe_private != c->probe_private)
			return false;
		p++;
	}
	return !p->func;
}

/* A new array of the @nr closures of @e that connect to @m. */
static struct marker_subset *marker_subset_new(struct marker_entry *e,
					       const struct marker *m,
					       struct module *mod,
					       unsigned int nr)
{
	const struct marker_probe_closure *c;
	struct marker_subset *sub;
	unsigned int i = 0;

	sub = kzalloc(sizeof(*sub), GFP_KERNEL);
	if (!sub)
		return NULL;
	sub->probes = kzalloc(struct_size(sub->probes, probes, nr + 1),
			      GFP_KERNEL);
	if (!sub->probes) {
		kfree(sub);
		return NULL;
	}
	sub->probes->subset = true;
	sub->probes->format = e->format;
	for (c = e->probes->probes; c->func; c++)
		if (marker_probe_selects(e, c, m, mod))
			sub->probes->probes[i++] = *c;
	list_add_tail(&sub->list, &e->subsets);
	return sub;
}

/* Free the arrays of @list after a grace period: sites may still read them. */
static void marker_subsets_free(struct list_head *list)
{
	struct marker_subset *sub, *tmp;

	list_for_each_entry_safe(sub, tmp, list, list) {
		list_del(&sub->list);
		kfree_rcu(sub->probes, rcu);
		kfree(sub);
	}
}

/*
 * The closures of @e that @m, of @mod, calls: the entry's array when
 * every probe's queries select @m, none when no probe's do, else an
 * array of @e's subsets, made if no site calls the same probes yet.
 */
static struct marker_probe_closure *
marker_site_probes(struct marker_entry *e, const struct marker *m,
		   struct module *mod)
{
	const struct marker_probe_closure *c;
	struct marker_subset *sub;
	unsigned int nr = 0;

	for (c = e->probes->probes; c->func; c++)
		nr += marker_probe_selects(e, c, m, mod);
	if (nr == e->nr_probes)
		return e->probes->probes;
	if (!nr)
		return marker_probes_none.probes;
	list_for_each_entry(sub, &e->subsets, list)
		if (marker_subset_is(e, sub->probes->probes, m, mod))
			return sub->probes->probes;
	sub = marker_subset_new(e, m, mod, nr);
	if (sub)
		return sub->probes->probes;
	pr_warn("%s: no memory for the probes of %s:%u, not connected\n",
		e->name, m->file, m->line);
	return marker_probes_none.probes;
}

/*
 * Point @m at the probes of @e that select it, or disconnect it; keep
 * format mismatches out.
 */
static void marker_set_probes(struct marker *m, struct marker_entry *e,
			      struct module *mod)
{
	struct marker_probe_closure *p = marker_probes_none.probes;

	if (e && e->probes)
		p = marker_site_probes(e, m, mod);
	if (p != marker_probes_none.probes && !marker_format_ok(m, e->format)) {
		pr_warn("%s%s%s: format \"%s\" differs from the probes' \"%s\", not connected\n",
			mod ? module_name(mod) : "", mod ? ":" : "",
			m->name, m->format, e->format);
		return;
	}
	rcu_assign_pointer(m->probes, p);
	WRITE_ONCE(m->state, p != marker_probes_none.probes);
	marker_key_set(m, p != marker_probes_none.probes);
}

/* Connect the markers called @e's name in @r to @e's probes, or not. */
static void marker_connect_range(const struct marker_range *r,
				 struct marker_entry *e)
{
	struct marker *m;

	for (m = r->start; m < r->stop; m++)
		if (!strcmp(m->name, e->name))
			marker_set_probes(m, e, r->mod);
}

/*
 * Connect every marker of @e's name to its probes, or disconnect it; the
 * subsets no site calls any more go after a grace period.
 */
static void marker_connect_all(struct marker_entry *e)
{
	struct marker_range *r;
	LIST_HEAD(old);

	lockdep_assert_held(&markers_mutex);
	list_splice_init(&e->subsets, &old);
	list_for_each_entry(r, &marker_ranges, list)
		marker_connect_range(r, e);
	marker_subsets_free(&old);
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
	return marker_patch_apply();
}

/*
 * In @r, the first marker called @name with a format: one of @format if
 * there is one and @format is not NULL.
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
		if (!format || !strcmp(m->format, format))
			return m;
		first = first ?: m;
	}
	return first;
}

/*
 * A loaded marker called @name with @format if there is one, else one
 * with another format, else NULL (none is loaded, or only MARK_ENABLED()
 * ones, which have no format).  With @format NULL, the first loaded
 * marker of @name that has a format.
 */
static const struct marker *marker_format_find(const char *name,
					       const char *format)
{
	const struct marker *m, *found = NULL;
	struct marker_range *r;

	lockdep_assert_held(&markers_mutex);
	list_for_each_entry(r, &marker_ranges, list) {
		m = marker_range_format(r, name, format);
		if (m && (!format || !strcmp(m->format, format)))
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
		pr_err("%s: probe format \"%s\" differs from connected probes' and markers' \"%s\"\n",
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

/*
 * Give @e, before its first probe, the one format its connected markers
 * have while probes are: @format, that of a probe that names one, or else
 * that of the first loaded marker of the name with a format.  Markers of
 * another format are left out (marker_set_probes()), as in 2.6.31.  Sets
 * *@added if @e had no format before.  Returns 0, -EPERM for a @format
 * that differs (logged), or -ENOMEM.
 */
static int marker_entry_fix_format(struct marker_entry *e,
				   const char *format, bool *added)
{
	const struct marker *m;
	int ret;

	*added = false;
	ret = marker_check_format(e, format);
	if (ret || e->format)
		return ret;
	if (!format) {
		m = marker_format_find(e->name, NULL);
		if (!m)
			return 0;
		format = m->format;
	}
	e->format = kstrdup(format, GFP_KERNEL);
	if (!e->format)
		return -ENOMEM;
	*added = true;
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
	new->format = e->format;
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
 * The grace periods of 2 -> 1 and 1 -> 0 -> 1 ("Pointing calls at
 * probes"), started when the array's first probe_private changes and
 * when the last probe goes, waited for before a call is pointed at a
 * single probe, as tracepoint.c does for its static calls
 * (tp_rcu_get_state(), tp_rcu_cond_sync()).  Protected by markers_mutex.
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
 * probe with another's probe_private (marker_gp), with calls
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
		return marker_patch(e, MARKER_SITES) ?: ret;
	}
	/*
	 * Where probes leave sites out (marker_probe_register_selector()),
	 * a site that had no probe and has some now is armed, and one left
	 * with none disarmed; the calls of both are at the iterator.
	 */
	marker_connect_all(e);
	ret = marker_patch(e, MARKER_SITES);
	if (marker_priv0(new) != marker_priv0(old))
		marker_gp_start(MARKER_GP_N_2_1);
	if (nr > 1)
		return ret;
	/* 2 -> 1: the probe, once no CPU can hold an older first closure. */
	marker_gp_wait(MARKER_GP_N_2_1);
	return marker_patch(e, MARKER_CALLS) ?: ret;
}

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

/* Make the closures (@probe, @probe_private) of @c stubs. */
static void marker_closures_stub(struct marker_probe_closure *c,
				 marker_probe_func *probe, void *probe_private)
{
	for (; c->func; c++)
		if (marker_probe_match(c, probe, probe_private))
			WRITE_ONCE(c->func, marker_probe_stub);
}

/*
 * Disconnect (@probe, @probe_private) without allocating, as tracepoints
 * do: the closures become stubs in the arrays in use.
 */
static void marker_entry_stub(struct marker_entry *e,
			      marker_probe_func *probe, void *probe_private)
{
	struct marker_subset *sub;

	marker_closures_stub(e->probes->probes, probe, probe_private);
	list_for_each_entry(sub, &e->subsets, list)
		marker_closures_stub(sub->probes->probes, probe, probe_private);
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
 * From then on the probes of @name connected without a selector, those
 * of its trace event at the top of tracefs, perf and BPF included, are
 * connected to the MARK() sites that @query matches, in vmlinux and in
 * modules loaded later; the name's other sites stay disabled unless
 * another selector's probes connect to them
 * (marker_probe_register_selector()).  The query is kept while no probe
 * is connected, so that it may be set before the first probe arms any
 * site.  MARK_ENABLED() is not a site: it is true while the name has
 * probes, whatever the query.
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
	old = marker_query_take(&e->query, NULL);
	if (q)
		*marker_query_find(&e->query, q) = q;
	ret = marker_entry_reselect(e);
	marker_query_free(old);
	marker_entry_put(e);
unlock:
	markers_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(marker_select);

/*
 * Apply @op to @selector's queries of @name: add a copy of its query,
 * remove the equal one, or drop them all (a query of every site, added or
 * removed).
 */
static int marker_select_apply_name(const char *name,
				    const struct marker_select_op *op,
				    const void *selector)
{
	struct marker_query *q = NULL, **link;
	struct marker_entry *e;
	int ret = 0;

	e = op->q && !op->remove ? marker_entry_find_or_add(name) :
				   marker_entry_find(name);
	if (!e)
		return op->q && !op->remove ? -ENOMEM : 0;
	if (op->q && !op->remove) {
		link = marker_query_find(&e->query, op->q);
		if (*link)
			goto out;	/* in force already */
		*link = marker_query_dup(op->q);
		if (!*link) {
			ret = -ENOMEM;
			goto out;
		}
	} else if (op->q) {
		link = marker_query_find(&e->query, op->q);
		if (!*link)
			goto out;
		q = marker_query_unlink(link);
	} else {
		q = marker_query_take(&e->query, selector);
		if (!q)
			goto out;
	}
	ret = marker_entry_reselect(e);
	marker_query_free(q);
out:
	marker_entry_put(e);
	return ret;
}

/*
 * Apply @op to every marker it names: by glob, the names of the loaded
 * markers when it adds, of the queries in force when it removes.
 */
static int marker_select_apply(const struct marker_select_op *op,
			       const void *selector)
{
	const struct marker_range *r;
	struct marker_entry *e;
	struct hlist_node *tmp;
	const struct marker *m;
	int bkt, ret = 0;

	if (!marker_name_is_glob(op->name))
		return marker_select_apply_name(op->name, op, selector);
	if (op->remove || !op->q) {
		hash_for_each_safe(marker_table, bkt, tmp, e, hlist)
			if (e->query && glob_match(op->name, e->name))
				ret = marker_select_apply_name(e->name, op,
							       selector) ?: ret;
		return ret;
	}
	list_for_each_entry(r, &marker_ranges, list)
		for (m = r->start; m < r->stop; m++)
			if (m->format && glob_match(op->name, m->name))
				ret = marker_select_apply_name(m->name, op,
							       selector) ?: ret;
	return ret;
}

/* Whether a loaded marker has a name that @glob matches. */
static bool marker_glob_loaded(const char *glob)
{
	const struct marker_range *r;
	const struct marker *m;

	list_for_each_entry(r, &marker_ranges, list)
		for (m = r->start; m < r->stop; m++)
			if (m->format && glob_match(glob, m->name))
				return true;
	return false;
}

/*
 * Refuse a command whose glob adds to no loaded marker, or that removes a
 * query not in force, before any of it is applied.
 */
static int marker_select_check(const struct marker_select_op *ops,
			       unsigned int nr, struct marker_select_error *err)
{
	struct marker_entry *e;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (marker_name_is_glob(ops[i].name) && !ops[i].remove &&
		    ops[i].q && !marker_glob_loaded(ops[i].name)) {
			pr_err("marker_sites: no loaded marker matches '%s'\n",
			       ops[i].name);
			err->type = MARKER_SELECT_ERR_NO_MATCH;
			err->pos = ops[i].name_pos;
			return -ENOENT;
		}
		if (!ops[i].remove || !ops[i].q ||
		    marker_name_is_glob(ops[i].name))
			continue;
		e = marker_entry_find(ops[i].name);
		if (!e || !*marker_query_find(&e->query, ops[i].q)) {
			pr_err("marker_sites: no such query of %s in force\n",
			       ops[i].name);
			err->type = MARKER_SELECT_ERR_NO_QUERY;
			err->pos = ops[i].name_pos;
			return -ENOENT;
		}
	}
	return 0;
}

/**
 * marker_selector_command() - add and remove a selector's queries
 * @selector: whose queries: NULL for those of marker_select() and of the
 *	      probes connected without a selector, else the selector of
 *	      marker_probe_register_selector()
 * @cmd: queries separated by ';', each "marker NAME" and query words in
 *	 any order; "!marker NAME" with words removes that query, without
 *	 words all of NAME's; NAME may be a glob (see
 *	 Documentation/trace/markers.rst, section 5)
 * @err: set to where @cmd is at fault when it is refused
 *
 * A probe's sites are those that any of its selector's queries of its
 * marker selects; "marker NAME" without words selects all of them again.  The command is parsed and
 * checked whole before any of it changes a selection.
 *
 * Context: process context; takes markers_mutex.
 * Return: 0; -EINVAL for a bad command, -ENOENT for a glob that matches
 * no loaded marker or a query to remove that is not in force (logged,
 * @err set, nothing changes); -EINVAL if a site could not be set (logged);
 * -ENOMEM.
 */
int marker_selector_command(const void *selector, const char *cmd,
			    struct marker_select_error *err)
{
	struct marker_select_error none;
	struct marker_select_op *ops;
	unsigned int i, max;
	char *buf;
	int nr, ret = -ENOMEM;

	err = err ?: &none;
	err->type = -1;
	max = marker_select_count(cmd);
	buf = kstrdup(cmd, GFP_KERNEL);
	ops = kcalloc(max, sizeof(*ops), GFP_KERNEL);
	if (!buf || !ops)
		goto out;
	nr = marker_select_parse(buf, selector, ops, max, err);
	if (nr < 0) {
		ret = nr;
		goto out;
	}
	markers_lock();
	ret = marker_select_check(ops, nr, err);
	for (i = 0; !ret && i < nr; i++)
		ret = marker_select_apply(&ops[i], selector);
	markers_unlock();
out:
	for (i = 0; ops && i < max; i++) {
		kfree(ops[i].name);
		marker_query_free(ops[i].q);
	}
	kfree(ops);
	kfree(buf);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_selector_command);

/**
 * marker_select_command() - add and remove queries of marker_select()
 * @cmd: as marker_selector_command() takes it
 * @err: set to where @cmd is at fault when it is refused
 *
 * marker_selector_command() for the NULL selector.
 *
 * Return: as marker_selector_command().
 */
int marker_select_command(const char *cmd, struct marker_select_error *err)
{
	return marker_selector_command(NULL, cmd, err);
}
EXPORT_SYMBOL_GPL(marker_select_command);

/**
 * marker_select_reset() - drop every query of a selector
 * @selector: whose queries (marker_selector_command())
 *
 * The probes that follow @selector's queries connect to every site of
 * their markers again.  A selector that goes drops its queries so, once
 * its probes are disconnected.
 *
 * Context: process context; takes markers_mutex.
 */
void marker_select_reset(const void *selector)
{
	struct marker_entry *e;
	struct hlist_node *tmp;
	struct marker_query *q;
	int bkt;

	markers_lock();
	hash_for_each_safe(marker_table, bkt, tmp, e, hlist) {
		q = marker_query_take(&e->query, selector);
		if (!q)
			continue;
		marker_entry_reselect(e);
		marker_query_free(q);
		marker_entry_put(e);
	}
	markers_unlock();
}
EXPORT_SYMBOL_GPL(marker_select_reset);

/* "QUERY; QUERY" into "QUERY module @modname;QUERY module @modname;". */
static char *marker_module_command(const char *val, const char *modname)
{
	size_t size = strlen(val) + 1, len;
	const char *part, *end;
	char *cmd;

	size += marker_select_count(val) * (strlen(" module ;") +
					    strlen(modname));
	cmd = kmalloc(size, GFP_KERNEL);
	if (!cmd)
		return NULL;
	for (len = 0, part = val; ; part = end + 1) {
		end = strchrnul(part, ';');
		part = skip_spaces(part);
		if (part < end)
			len += scnprintf(cmd + len, size - len, "%.*s module %s;",
					 (int)(end - part), part, modname);
		if (!*end)
			break;
	}
	cmd[len] = '\0';
	return cmd;
}

/**
 * marker_module_param() - apply a module's markers= parameter
 * @param: the name of a parameter the module does not declare
 * @val: its value: queries as marker_select_command() takes them, or NULL
 * @modname: the module's name
 *
 * "<module>.markers=QUERIES" selects among the module's own sites: each
 * query of @val is limited to them, as if it said "module <module>",
 * which it must not say itself.  The module loader calls this once the
 * module's markers are registered and before its init function runs, so
 * that a MARK() there is selected when it first runs.  The queries stay
 * in force after the module goes, as those written to marker_sites do.
 * A refused value is logged and changes nothing; the module loads.
 *
 * Context: process context; takes markers_mutex.
 * Return: 0 if @param is "markers", -ENOENT if it is not.
 */
int marker_module_param(const char *param, const char *val,
			const char *modname)
{
	char *cmd;
	int ret;

	if (strcmp(param, "markers"))
		return -ENOENT;
	if (!val) {
		pr_err("%s: markers= without a value refused\n", modname);
		return 0;
	}
	cmd = marker_module_command(val, modname);
	ret = cmd ? marker_select_command(cmd, NULL) : -ENOMEM;
	if (ret)
		pr_err("%s: markers=\"%s\" refused: %d\n", modname, val, ret);
	kfree(cmd);
	return 0;
}

/* markers.select= on the command line, until it is applied. */
static char *marker_select_cmdline __initdata;

static int __init marker_select_setup(char *str)
{
	marker_select_cmdline = str;
	return 1;
}
__setup("markers.select=", marker_select_setup);

/**
 * marker_select_boot() - apply markers.select= from the kernel command line
 *
 * Called by the first of the markers' early initcalls that may connect
 * probes (the trace events' for trace_event=); the others find it done.
 * A bad command is logged and changes nothing.
 *
 * Context: early boot, process context.
 */
void __init marker_select_boot(void)
{
	char *cmd = marker_select_cmdline;

	marker_select_cmdline = NULL;
	if (cmd && marker_select_command(cmd, NULL))
		pr_err("markers.select=%s refused\n", cmd);
}

static int __init marker_select_boot_init(void)
{
	marker_select_boot();
	return 0;
}
early_initcall(marker_select_boot_init);

static void marker_select_show_range(struct seq_file *f,
				     const struct marker_range *r,
				     const void *selector)
{
	const struct marker_entry *e;
	const struct marker *m;

	for (m = r->start; m < r->stop; m++) {
		if (!m->format)
			continue;
		e = marker_entry_find(m->name);
		seq_printf(f, "%s:%u [%s]%s %s =%s%s\n", m->file, m->line,
			   marker_owner(r->mod), m->func, m->name,
			   marker_query_match(e ? e->query : NULL, selector,
					      m, r->mod) ?
			   "s" : "_", READ_ONCE(m->state) ? "e" : "");
	}
}

/**
 * marker_select_show() - list every marker site and a selector's queries
 * @f: where to
 * @selector: whose queries (marker_selector_command())
 *
 * First @selector's queries, one per line, as "# marker NAME WORDS"; then
 * every MARK() expansion of vmlinux and of the loaded modules, as
 * "FILE:LINE [OWNER]FUNCTION NAME =FLAGS", FLAGS being "s" if @selector's
 * queries of the name select it ("_" if not) followed by "e" while it is
 * enabled, for @selector's probes or any other's.
 *
 * Return: 0.
 */
int marker_select_show(struct seq_file *f, const void *selector)
{
	const struct marker_range *r;
	const struct marker_entry *e;
	int bkt;

	mutex_lock(&markers_mutex);
	hash_for_each(marker_table, bkt, e, hlist) {
		marker_query_show(f, e->name, e->query, selector);
	}
	list_for_each_entry(r, &marker_ranges, list)
		marker_select_show_range(f, r, selector);
	mutex_unlock(&markers_mutex);
	return 0;
}

/* Note that (@probe, @probe_private) follows @selector's queries. */
static int marker_selected_add(struct marker_entry *e,
			       marker_probe_func *probe, void *probe_private,
			       const void *selector)
{
	struct marker_selected *sel;

	if (!selector)
		return 0;
	sel = kzalloc(sizeof(*sel), GFP_KERNEL);
	if (!sel)
		return -ENOMEM;
	sel->func = probe;
	sel->probe_private = probe_private;
	sel->selector = selector;
	list_add(&sel->list, &e->selected);
	return 0;
}

static void marker_selected_remove(struct marker_entry *e,
				   marker_probe_func *probe,
				   void *probe_private)
{
	struct marker_selected *sel;

	list_for_each_entry(sel, &e->selected, list) {
		if (sel->func == probe && sel->probe_private == probe_private) {
			list_del(&sel->list);
			kfree(sel);
			return;
		}
	}
}

static int __marker_probe_register(const char *name, const char *format,
				   marker_probe_func *probe,
				   void *probe_private, const void *selector)
{
	struct marker_probes *new, *old;
	bool sites_armed = false;
	struct marker_entry *e;
	unsigned int old_nr, nr;
	bool new_format;
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
		goto err_unlock;
	ret = marker_entry_fix_format(e, format, &new_format);
	if (ret)
		goto err_put;
	ret = marker_probes_add(e, probe, probe_private, &new);
	if (ret < 0)
		goto err_drop_format;
	nr = ret;
	ret = marker_selected_add(e, probe, probe_private, selector);
	if (ret)
		goto err_free;
	old = e->probes;
	old_nr = e->nr_probes;
	ret = marker_entry_set(e, new, nr);
	if (ret)
		goto err_restore;
	if (old)
		marker_probes_free(old);
	markers_unlock();
	return 0;

err_restore:
	/* A site was refused: connect what was there before, and fail. */
	marker_selected_remove(e, probe, probe_private);
	marker_entry_set(e, old, old_nr);
	sites_armed = true;
err_free:
	marker_probes_free(new);
err_drop_format:
	if (new_format)
		marker_entry_drop_format(e);
err_put:
	marker_entry_put(e);
err_unlock:
	markers_unlock();
	/* Sites armed before the refusal may have called @probe. */
	if (sites_armed)
		synchronize_rcu();
	return ret;
}

/**
 * marker_probe_register() - connect a probe to a marker by name
 * @name: the marker's name
 * @format: the format the probe expects, or NULL to accept the marker's
 * @probe: the probe
 * @probe_private: passed back to @probe
 *
 * The probe is called, after the probes registered before it, each time a
 * marker called @name is passed, including in modules loaded later.  While
 * probes are connected to @name, its markers have one format: the first
 * probe's that names one, or else that of the first loaded marker of
 * @name; markers of another format are left out, with a log line.
 *
 * Return: 0; -EINVAL for a bad @name or no @probe, or if a site of
 * @name could not be armed (its bytes were not as expected; logged);
 * -EBUSY if (@probe, @probe_private) is already connected to @name;
 * -EPERM if @format differs from the connected probes' and markers', or
 * if markers of @name are loaded and none has @format; -ENOMEM.  On error
 * nothing is connected, and no CPU runs @probe any more.
 */
int marker_probe_register(const char *name, const char *format,
			  marker_probe_func *probe, void *probe_private)
{
	return __marker_probe_register(name, format, probe, probe_private,
				       NULL);
}
EXPORT_SYMBOL_GPL(marker_probe_register);

/**
 * marker_probe_register_selector() - connect a probe to some sites of a marker
 * @name: the marker's name
 * @format: the format the probe expects, or NULL to accept the marker's
 * @probe: the probe
 * @probe_private: passed back to @probe
 * @selector: whose queries choose the sites: those that
 *	      marker_selector_command() gave @selector, or every site of
 *	      @name while it gave none of @name
 *
 * marker_probe_register(), for a probe that connects to the sites of its
 * own queries rather than to those of marker_select_command().  A site is
 * armed while any probe connects to it, and calls only the probes that
 * connect to it.  The queries of @selector stay until
 * marker_select_reset(@selector).
 *
 * Return: as marker_probe_register().
 */
int marker_probe_register_selector(const char *name, const char *format,
				   marker_probe_func *probe,
				   void *probe_private, const void *selector)
{
	return __marker_probe_register(name, format, probe, probe_private,
				       selector);
}
EXPORT_SYMBOL_GPL(marker_probe_register_selector);

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
		marker_selected_remove(e, probe, probe_private);
		return 0;
	}
	if (ret < 0)
		return ret;
	marker_selected_remove(e, probe, probe_private);
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

/*
 * Give each name whose probes wait without a format the format of @mod's
 * first marker of the name, before any is connected: sites pass it to
 * the probes from their array (marker_entry_fix_format()).
 */
static int marker_module_fix_formats(struct module *mod)
{
	struct marker *m = mod->markers;
	struct marker_entry *e;

	for (; m < mod->markers + mod->num_markers; m++) {
		e = m->format ? marker_entry_find(m->name) : NULL;
		if (!e || !e->nr_probes || e->format)
			continue;
		e->format = kstrdup(m->format, GFP_KERNEL);
		if (!e->format)
			return -ENOMEM;
		WRITE_ONCE(e->probes->format, e->format);
	}
	return 0;
}

static int marker_module_coming(struct module *mod)
{
	struct marker_range *r;

	lockdep_assert_held(&markers_mutex);
	if (marker_module_fix_formats(mod))
		return -ENOMEM;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->mod = mod;
	r->start = mod->markers;
	r->stop = mod->markers + mod->num_markers;
	marker_range_init_sites(r, mod);
	marker_range_connect_waiting(r);
	/* Code that never ran: no grace period before a call changes. */
	marker_patch_range(r, NULL, MARKER_SITES | MARKER_CALLS);
	/* A refused site is logged; the module's other sites still work. */
	marker_patch_apply();
	list_add_tail(&r->list, &marker_ranges);
	return 0;
}

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
		marker_patch_apply();
		for (m = r->start; m < r->stop; m++)
			marker_set_probes(m, NULL, mod);
		list_del(&r->list);
		kfree(r);
		return;
	}
}

/*
 * What follows the core's own work on a module with markers; called
 * without markers_mutex (the marker events take event_mutex, which is
 * taken before it).
 */
static BLOCKING_NOTIFIER_HEAD(marker_module_chain);

/**
 * register_marker_module_notifier() - follow modules with markers
 * @nb: called with MODULE_STATE_COMING once a module's markers are
 *	connected and its sites armed, and with MODULE_STATE_GOING before
 *	the trace core removes the module's events and before its markers
 *	are disconnected; its data is the module
 *
 * Return: 0.
 */
int register_marker_module_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&marker_module_chain, nb);
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
	if (val == MODULE_STATE_COMING && !ret)
		blocking_notifier_call_chain(&marker_module_chain, val, mod);
	return notifier_from_errno(ret);
}

/*
 * Below jump_label's notifier (priority 1), which sets a coming module's
 * static keys up before the core may enable one, as tracepoint.c's is.
 */
static struct notifier_block marker_module_nb = {
	.notifier_call = marker_module_notify,
	.priority = 0,
};

/* A going module's markers, before the trace core removes its events. */
static int marker_module_going_notify(struct notifier_block *nb,
				      unsigned long val, void *data)
{
	struct module *mod = data;

	if (val != MODULE_STATE_GOING || !mod->num_markers)
		return NOTIFY_DONE;
	blocking_notifier_call_chain(&marker_module_chain, val, mod);
	return NOTIFY_OK;
}

/* Above the trace core's notifier (priority 1). */
static struct notifier_block marker_module_going_nb = {
	.notifier_call = marker_module_going_notify,
	.priority = 2,
};

static int __init marker_init(void)
{
	return register_module_notifier(&marker_module_nb) ?:
	       register_module_notifier(&marker_module_going_nb);
}
early_initcall(marker_init);

#endif /* CONFIG_MODULES */
