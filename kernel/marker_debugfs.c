// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel markers' debugfs listings, /sys/kernel/debug/markers/: "markers"
 * lists every marker, "sites" every site that is patched: the
 * architecture's own, or jump labels.  Both are read under markers_mutex.
 *
 * See Documentation/trace/markers.rst, section 7.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/bsearch.h>
#include <linux/debugfs.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "marker_internal.h"

static struct dentry *marker_debugfs_dir;

static const char *marker_range_owner(const struct marker_range *r)
{
	return r->mod ? module_name(r->mod) : "vmlinux";
}

#ifdef CONFIG_HAVE_ARCH_MARKERS
/* Count each marker's patchable sites in @r, and the armed ones. */
static void marker_sites_count(const struct marker_range *r,
			       unsigned int *sites, unsigned int *armed)
{
	const struct marker_site *s;
	unsigned int i;

	for (s = r->sites; s < r->sites_stop; s++) {
		i = marker_site_marker(s) - r->start;
		if (i >= r->stop - r->start || !marker_site_writable(s, r))
			continue;
		sites[i]++;
		armed[i] += arch_marker_site_armed(s);
	}
}
#else
static void marker_sites_count(const struct marker_range *r,
			       unsigned int *sites, unsigned int *armed)
{
}
#endif

static const struct marker *marker_sort_base;

/* By name, then by format, MARK_ENABLED()'s (none) first. */
static int marker_cmp_name(const void *a, const void *b)
{
	const struct marker *ma = &marker_sort_base[*(const unsigned int *)a];
	const struct marker *mb = &marker_sort_base[*(const unsigned int *)b];
	int ret = strcmp(ma->name, mb->name);

	if (ret || ma->format == mb->format)
		return ret;
	if (!ma->format || !mb->format)
		return ma->format ? 1 : -1;
	return strcmp(ma->format, mb->format);
}

/* Whether @x counts on the line of @m's name and @format (NULL: none yet). */
static bool marker_same_line(const struct marker *x, const struct marker *m,
			     const char *format)
{
	if (strcmp(x->name, m->name))
		return false;
	return !format || !x->format || !strcmp(x->format, format);
}

/*
 * One line per marker name, owner and format: its sites, how many are
 * armed, its probes and its format; MARK_ENABLED() expansions, which have
 * no format, count on the name's first line.  A marker expansion without
 * a patchable site (_trace_mark(), or a jump label or flag test) counts as
 * one site, armed while probes are connected.  The expansions are sorted
 * by name and format, so that each line's are counted together: n log n
 * for a module with thousands of expansions of one marker.
 */
static int marker_show_range(struct seq_file *f, const struct marker_range *r)
{
	unsigned int i, j, n = r->stop - r->start, sites, armed;
	unsigned int *idx, *nsites, *narmed;
	const struct marker_entry *e;
	const struct marker *m;
	const char *format;

	if (!n)
		return 0;
	idx = kvmalloc_array(3 * n, sizeof(*idx), GFP_KERNEL | __GFP_ZERO);
	if (!idx)
		return -ENOMEM;
	nsites = idx + n;
	narmed = nsites + n;
	marker_sites_count(r, nsites, narmed);
	for (i = 0; i < n; i++)
		idx[i] = i;
	/* markers_mutex serializes the readers of marker_sort_base. */
	marker_sort_base = r->start;
	sort(idx, n, sizeof(*idx), marker_cmp_name, NULL);
	for (i = 0; i < n; i = j) {
		m = &r->start[idx[i]];
		sites = 0;
		armed = 0;
		format = NULL;
		for (j = i; j < n && marker_same_line(&r->start[idx[j]], m,
						      format); j++) {
			format = format ?: r->start[idx[j]].format;
			if (nsites[idx[j]]) {
				sites += nsites[idx[j]];
				armed += narmed[idx[j]];
			} else {
				sites++;
				armed += !!READ_ONCE(r->start[idx[j]].state);
			}
		}
		e = marker_entry_find(m->name);
		seq_printf(f, "%s %s sites=%u armed=%u probes=%u format=\"%s\"\n",
			   m->name, marker_range_owner(r), sites, armed,
			   e ? e->nr_probes : 0, format ?: "");
		cond_resched();
	}
	kvfree(idx);
	return 0;
}

