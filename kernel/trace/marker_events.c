// SPDX-License-Identifier: GPL-2.0
/*
 * Every marker a trace event: events/markers/<name>/ in tracefs, with one
 * typed field per conversion of the marker's format.
 *
 * The event of a marker exists while vmlinux or a loaded module has a
 * marker of that name and format, listed with every other event.  What
 * the format makes of it, its fields, print format and copy program, is
 * built when the event is first used: enabled, perf or BPF opening it,
 * its fields asked for (its format file, a filter, a trigger).  Enabling
 * it, in any trace instance or through perf, connects a probe to the
 * marker by name through the ordinary probe API; the probe writes the
 * arguments straight into the reserved record through the copy program.
 * See Documentation/trace/markers.rst.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/marker.h>
#include <linux/marker_select.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/trace_events.h>
#include <linux/unaligned.h>

#include "trace.h"
#include "trace_output.h"
#include "marker_format.h"

/* A %s field copies at most this many bytes, its NUL included. */
#define MARKER_EVENT_STR_MAX	256
#define MARKER_EVENT_HASH_BITS	7

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "markers."

/*
 * markers.site_field=1 on the command line: every event's records begin
 * with the call_site field.  Fixed at boot, so that an event's layout
 * never changes under the tools that read its format.
 */
static bool marker_event_site_field __ro_after_init;
module_param_named(site_field, marker_event_site_field, bool, 0444);
MODULE_PARM_DESC(site_field, "Marker events record the call site");

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

/**
 * struct marker_event_call - the trace event of one marker name
 * @hlist: link in marker_event_table
 * @call: the event; call.data is its record's layout, a struct
 *	  marker_event, once the event is first used, NULL before
 * @class: its class, one per event as the fields are the event's own
 * @name: the marker's name, the event's name
 * @format: the marker format the event is built from
 * @users: struct markers of loaded code with this name and format
 * @owners: vmlinux and the modules with such markers, the event's owner
 *	    (call.module, NULL for vmlinux) first
 * @refused: the last module whose format was refused, to say it once
 */
struct marker_event_call {
	struct hlist_node hlist;
	struct trace_event_call call;
	struct trace_event_class class;
	char *name;
	char *format;
	unsigned int users;
	struct list_head owners;
	struct module *refused;
};

/*
 * event_mutex protects marker_event_table and every event in it.  It is
 * taken before markers_mutex (probe registration from the event's reg()
 * callback), never after it.
 */
static DEFINE_HASHTABLE(marker_event_table, MARKER_EVENT_HASH_BITS);

static inline struct marker_event_call *
to_marker_event_call(struct trace_event_call *call)
{
	return container_of(call, struct marker_event_call, call);
}

/*
 * marker_event_build_mutex serializes the building of events' layouts,
 * which publish call.data with smp_store_release() for the readers that
 * do not take it.  Taken under event_mutex or without it, never before
 * it; nothing is taken under it but the allocator's locks.
 */
static DEFINE_MUTEX(marker_event_build_mutex);

static struct marker_event_call *marker_event_find(const char *name)
{
	struct marker_event_call *mc;

	lockdep_assert_held(&event_mutex);
	hash_for_each_possible(marker_event_table, mc, hlist,
			       full_name_hash(NULL, name, strlen(name)))
		if (!strcmp(mc->name, name))
			return mc;
	return NULL;
}

static struct marker_event *marker_event_build(struct marker_event_call *mc);

#ifdef CONFIG_MARKERS_KUNIT_TEST
/*
 * markers.events_built: the events built and not removed since, for the
 * kselftests to tell which uses build an event.
 */
static atomic_t marker_events_built = ATOMIC_INIT(0);

static int marker_events_built_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&marker_events_built));
}

static const struct kernel_param_ops marker_events_built_ops = {
	.get = marker_events_built_get,
};
module_param_cb(events_built, &marker_events_built_ops, NULL, 0444);

static void marker_events_count_built(int n)
{
	atomic_add(n, &marker_events_built);
}
#else
static inline void marker_events_count_built(int n)
{
}
#endif

/**
 * marker_event_get - the event of a marker name, referenced and built
 * @name: the name
 *
 * Its first use, if nothing used the event before.  The reference holds
 * the event's owner module, and so the event, until marker_event_put().
 *
 * Return: the event's layout, or NULL if there is no event, its module
 * is going or no memory was left to build it.
 */
struct marker_event *marker_event_get(const char *name)
{
	struct marker_event_call *mc;
	struct marker_event *ev = NULL;

