// SPDX-License-Identifier: GPL-2.0
/*
 * A marker event's record, from its marker's format: one typed field per
 * conversion, named after the word before it ("pid %d" gives "pid"), the
 * copy program that the event's probes run, and the print format.  See
 * Documentation/trace/markers.rst, section 8.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "marker_format.h"

/**
 * marker_event_free() - free a marker event's record layout
 * @ev: the layout, or NULL
 */
void marker_event_free(struct marker_event *ev)
{
	if (!ev)
		return;
	kfree(ev->print_fmt);
	kfree(ev->fields);
	kfree(ev->text);
	kfree(ev);
}

/**
 * marker_event_alloc() - allocate the record layout of a marker format
 * @name: the marker's name, kept by the caller as long as the layout
 * @format: its format, kept by the caller as long as the layout
 *
 * Room for the fields of every conversion of @format, up to
 * MARKER_EVENT_MAX_ARGS, and for its literal text.
 *
 * Return: the layout, zeroed but for @name and @format, or NULL without
 * memory.
 */
struct marker_event *marker_event_alloc(const char *name, const char *format)
{
	unsigned int nr = 0;
	struct marker_event *ev;
	const char *p;

	for (p = format; (p = strchr(p, '%')); p++)
		nr++;
	nr = min_t(unsigned int, nr, MARKER_EVENT_MAX_ARGS);
	ev = kzalloc(struct_size(ev, ops, nr), GFP_KERNEL);
	if (!ev)
		return NULL;
	ev->name = name;
	ev->format = format;
	ev->text = kmalloc(strlen(format) + nr + 1, GFP_KERNEL);
	ev->fields = kcalloc(nr, sizeof(*ev->fields), GFP_KERNEL);
	if (!ev->text || (nr && !ev->fields)) {
		marker_event_free(ev);
		return NULL;
	}
	return ev;
}

/*
 * How each length modifier's argument is read, and its field: its size
 * in the record, its C types, and the modifier printed.  %hh and %h keep
 * theirs: libtraceevent prints a field as the print format's conversion
 * says, and reads a 1- or 2-byte field's sign from "%hhd" and "%hd".
 */
static const struct {
	const char *mod;
	u8 read;
	u8 size;
	const char *stype;
	const char *utype;
	const char *pmod;
} marker_event_lengths[] = {
	{ "hh", MARKER_READ_INT, 1, "signed char", "unsigned char", "hh" },
	{ "h", MARKER_READ_INT, 2, "short", "unsigned short", "h" },
	{ "ll", MARKER_READ_LLONG, 8, "long long", "unsigned long long", "ll" },
	{ "l", MARKER_READ_LONG, sizeof(long), "long", "unsigned long", "l" },
	{ "z", MARKER_READ_SIZE, sizeof(size_t), "ssize_t", "size_t", "l" },
	{ "t", MARKER_READ_PTRDIFF, sizeof(ptrdiff_t), "ptrdiff_t",
	  "unsigned long", "l" },
	{ "", MARKER_READ_INT, 4, "int", "unsigned int", "" },
};

/**
 * struct marker_event_conv - one conversion of a format, as parsed
 * @start: its '%'
 * @end: one past its last character
 * @len: index in marker_event_lengths
 * @conv: its conversion character
 * @flags: flags, width and precision as written, NUL-terminated
 * @stars: '*' widths and precisions: an int argument each, first
 */
struct marker_event_conv {
	const char *start;
	const char *end;
	unsigned int len;
	char conv;
	char flags[8];
	u8 stars;
};

/*
 * Parse the conversion at @p (a '%' that is not "%%").  Returns false
 * where the argument list can no longer be followed.
 */
static bool marker_format_parse_conv(const char *p, struct marker_event_conv *c)
{
	unsigned int i, n = 0;

	memset(c, 0, sizeof(*c));
	c->start = p++;
	while (*p && strchr("-+ #0123456789.*", *p)) {
		if (*p == '*')
			c->stars++;
		else if (n < sizeof(c->flags) - 1)
			c->flags[n++] = *p;
		else
			return false;
		p++;
	}
	for (i = 0; i < ARRAY_SIZE(marker_event_lengths); i++) {
		const char *mod = marker_event_lengths[i].mod;

		if (!strncmp(p, mod, strlen(mod)))
			break;
	}
	c->len = i;
	p += strlen(marker_event_lengths[i].mod);
	c->conv = *p;
	if (!c->conv || !strchr("diuxXocspn", c->conv))
		return false;
	if (strchr("cspn", c->conv) && *marker_event_lengths[i].mod)
		return false;
	p++;
	/* printk() takes every alphanumeric after %p as an extension. */
	if (c->conv == 'p')
		while (isalnum(*p))
			p++;
	c->end = p;
	return true;
}

