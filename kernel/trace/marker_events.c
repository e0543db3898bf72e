// SPDX-License-Identifier: GPL-2.0
/*
 * Every marker a trace event: events/markers/<name>/ in tracefs, with one
 * typed field per conversion of the marker's format.
 *
 * The event of a marker exists while vmlinux or a loaded module has a
 * marker of that name and format.  Enabling it, in any trace instance or
 * through perf, connects a probe to the marker by name through the
 * ordinary probe API; the probe writes the arguments straight into the
 * reserved record through a copy program built from the format when the
 * event was created.  See Documentation/markers.txt.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/hashtable.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>

#include "trace.h"
#include "trace_output.h"

#define MARKER_EVENT_SYSTEM	"markers"
/* Conversions, and argument slots, per format; later ones are not recorded. */
#define MARKER_EVENT_MAX_ARGS	32
/* A field name is at most this long, its NUL included. */
#define MARKER_EVENT_NAME_LEN	32
/* A %s field copies at most this many bytes, its NUL included. */
#define MARKER_EVENT_STR_MAX	256
/* The conversion of one field as printed, e.g. "%-08llx". */
#define MARKER_EVENT_SPEC_LEN	16
#define MARKER_EVENT_HASH_BITS	7

/* How the probe reads one argument from the va_list. */
enum marker_event_read {
	MARKER_READ_INT,
	MARKER_READ_LONG,
	MARKER_READ_LLONG,
	MARKER_READ_SIZE,
	MARKER_READ_PTRDIFF,
	MARKER_READ_PTR,
};

/* How a site's slot is stored into the record: its low bytes, or a string. */
enum marker_event_kind {
	MARKER_STORE_32,
	MARKER_STORE_64,
	MARKER_STORE_STR,
	MARKER_STORE_8,
	MARKER_STORE_16,
	MARKER_STORE_NONE,
};

/**
 * struct marker_event_op - one step of the copy program
 * @read: how the argument is read (enum marker_event_read)
 * @size: its size in the record: 1, 2, 4 or 8; 0 when it is not recorded.
 *	  %hh and %h fields are 1 and 2 bytes, as printk() truncates them.
 * @is_signed: whether the field is signed
 * @is_string: a %s: @size is that of its __data_loc word
 * @stars: int arguments to skip first, for '*' widths and precisions
 * @slot: the argument's position in the list, stars counted
 * @kind: how a slot is stored (enum marker_event_kind), for a site's list
 * @offset: of the field in the record
 */
struct marker_event_op {
	u8 read;
	u8 size;
	u8 is_signed;
	u8 is_string;
	u8 stars;
	u8 slot;
	u8 kind;
	u16 offset;
};

/**
 * struct marker_event_field - how one conversion is defined and printed
 * @name: the field's name; empty when it is not recorded
 * @type: its C type, for the format file and filters
 * @spec: its conversion as printed, length modifier normalized
 * @pre: the literal text printed before it (in @text)
 */
struct marker_event_field {
	char name[MARKER_EVENT_NAME_LEN];
	const char *type;
	char spec[MARKER_EVENT_SPEC_LEN];
	const char *pre;
};

/**
 * struct marker_event - the trace event of one marker name
 * @hlist: link in marker_event_table
 * @call: the event
 * @class: its class, one per event as the fields are the event's own
 * @name: the marker's name, the event's name
 * @format: the marker format the event was built from
 * @users: struct markers of loaded code with this name and format
 * @owners: vmlinux and the modules with such markers, the event's owner
 *	    (call.module, NULL for vmlinux) first
 * @refused: the last module whose format was refused, to say it once
 * @nr_ops: conversions in @ops and @fields
 * @nr_str: %s fields
 * @str: the index in @ops of each
 * @size: a record's size without its strings, header included
 * @text: literal text between the conversions, NUL-separated
 * @tail: the literal text after the last conversion (in @text)
 * @fields: the conversions, for defining and printing (cold)
 * @ops: the copy program (hot)
 */
struct marker_event {
	struct hlist_node hlist;
	struct trace_event_call call;
	struct trace_event_class class;
	char *name;
	char *format;
	unsigned int users;
	struct list_head owners;
	struct module *refused;
	unsigned int nr_ops;
	unsigned int nr_str;
	u8 str[MARKER_EVENT_MAX_ARGS];
	unsigned int size;
	char *text;
	const char *tail;
	struct marker_event_field *fields;
	struct marker_event_op ops[];
};

