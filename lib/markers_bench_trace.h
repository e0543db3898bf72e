/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace events of the markers benchmark (lib/markers_bench.c): the
 * tracepoint it compares markers with, and an event with the same fields
 * as the marker it records.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM markers_bench

#if !defined(_TRACE_MARKERS_BENCH_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MARKERS_BENCH_H

#include <linux/tracepoint.h>

TRACE_EVENT(bench_pass,
	    TP_PROTO(u32 i),
	    TP_ARGS(i),
	    TP_STRUCT__entry(__field(u32, i)),
	    TP_fast_assign(__entry->i = i;),
	    TP_printk("i %u", __entry->i)
);

TRACE_EVENT(bench_rec,
	    TP_PROTO(u32 seq, u64 value, const char *name),
	    TP_ARGS(seq, value, name),
	    TP_STRUCT__entry(__field(u32, seq)
			     __field(u64, value)
			     __string(name, name)),
	    TP_fast_assign(__entry->seq = seq;
			   __entry->value = value;
			   __assign_str(name);),
	    TP_printk("seq %u value %llu name %s", __entry->seq,
		      __entry->value, __get_str(name))
);

#endif /* _TRACE_MARKERS_BENCH_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE markers_bench_trace
#include <trace/define_trace.h>
