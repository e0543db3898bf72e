// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the marker events' format parser: the fields, types,
 * offsets, copy program and print format that a marker's format yields.
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/unaligned.h>
#include <linux/vmalloc.h>

#include "marker_format.h"

/* The size of the common fields, where the first field may start. */
#define COMMON_SIZE	sizeof(struct trace_entry)

/* Parse @format into an event that the next parse() or the exit frees. */
static struct marker_event *parse(struct kunit *test, const char *format)
{
	struct marker_event *ev;

	marker_event_free(test->priv);
	test->priv = NULL;
	ev = marker_event_alloc("marker_format_test", format);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	test->priv = ev;
	marker_format_parse(ev);
	ev->print_fmt = marker_format_print_fmt(ev);
	KUNIT_ASSERT_NOT_NULL(test, ev->print_fmt);
	return ev;
}

static void marker_format_test_exit(struct kunit *test)
{
	marker_event_free(test->priv);
}

/* The bytes of a number's cell: its slots, a long or 8 bytes. */
static unsigned int cell_size(const struct marker_event_op *op)
{
	return max_t(unsigned int, op->size, sizeof(long));
}

/*
 * Number field @i has its cell at @cell: the field at its start on
 * little-endian machines, at its end on big-endian ones.  Returns where
 * the next cell may start.
 */
static unsigned int expect_cell(struct kunit *test,
				const struct marker_event *ev, unsigned int i,
				unsigned int cell)
{
	const struct marker_event_op *op = &ev->ops[i];
	unsigned int want = cell;

	if (IS_ENABLED(CONFIG_CPU_BIG_ENDIAN))
		want += cell_size(op) - op->size;
	KUNIT_EXPECT_EQ_MSG(test, op->offset, want, "field %u", i);
	return cell + cell_size(op);
}

/* Field @i is called @name, of C type @type, @size bytes, printed @spec. */
static void expect_field(struct kunit *test, const struct marker_event *ev,
			 unsigned int i, const char *name, const char *type,
			 unsigned int size, bool is_signed, const char *spec)
{
	const struct marker_event_op *op = &ev->ops[i];
	const struct marker_event_field *f = &ev->fields[i];

	KUNIT_ASSERT_LT(test, i, ev->nr_ops);
	KUNIT_EXPECT_STREQ(test, f->name, name);
	KUNIT_EXPECT_STREQ(test, f->type, type);
	KUNIT_EXPECT_STREQ(test, f->spec, spec);
	KUNIT_EXPECT_EQ(test, op->size, size);
	KUNIT_EXPECT_EQ(test, !!op->is_signed, is_signed);
	/* Aligned to its size or a long's, after the common fields. */
	KUNIT_EXPECT_EQ(test, op->offset % min_t(unsigned int, size,
						 sizeof(long)), 0);
	KUNIT_EXPECT_GE(test, op->offset, COMMON_SIZE);
	KUNIT_EXPECT_LE(test, op->offset + size, ev->size);
}

/* @mv stores field @op: from its slot, a number's cell or a string's word. */
static void expect_move(struct kunit *test,
			const struct marker_event_move *mv,
			const struct marker_event_op *op)
{
	KUNIT_EXPECT_EQ(test, mv->slot, op->slot);
	if (op->is_string) {
		KUNIT_EXPECT_EQ(test, mv->size, sizeof(u32));
		KUNIT_EXPECT_EQ(test, mv->offset, op->offset);
		return;
	}
	KUNIT_EXPECT_EQ(test, mv->size, cell_size(op));
	KUNIT_EXPECT_EQ(test, mv->offset, ALIGN_DOWN(op->offset, sizeof(long)));
}