/**
 * struct marker_event_owner - loaded code with markers of an event
 * @list: link in the event's owners
 * @mod: the module, NULL for vmlinux
 * @markers: its struct markers of the event's name and format
 */
struct marker_event_owner {
	struct list_head list;
	struct module *mod;
	unsigned int markers;
};

/*
 * event_mutex protects marker_event_table and every event in it.  It is
 * taken before markers_mutex (probe registration from the event's reg()
 * callback), never after it.
 */
static DEFINE_HASHTABLE(marker_event_table, MARKER_EVENT_HASH_BITS);

static struct marker_event *marker_event_find(const char *name)
{
	struct marker_event *ev;

	lockdep_assert_held(&event_mutex);
	hash_for_each_possible(marker_event_table, ev, hlist,
			       full_name_hash(NULL, name, strlen(name)))
		if (!strcmp(ev->name, name))
			return ev;
	return NULL;
}

/* The record's layout, from the format. */

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
static bool marker_event_parse_conv(const char *p, struct marker_event_conv *c)
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
static bool marker_event_typed(const struct marker_event_conv *c)
{
	if (c->stars || c->conv == 'n')
		return false;
	return c->conv != 'p' || c->end == c->start + 2 + strlen(c->flags);
}

/*
 * The name of the word before a conversion, as in "pid %d", "pid=%d" or
 * "addr 0x%lx"; empty when none reads like a name.
 */
static void marker_event_word(const char *lit, const char *end, char *name)
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

static bool marker_event_name_used(const struct marker_event *ev,
				   unsigned int nr, const char *name)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(ev->fields[i].name, name))
			return true;
	return false;
}

/* Name field @i after @word, made unique, or "arg<i + 1>". */
static void marker_event_name(struct marker_event *ev, unsigned int i,
			      const char *word)
{
	char *name = ev->fields[i].name;
	unsigned int n;

	if (*word && !marker_event_name_used(ev, i, word)) {
		strscpy(name, word, MARKER_EVENT_NAME_LEN);
		return;
	}
	for (n = 2; *word && n < 100; n++) {
		if (snprintf(name, MARKER_EVENT_NAME_LEN, "%s_%u", word, n) >=
		    MARKER_EVENT_NAME_LEN)
			break;
		if (!marker_event_name_used(ev, i, name))
			return;
	}
	for (n = i + 1; ; n++) {
		snprintf(name, MARKER_EVENT_NAME_LEN, "arg%u", n);
		if (!marker_event_name_used(ev, i, name))
			return;
	}
}

/* Lay out field @i of conversion @c; returns the next free offset. */
static unsigned int marker_event_layout(struct marker_event *ev,
					unsigned int i,
					const struct marker_event_conv *c,
					unsigned int offset)
{
	struct marker_event_op *op = &ev->ops[i];
	struct marker_event_field *f = &ev->fields[i];
	const char *pmod = marker_event_lengths[c->len].pmod;
	char conv = c->conv == 'i' ? 'd' : c->conv;

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
	offset = ALIGN(offset, op->size);
	op->offset = offset;
	return offset + op->size;
}

/* An untyped conversion: read its arguments, record nothing. */
static void marker_event_skip(struct marker_event *ev, unsigned int i,
			      const struct marker_event_conv *c)
{
	struct marker_event_op *op = &ev->ops[i];

	op->read = strchr("spn", c->conv) ? MARKER_READ_PTR :
					    marker_event_lengths[c->len].read;
	strscpy(ev->fields[i].spec, "?", MARKER_EVENT_SPEC_LEN);
}

/* Append "%s" of @n bytes at @p to @text, "%%" made "%"; returns its start. */
static char *marker_event_lit(char **text, const char *p, size_t n)
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
static void marker_event_tell_untyped(const struct marker_event *ev,
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
		marker_event_parse_conv(p, &c);
		if (!marker_event_typed(&c))
			seq_buf_printf(&s, " %.*s", (int)(c.end - c.start), p);
		p = c.end;
	}
	if (stop)
		seq_buf_printf(&s, " from \"%.16s\" on", stop);
	if (seq_buf_used(&s))
		pr_info("event %s: not recorded:%.*s\n", ev->name,
			(int)seq_buf_used(&s), buf);
}