	mutex_lock(&event_mutex);
	mc = marker_event_find(name);
	if (mc && trace_event_try_get_ref(&mc->call)) {
		ev = marker_event_build(mc);
		if (!ev)
			trace_event_put_ref(&mc->call);
	}
	mutex_unlock(&event_mutex);
	return ev;
}

/**
 * marker_event_put - drop a reference marker_event_get() took
 * @ev: the event's layout
 */
void marker_event_put(struct marker_event *ev)
{
	trace_event_put_ref(ev->call);
}

/* The hit path: no lock, any context, NMI included. */

/* Read the argument of @op; a '*' width or precision comes first. */
static __always_inline u64 marker_event_read(const struct marker_event_op *op,
					     va_list *ap)
{
	unsigned int n;

	for (n = 0; unlikely(n < op->stars); n++)
		(void)va_arg(*ap, int);
	return marker_event_read_arg(op, ap);
}

/*
 * Where the architecture does not build va_lists (arch_marker_va_slots()
 * false): read the arguments into @v, each at its slot, as a site on such
 * an architecture lays them out.
 */
static const unsigned long *marker_event_fetch(const struct marker_event *ev,
					       va_list *args, unsigned long *v)
{
	const struct marker_event_op *op;
	unsigned int i;
	u64 x;

	for (i = 0; i < ev->nr_ops; i++) {
		op = &ev->ops[i];
		x = marker_event_read(op, args);
		if (sizeof(long) < sizeof(u64) && op->read == MARKER_READ_LLONG)
			put_unaligned(x, (u64 *)&v[op->slot]);
		else
			v[op->slot] = x;
	}
	return v;
}

/*
 * The shape of a record, as a probe knows it.  The probes of the
 * commonest shapes are for records in slot order (marker_format.c) and
 * know the slots of their numbers, their count of strings, 0 or 1, and
 * whether the record has a call_site field as constants: their copies
 * unroll, and every offset is an immediate.  The probe of any shape has
 * MARKER_EVENT_ANY in the first two, and follows the event's program.
 */
struct marker_event_shape {
	unsigned int nr_num_slots;
	unsigned int nr_str;
	bool call_site;
};

#define MARKER_EVENT_ANY	UINT_MAX

static __always_inline bool
marker_event_any(const struct marker_event_shape *shape)
{
	return shape->nr_num_slots == MARKER_EVENT_ANY;
}

static __always_inline unsigned int
marker_event_nr_str(const struct marker_event *ev,
		    const struct marker_event_shape *shape)
{
	return marker_event_any(shape) ? ev->nr_str : shape->nr_str;
}

static __always_inline bool
marker_event_call_site(const struct marker_event *ev,
		       const struct marker_event_shape *shape)
{
	return marker_event_any(shape) ? ev->call_site : shape->call_site;
}

/* A record's size without its strings. */
static __always_inline unsigned int
marker_event_fixed_size(const struct marker_event *ev,
			const struct marker_event_shape *shape)
{
	if (marker_event_any(shape))
		return ev->size;
	return marker_event_fields_start(shape->call_site) +
	       shape->nr_num_slots * sizeof(long) +
	       shape->nr_str * sizeof(u32);
}

/* The first slot of string @n, and where its __data_loc word goes. */
static __always_inline unsigned int
marker_event_str_slot(const struct marker_event *ev,
		      const struct marker_event_shape *shape, unsigned int n)
{
	return marker_event_any(shape) ? ev->str[n].slot : shape->nr_num_slots;
}

static __always_inline unsigned int
marker_event_str_loc(const struct marker_event *ev,
		     const struct marker_event_shape *shape, unsigned int n)
{
	if (marker_event_any(shape))
		return ev->str[n].offset;
	return marker_event_fixed_size(ev, shape) - sizeof(u32);
}

/*
 * The strings of one hit, each one's address in @str, and its length in
 * @len: at most MARKER_EVENT_STR_MAX - 1, and its NUL; return the bytes
 * they take in the record.  Then the fields, written into @entry from
 * their slots, the strings after the fixed part.  Inlined in each probe:
 * a call and its spills cost a recorded hit 44 instructions.
 */
static __always_inline unsigned int
marker_event_str_len(const struct marker_event *ev,
		     const struct marker_event_shape *shape,
		     const unsigned long *slots, const char **str,
		     unsigned int *len)
{
	unsigned int n, size = 0;

	for (n = 0; n < marker_event_nr_str(ev, shape); n++) {
		str[n] = (const char *)slots[marker_event_str_slot(ev, shape, n)];
		if (unlikely(!str[n]))
			str[n] = "(null)";
		len[n] = min_t(size_t, strlen(str[n]),
			       MARKER_EVENT_STR_MAX - 1) + 1;
		size += len[n];
	}
	return size;
}

