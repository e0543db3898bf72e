// SPDX-License-Identifier: GPL-2.0
/*
 * x86 marker sites: a 5-byte NOP, armed into a jmp rel32 to the site's
 * out-of-line block, and disarmed back into the NOP; and the call in that
 * block, pointed at the marker's only probe or at marker_iterate().
 *
 * Instructions change in chunks of up to MARKER_CHANGE_MAX, in three
 * steps, every CPU being synced after each (text_poke_sync()):
 *
 *	1. int3 on byte 0 of every instruction of the chunk;
 *	2. the new bytes 1-4;
 *	3. the new byte 0.
 *
 * A CPU that meets an instruction of the chunk in between traps into
 * marker_int3_handler().  A task that trapped in a preemptible context
 * is sent to marker_hold_thunk, as if the site had called it, with an
 * interrupt frame that returns to the site: it waits there, interrupts
 * on and preemptible, until its chunk is released, and its IRET back to
 * the site serializes, so it runs the new instruction.  Anywhere else
 * the new instruction is emulated, as text_poke_bp() does.  The patcher
 * is preemptible throughout, as text_poke_bp()'s is; only tasks that the
 * scheduler may preempt in favour of it are held.
 *
 * The DOC comments below say why no CPU runs a torn instruction and why
 * no CPU waits with interrupts off for a held task.
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
 * recorded in the __marker_sites section with its out-of-line block and its
 * struct marker.  Connecting the first probe to a marker's name arms every
 * site of the name into a jmp rel32 to its block; disconnecting the last
 * one turns it back into the NOP.  A MARK_ENABLED() site is the same NOP,
 * whose block is the test's true branch.
 *
 * The block runs no variadic function.  It stores the arguments, as C
 * promotes them, in 8-byte slots in the caller's frame (12 at most), and
 * builds there a va_list whose general register area is used up, so that
 * every va_arg() reads the next slot (the x86-64 ABI's overflow area).
 * With preemption off, it reads the marker's probe array, which is never
 * NULL once the site was armed, and makes a direct call, recorded in the
 * __marker_calls section, with the first closure's probe_private, the
 * site's call_private, the format and that va_list.  kernel/marker.c
 * points the call at the probe itself while the marker has exactly one
 * probe; at a trampoline (marker_tramps.S, marker_tramp.c) while it has
 * two to four, which calls each probe directly with its probe_private an
 * immediate, puts the va_list back to the first slot between them and
 * jumps to the last; and at marker_iterate() otherwise, which does the
 * same for the closures of the array the site read.  The block tests
 * nothing else: where RCU does not watch, only a CPU going offline may
 * run it, which kernel/marker.c provides for; with CONFIG_PROVE_RCU it
 * tests RCU first, and calls marker_skip_unwatched() instead where it
 * does not watch.
 *
 * A call is written as a static call's is: with call depth tracking on
 * (retbleed=stuff), through the target's accounting thunk
 * (callthunks_translate_call_dest()), so that the probe's return finds the
 * depth it was called with.  objtool follows each site to its block, so
 * the block has ORC data and a stack trace taken in a probe unwinds
 * through the instrumented function to its callers.  kprobes keep off the
 * calls and off bytes 1-4 of every site (marker_text_reserved()); a
 * kprobe on a site's first byte is described under "Patching live sites".
 */