/* How slot @i is stored; list it among the strings if it is one. */
static void marker_event_kind(struct marker_event *ev, unsigned int i)
{
	struct marker_event_op *op = &ev->ops[i];

	if (op->is_string) {
		op->kind = MARKER_STORE_STR;
		ev->str[ev->nr_str++] = i;
	} else if (op->size == 8) {
		op->kind = MARKER_STORE_64;
	} else if (op->size == 4) {
		op->kind = MARKER_STORE_32;
	} else if (op->size == 2) {
		op->kind = MARKER_STORE_16;
	} else if (op->size == 1) {
		op->kind = MARKER_STORE_8;
	} else {
		op->kind = MARKER_STORE_NONE;
	}
}

/* Build the copy program and the fields from ev->format. */
static int marker_event_parse(struct marker_event *ev)
{
	const char *p = ev->format, *lit = p, *stop = NULL;
	unsigned int i = 0, slot = 0, offset = sizeof(struct trace_entry);
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
		    !marker_event_parse_conv(p, &c) ||
		    slot + c.stars >= MARKER_EVENT_MAX_ARGS) {
			stop = p;
			break;
		}
		ev->fields[i].pre = marker_event_lit(&text, lit, p - lit);
		if (marker_event_typed(&c)) {
			marker_event_word(lit, p, word);
			marker_event_name(ev, i, word);
			offset = marker_event_layout(ev, i, &c, offset);
		} else {
			marker_event_skip(ev, i, &c);
			untyped = true;
		}
		ev->ops[i].stars = c.stars;
		slot += c.stars;
		ev->ops[i].slot = slot++;
		p = c.end;
		lit = p;
		i++;
	}
	ev->nr_ops = i;
	ev->size = offset;
	for (i = 0; i < ev->nr_ops; i++)
		marker_event_kind(ev, i);
	ev->tail = marker_event_lit(&text, lit, stop ? stop - lit :
				    strlen(lit));
	if (untyped || stop)
		marker_event_tell_untyped(ev, stop);
	return 0;
}

/* The print format, as libtraceevent parses it. */
static char *marker_event_print_fmt(const struct marker_event *ev)
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

/* The hit path: no lock, any context, NMI included. */

/* Read the argument of @op; a '*' width or precision comes first. */
static __always_inline u64 marker_event_read(const struct marker_event_op *op,
					     va_list *ap)
{
	unsigned int n;

	for (n = 0; unlikely(n < op->stars); n++)
		(void)va_arg(*ap, int);
	switch (op->read) {
	case MARKER_READ_INT:
		return op->is_signed ? (u64)(s64)va_arg(*ap, int) :
				       va_arg(*ap, unsigned int);
	case MARKER_READ_LONG:
		return va_arg(*ap, unsigned long);
	case MARKER_READ_LLONG:
		return va_arg(*ap, unsigned long long);
	case MARKER_READ_SIZE:
		return va_arg(*ap, size_t);
	case MARKER_READ_PTRDIFF:
		return va_arg(*ap, ptrdiff_t);
	default:
		return (unsigned long)va_arg(*ap, void *);
	}
}

/*
 * For a va_list that is not a site's (_trace_mark(), the generic sites):
 * read the arguments into @v, each at its slot, as a site lays them out.
 */
static const u64 *marker_event_fetch(const struct marker_event *ev,
				     va_list *args, u64 *v)
{
	unsigned int i;

	for (i = 0; i < ev->nr_ops; i++)
		v[ev->ops[i].slot] = marker_event_read(&ev->ops[i], args);
	return v;
}

/*
 * The bytes the strings of one hit take in the record (NUL included,
 * bounded), each one's in @len; then the fields written into @entry,
 * each read from its slot, strings after the fixed part.  Inlined in
 * each probe: a call and its spills cost a recorded hit 44 instructions.
 */
static __always_inline unsigned int
marker_event_str_slots(const struct marker_event *ev, const u64 *slots,
		       u16 *len)
{
	unsigned int i, n, size = 0;
	const char *str;

	for (n = 0; n < ev->nr_str; n++) {
		i = ev->str[n];
		str = (const char *)(unsigned long)slots[ev->ops[i].slot];
		len[i] = strnlen(str ?: "(null)", MARKER_EVENT_STR_MAX - 1) + 1;
		size += len[i];
	}
	return size;
}