static int marker_markers_show(struct seq_file *f, void *v)
{
	const struct marker_range *r;
	const struct marker_entry *e;
	int bkt, ret = 0;

	mutex_lock(&markers_mutex);
	list_for_each_entry(r, &marker_ranges, list)
		if (!ret)
			ret = marker_show_range(f, r);
	/* Probes waiting for a marker that no loaded code has yet. */
	hash_for_each(marker_table, bkt, e, hlist)
		if (e->nr_probes && !marker_name_present(e->name))
			seq_printf(f, "%s - sites=0 armed=0 probes=%u format=\"%s\"\n",
				   e->name, e->nr_probes, e->format ?: "");
	mutex_unlock(&markers_mutex);
	return ret;
}
DEFINE_SHOW_ATTRIBUTE(marker_markers);

#if defined(CONFIG_HAVE_ARCH_MARKERS) || defined(CONFIG_MARKERS_STATIC_KEYS)
#define MARKER_DEBUGFS_SITES

/*
 * The MARK_SYM symbols, sorted by address, gathered when the sites file
 * is opened; the position of its iterator; and the function of the last
 * site listed, whose next sites are mostly in the same function (a
 * module's symbols are searched linearly: once per function, not per
 * site).
 */
struct marker_syms {
	unsigned int nr;
	unsigned int max;
	struct marker_sym {
		unsigned long addr;
		char *name;
	} *v;
	struct marker_sites_pos {
		const struct marker_range *r;
		unsigned int i;
	} pos;
	unsigned long fstart;
	unsigned long fend;
	char fname[KSYM_NAME_LEN];
};

/* The longest site: an x86-64 site's 5 bytes, or a jump label's. */
#define MARKER_SITE_BYTES	8

/* What a line of the sites file says of one site. */
struct marker_site_line {
	unsigned long code;
	unsigned int size;
	bool armed;
	const struct marker *mark;
	const char *sym;
};

static int marker_sym_add(void *data, const char *name, unsigned long addr)
{
	struct marker_syms *ms = data;
	struct marker_sym *v;

	if (!is_marker_symbol(name))
		return 0;
	if (ms->nr == ms->max) {
		v = krealloc_array(ms->v, ms->max * 2 + 16, sizeof(*v),
				   GFP_KERNEL);
		if (!v)
			return -ENOMEM;
		ms->v = v;
		ms->max = ms->max * 2 + 16;
	}
	ms->v[ms->nr].name = kstrdup(name, GFP_KERNEL);
	if (!ms->v[ms->nr].name)
		return -ENOMEM;
	ms->v[ms->nr++].addr = addr;
	return 0;
}

static void marker_syms_free(struct marker_syms *ms)
{
	while (ms->nr)
		kfree(ms->v[--ms->nr].name);
	kfree(ms->v);
	kfree(ms);
}