/**
 * DOC: Patching live sites
 *
 * Sites, and the calls in their blocks, change in chunks of up to
 * MARKER_CHANGE_MAX (512) instructions: 256 sites and their calls, as many
 * sites as text_poke_bp_batch() changes at once (TP_VEC_MAX, a page of its
 * entries).  markers_mutex, kprobe_mutex (kprobe_text_lock()), the CPU
 * hotplug lock and text_mutex are held, in that order, and each chunk is
 * written in three steps::
 *
 *	1. int3 on byte 0 of every instruction of the chunk;   sync
 *	2. the new bytes 1-4 of every instruction;              sync
 *	3. the new byte 0 of every instruction; release;        sync
 *
 * "sync" is text_poke_sync(): an IPI to every online CPU, whose handler
 * runs sync_core(), waited for with interrupts on and preemption off.  A
 * chunk's window runs from the moment the patcher publishes it in
 * marker_desc to the end of its last sync.  The patching task stays
 * preemptible throughout, as text_poke_bp()'s does: text_poke() takes
 * sleeping locks on PREEMPT_RT.  Arming a marker of n sites with one probe
 * changes n sites and n calls, in 3 x ceil(2n / 512) syncs; pointing its
 * calls elsewhere takes 3 x ceil(n / 512).
 *
 * A CPU that meets an instruction of the chunk traps into
 * marker_int3_handler(), the one entry point.  exc_int3() calls it right
 * after poke_int3_handler(), for the same reason (an int3 of a site being
 * patched may be met anywhere), and before irqentry_nmi_enter(), since
 * whether the trapped task may wait is its own preempt count's to say.
 * The handler is noinstr, calls nothing out of line and takes no lock: it
 * counts itself into the chunk's descriptor (refs, as text_poke_bp()'s
 * bp_desc does) and looks the address up among the chunk's instructions,
 * sorted, by binary search.  An int3 that no chunk has is not its
 * business: kprobes and die() get it, as they would without markers.
 * Then:
 *
 * - if the trapped context may wait (below), the task is held.  The
 *   handler writes 6 words into the gap that the x86-64 int3 entry leaves
 *   below the trapped stack for int3_emulate_call(): an interrupt frame
 *   whose RIP is the site and whose RSP, RFLAGS, CS and SS are the trapped
 *   ones, and below it the chunk's number, where a struct pt_regs keeps
 *   orig_ax.  RF is set in that RFLAGS only if an execute breakpoint of
 *   this CPU is on the site: it fired before the int3, and must not fire a
 *   second time for the same pass; one armed while the task waits, or on
 *   the CPU it resumes on, fires as the site runs.  The handler then
 *   returns into marker_hold_thunk (marker_hold.S) with that frame on top
 *   of the stack: to the unwinder, the task was interrupted at the site.
 *   The thunk saves every register in a struct pt_regs, points the frame
 *   pointer at it (encoded, as the entry code does, so that the frame
 *   pointer unwinder sees an interrupted task and a reliable stack trace
 *   fails, as for any task stopped in an interrupt), and calls
 *   marker_hold_wait(), which spins with interrupts on, preemptible, until
 *   its chunk is released.  The thunk then turns interrupts off, restores
 *   the registers and returns to the site with IRET, which turns them back
 *   on: an interrupt taken while the registers are popped would write its
 *   frame over words that the unwinder, by the thunk's ORC data, still
 *   reads;
 * - anywhere else, the new instruction is emulated: a jump to the
 *   out-of-line block when arming, to the next instruction when
 *   disarming, a call of the new target for a call, as text_poke_bp()'s
 *   handler does.
 *
 * Either way the CPU runs the new instruction once per pass; no pass is
 * lost or doubled.
 *
 * A held task may take interrupts, be preempted and migrate while it
 * waits; the wait depends on none of them.  It ends as soon as the task
 * runs after the release of the chunk it trapped in (that chunk set its
 * release flag, or a later chunk has begun, which happens only after its
 * last sync), on whatever CPU the task is then: a held task reads the
 * chunk's number and release flag only, and writes nothing that others
 * read.  Its IRET back to the site is a serializing instruction executed
 * after it saw the release, on the CPU it returns on, so that CPU runs the
 * site as it is then: the new instruction, or, if a later chunk has the
 * site by then, that chunk's int3, which holds or emulates anew.  It also
 * ends as soon as the task runs as a real-time or deadline task, raised
 * while it waited (priority inheritance on an rt_mutex it holds, a
 * spinlock_t on PREEMPT_RT included, RCU priority boosting,
 * sched_setscheduler()): the task returns to the site before the
 * release, traps on the int3 again, and the new instruction is emulated
 * for it.  So a hold lasts at most the rest of its chunk plus the time the
 * task then waits for a CPU, however often the site changes, and no task
 * waits while it can keep a patcher of a lower class off its CPU.  With preempt=none or
 * voluntary (PREEMPT_DYNAMIC), marker_hold_wait() calls _cond_resched(),
 * which schedules as a preemption would (the task stays runnable, its
 * state untouched): a held task keeps no other task off its CPU for longer
 * than a preemptible kernel would.  cond_resched() itself is not used: its
 * might-sleep check would report the RCU read-side critical sections that
 * a preemptible kernel may preempt, and so may a hold.
 *
 * Where a task may wait.  The trapped context must be one that the kernel
 * could have preempted there, and one where the thunk, instrumented C,
 * may run (marker_may_hold(), marker_hold_supported(),
 * marker_text_may_hold()):
 *
 * - interrupts on in the trapped flags: code that turned them off may be
 *   neither preempted nor run with them on;
 * - preempt_count() 0: no spinlock, raw spinlock, bit spinlock, seqcount
 *   writer or other preempt-off section, no softirq, hardirq or NMI
 *   context;
 * - a kernel built to preempt tasks (CONFIG_PREEMPTION, whatever preempt=
 *   says at boot).  A kernel built without it (PREEMPT_NONE or
 *   PREEMPT_VOLUNTARY, even with the preempt count that DEBUG_ATOMIC_SLEEP
 *   keeps) assumes that nothing stops where it put no cond_resched():
 *   ftrace, for one, then skips synchronize_rcu_tasks().  There no task is
 *   ever held: every hit is emulated;
 * - user access off (AC clear in the trapped flags): the thunk's C code
 *   must not run with SMAP lifted;
 * - not single-stepped (TF clear in the trapped flags): the thunk and its
 *   C code would be stepped too;
 * - RCU watching: kprobes and tracers may run in the thunk's C code;
 * - a task of the fair scheduling classes, not boosted by priority
 *   inheritance: the patcher may be preempted, and a real-time or deadline
 *   task that waited for it would run in its place for good.  This holds
 *   for the whole wait: a task raised meanwhile stops waiting;
 * - not text that must call no instrumented code: vmlinux's noinstr text
 *   (.cpuidle.text included), its entry text, and a module's noinstr text
 *   (the patcher asks marker_text_may_hold() of each instruction as it
 *   queues it);
 * - not the patching task itself, which would wait for its own release;
 * - a kernel that returns from an int3 with its own IRET, as the hold
 *   does.  Not one with FRED on, where the kernel returns from events with
 *   ERETS, which restores what the event's frame says of the trapped
 *   context beyond its registers (its stack level, STI and NMI blocking),
 *   and IRET does not.  Not a Xen PV guest, whose kernel runs in ring 3
 *   under frames that say ring 0 and returns from traps through the
 *   hypervisor (xen_iret): an IRET to such a frame faults.  There every
 *   hit is emulated.
 *
 * Why hold at all?  text_poke_queue() and text_poke_finish() never wait:
 * every hit is emulated, and a NOP or a jmp is emulated exactly, so holding
 * is not needed for correctness.  What a hold gives is the
 * cross-modifying-code algorithm of the SDM itself (Vol. 3A, 8.1.3: the
 * executing processor waits for a flag, then serializes, then runs the
 * modified code): a held task leaves the hold when the new instruction
 * is in memory, and runs it from memory, so the first pass after the
 * change is the real instruction (what Intel PT or the LBRs record, and
 * what a debugger single-steps), not an emulated jump; only a task raised
 * to real time while it waits leaves earlier, to be emulated.  What
 * it costs is the held task's own time, at most the rest of a window plus
 * whatever time it spends preempted; no other CPU waits for it.
 *
 * A site under a kprobe.  A kprobe may sit on a site's first byte, at its
 * MARK_SYM symbol; x86 kprobes emulate the site from the kprobe's saved
 * opcode, as a NOP or as the jmp to its block.  With kprobe_mutex held,
 * the patcher leaves an armed kprobe's int3 on byte 0 (kprobe_armed_at()),
 * writes bytes 1-4 behind it (no CPU runs them while the int3 is there),
 * records the write for perf (perf_event_text_poke(), for Intel PT
 * decoders, as every other write to a site does), syncs all CPUs, then
 * switches the kprobe's saved opcode with kprobe_update_opcode().  No CPU
 * is held, and no chunk is used.  A disabled kprobe has no int3 on the
 * site: the site is changed like any other, and the kprobe gets the new
 * opcode too, so that enabling it puts the int3 back over the right
 * instruction; an int3 found under a disabled kprobe is someone else's,
 * and the site is refused.  When the kprobe goes, it puts back the byte
 * the site has then.
 */