static __always_inline void
marker_event_store_slots(const struct marker_event *ev, void *entry,
			 const u64 *slots, const u16 *len)
{
	unsigned int i, data = ev->size;
	const struct marker_event_op *op;
	const char *str;
	void *field;
	u64 x;

	for (i = 0; i < ev->nr_ops; i++) {
		op = &ev->ops[i];
		x = slots[op->slot];
		field = entry + op->offset;
		switch (op->kind) {
		case MARKER_STORE_32:
			*(u32 *)field = x;
			break;
		case MARKER_STORE_64:
			*(u64 *)field = x;
			break;
		case MARKER_STORE_STR:
			str = (const char *)(unsigned long)x ?: "(null)";
			memcpy(entry + data, str, len[i] - 1);
			((char *)entry)[data + len[i] - 1] = '\0';
			*(u32 *)field = (u32)len[i] << 16 | data;
			data += len[i];
			break;
		case MARKER_STORE_8:
			*(u8 *)field = x;
			break;
		case MARKER_STORE_16:
			*(u16 *)field = x;
			break;
		}
	}
}

/* The probe of one trace instance's file of the event. */
static void marker_event_probe(void *probe_private, void *call_private,
			       const char *fmt, va_list *args)
{
	struct trace_event_file *file = probe_private;
	const struct marker_event *ev = file->event_call->data;
	u16 len[MARKER_EVENT_MAX_ARGS] __uninitialized;
	u64 v[MARKER_EVENT_MAX_ARGS] __uninitialized;
	/* Set by trace_event_buffer_reserve() before it returns an entry. */
	struct trace_event_buffer fbuffer __uninitialized;
	const u64 *slots;
	unsigned int dsize;
	void *entry;

	if (trace_trigger_soft_disabled(file))
		return;
	slots = arch_marker_va_slots(args);
	if (unlikely(!slots))
		slots = marker_event_fetch(ev, args, v);
	dsize = marker_event_str_slots(ev, slots, len);
	entry = trace_event_buffer_reserve(&fbuffer, file, ev->size + dsize);
	if (!entry)
		return;
	marker_event_store_slots(ev, entry, slots, len);
	trace_event_buffer_commit(&fbuffer);
}

#ifdef CONFIG_PERF_EVENTS
/*
 * The probe of perf: one for all perf events of the event, and for the
 * BPF programs attached to any of them, which run on every CPU's hits
 * as a TRACE_EVENT's do (perf_trace_run_bpf_submit()).
 */
static void marker_event_perf_probe(void *probe_private, void *call_private,
				    const char *fmt, va_list *args)
{
	struct marker_event *ev = probe_private;
	u16 len[MARKER_EVENT_MAX_ARGS] __uninitialized;
	u64 v[MARKER_EVENT_MAX_ARGS] __uninitialized;
	struct hlist_head *head;
	struct pt_regs *regs;
	const u64 *slots;
	unsigned int dsize;
	int size, rctx;
	void *entry;

	head = this_cpu_ptr(ev->call.perf_events);
	if (!bpf_prog_array_valid(&ev->call) && hlist_empty(head))
		return;
	slots = arch_marker_va_slots(args);
	if (unlikely(!slots))
		slots = marker_event_fetch(ev, args, v);
	dsize = marker_event_str_slots(ev, slots, len);
	size = ALIGN(ev->size + dsize + sizeof(u32), sizeof(u64)) - sizeof(u32);
	entry = perf_trace_buf_alloc(size, &regs, &rctx);
	if (!entry)
		return;
	perf_fetch_caller_regs(regs);
	marker_event_store_slots(ev, entry, slots, len);
	perf_trace_run_bpf_submit(entry, size, rctx, &ev->call, 1, regs, head,
				  NULL);
}
#endif

/* Printing a record in the trace file. */

