/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kernel/marker.c shares with the rest of the markers core
 * (marker_select.c, marker_debugfs.c, and marker_patch.c where the
 * architecture patches its own sites): its tables and the lock that
 * protects them.
 */
#ifndef _KERNEL_MARKER_INTERNAL_H
#define _KERNEL_MARKER_INTERNAL_H

#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/marker.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>

struct marker_query;
struct module;

/* What marker_patch() and marker_patch_range() change. */
#define MARKER_SITES	1	/* arm the sites of connected markers */
#define MARKER_CALLS	2	/* point calls at what marker_call_wanted() says */
#define MARKER_ITERATE	4	/* point calls at marker_iterate() */
#define MARKER_OFF	8	/* disarm the sites, point calls at marker_iterate() */

/**
 * struct marker_entry - the probes connected to one marker name
 * @hlist: link in marker_table
 * @probes: connected probes, or NULL
 * @nr_probes: number of closures in @probes
 * @format: the one format of the markers connected to the probes
 *	    (marker_entry_fix_format()); NULL while no probe names one and
 *	    no marker of the name with a format is loaded
 * @query: the queries of every selector (struct marker_query), NULL for
 *	   none: each probe connects to the sites its selector's queries
 *	   choose, or to all of them if its selector has none here
 * @selected: the probes that connected with a selector (struct
 *	      marker_selected); the others follow the NULL selector's queries
 * @subsets: the probe arrays of sites that some of the probes' queries
 *	     leave out (struct marker_subset), shared by the sites that
 *	     call the same probes
 * @name: the marker name
 *
 * Exists while probes are connected to the name or a query selects its
 * sites.
 */
struct marker_entry {
	struct hlist_node hlist;
	struct marker_probes *probes;
	unsigned int nr_probes;
	char *format;
	struct marker_query *query;
	struct list_head selected;
	struct list_head subsets;
	char name[];
};

/**
 * struct marker_range - the markers of vmlinux or of one module
 * @list: link in marker_ranges
 * @mod: the owning module, NULL for vmlinux
 * @start: first struct marker
 * @stop: one past the last
 * @sites: first patchable site (with CONFIG_HAVE_ARCH_MARKERS)
 * @sites_stop: one past the last
 * @calls: first call of probes in an out-of-line block
 * @calls_stop: one past the last
 * @init_start: a module's init text, recorded as it loads: the module
 *		forgets it (mem[MOD_INIT_TEXT]) when it frees it
 * @init_end: one past its end
 * @init_freed: init text is gone, or about to go: its sites are never
 *		written again.  Set under markers_mutex before the text is
 *		freed, so that no change is pending then.
 *
 * Only patchable sites need the init text's bounds: jump labels keep off
 * freed init text by themselves, and a flag test writes no text.
 */
struct marker_range {
	struct list_head list;
	struct module *mod;
	struct marker *start;
	struct marker *stop;
#ifdef CONFIG_HAVE_ARCH_MARKERS
	struct marker_site *sites;
	struct marker_site *sites_stop;
	struct marker_probe_call *calls;
	struct marker_probe_call *calls_stop;
	unsigned long init_start;
	unsigned long init_end;
	bool init_freed;
#endif
};

#define MARKER_HASH_BITS	6

/* The lock and what it protects: see kernel/marker.c. */
extern struct mutex markers_mutex;
extern struct hlist_head marker_table[1 << MARKER_HASH_BITS];
extern struct list_head marker_ranges;

/* kernel/marker.c */
struct marker_entry *marker_entry_find(const char *name);
bool marker_name_present(const char *name);
void marker_probe_stub(void *probe_private, void *call_private,
		       const char *fmt, va_list *args);

/* kernel/marker_patch.c: the architecture's own sites */
#ifdef CONFIG_HAVE_ARCH_MARKERS
bool marker_site_writable(const struct marker_site *s,
			  const struct marker_range *r);
void marker_patch_range(const struct marker_range *r, const char *name,
			unsigned int what);
int marker_patch_apply(void);
bool marker_tramp_get(struct marker_probes *p, unsigned int nr);
void marker_tramp_put(struct marker_probes *p);
void marker_range_init_sites(struct marker_range *r, struct module *mod);
void marker_module_live(struct module *mod);
#else
/* Jump labels and flag tests: the static keys do what there is to do. */
static inline void marker_patch_range(const struct marker_range *r,
				      const char *name, unsigned int what)
{
}

static inline int marker_patch_apply(void)
{
	return 0;
}

static inline bool marker_tramp_get(struct marker_probes *p, unsigned int nr)
{
	return false;
}

static inline void marker_tramp_put(struct marker_probes *p)
{
}

static inline void marker_range_init_sites(struct marker_range *r,
					   struct module *mod)
{
}

static inline void marker_module_live(struct module *mod)
{
}
#endif

/* Why marker_select_command() refuses a command: marker_select_errs[]. */
enum marker_select_err {
	MARKER_SELECT_ERR_NO_MARKER,
	MARKER_SELECT_ERR_TWO_MARKERS,
	MARKER_SELECT_ERR_NO_NAME,
	MARKER_SELECT_ERR_BAD_NAME,
	MARKER_SELECT_ERR_NO_MATCH,
	MARKER_SELECT_ERR_NO_VALUE,
	MARKER_SELECT_ERR_BAD_KEYWORD,
	MARKER_SELECT_ERR_TWICE,
	MARKER_SELECT_ERR_BAD_LINES,
	MARKER_SELECT_ERR_TOO_LONG,
	MARKER_SELECT_ERR_NO_QUERY,
};

/**
 * struct marker_select_op - one query of a marker_select_command()
 * @name: the marker's name, or a glob of names
 * @name_pos: its offset in the command
 * @remove: "!marker": drop @q from the queries in force, or all of them
 *	    if @q is NULL
 * @q: the sites, NULL for all of them
 */
struct marker_select_op {
	char *name;
	unsigned int name_pos;
	bool remove;
	struct marker_query *q;
};

/* kernel/marker_select.c: query words, parsed, matched and printed */
struct marker_select_error;
struct seq_file;
int marker_query_parse(const char *name, const char *query,
		       struct marker_query **qp);
void marker_query_free(struct marker_query *q);
struct marker_query *marker_query_dup(const struct marker_query *q);
struct marker_query **marker_query_find(struct marker_query **list,
					const struct marker_query *q);
struct marker_query *marker_query_unlink(struct marker_query **link);
struct marker_query *marker_query_take(struct marker_query **list,
				       const void *selector);
bool marker_query_match(const struct marker_query *q, const void *selector,
			const struct marker *m, struct module *mod);
const char *marker_owner(struct module *mod);
void marker_query_show(struct seq_file *f, const char *name,
		       const struct marker_query *q, const void *selector);
bool marker_name_is_glob(const char *name);
unsigned int marker_select_count(const char *cmd);
int marker_select_parse(char *cmd, const void *selector,
			struct marker_select_op *ops, unsigned int max,
			struct marker_select_error *err);

#endif /* _KERNEL_MARKER_INTERNAL_H */
