// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 marker sites and the calls in their out-of-line blocks, changed
 * live as text_poke_bp() changes text.  The DOC comments below are the
 * design; the code cites their invariants (I1-I7) and waits (W1-W5).
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/atomic.h>
#include <linux/bsearch.h>
#include <linux/cpu.h>
#include <linux/kmsan.h>
#include <linux/kprobes.h>
#include <linux/marker.h>
#include <linux/marker_test.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/processor.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/rt.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <asm/alternative.h>
#include <asm/debugreg.h>
#include <asm/sections.h>
#include <asm/text-patching.h>
#include <kunit/visibility.h>

/**
 * DOC: x86-64 sites
 *
 * A MARK() site is a 5-byte NOP (BYTES_NOP5) emitted by asm goto and
 * recorded in __marker_sites with its out-of-line block and struct marker.
 * A marker's first probe arms every site of its name into a jmp rel32 to
 * the block; its last probe going disarms them back into the NOP.  A
 * MARK_ENABLED() site is the same NOP; its block is the test's true branch.
 *
 * The block calls no variadic function.  It stores the arguments, as C
 * promotes them, in up to 12 8-byte slots in the caller's frame, under a
 * va_list whose general register area is used up, so that every va_arg()
 * reads the next slot (the x86-64 ABI's overflow area).  With preemption
 * off it reads the marker's probe array, never NULL once the site was
 * armed, and makes a direct call, recorded in __marker_calls, passing the
 * first closure's probe_private, the site's call_private, the format in
 * the array's header (the name's one format) and the va_list.
 * kernel/marker.c points the call at the probe itself for one probe, at a
 * trampoline (marker_tramps.S, marker_tramp.c) for two to four, and at
 * marker_iterate() otherwise ("Pointing calls at probes").
 * A trampoline calls each probe directly with its probe_private an
 * immediate, puts the va_list back to the first slot between them and
 * jumps to the last; marker_iterate() does the same for the array the
 * site read.  The block tests nothing else: where RCU does not
 * watch, only a CPU going offline may run it, which kernel/marker.c
 * provides for; with CONFIG_PROVE_RCU it tests RCU first and calls
 * marker_skip_unwatched() instead where it does not watch.
 *
 * With call depth tracking (retbleed=stuff), a call goes, as a static
 * call's does, through the target's accounting thunk
 * (callthunks_translate_call_dest()), so that the probe returns to the
 * depth it was called at.  objtool follows each site to its block, so the
 * block has ORC data and a stack trace taken in a probe unwinds through
 * the instrumented function to its callers.  kprobes keep off the calls
 * and off bytes 1-4 of every site (marker_text_reserved()); for byte 0,
 * see "A site under a kprobe".
 */