static void marker_event_print_field(struct trace_seq *s,
				     const struct marker_event *ev,
				     unsigned int i, void *entry)
{
	const struct marker_event_op *op = &ev->ops[i];
	const char *spec = ev->fields[i].spec;
	u32 loc;
	u64 v;

	if (!ev->fields[i].name[0]) {
		trace_seq_putc(s, '?');
		return;
	}
	if (op->is_string) {
		loc = *(u32 *)(entry + op->offset);
		trace_seq_printf(s, spec, (char *)entry + (loc & 0xffff));
		return;
	}
	switch (op->size) {
	case 1:
		v = *(u8 *)(entry + op->offset);
		break;
	case 2:
		v = *(u16 *)(entry + op->offset);
		break;
	case 4:
		v = *(u32 *)(entry + op->offset);
		break;
	default:
		v = *(u64 *)(entry + op->offset);
		break;
	}
	if (op->size == 8)
		trace_seq_printf(s, spec, v);
	else if (op->size == sizeof(long))
		trace_seq_printf(s, spec, (unsigned long)v);
	else
		trace_seq_printf(s, spec, (unsigned int)v);
}

static enum print_line_t marker_event_print(struct trace_iterator *iter,
					    int flags, struct trace_event *event)
{
	const struct marker_event *ev;
	struct trace_seq *s = &iter->seq;
	unsigned int i;

	ev = container_of(event, struct marker_event, call.event);
	trace_seq_printf(s, "%s: ", ev->name);
	for (i = 0; i < ev->nr_ops; i++) {
		trace_seq_puts(s, ev->fields[i].pre);
		marker_event_print_field(s, ev, i, iter->ent);
	}
	trace_seq_puts(s, ev->tail);
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

static struct trace_event_functions marker_event_funcs = {
	.trace = marker_event_print,
};

static int marker_event_define_fields(struct trace_event_call *call)
{
	const struct marker_event *ev = call->data;
	const struct marker_event_field *f;
	unsigned int i;
	int ret;

	for (i = 0; i < ev->nr_ops; i++) {
		f = &ev->fields[i];
		if (!f->name[0])
			continue;
		ret = trace_define_field(call, f->type, f->name,
					 ev->ops[i].offset, ev->ops[i].size,
					 ev->ops[i].is_signed, FILTER_OTHER);
		if (ret)
			return ret;
	}
	return 0;
}

static struct trace_event_fields marker_event_fields_array[] = {
	{ .type = TRACE_FUNCTION_TYPE,
	  .define_fields = marker_event_define_fields },
	{}
};

/* Connecting the probes. */

static int marker_event_connect(struct marker_event *ev,
				marker_probe_func *probe, void *data)
{
	int ret;

	ret = marker_probe_register(ev->name, ev->format, probe, data);
	if (ret)
		pr_err_ratelimited("event %s: connecting its probe failed: %d\n",
				   ev->name, ret);
	return ret;
}

/*
 * The trace core frees the file, or perf the buffers, once we return:
 * marker_probe_unregister() returns after a grace period, when no CPU
 * runs @probe any more.  One grace period per disable, under
 * event_mutex.
 */
static void marker_event_disconnect(struct marker_event *ev,
				    marker_probe_func *probe, void *data)
{
	marker_probe_unregister(ev->name, probe, data);
}

static int marker_event_reg(struct trace_event_call *call,
			    enum trace_reg type, void *data)
{
	struct marker_event *ev = call->data;

	switch (type) {
	case TRACE_REG_REGISTER:
		return marker_event_connect(ev, marker_event_probe, data);
	case TRACE_REG_UNREGISTER:
		marker_event_disconnect(ev, marker_event_probe, data);
		return 0;
#ifdef CONFIG_PERF_EVENTS
	case TRACE_REG_PERF_REGISTER:
		return marker_event_connect(ev, marker_event_perf_probe, ev);
	case TRACE_REG_PERF_UNREGISTER:
		marker_event_disconnect(ev, marker_event_perf_probe, ev);
		return 0;
	case TRACE_REG_PERF_OPEN:
	case TRACE_REG_PERF_CLOSE:
	case TRACE_REG_PERF_ADD:
	case TRACE_REG_PERF_DEL:
		return 0;
#endif
	}
	return 0;
}

/* Creating and removing events. */

static void marker_event_free(struct marker_event *ev)
{
	if (!ev)
		return;
	kfree(ev->call.print_fmt);
	kfree(ev->fields);
	kfree(ev->text);
	kfree(ev->format);
	kfree(ev->name);
	kfree(ev);
}

static struct marker_event *marker_event_alloc(const struct marker *m)
{
	unsigned int nr = 0;
	struct marker_event *ev;
	const char *p;

	for (p = m->format; (p = strchr(p, '%')); p++)
		nr++;
	nr = min_t(unsigned int, nr, MARKER_EVENT_MAX_ARGS);
	ev = kzalloc(struct_size(ev, ops, nr), GFP_KERNEL);
	if (!ev)
		return NULL;
	ev->name = kstrdup(m->name, GFP_KERNEL);
	ev->format = kstrdup(m->format, GFP_KERNEL);
	ev->text = kmalloc(strlen(m->format) + nr + 1, GFP_KERNEL);
	ev->fields = kcalloc(nr, sizeof(*ev->fields), GFP_KERNEL);
	if (!ev->name || !ev->format || !ev->text || (nr && !ev->fields)) {
		marker_event_free(ev);
		return NULL;
	}
	return ev;
}

static struct marker_event *marker_event_create(const struct marker *m,
						struct module *mod)
{
	struct trace_event_call *call;
	struct marker_event *ev;
	int ret = -ENOMEM;

	ev = marker_event_alloc(m);
	if (!ev)
		goto err;
	ret = marker_event_parse(ev);
	if (ret)
		goto err_free;
	call = &ev->call;
	ret = -ENOMEM;
	call->print_fmt = marker_event_print_fmt(ev);
	if (!call->print_fmt)
		goto err_free;
	ev->class.system = MARKER_EVENT_SYSTEM;
	ev->class.reg = marker_event_reg;
	ev->class.fields_array = marker_event_fields_array;
	INIT_LIST_HEAD(&ev->class.fields);
	call->class = &ev->class;
	call->name = ev->name;
	call->flags = TRACE_EVENT_FL_MARKER;
	call->data = ev;
	call->event.funcs = &marker_event_funcs;
	ret = -EBUSY;
	if (!register_trace_event(&call->event))
		goto err_free;
	ret = trace_add_event_call(call);
	if (ret)
		goto err_unregister;
	/*
	 * Owned by the module, as its TRACE_EVENT events are: whoever takes a
	 * reference on the event (perf, an enable_event trigger, a hist
	 * action) holds the module.  Nobody can have taken one before this:
	 * they all take event_mutex, which the caller holds.
	 */
	call->module = mod;
	INIT_LIST_HEAD(&ev->owners);
	hash_add(marker_event_table, &ev->hlist,
		 full_name_hash(NULL, ev->name, strlen(ev->name)));
	return ev;

err_unregister:
	unregister_trace_event(&call->event);
err_free:
	marker_event_free(ev);
err:
	pr_err("event %s: not created: %d\n", m->name, ret);
	return NULL;
}

/*
 * Take everything off every file of the event, in every instance: its
 * triggers, and enabling.  The trace core's own removal leaves a file
 * that triggers keep in soft mode enabled, its probe connected.
 */
static void marker_event_stop_files(struct marker_event *ev)
{
	struct trace_event_file *file;
	struct trace_array *tr;

	list_for_each_entry(tr, &ftrace_trace_arrays, list) {
		list_for_each_entry(file, &tr->events, list) {
			if (file->event_call != &ev->call)
				continue;
			clear_event_file_triggers(file);
			if (file->flags & EVENT_FILE_FL_ENABLED)
				trace_event_enable_disable(file, 0, 0);
		}
	}
}

/*
 * Remove an event that no loaded code has a marker of.  Nothing holds it:
 * what takes a reference on it holds its owner module, which is going.
 * Its records are cleared with the module's, by the trace core's notifier.
 */
static void marker_event_remove(struct marker_event *ev)
{
	lockdep_assert_held(&event_mutex);
	marker_event_stop_files(ev);
	if (WARN(trace_remove_event_call(&ev->call),
		 "markers: event %s still in use: left behind\n", ev->name)) {
		ev->call.module = NULL;
		return;
	}
	hash_del(&ev->hlist);
	marker_event_free(ev);
}

static struct marker_event_owner *
marker_event_owner(struct marker_event *ev, struct module *mod)
{
	struct marker_event_owner *o;

	list_for_each_entry(o, &ev->owners, list)
		if (o->mod == mod)
			return o;
	return NULL;
}

/*
 * Count @m of @mod (NULL for vmlinux) among its event's users, creating
 * the event first, owned by @mod.
 */
static void marker_event_add_user(const struct marker *m, struct module *mod)
{
	struct marker_event *ev = marker_event_find(m->name);
	struct marker_event_owner *o;

	if (!ev) {
		ev = marker_event_create(m, mod);
		if (!ev)
			return;
	} else if (strcmp(ev->format, m->format)) {
		if (ev->refused != mod || !mod)
			pr_warn("event %s: format \"%s\" of %s differs from the event's \"%s\": not part of the event\n",
				m->name, m->format,
				mod ? module_name(mod) : "vmlinux", ev->format);
		ev->refused = mod;
		return;
	}
	o = marker_event_owner(ev, mod);
	if (!o) {
		o = kzalloc(sizeof(*o), GFP_KERNEL);
		if (!o) {
			/* The marker takes no part in the event. */
			if (!ev->users)
				marker_event_remove(ev);
			return;
		}
		o->mod = mod;
		list_add_tail(&o->list, &ev->owners);
	}
	o->markers++;
	ev->users++;
}

/*
 * @m of the going @mod no longer counts.  When the event's owner has no
 * marker of it left, the event goes; or, if other modules have markers
 * of it, the next one owns it, and it stays with its state.  Nothing
 * holds a reference on the event then: it would hold @mod.
 */
static void marker_event_remove_user(const struct marker *m, struct module *mod)
{
	struct marker_event *ev = marker_event_find(m->name);
	struct marker_event_owner *o;

	if (!ev || strcmp(ev->format, m->format))
		return;
	/* None if no memory was left to count it. */
	o = marker_event_owner(ev, mod);
	if (!o || WARN_ON(!ev->users))
		return;
	ev->users--;
	if (--o->markers)
		return;
	list_del(&o->list);
	kfree(o);
	if (ev->call.module != mod)
		return;
	o = list_first_entry_or_null(&ev->owners, struct marker_event_owner,
				     list);
	if (o)
		ev->call.module = o->mod;
	else
		marker_event_remove(ev);
}

static void marker_events_add(struct marker *start, struct marker *stop,
			      struct module *mod)
{
	struct marker *m;

	mutex_lock(&event_mutex);
	for (m = start; m < stop; m++)
		if (m->format)
			marker_event_add_user(m, mod);
	mutex_unlock(&event_mutex);
}

#ifdef CONFIG_MODULES
/* A module's events, after the markers core (priority 1) saw its sites. */
static int marker_events_coming(struct notifier_block *nb, unsigned long val,
				void *data)
{
	struct module *mod = data;

	if (val != MODULE_STATE_COMING || !mod->num_markers)
		return NOTIFY_DONE;
	marker_events_add(mod->markers, mod->markers + mod->num_markers, mod);
	return NOTIFY_OK;
}

/*
 * Before the trace core's notifier (priority 1), which would remove the
 * events the module owns without taking their triggers off first, and
 * which then clears the buffers that held records of removed events.
 */
static int marker_events_going(struct notifier_block *nb, unsigned long val,
			       void *data)
{
	struct module *mod = data;
	struct marker *m;

	if (val != MODULE_STATE_GOING || !mod->num_markers)
		return NOTIFY_DONE;
	mutex_lock(&event_mutex);
	for (m = mod->markers; m < mod->markers + mod->num_markers; m++)
		if (m->format)
			marker_event_remove_user(m, mod);
	mutex_unlock(&event_mutex);
	return NOTIFY_OK;
}

static struct notifier_block marker_events_coming_nb = {
	.notifier_call = marker_events_coming,
	.priority = 0,
};

static struct notifier_block marker_events_going_nb = {
	.notifier_call = marker_events_going,
	.priority = 2,
};
#endif

/*
 * An early initcall, before trace_events.o's (see the Makefile): the
 * events of vmlinux exist when trace_event= on the command line is
 * applied a second time, by event_trace_enable_again().
 */
static int __init marker_events_init(void)
{
	marker_events_add(__start___markers_meta, __stop___markers_meta, NULL);
#ifdef CONFIG_MODULES
	return register_module_notifier(&marker_events_coming_nb) ?:
	       register_module_notifier(&marker_events_going_nb);
#else
	return 0;
#endif
}
early_initcall(marker_events_init);