/* A field per conversion, named after the word before it. */
static void marker_format_test_words(struct kunit *test)
{
	struct marker_event *ev = parse(test, "pid %d comm %s addr 0x%lx");

	KUNIT_ASSERT_EQ(test, ev->nr_ops, 3);
	expect_field(test, ev, 0, "pid", "int", 4, true, "%d");
	expect_field(test, ev, 1, "comm", "__data_loc char[]", 4, false, "%s");
	expect_field(test, ev, 2, "addr", "unsigned long", sizeof(long), false,
		     "%lx");
	/* A long's cell, the string's word, the next long's cell. */
	expect_cell(test, ev, 0, COMMON_SIZE);
	KUNIT_EXPECT_EQ(test, ev->ops[1].offset, COMMON_SIZE + sizeof(long));
	KUNIT_EXPECT_EQ(test, ev->size,
			expect_cell(test, ev, 2,
				    ALIGN(COMMON_SIZE + sizeof(long) + 4,
					  sizeof(long))));
	/* The string is listed, and stored as one; the numbers in order. */
	KUNIT_EXPECT_TRUE(test, ev->ops[1].is_string);
	KUNIT_EXPECT_EQ(test, ev->nr_str, 1);
	expect_move(test, &ev->str[0], &ev->ops[1]);
	KUNIT_EXPECT_EQ(test, ev->nr_num, 2);
	expect_move(test, &ev->num[0], &ev->ops[0]);
	expect_move(test, &ev->num[1], &ev->ops[2]);
	/* A number after the string: not in slot order. */
	KUNIT_EXPECT_FALSE(test, ev->in_slot_order);
	KUNIT_EXPECT_EQ(test, ev->ops[2].read, MARKER_READ_LONG);
	KUNIT_EXPECT_STREQ(test, ev->print_fmt,
			   "\"pid %d comm %s addr 0x%lx\", REC->pid, __get_str(comm), REC->addr");
}

/* Every length modifier: the field's size, type and printed conversion. */
static void marker_format_test_lengths(struct kunit *test)
{
	struct marker_event *ev;
	unsigned int i, cell;

	ev = parse(test,
		   "a %hhd b %hhu c %hd d %hu e %lld f %llu g %zu h %zd i %td j %c k %p");
	KUNIT_ASSERT_EQ(test, ev->nr_ops, 11);
	expect_field(test, ev, 0, "a", "signed char", 1, true, "%hhd");
	expect_field(test, ev, 1, "b", "unsigned char", 1, false, "%hhu");
	expect_field(test, ev, 2, "c", "short", 2, true, "%hd");
	expect_field(test, ev, 3, "d", "unsigned short", 2, false, "%hu");
	expect_field(test, ev, 4, "e", "long long", 8, true, "%lld");
	expect_field(test, ev, 5, "f", "unsigned long long", 8, false, "%llu");
	expect_field(test, ev, 6, "g", "size_t", sizeof(size_t), false, "%lu");
	expect_field(test, ev, 7, "h", "ssize_t", sizeof(size_t), true, "%ld");
	expect_field(test, ev, 8, "i", "ptrdiff_t", sizeof(ptrdiff_t), true,
		     "%ld");
	expect_field(test, ev, 9, "j", "char", 1, is_signed_type(char), "%c");
	expect_field(test, ev, 10, "k", "unsigned long", sizeof(long), false,
		     "0x%lx");
	/* A cell each, one after the other: the site's slots. */
	cell = COMMON_SIZE;
	for (i = 0; i < ev->nr_ops; i++)
		cell = expect_cell(test, ev, i, cell);
	KUNIT_EXPECT_EQ(test, ev->size, cell);
	KUNIT_EXPECT_TRUE(test, ev->in_slot_order);
	KUNIT_EXPECT_EQ(test, ev->nr_num_slots,
			(cell - COMMON_SIZE) / sizeof(long));
	/* Every field a number, stored in order. */
	KUNIT_EXPECT_EQ(test, ev->nr_num, 11);
	for (i = 0; i < ev->nr_num; i++)
		expect_move(test, &ev->num[i], &ev->ops[i]);
	KUNIT_EXPECT_EQ(test, ev->ops[4].read, MARKER_READ_LLONG);
	KUNIT_EXPECT_EQ(test, ev->ops[6].read, MARKER_READ_SIZE);
	KUNIT_EXPECT_EQ(test, ev->ops[8].read, MARKER_READ_PTRDIFF);
	KUNIT_EXPECT_EQ(test, ev->ops[10].read, MARKER_READ_PTR);
	KUNIT_EXPECT_EQ(test, ev->nr_str, 0);
}