/**
 * DOC: Invariants, waits and windows
 *
 * I1
 *   Every write to an instruction in a chunk is followed by a sync before
 *   the chunk ends: write, sync, write, sync, write, sync, nothing after.
 * I2
 *   The descriptor is published (refs = 1, then a write barrier) before
 *   the first int3 is written; the handler reads it after a read barrier
 *   and only while it holds a reference, which it holds with interrupts
 *   off; the patcher changes it again only after the last sync and after
 *   refs has dropped to 0.  Held tasks take no reference: they read only
 *   the chunk's number and release flag, which the patcher writes with
 *   release stores.
 * I3
 *   Only text that exists is written ("Init text" in
 *   kernel/marker_patch.c).
 * I4
 *   A site's bytes are checked before it is written.  Anything but its
 *   old or its new state (another patcher's bytes, an int3 that no armed
 *   kprobe owns) is left alone, with a log line; the registration that
 *   wanted it armed fails with -EINVAL and connects nothing.  A call must
 *   be a call.
 * I5
 *   A task is held only where it trapped in a context that could be
 *   preempted (see "Patching live sites").
 * I6
 *   No CPU ever waits with interrupts off because of a hold.
 * I7
 *   A call in a module's init text that is no longer written calls
 *   marker_iterate(), which calls the probes the site reads, never a
 *   probe chosen earlier ("Modules and init text" in kernel/marker.c).
 *
 * Every wait, and what ends it (I6):
 *
 * - A held task waits, interrupts on and preemptible, for its chunk's
 *   release.  The patcher writes the release after two syncs and the
 *   byte-0 writes, and waits for nothing a held task owns.  A held task
 *   may preempt it, but only tasks of the fair classes are held, and the
 *   scheduler gives the patcher its CPU back as it would from any such
 *   task; a task that could keep it off for good (real-time, deadline, or
 *   boosted) is emulated instead, and one raised to such a class while it
 *   waits stops waiting the next time it runs.  A later chunk does not
 *   prolong the wait: the task meets that chunk's int3 as a new hit.
 * - The patcher's syncs wait for every online CPU to take an IPI, with
 *   interrupts on.  A held task's CPU has interrupts on and takes it.  A
 *   CPU with interrupts off is waiting, if at all, for something that a
 *   non-preemptible context owns (a spinlock, a seqcount writer, an IPI's
 *   completion): the kernel never spins with interrupts off for a context
 *   that can be preempted.  A held task is such a context (I5), and so
 *   owns nothing such a CPU can wait for: its IPIs complete, its lock
 *   holders are not held.  So every such wait ends without the hold, and
 *   the sync with it.
 * - The patcher waits for refs to drop to 0 at the end of a chunk.  The
 *   handler holds its reference with interrupts off and waits for
 *   nothing.
 * - marker_int3_handler() waits for nothing: a hit either goes to the
 *   thunk or is emulated.
 * - Other tasks on a held task's CPU wait as they would for a task that
 *   was not preempted yet: preemption, or _cond_resched(), lets them in.
 *
 * Every window without preemption, and what ends it:
 *
 * - Each text_poke() writes one instruction's bytes with interrupts off
 *   on the patching CPU (the temporary mm is switched in and out): a copy
 *   of up to 4 bytes, ended by the copy.
 * - Each sync waits with preemption off, interrupts on, until every online
 *   CPU has run the IPI (above).
 * - marker_int3_handler() runs with interrupts off, as the trap left
 *   them: one binary search of at most 512 instructions, then a frame or
 *   an emulation.
 * - The thunk runs with interrupts off from its cli to its IRET: 15 pops.
 * - Nothing else: the patcher is preemptible between these, and a held
 *   task throughout its wait.
 *
 * Why no CPU runs a torn instruction.  Bytes 1-4 are written only after
 * step 1's sync, so every CPU that fetches the instruction from then on
 * finds the int3 at byte 0 and never decodes bytes 1-4; byte 0 becomes the
 * new opcode only after step 2's sync, when every CPU has serialized after
 * the new bytes 1-4 were written.  A CPU therefore executes either the
 * whole old instruction (before step 1's sync), or the int3, or the whole
 * new instruction.  That the three steps suffice rests on the SDM's rules
 * for cross-modifying code, as for text_poke_bp(), which uses the same
 * steps.
 *
 * Why every int3 of a chunk reaches it.  A CPU that executes an int3 of a
 * chunk enters the trap with interrupts off, and the chunk's last sync
 * cannot complete until that CPU takes the IPI, after the handler has
 * returned: the chunk, and its descriptor, outlive every trap on its
 * int3s.  A CPU that fetched the int3 before byte 0 became final traps
 * after the release, into the same chunk, and is emulated.  So no hook
 * after the handler is needed, as none is for text_poke_bp().
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
 * to arch_marker_apply(), and text_mutex is held wherever the fields
 * change.  While @refs is 0 the patcher fills in the other fields; it sets
 * @refs to 1 before the first int3 is written, and after the last sync
 * drops its reference and waits for @refs to reach 0 before it changes
 * anything again.  The int3 handler reads the fields
 * only while it holds a reference, with interrupts off: this is
 * text_poke_bp()'s bp_desc discipline.  Held tasks take no reference:
 * they read @seq and @released only, which the patcher publishes with
 * release stores (marker_released()).
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
 * What the handler and held tasks did, for marker_x86_hold_stats(): kept
 * only with CONFIG_MARKERS_STATS, which the KUnit tests and the benchmark
 * module select; otherwise the helpers below compile to nothing.
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

/*
 * Called with step 0 after each write to the instructions of a chunk, and
 * with step n after the sync that ends step n: lets KUnit stop the
 * patcher and check the order of writes and syncs.  The patcher holds
 * text_mutex and the CPU hotplug lock.
 */
