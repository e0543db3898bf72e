// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_count [-a ioctl|link] [-f INT_FIELD] [-s STR_FIELD:PREFIX]
 *	     [-r OFFSET] [-u MODULE] [-c CMD] EVENT_DIR WRITE_FILE VALUE
 * bpf_count -R [-f N] [-s N:PREFIX] [-r OFFSET] [-u MODULE] [-c CMD]
 *	     MARKER WRITE_FILE VALUE
 *
 * Attach a BPF tracepoint program to the trace event EVENT_DIR (a
 * tracefs events/<system>/<name>/ directory) through a perf event on
 * CPU 0, with PERF_EVENT_IOC_SET_BPF (-a ioctl, the default) or a BPF
 * link (-a link), and count its hits: the program adds 1 per hit, the
 * integer field INT_FIELD (-f, sign-extended if the format file says
 * it is signed), and 1 per hit whose string field STR_FIELD (-s, a
 * __data_loc char[] field) starts with PREFIX (at most 7 characters)
 * into the three u64 entries of an array map.  -r OFFSET loads instead
 * a program that only reads a u32 at ctx + OFFSET.
 *
 * Then, on each CPU of its affinity mask in turn, write VALUE to
 * WRITE_FILE.  -u MODULE: then try to unload MODULE (O_NONBLOCK), print
 * "unload MODULE: ok" or the errno name, and write on every CPU again.
 * -c CMD: run CMD with system() while the program is attached.  Print
 * "cpus N count C sum S strings M" and exit 0.
 *
 * -R: a raw tracepoint program instead, attached with
 * BPF_RAW_TRACEPOINT_OPEN to the marker (or tracepoint) named MARKER:
 * -f and -s name arguments by their index N, ctx->args[N], -s one that
 * points to a string, and -r reads a u32 at ctx + OFFSET.
 *
 * An attach that fails prints "attach: <errno name>" and exits 2; any
 * other failure prints what failed and exits 1 (a kernel without the
 * bpf syscall: "map create: " and the name of the errno it returns).
 * No libbpf: raw syscalls, hand-assembled instructions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>

/* Instructions, as the kernel's filter.h writes them. */
#define INSN(c, d, s, o, i)						\
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s),\
			    .off = (o), .imm = (i) })
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV64_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define ALU64_IMM(op, d, i)	INSN(BPF_ALU64 | (op) | BPF_K, d, 0, 0, i)
#define ALU64_REG(op, d, s)	INSN(BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define LDX_MEM(sz, d, s, o)	INSN(BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define ST_MEM(sz, d, o, i)	INSN(BPF_ST | BPF_MEM | (sz), d, 0, o, i)
#define JMP_IMM(op, d, i, o)	INSN(BPF_JMP | (op) | BPF_K, d, 0, o, i)
#define JMP_REG(op, d, s, o)	INSN(BPF_JMP | (op) | BPF_X, d, s, o, 0)
#define CALL(f)			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT()			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* lock *(u64 *)(d + o) += s */
#define ATOMIC_ADD_DW(d, s, o)	INSN(BPF_STX | BPF_ATOMIC | BPF_DW, d, s, o, BPF_ADD)

#define MAX_INSNS	64
#define PREFIX_MAX	7

static struct bpf_insn insns[MAX_INSNS];
static int ninsns;

static void emit(struct bpf_insn insn)
{
	if (ninsns == MAX_INSNS) {
		fprintf(stderr, "bpf_count: program too long\n");
		exit(1);
	}
	insns[ninsns++] = insn;
}

/* dst = imm, 64 bits; src BPF_PSEUDO_MAP_FD makes imm a map's fd. */
static void emit_ld_imm64(int dst, int src, __u64 imm)
{
	emit(INSN(BPF_LD | BPF_DW | BPF_IMM, dst, src, 0, (__u32)imm));
	emit(INSN(0, 0, 0, 0, (__u32)(imm >> 32)));
}

/* The errno's name, as glibc knows it ("EAGAIN" for EWOULDBLOCK too). */
static const char *errname(int err)
{
	static char buf[32];
	const char *name = strerrorname_np(err);

	if (name)
		return name;
	/* None for kernel-internal errnos: 524 (ENOTSUPP) from the bpf syscall. */
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static void bpf_fail(const char *what)
{
	printf("%s: %s\n", what, errname(errno));
	exit(1);
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: bpf_count [-a ioctl|link] [-f INT_FIELD] [-s STR_FIELD:PREFIX]\n"
		"\t[-r OFFSET] [-u MODULE] [-c CMD] EVENT_DIR WRITE_FILE VALUE\n"
		"       bpf_count -R [-f N] [-s N:PREFIX] [-r OFFSET] [-u MODULE]\n"
		"\t[-c CMD] MARKER WRITE_FILE VALUE\n");
	exit(1);
}