/*
 * Flags, width and precision are kept in the printed conversion; %i is
 * printed as %d.
 */
static void marker_format_test_flags(struct kunit *test)
{
	struct marker_event *ev;

	ev = parse(test, "v=%-08llx w=%+5d p=%#p l %i m %X n %.3llo");
	KUNIT_ASSERT_EQ(test, ev->nr_ops, 6);
	expect_field(test, ev, 0, "v", "unsigned long long", 8, false,
		     "%-08llx");
	expect_field(test, ev, 1, "w", "int", 4, true, "%+5d");
	expect_field(test, ev, 2, "p", "unsigned long", sizeof(long), false,
		     "0x%#lx");
	expect_field(test, ev, 3, "l", "int", 4, true, "%d");
	expect_field(test, ev, 4, "m", "unsigned int", 4, false, "%X");
	expect_field(test, ev, 5, "n", "unsigned long long", 8, false,
		     "%.3llo");
}

/* Names are unique, never a common field's, and "arg<n>" without a word. */
static void marker_format_test_names(struct kunit *test)
{
	struct marker_event *ev;

	ev = parse(test, "x %d x %d %d common_pid %d 9 %d x=%d: %d");
	KUNIT_ASSERT_EQ(test, ev->nr_ops, 7);
	KUNIT_EXPECT_STREQ(test, ev->fields[0].name, "x");
	KUNIT_EXPECT_STREQ(test, ev->fields[1].name, "x_2");
	KUNIT_EXPECT_STREQ(test, ev->fields[2].name, "arg3");
	KUNIT_EXPECT_STREQ(test, ev->fields[3].name, "arg4");
	KUNIT_EXPECT_STREQ(test, ev->fields[4].name, "arg5");
	KUNIT_EXPECT_STREQ(test, ev->fields[5].name, "x_3");
	KUNIT_EXPECT_STREQ(test, ev->fields[6].name, "arg7");
}

/*
 * '*' widths, %n and %p extensions have no field; their arguments are
 * still counted, so that the next field reads the right one.
 */
static void marker_format_test_untyped(struct kunit *test)
{
	struct marker_event *ev = parse(test, "w %*d n %n s %pS v %u");

	KUNIT_ASSERT_EQ(test, ev->nr_ops, 4);
	KUNIT_EXPECT_STREQ(test, ev->fields[0].name, "");
	KUNIT_EXPECT_STREQ(test, ev->fields[1].name, "");
	KUNIT_EXPECT_STREQ(test, ev->fields[2].name, "");
	KUNIT_EXPECT_EQ(test, ev->ops[0].stars, 1);
	KUNIT_EXPECT_EQ(test, ev->ops[0].slot, 1);
	KUNIT_EXPECT_EQ(test, ev->ops[1].slot, 2);
	KUNIT_EXPECT_EQ(test, ev->ops[1].read, MARKER_READ_PTR);
	KUNIT_EXPECT_EQ(test, ev->ops[2].slot, 3);
	KUNIT_EXPECT_EQ(test, ev->ops[2].read, MARKER_READ_PTR);
	expect_field(test, ev, 3, "v", "unsigned int", 4, false, "%u");
	KUNIT_EXPECT_EQ(test, ev->ops[3].slot, 4);
	KUNIT_EXPECT_EQ(test, ev->size, expect_cell(test, ev, 3, COMMON_SIZE));
	/* Only the typed conversion is stored, from its slot. */
	KUNIT_EXPECT_EQ(test, ev->nr_num, 1);
	expect_move(test, &ev->num[0], &ev->ops[3]);
	KUNIT_EXPECT_FALSE(test, ev->in_slot_order);
	KUNIT_EXPECT_STREQ(test, ev->print_fmt,
			   "\"w ? n ? s ? v %u\", REC->v");
}