static int marker_sym_cmp(const void *a, const void *b)
{
	const struct marker_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

#ifdef CONFIG_HAVE_ARCH_MARKERS
/* @ms is sorted by address. */
static const char *marker_sym_at(const struct marker_syms *ms,
				 unsigned long addr)
{
	struct marker_sym key = { .addr = addr };
	const struct marker_sym *sym;

	sym = bsearch(&key, ms->v, ms->nr, sizeof(key), marker_sym_cmp);
	return sym ? sym->name : "-";
}

/* The sites of @r are its own patchable sites. */
static unsigned int marker_range_sites(const struct marker_range *r)
{
	return r->sites_stop - r->sites;
}

/*
 * Site @i of @r: its MARK_SYM symbol, on its first byte, its address,
 * armed or not, its five bytes now, its marker.  Sites in freed init text
 * are left out.
 */
static int marker_site_read(const struct marker_syms *ms,
			    const struct marker_range *r, unsigned int i,
			    struct marker_site_line *l)
{
	const struct marker_site *s = r->sites + i;

	if (!marker_site_writable(s, r))
		return -ENOENT;
	l->code = marker_site_code(s);
	l->size = MARKER_SITE_SIZE;
	l->armed = arch_marker_site_armed(s);
	l->mark = marker_site_marker(s);
	l->sym = marker_sym_at(ms, l->code);
	return 0;
}
#else
/* The jump labels of @r, of its markers' keys and others. */
static struct jump_entry *marker_range_jumps(const struct marker_range *r,
					     unsigned int *nr)
{
#ifdef CONFIG_MODULES
	if (r->mod) {
		*nr = r->mod->num_jump_entries;
		return r->mod->jump_entries;
	}
#endif
	*nr = __stop___jump_table - __start___jump_table;
	return __start___jump_table;
}

static unsigned int marker_range_sites(const struct marker_range *r)
{
	unsigned int nr;

	marker_range_jumps(r, &nr);
	return nr;
}

/* Whether @r's init text is gone, with its jump labels' instructions. */
static bool marker_range_init_gone(const struct marker_range *r)
{
#ifdef CONFIG_MODULES
	if (r->mod)
		return r->mod->state == MODULE_STATE_LIVE;
#endif
	return system_state >= SYSTEM_FREEING_INITMEM;
}

/* The marker of @r whose key @key is, or NULL. */
static struct marker *marker_of_key(const struct marker_range *r,
				    struct static_key *key)
{
	struct marker *m = container_of(key, struct marker, key.key);

	if (m < r->start || m >= r->stop ||
	    ((char *)m - (char *)r->start) % sizeof(*m))
		return NULL;
	return m;
}

/*
 * The MARK_SYM of a jump-label site: the first marker symbol after it,
 * if it is one of its marker's.
 */
static const char *marker_jump_sym(const struct marker_syms *ms,
				   unsigned long code, const struct marker *m)
{
	size_t len = strlen(m->name);
	unsigned int lo = 0, hi = ms->nr, mid;
	const char *name;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ms->v[mid].addr <= code)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ms->nr)
		return "-";
	name = ms->v[lo].name + sizeof(MARK_SYM_PREFIX) - 1;
	return strncmp(name, m->name, len) || name[len] != '.' ?
	       "-" : ms->v[lo].name;
}

/*
 * Jump label @i of @r, if it is a site of one of @r's markers: its
 * MARK_SYM, after it, its address, enabled or not, its bytes now, its
 * marker.  Jump labels in init text that is gone are left out.
 */
static int marker_site_read(const struct marker_syms *ms,
			    const struct marker_range *r, unsigned int i,
			    struct marker_site_line *l)
{
	unsigned int nr;
	struct jump_entry *e = marker_range_jumps(r, &nr) + i;

	l->mark = marker_of_key(r, jump_entry_key(e));
	if (!l->mark || (jump_entry_is_init(e) && marker_range_init_gone(r)))
		return -ENOENT;
	l->code = jump_entry_code(e);
	l->size = jump_entry_size(e);
	l->armed = static_key_enabled(&l->mark->key);
	l->sym = marker_jump_sym(ms, l->code, l->mark);
	return 0;
}
#endif

/*
 * The sites file is a seq_file iterator over every site of vmlinux, then
 * of each module: start() takes markers_mutex and finds the site of a
 * position, stop() drops it, so that a read lists only what fits its
 * buffer.
 */
static const struct marker_range *marker_range_next(const struct marker_range *r)
{
	return list_is_last(&r->list, &marker_ranges) ? NULL :
	       list_next_entry(r, list);
}

static void *marker_sites_seek(struct seq_file *f, loff_t pos)
{
	struct marker_sites_pos *p = &((struct marker_syms *)f->private)->pos;
	const struct marker_range *r;

	for (r = list_first_entry(&marker_ranges, struct marker_range, list);
	     r; r = marker_range_next(r)) {
		if (pos < marker_range_sites(r)) {
			p->r = r;
			p->i = pos;
			return p;
		}
		pos -= marker_range_sites(r);
	}
	return NULL;
}

static void *marker_sites_start(struct seq_file *f, loff_t *pos)
{
	struct marker_syms *ms = f->private;

	/* Modules may have come and gone since the last read. */
	ms->fend = 0;
	mutex_lock(&markers_mutex);
	return marker_sites_seek(f, *pos);
}

