/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM markers

#if !defined(_TRACE_MARKERS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MARKERS_H

#include <linux/tracepoint.h>

struct trace_seq;

__printf(2, 0)
const char *marker_loader_print(struct trace_seq *p, const char *fmt,
				const u32 *args, bool lost);

/*
 * marker: one hit of a marker that marker_loader records.  The arguments
 * are stored as vbin_printf() lays them out, strings copied, and are
 * formatted when the trace is read, by the marker's format, which the
 * record carries so that it outlives the marker's module.  @lost is set,
 * and no argument stored, when they did not fit.
 *
 * @args comes first, after 4-byte fields only: bstr_printf() aligns its
 * reads, which must find the words where vbin_printf() put them.
 */
TRACE_EVENT(marker,
	    TP_PROTO(const char *name, const char *fmt, const u32 *args,
		     unsigned int words, bool lost),
	    TP_ARGS(name, fmt, args, words, lost),
	    TP_STRUCT__entry(__field(u32, lost)
			     __dynamic_array(u32, args, words)
			     __string(name, name)
			     __string(fmt, fmt)),
	    TP_fast_assign(__entry->lost = lost;
			   memcpy(__get_dynamic_array(args), args,
				  words * sizeof(u32));
			   __assign_str(name, name);
			   __assign_str(fmt, fmt);),
	    TP_printk("%s: %s", __get_str(name),
		      marker_loader_print(p, __get_str(fmt),
					  __get_dynamic_array(args),
					  __entry->lost))
);

#endif /* _TRACE_MARKERS_H */

#include <trace/define_trace.h>