void (*marker_x86_test_step)(unsigned int step);

static void marker_test_step(unsigned int step)
{
	void (*fn)(unsigned int step) = READ_ONCE(marker_x86_test_step);

	if (fn)
		fn(step);
}

/*
 * Called by each held task as its wait begins, with the registers it
 * returns with: lets KUnit look at a held task's stack.
 */
void (*marker_x86_test_held)(struct pt_regs *regs);

static void marker_test_held(struct pt_regs *regs)
{
	void (*fn)(struct pt_regs *regs) = READ_ONCE(marker_x86_test_held);

	if (fn)
		fn(regs);
}
#else
static inline void marker_test_flush_hook(const struct marker_poke_desc *d)
{
}

static inline void marker_test_step(unsigned int step)
{
}

static inline void marker_test_held(struct pt_regs *regs)
{
}
#endif

/*
 * Write @len bytes at @addr.  text_poke() maps the page and copies with
 * interrupts off: the longest such window is kept.
 */
static void marker_text_poke(void *addr, const void *bytes, size_t len)
{
	u64 start = marker_stat_clock();

	text_poke(addr, bytes, len);
	marker_stat_max(&marker_max_poke, start);
}

/*
 * Make every online CPU serialize after what this CPU wrote so far: an
 * IPI to each, waited for with preemption off.
 */
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

