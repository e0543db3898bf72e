/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_H
#define _LINUX_MARKER_H

/*
 * Kernel markers: static instrumentation points that probes connect to by
 * name.  See Documentation/trace/markers.rst.
 *
 * A marker site is written
 *
 *	MARK(subsys_event, "pid %d comm %s", pid, comm);
 *
 * The format is checked by the compiler against the arguments, which
 * are evaluated only when a probe is connected.  While no
 * probe is connected a site does nothing; once one is, every probe
 * connected to the name is called with the format and a va_list of the
 * arguments.
 */

#include <linux/args.h>
#include <linux/compiler.h>
#include <linux/context_tracking.h>
#include <linux/err.h>
#include <linux/jump_label.h>
#include <linux/marker_types.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/types.h>

struct module;
struct seq_file;

typedef void marker_probe_func(void *probe_private, void *call_private,
			       const char *fmt, va_list *args);

/**
 * struct marker_probe_closure - one connected probe
 * @probe_private: data passed back to @func; first, as the one field a
 *	site reads, at no displacement
 * @func: the probe
 */
struct marker_probe_closure {
	void *probe_private;
	marker_probe_func *func;
};

/**
 * struct marker_probes - an RCU-managed, NULL-terminated probe array
 * @rcu: frees the array once no site can still be reading it
 * @tramp: where the architecture patches calls, a trampoline that calls
 *	   these probes, or 0 (arch_marker_tramp_get())
 * @subset: the array of sites that some of the name's probes leave out
 *	    (kernel/marker.c, struct marker_subset), whose calls go to
 *	    marker_iterate()
 * @format: the format of the markers the array is connected to, or NULL
 *	    while none with a format is; just before @probes, where a site
 *	    that read the array's address reads it
 * @probes: the closures, in registration order, then a NULL @func
 *
 * Written by kernel/marker.c; struct marker points at @probes.
 */
struct marker_probes {
	struct rcu_head rcu;
	unsigned long tramp;
	bool subset;
	const char *format;
	struct marker_probe_closure probes[];
};

/**
 * struct marker - what one MARK() or MARK_ENABLED() expansion knows about
 *	itself
 * @name: the marker's name
 * @format: printf-style format of the arguments; NULL for MARK_ENABLED(),
 *	    which passes no arguments and takes any probe of its name
 * @file: the source file of the expansion, as __FILE__
 * @func: the function it is written in, as __func__
 * @state: non-zero while probes are connected to the expansion (the
 *	   marker has probes and the expansion is among its selected sites,
 *	   marker_select()); tested by the sites that are never patched
 *	   (_trace_mark(), and MARK() with neither arch support nor jump
 *	   labels), and read by the core to choose what each patchable site
 *	   becomes
 * @line: the source line of the expansion
 * @probes: the closures of the probe array (struct marker_probes)
 *	    connected to the expansion, or NULL
 * @key: enabled while probes are connected to the expansion, where sites
 *	 are jump labels (CONFIG_MARKERS_STATIC_KEYS)
 *
 * One per expansion, in the __markers section.  A static inline
 * function inlined in several places has one struct marker and, with arch
 * support, one patchable site per copy in the __marker_sites section.
 * @state and @probes are written by kernel/marker.c only, under its mutex.
 */
struct marker {
	const char *name;
	const char *format;
	const char *file;
	const char *func;
	int state;
	unsigned int line;
	struct marker_probe_closure __rcu *probes;
#ifdef CONFIG_MARKERS_STATIC_KEYS
	struct static_key_false key;
#endif
} __aligned(8);

#ifdef CONFIG_MARKERS

extern struct marker __start___markers[];
extern struct marker __stop___markers[];

#if defined(CONFIG_HAVE_ARCH_MARKERS) || defined(CONFIG_HAVE_ARCH_MARKER_VA)
void marker_run_probes_va(const struct marker *mark, void *call_private,
			  va_list *args);
#else
void marker_run_probes(const struct marker *mark, void *call_private, ...);
#endif
void marker_skip_unwatched(const struct marker *mark);
/**
 * struct marker_hit - a site's call, as the dispatcher of its probes notes it
 * @args: the va_list that the dispatcher passes its probes
 * @ip: the return address of the site's call
 *
 * See kernel/marker.c, "Call sites".
 */
