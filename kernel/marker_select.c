// SPDX-License-Identifier: GPL-2.0
/*
 * Selecting a marker's sites: the queries of marker_select(), which choose
 * among the MARK() expansions of one marker name by module, source file,
 * function and line, as dynamic debug's queries choose pr_debug() sites,
 * and the commands of marker_select_command(), several queries at once:
 * parsed, matched against an expansion and printed back.  kernel/marker.c
 * keeps the queries in force and applies them.
 *
 * See Documentation/trace/markers.rst, section 5.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/glob.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/marker_select.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "marker_internal.h"

/* A query is at most this long, as a dynamic debug query. */
#define MARKER_QUERY_MAX	1024

/**
 * struct marker_query - which expansions of a marker are selected
 * @next: the name's next query: a site is selected if any query matches
 * @module: glob of the owner's name ("vmlinux" for the kernel), or NULL
 * @file: glob of the source file's path or of its base name, or NULL
 * @func: glob of the function the expansion is written in, or NULL
 * @line_lo: first line selected
 * @line_hi: last line selected
 * @lines: whether the query has a line word
 * @selector: whose query it is: NULL for the one of marker_sites at the
 *	      top of tracefs and of the kernel's parameters, which probes
 *	      connected without a selector follow, or a trace instance's
 * @size: the length of @words, its NUL included
 * @words: the words of the query, which the globs point into
 *
 * An expansion is selected when it matches every word given.
 */
struct marker_query {
	struct marker_query *next;
	const void *selector;
	const char *module;
	const char *file;
	const char *func;
	unsigned int line_lo;
	unsigned int line_hi;
	bool lines;
	size_t size;
	char words[];
};

/* What error_log shows, by enum marker_select_err. */
const char *marker_select_errs[] = {
	[MARKER_SELECT_ERR_NO_MARKER] = "No 'marker NAME' in the query",
	[MARKER_SELECT_ERR_TWO_MARKERS] = "'marker' given twice in one query",
	[MARKER_SELECT_ERR_NO_NAME] = "'marker' without a name",
	[MARKER_SELECT_ERR_BAD_NAME] = "Marker name empty or too long",
	[MARKER_SELECT_ERR_NO_MATCH] = "No loaded marker matches this name",
	[MARKER_SELECT_ERR_NO_VALUE] = "Keyword without a value",
	[MARKER_SELECT_ERR_BAD_KEYWORD] = "Unknown keyword",
	[MARKER_SELECT_ERR_TWICE] = "Keyword given twice",
	[MARKER_SELECT_ERR_BAD_LINES] = "Bad line range",
	[MARKER_SELECT_ERR_TOO_LONG] = "Query too long",
	[MARKER_SELECT_ERR_NO_QUERY] = "No such query in force",
};

/* Record in @err, if any, why the word at @pos of the command is refused. */
static void marker_select_err(struct marker_select_error *err, int type,
			      unsigned int pos)
{
	if (err) {
		err->type = type;
		err->pos = pos;
	}
}

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

/*
 * Set the word @key of @q to @val, once; @pos is @key's offset in the
 * command, for @err.
 */
static int marker_query_word(const char *name, struct marker_query *q,
			     const char *key, char *val,
			     struct marker_select_error *err, unsigned int pos)
{
	const char **glob;