/* Whether the conversion gets a field: no '*', no %n, no %p extension. */
static bool marker_format_typed(const struct marker_event_conv *c)
{
	if (c->stars || c->conv == 'n')
		return false;
	return c->conv != 'p' || c->end == c->start + 2 + strlen(c->flags);
}

/*
 * The name of the word before a conversion, as in "pid %d", "pid=%d" or
 * "addr 0x%lx"; empty when none reads like a name.
 */
static void marker_format_word(const char *lit, const char *end, char *name)
{
	const char *w;

	name[0] = '\0';
	if (end - lit >= 2 && (end[-1] == 'x' || end[-1] == 'X') &&
	    end[-2] == '0' && (end - lit == 2 || !isalnum(end[-3])))
		end -= 2;
	while (end > lit && strchr(" =:", end[-1]))
		end--;
	for (w = end; w > lit && (isalnum(w[-1]) || w[-1] == '_'); w--)
		;
	if (w == end || isdigit(*w) || end - w >= MARKER_EVENT_NAME_LEN ||
	    !strncmp(w, "common_", 7))
		return;
	memcpy(name, w, end - w);
	name[end - w] = '\0';
}

static bool marker_format_name_used(const struct marker_event *ev,
				    unsigned int nr, const char *name)
{
	unsigned int i;

	if (ev->call_site && !strcmp(name, MARKER_EVENT_CALL_SITE))
		return true;
	for (i = 0; i < nr; i++)
		if (!strcmp(ev->fields[i].name, name))
			return true;
	return false;
}

/* Name field @i after @word, made unique, or "arg<i + 1>". */
static void marker_format_name(struct marker_event *ev, unsigned int i,
			       const char *word)
{
	char *name = ev->fields[i].name;
	unsigned int n;

	if (*word && !marker_format_name_used(ev, i, word)) {
		strscpy(name, word, MARKER_EVENT_NAME_LEN);
		return;
	}
	for (n = 2; *word && n < 100; n++) {
		if (snprintf(name, MARKER_EVENT_NAME_LEN, "%s_%u", word, n) >=
		    MARKER_EVENT_NAME_LEN)
			break;
		if (!marker_format_name_used(ev, i, name))
			return;
	}
	for (n = i + 1; ; n++) {
		snprintf(name, MARKER_EVENT_NAME_LEN, "arg%u", n);
		if (!marker_format_name_used(ev, i, name))
			return;
	}
}

/* Lay out field @i of conversion @c; returns the next free offset. */
static unsigned int marker_format_layout(struct marker_event *ev,
					 unsigned int i,
					 const struct marker_event_conv *c,
					 unsigned int offset)
{
	struct marker_event_op *op = &ev->ops[i];
	struct marker_event_field *f = &ev->fields[i];
	const char *pmod = marker_event_lengths[c->len].pmod;
	char conv = c->conv == 'i' ? 'd' : c->conv;
	unsigned int cell;

	op->read = marker_event_lengths[c->len].read;
	op->size = marker_event_lengths[c->len].size;
	op->is_signed = conv == 'd';
	f->type = op->is_signed ? marker_event_lengths[c->len].stype :
				  marker_event_lengths[c->len].utype;
	switch (conv) {
	case 'c':
		op->size = 1;
		op->is_signed = is_signed_type(char);
		f->type = "char";
		break;
	case 'p':
		op->read = MARKER_READ_PTR;
		op->size = sizeof(long);
		f->type = "unsigned long";
		pmod = "l";
		conv = 'x';
		break;
	case 's':
		op->read = MARKER_READ_PTR;
		op->size = sizeof(u32);
		op->is_string = 1;
		f->type = "__data_loc char[]";
		break;
	}
	snprintf(f->spec, sizeof(f->spec), "%s%%%s%s%c",
		 c->conv == 'p' ? "0x" : "", c->flags, pmod, conv);
	if (op->is_string) {
		offset = ALIGN(offset, sizeof(u32));
		op->offset = offset;
		return offset + sizeof(u32);
	}
	/* A number has a cell of its slots, which the probes store whole. */
	cell = max_t(unsigned int, op->size, sizeof(long));
	offset = ALIGN(offset, sizeof(long));
	op->offset = offset;
	if (IS_ENABLED(CONFIG_CPU_BIG_ENDIAN))
		op->offset += cell - op->size;
	return offset + cell;
}