/* read_file PATH: its contents, NUL-terminated, or exit. */
static char *read_file(const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (!buf || fd < 0) {
		perror(path);
		exit(1);
	}
	for (;;) {
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf) {
				perror("realloc");
				exit(1);
			}
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			perror(path);
			exit(1);
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

struct field {
	int offset, size, is_signed, data_loc;
};

/* Argument N of a raw tracepoint program, a u64. */
static struct field raw_arg(const char *n)
{
	struct field f = { .offset = 8 * atoi(n), .size = 8 };

	return f;
}

/*
 * find_field FORMAT NAME: NAME's line of the format file,
 * "\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;", parsed; exit if
 * there is none.
 */
static struct field find_field(const char *format, const char *name)
{
	const char *line, *end, *decl, *semi, *p, *q;
	size_t nlen = strlen(name);
	struct field f;

	for (line = format; *line; line = *end ? end + 1 : end) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		decl = strstr(line, "field:");
		if (!decl || decl > end)
			continue;
		decl += strlen("field:");
		semi = strchr(decl, ';');
		if (!semi || semi > end)
			continue;
		/* The name is the last word of the declaration, "[N]" aside. */
		q = semi;
		if (q > decl && q[-1] == ']')
			while (q > decl && *q != '[')
				q--;
		p = q;
		while (p > decl && p[-1] != ' ' && p[-1] != '\t')
			p--;
		if ((size_t)(q - p) != nlen || strncmp(p, name, nlen))
			continue;
		if (sscanf(semi, ";\toffset:%d;\tsize:%d;\tsigned:%d;",
			   &f.offset, &f.size, &f.is_signed) != 3) {
			fprintf(stderr, "bpf_count: cannot parse field %s\n", name);
			exit(1);
		}
		f.data_loc = !strncmp(decl, "__data_loc ", strlen("__data_loc "));
		return f;
	}
	fprintf(stderr, "bpf_count: no field %s\n", name);
	exit(1);
}

/* The load of a 1-, 2-, 4- or 8-byte field; -1 for any other size. */
static int ldx_size(int size)
{
	switch (size) {
	case 1:
		return BPF_B;
	case 2:
		return BPF_H;
	case 4:
		return BPF_W;
	case 8:
		return BPF_DW;
	}
	return -1;
}

/*
 * The counting program.  r6: ctx; r7: the integer field, 0 without
 * -f; r8: 1 if the string field starts with the prefix, 0 without -s;
 * r9: 1.  Then map[0] += r9, map[1] += r7, map[2] += r8, atomically.
 */
static void build_count(int map_fd, const struct field *intf,
			const struct field *strf, const char *prefix)
{
	__u64 want = 0, mask = 0;
	size_t plen;
	int key;

	emit(MOV64_REG(BPF_REG_6, BPF_REG_1));
	emit(MOV64_IMM(BPF_REG_7, 0));
	emit(MOV64_IMM(BPF_REG_8, 0));
	emit(MOV64_IMM(BPF_REG_9, 1));
	if (intf) {
		emit(LDX_MEM(ldx_size(intf->size), BPF_REG_7, BPF_REG_6,
			     intf->offset));
		/* Shifts: sign-extending loads need cpu v4 (6.6), not every verifier's. */
		if (intf->is_signed && intf->size < 8) {
			emit(ALU64_IMM(BPF_LSH, BPF_REG_7, 64 - 8 * intf->size));
			emit(ALU64_IMM(BPF_ARSH, BPF_REG_7, 64 - 8 * intf->size));
		}
	}
	if (strf) {
		/* The prefix and its mask in memory order, any endianness. */
		plen = strlen(prefix);
		memcpy(&want, prefix, plen);
		memset(&mask, 0xff, plen);
		if (strf->data_loc) {
			/* The string at ctx + (loc & 0xffff). */
			emit(LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_6, strf->offset));
			emit(ALU64_IMM(BPF_AND, BPF_REG_3, 0xffff));
			emit(ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_6));
		} else {
			/* A raw tracepoint's argument: the string's address. */
			emit(LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, strf->offset));
		}
		emit(ST_MEM(BPF_DW, BPF_REG_10, -8, 0));
		emit(MOV64_REG(BPF_REG_1, BPF_REG_10));
		emit(ALU64_IMM(BPF_ADD, BPF_REG_1, -8));
		emit(MOV64_IMM(BPF_REG_2, 8));
		emit(CALL(BPF_FUNC_probe_read_kernel_str));
		emit(LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -8));
		emit_ld_imm64(BPF_REG_2, 0, mask);
		emit(ALU64_REG(BPF_AND, BPF_REG_1, BPF_REG_2));
		emit_ld_imm64(BPF_REG_2, 0, want);
		emit(JMP_REG(BPF_JNE, BPF_REG_1, BPF_REG_2, 1));
		emit(MOV64_IMM(BPF_REG_8, 1));
	}
	for (key = 0; key < 3; key++) {
		emit(ST_MEM(BPF_W, BPF_REG_10, -16, key));
		emit_ld_imm64(BPF_REG_1, BPF_PSEUDO_MAP_FD, map_fd);
		emit(MOV64_REG(BPF_REG_2, BPF_REG_10));
		emit(ALU64_IMM(BPF_ADD, BPF_REG_2, -16));
		emit(CALL(BPF_FUNC_map_lookup_elem));
		emit(JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 1));
		emit(ATOMIC_ADD_DW(BPF_REG_0, key == 0 ? BPF_REG_9 :
				   key == 1 ? BPF_REG_7 : BPF_REG_8, 0));
	}
	emit(MOV64_IMM(BPF_REG_0, 0));
	emit(EXIT());
}

