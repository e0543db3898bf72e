// SPDX-License-Identifier: GPL-2.0
/*
 * tp_btf programs of `make bench` section 9, built as marker_btf.bpf.c
 * is: the same program on the marker bench_typed and on the tracepoint
 * bench_rec of lib/markers_bench.c, which pass the same values.  Each
 * counts the hit and adds its seq argument, as bpf_count's raw_tp
 * program does (key 0 and key 1 of an array map).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

static void add(__u32 key, __u64 v)
{
	__u64 *c = bpf_map_lookup_elem(&counts, &key);

	if (c)
		__sync_fetch_and_add(c, v);
}

SEC("tp_btf/bench_typed")
int BPF_PROG(bench_typed_btf, u32 seq, u64 value, const char *name)
{
	add(0, 1);
	add(1, seq);
	return 0;
}

SEC("tp_btf/bench_rec")
int BPF_PROG(bench_rec_btf, u32 seq, u64 value, const char *name)
{
	add(0, 1);
	add(1, seq);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