/**
 * DOC: Patching live sites
 *
 * Sites and calls change in chunks of up to MARKER_CHANGE_MAX (512)
 * instructions: 256 sites and their calls, as many sites as
 * text_poke_bp_batch() changes at once (TP_VEC_MAX, a page of entries).
 * With markers_mutex, kprobe_mutex (kprobe_text_lock()), the CPU hotplug
 * lock and text_mutex held, in that order (kprobes' own), a chunk is
 * written in three steps::
 *
 *	1. int3 on byte 0 of every instruction of the chunk;   sync
 *	2. the new bytes 1-4 of every instruction;              sync
 *	3. the new byte 0 of every instruction; release;        sync
 *
 * A sync is text_poke_sync(): an IPI running sync_core() on every online
 * CPU, waited for with interrupts on and preemption off.  A chunk's window
 * runs from its publication in marker_desc to the end of its last sync.
 * The patcher is preemptible throughout, as text_poke_bp()'s is:
 * text_poke() takes sleeping locks on PREEMPT_RT.  Arming a marker of n
 * sites with one probe changes n sites and n calls in 3 x ceil(2n / 512)
 * syncs; pointing its calls elsewhere takes 3 x ceil(n / 512).
 *
 * A CPU that meets an int3 of the chunk enters marker_int3_handler(),
 * which exc_int3() calls right after poke_int3_handler(), for the same
 * reason (such an int3 may be met anywhere), and before
 * irqentry_nmi_enter(), as the trapped task's own preempt count says
 * whether it may wait.  The handler is noinstr, calls nothing out of line
 * and takes no lock: it takes a reference on the chunk (I2) and finds the
 * address among its sorted instructions by binary search.  An int3 it
 * does not find goes on to kprobes and die(), as without markers.  Then:
 *
 * - if the trapped context may wait (below), the task is held.  In the
 *   6-word gap that the x86-64 int3 entry leaves below the trapped stack
 *   for int3_emulate_call(), the handler writes an interrupt frame whose
 *   RIP is the site and whose RSP, RFLAGS, CS and SS are the trapped ones,
 *   and below it the chunk's number, as orig_ax, then returns into
 *   marker_hold_thunk (marker_hold.S): to the unwinder, the task was
 *   interrupted at the site.  RF is set in that RFLAGS only if an execute
 *   breakpoint of this CPU on the site fired before the int3, lest it fire
 *   twice for one pass; one armed while the task waits, or on the CPU it
 *   resumes on, fires as the site runs.  The thunk saves a struct pt_regs
 *   and points the frame pointer at it, encoded as by the entry code: the
 *   frame pointer unwinder too sees an interrupted task, and a reliable
 *   stack trace fails, as for any task stopped in an interrupt.  It calls
 *   marker_hold_wait() (W1), pops the registers with interrupts off, lest
 *   an interrupt's frame land on words that the unwinder, by the thunk's
 *   ORC data, still reads, and returns to the site with IRET, which turns
 *   them back on;
 * - anywhere else, the new instruction is emulated, as by text_poke_bp():
 *   a jump to the block when arming, to the next instruction when
 *   disarming, a call of the new target for a call.
 *
 * Either way the new instruction runs once per pass; no pass is lost or
 * doubled.
 *
 * Where a task may wait (I5): where the kernel could have preempted it,
 * and where the thunk, instrumented C, may run (marker_may_hold(),
 * marker_hold_supported(), marker_text_may_hold()); elsewhere every hit
 * is emulated:
 *
 * - interrupts on in the trapped flags: code that turned them off may be
 *   neither preempted nor run with them on;
 * - preempt_count() 0: no spinlock, raw or bit spinlock, seqcount writer
 *   or other preempt-off section, no softirq, hardirq or NMI context;
 * - CONFIG_PREEMPTION, whatever preempt= says at boot: a kernel built
 *   without it (PREEMPT_NONE or PREEMPT_VOLUNTARY, even with the preempt
 *   count of DEBUG_ATOMIC_SLEEP) assumes that nothing stops where it put
 *   no cond_resched(); ftrace, for one, then skips synchronize_rcu_tasks();
 * - AC and TF clear in the trapped flags: the thunk's C code must neither
 *   run with SMAP lifted nor be single-stepped;
 * - RCU watching: kprobes and tracers may run in the thunk's C code;
 * - a task of the fair classes, not boosted by priority inheritance, for
 *   the whole wait (W1): the patcher may be preempted, and a real-time or
 *   deadline task waiting for it would run in its place for good;
 * - not text that must call no instrumented code: vmlinux's noinstr text
 *   (.cpuidle.text included) and entry text, a module's noinstr text;
 *   the patcher asks this of each instruction as it queues it;
 * - not the patcher itself, which would wait for its own release;
 * - not with FRED, whose events return with ERETS, which restores what
 *   the frame says of the trapped context beyond its registers (stack
 *   level, STI and NMI blocking), as the hold's IRET does not; not in a
 *   Xen PV guest, whose kernel runs in ring 3 under frames that say ring 0
 *   and returns from traps through the hypervisor (xen_iret): an IRET to
 *   such a frame faults.
 *
 * Why hold at all?  Not for correctness: text_poke_queue() and
 * text_poke_finish() never wait, they emulate every hit, and a NOP or a
 * jmp is emulated exactly.  A hold is the SDM's own cross-modifying-code
 * algorithm (Vol. 3A, 8.1.3: wait for a flag, serialize, run the modified
 * code): the held task runs the new instruction from memory, so its first
 * pass after the change is the real instruction (as Intel PT or the LBRs
 * record it and a debugger single-steps it), not an emulated jump.  It
 * costs the held task's own time (W1); no other CPU waits for it (I6).
 *
 * A site under a kprobe.  A kprobe may sit on a site's byte 0, its
 * MARK_SYM symbol; x86 kprobes emulate the site, NOP or jmp, from the
 * kprobe's saved opcode (kprobe_emulate_marker()).  Under kprobe_mutex the
 * patcher leaves an armed kprobe's int3 on byte 0 (kprobe_armed_at()),
 * writes bytes 1-4 behind it (no CPU runs them past the int3), records
 * the write for Intel PT decoders (perf_event_text_poke(), as for every
 * write to a site), syncs, so that they are in place before the kprobe
 * could ever put byte 0 back, then switches the kprobe's saved opcode
 * (kprobe_update_opcode()); no task is held, no chunk used.  A disabled
 * kprobe has no int3 there: the site changes as any other and the kprobe
 * gets the new opcode, so that enabling it puts its int3 over the right
 * instruction; an int3 under a disabled kprobe is someone else's, and the
 * site is refused (I4).  A kprobe going away puts back the byte 0 that
 * the site has then.
 */