static void *marker_sites_next(struct seq_file *f, void *v, loff_t *pos)
{
	struct marker_sites_pos *p = v;

	++*pos;
	if (++p->i < marker_range_sites(p->r))
		return p;
	while ((p->r = marker_range_next(p->r)))
		if (marker_range_sites(p->r)) {
			p->i = 0;
			return p;
		}
	return NULL;
}

static void marker_sites_stop(struct seq_file *f, void *v)
{
	mutex_unlock(&markers_mutex);
}

/* @code as function+offset/size, as sprint_symbol() without " [module]". */
static void marker_sites_where(struct marker_syms *ms, unsigned long code,
			       char *where)
{
	unsigned long size, offset;
	const char *name;
	char *modname;

	if (code < ms->fstart || code >= ms->fend) {
		name = kallsyms_lookup(code, &size, &offset, &modname,
				       ms->fname);
		if (!name) {
			snprintf(where, KSYM_SYMBOL_LEN, "0x%lx", code);
			ms->fend = 0;
			return;
		}
		if (name != ms->fname)
			strscpy(ms->fname, name, sizeof(ms->fname));
		ms->fstart = code - offset;
		ms->fend = ms->fstart + size;
	}
	snprintf(where, KSYM_SYMBOL_LEN, "%s+%#lx/%#lx", ms->fname,
		 code - ms->fstart, ms->fend - ms->fstart);
}

/*
 * One line per site: its MARK_SYM symbol, its address as function+offset,
 * armed or not, its bytes now, its marker and its owner.
 */
static int marker_sites_show(struct seq_file *f, void *v)
{
	struct marker_syms *ms = f->private;
	const struct marker_sites_pos *p = v;
	char where[KSYM_SYMBOL_LEN];
	struct marker_site_line l;
	u8 insn[MARKER_SITE_BYTES];

	if (marker_site_read(ms, p->r, p->i, &l) ||
	    l.size > sizeof(insn) ||
	    copy_from_kernel_nofault(insn, (void *)l.code, l.size))
		return 0;
	marker_sites_where(ms, l.code, where);
	seq_printf(f, "%s %s %s %*phN %s %s\n", l.sym, where,
		   l.armed ? "armed" : "disarmed", l.size, insn, l.mark->name,
		   marker_range_owner(p->r));
	return 0;
}

static const struct seq_operations marker_sites_sops = {
	.start = marker_sites_start,
	.next = marker_sites_next,
	.stop = marker_sites_stop,
	.show = marker_sites_show,
};

/* kallsyms and module_mutex are walked before markers_mutex is taken. */
static int marker_sites_open(struct inode *inode, struct file *file)
{
	struct marker_syms *ms;
	int ret;

	ms = kzalloc(sizeof(*ms), GFP_KERNEL);
	if (!ms)
		return -ENOMEM;
	/* Without kallsyms, sites have no symbol: "-". */
	ret = kallsyms_on_each_symbol(marker_sym_add, ms);
	if (!ret)
		ret = module_kallsyms_on_each_symbol(NULL, marker_sym_add, ms);
	if (ret == -EOPNOTSUPP)
		ret = 0;
	if (ret)
		goto err;
	sort(ms->v, ms->nr, sizeof(*ms->v), marker_sym_cmp, NULL);
	ret = seq_open(file, &marker_sites_sops);
	if (ret)
		goto err;
	((struct seq_file *)file->private_data)->private = ms;
	return 0;
err:
	marker_syms_free(ms);
	return ret;
}

static int marker_sites_release(struct inode *inode, struct file *file)
{
	struct seq_file *f = file->private_data;

	marker_syms_free(f->private);
	return seq_release(inode, file);
}

static const struct file_operations marker_sites_fops = {
	.owner = THIS_MODULE,
	.open = marker_sites_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = marker_sites_release,
};
#endif /* MARKER_DEBUGFS_SITES */

static int __init marker_debugfs_init(void)
{
	marker_debugfs_dir = debugfs_create_dir("markers", NULL);
	debugfs_create_file("markers", 0400, marker_debugfs_dir, NULL,
			    &marker_markers_fops);
#ifdef MARKER_DEBUGFS_SITES
	debugfs_create_file("sites", 0400, marker_debugfs_dir, NULL,
			    &marker_sites_fops);
#endif
	return 0;
}
late_initcall(marker_debugfs_init);