/* MARK_NOARGS: no field, and an empty print format. */
static void marker_format_test_noargs(struct kunit *test)
{
	struct marker_event *ev = parse(test, MARK_NOARGS);

	KUNIT_EXPECT_EQ(test, ev->nr_ops, 0);
	KUNIT_EXPECT_EQ(test, ev->size, COMMON_SIZE);
	KUNIT_EXPECT_EQ(test, ev->nr_num + ev->nr_str, 0);
	KUNIT_EXPECT_TRUE(test, ev->in_slot_order);
	KUNIT_EXPECT_EQ(test, ev->nr_num_slots, 0);
	KUNIT_EXPECT_STREQ(test, ev->print_fmt, "\"\"");
}

/* A conversion that cannot be followed ends the record there. */
static void marker_format_test_stop(struct kunit *test)
{
	struct marker_event *ev = parse(test, "a %d b %hs c %d");

	KUNIT_ASSERT_EQ(test, ev->nr_ops, 1);
	KUNIT_EXPECT_STREQ(test, ev->tail, " b ");
	KUNIT_EXPECT_STREQ(test, ev->print_fmt, "\"a %d b \", REC->a");
	ev = parse(test, "q %q");
	KUNIT_EXPECT_EQ(test, ev->nr_ops, 0);
}

/* At most MARKER_EVENT_MAX_ARGS conversions are recorded. */
static void marker_format_test_too_many(struct kunit *test)
{
	char format[3 * (MARKER_EVENT_MAX_ARGS + 1) + 1] = "";
	struct marker_event *ev;
	unsigned int i;

	for (i = 0; i <= MARKER_EVENT_MAX_ARGS; i++)
		strcat(format, "%d ");
	ev = parse(test, format);
	KUNIT_ASSERT_EQ(test, ev->nr_ops, MARKER_EVENT_MAX_ARGS);
	KUNIT_EXPECT_STREQ(test, ev->fields[MARKER_EVENT_MAX_ARGS - 1].name,
			   "arg32");
	KUNIT_EXPECT_EQ(test, ev->size,
			COMMON_SIZE + sizeof(long) * MARKER_EVENT_MAX_ARGS);
	/* The same number of '*' arguments and conversions. */
	ev = parse(test, "%*d %*d %*d %*d %*d %*d %*d %*d %*d %*d %*d %*d %*d %*d %*d %*d %*d");
	KUNIT_EXPECT_EQ(test, ev->nr_ops, 16);
}

/* Quotes, backslashes, newlines and "%%" are escaped for the parser. */
static void marker_format_test_escapes(struct kunit *test)
{
	struct marker_event *ev;

	ev = parse(test, "msg=%s \"quoted\" 100%% back\\slash\n");
	KUNIT_ASSERT_EQ(test, ev->nr_ops, 1);
	KUNIT_EXPECT_STREQ(test, ev->tail, " \"quoted\" 100% back\\slash\n");
	KUNIT_EXPECT_STREQ(test, ev->print_fmt,
			   "\"msg=%s \\\"quoted\\\" 100%% back\\\\slash\\n\", __get_str(msg)");
}

/* Field @i of @entry, as the print path reads it, widened by its sign. */
static s64 field_value(const struct marker_event *ev, unsigned int i,
		       const void *entry)
{
	const struct marker_event_op *op = &ev->ops[i];
	const void *f = entry + op->offset;

	switch (op->size) {
	case 1:
		return op->is_signed ? *(s8 *)f : *(u8 *)f;
	case 2:
		return op->is_signed ? (s64)get_unaligned((s16 *)f) :
				       (s64)get_unaligned((u16 *)f);
	case 4:
		return op->is_signed ? (s64)get_unaligned((s32 *)f) :
				       (s64)get_unaligned((u32 *)f);
	default:
		return get_unaligned((s64 *)f);
	}
}