/*
 * Send the trapped task to marker_hold_thunk, which waits until chunk
 * @seq is released and returns to the site with IRET.  Its frame, the
 * chunk's number below an interrupt frame, takes the 6 words of the gap
 * that exc_int3() leaves below the trapped stack for int3_emulate_call().
 * RF is set only when an execute breakpoint on the site fired for this
 * pass, before the int3, so that it does not fire again; one armed on
 * the site meanwhile, or on the CPU the task resumes on, fires as the
 * site runs.
 */
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
 * Only in a kernel built to preempt tasks (CONFIG_PREEMPTION, whatever
 * preempt= says at boot): a hold is a preemption point, and a kernel
 * built without any assumes there are none where it did not put
 * cond_resched() (ftrace, for one, then skips synchronize_rcu_tasks()).
 * The trapped context's preempt count tells whether it may be preempted
 * (marker_may_hold()).
 *
 * Only where the kernel's own IRET returns from an int3.  Not with FRED:
 * the kernel returns from a FRED event with ERETS, which restores what
 * the event's frame says of the trapped context beyond its registers
 * (its stack level, STI and NMI blocking); the hold returns with IRET,
 * which knows none of it.  Not in a Xen PV guest: its kernel runs in
 * ring 3 under frames that say ring 0, and returns from a trap through
 * the hypervisor (xen_iret); the thunk's IRET to such a frame faults.
 * There every hit is emulated.
 *
 * Return: true if a task may wait for its site in marker_hold_thunk.
 */
bool marker_hold_supported(const struct cpuinfo_x86 *c)
{
	return IS_ENABLED(CONFIG_PREEMPTION) &&
	       !cpu_has(c, X86_FEATURE_FRED) && !cpu_has(c, X86_FEATURE_XENPV);
}