/* An untyped conversion: read its arguments, record nothing. */
static void marker_format_skip(struct marker_event *ev, unsigned int i,
			       const struct marker_event_conv *c)
{
	struct marker_event_op *op = &ev->ops[i];

	op->read = strchr("spn", c->conv) ? MARKER_READ_PTR :
					    marker_event_lengths[c->len].read;
	/* Read as a field of its kind would be: raw_tp programs get it so. */
	op->is_signed = c->conv == 'd' || c->conv == 'i' ||
			(c->conv == 'c' && is_signed_type(char));
	strscpy(ev->fields[i].spec, "?", MARKER_EVENT_SPEC_LEN);
}

/* Append "%s" of @n bytes at @p to @text, "%%" made "%"; returns its start. */
static char *marker_format_lit(char **text, const char *p, size_t n)
{
	char *start = *text, *t = start;

	while (n--) {
		*t++ = *p;
		if (*p++ == '%') {
			p++;
			n--;
		}
	}
	*t++ = '\0';
	*text = t;
	return start;
}

/* Say which conversions carry no field, in one line. */
static void marker_format_tell_untyped(const struct marker_event *ev,
				       const char *stop)
{
	char buf[128];
	struct seq_buf s;
	const char *p;
	struct marker_event_conv c;

	seq_buf_init(&s, buf, sizeof(buf));
	for (p = ev->format; (p = strchr(p, '%')) && (!stop || p < stop); ) {
		if (p[1] == '%') {
			p += 2;
			continue;
		}
		marker_format_parse_conv(p, &c);
		if (!marker_format_typed(&c))
			seq_buf_printf(&s, " %.*s", (int)(c.end - c.start), p);
		p = c.end;
	}
	if (stop)
		seq_buf_printf(&s, " from \"%.16s\" on", stop);
	if (seq_buf_used(&s))
		pr_info("event %s: not recorded:%.*s\n", ev->name,
			(int)seq_buf_used(&s), buf);
}

/*
 * The probes' program: the numbers' cells, then the strings.  A record
 * is in slot order when it holds every argument, its numbers' cells
 * first and one after the other, and at most one string, the last
 * argument: its layout is then the site's slots', which the probes of
 * its shape copy with no program (marker_events.c).
 */
static void marker_format_program(struct marker_event *ev)
{
	unsigned int i, slots = 0, next = marker_event_fields_start(ev->call_site);
	const struct marker_event_op *op;
	struct marker_event_move *mv;
	bool ordered = true;

	for (i = 0; i < ev->nr_ops; i++) {
		op = &ev->ops[i];
		if (!op->size || op->stars || ev->nr_str) {
			ordered = false;
			if (!op->size)
				continue;
		}
		mv = op->is_string ? &ev->str[ev->nr_str++] :
				     &ev->num[ev->nr_num++];
		mv->slot = op->slot;
		mv->offset = op->is_string ? op->offset :
				ALIGN_DOWN(op->offset, sizeof(long));
		mv->size = op->is_string ? sizeof(u32) :
			   max_t(unsigned int, op->size, sizeof(long));
		if (op->is_string)
			continue;
		if (mv->slot != slots || mv->offset != next)
			ordered = false;
		slots += mv->size / sizeof(long);
		next = mv->offset + mv->size;
	}
	ev->in_slot_order = ordered;
	ev->nr_num_slots = slots;
}

/* The slots an argument takes in a site's layout (MARKER_EVENT_MAX_SLOTS). */
static unsigned int marker_format_slots(const struct marker_event_op *op)
{
	return op->read == MARKER_READ_LLONG ? sizeof(u64) / sizeof(long) : 1;
}