/* The string of field @i of @entry, after its __data_loc word. */
static const char *field_str(const struct marker_event *ev, unsigned int i,
			     const void *entry)
{
	u32 loc = get_unaligned((u32 *)(entry + ev->ops[i].offset));

	return entry + (loc & 0xffff);
}

/*
 * Lay @vals, one per conversion of @ev, out in @slots as a site does:
 * each at its slot, a long long in two on 32-bit machines.
 */
static void put_args(const struct marker_event *ev, unsigned long *slots,
		     const u64 *vals)
{
	const struct marker_event_op *op;
	unsigned int i;

	for (i = 0; i < ev->nr_ops; i++) {
		op = &ev->ops[i];
		if (op->read == MARKER_READ_LLONG)
			put_unaligned(vals[i], (u64 *)&slots[op->slot]);
		else
			slots[op->slot] = vals[i];
	}
}

/*
 * What the probes store: every number kind and width, negative and past
 * its width, read back from its field; strings and a NULL one, copied
 * after the fixed part.  The record is allocated to the size the probe
 * asks for: KASAN checks that no store goes past it.
 */
static void marker_format_test_store(struct kunit *test)
{
	static const char fmt[] =
		"a %hhd b %hhu c %hd d %hu e %d f %u s %s g %lld h %llu n %s i %ld j %c";
	const u64 vals[] = {
		(u64)-5, 0x1fa, (u64)-300, 0x1fde8, (u64)-70000, 4000000000U,
		(unsigned long)"hello", (u64)-(1LL << 40), ~0ULL, 0,
		(u64)(long)-9, 'x',
	};
	static const s64 want[] = {
		-5, 0xfa, -300, 0xfde8, -70000, 4000000000U, 0, -(1LL << 40),
		-1, 0, -9, 'x',
	};
	struct marker_event *ev = parse(test, fmt);
	unsigned long slots[MARKER_EVENT_MAX_SLOTS];
	unsigned int i, size;
	void *entry;

	KUNIT_ASSERT_EQ(test, ev->nr_ops, ARRAY_SIZE(vals));
	put_args(ev, slots, vals);
	size = marker_event_test_record(ev, slots, NULL);
	KUNIT_EXPECT_EQ(test, size, ev->size + sizeof("hello") +
			sizeof("(null)"));
	entry = kunit_kmalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, entry);
	memset(entry, 0xa5, size);
	marker_event_test_record(ev, slots, entry);
	for (i = 0; i < ev->nr_ops; i++) {
		if (ev->ops[i].is_string)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, field_value(ev, i, entry), want[i],
				    "field %s", ev->fields[i].name);
	}
	KUNIT_EXPECT_STREQ(test, field_str(ev, 6, entry), "hello");
	KUNIT_EXPECT_STREQ(test, field_str(ev, 9, entry), "(null)");
	/* The common fields are the ring buffer's, untouched. */
	KUNIT_EXPECT_EQ(test, *(u8 *)entry, 0xa5);
}

/* Through the reader of va_lists, @v's slots for the arguments after it. */
static const unsigned long *fetch(const struct marker_event *ev,
				  unsigned long *v, ...)
{
	const unsigned long *slots;
	va_list args;

	va_start(args, v);
	slots = marker_event_test_fetch(ev, &args, v);
	va_end(args);
	return slots;
}

/*
 * Where sites build no slots, the probes read a va_list into slots of
 * their own: each argument, of each kind and width, signed and not, and
 * after a '*' width, lands where a site that builds slots puts it.
 */