/* The ctx size check's program: r0 = *(u32 *)(ctx + off); return 0. */
static void build_read(int off)
{
	emit(LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_1, off));
	emit(MOV64_IMM(BPF_REG_0, 0));
	emit(EXIT());
}

static int load_prog(int type)
{
	static char log[1 << 20];
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insn_cnt = ninsns;
	attr.insns = (__u64)(unsigned long)insns;
	attr.license = (__u64)(unsigned long)"GPL";
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd >= 0)
		return fd;
	/* Again, for the verifier's log. */
	attr.log_level = 1;
	attr.log_size = sizeof(log);
	attr.log_buf = (__u64)(unsigned long)log;
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	printf("prog load: %s\n", errname(errno));
	printf("%s", log);
	exit(1);
}

/* write_value FILE VALUE: one write, or exit. */
static void write_value(const char *file, const char *value)
{
	int fd = open(file, O_WRONLY);

	if (fd < 0 || write(fd, value, strlen(value)) < 0) {
		printf("write %s: %s\n", file, strerror(errno));
		exit(1);
	}
	close(fd);
}

/* fire: write on each CPU of the mask in turn. */
static void fire(const cpu_set_t *mask, const char *file, const char *value)
{
	cpu_set_t one;
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, mask))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one)) {
			printf("sched_setaffinity %d: %s\n", cpu, strerror(errno));
			exit(1);
		}
		write_value(file, value);
	}
	/* Back where the caller put us. */
	sched_setaffinity(0, sizeof(*mask), mask);
}

/* attach_fail: say why, and exit 2. */
static void attach_fail(void)
{
	printf("attach: %s\n", errname(errno));
	exit(2);
}

/*
 * attach_perf PROG_FD ID HOW PERF_FD: open a perf event of the trace
 * event ID on CPU 0 into *PERF_FD, attach the program to it HOW (ioctl
 * or link) and enable it; return the link's fd, or -1.
 */
static int attach_perf(int prog_fd, long id, const char *how, int *perf_fd)
{
	struct perf_event_attr pattr;
	union bpf_attr attr;
	int link_fd = -1;

	memset(&pattr, 0, sizeof(pattr));
	pattr.type = PERF_TYPE_TRACEPOINT;
	pattr.size = sizeof(pattr);
	pattr.config = id;
	pattr.sample_period = 1;
	pattr.sample_type = PERF_SAMPLE_RAW;
	pattr.wakeup_events = 1;
	pattr.disabled = 1;
	*perf_fd = syscall(__NR_perf_event_open, &pattr, -1, 0, -1,
			   PERF_FLAG_FD_CLOEXEC);
	if (*perf_fd < 0) {
		printf("perf_event_open: %s\n", errname(errno));
		exit(1);
	}
	if (!strcmp(how, "link")) {
		memset(&attr, 0, sizeof(attr));
		attr.link_create.prog_fd = prog_fd;
		attr.link_create.target_fd = *perf_fd;
		attr.link_create.attach_type = BPF_PERF_EVENT;
		link_fd = sys_bpf(BPF_LINK_CREATE, &attr);
		if (link_fd < 0)
			attach_fail();
	} else if (ioctl(*perf_fd, PERF_EVENT_IOC_SET_BPF, prog_fd)) {
		attach_fail();
	}
	if (ioctl(*perf_fd, PERF_EVENT_IOC_ENABLE, 0)) {
		printf("enable: %s\n", errname(errno));
		exit(1);
	}
	return link_fd;
}

/* attach_raw PROG_FD NAME: BPF_RAW_TRACEPOINT_OPEN; return the link's fd. */
static int attach_raw(int prog_fd, const char *name)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (__u64)(unsigned long)name;
	attr.raw_tracepoint.prog_fd = prog_fd;
	fd = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
	if (fd < 0)
		attach_fail();
	return fd;
}