/*
 * Whether a task that trapped on an instruction of the chunk at @regs may
 * wait for it in marker_hold_thunk, rather than emulate the new
 * instruction.  It waits with interrupts on and may be preempted: so only
 * where the trapped context could have been preempted anyway, and where
 * the thunk, which is instrumented C, may run:
 *
 *  - interrupts on in the trapped context: code that turned them off
 *    must not be preempted, nor run with them on;
 *  - preempt_count() 0: no spinlock or other preempt-off section, no
 *    softirq, hardirq or NMI context (CONFIG_PREEMPT_COUNT; without it a
 *    spinlock leaves no trace, and nobody waits);
 *  - user access off (AC clear): the thunk's C code must not run with
 *    SMAP lifted;
 *  - not single-stepped (TF clear): the thunk and its C code would be
 *    stepped too;
 *  - a task of the fair classes, not boosted: the patcher is preemptible,
 *    and a task that waits for it must never run in its place for good,
 *    as a real-time or deadline task could;
 *  - RCU watching: tracing and kprobes in the thunk's C code need it;
 *  - a CPU on which tasks may be held at all (marker_hold_supported()).
 *
 * Whether the instruction's text allows it is the caller's to ask
 * (marker_text_may_hold()).
 *
 * Whoever holds nothing that only non-preemptible code releases cannot
 * make anyone spin with interrupts off while it waits.
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
 * int3 user, and self-contained: it calls nothing that could itself meet
 * a site.
 *
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

/*
 * Whether chunk @seq is released: it set @released, or a later chunk has
 * begun, which happens only after @seq's last sync.  Either way its new
 * bytes 0 are written and visible here.
 */
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

/*
 * Whether a held task may go on waiting: it may not once it runs as a
 * real-time or deadline task, raised while it waited (priority
 * inheritance on an rt_mutex it holds, RCU priority boosting,
 * sched_setscheduler()).  It would spin ahead of the patcher, which may
 * have no other CPU.
 */
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
 * Called by marker_hold_thunk.  The wait ends as soon as the task runs
 * after its chunk's release, however long it was preempted meanwhile and
 * wherever it migrated, or as soon as it runs as a real-time or deadline
 * task.  The thunk's IRET then serializes on whichever CPU the task is:
 * it fetches byte 0 as the chunk left it, or as a later chunk has it by
 * then, or the chunk's int3, which traps again and is emulated.  So no
 * hold lasts longer than its chunk plus the time the task waits for a
 * CPU after it.
 *
 * Where preempt=none or voluntary leave tasks in the kernel unpreempted,
 * _cond_resched() lets others have the CPU meanwhile, as preemption
 * would: the task stays runnable.  (cond_resched()'s might-sleep check
 * would report an RCU read-side section that a preemptible kernel may
 * preempt, and so may this.)
 *
 * Context: task, preemptible, interrupts on (marker_may_hold()).
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

/*
 * Sort the chunk for the handler's binary search.  An instruction queued
 * twice is a caller's bug: keep one, and say so.
 */
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
 * Change the instructions in marker_desc: three steps, three syncs.
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

	/*
	 * Preemptible throughout, as text_poke_bp() is: text_poke() takes
	 * sleeping locks on PREEMPT_RT.  A held task never keeps this one
	 * from running: only tasks the scheduler may preempt for it are
	 * held (marker_may_hold()).
	 */
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

	/* Nothing is written after the last sync. */
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
 * Not in text that must not call instrumented code, where the hold's C
 * code would run: vmlinux's noinstr text (.cpuidle.text included) and
 * entry text, and a module's noinstr text.
 *
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

/*
 * An armed kprobe on byte 0 (at the MARK_SYM symbol) keeps its int3 there
 * and emulates the site from its saved opcode (see
 * kprobe_emulate_marker()), so the int3 stays: write bytes 1-4, which no
 * CPU runs while it is there, tell perf, sync so that they are in place
 * before kprobes could ever put byte 0 back, then switch the saved opcode.
 * No task is held.
 */
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

/* Queue @s in @d unless it is already @armed; refuse unexpected bytes. */
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
 * Queue @c in @d to call @target, unless it does, as static_call() does
 * with call depth tracking: a call written here goes where a direct call
 * to @target goes.  A call is only ever changed here, under text_mutex,
 * and kprobes keep off it: anything but a call there is refused.
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
 * Taken by kernel/marker.c after markers_mutex and before the CPU hotplug
 * lock, the order in which kprobes takes its own locks: a kprobe is not
 * added or removed while sites and calls change, so that the checks of
 * marker_poke_add() see every kprobe on the bytes they write.
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

/*
 * Make room in the chunk: a full one is written first.  Then take
 * text_mutex, under which the instruction's bytes are checked and queued.
 */
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
 * Its bytes must be what its other state says they are, byte 0 being a
 * kprobe's saved opcode where an armed kprobe sits: anything else
 * (another patcher's bytes) is left alone and logged, and
 * arch_marker_apply() fails.  A full chunk of MARKER_CHANGE_MAX is
 * written first, with three syncs.
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
 * @armed: true to make them jump to their out-of-line calls, false for
 *	   NOPs
 *
 * As arch_marker_queue_site() for each, then arch_marker_apply(), for
 * tests and the torture test.
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