static void marker_format_test_fetch(struct kunit *test)
{
	static const char fmt[] =
		"a %hhd b %hhu c %hd d %hu e %d s %s g %lld i %ld j %c z %zu t %td m %*d p %p";
	static const char hello[] = "hello";
	const u64 vals[] = {
		(u64)-5, 0xfa, (u64)-300, 0xfde8, (u64)-70000,
		(unsigned long)hello, (u64)-(1LL << 40), (u64)(long)-9, 'x',
		(size_t)-2, (u64)(ptrdiff_t)-3, (u64)-7, (unsigned long)fmt,
	};
	struct marker_event *ev = parse(test, fmt);
	unsigned long want[MARKER_EVENT_MAX_SLOTS] = { };
	unsigned long v[MARKER_EVENT_MAX_SLOTS] = { };
	const unsigned long *got;
	unsigned int i, n;

	KUNIT_ASSERT_EQ(test, ev->nr_ops, ARRAY_SIZE(vals));
	put_args(ev, want, vals);
	got = fetch(ev, v, (signed char)-5, (unsigned char)0xfa, (short)-300,
		    (unsigned short)0xfde8, -70000, hello, -(1LL << 40), -9L,
		    'x', (size_t)-2, (ptrdiff_t)-3, 4, -7, fmt);
	KUNIT_EXPECT_PTR_EQ(test, got, (const unsigned long *)v);
	for (i = 0; i < ev->nr_ops; i++) {
		n = ev->ops[i].read == MARKER_READ_LLONG ?
			sizeof(u64) / sizeof(long) : 1;
		KUNIT_EXPECT_MEMEQ_MSG(test, &v[ev->ops[i].slot],
				       &want[ev->ops[i].slot],
				       n * sizeof(long), "argument %u", i);
	}
}

/*
 * Strings of every length up to 20, so at every alignment, ending at the
 * end of a page that a guard page follows: measured and copied without a
 * read past their NUL; one longer than MARKER_EVENT_STR_MAX - 1 bytes is
 * cut there.
 */
static void marker_format_test_store_str(struct kunit *test)
{
	struct marker_event *ev = parse(test, "x %u s %s");
	char *page, *str, *entry, *want;
	unsigned int len, size;
	unsigned long slots[2] = { 7 };

	page = vmalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, page);
	entry = kunit_kmalloc(test, ev->size + 300, GFP_KERNEL);
	want = kunit_kmalloc(test, 300, GFP_KERNEL);
	if (!entry || !want) {
		vfree(page);
		KUNIT_FAIL(test, "no memory");
		return;
	}
	for (len = 0; len <= 20; len++) {
		str = page + PAGE_SIZE - len - 1;
		memset(str, 'a' + len, len);
		str[len] = '\0';
		slots[1] = (unsigned long)str;
		size = marker_event_test_record(ev, slots, entry);
		KUNIT_EXPECT_EQ(test, size, ev->size + len + 1);
		KUNIT_EXPECT_STREQ(test, field_str(ev, 1, entry), str);
		KUNIT_EXPECT_EQ(test, field_value(ev, 0, entry), 7);
	}
	vfree(page);
	memset(want, 'z', 299);
	want[299] = '\0';
	slots[1] = (unsigned long)want;
	size = marker_event_test_record(ev, slots, entry);
	KUNIT_EXPECT_EQ(test, size, ev->size + 256);
	KUNIT_EXPECT_EQ(test, strlen(field_str(ev, 1, entry)), 255);
}

/*
 * Each shape that has probes of its own (up to three numbers, no string
 * or one) and one past them: every field read back, the record of the
 * size the probe asks for (KASAN checks the stores).
 */
