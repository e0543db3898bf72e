// SPDX-License-Identifier: GPL-2.0
/*
 * Raw tracepoint BPF programs on kernel markers.  BPF_RAW_TRACEPOINT_OPEN
 * with the name of a marker that has a trace event connects the program
 * as a probe of that name: it runs at every selected site of the name, as
 * any probe does, and reads the arguments as ctx->args[N], one u64 per
 * argument the site passes, in the format's order ('*' widths and
 * precisions included), as C promotes them and then widens them to 64
 * bits.  See Documentation/trace/markers.rst.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/container_of.h>
#include <linux/marker.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>

#include "marker_bpf.h"
#include "marker_format.h"

/*
 * A name with this prefix is a marker's even where a tracepoint has the
 * rest: the marker's event is <system>:<name> to perf, and no tracepoint
 * name has a colon.
 */
#define MARKER_BPF_PREFIX	MARKER_EVENT_SYSTEM ":"

/* The typedef of a marker's prototype in BTF, as of a tracepoint's. */
#define MARKER_BPF_BTF_PREFIX	"btf_trace_"

/**
 * struct marker_bpf - a raw tracepoint program's hold on a marker event
 * @map: what the program's link points to (@link->btp), as to a
 *	 tracepoint's: @map.num_args is what the program may read, at most
 *	 MARKER_BPF_MAX_ARGS; @map.tp is NULL, which tells the two apart
 * @ev: the event, referenced: its owner module stays
 */
struct marker_bpf {
	struct bpf_raw_event_map map;
	struct marker_event *ev;
};

static struct marker_bpf *marker_bpf_of(const struct bpf_raw_tp_link *link)
{
	return container_of(link->btp, struct marker_bpf, map);
}

/**
 * marker_bpf_nr_args - how many arguments a raw_tp program on an event reads
 * @ev: the marker's event
 *
 * Return: one per conversion and per '*' width or precision, at most
 * MARKER_BPF_MAX_ARGS.
 */
unsigned int marker_bpf_nr_args(const struct marker_event *ev)
{
	unsigned int i, n = 0;

	for (i = 0; i < ev->nr_ops; i++)
		n += ev->ops[i].stars + 1;
	return min(n, MARKER_BPF_MAX_ARGS);
}

/**
 * bpf_marker_fetch - read a probe's arguments for its program
 * @link: the program's link, connected by bpf_marker_attach()
 * @args: the arguments, where arch_marker_va_slots() has no 64-bit slots
 * @v: filled with as many arguments as the program may read, one u64 each
 *
 * Context: the marker's probe, bpf_trace_run_marker(): preemption off.
 */
void bpf_marker_fetch(const struct bpf_raw_tp_link *link, va_list *args,
		      u64 *v)
{
	const struct marker_bpf *mb = marker_bpf_of(link);

	marker_bpf_read_args(mb->ev, args, v, mb->map.num_args);
}

/**
 * marker_bpf_read_args - read the arguments of a va_list without slots
 * @ev: the marker's event, whose format describes them
 * @args: the arguments
 * @v: filled with the first @nr, each widened to 64 bits as a site's slot
 *     holds it on a 64-bit machine: sign-extended if its type is signed
 * @nr: how many, at most marker_bpf_nr_args(@ev)
 */
void marker_bpf_read_args(const struct marker_event *ev, va_list *args,
			  u64 *v, unsigned int nr)
{
	const struct marker_event_op *op;
	unsigned int i, s, n = 0;
	u64 x;

	for (i = 0; i < ev->nr_ops && n < nr; i++) {
		op = &ev->ops[i];
		for (s = 0; s < op->stars && n < nr; s++)
			v[n++] = (u64)(s64)va_arg(*args, int);
		if (n == nr)
			break;
		x = marker_event_read_arg(op, args);
		/* A signed long widened as on a 64-bit machine. */
		if (op->is_signed && op->read != MARKER_READ_LLONG)
			x = (u64)(s64)(long)x;
		v[n++] = x;
	}
}

