/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _X86_KERNEL_MARKER_KUNIT_H
#define _X86_KERNEL_MARKER_KUNIT_H

/*
 * What the x86 marker KUnit suites share (marker_kunit_util.c): the
 * markers they pass and their probes, the passer held at a site being
 * patched (the hold test) and its registers (the held test), and the
 * kthreads that pass sites in loops.
 */

#include <kunit/test.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/marker.h>
#include <linux/marker_test.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <asm/nops.h>
#include <asm/text-patching.h>

/*
 * markers_x86_site and its probe: a site at rest and armed, kprobes on
 * and next to a site, the call of its probes, and a marker passed in NMI
 * context.
 */
struct mkt_site_log {
	int calls;
	int arg;
	bool in_nmi;
};

void mkt_probe_site(void *probe_private, void *call_private,
		    const char *fmt, va_list *args);
void mkt_pass_site(int v);
int mkt_site_connect(struct mkt_site_log *l);
int mkt_site_disconnect(struct mkt_site_log *l);

/* Until kthread_stop(): the end of every kthread body here. */
static inline int mkt_park(void)
{
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

#ifdef CONFIG_HAVE_ARCH_MARKERS
#define HOLD_MAGIC	0x5eedUL

/* 20 sites of markers_x86_batch, and their 20 calls: one chunk. */
#define BATCH_SITES	20

/* Every call of mkt_probe_count(), and those with a bad argument. */
extern atomic_long_t mkt_probe_hits;
extern atomic_long_t mkt_probe_bad;

void mkt_probe_count(void *probe_private, void *call_private,
		     const char *fmt, va_list *args);
void mkt_pass_hold(void);

extern atomic_long_t mkt_kprobe_hits;

int mkt_count_kprobe(struct kprobe *p, struct pt_regs *regs);
struct kprobe *mkt_site_kprobe(struct kunit *test, const struct marker_site *s);

int mkt_sites_get(const char *name, const struct marker_site **v, int max);
void mkt_poke_byte(const struct marker_site *s, u8 byte);
bool mkt_spin_until(bool (*cond)(void), int ms);
bool mkt_sleep_until(bool (*cond)(void), int ms);
bool mkt_one_held(void);

static inline bool mkt_sites_armed(const struct marker_site **v, int n,
				   bool armed)
{
	int i;

	for (i = 0; i < n; i++)
		if (arch_marker_site_armed(v[i]) != armed)
			return false;
	return true;
}

/* The bytes of @s armed (a jmp to its block) or not (a 5-byte NOP). */
static inline void mkt_site_bytes(const struct marker_site *s, bool armed,
				  u8 *insn)
{
	if (armed)
		__text_gen_insn(insn, JMP32_INSN_OPCODE,
				(void *)marker_site_code(s),
				(void *)marker_site_target(s), JMP32_INSN_SIZE);
	else
		memcpy(insn, x86_nops[MARKER_SITE_SIZE], MARKER_SITE_SIZE);
}

/* Tasks waiting at a site right now. */
static inline int mkt_holding(void)
{
	struct marker_hold_stats st;

	marker_x86_hold_stats(&st);
	return st.holding;
}

/*
 * The hold test: the patcher, stopped by the step hook, lets a passer on
 * another CPU meet markers_x86_hold, and records what it sees at each
 * step.
 */
struct mkt_hold {
	struct kunit *test;
	const struct marker_site *site;
	bool armed;		/* the state being patched to */
	bool owner_pass;	/* pass on the patching CPU at step 1 */
	bool late;		/* trap twice on the passer's CPU at step 3 */
	int cpu;		/* the passer's CPU */
	bool late_handled[2];
	unsigned long late_ip[2];
	int go;
	int passed;
	bool fake;		/* the passer calls the handler itself */
	struct pt_regs regs;	/* with these registers, returned here */
	unsigned long stack[8];	/* and this stack */
	bool handled;
	void (*at_step2)(void);	/* run at step 2, a task held */
	int held[4];		/* a CPU was held after step n */
	u8 bytes[4][MARKER_SITE_SIZE];
	long hits_at_owner_pass;
};

/* How mkt_hold_run() passes the site; NULL: a real pass, nothing more. */
struct mkt_hold_opts {
	bool owner_pass;	/* pass on the patching CPU at step 1 too */
	bool late;		/* two traps after release on the passer's CPU */
	bool fake;		/* a trap from a preemptible context instead */
	unsigned long fake_flags;	/* more flags in the fake trap */
	void (*at_step2)(void);	/* instead of waiting 10 ms at step 2 */
};

extern struct mkt_hold mkt_ht;

void mkt_hold_run(struct kunit *test, bool armed,
		  const struct mkt_hold_opts *o);
int mkt_hold_init(struct kunit *test);
void mkt_hold_exit(struct kunit *test);

/*
 * The held tests: a passer held at markers_x86_held, then preempted,
 * migrated or kept off its CPU, must resume with every register intact.
 */
struct mkt_held {
	struct task_struct *passer;
	struct task_struct *helper;
	int patcher;		/* the patching CPU */
	int first;		/* where the passer meets the site */
	int second;		/* where it is moved to, or a hog runs */
	int go;			/* the passer may pass */
	int passed;
	u64 seed;
	u64 result;
	int probe_cpu;		/* where the probe last ran */
	atomic_t probe_calls;
	int act;		/* the helper may act */
	int acted;		/* the helper has acted */
	int hog_stop;
	unsigned long want_holds;	/* holds since boot, awaited */
	int chunks_held;	/* chunks in which the passer was held anew */
	int hog_missed;		/* steps at which the hog did not take over */
	bool ok_step;		/* the step hook saw what it waited for */
	bool ok_rearm;
};

extern struct mkt_held mkt_hd;

u64 mkt_pass_held(u64 x, bool pass);
void mkt_probe_held(void *probe_private, void *call_private,
		    const char *fmt, va_list *args);
int mkt_held_passer(void *data);
bool mkt_held_passed(void);
int mkt_held_start(struct kunit *test, const struct marker_site **s);
void mkt_held_stop(struct kunit *test);

/*
 * A kthread body (mkt_loop_thread(), its data a struct mkt_loop) that
 * runs @round until *@stop, with a cond_resched() every @every rounds (a
 * power of 2), adds the rounds it ran to *@rounds if given, and waits
 * for kthread_stop().
 */
struct mkt_loop {
	void (*round)(void);
	const int *stop;
	unsigned int every;
	atomic_long_t *rounds;
};

int mkt_loop_thread(void *data);
struct task_struct *mkt_thread_on(int (*fn)(void *data), void *data,
				  unsigned int cpu, const char *namefmt);
void mkt_threads_stop(struct task_struct **t, unsigned int n);
#endif /* CONFIG_HAVE_ARCH_MARKERS */

#endif /* _X86_KERNEL_MARKER_KUNIT_H */