	if (!val) {
		pr_err("select %s: '%s' without a value\n", name, key);
		marker_select_err(err, MARKER_SELECT_ERR_NO_VALUE, pos);
		return -EINVAL;
	}
	if (!strcmp(key, "line")) {
		if (q->lines) {
			pr_err("select %s: 'line' given twice\n", name);
			marker_select_err(err, MARKER_SELECT_ERR_TWICE, pos);
			return -EINVAL;
		}
		if (marker_query_lines(q, val)) {
			pr_err("select %s: bad line range '%s'\n", name, val);
			marker_select_err(err, MARKER_SELECT_ERR_BAD_LINES,
					  pos + (val - key));
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
		marker_select_err(err, MARKER_SELECT_ERR_BAD_KEYWORD, pos);
		return -EINVAL;
	}
	if (*glob) {
		pr_err("select %s: '%s' given twice\n", name, key);
		marker_select_err(err, MARKER_SELECT_ERR_TWICE, pos);
		return -EINVAL;
	}
	*glob = val;
	return 0;
}

/* The query words of @q->words; @base is their offset in the command. */
static int marker_query_words(const char *name, struct marker_query *q,
			      struct marker_select_error *err,
			      unsigned int base)
{
	char *cur = q->words, *key, *val;
	int ret;

	while ((key = strsep(&cur, " \t\n"))) {
		if (!*key)
			continue;
		do {
			val = strsep(&cur, " \t\n");
		} while (val && !*val);
		ret = marker_query_word(name, q, key, val, err,
					base + (key - q->words));
		if (ret)
			return ret;
	}
	return 0;
}

/* marker_query_parse(), @query being at offset @base of a command. */
static int marker_query_parse_at(const char *name, const char *query,
				 struct marker_query **qp,
				 struct marker_select_error *err,
				 unsigned int base)
{
	const char *start = skip_spaces(query ?: "");
	struct marker_query *q;
	size_t len;
	int ret;

	*qp = NULL;
	if (!*start)
		return 0;
	base += start - query;
	len = strnlen(start, MARKER_QUERY_MAX);
	if (len == MARKER_QUERY_MAX) {
		pr_err("select %s: query longer than %d\n", name,
		       MARKER_QUERY_MAX - 1);
		marker_select_err(err, MARKER_SELECT_ERR_TOO_LONG, base);
		return -EINVAL;
	}
	q = kzalloc(struct_size(q, words, len + 1), GFP_KERNEL);
	if (!q)
		return -ENOMEM;
	q->line_hi = UINT_MAX;
	q->size = len + 1;
	memcpy(q->words, start, len);
	ret = marker_query_words(name, q, err, base);
	if (ret) {
		kfree(q);
		return ret;
	}
	*qp = q;
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
	return marker_query_parse_at(name, query, qp, NULL, 0);
}

/* Free @q and the queries after it. */
void marker_query_free(struct marker_query *q)
{
	struct marker_query *next;

	for (; q; q = next) {
		next = q->next;
		kfree(q);
	}
}

/* A copy of @q alone, its globs pointing into the copy's words. */
struct marker_query *marker_query_dup(const struct marker_query *q)
{
	struct marker_query *c;