/**
 * marker_format_parse() - lay out a marker event's record from its format
 * @ev: the event, from marker_event_alloc()
 *
 * Build @ev's fields and copy program from @ev->format: one field per
 * conversion, named after the word before it, sized and typed by its
 * length modifier.  A conversion that has no field ('*', %n, a %p
 * extension) is read and skipped; from one that cannot be followed on,
 * nothing is recorded.  Both are said in the log, once.
 */
void marker_format_parse(struct marker_event *ev)
{
	const char *p = ev->format, *lit = p, *stop = NULL;
	unsigned int i = 0, arg = 0, slot = 0;
	unsigned int offset = marker_event_fields_start(ev->call_site);
	struct marker_event_conv c;
	char word[MARKER_EVENT_NAME_LEN];
	char *text = ev->text;
	bool untyped = false;

	/* MARK_NOARGS is " " for the compiler's check alone: no text. */
	if (!strcmp(p, MARK_NOARGS)) {
		p = "";
		lit = p;
	}
	while ((p = strchr(p, '%'))) {
		if (p[1] == '%') {
			p += 2;
			continue;
		}
		if (i == MARKER_EVENT_MAX_ARGS ||
		    !marker_format_parse_conv(p, &c) ||
		    arg + c.stars >= MARKER_EVENT_MAX_ARGS) {
			stop = p;
			break;
		}
		ev->fields[i].pre = marker_format_lit(&text, lit, p - lit);
		if (marker_format_typed(&c)) {
			marker_format_word(lit, p, word);
			marker_format_name(ev, i, word);
			offset = marker_format_layout(ev, i, &c, offset);
		} else {
			marker_format_skip(ev, i, &c);
			untyped = true;
		}
		ev->ops[i].stars = c.stars;
		arg += c.stars + 1;
		slot += c.stars;
		ev->ops[i].slot = slot;
		slot += marker_format_slots(&ev->ops[i]);
		p = c.end;
		lit = p;
		i++;
	}
	ev->nr_ops = i;
	ev->size = offset;
	marker_format_program(ev);
	ev->tail = marker_format_lit(&text, lit, stop ? stop - lit :
				    strlen(lit));
	if (untyped || stop)
		marker_format_tell_untyped(ev, stop);
}

/**
 * marker_format_print_fmt() - the print format of a parsed marker event
 * @ev: the event, after marker_format_parse()
 *
 * The format's literal text and each field's conversion, then the
 * fields, as the format file shows them and libtraceevent parses them.
 *
 * Return: a kmalloc()ed string, or NULL without memory.
 */
char *marker_format_print_fmt(const struct marker_event *ev)
{
	size_t size = 2 * strlen(ev->format) + 48 * ev->nr_ops + 16;
	const struct marker_event_field *f;
	struct seq_buf s;
	const char *p;
	unsigned int i;
	char *buf;

	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return NULL;
	seq_buf_init(&s, buf, size);
	seq_buf_putc(&s, '"');
	for (i = 0; i <= ev->nr_ops; i++) {
		p = i < ev->nr_ops ? ev->fields[i].pre : ev->tail;
		for (; *p; p++) {
			if (*p == '"' || *p == '\\')
				seq_buf_putc(&s, '\\');
			if (*p == '\n')
				seq_buf_puts(&s, "\\n");
			else if (*p == '%')
				seq_buf_puts(&s, "%%");
			else if (*p != '\t' && !isprint(*p))
				seq_buf_putc(&s, '?');
			else
				seq_buf_putc(&s, *p);
		}
		if (i < ev->nr_ops)
			seq_buf_puts(&s, ev->fields[i].name[0] ?
				     ev->fields[i].spec : "?");
	}
	seq_buf_putc(&s, '"');
	for (i = 0; i < ev->nr_ops; i++) {
		f = &ev->fields[i];
		if (!f->name[0])
			continue;
		if (ev->ops[i].is_string)
			seq_buf_printf(&s, ", __get_str(%s)", f->name);
		else
			seq_buf_printf(&s, ", REC->%s", f->name);
	}
	if (seq_buf_has_overflowed(&s) || !seq_buf_used(&s)) {
		kfree(buf);
		return NULL;
	}
	seq_buf_putc(&s, '\0');
	return buf;
}
