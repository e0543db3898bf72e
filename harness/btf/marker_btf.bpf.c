// SPDX-License-Identifier: GPL-2.0
/*
 * BPF programs on the markers of test_marker_events, built with clang
 * against the kernel's own BTF (vmlinux.h, from bpftool btf dump) and
 * loaded by marker_btf.c with Debian's libbpf.  tp_btf programs read
 * tme_task's "task %p pid %d comm %s" with the types its site passes:
 * the task pointer is a struct task_struct *, read directly and with
 * CO-RE.  The raw_tp program reads the same arguments as u64s.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define COMM_LEN	16

enum { HITS, PID_OK, COMM_OK, CORE_OK, LOADER_PID, NR_COUNTS };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, NR_COUNTS);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

/* Only the passes of the loader, whose pid is at LOADER_PID, count. */
static int from_loader(int pid)
{
	__u32 i = LOADER_PID;
	__u64 *p = bpf_map_lookup_elem(&counts, &i);

	return p && *p == pid;
}

static void count(__u32 i)
{
	__u64 *c = bpf_map_lookup_elem(&counts, &i);

	if (c)
		__sync_fetch_and_add(c, 1);
}

/* The string @comm points to, in @buf. */
static void read_comm(char *buf, const char *comm)
{
	if (bpf_probe_read_kernel_str(buf, COMM_LEN, comm) < 0)
		buf[0] = 1;
}

SEC("tp_btf/tme_task")
int BPF_PROG(tme_task_btf, struct task_struct *task, int pid, const char *comm)
{
	char c[COMM_LEN];
	int i;

	/* A tp_btf program's pointer arguments may be NULL. */
	if (!task || !from_loader(pid))
		return 0;
	count(HITS);
	/* Direct BTF access to the task the site passes. */
	if (task->pid == pid)
		count(PID_OK);
	read_comm(c, comm);
	for (i = 0; i < COMM_LEN; i++) {
		if (task->comm[i] != c[i])
			break;
		if (!c[i]) {
			count(COMM_OK);
			break;
		}
	}
	if (BPF_CORE_READ(task, tgid) == pid)
		count(CORE_OK);
	return 0;
}

SEC("raw_tp/tme_task")
int BPF_PROG(tme_task_raw, void *task, int pid, const char *comm)
{
	struct task_struct *t = task;
	char c[COMM_LEN], tc[COMM_LEN];
	int i;

	if (!from_loader(pid))
		return 0;
	count(HITS);
	if (BPF_CORE_READ(t, pid) == pid)
		count(PID_OK);
	read_comm(c, comm);
	bpf_core_read_str(tc, sizeof(tc), &t->comm);
	for (i = 0; i < COMM_LEN; i++) {
		if (tc[i] != c[i])
			break;
		if (!c[i]) {
			count(COMM_OK);
			break;
		}
	}
	if (BPF_CORE_READ(t, tgid) == pid)
		count(CORE_OK);
	return 0;
}

/* Sites of tme_typeclash pass a task and a char array: refused. */
SEC("tp_btf/tme_typeclash")
int BPF_PROG(tme_typeclash_btf, struct task_struct *task)
{
	count(HITS);
	return 0;
}

/* A marker of vmlinux (arch/x86/kernel/marker_kunit_util.c): an int. */
SEC("tp_btf/markers_x86_site")
int BPF_PROG(markers_x86_site_btf, int value)
{
	count(HITS);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