/**
 * DOC: Invariants, waits and windows
 *
 * I1
 *   Every write to a chunk's instructions is followed by a sync before the
 *   chunk ends: write, sync, write, sync, write, sync, nothing after.
 * I2
 *   The descriptor is published (refs = 1, then a write barrier) before
 *   the first int3; the handler reads it after a read barrier, only while
 *   it holds a reference, which it holds with interrupts off; the patcher
 *   changes it again only after the last sync and refs dropping to 0
 *   (text_poke_bp()'s bp_desc discipline).  Held tasks take no reference:
 *   they read only the chunk's number and release flag, which the patcher
 *   writes with release stores.
 * I3
 *   Only text that exists is written ("Init text", kernel/marker_patch.c).
 * I4
 *   A site's bytes are checked before it is written.  Anything but its old
 *   or new state (another patcher's bytes, an int3 no armed kprobe owns) is
 *   left alone, with a log line; the registration that wanted it armed
 *   fails with -EINVAL and connects nothing.  A call must be a call.
 * I5
 *   A task is held only where it trapped in a context that could be
 *   preempted ("Where a task may wait").
 * I6
 *   No CPU ever waits with interrupts off because of a hold (W2).
 * I7
 *   A call in a module's init text that is no longer written calls
 *   marker_iterate(), which calls the probes the site reads, never a
 *   probe chosen earlier ("Modules and init text", kernel/marker.c).
 *
 * Every wait, and what ends it:
 *
 * W1
 *   A held task spins, interrupts on and preemptible, until it runs after
 *   its chunk's release (the release flag, or a later chunk's start, which
 *   follows the last sync).  Interrupts, preemption and migration do not
 *   matter: it reads only the chunk's number and release flag and writes
 *   nothing that others read.  Its IRET then serializes on the CPU it
 *   returns on, which runs the site as it is: the new instruction, or a
 *   later chunk's int3, a new hit that does not prolong this wait.  It
 *   also stops as soon as it runs as a real-time or deadline task, raised
 *   while it waited (priority inheritance on an rt_mutex, a PREEMPT_RT
 *   spinlock_t included, RCU priority boosting, sched_setscheduler()), as
 *   it would spin ahead of a patcher that may have no other CPU: it traps
 *   again and is emulated.  The patcher writes the release after two syncs
 *   and the byte-0 writes, and waits for nothing a held task owns; a held
 *   task that preempts it is of a fair class, so the scheduler gives the
 *   patcher its CPU back.  A hold thus lasts at most the rest of its chunk
 *   plus the task's wait for a CPU, however often the site changes.
 * W2
 *   A sync waits, interrupts on, for every online CPU to take its IPI; a
 *   held task's CPU has interrupts on and takes it.  A CPU with interrupts
 *   off waits, if at all, for something a non-preemptible context owns (a
 *   spinlock, a seqcount writer, an IPI's completion): the kernel never
 *   spins with interrupts off for a preemptible context, which a held task
 *   is (I5), so a held task owns nothing such a CPU waits for.  Those
 *   waits end without the hold, and the sync with them.
 * W3
 *   The patcher waits for refs to drop to 0 at the end of a chunk; the
 *   handler holds its reference with interrupts off and waits for nothing.
 * W4
 *   marker_int3_handler() waits for nothing: it holds or emulates.
 * W5
 *   Other tasks on a held task's CPU wait as for a task not yet preempted.
 *   With preempt=none or voluntary (PREEMPT_DYNAMIC), marker_hold_wait()
 *   calls _cond_resched(), which schedules as a preemption would, the task
 *   staying runnable, so a held task keeps others off its CPU no longer
 *   than a preemptible kernel would.  Not cond_resched(): its might-sleep
 *   check would report RCU read-side critical sections, which a
 *   preemptible kernel, and so a hold, may preempt.
 *
 * Windows without preemption: each text_poke(), a copy of up to 4 bytes
 * with interrupts off (the temporary mm switched in and out); each sync,
 * with interrupts on, until every online CPU has run the IPI (W2);
 * marker_int3_handler(), with interrupts off as the trap left them: a
 * binary search of at most 512 instructions, then a frame or an
 * emulation; the thunk from its cli to its IRET: 15 pops.  The patcher is
 * preemptible between these, and a held task throughout its wait.
 *
 * No CPU runs a torn instruction.  Bytes 1-4 are written only after step
 * 1's sync, so every CPU that fetches the instruction from then on finds
 * the int3 and never decodes them; byte 0 changes only after step 2's
 * sync, once every CPU has serialized after the new bytes 1-4.  A CPU
 * runs the whole old instruction, the int3, or the whole new instruction,
 * by the SDM's rules for cross-modifying code, as for text_poke_bp(),
 * which uses the same steps.
 *
 * Every int3 of a chunk reaches it.  A CPU trapping on one has interrupts
 * off until the handler returns, and the chunk's last sync needs that CPU
 * to take the IPI: the chunk and its descriptor outlive every trap on its
 * int3s.  A CPU that fetched an int3 before byte 0 was final traps after
 * the release, into the same chunk, and is emulated.  So no hook after
 * the handler is needed, as none is for text_poke_bp().
 */

/**
 * struct marker_poke - one instruction being changed: a site, or a call
 * @addr: the instruction
 * @next: where the new instruction goes: for a site, the out-of-line block
 *	  when armed, the next instruction when disarmed; for a call, the
 *	  function called
 * @call: whether it is a call (a site is a jmp or a NOP)
 * @hold: whether a task may wait for it (marker_text_may_hold())
 * @old: its byte 0 before
 * @new: its bytes after
 */
struct marker_poke {
	unsigned long addr;
	unsigned long next;
	bool call;
	bool hold;
	u8 old;
	u8 new[MARKER_SITE_SIZE];
};

/**
 * struct marker_poke_desc - the chunk being changed
 * @vec: its instructions, sorted by address while @refs is not 0
 * @nr: how many
 * @released: set once every new byte 0 is written: its held tasks return
 * @seq: counts chunks: a held task waits for the one it trapped in
 * @patcher: the task writing them, which must never wait for itself
 * @refs: 1 for the patcher, plus 1 per CPU looking at @vec
 * @err: -EINVAL once an instruction was refused since the last
 *	 arch_marker_apply()
 *
 * arch_marker_lock() keeps one patcher from its first queued instruction
 * to arch_marker_apply(); text_mutex is held wherever the fields change.
 * The handler and held tasks read them as I2 says.
 */
static struct marker_poke_desc {
	struct marker_poke vec[MARKER_CHANGE_MAX];
	unsigned int nr;
	int released;
	unsigned long seq;
	struct task_struct *patcher;
	atomic_t refs;
	int err;
} marker_desc;

/*
 * For marker_x86_hold_stats(), with CONFIG_MARKERS_STATS, which the KUnit
 * tests and the benchmark select; without it the helpers are no-ops.
 */