/*
 * The numbers: each one's slots whole into its cell, which holds its
 * field at the start on little-endian machines, at the end on big-endian
 * ones.  A record in slot order takes its numbers' slots as they are.
 */
static __always_inline void marker_event_store_num(const struct marker_event *ev,
						   const struct marker_event_shape *shape,
						   void *entry,
						   const unsigned long *slots)
{
	const struct marker_event_move *mv, *end = ev->num + ev->nr_num;
	const unsigned long *src;

	if (!marker_event_any(shape)) {
		memcpy(entry + marker_event_fields_start(shape->call_site),
		       slots, shape->nr_num_slots * sizeof(long));
		return;
	}
	for (mv = ev->num; mv < end; mv++) {
		src = &slots[mv->slot];
		if (mv->size > sizeof(long))
			put_unaligned(get_unaligned((const u64 *)src),
				      (u64 *)(entry + mv->offset));
		else
			put_unaligned(*src, (unsigned long *)(entry + mv->offset));
	}
}

static __always_inline void
marker_event_store_slots(const struct marker_event *ev,
			 const struct marker_event_shape *shape, void *entry,
			 unsigned long call_site, const unsigned long *slots,
			 const char *const *str, const unsigned int *len)
{
	unsigned int n, data = marker_event_fixed_size(ev, shape);

	if (marker_event_call_site(ev, shape))
		put_unaligned((u64)call_site,
			      (u64 *)(entry + sizeof(struct trace_entry)));
	marker_event_store_num(ev, shape, entry, slots);
	for (n = 0; n < marker_event_nr_str(ev, shape); n++) {
		memcpy(entry + data, str[n], len[n] - 1);
		((char *)entry)[data + len[n] - 1] = '\0';
		put_unaligned((u32)len[n] << 16 | data,
			      (u32 *)(entry + marker_event_str_loc(ev, shape, n)));
		data += len[n];
	}
}

/* For the format parser's KUnit suite: fill a record as a probe does. */
static __always_inline unsigned int
__marker_event_test_record(const struct marker_event *ev,
			   const unsigned long *slots, void *entry,
			   const struct marker_event_shape *shape)
{
	const char *str[MARKER_EVENT_MAX_ARGS];
	unsigned int len[MARKER_EVENT_MAX_ARGS];
	unsigned int dsize;

	dsize = marker_event_str_len(ev, shape, slots, str, len);
	if (entry)
		marker_event_store_slots(ev, shape, entry, 0, slots, str, len);
	return marker_event_fixed_size(ev, shape) + dsize;
}

/*
 * The probe of one trace instance's file of the event.  @ip is its
 * return address, from which marker_call_site() finds the site.
 */
static __always_inline void
__marker_event_probe(void *probe_private, va_list *args, unsigned long ip,
		     const struct marker_event_shape *shape)
{
	struct trace_event_file *file = probe_private;
	const struct marker_event *ev = file->event_call->data;
	const char *str[MARKER_EVENT_MAX_ARGS] __uninitialized;
	unsigned int len[MARKER_EVENT_MAX_ARGS] __uninitialized;
	unsigned long v[MARKER_EVENT_MAX_SLOTS] __uninitialized;
	/* Set by trace_event_buffer_reserve() before it returns an entry. */
	struct trace_event_buffer fbuffer __uninitialized;
	const unsigned long *slots;
	unsigned int dsize;
	void *entry;

	if (trace_trigger_soft_disabled(file))
		return;
	if (unlikely(!arch_marker_va_slots(args, &slots)))
		slots = marker_event_fetch(ev, args, v);
	dsize = marker_event_str_len(ev, shape, slots, str, len);
	entry = trace_event_buffer_reserve(&fbuffer, file,
					   marker_event_fixed_size(ev, shape) +
					   dsize);
	if (!entry)
		return;
	if (marker_event_call_site(ev, shape))
		ip = marker_call_site(args, ip);
	marker_event_store_slots(ev, shape, entry, ip, slots, str, len);
	trace_event_buffer_commit(&fbuffer);
}

#ifdef CONFIG_PERF_EVENTS
/*
 * The probe of perf: one for all perf events of the event, and for the
 * BPF programs attached to any of them, which run on every CPU's hits
 * as a TRACE_EVENT's do (perf_trace_run_bpf_submit()).
 */
