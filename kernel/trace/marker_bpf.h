/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kernel/trace/marker_bpf.c shares with its KUnit tests: how a raw_tp
 * program on a marker reads the marker's arguments.
 */
#ifndef _KERNEL_TRACE_MARKER_BPF_H
#define _KERNEL_TRACE_MARKER_BPF_H

#include <linux/stdarg.h>
#include <linux/types.h>

struct marker_event;

unsigned int marker_bpf_nr_args(const struct marker_event *ev);
void marker_bpf_read_args(const struct marker_event *ev, va_list *args,
			  u64 *v, unsigned int nr);

#endif /* _KERNEL_TRACE_MARKER_BPF_H */
