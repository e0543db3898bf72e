// SPDX-License-Identifier: GPL-2.0
/*
 * marker_btf OBJ PROG N [open|link]: load the program PROG of the BPF
 * object OBJ (marker_btf.bpf.o) with libbpf, attach it as its section
 * says (tp_btf/ or raw_tp/ and a marker's name), pass test_marker_events'
 * markers N times from this process, and print the program's counts:
 * "hits H pid_ok P comm_ok C core_ok K".  With "open" or "link" the
 * program is attached by that bpf() command itself, BPF_RAW_TRACEPOINT_OPEN
 * or BPF_LINK_CREATE (BPF_TRACE_RAW_TP, with no fallback to the other),
 * whichever libbpf would use.
 * Exit 0; 2 if the program is refused at load, 3 at attach (the error
 * printed); 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define PASS "/sys/module/test_marker_events/parameters/pass"
/* The programs' counts, then the pid whose passes they count. */
#define LOADER_PID	4

static int pass(int n)
{
	int i, fd = open(PASS, O_WRONLY);

	if (fd < 0) {
		perror(PASS);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (pwrite(fd, "1", 1, 0) != 1) {
			perror(PASS);
			close(fd);
			return -1;
		}
	}
	close(fd);
	return 0;
}

/*
 * BPF_LINK_CREATE itself: libbpf's bpf_link_create() retries with
 * BPF_RAW_TRACEPOINT_OPEN when the kernel answers EINVAL.
 */
static int link_create(int prog_fd)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog_fd;
	attr.link_create.attach_type = BPF_TRACE_RAW_TP;
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	return fd < 0 ? -errno : fd;
}

int main(int argc, char **argv)
{
	struct bpf_program *prog, *p;
	struct bpf_object *obj;
	struct bpf_link *link = NULL;
	__u32 i, key = LOADER_PID;
	int err, fd, link_fd = -1;
	const char *how;
	__u64 v[4];

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: %s OBJ PROG N [open|link]\n", argv[0]);
		return 1;
	}
	how = argc == 5 ? argv[4] : "libbpf";
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	prog = bpf_object__find_program_by_name(obj, argv[2]);
	if (!prog) {
		fprintf(stderr, "%s: no program %s\n", argv[1], argv[2]);
		return 1;
	}
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, p == prog);
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "load: %s\n", strerror(-err));
		return 2;
	}
	fd = bpf_object__find_map_fd_by_name(obj, "counts");
	v[0] = getpid();
	if (bpf_map_update_elem(fd, &key, &v[0], BPF_ANY)) {
		perror("counts");
		return 1;
	}
	if (!strcmp(how, "open")) {
		link_fd = bpf_raw_tracepoint_open(NULL, bpf_program__fd(prog));
	} else if (!strcmp(how, "link")) {
		link_fd = link_create(bpf_program__fd(prog));
	} else {
		link = bpf_program__attach(prog);
		link_fd = link ? 0 : -errno;
	}
	if (link_fd < 0) {
		fprintf(stderr, "attach (%s): %s\n", how, strerror(-link_fd));
		return 3;
	}
	if (pass(atoi(argv[3])))
		return 1;
	for (i = 0; i < 4; i++) {
		if (bpf_map_lookup_elem(fd, &i, &v[i])) {
			perror("counts");
			return 1;
		}
	}
	printf("hits %llu pid_ok %llu comm_ok %llu core_ok %llu\n",
	       (unsigned long long)v[0], (unsigned long long)v[1],
	       (unsigned long long)v[2], (unsigned long long)v[3]);
	if (link)
		bpf_link__destroy(link);
	else
		close(link_fd);
	bpf_object__close(obj);
	return 0;
}