static __always_inline void
__marker_event_perf_probe(void *probe_private, va_list *args,
			  unsigned long ip,
			  const struct marker_event_shape *shape)
{
	struct marker_event *ev = probe_private;
	const char *str[MARKER_EVENT_MAX_ARGS] __uninitialized;
	unsigned int len[MARKER_EVENT_MAX_ARGS] __uninitialized;
	unsigned long v[MARKER_EVENT_MAX_SLOTS] __uninitialized;
	/* Set by perf_trace_buf_alloc() before it returns a buffer. */
	struct pt_regs *regs __uninitialized;
	int rctx __uninitialized;
	struct hlist_head *head;
	const unsigned long *slots;
	unsigned int dsize;
	int size;
	void *entry;

	head = this_cpu_ptr(ev->call->perf_events);
	if (!bpf_prog_array_valid(ev->call) && hlist_empty(head))
		return;
	if (unlikely(!arch_marker_va_slots(args, &slots)))
		slots = marker_event_fetch(ev, args, v);
	dsize = marker_event_str_len(ev, shape, slots, str, len);
	size = ALIGN(marker_event_fixed_size(ev, shape) + dsize + sizeof(u32),
		     sizeof(u64)) - sizeof(u32);
	entry = perf_trace_buf_alloc(size, &regs, &rctx);
	if (!entry)
		return;
	perf_fetch_caller_regs(regs);
	if (marker_event_call_site(ev, shape))
		ip = marker_call_site(args, ip);
	marker_event_store_slots(ev, shape, entry, ip, slots, str, len);
	perf_trace_run_bpf_submit(entry, size, rctx, ev->call, 1, regs, head,
				  NULL);
}
#else
static __always_inline void
__marker_event_perf_probe(void *probe_private, va_list *args,
			  unsigned long ip,
			  const struct marker_event_shape *shape)
{
}
#endif

/**
 * struct marker_event_probes - the probes of the records of one shape
 * @trace: the probe of a trace instance's file
 * @perf: the probe of perf and of BPF programs
 * @test: fills a record as they do, with CONFIG_MARKERS_KUNIT_TEST
 */
struct marker_event_probes {
	marker_probe_func *trace;
	marker_probe_func *perf;
	unsigned int (*test)(const struct marker_event *ev,
			     const unsigned long *slots, void *entry);
};

/*
 * The probes of one shape, named for it (NUMBER-SLOTS_STRINGS, and _site
 * with a call_site field), and their struct marker_event_probes.
 */
#define DEFINE_MARKER_EVENT_PROBES(name, nr_num_slots, nr_str, site)	\
static const struct marker_event_shape marker_event_shape_##name = {	\
	(nr_num_slots), (nr_str), (site)				\
};									\
static void marker_event_probe_##name(void *probe_private,		\
				      void *call_private,		\
				      const char *fmt, va_list *args)	\
{									\
	__marker_event_probe(probe_private, args, _RET_IP_,		\
			     &marker_event_shape_##name);		\
}									\
static void marker_event_perf_probe_##name(void *probe_private,	\
					   void *call_private,		\
					   const char *fmt,		\
					   va_list *args)		\
{									\
	__marker_event_perf_probe(probe_private, args, _RET_IP_,	\
				  &marker_event_shape_##name);		\
}									\
static unsigned int __maybe_unused					\
marker_event_test_record_##name(const struct marker_event *ev,		\
				const unsigned long *slots, void *entry) \
{									\
	return __marker_event_test_record(ev, slots, entry,		\
					  &marker_event_shape_##name);	\
}									\
static const struct marker_event_probes marker_event_probes_##name = {	\
	.trace = marker_event_probe_##name,				\
	.perf = marker_event_perf_probe_##name,				\
	.test = IS_ENABLED(CONFIG_MARKERS_KUNIT_TEST) ?			\
		marker_event_test_record_##name : NULL,			\
}

DEFINE_MARKER_EVENT_PROBES(any, MARKER_EVENT_ANY, MARKER_EVENT_ANY, false);
DEFINE_MARKER_EVENT_PROBES(0_0, 0, 0, false);
DEFINE_MARKER_EVENT_PROBES(1_0, 1, 0, false);
DEFINE_MARKER_EVENT_PROBES(2_0, 2, 0, false);
DEFINE_MARKER_EVENT_PROBES(3_0, 3, 0, false);
DEFINE_MARKER_EVENT_PROBES(0_1, 0, 1, false);
DEFINE_MARKER_EVENT_PROBES(1_1, 1, 1, false);
DEFINE_MARKER_EVENT_PROBES(2_1, 2, 1, false);
DEFINE_MARKER_EVENT_PROBES(3_1, 3, 1, false);
DEFINE_MARKER_EVENT_PROBES(0_0_site, 0, 0, true);
DEFINE_MARKER_EVENT_PROBES(1_0_site, 1, 0, true);
DEFINE_MARKER_EVENT_PROBES(2_0_site, 2, 0, true);
DEFINE_MARKER_EVENT_PROBES(3_0_site, 3, 0, true);
DEFINE_MARKER_EVENT_PROBES(0_1_site, 0, 1, true);
DEFINE_MARKER_EVENT_PROBES(1_1_site, 1, 1, true);
DEFINE_MARKER_EVENT_PROBES(2_1_site, 2, 1, true);
DEFINE_MARKER_EVENT_PROBES(3_1_site, 3, 1, true);