	c = kmemdup(q, struct_size(q, words, q->size), GFP_KERNEL);
	if (!c)
		return NULL;
	c->next = NULL;
	if (q->module)
		c->module = c->words + (q->module - q->words);
	if (q->file)
		c->file = c->words + (q->file - q->words);
	if (q->func)
		c->func = c->words + (q->func - q->words);
	return c;
}

static bool marker_glob_equal(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Whether @a and @b select the same sites by the same words. */
static bool marker_query_equal(const struct marker_query *a,
			       const struct marker_query *b)
{
	return a->selector == b->selector &&
	       marker_glob_equal(a->module, b->module) &&
	       marker_glob_equal(a->file, b->file) &&
	       marker_glob_equal(a->func, b->func) &&
	       a->lines == b->lines && a->line_lo == b->line_lo &&
	       a->line_hi == b->line_hi;
}

/**
 * marker_query_find() - the link to a query equal to @q in a list
 * @list: the link to the list's first query
 * @q: the query
 *
 * Return: the link to the equal query, or to the list's NULL end.
 */
struct marker_query **marker_query_find(struct marker_query **list,
					const struct marker_query *q)
{
	while (*list && !marker_query_equal(*list, q))
		list = &(*list)->next;
	return list;
}

/**
 * marker_query_take() - take a selector's queries out of a list
 * @list: the link to the list's first query
 * @selector: whose queries
 *
 * Return: them, as a list of their own, or NULL if it has none.
 */
struct marker_query *marker_query_take(struct marker_query **list,
				       const void *selector)
{
	struct marker_query *taken = NULL, **tail = &taken;

	while (*list) {
		if ((*list)->selector != selector) {
			list = &(*list)->next;
			continue;
		}
		*tail = *list;
		*list = (*list)->next;
		tail = &(*tail)->next;
		*tail = NULL;
	}
	return taken;
}

/* Take the query at @link out of its list. */
struct marker_query *marker_query_unlink(struct marker_query **link)
{
	struct marker_query *q = *link;

	*link = q->next;
	q->next = NULL;
	return q;
}

/* The name "module" words match: the module's, or "vmlinux". */
const char *marker_owner(struct module *mod)
{
	return mod ? module_name(mod) : "vmlinux";
}

static bool marker_query_match_one(const struct marker_query *q,
				   const struct marker *m, struct module *mod)
{
	if (q->module && !glob_match(q->module, marker_owner(mod)))
		return false;
	if (q->file && !glob_match(q->file, m->file) &&
	    !glob_match(q->file, kbasename(m->file)))
		return false;
	if (q->func && !glob_match(q->func, m->func))
		return false;
	return m->line >= q->line_lo && m->line <= q->line_hi;
}

/**
 * marker_query_match() - whether a selector's queries select an expansion
 * @q: the first query of the name's list, NULL for none
 * @selector: whose queries count (see struct marker_query)
 * @m: the expansion
 * @mod: its module, NULL for vmlinux
 *
 * An expansion is selected if any of @selector's queries matches it, and
 * every expansion is while @selector has none.  MARK_ENABLED()
 * expansions, which have no format, are not sites: they follow the
 * name's probes whatever the query.
 */
bool marker_query_match(const struct marker_query *q, const void *selector,
			const struct marker *m, struct module *mod)
{
	bool queried = false;

	if (!m->format)
		return true;
	for (; q; q = q->next) {
		if (q->selector != selector)
			continue;
		if (marker_query_match_one(q, m, mod))
			return true;
		queried = true;
	}
	return !queried;
}

/* @selector's queries of @name in @q, one a line, as commands that set them. */
void marker_query_show(struct seq_file *f, const char *name,
		       const struct marker_query *q, const void *selector)
{
	for (; q; q = q->next) {
		if (q->selector != selector)
			continue;
		seq_printf(f, "# marker %s", name);
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
		seq_putc(f, '\n');
	}
}

/* Whether @name is a glob rather than a marker name. */
bool marker_name_is_glob(const char *name)
{
	return strpbrk(name, "*?[");
}

/*
 * Take the "marker NAME" or "!marker NAME" of the query at @part (offset
 * @base of the command) into @op, blanking them out of @part so that the
 * other words keep their offsets.
 */
static int marker_select_take_name(char *part, unsigned int base,
				   struct marker_select_op *op,
				   struct marker_select_error *err)
{
	char *word = skip_spaces(part), *name;
	bool remove;
	size_t len;

	for (; *word; word = skip_spaces(word + len)) {
		len = strcspn(word, " \t");
		remove = *word == '!';
		if (len != remove + strlen("marker") ||
		    strncmp(word + remove, "marker", len - remove))
			continue;
		if (op->name) {
			pr_err("marker_sites: 'marker' given twice\n");
			marker_select_err(err, MARKER_SELECT_ERR_TWO_MARKERS,
					  base + (word - part));
			return -EINVAL;
		}
		name = skip_spaces(word + len);
		if (!*name) {
			pr_err("marker_sites: 'marker' without a name\n");
			marker_select_err(err, MARKER_SELECT_ERR_NO_NAME,
					  base + (word - part));
			return -EINVAL;
		}
		op->name = kstrndup(name, strcspn(name, " \t"), GFP_KERNEL);
		if (!op->name)
			return -ENOMEM;
		op->name_pos = base + (name - part);
		op->remove = remove;
		len = name + strlen(op->name) - word;
		memset(word, ' ', len);
	}
	return 0;
}

/*
 * One query of a command, at offset @base, of @selector; an empty one
 * makes no @op.
 */
static int marker_select_parse_one(char *part, unsigned int base,
				   const void *selector,
				   struct marker_select_op *op,
				   struct marker_select_error *err)
{
	char *first = skip_spaces(part);
	int ret;

	if (!*first)
		return 0;
	ret = marker_select_take_name(part, base, op, err);
	if (ret)
		return ret;
	if (!op->name) {
		pr_err("marker_sites: no 'marker NAME' in '%s'\n", strim(part));
		marker_select_err(err, MARKER_SELECT_ERR_NO_MARKER,
				  base + (first - part));
		return -EINVAL;
	}
	if (!*op->name || strlen(op->name) >= MARKER_NAME_MAX) {
		pr_err("marker_sites: bad marker name '%s'\n", op->name);
		marker_select_err(err, MARKER_SELECT_ERR_BAD_NAME,
				  op->name_pos);
		return -EINVAL;
	}
	ret = marker_query_parse_at(op->name, part, &op->q, err, base);
	if (ret)
		return ret;
	if (op->q)
		op->q->selector = selector;
	return 1;
}

/**
 * marker_select_parse() - parse a command of marker_select_command()
 * @cmd: the command, which is changed
 * @selector: whose queries they are (struct marker_query)
 * @ops: one entry per query of @cmd, zeroed
 * @max: entries in @ops, at least marker_select_count(@cmd)
 * @err: where the first error is, or NULL
 *
 * Return: the number of queries in @ops, or -EINVAL for a bad command
 * (logged); -ENOMEM.  Names and queries are in @ops in either case.
 */
int marker_select_parse(char *cmd, const void *selector,
			struct marker_select_op *ops, unsigned int max,
			struct marker_select_error *err)
{
	char *cur = cmd, *part;
	unsigned int nr = 0;
	int ret;

	while ((part = strsep(&cur, ";")) && nr < max) {
		ret = marker_select_parse_one(part, part - cmd, selector,
					      &ops[nr], err);
		if (ret < 0)
			return ret;
		nr += ret;
	}
	return nr;
}

/* How many queries a command may have: one per ';', and one. */
unsigned int marker_select_count(const char *cmd)
{
	unsigned int nr = 1;

	while ((cmd = strchr(cmd, ';'))) {
		cmd++;
		nr++;
	}
	return nr;
}
