// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers on an architecture that patches its own sites
 * (CONFIG_HAVE_ARCH_MARKERS): keeping kprobes off the sites' bytes,
 * queueing the sites and calls of a marker with the architecture, and
 * init text, written only while it exists.  The probes, their arrays and
 * the order in which calls change are kernel/marker.c's.
 *
 * See Documentation/trace/markers.rst, section 11.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/init.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <asm/sections.h>

#include "marker_internal.h"

/**
 * DOC: Init text
 *
 * Text is written only while it exists.  Every change of a site or call
 * is chosen and written under markers_mutex, and whoever frees text with
 * sites in it takes markers_mutex first and marks it gone
 * (&marker_range.init_freed): kernel_init() calls marker_free_init_mem()
 * before it frees vmlinux's init memory (which on x86 holds built-in
 * __exit text too), and the MODULE_STATE_LIVE notifier marks a module's
 * init text gone before it is freed.  vmlinux's init text runs no more by
 * then: kernel_init() waits for async work first.  A site chosen while
 * its text existed is therefore written before that text goes, and none
 * is chosen after.
 *
 * A module's init text may still run once it is marked gone:
 * do_init_module() runs the MODULE_STATE_LIVE notifiers before
 * async_synchronize_full(), so the module's async __init work may still
 * pass its init-text sites.  A call there left pointing at a single probe
 * would call it after it was replaced, with its successor's
 * probe_private, and after its module was unloaded.  So the calls in init
 * text are pointed at marker_iterate(), which calls whatever probes the
 * site reads, before the text is marked gone.
 */

/* Whether @code, in @r, may be written: see "Init text" above. */
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
 * marker_iterate() otherwise (no probe, more than a trampoline takes, a
 * stub left by an unregistration that ran out of memory, or an array of
 * some of the name's probes only, struct marker_subset: the grace periods
 * that order a call's changes follow the name's own array).
 */
static unsigned long marker_call_wanted(const struct marker *m)
{
	const struct marker_probe_closure *p;
	const struct marker_probes *array;

	p = rcu_dereference_protected(m->probes,
				      lockdep_is_held(&markers_mutex));
	if (!p || marker_probes_stubbed(p))
		return (unsigned long)marker_iterate;
	array = container_of(p, struct marker_probes, probes[0]);
	if (array->subset)
		return (unsigned long)marker_iterate;
	if (!p[1].func)
		return (unsigned long)p[0].func;
	return array->tramp ?: (unsigned long)marker_iterate;
}

/**
 * marker_patch_range() - queue the sites and calls of markers of a range
 * @r: the range
 * @name: the markers' name, NULL for all
 * @what: MARKER_SITES, MARKER_CALLS, MARKER_ITERATE or MARKER_OFF
 *
 * Sets them as their struct marker says, or as a disconnected one would
 * have them (MARKER_OFF); marker_patch_apply() writes what is queued.
 *
 * Context: markers_lock() held.
 */
void marker_patch_range(const struct marker_range *r, const char *name,
			unsigned int what)
{
	const struct marker_probe_call *c;
	const struct marker_site *s;
	const struct marker *m;

	for (s = r->sites; what & (MARKER_SITES | MARKER_OFF) &&
	     s < r->sites_stop; s++) {
		m = marker_site_marker(s);
		if ((name && strcmp(m->name, name)) ||
		    !marker_site_writable(s, r))
			continue;
		arch_marker_queue_site(s, !(what & MARKER_OFF) &&
				       READ_ONCE(m->state));
	}
	for (c = r->calls;
	     what & (MARKER_CALLS | MARKER_ITERATE | MARKER_OFF) &&
	     c < r->calls_stop; c++) {
		m = marker_probe_call_marker(c);
		if ((name && strcmp(m->name, name)) ||
		    !marker_text_writable(marker_probe_call_code(c), r))
			continue;
		arch_marker_queue_call(c, what & (MARKER_ITERATE | MARKER_OFF) ?
				       (unsigned long)marker_iterate :
				       marker_call_wanted(m));
	}
}

/**
 * marker_patch_apply() - write what marker_patch_range() queued
 *
 * Context: markers_lock() held.
 * Return: 0, or -EINVAL if an instruction's bytes were not as expected
 * (logged): it is left alone, the others are set.
 */
int marker_patch_apply(void)
{
	lockdep_assert_held(&markers_mutex);
	return arch_marker_apply();
}

/**
 * marker_tramp_get() - give a probe array a trampoline if it may have one
 * @p: the array
 * @nr: its closures
 *
 * Return: whether @p has a trampoline it did not have.
 */
bool marker_tramp_get(struct marker_probes *p, unsigned int nr)
{
	if (nr < 2 || p->tramp || marker_probes_stubbed(p->probes) ||
	    static_branch_unlikely(&marker_call_sites))
		return false;
	p->tramp = arch_marker_tramp_get(p->probes, nr);
	return p->tramp;
}

/**
 * marker_tramp_put() - give a probe array's trampoline back
 * @p: the array, which no call leads to any more
 */
void marker_tramp_put(struct marker_probes *p)
{
	if (p->tramp)
		arch_marker_tramp_put(p->tramp);
	p->tramp = 0;
}

/**
 * marker_free_init_mem() - vmlinux init memory is about to be freed
 *
 * Called by kernel_init() before it frees init memory (and built-in
 * __exit text with it): see "Init text".
 */
void __init marker_free_init_mem(void)
{
	struct marker_range *r;

	mutex_lock(&markers_mutex);
	list_for_each_entry(r, &marker_ranges, list)
		if (!r->mod)
			r->init_freed = true;
	mutex_unlock(&markers_mutex);
}

#ifdef CONFIG_MODULES
/**
 * marker_range_init_sites() - find a coming module's sites and calls
 * @r: the module's range
 * @mod: the module
 */
void marker_range_init_sites(struct marker_range *r, struct module *mod)
{
	r->sites = mod->marker_sites;
	r->sites_stop = mod->marker_sites + mod->num_marker_sites;
	r->calls = mod->marker_calls;
	r->calls_stop = mod->marker_calls + mod->num_marker_calls;
	r->init_start = (unsigned long)mod->mem[MOD_INIT_TEXT].base;
	r->init_end = r->init_start + mod->mem[MOD_INIT_TEXT].size;
}

/* Point the calls in @r's init text at marker_iterate(). */
static void marker_patch_init_calls(const struct marker_range *r)
{
	const struct marker_probe_call *c;
	unsigned long code;

	for (c = r->calls; c < r->calls_stop; c++) {
		code = marker_probe_call_code(c);
		if (r->init_freed || code < r->init_start ||
		    code >= r->init_end)
			continue;
		arch_marker_queue_call(c, (unsigned long)marker_iterate);
	}
}

/**
 * marker_module_live() - a module's init text is about to be freed
 * @mod: the module
 *
 * See "Init text".
 *
 * Context: markers_lock() held.
 */
void marker_module_live(struct module *mod)
{
	struct marker_range *r;

	lockdep_assert_held(&markers_mutex);
	list_for_each_entry(r, &marker_ranges, list) {
		if (r->mod != mod)
			continue;
		marker_patch_init_calls(r);
		/* A call refused is logged; it is left as it was. */
		marker_patch_apply();
		r->init_freed = true;
	}
}
#endif