/*
 * Shapes with probes of their own: records in slot order with up to this
 * many slots of numbers and a string.
 */
#define MARKER_EVENT_FAST_NUM	3
#define MARKER_EVENT_FAST_STR	1

/* By call_site field, then number of strings, then of number slots. */
static const struct marker_event_probes *const
marker_event_fast_probes[2][MARKER_EVENT_FAST_STR + 1][MARKER_EVENT_FAST_NUM + 1] = {
	{
		{ &marker_event_probes_0_0, &marker_event_probes_1_0,
		  &marker_event_probes_2_0, &marker_event_probes_3_0 },
		{ &marker_event_probes_0_1, &marker_event_probes_1_1,
		  &marker_event_probes_2_1, &marker_event_probes_3_1 },
	}, {
		{ &marker_event_probes_0_0_site, &marker_event_probes_1_0_site,
		  &marker_event_probes_2_0_site, &marker_event_probes_3_0_site },
		{ &marker_event_probes_0_1_site, &marker_event_probes_1_1_site,
		  &marker_event_probes_2_1_site, &marker_event_probes_3_1_site },
	},
};

/* The probes for @ev's shape, once it is parsed. */
static const struct marker_event_probes *
marker_event_shape_probes(const struct marker_event *ev)
{
	if (!ev->in_slot_order || ev->nr_str > MARKER_EVENT_FAST_STR ||
	    ev->nr_num_slots > MARKER_EVENT_FAST_NUM)
		return &marker_event_probes_any;
	return marker_event_fast_probes[ev->call_site][ev->nr_str][ev->nr_num_slots];
}

#ifdef CONFIG_MARKERS_KUNIT_TEST
/**
 * marker_event_test_record() - fill a record as the probes fill it
 * @ev: the event, parsed
 * @slots: the arguments, one slot each, as a site stores them
 * @entry: the record, or NULL for its size alone
 *
 * For the format parser's KUnit suite: through the code of the probes of
 * @ev's shape.
 *
 * Return: the size of the record, which @entry has room for.
 */
unsigned int marker_event_test_record(const struct marker_event *ev,
				      const unsigned long *slots, void *entry)
{
	return marker_event_shape_probes(ev)->test(ev, slots, entry);
}

/**
 * marker_event_test_fetch() - read a va_list as the probes read one
 * @ev: the event, parsed
 * @args: the arguments, after its format
 * @v: where to put them, MARKER_EVENT_MAX_SLOTS slots
 *
 * For the format parser's KUnit suite: the probes' reader of a va_list
 * on an architecture whose sites build none of slots.
 *
 * Return: @v, each argument at its slot.
 */