/*
 * event_fields EVENT_DIR INT_NAME INTF STR_NAME STRF: the fields named
 * (NULL: none) of the event, checked; return the event's id.
 */
static long event_fields(const char *dir, const char *intname,
			 struct field *intf, const char *strname,
			 struct field *strf)
{
	char *format, path[4096];

	snprintf(path, sizeof(path), "%s/format", dir);
	format = read_file(path);
	if (intname) {
		*intf = find_field(format, intname);
		if (intf->data_loc || ldx_size(intf->size) < 0) {
			fprintf(stderr, "bpf_count: %s is not an integer field\n",
				intname);
			exit(1);
		}
	}
	if (strname) {
		*strf = find_field(format, strname);
		if (!strf->data_loc || strf->size != 4) {
			fprintf(stderr, "bpf_count: %s is not a __data_loc field\n",
				strname);
			exit(1);
		}
	}
	free(format);
	snprintf(path, sizeof(path), "%s/id", dir);
	return strtol(read_file(path), NULL, 10);
}

int main(int argc, char **argv)
{
	const char *attach = "ioctl", *intname = NULL, *module = NULL;
	const char *cmd = NULL, *prefix = NULL;
	char *strname = NULL;
	struct field intf, strf;
	union bpf_attr attr;
	int map_fd, prog_fd, perf_fd = -1, link_fd = -1, key, opt, roff = -1;
	int raw = 0;
	__u64 val[3];
	cpu_set_t mask;
	long id;

	while ((opt = getopt(argc, argv, "a:f:s:r:u:c:R")) != -1) {
		switch (opt) {
		case 'a':
			attach = optarg;
			if (strcmp(attach, "ioctl") && strcmp(attach, "link"))
				print_usage();
			break;
		case 'f':
			intname = optarg;
			break;
		case 's':
			strname = optarg;
			prefix = strchr(optarg, ':');
			if (!prefix || strlen(prefix + 1) > PREFIX_MAX)
				print_usage();
			*strchr(optarg, ':') = '\0';
			prefix++;
			break;
		case 'r':
			roff = atoi(optarg);
			break;
		case 'u':
			module = optarg;
			break;
		case 'c':
			cmd = optarg;
			break;
		case 'R':
			raw = 1;
			break;
		default:
			print_usage();
		}
	}
	if (argc - optind != 3)
		print_usage();

	if (raw) {
		if (intname)
			intf = raw_arg(intname);
		if (strname)
			strf = raw_arg(strname);
	} else {
		id = event_fields(argv[optind], intname, &intf, strname, &strf);
	}

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(__u32);
	attr.value_size = sizeof(__u64);
	attr.max_entries = 3;
	map_fd = sys_bpf(BPF_MAP_CREATE, &attr);
	if (map_fd < 0)
		bpf_fail("map create");
	if (roff >= 0)
		build_read(roff);
	else
		build_count(map_fd, intname ? &intf : NULL,
			    strname ? &strf : NULL, prefix);
	prog_fd = load_prog(raw ? BPF_PROG_TYPE_RAW_TRACEPOINT :
			    BPF_PROG_TYPE_TRACEPOINT);

	if (raw)
		link_fd = attach_raw(prog_fd, argv[optind]);
	else
		link_fd = attach_perf(prog_fd, id, attach, &perf_fd);

	if (sched_getaffinity(0, sizeof(mask), &mask)) {
		perror("sched_getaffinity");
		exit(1);
	}
	fire(&mask, argv[optind + 1], argv[optind + 2]);
	if (module) {
		if (syscall(__NR_delete_module, module, O_NONBLOCK))
			printf("unload %s: %s\n", module, errname(errno));
		else
			printf("unload %s: ok\n", module);
		fflush(stdout);
		fire(&mask, argv[optind + 1], argv[optind + 2]);
	}
	if (cmd) {
		fflush(stdout);
		if (system(cmd) == -1) {
			perror("system");
			exit(1);
		}
	}

	for (key = 0; key < 3; key++) {
		__u32 k = key;

		memset(&attr, 0, sizeof(attr));
		attr.map_fd = map_fd;
		attr.key = (__u64)(unsigned long)&k;
		attr.value = (__u64)(unsigned long)&val[key];
		if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr))
			bpf_fail("map lookup");
	}
	printf("cpus %d count %llu sum %lld strings %llu\n", CPU_COUNT(&mask),
	       (unsigned long long)val[0], (long long)val[1],
	       (unsigned long long)val[2]);
	if (link_fd >= 0)
		close(link_fd);
	if (perf_fd >= 0)
		close(perf_fd);
	close(prog_fd);
	close(map_fd);
	return 0;
}