static atomic_long_t marker_holds;
static atomic_long_t marker_emulated;
static atomic_long_t marker_syncs;
static atomic_long_t marker_late_hits;
static atomic_long_t marker_abandoned;
static atomic_t marker_holding;
static atomic64_t marker_max_hold;
static u64 marker_max_window;		/* text_mutex */
static u64 marker_max_sync;		/* text_mutex */
static u64 marker_max_poke;		/* text_mutex */

static __always_inline void marker_stat_inc(atomic_long_t *v)
{
	if (IS_ENABLED(CONFIG_MARKERS_STATS))
		raw_atomic_long_inc(v);
}

static __always_inline u64 marker_stat_clock(void)
{
	return IS_ENABLED(CONFIG_MARKERS_STATS) ? local_clock() : 0;
}

/* Keep the time since @start in @max if it is longer: under text_mutex. */
static __always_inline void marker_stat_max(u64 *max, u64 start)
{
	if (IS_ENABLED(CONFIG_MARKERS_STATS))
		*max = max(*max, local_clock() - start);
}

#ifdef CONFIG_MARKERS_KUNIT_TEST
static void (*marker_test_flush)(unsigned long addr);

/**
 * marker_test_set_flush() - set a hook on every chunk, for tests
 * @fn: called with the address of each instruction of a chunk before the
 *	chunk is written, arch_marker_lock() and the CPU hotplug lock held,
 *	to widen the window between choosing instructions and writing them;
 *	NULL for none
 *
 * Context: any.
 */
void marker_test_set_flush(void (*fn)(unsigned long addr))
{
	WRITE_ONCE(marker_test_flush, fn);
}
EXPORT_SYMBOL_IF_KUNIT(marker_test_set_flush);

static void marker_test_flush_hook(const struct marker_poke_desc *d)
{
	void (*fn)(unsigned long addr) = READ_ONCE(marker_test_flush);
	unsigned int i;

	for (i = 0; fn && i < d->nr; i++)
		fn(d->vec[i].addr);
}
#else
static inline void marker_test_flush_hook(const struct marker_poke_desc *d)
{
}
#endif

#ifdef CONFIG_MARKERS_X86_KUNIT_TEST
/*
 * Called with step 0 after each write to a chunk, and with step n after
 * the sync ending step n, text_mutex and the CPU hotplug lock held: lets
 * KUnit stop the patcher and check the order of writes and syncs.
 */
void (*marker_x86_test_step)(unsigned int step);

static void marker_test_step(unsigned int step)
{
	void (*fn)(unsigned int step) = READ_ONCE(marker_x86_test_step);

	if (fn)
		fn(step);
}

/* Called by each held task as its wait begins: lets KUnit see its stack. */
void (*marker_x86_test_held)(struct pt_regs *regs);

static void marker_test_held(struct pt_regs *regs)
{
	void (*fn)(struct pt_regs *regs) = READ_ONCE(marker_x86_test_held);

	if (fn)
		fn(regs);
}
#else
static inline void marker_test_step(unsigned int step)
{
}

static inline void marker_test_held(struct pt_regs *regs)
{
}
#endif

/* text_poke(), whose interrupts-off copy is a window: the longest is kept. */
static void marker_text_poke(void *addr, const void *bytes, size_t len)
{
	u64 start = marker_stat_clock();

	text_poke(addr, bytes, len);
	marker_stat_max(&marker_max_poke, start);
}

/* text_poke_sync() (W2), counted and timed. */
static void marker_sync(void)
{
	u64 start = marker_stat_clock();

	text_poke_sync();
	marker_stat_inc(&marker_syncs);
	marker_stat_max(&marker_max_sync, start);
}

static __always_inline int marker_poke_cmp(const void *key, const void *elt)
{
	const struct marker_poke *p = elt;

	if ((unsigned long)key < p->addr)
		return -1;
	if ((unsigned long)key > p->addr)
		return 1;
	return 0;
}

static __always_inline struct marker_poke *
marker_poke_find(struct marker_poke_desc *d, unsigned long addr)
{
	return __inline_bsearch((void *)addr, d->vec, d->nr,
				sizeof(struct marker_poke), marker_poke_cmp);
}

static __always_inline void marker_emulate(const struct marker_poke *p,
					   struct pt_regs *regs)
{
	if (p->call)
		int3_emulate_call(regs, p->next);
	else
		int3_emulate_jmp(regs, p->next);
	marker_stat_inc(&marker_emulated);
}

/*
 * Whether an enabled execute breakpoint of this CPU is at @addr: then it
 * fired before the int3 at @addr did.
 */
static __always_inline bool marker_bp_fired(unsigned long addr)
{
	unsigned long dr7 = this_cpu_read(cpu_dr7), dr;
	int i;

	for (i = 0; i < HBP_NUM; i++) {
		if (!(dr7 & (DR_GLOBAL_ENABLE << (i * DR_ENABLE_SIZE))) ||
		    ((dr7 >> (DR_CONTROL_SHIFT + i * DR_CONTROL_SIZE)) & 3) !=
		    DR_RW_EXECUTE)
			continue;
		get_debugreg(dr, i);
		if (dr == addr)
			return true;
	}
	return false;
}