const unsigned long *marker_event_test_fetch(const struct marker_event *ev,
					     va_list *args, unsigned long *v)
{
	return marker_event_fetch(ev, args, v);
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
	struct trace_event_call *call;
	const struct marker_event *ev;
	struct trace_seq *s = &iter->seq;
	unsigned int i;

	/* Its records are written by its probes, once it is built. */
	call = container_of(event, struct trace_event_call, event);
	ev = READ_ONCE(call->data);
	if (WARN_ON_ONCE(!ev))
		return TRACE_TYPE_UNHANDLED;
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

/*
 * Define @ev's fields in @fields, a list of struct ftrace_event_field,
 * through a class of its own: trace_define_field() asks the event's own
 * class for its list, which would build the event again.
 */
static int marker_event_define_fields(const struct marker_event *ev,
				      struct list_head *fields)
{
	struct trace_event_class class = {
		.fields = LIST_HEAD_INIT(class.fields),
	};
	struct trace_event_call call = { .class = &class };
	const struct marker_event_field *f;
	unsigned int i;
	int ret = 0;

	if (ev->call_site)
		ret = trace_define_field(&call, "unsigned long",
					 MARKER_EVENT_CALL_SITE,
					 marker_event_call_site_offset(),
					 sizeof(long), 0, FILTER_OTHER);
	for (i = 0; !ret && i < ev->nr_ops; i++) {
		f = &ev->fields[i];
		if (!f->name[0])
			continue;
		ret = trace_define_field(&call, f->type, f->name,
					 ev->ops[i].offset, ev->ops[i].size,
					 ev->ops[i].is_signed, FILTER_OTHER);
	}
	/* The trace core frees them with the event, all it has made. */
	list_splice(&class.fields, fields);
	return ret;
}

/*
 * Build the layout of @mc's record from its format, at its first use:
 * the copy program, the fields and the print format.  A marker event
 * that is never used takes no more than its call, its names and its
 * files.
 *
 * Return: the layout, or NULL without memory.  An event whose fields
 * could not all be defined keeps its layout, which they point into, and
 * cannot be used.
 */
static struct marker_event *marker_event_build(struct marker_event_call *mc)
{
	struct marker_event *ev;
	int ret = -ENOMEM;

	/* Pairs with the release below: a layout seen, its fields are too. */
	ev = smp_load_acquire(&mc->call.data);
	if (ev)
		goto out;
	mutex_lock(&marker_event_build_mutex);
	ev = mc->call.data;
	if (ev)
		goto out_unlock;
	ev = marker_event_alloc(mc->name, mc->format);
	if (!ev)
		goto err;
	ev->call = &mc->call;
	ev->call_site = marker_event_site_field;
	marker_format_parse(ev);
	ev->probes = marker_event_shape_probes(ev);
	ev->print_fmt = marker_format_print_fmt(ev);
	if (!ev->print_fmt)
		goto err_free;
	ret = marker_event_define_fields(ev, &mc->class.fields);
	ev->broken = ret;
	mc->call.print_fmt = ev->print_fmt;
	/* The fields and print format first, for get_fields()' readers. */
	smp_store_release(&mc->call.data, ev);
	marker_events_count_built(1);
out_unlock:
	mutex_unlock(&marker_event_build_mutex);
out:
	if (!ev->broken)
		return ev;
	pr_err_ratelimited("event %s: its fields not defined: %d\n",
			   mc->name, ev->broken);
	return NULL;

err_free:
	marker_event_free(ev);
err:
	mutex_unlock(&marker_event_build_mutex);
	pr_err_ratelimited("event %s: not built: %d\n", mc->name, ret);
	return NULL;
}

/*
 * The class's get_fields(): whoever asks for the event's fields (its
 * format file, a filter, a trigger, an eprobe, a BPF program's bounds)
 * has the event built first.  The class has no fields_array, so the
 * trace core does not ask when it makes the event's files.
 */
static struct list_head *marker_event_get_fields(struct trace_event_call *call)
{
	struct marker_event_call *mc = to_marker_event_call(call);

	marker_event_build(mc);
	return &mc->class.fields;
}

/* Connecting the probes. */

/*
 * Whose queries choose the sites a trace instance's files record: the
 * instance's own marker_sites, or, at the top level, the queries that
 * perf, BPF and the kernel's parameters follow too.
 */
static const void *marker_event_selector(struct trace_array *tr)
{
	return tr->flags & TRACE_ARRAY_FL_GLOBAL ? NULL : tr;
}

static int marker_event_connect(struct marker_event *ev,
				marker_probe_func *probe, void *data,
				const void *selector)
{
	int ret;

	ret = marker_probe_register_selector(ev->name, ev->format, probe, data,
					     selector);
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

/* Enabling the event, or perf opening it, may be its first use. */
static int marker_event_reg(struct trace_event_call *call,
			    enum trace_reg type, void *data)
{
	struct marker_event *ev = call->data;
	struct trace_event_file *file = data;

	switch (type) {
	case TRACE_REG_REGISTER:
		ev = marker_event_build(to_marker_event_call(call));
		if (!ev)
			return -ENOMEM;
		return marker_event_connect(ev, ev->probes->trace, file,
					    marker_event_selector(file->tr));
	case TRACE_REG_UNREGISTER:
		marker_event_disconnect(ev, ev->probes->trace, data);
		return 0;
#ifdef CONFIG_PERF_EVENTS
	case TRACE_REG_PERF_REGISTER:
		ev = marker_event_build(to_marker_event_call(call));
		if (!ev)
			return -ENOMEM;
		return marker_event_connect(ev, ev->probes->perf, ev, NULL);
	case TRACE_REG_PERF_UNREGISTER:
		marker_event_disconnect(ev, ev->probes->perf, ev);
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

static void marker_event_call_free(struct marker_event_call *mc)
{
	if (mc->call.data)
		marker_events_count_built(-1);
	marker_event_free(mc->call.data);
	kfree(mc->format);
	kfree(mc->name);
	kfree(mc);
}

static struct marker_event_call *marker_event_create(const struct marker *m,
						     struct module *mod)
{
	struct trace_event_call *call;
	struct marker_event_call *mc;
	int ret = -ENOMEM;

	mc = kzalloc(sizeof(*mc), GFP_KERNEL);
	if (!mc)
		goto err;
	mc->name = kstrdup(m->name, GFP_KERNEL);
	mc->format = kstrdup(m->format, GFP_KERNEL);
	if (!mc->name || !mc->format)
		goto err_free;
	mc->class.system = MARKER_EVENT_SYSTEM;
	mc->class.reg = marker_event_reg;
	mc->class.get_fields = marker_event_get_fields;
	INIT_LIST_HEAD(&mc->class.fields);
	call = &mc->call;
	call->class = &mc->class;
	call->name = mc->name;
	call->flags = TRACE_EVENT_FL_MARKER;
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
	INIT_LIST_HEAD(&mc->owners);
	hash_add(marker_event_table, &mc->hlist,
		 full_name_hash(NULL, mc->name, strlen(mc->name)));
	return mc;

err_unregister:
	unregister_trace_event(&call->event);
err_free:
	marker_event_call_free(mc);
err:
	pr_err("event %s: not created: %d\n", m->name, ret);
	return NULL;
}

/*
 * Take everything off every file of the event, in every instance: its
 * triggers, and enabling.  The trace core's own removal leaves a file
 * that triggers keep in soft mode enabled, its probe connected.
 */
static void marker_event_stop_files(struct marker_event_call *mc)
{
	struct trace_event_file *file;
	struct trace_array *tr;

	list_for_each_entry(tr, &ftrace_trace_arrays, list) {
		list_for_each_entry(file, &tr->events, list) {
			if (file->event_call != &mc->call)
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
 * The trace core frees its fields as they are, built or not.
 */
static void marker_event_remove(struct marker_event_call *mc)
{
	lockdep_assert_held(&event_mutex);
	marker_event_stop_files(mc);
	mc->class.get_fields = NULL;
	if (WARN(trace_remove_event_call(&mc->call),
		 "markers: event %s still in use: left behind\n", mc->name)) {
		mc->class.get_fields = marker_event_get_fields;
		mc->call.module = NULL;
		return;
	}
	hash_del(&mc->hlist);
	marker_event_call_free(mc);
}

static struct marker_event_owner *
marker_event_owner(struct marker_event_call *mc, struct module *mod)
{
	struct marker_event_owner *o;

	list_for_each_entry(o, &mc->owners, list)
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
	struct marker_event_call *mc = marker_event_find(m->name);
	struct marker_event_owner *o;

	if (!mc) {
		mc = marker_event_create(m, mod);
		if (!mc)
			return;
	} else if (strcmp(mc->format, m->format)) {
		if (mc->refused != mod || !mod)
			pr_warn("event %s: format \"%s\" of %s differs from the event's \"%s\": not part of the event\n",
				m->name, m->format,
				mod ? module_name(mod) : "vmlinux", mc->format);
		mc->refused = mod;
		return;
	}
	o = marker_event_owner(mc, mod);
	if (!o) {
		o = kzalloc(sizeof(*o), GFP_KERNEL);
		if (!o) {
			/* The marker takes no part in the event. */
			if (!mc->users)
				marker_event_remove(mc);
			return;
		}
		o->mod = mod;
		list_add_tail(&o->list, &mc->owners);
	}
	o->markers++;
	mc->users++;
}

#ifdef CONFIG_MODULES
/*
 * @m of the going @mod no longer counts.  When the event's owner has no
 * marker of it left, the event goes; or, if other modules have markers
 * of it, the next one owns it, and it stays with its state.  Nothing
 * holds a reference on the event then: it would hold @mod.
 */
static void marker_event_remove_user(const struct marker *m, struct module *mod)
{
	struct marker_event_call *mc = marker_event_find(m->name);
	struct marker_event_owner *o;

	if (!mc || strcmp(mc->format, m->format))
		return;
	/* None if no memory was left to count it. */
	o = marker_event_owner(mc, mod);
	if (!o || WARN_ON(!mc->users))
		return;
	mc->users--;
	if (--o->markers)
		return;
	list_del(&o->list);
	kfree(o);
	if (mc->call.module != mod)
		return;
	o = list_first_entry_or_null(&mc->owners, struct marker_event_owner,
				     list);
	if (o)
		mc->call.module = o->mod;
	else
		marker_event_remove(mc);
}
#endif

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
/* A module's events go before the trace core's notifier removes them. */
static void marker_events_remove(struct module *mod)
{
	struct marker *m;

	mutex_lock(&event_mutex);
	for (m = mod->markers; m < mod->markers + mod->num_markers; m++)
		if (m->format)
			marker_event_remove_user(m, mod);
	mutex_unlock(&event_mutex);
}

/*
 * From the markers core: a coming module's events once its markers are
 * connected; a going module's taken off (triggers first) before the trace
 * core removes them and clears the buffers that held their records.
 */
static int marker_events_module_notify(struct notifier_block *nb,
				       unsigned long val, void *data)
{
	struct module *mod = data;

	if (val == MODULE_STATE_COMING)
		marker_events_add(mod->markers,
				  mod->markers + mod->num_markers, mod);
	else if (val == MODULE_STATE_GOING)
		marker_events_remove(mod);
	return NOTIFY_OK;
}

static struct notifier_block marker_events_module_nb = {
	.notifier_call = marker_events_module_notify,
};
#endif

/*
 * An early initcall, before trace_events.o's (see the Makefile): the
 * events of vmlinux exist, and markers.select= is in force, when
 * trace_event= on the command line is applied a second time, by
 * event_trace_enable_again().
 */
static int __init marker_events_init(void)
{
	if (marker_event_site_field)
		marker_note_call_sites();
	marker_select_boot();
	marker_events_add(__start___markers, __stop___markers, NULL);
#ifdef CONFIG_MODULES
	return register_marker_module_notifier(&marker_events_module_nb);
#else
	return 0;
#endif
}
early_initcall(marker_events_init);

/*
 * marker_sites, at the top of tracefs and in each instance: every marker
 * site with its selection, and the queries in force
 * (marker_select_show()); each line written is a command of
 * marker_selector_command(), whose faults go to the instance's error_log
 * as well as to the kernel log.  Opening it with O_TRUNC drops every
 * query of the instance.  An instance's queries choose the sites that its
 * own event files record; the top level's, those of the top level, perf
 * and BPF.
 */

/*
 * The instance whose marker_sites a command is written to:
 * trace_parse_run_command() passes its commands nothing else.
 */
static DEFINE_MUTEX(marker_sites_mutex);
static struct trace_array *marker_sites_tr;

static int marker_sites_command(const char *cmd)
{
	struct trace_array *tr = marker_sites_tr;
	struct marker_select_error err;
	int ret;

	lockdep_assert_held(&marker_sites_mutex);
	ret = marker_selector_command(marker_event_selector(tr), cmd, &err);
	if (ret && err.type >= 0)
		tracing_log_err(tr, "marker_sites", cmd, marker_select_errs,
				err.type, err.pos);
	return ret;
}

static int marker_sites_show(struct seq_file *f, void *v)
{
	return marker_select_show(f, marker_event_selector(f->private));
}

static int marker_sites_open(struct inode *inode, struct file *file)
{
	struct trace_array *tr = inode->i_private;
	int ret;

	ret = tracing_check_open_get_tr(tr);
	if (ret)
		return ret;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC))
		marker_select_reset(marker_event_selector(tr));
	ret = single_open(file, marker_sites_show, tr);
	if (ret)
		trace_array_put(tr);
	return ret;
}

static int marker_sites_release(struct inode *inode, struct file *file)
{
	trace_array_put(inode->i_private);
	return single_release(inode, file);
}

static ssize_t marker_sites_write(struct file *file, const char __user *buf,
				  size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&marker_sites_mutex);
	marker_sites_tr = file_inode(file)->i_private;
	ret = trace_parse_run_command(file, buf, count, ppos,
				      marker_sites_command);
	marker_sites_tr = NULL;
	mutex_unlock(&marker_sites_mutex);
	return ret;
}

static const struct file_operations marker_sites_fops = {
	.open = marker_sites_open,
	.read = seq_read,
	.write = marker_sites_write,
	.llseek = seq_lseek,
	.release = marker_sites_release,
};

/**
 * marker_sites_create() - give a trace instance its marker_sites file
 * @tr: the instance, or the top level
 * @d_tracer: its directory
 */
void marker_sites_create(struct trace_array *tr, struct dentry *d_tracer)
{
	trace_create_file("marker_sites", TRACE_MODE_WRITE, d_tracer, tr,
			  &marker_sites_fops);
}

/**
 * marker_sites_remove() - drop the queries of an instance that goes
 * @tr: the instance, whose event files are disconnected by now
 */
void marker_sites_remove(struct trace_array *tr)
{
	marker_select_reset(marker_event_selector(tr));
}
