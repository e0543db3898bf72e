// SPDX-License-Identifier: GPL-2.0
/*
 * Selecting a marker's sites: the queries of marker_select(), which choose
 * among the MARK() expansions of one marker name by module, source file,
 * function and line, as dynamic debug's queries choose pr_debug() sites:
 * parsed, matched against an expansion and printed back.  kernel/marker.c
 * keeps the queries in force and applies them.
 *
 * See Documentation/trace/markers.rst, section 5.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/glob.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "marker_internal.h"

/* A query is at most this long, as a dynamic debug query. */
#define MARKER_QUERY_MAX	1024

/**
 * struct marker_query - which expansions of a marker are selected
 * @module: glob of the owner's name ("vmlinux" for the kernel), or NULL
 * @file: glob of the source file's path or of its base name, or NULL
 * @func: glob of the function the expansion is written in, or NULL
 * @line_lo: first line selected
 * @line_hi: last line selected
 * @lines: whether the query has a line word
 * @words: the words of the query, which the globs point into
 *
 * An expansion is selected when it matches every word given.
 */
struct marker_query {
	const char *module;
	const char *file;
	const char *func;
	unsigned int line_lo;
	unsigned int line_hi;
	bool lines;
	char words[];
};

/* "N", "N-M", "N-" or "-M", into @q's line range; @val is kept. */
static int marker_query_lines(struct marker_query *q, char *val)
{
	char *hi = strchr(val, '-');
	int ret = 0;

	q->line_lo = 0;
	q->line_hi = UINT_MAX;
	if (hi)
		*hi = '\0';
	if (*val && kstrtouint(val, 10, &q->line_lo))
		ret = -EINVAL;
	else if (!hi)
		q->line_hi = q->line_lo;
	else if (hi[1] && kstrtouint(hi + 1, 10, &q->line_hi))
		ret = -EINVAL;
	else if (!*val && !hi[1])
		ret = -EINVAL;
	if (hi)
		*hi = '-';
	if (!*val || q->line_lo > q->line_hi)
		ret = -EINVAL;
	return ret;
}

/* Set the word @key of @q to @val, once. */
static int marker_query_word(const char *name, struct marker_query *q,
			     const char *key, char *val)
{
	const char **glob;

	if (!val) {
		pr_err("select %s: '%s' without a value\n", name, key);
		return -EINVAL;
	}
	if (!strcmp(key, "line")) {
		if (q->lines) {
			pr_err("select %s: 'line' given twice\n", name);
			return -EINVAL;
		}
		if (marker_query_lines(q, val)) {
			pr_err("select %s: bad line range '%s'\n", name, val);
			return -EINVAL;
		}
		q->lines = true;
		return 0;
	}
	if (!strcmp(key, "module")) {
		glob = &q->module;
	} else if (!strcmp(key, "file")) {
		glob = &q->file;
	} else if (!strcmp(key, "func")) {
		glob = &q->func;
	} else {
		pr_err("select %s: unknown keyword '%s'\n", name, key);
		return -EINVAL;
	}
	if (*glob) {
		pr_err("select %s: '%s' given twice\n", name, key);
		return -EINVAL;
	}
	*glob = val;
	return 0;
}

/**
 * marker_query_parse() - parse the query of marker_select()
 * @name: the marker's name, for the log
 * @query: keyword-value pairs separated by white space, or NULL
 * @qp: set to the query, or to NULL if it selects every site
 *
 * Return: 0, or -EINVAL for a bad query (logged); -ENOMEM.
 */
int marker_query_parse(const char *name, const char *query,
		       struct marker_query **qp)
{
	struct marker_query *q;
	char *cur, *key, *val;
	size_t len;
	int ret;

	*qp = NULL;
	query = skip_spaces(query ?: "");
	if (!*query)
		return 0;
	len = strnlen(query, MARKER_QUERY_MAX);
	if (len == MARKER_QUERY_MAX) {
		pr_err("select %s: query longer than %d\n", name,
		       MARKER_QUERY_MAX - 1);
		return -EINVAL;
	}
	q = kzalloc(struct_size(q, words, len + 1), GFP_KERNEL);
	if (!q)
		return -ENOMEM;
	q->line_hi = UINT_MAX;
	memcpy(q->words, query, len);
	cur = q->words;
	while ((key = strsep(&cur, " \t\n"))) {
		if (!*key)
			continue;
		do {
			val = strsep(&cur, " \t\n");
		} while (val && !*val);
		ret = marker_query_word(name, q, key, val);
		if (ret) {
			kfree(q);
			return ret;
		}
	}
	*qp = q;
	return 0;
}

void marker_query_free(struct marker_query *q)
{
	kfree(q);
}

/* The name "module" words match: the module's, or "vmlinux". */
const char *marker_owner(struct module *mod)
{
	return mod ? module_name(mod) : "vmlinux";
}

/**
 * marker_query_match() - whether a query selects a marker expansion
 * @q: the query, NULL for all
 * @m: the expansion
 * @mod: its module, NULL for vmlinux
 *
 * MARK_ENABLED() expansions, which have no format, are not sites: they
 * follow the name's probes whatever the query.
 */
bool marker_query_match(const struct marker_query *q, const struct marker *m,
			struct module *mod)
{
	if (!q || !m->format)
		return true;
	if (q->module && !glob_match(q->module, marker_owner(mod)))
		return false;
	if (q->file && !glob_match(q->file, m->file) &&
	    !glob_match(q->file, kbasename(m->file)))
		return false;
	if (q->func && !glob_match(q->func, m->func))
		return false;
	return m->line >= q->line_lo && m->line <= q->line_hi;
}

/* @q as words that marker_select() takes back. */
void marker_query_show(struct seq_file *f, const struct marker_query *q)
{
	if (q->module)
		seq_printf(f, " module %s", q->module);
	if (q->file)
		seq_printf(f, " file %s", q->file);
	if (q->func)
		seq_printf(f, " func %s", q->func);
	if (q->lines && q->line_lo == q->line_hi)
		seq_printf(f, " line %u", q->line_lo);
	else if (q->lines)
		seq_printf(f, " line %u-%u", q->line_lo, q->line_hi);
}