/**
 * bpf_marker_attach - connect a raw tracepoint program to a marker
 * @link: the program's link; @link->btp is NULL
 * @name: the marker's name, or "markers:" and its name
 *
 * Sets @link->btp.  The marker's event holds its owner module until
 * bpf_marker_detach().
 *
 * Return: 0; -ENOENT if no loaded code has a marker of @name with an
 * event (a MARK_ENABLED() marker has none); -EINVAL if the program reads
 * past the marker's arguments; -ENOMEM; or what marker_probe_register()
 * returns.
 */
int bpf_marker_attach(struct bpf_raw_tp_link *link, const char *name)
{
	const struct bpf_prog *prog = link->link.prog;
	struct marker_bpf *mb;
	int ret = -ENOMEM;

	mb = kzalloc(sizeof(*mb), GFP_KERNEL);
	if (!mb)
		goto err;
	ret = -ENOENT;
	if (str_has_prefix(name, MARKER_BPF_PREFIX))
		name += strlen(MARKER_BPF_PREFIX);
	mb->ev = marker_event_get(name);
	if (!mb->ev)
		goto err_free;
	mb->map.num_args = marker_bpf_nr_args(mb->ev);
	ret = -EINVAL;
	if (prog->aux->max_ctx_offset > mb->map.num_args * sizeof(u64)) {
		pr_info_ratelimited("%s: BPF program %u reads past the marker's %u arguments\n",
				    name, prog->aux->id, mb->map.num_args);
		goto err_put;
	}
	link->btp = &mb->map;
	ret = marker_probe_register(mb->ev->name, mb->ev->format,
				    bpf_trace_run_marker, link);
	if (ret)
		goto err_unlink;
	return 0;

err_unlink:
	link->btp = NULL;
err_put:
	marker_event_put(mb->ev);
err_free:
	kfree(mb);
err:
	return ret;
}

/**
 * bpf_marker_detach - disconnect a program that bpf_marker_attach()
 *	connected
 * @link: its link
 *
 * Returns once no CPU runs the program from the marker any more.
 */
void bpf_marker_detach(struct bpf_raw_tp_link *link)
{
	struct marker_bpf *mb = marker_bpf_of(link);

	marker_probe_unregister(mb->ev->name, bpf_trace_run_marker, link);
	marker_event_put(mb->ev);
	link->btp = NULL;
	kfree(mb);
}

/**
 * bpf_marker_name - the name of the marker a program is connected to
 * @link: its link, connected by bpf_marker_attach()
 *
 * Return: the name, valid while @link is.
 */
const char *bpf_marker_name(const struct bpf_raw_tp_link *link)
{
	return marker_bpf_of(link)->ev->name;
}

/* Is @t a typedef named "btf_trace_<name>"? */
static bool marker_bpf_btf_is(const struct btf *btf,
			      const struct btf_type *t, const char *name)
{
	const char *tname;

	if (!btf_type_is_typedef(t))
		return false;
	tname = btf_name_by_offset(btf, t->name_off);
	return str_has_prefix(tname, MARKER_BPF_BTF_PREFIX) &&
	       !strcmp(tname + strlen(MARKER_BPF_BTF_PREFIX), name);
}

/**
 * bpf_marker_check_btf - may a tp_btf program be typed as a marker's
 * @btf: the BTF the program is loaded against
 * @btf_id: the btf_trace_<name> typedef in @btf that types it
 * @name: the marker's name
 *
 * Every MARK() of @name leaves a typedef btf_trace_<name> of the
 * prototype its arguments give, and BTF keeps one per distinct
 * prototype: where sites of the name pass different types, none of them
 * types the arguments of every site, and the program is refused.
 *
 * Return: 0; -ENOENT if no loaded code has a marker of @name with an
 * event; -EINVAL if @btf has another btf_trace_<name> typedef.
 */
int bpf_marker_check_btf(const struct btf *btf, u32 btf_id, const char *name)
{
	struct marker_event *ev;
	u32 id, nr = btf_nr_types(btf);

	ev = marker_event_get(name);
	if (!ev)
		return -ENOENT;
	marker_event_put(ev);
	for (id = 1; id < nr; id++) {
		if (id != btf_id &&
		    marker_bpf_btf_is(btf, btf_type_by_id(btf, id), name)) {
			pr_info_ratelimited("%s: sites pass arguments of different types: no tp_btf program\n",
					    name);
			return -EINVAL;
		}
	}
	return 0;
}