struct marker_hit {
	va_list *args;
	unsigned long ip;
};

DECLARE_PER_CPU(struct marker_hit, marker_hit);
/* On while dispatchers note call sites: marker_note_call_sites(). */
DECLARE_STATIC_KEY_FALSE(marker_call_sites);
void marker_note_call_sites(void);

/**
 * marker_call_site() - the site whose hit a probe handles
 * @args: the va_list the probe got
 * @ip: the probe's return address, _RET_IP_
 *
 * Return: the return address of the site's call of its probes, in the
 * site's function: @ip when the site called the probe directly, or,
 * after marker_note_call_sites(), the one its dispatcher noted.
 *
 * Context: a probe, preemption off.
 */
static __always_inline unsigned long marker_call_site(va_list *args,
						      unsigned long ip)
{
	if (static_branch_unlikely(&marker_call_sites) &&
	    __this_cpu_read(marker_hit.args) == args)
		return __this_cpu_read(marker_hit.ip);
	return ip;
}

/*
 * Whether sites test that RCU watches the CPU before they call probes: where
 * the architecture may run instrumentable code in the idle loop with RCU not
 * watching, and with CONFIG_PROVE_RCU, to catch a MARK() placed where RCU
 * does not watch.  Elsewhere nothing unwatched reaches a site but a CPU
 * going offline, which the core keeps from reading freed probes
 * (kernel/marker.c, "Probe arrays, RCU and locking").
 */
#define MARKER_CHECK_RCU						\
	(!IS_ENABLED(CONFIG_ARCH_WANTS_NO_INSTR) || IS_ENABLED(CONFIG_PROVE_RCU))

/*
 * Whether RCU ignores this CPU (the idle loop, a CPU going offline):
 * where sites test it, probes are not called there.  Preemption off.
 */
static __always_inline bool marker_rcu_ignores_cpu(void)
{
#ifdef CONFIG_CONTEXT_TRACKING_IDLE
	return !rcu_is_watching_curr_cpu();
#else
	return !rcu_is_watching();
#endif
}

#if defined(CONFIG_HAVE_ARCH_MARKERS) || defined(CONFIG_HAVE_ARCH_MARKER_VA)
/*
 * The va_list built as the architecture's sites build it (<asm/marker.h>),
 * so that probes read every site's arguments the same way.
 */
#define __MARK_UNPATCHED_CALL(mark, call_private, args...)		\
	do {								\
		__MARK_VA_DEFINE(args);					\
									\
		marker_run_probes_va(mark, call_private, __MARK_VA_LIST()); \
	} while (0)