/* Hold the task for chunk @seq, in the frame of "Patching live sites". */
static __always_inline void marker_hold(struct pt_regs *regs,
					unsigned long seq)
{
	unsigned long site = regs->ip - INT3_INSN_SIZE, sp = regs->sp;
	unsigned long flags = regs->flags;

	if (marker_bp_fired(site))
		flags |= X86_EFLAGS_RF;
	int3_emulate_push(regs, regs->ss);
	int3_emulate_push(regs, sp);
	int3_emulate_push(regs, flags);
	int3_emulate_push(regs, regs->cs);
	int3_emulate_push(regs, site);
	int3_emulate_push(regs, seq);
	int3_emulate_jmp(regs, (unsigned long)marker_hold_thunk);
	marker_stat_inc(&marker_holds);
}

/* marker_hold_supported() of the boot CPU, from core_initcall on. */
static bool marker_hold_on __ro_after_init;

/**
 * marker_hold_supported() - whether tasks may be held on such CPUs at all
 * @c: the CPU's features
 *
 * Only with CONFIG_PREEMPTION, not with FRED, not in a Xen PV guest: see
 * "Where a task may wait".
 *
 * Context: any.
 * Return: true if a task may wait for its site in marker_hold_thunk.
 */
bool marker_hold_supported(const struct cpuinfo_x86 *c)
{
	return IS_ENABLED(CONFIG_PREEMPTION) &&
	       !cpu_has(c, X86_FEATURE_FRED) && !cpu_has(c, X86_FEATURE_XENPV);
}

/*
 * Whether the task trapped at @regs may be held rather than emulated, by
 * "Where a task may wait" (I5); the caller checks the text and patcher.
 */
static __always_inline bool marker_may_hold(const struct pt_regs *regs)
{
	return marker_hold_on &&
	       (regs->flags & (X86_EFLAGS_IF | X86_EFLAGS_AC | X86_EFLAGS_TF)) ==
	       X86_EFLAGS_IF && !preempt_count() && !rt_or_dl_task(current) &&
	       !marker_rcu_ignores_cpu();
}

/**
 * marker_int3_handler() - handle an int3 on an instruction being changed
 * @regs: the trap's registers
 *
 * Called from exc_int3() after poke_int3_handler() and before every other
 * int3 user.  Holds the task or emulates, and waits for nothing (W4).
 *
 * Context: int3 trap, interrupts off; noinstr, calls nothing that could
 * meet a site, takes no lock; reads marker_desc under a reference (I2).
 * Return: true if the int3 was on an instruction being changed and is
 * handled: @regs then go to the hold or to the new instruction.
 */
noinstr bool marker_int3_handler(struct pt_regs *regs)
{
	struct marker_poke_desc *d = &marker_desc;
	struct marker_poke *p;
	bool ret = false;

	if (user_mode(regs))
		return false;

	/* Pairs with the smp_wmb() between publishing @d and the int3s. */
	smp_rmb();
	if (!raw_atomic_inc_not_zero(&d->refs))
		return false;

	p = marker_poke_find(d, regs->ip - INT3_INSN_SIZE);
	if (!p)
		goto out;
	ret = true;
	if (p->hold && marker_may_hold(regs) && current != d->patcher) {
		marker_hold(regs, d->seq);
		goto out;
	}
	/* Fetched before byte 0 was final; pairs with marker_poke_chunk(). */
	if (IS_ENABLED(CONFIG_MARKERS_STATS) && smp_load_acquire(&d->released))
		marker_stat_inc(&marker_late_hits);
	marker_emulate(p, regs);
out:
	/* Done with @d before the patcher may see refs drop. */
	smp_mb__before_atomic();
	raw_atomic_dec(&d->refs);
	return ret;
}

/* Whether chunk @seq is released (W1): its new bytes 0 are visible here. */
static bool marker_released(unsigned long seq)
{
	struct marker_poke_desc *d = &marker_desc;

	/* Pairs with the next chunk's smp_store_release() of @seq. */
	if (smp_load_acquire(&d->seq) != seq)
		return true;
	/* Pairs with this chunk's smp_store_release() of @released. */
	return smp_load_acquire(&d->released);
}

static u64 marker_stat_hold_begin(void)
{
	if (!IS_ENABLED(CONFIG_MARKERS_STATS))
		return 0;
	atomic_inc(&marker_holding);
	return local_clock();
}

static void marker_stat_hold_end(u64 start)
{
	s64 held, max;

	if (!IS_ENABLED(CONFIG_MARKERS_STATS))
		return;
	held = local_clock() - start;
	max = atomic64_read(&marker_max_hold);
	while (held > max && !atomic64_try_cmpxchg(&marker_max_hold, &max, held))
		;
	atomic_dec(&marker_holding);
}

/* A held task raised to real time or deadline stops waiting (W1). */
static bool marker_hold_may_wait(void)
{
	if (likely(!rt_or_dl_task(current)))
		return true;
	marker_stat_inc(&marker_abandoned);
	return false;
}

/**
 * marker_hold_wait() - where a held task waits for its site
 * @regs: the task's registers, as the thunk saved them; @regs->ip is the
 *	  site, which the thunk returns to, and @regs->orig_ax the number of
 *	  the chunk it trapped in
 *
 * Called by marker_hold_thunk.  Returns when W1 says the wait ends, and
 * calls _cond_resched() meanwhile (W5).
 *
 * Context: task, preemptible, interrupts on (I5).
 */
__visible void marker_hold_wait(struct pt_regs *regs)
{
	unsigned long seq;
	u64 start;

	kmsan_unpoison_entry_regs(regs);
	seq = regs->orig_ax;
	start = marker_stat_hold_begin();
	marker_test_held(regs);
	while (!marker_released(seq) && marker_hold_may_wait()) {
		cpu_relax();
		_cond_resched();
	}
	marker_stat_hold_end(start);
}