static void marker_format_test_store_shapes(struct kunit *test)
{
	static const char *const num[] = { "a %hhd", "b %u", "c %lld", "d %hu" };
	static const s64 want[] = { -5, 4000000000U, -(1LL << 40), 0xfde8 };
	const u64 vals[] = {
		(u64)-5, 4000000000U, (u64)-(1LL << 40), 0x1fde8,
		(unsigned long)"shape",
	};
	unsigned long slots[MARKER_EVENT_MAX_SLOTS];
	unsigned int n, s, i, size;
	struct marker_event *ev;
	u64 args[5];
	char fmt[64];
	void *entry;

	for (s = 0; s <= 1; s++) {
		for (n = 0; n <= ARRAY_SIZE(num); n++) {
			fmt[0] = '\0';
			for (i = 0; i < n; i++) {
				strlcat(fmt, num[i], sizeof(fmt));
				strlcat(fmt, " ", sizeof(fmt));
				args[i] = vals[i];
			}
			if (s) {
				strlcat(fmt, "s %s", sizeof(fmt));
				args[n] = vals[ARRAY_SIZE(num)];
			}
			ev = parse(test, fmt);
			KUNIT_ASSERT_EQ(test, ev->nr_num, n);
			KUNIT_EXPECT_TRUE(test, ev->in_slot_order);
			put_args(ev, slots, args);
			size = marker_event_test_record(ev, slots, NULL);
			KUNIT_EXPECT_EQ_MSG(test, size,
					    ev->size + (s ? 6 : 0),
					    "\"%s\"", fmt);
			entry = kunit_kmalloc(test, size, GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, entry);
			marker_event_test_record(ev, slots, entry);
			for (i = 0; i < n; i++)
				KUNIT_EXPECT_EQ_MSG(test, field_value(ev, i, entry),
						    want[i], "\"%s\" field %u",
						    fmt, i);
			if (s)
				KUNIT_EXPECT_STREQ(test, field_str(ev, n, entry),
						   "shape");
		}
	}
}

/*
 * Which records are in slot order, so that the probes of their shape
 * copy the site's slots as they are: every argument recorded, numbers
 * first, one string at most and last.  The others follow the program.
 */
static void marker_format_test_slot_order(struct kunit *test)
{
	static const struct {
		const char *fmt;
		bool ordered;
	} cases[] = {
		{ "a %d b %llu s %s", true },
		{ "a %hhd b %lld c %p", true },
		{ "s %s", true },
		{ "s %s a %d", false },
		{ "a %d s %s t %s", false },
		{ "w %*d v %u", false },
		{ "a %d f %pS", false },
		{ "a %d %n b %d", false },
	};
	const u64 vals[] = { (u64)-7, 0x123456789ULL, (unsigned long)"so" };
	unsigned long slots[MARKER_EVENT_MAX_SLOTS];
	struct marker_event *ev;
	unsigned int i, size;
	void *entry;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ev = parse(test, cases[i].fmt);
		KUNIT_EXPECT_EQ_MSG(test, ev->in_slot_order, cases[i].ordered,
				    "\"%s\"", cases[i].fmt);
	}
	/* The first one read back through the probes of its shape. */
	ev = parse(test, cases[0].fmt);
	put_args(ev, slots, vals);
	size = marker_event_test_record(ev, slots, NULL);
	KUNIT_EXPECT_EQ(test, size, ev->size + sizeof("so"));
	entry = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, entry);
	marker_event_test_record(ev, slots, entry);
	KUNIT_EXPECT_EQ(test, field_value(ev, 0, entry), -7);
	KUNIT_EXPECT_EQ(test, field_value(ev, 1, entry), 0x123456789LL);
	KUNIT_EXPECT_STREQ(test, field_str(ev, 2, entry), "so");
}

static struct kunit_case marker_format_test_cases[] = {
	KUNIT_CASE(marker_format_test_words),
	KUNIT_CASE(marker_format_test_lengths),
	KUNIT_CASE(marker_format_test_flags),
	KUNIT_CASE(marker_format_test_names),
	KUNIT_CASE(marker_format_test_untyped),
	KUNIT_CASE(marker_format_test_noargs),
	KUNIT_CASE(marker_format_test_stop),
	KUNIT_CASE(marker_format_test_too_many),
	KUNIT_CASE(marker_format_test_escapes),
	KUNIT_CASE(marker_format_test_store),
	KUNIT_CASE(marker_format_test_fetch),
	KUNIT_CASE(marker_format_test_store_str),
	KUNIT_CASE(marker_format_test_store_shapes),
	KUNIT_CASE(marker_format_test_slot_order),
	{}
};

static struct kunit_suite marker_format_test_suite = {
	.name = "marker_format",
	.exit = marker_format_test_exit,
	.test_cases = marker_format_test_cases,
};

kunit_test_suites(&marker_format_test_suite);

MODULE_DESCRIPTION("KUnit tests for the marker events' format parser");
MODULE_LICENSE("GPL");