#else
#define __MARK_UNPATCHED_CALL(mark, call_private, args...)		\
	marker_run_probes(mark, call_private, ## args)
#endif

/* A site that is never patched: it tests its struct marker in memory. */
#define __MARK_UNPATCHED(name, call_private, format, args...)		\
	do {								\
		__MARK_DEFINE(__marker_##name, #name, btf_trace_##name,	\
			      format, ## args);				\
		if (unlikely(READ_ONCE(__marker_##name.state))) {	\
			__MARK_UNPATCHED_CALL(&__marker_##name,		\
					      call_private, ## args);	\
			/* No tail call: keep the caller's frame. */	\
			barrier();					\
		}							\
	} while (0)

#ifdef KBUILD_BASENAME
#define __MARK_SYM_FILE		KBUILD_BASENAME
#else
#define __MARK_SYM_FILE		"unknown"
#endif

/*
 * MARK_SYM: a local symbol at a site, for kprobes users, defined in asm
 * that the site's own code is next to.  It is __mark.<name>.<file>.<line>;
 * a further copy of the same site in one object (an inlined or cloned
 * function) gets ".<n>" appended, n being unique in the object.  A
 * function symbol of size 0, as tools that probe functions by name take
 * only those; kallsyms names the code around it after its function.  .irp
 * binds the name to \s.
 */
#define __MARK_SYM_DEFINE(namestr)					\
	".irp s," MARK_SYM_PREFIX namestr "." __MARK_SYM_FILE "."	\
	__stringify(__LINE__) "\n\t"					\
	".ifndef \\s\n\t"						\
	".type \\s, STT_FUNC\n\t"					\
	"\\s:\n\t"							\
	".else\n\t"							\
	".type \\s\\().%=, STT_FUNC\n\t"				\
	"\\s\\().%=:\n\t"						\
	".endif\n\t"							\
	".endr\n\t"

/*
 * A site's arguments in 8-byte slots, as C promotes them, where the
 * architecture's va_list reads each variadic argument from a slot of its
 * own (x86-64, arm64): up to 12.
 */
#define __MARK_SLOT(x)		((__force u64)(x))
#define __MARK_SLOTS_0()
#define __MARK_SLOTS_1(a)						\
	[0] = __MARK_SLOT(a)
#define __MARK_SLOTS_2(a, b)						\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b)
#define __MARK_SLOTS_3(a, b, c)						\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c)
#define __MARK_SLOTS_4(a, b, c, d)					\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d)
#define __MARK_SLOTS_5(a, b, c, d, e)					\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e)
#define __MARK_SLOTS_6(a, b, c, d, e, f)				\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e), [5] = __MARK_SLOT(f)
#define __MARK_SLOTS_7(a, b, c, d, e, f, g)				\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e), [5] = __MARK_SLOT(f),			\
	[6] = __MARK_SLOT(g)
#define __MARK_SLOTS_8(a, b, c, d, e, f, g, h)				\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e), [5] = __MARK_SLOT(f),			\
	[6] = __MARK_SLOT(g), [7] = __MARK_SLOT(h)
#define __MARK_SLOTS_9(a, b, c, d, e, f, g, h, i)			\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e), [5] = __MARK_SLOT(f),			\
	[6] = __MARK_SLOT(g), [7] = __MARK_SLOT(h),			\
	[8] = __MARK_SLOT(i)
#define __MARK_SLOTS_10(a, b, c, d, e, f, g, h, i, j)			\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e), [5] = __MARK_SLOT(f),			\
	[6] = __MARK_SLOT(g), [7] = __MARK_SLOT(h),			\
	[8] = __MARK_SLOT(i), [9] = __MARK_SLOT(j)
#define __MARK_SLOTS_11(a, b, c, d, e, f, g, h, i, j, k)		\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e), [5] = __MARK_SLOT(f),			\
	[6] = __MARK_SLOT(g), [7] = __MARK_SLOT(h),			\
	[8] = __MARK_SLOT(i), [9] = __MARK_SLOT(j),			\
	[10] = __MARK_SLOT(k)
#define __MARK_SLOTS_12(a, b, c, d, e, f, g, h, i, j, k, l)		\
	[0] = __MARK_SLOT(a), [1] = __MARK_SLOT(b),			\
	[2] = __MARK_SLOT(c), [3] = __MARK_SLOT(d),			\
	[4] = __MARK_SLOT(e), [5] = __MARK_SLOT(f),			\
	[6] = __MARK_SLOT(g), [7] = __MARK_SLOT(h),			\
	[8] = __MARK_SLOT(i), [9] = __MARK_SLOT(j),			\
	[10] = __MARK_SLOT(k), [11] = __MARK_SLOT(l)
#define __MARK_SLOTS(args...)						\
	CONCATENATE(__MARK_SLOTS_, COUNT_ARGS(args))(args)

#ifdef CONFIG_HAVE_ARCH_MARKERS
static inline unsigned long marker_site_code(const struct marker_site *s)
{
	return (unsigned long)&s->code + s->code;
}

static inline unsigned long marker_site_target(const struct marker_site *s)
{
	return (unsigned long)&s->target + s->target;
}

static inline struct marker *marker_site_marker(const struct marker_site *s)
{
	return (struct marker *)((unsigned long)&s->marker + s->marker);
}

extern struct marker_site __start___marker_sites[];
extern struct marker_site __stop___marker_sites[];

static inline unsigned long marker_probe_call_code(const struct marker_probe_call *c)
{
	return (unsigned long)&c->code + c->code;
}

static inline struct marker *marker_probe_call_marker(const struct marker_probe_call *c)
{
	return (struct marker *)((unsigned long)&c->marker + c->marker);
}

extern struct marker_probe_call __start___marker_calls[];
extern struct marker_probe_call __stop___marker_calls[];

void marker_iterate(void *probe_private, void *call_private, const char *fmt,
		    va_list *args, struct marker_probe_closure *p);
void arch_marker_queue_site(const struct marker_site *s, bool armed);
void arch_marker_queue_call(const struct marker_probe_call *c,
			    unsigned long target);
int arch_marker_apply(void);
unsigned long arch_marker_tramp_get(const struct marker_probe_closure *p,
				    unsigned int nr);
void arch_marker_tramp_put(unsigned long addr);
bool arch_marker_site_armed(const struct marker_site *s);
void arch_marker_lock(void);
void arch_marker_unlock(void);

#include <asm/marker.h>

#else /* !CONFIG_HAVE_ARCH_MARKERS */

/* Sites are jump labels: the jump label code keeps kprobes off them. */
static inline void arch_marker_lock(void)
{
}

static inline void arch_marker_unlock(void)
{
}

#ifdef CONFIG_HAVE_ARCH_MARKER_VA
void marker_iterate(void *probe_private, void *call_private, const char *fmt,
		    va_list *args, struct marker_probe_closure *p);

#include <asm/marker.h>

/*
 * Call the probes of @mark with a va_list that the site builds over its
 * arguments (<asm/marker.h>): the first probe directly while it is the
 * only one, marker_iterate() for several.  No variadic function runs.  A
 * jump label site's marker has an array once its key is on, never NULL
 * after (kernel/marker.c).
 */
#define __MARK_VA_CALL(mark, call_private, args...)			\
	do {								\
		const struct marker *__m = (mark);			\
		void *__cp = (call_private);				\
		struct marker_probe_closure *__p;			\
		__MARK_VA_DEFINE(args);					\
									\
		preempt_disable_notrace();				\
		if (MARKER_CHECK_RCU && unlikely(marker_rcu_ignores_cpu())) { \
			marker_skip_unwatched(__m);			\
		} else {						\
			__p = rcu_dereference_sched(__m->probes);	\
			if (likely(!__p[1].func))			\
				__p->func(__p->probe_private, __cp,	\
					  __m->format, __MARK_VA_LIST()); \
			else						\
				marker_iterate(__p->probe_private, __cp, \
					       __m->format,		\
					       __MARK_VA_LIST(), __p);	\
		}							\
		preempt_enable_notrace();				\
	} while (0)
#else
/* Probes read the arguments with va_arg(). */
static inline bool arch_marker_va_slots(va_list *args,
					const unsigned long **slots)
{
	return false;
}

/* Through the variadic marker_run_probes(). */
#define __MARK_VA_CALL(mark, call_private, args...)			\
	marker_run_probes(mark, call_private, ## args)
#endif

#ifdef CONFIG_MARKERS_STATIC_KEYS
/*
 * A jump label on the marker's key, which the core enables while probes
 * are connected: a NOP until then, as a tracepoint's site.  Its MARK_SYM
 * is on the instruction where the site's two paths join, which every
 * pass runs: kprobes keep off a jump label's own instruction, which the
 * jump label code rewrites under them.
 */
#define __MARK_SITE(name, call_private, format, args...)		\
	do {								\
		__MARK_DEFINE(__marker_##name, #name, btf_trace_##name,	\
			      format, ## args);				\
		if (static_branch_unlikely(&__marker_##name.key)) {	\
			__MARK_VA_CALL(&__marker_##name, call_private,	\
				       ## args);			\
			/* No tail call: keep the caller's frame. */	\
			barrier();					\
		}							\
		asm volatile(__MARK_SYM_DEFINE(#name) : : );		\
	} while (0)

#define __MARK_ENABLED(name)						\
	({								\
		__MARK_DEFINE_ENABLED(__marker_enabled_##name, #name);	\
		static_branch_unlikely(&__marker_enabled_##name.key);	\
	})
#else
/* No jump labels either: the site tests its struct marker in memory. */
#define __MARK_SITE(name, call_private, format, args...)		\
	__MARK_UNPATCHED(name, call_private, format, ## args)

#define __MARK_ENABLED(name)						\
	({								\
		__MARK_DEFINE_ENABLED(__marker_enabled_##name, #name);	\
		unlikely(READ_ONCE(__marker_enabled_##name.state));	\
	})
#endif

#endif /* CONFIG_HAVE_ARCH_MARKERS */

/* The metadata of one expansion. */
#ifdef CONFIG_MARKERS_STATIC_KEYS
#define __MARK_KEY_INIT		.key = STATIC_KEY_FALSE_INIT,
#else
#define __MARK_KEY_INIT
#endif

/* Where the expansion is, for marker_select(). */
#define __MARK_WHERE_INIT						\
	.file = __FILE__, .func = __func__, .line = __LINE__,

/*
 * The prototype of the probes of a marker as BPF sees it: pahole carries
 * this typedef into BTF, where tp_btf programs find it by the name a
 * tracepoint's has (btf_trace_<name>, include/trace/bpf_probe.h).  After
 * the context pointer, its parameters have the types of the site's
 * arguments as C promotes them for the va_list.  The cast keeps it in the
 * debug information, which leaves out a local typedef that nothing uses.
 * It adds no code or data.
 */
#define __MARK_BTF_T(x)		__typeof__(0 ? (x) : 0)
#define __MARK_BTF_PARAMS_0()		void *__data
#define __MARK_BTF_PARAMS_1(a)		void *__data, __MARK_BTF_T(a)
#define __MARK_BTF_PARAMS_2(a, b)					\
	void *__data, __MARK_BTF_T(a), __MARK_BTF_T(b)
#define __MARK_BTF_PARAMS_3(a, b, c)					\
	void *__data, __MARK_BTF_T(a), __MARK_BTF_T(b), __MARK_BTF_T(c)
#define __MARK_BTF_PARAMS_4(a, b, c, d)					\
	void *__data, __MARK_BTF_T(a), __MARK_BTF_T(b),			\
	__MARK_BTF_T(c), __MARK_BTF_T(d)
#define __MARK_BTF_PARAMS_5(a, b, c, d, e)				\
	void *__data, __MARK_BTF_T(a), __MARK_BTF_T(b),			\
	__MARK_BTF_T(c), __MARK_BTF_T(d), __MARK_BTF_T(e)
#define __MARK_BTF_PARAMS_6(a, b, c, d, e, f)				\
	void *__data, __MARK_BTF_T(a), __MARK_BTF_T(b),			\
	__MARK_BTF_T(c), __MARK_BTF_T(d), __MARK_BTF_T(e),		\
	__MARK_BTF_T(f)
#define __MARK_BTF_PARAMS_7(a, b, c, d, e, f, g)			\
	void *__data, __MARK_BTF_T(a), __MARK_BTF_T(b),			\
	__MARK_BTF_T(c), __MARK_BTF_T(d), __MARK_BTF_T(e),		\
	__MARK_BTF_T(f), __MARK_BTF_T(g)
#define __MARK_BTF_PARAMS_8(a, b, c, d, e, f, g, h)			\
	void *__data, __MARK_BTF_T(a), __MARK_BTF_T(b),			\
	__MARK_BTF_T(c), __MARK_BTF_T(d), __MARK_BTF_T(e),		\
	__MARK_BTF_T(f), __MARK_BTF_T(g), __MARK_BTF_T(h)
#define __MARK_BTF_PARAMS_9(a, b, c, d, e, f, g, h, i)			\
	void *__data, __MARK_BTF_T(a), __MARK_BTF_T(b),			\
	__MARK_BTF_T(c), __MARK_BTF_T(d), __MARK_BTF_T(e),		\
	__MARK_BTF_T(f), __MARK_BTF_T(g), __MARK_BTF_T(h),		\
	__MARK_BTF_T(i)
#define __MARK_BTF_PARAMS_10(a, b, c, d, e, f, g, h, i, j)		\
	void *__data, __MARK_BTF_T(a), __MARK_BTF_T(b),			\
	__MARK_BTF_T(c), __MARK_BTF_T(d), __MARK_BTF_T(e),		\
	__MARK_BTF_T(f), __MARK_BTF_T(g), __MARK_BTF_T(h),		\
	__MARK_BTF_T(i), __MARK_BTF_T(j)
#define __MARK_BTF_PARAMS_11(a, b, c, d, e, f, g, h, i, j, k)		\
	void *__data, __MARK_BTF_T(a), __MARK_BTF_T(b),			\
	__MARK_BTF_T(c), __MARK_BTF_T(d), __MARK_BTF_T(e),		\
	__MARK_BTF_T(f), __MARK_BTF_T(g), __MARK_BTF_T(h),		\
	__MARK_BTF_T(i), __MARK_BTF_T(j), __MARK_BTF_T(k)
#define __MARK_BTF_PARAMS_12(a, b, c, d, e, f, g, h, i, j, k, l)	\
	void *__data, __MARK_BTF_T(a), __MARK_BTF_T(b),			\
	__MARK_BTF_T(c), __MARK_BTF_T(d), __MARK_BTF_T(e),		\
	__MARK_BTF_T(f), __MARK_BTF_T(g), __MARK_BTF_T(h),		\
	__MARK_BTF_T(i), __MARK_BTF_T(j), __MARK_BTF_T(k),		\
	__MARK_BTF_T(l)
#define __MARK_BTF(type, args...)					\
	typedef void (*type)(						\
		CONCATENATE(__MARK_BTF_PARAMS_, COUNT_ARGS(args))(args)); \
	(void)(type)NULL

/*
 * The name and format are kept together in __markers_strings,
 * "name\0format\0", which modpost reads to write Module.markers: every
 * marker the kernel registers, by the strings it registers it with.  The
 * format is a string literal; the compiler checks the arguments against
 * it there.
 */
#define __MARK_DEFINE(var, mname, btfname, mformat, args...)		\
	static const char var##_strings[] __used __aligned(1)		\
	__section("__markers_strings") = mname "\0" mformat;		\
	static struct marker var __used __aligned(8)			\
	__section("__markers") = {					\
		.name = var##_strings,					\
		.format = var##_strings + sizeof(mname),		\
		__MARK_WHERE_INIT					\
		__MARK_KEY_INIT						\
	};								\
	__MARK_BTF(btfname, ## args);					\
	if (0)								\
		__marker_check_format(var##_strings + sizeof(mname),	\
				      ## args)

/* The metadata of one MARK_ENABLED() expansion: no format, no arguments. */
#define __MARK_DEFINE_ENABLED(var, mname)				\
	static struct marker var __used __aligned(8)			\
	__section("__markers") = {					\
		.name = mname,						\
		__MARK_WHERE_INIT					\
		__MARK_KEY_INIT						\
	}

/**
 * __MARK() - a marker site, with caller-supplied private data
 * @name: the marker's name, a C identifier
 * @call_private: passed to every probe as call_private
 * @format: printf-style format describing the arguments
 */
#define __MARK(name, call_private, format, args...)			\
	__MARK_SITE(name, call_private, format, ## args)

/**
 * _trace_mark() - a marker site that is never patched
 * @name: the marker's name, a C identifier
 * @format: printf-style format describing the arguments
 *
 * Tests a flag in memory instead of being a patchable instruction; for
 * code that must not be written to, such as __init and __exit code.
 */
#define _trace_mark(name, format, args...)				\
	__MARK_UNPATCHED(name, NULL, format, ## args)

int marker_probe_register(const char *name, const char *format,
			  marker_probe_func *probe, void *probe_private);
int marker_probe_register_selector(const char *name, const char *format,
				   marker_probe_func *probe,
				   void *probe_private, const void *selector);
int marker_probe_unregister(const char *name, marker_probe_func *probe,
			    void *probe_private);
int marker_probe_unregister_private_data(marker_probe_func *probe,
					 void *probe_private);
void *marker_get_private_data(const char *name, marker_probe_func *probe,
			      int num);
void marker_synchronize_unregister(void);
int marker_select(const char *name, const char *query);
int marker_select_show(struct seq_file *f, const void *selector);
struct notifier_block;
int register_marker_module_notifier(struct notifier_block *nb);
#ifdef CONFIG_HAVE_ARCH_MARKERS
void marker_free_init_mem(void);
#else
/* Jump labels keep off freed init text, and a flag test writes none. */
static inline void marker_free_init_mem(void)
{
}
#endif

#else /* !CONFIG_MARKERS */

/* Checked as with CONFIG_MARKERS, evaluated never. */
#define __MARK(name, call_private, format, args...)			\
	do {								\
		if (0) {						\
			(void)#name;					\
			(void)(call_private);				\
			__marker_check_format(format, ## args);		\
		}							\
	} while (0)
#define _trace_mark(name, format, args...)				\
	__MARK(name, NULL, format, ## args)
#define __MARK_ENABLED(name)	((void)#name, false)

static inline int marker_probe_register(const char *name, const char *format,
					marker_probe_func *probe,
					void *probe_private)
{
	return -EOPNOTSUPP;
}

static inline int marker_probe_register_selector(const char *name,
						 const char *format,
						 marker_probe_func *probe,
						 void *probe_private,
						 const void *selector)
{
	return -EOPNOTSUPP;
}

static inline int marker_probe_unregister(const char *name,
					  marker_probe_func *probe,
					  void *probe_private)
{
	return -EOPNOTSUPP;
}

static inline int marker_probe_unregister_private_data(marker_probe_func *probe,
						       void *probe_private)
{
	return -EOPNOTSUPP;
}

static inline void *marker_get_private_data(const char *name,
					    marker_probe_func *probe, int num)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline void marker_synchronize_unregister(void)
{
}

static inline int marker_select(const char *name, const char *query)
{
	return -EOPNOTSUPP;
}

static inline void marker_free_init_mem(void)
{
}

#endif /* CONFIG_MARKERS */

/* Called by kprobes; sites exist only where they are patched. */
#if defined(CONFIG_MARKERS) && defined(CONFIG_HAVE_ARCH_MARKERS)
int marker_text_reserved(void *start, void *end);
unsigned long marker_site_target_at(void *addr);
#else
static inline int marker_text_reserved(void *start, void *end)
{
	return 0;
}

static inline unsigned long marker_site_target_at(void *addr)
{
	return 0;
}
#endif

/*
 * BPF raw_tp and tp_btf programs on markers: the BPF syscall and verifier
 * call these for a name without a tracepoint (kernel/trace/marker_bpf.c).
 */
struct bpf_raw_tp_link;
struct btf;
#if defined(CONFIG_MARKER_EVENTS) && defined(CONFIG_BPF_EVENTS)
int bpf_marker_check_btf(const struct btf *btf, u32 btf_id, const char *name);
int bpf_marker_attach(struct bpf_raw_tp_link *link, const char *name);
void bpf_marker_detach(struct bpf_raw_tp_link *link);
const char *bpf_marker_name(const struct bpf_raw_tp_link *link);
/* As many as a tracepoint gives its raw tracepoint programs. */
#define MARKER_BPF_MAX_ARGS	12
void bpf_marker_fetch(const struct bpf_raw_tp_link *link, va_list *args,
		      u64 *v);
/* In kernel/trace/bpf_trace.c: the probe that runs a program. */
void bpf_trace_run_marker(void *probe_private, void *call_private,
			  const char *fmt, va_list *args);
#else
static inline int bpf_marker_check_btf(const struct btf *btf, u32 btf_id,
				       const char *name)
{
	return -ENOENT;
}

static inline int bpf_marker_attach(struct bpf_raw_tp_link *link,
				    const char *name)
{
	return -ENOENT;
}

static inline void bpf_marker_detach(struct bpf_raw_tp_link *link)
{
}

static inline const char *bpf_marker_name(const struct bpf_raw_tp_link *link)
{
	return NULL;
}
#endif

static inline __printf(1, 2) void __marker_check_format(const char *fmt, ...)
{
}

/**
 * MARK() - a marker site
 * @name: the marker's name, a C identifier
 * @format: printf-style format describing the arguments
 *
 * Costs a NOP (a load and a branch where there are neither arch sites
 * nor jump labels) while no probe is connected to @name.
 */
#define MARK(name, format, args...) __MARK(name, NULL, format, ## args)

/**
 * MARK_ENABLED() - whether a probe is connected to a marker
 * @name: the marker's name, a C identifier
 *
 * For arguments that cost something to prepare, which only a probe reads::
 *
 *	if (MARK_ENABLED(subsys_event)) {
 *		summarize(obj, &sum);
 *		MARK(subsys_event, "sum %lu", sum);
 *	}
 *
 * True exactly while a probe is connected to @name, as
 * trace_<name>_enabled() is for a tracepoint.  It is a site of its own,
 * set with the marker's other sites: a NOP while no probe is connected
 * where the architecture patches sites or has jump labels, a load and a
 * branch elsewhere.  Always false without CONFIG_MARKERS.
 */
#define MARK_ENABLED(name) __MARK_ENABLED(name)

/*
 * MARK_NOARGS - the format of a marker without arguments, as in
 * MARK(name, MARK_NOARGS)
 */
#define MARK_NOARGS " "

/* trace_mark() - the 2.6.24-2.6.31 name of MARK() */
#define trace_mark(name, format, args...) MARK(name, format, ## args)

#endif /* _LINUX_MARKER_H */