static int __init marker_x86_init(void)
{
	marker_hold_on = marker_hold_supported(&boot_cpu_data);
	return 0;
}
core_initcall(marker_x86_init);

/* @step 1: int3s; @step 2: the new bytes 1-4; @step 3: the new byte 0. */
static void marker_poke_write(struct marker_poke_desc *d, unsigned int step)
{
	static const u8 int3 = INT3_INSN_OPCODE;
	u8 old[MARKER_SITE_SIZE];
	struct marker_poke *p;

	for (p = d->vec; p < d->vec + d->nr; p++) {
		switch (step) {
		case 1:
			marker_text_poke((void *)p->addr, &int3, INT3_INSN_SIZE);
			break;
		case 2:
			/* For Intel PT decoders, as text_poke_bp() does. */
			old[0] = p->old;
			memcpy(old + 1, (void *)p->addr + 1, MARKER_SITE_SIZE - 1);
			marker_text_poke((void *)p->addr + 1, p->new + 1,
					 MARKER_SITE_SIZE - 1);
			perf_event_text_poke((void *)p->addr, old,
					     MARKER_SITE_SIZE, p->new,
					     MARKER_SITE_SIZE);
			break;
		case 3:
			marker_text_poke((void *)p->addr, p->new, INT3_INSN_SIZE);
			break;
		}
	}
	marker_test_step(0);
}

static int marker_poke_sort_cmp(const void *a, const void *b)
{
	const struct marker_poke *pa = a, *pb = b;

	return pa->addr < pb->addr ? -1 : pa->addr > pb->addr;
}

/* Sort for the handler's binary search; keep one of a duplicate, and warn. */
static int marker_poke_sort(struct marker_poke_desc *d)
{
	unsigned int i, n = 1;
	int ret = 0;

	sort(d->vec, d->nr, sizeof(d->vec[0]), marker_poke_sort_cmp, NULL);
	for (i = 1; i < d->nr; i++) {
		if (WARN_ONCE(d->vec[i].addr == d->vec[n - 1].addr,
			      "markers: %pS changed twice in one chunk\n",
			      (void *)d->vec[i].addr)) {
			ret = -EINVAL;
			continue;
		}
		d->vec[n++] = d->vec[i];
	}
	d->nr = min(d->nr, n);
	return ret;
}

/*
 * Change the instructions in marker_desc: three steps, three syncs (I1).
 * Context: text_mutex held, CPU hotplug locked out.
 * Return: 0, or -EINVAL if an instruction was queued twice (one is
 * written).
 */
static int marker_poke_chunk(struct marker_poke_desc *d)
{
	u64 window;
	int ret;

	lockdep_assert_held(&text_mutex);
	/* Each sync waits for every online CPU. */
	lockdep_assert_cpus_held();
	if (!d->nr)
		return 0;
	ret = marker_poke_sort(d);

	/* Preemptible throughout; no held task keeps this one off (W1). */
	d->released = 0;
	/* Pairs with marker_released(): the last chunk is done. */
	smp_store_release(&d->seq, d->seq + 1);
	d->patcher = current;
	atomic_set_release(&d->refs, 1);
	/* Pairs with the smp_rmb() in marker_int3_handler(). */
	smp_wmb();

	window = marker_stat_clock();
	marker_poke_write(d, 1);
	marker_sync();
	marker_test_step(1);

	marker_poke_write(d, 2);
	marker_sync();
	marker_test_step(2);

	marker_poke_write(d, 3);
	/* Byte 0 written before held tasks return to it. */
	smp_store_release(&d->released, 1);
	marker_sync();
	marker_stat_max(&marker_max_window, window);
	marker_test_step(3);

	/* Nothing is written after the last sync (I1); then W3. */
	if (!atomic_dec_and_test(&d->refs))
		atomic_cond_read_acquire(&d->refs, !VAL);
	d->nr = 0;
	return ret;
}

#ifdef CONFIG_MODULES
static bool marker_module_noinstr(unsigned long addr)
{
	struct module *mod;
	bool ret;

	preempt_disable();
	mod = __module_text_address(addr);
	ret = mod && addr - (unsigned long)mod->noinstr_text_start <
		     mod->noinstr_text_size;
	preempt_enable();
	return ret;
}
#else
static bool marker_module_noinstr(unsigned long addr)
{
	return false;
}
#endif

/**
 * marker_text_may_hold() - whether a task may wait at an instruction
 * @addr: the instruction
 *
 * Not in vmlinux's noinstr or entry text, nor in a module's noinstr text
 * ("Where a task may wait").
 *
 * Context: any.
 * Return: true if a task that meets @addr being changed may be held.
 */
bool marker_text_may_hold(unsigned long addr)
{
	if (addr >= (unsigned long)__noinstr_text_start &&
	    addr < (unsigned long)__noinstr_text_end)
		return false;
	if (addr >= (unsigned long)__entry_text_start &&
	    addr < (unsigned long)__entry_text_end)
		return false;
	return !marker_module_noinstr(addr);
}

static void marker_site_insn(const struct marker_site *s, bool armed,
			     u8 insn[MARKER_SITE_SIZE])
{
	if (armed)
		__text_gen_insn(insn, JMP32_INSN_OPCODE,
				(void *)marker_site_code(s),
				(void *)marker_site_target(s), JMP32_INSN_SIZE);
	else
		memcpy(insn, x86_nops[MARKER_SITE_SIZE], MARKER_SITE_SIZE);
}

