// SPDX-License-Identifier: GPL-2.0
/*
 * bench_btf OBJ PROG FILE CMD: load the program PROG of OBJ
 * (bench_btf.bpf.o) with libbpf, attach it as its section says, write
 * CMD to FILE (lib/markers_bench.c's run file) in one write, and print
 * "bench_btf: PROG hits H sum S".  Exit 0; 2 if the program is refused
 * at load, 3 at attach, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static int write_cmd(const char *file, const char *cmd)
{
	int fd = open(file, O_WRONLY);
	ssize_t n;

	if (fd < 0) {
		perror(file);
		return -1;
	}
	n = write(fd, cmd, strlen(cmd));
	if (n < 0)
		perror(cmd);
	close(fd);
	return n < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct bpf_program *prog, *p;
	struct bpf_object *obj;
	struct bpf_link *link;
	__u64 v[2] = { 0, 0 };
	__u32 i;
	int err, fd;

	if (argc != 5) {
		fprintf(stderr, "usage: %s OBJ PROG FILE CMD\n", argv[0]);
		return 1;
	}
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
	link = bpf_program__attach(prog);
	if (!link) {
		fprintf(stderr, "attach: %s\n", strerror(errno));
		return 3;
	}
	err = write_cmd(argv[3], argv[4]);
	fd = bpf_object__find_map_fd_by_name(obj, "counts");
	for (i = 0; i < 2; i++)
		if (bpf_map_lookup_elem(fd, &i, &v[i]))
			perror("counts");
	printf("bench_btf: %s hits %llu sum %llu\n", argv[2],
	       (unsigned long long)v[0], (unsigned long long)v[1]);
	bpf_link__destroy(link);
	bpf_object__close(obj);
	return err ? 1 : 0;
}
