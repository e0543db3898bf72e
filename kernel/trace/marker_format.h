/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A marker event's layout, built from its marker's format: the fields of
 * its record and the copy program that fills them (marker_format.c), for
 * the event's probes and files (marker_events.c).
 */
#ifndef _KERNEL_TRACE_MARKER_FORMAT_H
#define _KERNEL_TRACE_MARKER_FORMAT_H

#include <linux/stdarg.h>
#include <linux/trace_events.h>
#include <linux/types.h>

struct marker_event_probes;

/* The system of every marker's event: events/markers/<name>/. */
#define MARKER_EVENT_SYSTEM	"markers"

/* Conversions, and arguments, per format; later ones are not recorded. */
#define MARKER_EVENT_MAX_ARGS	32
/*
 * The arguments in longs, as a site lays them out: one slot each, but a
 * long long two on 32-bit machines.
 */
#define MARKER_EVENT_MAX_SLOTS	(MARKER_EVENT_MAX_ARGS * sizeof(u64) / sizeof(long))
/* The field of the call site, with markers.site_field=1. */
#define MARKER_EVENT_CALL_SITE	"call_site"
/* A field name is at most this long, its NUL included. */
#define MARKER_EVENT_NAME_LEN	32
/* The conversion of one field as printed, e.g. "%-08llx". */
#define MARKER_EVENT_SPEC_LEN	16

/* How the probe reads one argument from the va_list. */
enum marker_read_type {
	MARKER_READ_INT,
	MARKER_READ_LONG,
	MARKER_READ_LLONG,
	MARKER_READ_SIZE,
	MARKER_READ_PTRDIFF,
	MARKER_READ_PTR,
};

/**
 * struct marker_event_op - one step of the copy program
 * @read: how the argument is read (enum marker_read_type)
 * @size: its size in the record: 1, 2, 4 or 8; 0 when it is not recorded.
 *	  %hh and %h fields are 1 and 2 bytes, as printk() truncates them.
 * @is_signed: whether the field is signed
 * @is_string: a %s: @size is that of its __data_loc word
 * @stars: int arguments to skip first, for '*' widths and precisions
 * @slot: the argument's first slot, stars counted
 * @offset: of the field in the record
 */
struct marker_event_op {
	u8 read;
	u8 size;
	u8 is_signed;
	u8 is_string;
	u8 stars;
	u8 slot;
	u16 offset;
};

/**
 * struct marker_event_move - one field of the record, as the probes fill it
 * @slot: the argument's first slot
 * @size: the bytes stored: a number's cell, a long or 8 bytes for a 64-bit
 *	  field, its slots whole; a string's __data_loc word, 4
 * @offset: where they are stored in the record: a number's cell starts
 *	    at its field on little-endian machines and ends with it on
 *	    big-endian ones
 */
struct marker_event_move {
	u8 slot;
	u8 size;
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
 * struct marker_event - the record of a marker event, and how it is filled
 * @call: the event, NULL in the format parser's KUnit suite
 * @name: the marker's name, the event's name (the event's copy)
 * @format: the marker format the record is built from (the event's copy)
 * @print_fmt: the event's print format
 * @probes: the probes of its record's shape (marker_events.c)
 * @call_site: its records begin with the call site, a field of its own
 * @broken: the error that left its fields defined in part: it cannot be
 *	    used
 * @nr_ops: conversions in @ops and @fields
 * @nr_num: number fields, in @num
 * @nr_str: %s fields, in @str
 * @nr_num_slots: the slots of the number fields
 * @in_slot_order: the record holds every argument, the numbers' cells
 *		   one after the other from the first field on, then at
 *		   most one string, the last argument (marker_format.c)
 * @num: the number fields, in order
 * @str: the %s fields: their __data_loc words
 * @size: a record's size without its strings, header included
 * @text: literal text between the conversions, NUL-separated
 * @tail: the literal text after the last conversion (in @text)
 * @fields: the conversions, for defining and printing (cold)
 * @ops: the copy program (hot)
 *
 * Built from the format when the event is first used (marker_events.c),
 * and freed with the event.
 */
struct marker_event {
	struct trace_event_call *call;
	const char *name;
	const char *format;
	char *print_fmt;
	const struct marker_event_probes *probes;
	bool call_site;
	int broken;
	unsigned int nr_ops;
	unsigned int nr_num;
	unsigned int nr_str;
	unsigned int nr_num_slots;
	bool in_slot_order;
	struct marker_event_move num[MARKER_EVENT_MAX_ARGS];
	struct marker_event_move str[MARKER_EVENT_MAX_ARGS];
	unsigned int size;
	char *text;
	const char *tail;
	struct marker_event_field *fields;
	struct marker_event_op ops[];
};

/*
 * The call_site field has a cell of 8 bytes after the common fields on
 * every machine, so that the format's fields keep the offsets modulo 8
 * that they have without it (a BPF program reads an 8-byte field only
 * at an offset that is a multiple of 8).  The field, a long, is at the
 * cell's start on little-endian machines and at its end on big-endian
 * ones, as a number's in its cell.
 */
static __always_inline unsigned int marker_event_fields_start(bool call_site)
{
	return sizeof(struct trace_entry) + (call_site ? sizeof(u64) : 0);
}

static __always_inline unsigned int marker_event_call_site_offset(void)
{
	return sizeof(struct trace_entry) +
	       (IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ? sizeof(u64) - sizeof(long) : 0);
}

/* Read the argument of @op, its '*' widths and precisions read already. */
static __always_inline u64 marker_event_read_arg(const struct marker_event_op *op,
						 va_list *ap)
{
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

struct marker_event *marker_event_get(const char *name);
void marker_event_put(struct marker_event *ev);
struct marker_event *marker_event_alloc(const char *name, const char *format);
void marker_event_free(struct marker_event *ev);
void marker_format_parse(struct marker_event *ev);
char *marker_format_print_fmt(const struct marker_event *ev);
#ifdef CONFIG_MARKERS_KUNIT_TEST
unsigned int marker_event_test_record(const struct marker_event *ev,
				      const unsigned long *slots, void *entry);
const unsigned long *marker_event_test_fetch(const struct marker_event *ev,
					     va_list *args, unsigned long *v);
#endif

#endif /* _KERNEL_TRACE_MARKER_FORMAT_H */