static int marker_refuse(void *code, const u8 *old, bool armed)
{
	pr_err("site %pS: bytes %*ph, expected %*ph: not %s\n", code,
	       MARKER_SITE_SIZE, code, MARKER_SITE_SIZE, old,
	       armed ? "armed" : "disarmed");
	return -EINVAL;
}

/* A site under an armed kprobe: see "A site under a kprobe".  No hold. */
static int marker_poke_kprobed(struct kprobe *kp, void *code, const u8 *old,
			       const u8 *new, bool armed)
{
	u8 cur[MARKER_SITE_SIZE];

	memcpy(cur, code, MARKER_SITE_SIZE);
	cur[0] = kp->opcode;
	if (!memcmp(cur, new, MARKER_SITE_SIZE))
		return 0;
	if (memcmp(cur, old, MARKER_SITE_SIZE))
		return marker_refuse(code, old, armed);
	text_poke(code + 1, new + 1, MARKER_SITE_SIZE - 1);
	perf_event_text_poke(code + 1, old + 1, MARKER_SITE_SIZE - 1,
			     new + 1, MARKER_SITE_SIZE - 1);
	text_poke_sync();
	kprobe_update_opcode(code, new[0]);
	return 0;
}

/* Queue @s in @d unless it is already @armed; refuse unexpected bytes (I4). */
static int marker_poke_add(struct marker_poke_desc *d,
			   const struct marker_site *s, bool armed)
{
	struct marker_poke *p = &d->vec[d->nr];
	void *code = (void *)marker_site_code(s);
	struct kprobe *kp = get_kprobe(code);
	u8 old[MARKER_SITE_SIZE];

	marker_site_insn(s, !armed, old);
	marker_site_insn(s, armed, p->new);
	/* Any other int3 (a disabled kprobe has none) is refused below. */
	if (kp && kprobe_armed_at(code))
		return marker_poke_kprobed(kp, code, old, p->new, armed);
	if (!memcmp(code, p->new, MARKER_SITE_SIZE))
		return 0;
	if (memcmp(code, old, MARKER_SITE_SIZE))
		return marker_refuse(code, old, armed);
	/* A disabled kprobe puts its int3 back with what the site will be. */
	if (kp)
		kprobe_update_opcode(code, p->new[0]);
	p->addr = (unsigned long)code;
	p->next = armed ? marker_site_target(s) :
			  p->addr + MARKER_SITE_SIZE;
	p->call = false;
	p->hold = marker_text_may_hold(p->addr);
	p->old = old[0];
	d->nr++;
	return 0;
}

/*
 * Queue @c in @d to call @target, unless it does.  Calls change only here,
 * under text_mutex, and kprobes keep off them: a non-call is refused (I4).
 */
static int marker_poke_add_call(struct marker_poke_desc *d,
				const struct marker_probe_call *c,
				unsigned long target)
{
	struct marker_poke *p = &d->vec[d->nr];
	void *code = (void *)marker_probe_call_code(c);

	if (*(u8 *)code != CALL_INSN_OPCODE) {
		pr_err("call %pS: bytes %*ph, not a call: not changed\n", code,
		       MARKER_CALL_SIZE, code);
		return -EINVAL;
	}
	/* Through its accounting thunk, with call depth tracking. */
	target = (unsigned long)callthunks_translate_call_dest((void *)target);
	__text_gen_insn(p->new, CALL_INSN_OPCODE, code, (void *)target,
			CALL_INSN_SIZE);
	if (!memcmp(code, p->new, MARKER_CALL_SIZE))
		return 0;
	p->addr = (unsigned long)code;
	p->next = target;
	p->call = true;
	p->hold = marker_text_may_hold(p->addr);
	p->old = CALL_INSN_OPCODE;
	d->nr++;
	return 0;
}

/**
 * arch_marker_lock() - keep kprobes off the sites while they change
 *
 * Taken by kernel/marker.c in the lock order of "Patching live sites", so
 * that no kprobe is added or removed while marker_poke_add() checks the
 * bytes it writes.
 *
 * Context: may sleep; takes kprobe_text_lock().
 */
void arch_marker_lock(void)
{
	kprobe_text_lock();
}

/**
 * arch_marker_unlock() - undo arch_marker_lock()
 *
 * Context: may sleep.
 */
void arch_marker_unlock(void)
{
	kprobe_text_unlock();
}

/* Write the chunk queued so far, if any. */
static void marker_queue_flush(struct marker_poke_desc *d)
{
	if (!d->nr)
		return;
	marker_test_flush_hook(d);
	mutex_lock(&text_mutex);
	if (marker_poke_chunk(d))
		d->err = -EINVAL;
	mutex_unlock(&text_mutex);
}

/* Write a full chunk first; take text_mutex, to check and queue under it. */
static struct marker_poke_desc *marker_queue_begin(void)
{
	struct marker_poke_desc *d = &marker_desc;

	lockdep_assert_cpus_held();
	if (d->nr == MARKER_CHANGE_MAX)
		marker_queue_flush(d);
	mutex_lock(&text_mutex);
	return d;
}

/**
 * arch_marker_queue_site() - queue a site to arm or disarm
 * @s: the site, queued at most once before arch_marker_apply()
 * @armed: true to make it jump to its out-of-line block, false for a NOP
 *
 * Bytes that are neither state (byte 0 read from an armed kprobe's saved
 * opcode) are left alone and logged, and arch_marker_apply() fails (I4).
 * A full chunk of MARKER_CHANGE_MAX is written first.
 *
 * Context: may sleep; arch_marker_lock() and the CPU hotplug lock held,
 * from the first arch_marker_queue_site() or arch_marker_queue_call() to
 * arch_marker_apply(); takes text_mutex.
 */
void arch_marker_queue_site(const struct marker_site *s, bool armed)
{
	struct marker_poke_desc *d = marker_queue_begin();

	if (marker_poke_add(d, s, armed))
		d->err = -EINVAL;
	mutex_unlock(&text_mutex);
}

/**
 * arch_marker_queue_call() - queue a call of probes to point elsewhere
 * @c: the call, queued at most once before arch_marker_apply()
 * @target: the function it is to call
 *
 * As arch_marker_queue_site(); a call must be a call.
 *
 * Context: as for arch_marker_queue_site().
 */
void arch_marker_queue_call(const struct marker_probe_call *c,
			    unsigned long target)
{
	struct marker_poke_desc *d = marker_queue_begin();

	if (marker_poke_add_call(d, c, target))
		d->err = -EINVAL;
	mutex_unlock(&text_mutex);
}

/**
 * arch_marker_apply() - write what is queued
 *
 * Context: as for arch_marker_queue_site().
 * Return: 0, or -EINVAL if an instruction queued since the last call was
 * refused; the others are changed.
 */
int arch_marker_apply(void)
{
	struct marker_poke_desc *d = &marker_desc;
	int ret;

	lockdep_assert_cpus_held();
	marker_queue_flush(d);
	ret = d->err;
	d->err = 0;
	return ret;
}

/**
 * arch_marker_sites_set() - arm or disarm marker sites
 * @sites: the sites, each at most once
 * @nr: how many
 * @armed: true to make them jump to their out-of-line calls, false for NOPs
 *
 * arch_marker_queue_site() for each, then arch_marker_apply(): for tests
 * and the torture test.
 *
 * Context: may sleep; takes arch_marker_lock(), the CPU hotplug lock and
 * text_mutex.
 * Return: as for arch_marker_apply().
 */
int arch_marker_sites_set(const struct marker_site *const *sites,
			  unsigned int nr, bool armed)
{
	unsigned int i;
	int ret;

	arch_marker_lock();
	cpus_read_lock();
	for (i = 0; i < nr; i++)
		arch_marker_queue_site(sites[i], armed);
	ret = arch_marker_apply();
	cpus_read_unlock();
	arch_marker_unlock();
	return ret;
}

/**
 * arch_marker_site_set() - arm or disarm one marker site
 * @s: the site
 * @armed: true to make it jump to its out-of-line call, false for a NOP
 *
 * Context: may sleep; takes the locks arch_marker_sites_set() takes.
 * Return: as for arch_marker_sites_set().
 */
int arch_marker_site_set(const struct marker_site *s, bool armed)
{
	return arch_marker_sites_set(&s, 1, armed);
}

/**
 * arch_marker_site_armed() - whether a site is armed
 * @s: the site
 *
 * Context: any; takes rcu_read_lock() to read a kprobe's saved opcode.
 * Return: true if the site's first byte is a jmp, or if a kprobe's int3
 * is there and the opcode it saved is a jmp.
 */
bool arch_marker_site_armed(const struct marker_site *s)
{
	u8 *code = (u8 *)marker_site_code(s);
	struct kprobe *kp;
	u8 op = *code;

	if (op == INT3_INSN_OPCODE) {
		rcu_read_lock();
		kp = get_kprobe(code);
		if (kp)
			op = READ_ONCE(kp->opcode);
		rcu_read_unlock();
	}
	return op == JMP32_INSN_OPCODE;
}

#ifdef CONFIG_MARKERS_STATS
/**
 * marker_x86_hold_stats() - what the int3 handler has done so far
 * @st: filled in
 *
 * Context: any.
 */
void marker_x86_hold_stats(struct marker_hold_stats *st)
{
	st->holds = atomic_long_read(&marker_holds);
	st->emulated = atomic_long_read(&marker_emulated);
	st->syncs = atomic_long_read(&marker_syncs);
	st->late = atomic_long_read(&marker_late_hits);
	st->abandoned = atomic_long_read(&marker_abandoned);
	st->holding = atomic_read(&marker_holding);
	st->max_hold_ns = atomic64_read(&marker_max_hold);
	st->max_hold_us = div_u64(st->max_hold_ns, 1000);
	st->max_window_ns = READ_ONCE(marker_max_window);
	st->max_sync_ns = READ_ONCE(marker_max_sync);
	st->max_poke_ns = READ_ONCE(marker_max_poke);
}
EXPORT_SYMBOL_GPL(marker_x86_hold_stats);

/**
 * marker_x86_hold_stats_reset_max() - start measuring the longest hold anew
 *
 * For benchmarks that want the longest hold of one operation.
 *
 * Context: may sleep; takes text_mutex.
 */
void marker_x86_hold_stats_reset_max(void)
{
	atomic64_set(&marker_max_hold, 0);
	mutex_lock(&text_mutex);
	marker_max_window = 0;
	marker_max_sync = 0;
	marker_max_poke = 0;
	mutex_unlock(&text_mutex);
}
EXPORT_SYMBOL_GPL(marker_x86_hold_stats_reset_max);
#endif /* CONFIG_MARKERS_STATS */
