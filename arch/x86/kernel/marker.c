// SPDX-License-Identifier: GPL-2.0
/*
 * x86 marker sites: a 5-byte NOP, armed into a jmp rel32 to the site's
 * out-of-line call, and disarmed back into the NOP.
 *
 * Sites change in chunks of up to MARKER_CHUNK, in three steps, every CPU
 * being synced after each:
 *
 *	1. int3 on byte 0 of every site of the chunk;
 *	2. the new bytes 1-4;
 *	3. the new byte 0.
 *
 * A CPU that meets a site of the chunk in between traps into
 * marker_int3_handler().  If it trapped in a preemptible context, it is
 * held until step 3 is written, then returns to the site: the return
 * (IRET) serializes, and the CPU runs the new instruction.  Anywhere else
 * (interrupts or preemption off, any interrupt or NMI, the patching CPU)
 * the new instruction is emulated, as text_poke_bp() does.  Held CPUs have
 * interrupts off and cannot answer an IPI, so the sync is our own
 * (marker_sync()): a generation number that CPUs acknowledge from an IPI,
 * or from inside the hold loop while held.  The patching CPU keeps
 * interrupts off from the first int3 to the release, and preemption off
 * to the end of the chunk.
 *
 * See Documentation/markers.txt, section 5, for why no CPU runs a torn
 * instruction and why every wait ends.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/kdebug.h>
#include <linux/kprobes.h>
#include <linux/marker.h>
#include <linux/memory.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/sync_core.h>
#include <asm/text-patching.h>
#include <asm/tsc.h>

/*
 * Instructions per window: bounds how long a CPU can be held.  Arming a
 * marker with one probe changes each site and the call in its block.
 */
#define MARKER_CHUNK		32

/**
 * struct marker_poke - one instruction being changed: a site, or a call
 * @addr: the instruction
 * @next: where the new instruction goes: for a site, the out-of-line block
 *	  when armed, the next instruction when disarmed; for a call, the
 *	  function called
 * @call: whether it is a call (a site is a jmp or a NOP)
 * @old: its bytes before
 * @new: its bytes after
 */
struct marker_poke {
	unsigned long addr;
	unsigned long next;
	bool call;
	u8 old[MARKER_SITE_SIZE];
	u8 new[MARKER_SITE_SIZE];
};

/**
 * struct marker_poke_desc - the chunk being changed
 * @vec: its sites
 * @nr: how many
 * @owner: the patching CPU
 * @released: set once every new byte 0 is written; held CPUs then resume
 * @unhold: set when a sync stalls while CPUs are held: they emulate
 * @timeout: TSC cycles a CPU may be held before it emulates instead
 * @patience: TSC cycles the patcher waits for a sync before setting @unhold
 * @resend: TSC cycles the patcher waits for an acknowledgment before it
 *	    sends the IPI again
 * @seq: counts chunks, for marker_count_late()
 * @refs: 1 for the patcher, plus 1 per CPU inside marker_int3_handler()
 *
 * text_mutex serializes patchers.  While @refs is 0 the patcher fills in
 * the other fields; it sets @refs to 1 before the first int3 is written,
 * and after the last sync drops its reference and waits for @refs to reach
 * 0 before it changes anything again.  The handler reads the fields only
 * while it holds a reference, as for text_poke_bp()'s bp_desc.
 */
static struct marker_poke_desc {
	struct marker_poke vec[MARKER_CHUNK];
	unsigned int nr;
	int owner;
	int released;
	int unhold;
	u64 timeout;
	u64 patience;
	u64 resend;
	unsigned long seq;
	atomic_t refs;
} marker_desc;

/*
 * The sync: marker_sync_gen is bumped by the patcher (under text_mutex);
 * every other CPU serializes, then stores the generation it saw in its
 * marker_sync_seen.  A CPU does so from marker_sync_ipi(), or from the
 * hold loop if it is held.
 *
 * No acknowledgment is lost.  Each CPU has one csd; the patcher does not
 * queue it while it is still queued (smp_call_function_single_async()
 * returns -EBUSY), and relies on the queued IPI to read the new
 * generation.  The IPI's csd is unlocked (a release store) before
 * marker_sync_ipi() runs, so two store-then-load sequences meet:
 *
 *	patcher				IPI target
 *	marker_sync_gen = gen		csd unlocked
 *	smp_mb()			smp_mb()	(marker_sync_ipi())
 *	csd still locked?		read marker_sync_gen
 *
 * With a full barrier on both sides at least one load sees the other's
 * store: either the patcher finds the csd free and queues the IPI again,
 * or the IPI reads the new generation.  Should an acknowledgment go
 * missing anyway, marker_sync_wait() queues the IPI again after
 * MARKER_SYNC_RESEND_US: every wait for an acknowledgment ends once the
 * CPU takes an interrupt, or acknowledges from the hold loop.
 */
static unsigned int marker_sync_gen;
static DEFINE_PER_CPU(unsigned int, marker_sync_seen);

static void marker_sync_ipi(void *info);
static DEFINE_PER_CPU(call_single_data_t, marker_sync_csd) =
	CSD_INIT(marker_sync_ipi, NULL);

/* What the handler did, for marker_x86_hold_stats(). */
static atomic_long_t marker_holds;
static atomic_long_t marker_emulated;
static atomic_long_t marker_timeouts;
static atomic_long_t marker_unheld;
static atomic_long_t marker_syncs;
static atomic_long_t marker_retried;
static atomic_long_t marker_late_hits;
static atomic_long_t marker_stale;
static atomic_long_t marker_resends;
static u64 marker_max_window;		/* text_mutex */
static u64 marker_max_sync;		/* text_mutex */
static DEFINE_PER_CPU(unsigned long, marker_late_seq);
static unsigned long marker_timeouts_told;	/* text_mutex */
static atomic_t marker_holding;
static DEFINE_PER_CPU(u64, marker_max_hold);

/* Longest hold before a held CPU emulates the new instruction. */
unsigned int marker_hold_timeout_ms __read_mostly = 1000;

#ifdef CONFIG_MARKERS_KUNIT_TEST
/*
 * Called with step 0 after each write to the sites of a chunk, and with
 * step n after the sync that ends step n: lets KUnit stop the patcher and
 * check the order of writes and syncs.  Preemption is off.
 */
void (*marker_x86_test_step)(unsigned int step);

static void marker_test_step(unsigned int step)
{
	void (*fn)(unsigned int step) = READ_ONCE(marker_x86_test_step);

	if (fn)
		fn(step);
}

/*
 * Asked by the sync IPI before it acknowledges: true drops the ack, as if
 * the handler had read the previous generation.
 */
bool (*marker_x86_test_drop_ack)(void);

static bool marker_test_drop_ack(void)
{
	typeof(marker_x86_test_drop_ack) fn = READ_ONCE(marker_x86_test_drop_ack);

	return fn && fn();
}
#else
static inline void marker_test_step(unsigned int step)
{
}

static inline bool marker_test_drop_ack(void)
{
	return false;
}
#endif

static __always_inline void marker_sync_ack(void)
{
	unsigned int gen = READ_ONCE(marker_sync_gen);

	if (raw_cpu_read(marker_sync_seen) == gen)
		return;
	sync_core();
	/* Pairs with the acquire in marker_sync_wait(). */
	smp_store_release(raw_cpu_ptr(&marker_sync_seen), gen);
}

static void marker_sync_ipi(void *info)
{
	if (marker_test_drop_ack())
		return;
	/* The csd's unlock before the load of the generation: see above. */
	smp_mb();
	marker_sync_ack();
}

NOKPROBE_SYMBOL(marker_sync_ipi);

/* A CPU that has not acknowledged after this long gets the IPI again. */
#define MARKER_SYNC_RESEND_US	1000

/*
 * A last resort, never reached by the rules in marker_may_hold(): a sync
 * that waits this long while CPUs are held lets them go (they emulate).
 * Only a CPU that keeps interrupts off this long for reasons of its own,
 * or a vCPU that its host does not run, delays a sync that much: under
 * QEMU's TCG, 4 vCPUs on 2 host cores, syncs took up to 99 ms.
 */
#define MARKER_SYNC_PATIENCE_MS	500

static void marker_sync_wait(struct marker_poke_desc *d, int cpu,
			     unsigned int gen)
{
	u64 start = rdtsc(), sent = start, now;

	/* Pairs with the release in marker_sync_ack(). */
	while (smp_load_acquire(per_cpu_ptr(&marker_sync_seen, cpu)) != gen) {
		now = rdtsc();
		if (now - sent > d->resend) {
			sent = now;
			/* 0: the last IPI ran, and no acknowledgment came. */
			if (smp_load_acquire(per_cpu_ptr(&marker_sync_seen,
							 cpu)) != gen &&
			    !smp_call_function_single_async(cpu,
					per_cpu_ptr(&marker_sync_csd, cpu)))
				atomic_long_inc(&marker_resends);
		}
		if (!d->unhold && atomic_read(&marker_holding) &&
		    now - start > d->patience)
			WRITE_ONCE(d->unhold, 1);
		cpu_relax();
	}
}

/*
 * Make every online CPU serialize after what this CPU wrote so far.
 * Context: preemption off, CPU hotplug locked out.
 */
static void marker_sync(struct marker_poke_desc *d)
{
	unsigned int gen = marker_sync_gen + 1;
	int cpu, self = smp_processor_id();
	u64 start = rdtsc();

	/* Text writes before the generation, generation before the IPIs. */
	smp_mb();
	WRITE_ONCE(marker_sync_gen, gen);
	/* The generation before the test of each csd: see above. */
	smp_mb();

	for_each_online_cpu(cpu) {
		if (cpu == self ||
		    READ_ONCE(per_cpu(marker_sync_seen, cpu)) == gen)
			continue;
		/* -EBUSY: a queued IPI has yet to run; it will see @gen. */
		smp_call_function_single_async(cpu,
					       per_cpu_ptr(&marker_sync_csd, cpu));
	}
	sync_core();
	this_cpu_write(marker_sync_seen, gen);

	for_each_online_cpu(cpu)
		marker_sync_wait(d, cpu, gen);
	atomic_long_inc(&marker_syncs);
	marker_max_sync = max(marker_max_sync, rdtsc() - start);
}

static __always_inline struct marker_poke *
marker_poke_find(struct marker_poke_desc *d, unsigned long addr)
{
	unsigned int i;

	for (i = 0; i < d->nr; i++)
		if (d->vec[i].addr == addr)
			return &d->vec[i];
	return NULL;
}

static __always_inline void marker_emulate(struct pt_regs *regs,
					   const struct marker_poke *p)
{
	if (p->call)
		int3_emulate_call(regs, p->next);
	else
		int3_emulate_jmp(regs, p->next);
	arch_atomic_long_inc(&marker_emulated);
}

static __always_inline void marker_hold_done(u64 start)
{
	u64 held = rdtsc() - start;

	if (held > raw_cpu_read(marker_max_hold))
		raw_cpu_write(marker_max_hold, held);
}

/*
 * A hit after release: this CPU fetched the int3 before it saw the new
 * byte 0, and waiting would gain nothing.  It emulates, then returns
 * through IRET, having seen "released" (written after byte 0): by the
 * cross-modifying-code rules it cannot fetch the int3 again in this chunk.
 * If it does, what it ran was a stale copy of the instruction; count
 * those, as only an emulator makes them.
 */
static __always_inline void marker_late(struct marker_poke_desc *d,
					const struct marker_poke *p,
					struct pt_regs *regs)
{
	arch_atomic_long_inc(&marker_late_hits);
	if (raw_cpu_read(marker_late_seq) == d->seq)
		arch_atomic_long_inc(&marker_stale);
	else
		raw_cpu_write(marker_late_seq, d->seq);
	marker_sync_ack();
	marker_emulate(regs, p);
}

/*
 * Wait for byte 0 to be final, acknowledging syncs meanwhile, then return
 * to the site.  Give up after d->timeout cycles and emulate.
 */
static __always_inline void marker_hold(struct marker_poke_desc *d,
					const struct marker_poke *p,
					struct pt_regs *regs)
{
	u64 start = rdtsc();

	arch_atomic_inc(&marker_holding);
	/* Pairs with the release in marker_poke_chunk(). */
	while (!smp_load_acquire(&d->released)) {
		marker_sync_ack();
		if (READ_ONCE(d->unhold)) {
			arch_atomic_long_inc(&marker_unheld);
			marker_emulate(regs, p);
			goto out;
		}
		if (rdtsc() - start > d->timeout) {
			arch_atomic_long_inc(&marker_timeouts);
			marker_emulate(regs, p);
			goto out;
		}
		cpu_relax();
	}
	/*
	 * Run the new instruction; the IRET back to it serializes.  RF keeps
	 * an execute breakpoint on the site, which fired before the int3,
	 * from firing again for this pass.
	 */
	regs->ip -= INT3_INSN_SIZE;
	regs->flags |= X86_EFLAGS_RF;
	arch_atomic_long_inc(&marker_holds);
out:
	marker_hold_done(start);
	arch_atomic_dec(&marker_holding);
}

/*
 * Whether a CPU that trapped on a site of the chunk at @regs may wait for
 * the chunk's release.  Only where the trapped context is preemptible:
 * interrupts on, no lock held, no preempt-, softirq-, hardirq- or
 * NMI-disabled section.  The patcher needs nothing else to release it:
 *
 *  - its own steps run with interrupts off, so none of its interrupt
 *    handlers can wait for what a held CPU owns;
 *  - its syncs need every other CPU to acknowledge, from an IPI or from
 *    the hold loop.  A CPU with interrupts off can only be waiting for
 *    something owned by a non-preemptible context (spinlocks, raw or
 *    bit spinlocks, seqcount writers, an IPI's completion): the kernel
 *    never spins with interrupts off for a context that can be
 *    preempted, as that context could be preempted for as long as the
 *    scheduler likes.  A held CPU is, to the other CPUs, such a
 *    preempted context.  Every such wait therefore ends without the
 *    held CPU, and its CPU then takes the IPI.
 *
 * So a hold lasts one chunk's window, and the window depends only on how
 * long other CPUs keep interrupts off.  Without CONFIG_PREEMPT_COUNT a
 * spinlock leaves no trace in preempt_count(): every CPU emulates.
 */
static __always_inline bool marker_may_hold(const struct marker_poke_desc *d,
					    const struct pt_regs *regs)
{
	return IS_ENABLED(CONFIG_PREEMPT_COUNT) &&
	       (regs->flags & X86_EFLAGS_IF) && !preempt_count() &&
	       READ_ONCE(d->owner) != raw_smp_processor_id();
}

/**
 * marker_int3_handler() - handle an int3 on a site being changed
 * @regs: the trap's registers
 *
 * Called from exc_int3() before any other int3 user, and self-contained:
 * it calls nothing that could itself meet a site.
 *
 * Return: true if the int3 was on a site being changed and is handled.
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
	if (!arch_atomic_inc_not_zero(&d->refs))
		return false;

	p = marker_poke_find(d, regs->ip - INT3_INSN_SIZE);
	if (!p)
		goto out;
	ret = true;
	/* Pairs with the release in marker_poke_chunk(). */
	if (smp_load_acquire(&d->released))
		marker_late(d, p, regs);
	else if (marker_may_hold(d, regs))
		marker_hold(d, p, regs);
	else
		marker_emulate(regs, p);
out:
	/* Done with @d before the patcher may see refs drop. */
	smp_mb__before_atomic();
	arch_atomic_dec(&d->refs);
	return ret;
}

/* Whether the chunk being changed, if any, has the site at @addr. */
static bool marker_chunk_has(unsigned long addr)
{
	struct marker_poke_desc *d = &marker_desc;
	bool ret;

	/* Pairs with the smp_wmb() between publishing @d and the int3s. */
	smp_rmb();
	if (!arch_atomic_inc_not_zero(&d->refs))
		return false;
	ret = marker_poke_find(d, addr);
	/* Done with @d before the patcher may see refs drop. */
	smp_mb__before_atomic();
	arch_atomic_dec(&d->refs);
	return ret;
}

NOKPROBE_SYMBOL(marker_chunk_has);

/**
 * marker_int3_fixup() - an int3 gone from a marker site
 * @regs: the trap's registers
 *
 * Called by do_int3() before kprobes, for an int3 that
 * marker_int3_handler() did not take.  If byte 0 of a marker site, or of
 * the call in its block, no longer holds an int3, run what it holds now,
 * emulated: kprobes would send the CPU back to fetch it again.  On hardware that is
 * an int3 removed right after the CPU hit it.  An emulator running a
 * stale copy of our int3 (see marker_late()) after its chunk also gets
 * here, and going back would meet the same copy again, and again.
 *
 * The first test keeps other int3s cheap: the site lookup, linear in the
 * number of sites, is made only for an int3 already gone.
 *
 * Context: int3 trap from kernel mode, after irqentry_nmi_enter().
 * Return: true if the trap is handled.
 */
bool marker_int3_fixup(struct pt_regs *regs)
{
	unsigned long addr = regs->ip - INT3_INSN_SIZE, target;
	u8 byte0;

	if (user_mode(regs))
		return false;
	byte0 = READ_ONCE(*(u8 *)addr);
	if (byte0 == INT3_INSN_OPCODE)
		return false;
	if (byte0 == CALL_INSN_OPCODE && marker_call_at((void *)addr)) {
		int3_emulate_call(regs, addr + CALL_INSN_SIZE +
					*(s32 *)(addr + 1));
		goto out;
	}
	target = marker_site_target_at((void *)addr);
	if (!target)
		return false;
	if (byte0 == JMP32_INSN_OPCODE)
		int3_emulate_jmp(regs, target);
	else if (byte0 == x86_nops[MARKER_SITE_SIZE][0])
		int3_emulate_jmp(regs, addr + MARKER_SITE_SIZE);
	else
		return false;
out:
	atomic_long_inc(&marker_retried);
	return true;
}

NOKPROBE_SYMBOL(marker_int3_fixup);

/*
 * Asked last, when neither kprobes nor anyone else took an int3 that is
 * still in memory.  If a chunk has the site, it was set up since the trap
 * (an emulator's stale copy of an earlier int3 met it): send the CPU back,
 * to trap into that chunk.  No chunk can end meanwhile: its syncs wait for
 * this CPU, which has interrupts off.  Any other int3 on a marker site is
 * someone else's: say so once, and leave it to die() rather than send the
 * CPU back to trap again forever.
 */
static int marker_int3_notify(struct notifier_block *nb, unsigned long val,
			      void *data)
{
	struct die_args *args = data;
	struct pt_regs *regs = args->regs;
	unsigned long addr = regs->ip - INT3_INSN_SIZE;

	if (val != DIE_INT3 || user_mode(regs))
		return NOTIFY_DONE;
	if (marker_chunk_has(addr)) {
		regs->ip = addr;
		atomic_long_inc(&marker_retried);
		return NOTIFY_STOP;
	}
	if (marker_site_target_at((void *)addr) || marker_call_at((void *)addr))
		pr_warn_once("int3 at %pS, a marker site, is not ours\n",
			     (void *)addr);
	return NOTIFY_DONE;
}

NOKPROBE_SYMBOL(marker_int3_notify);

static struct notifier_block marker_int3_nb = {
	.notifier_call = marker_int3_notify,
	.priority = INT_MIN,
};

static int __init marker_x86_init(void)
{
	return register_die_notifier(&marker_int3_nb);
}
core_initcall(marker_x86_init);

static void marker_poke_write(struct marker_poke_desc *d, unsigned int from,
			      unsigned int len)
{
	static const u8 int3 = INT3_INSN_OPCODE;
	struct marker_poke *p;

	for (p = d->vec; p < d->vec + d->nr; p++)
		text_poke((void *)p->addr + from, len ? p->new + from : &int3,
			  len ?: INT3_INSN_SIZE);
	marker_test_step(0);
}

/*
 * Change the sites in marker_desc: three steps, three syncs.
 * Context: text_mutex held, CPU hotplug locked out.
 */
static void marker_poke_chunk(struct marker_poke_desc *d)
{
	u64 khz = tsc_khz ?: 1000000;
	unsigned long flags;
	unsigned int i;
	u64 window;

	lockdep_assert_held(&text_mutex);
	/* marker_sync() waits for every online CPU. */
	lockdep_assert_cpus_held();
	if (!d->nr)
		return;

	preempt_disable();
	d->owner = smp_processor_id();
	d->released = 0;
	d->seq++;
	d->unhold = 0;
	d->timeout = khz * READ_ONCE(marker_hold_timeout_ms);
	d->patience = khz * MARKER_SYNC_PATIENCE_MS;
	d->resend = div_u64(khz * MARKER_SYNC_RESEND_US, 1000);
	atomic_set_release(&d->refs, 1);
	/* Pairs with the smp_rmb() in marker_int3_handler(). */
	smp_wmb();

	/* No interrupt handler here may wait for a held CPU. */
	local_irq_save(flags);
	window = rdtsc();
	marker_poke_write(d, 0, 0);
	marker_sync(d);
	marker_test_step(1);

	marker_poke_write(d, 1, MARKER_SITE_SIZE - 1);
	marker_sync(d);
	marker_test_step(2);

	/* For Intel PT decoders, as text_poke_bp() does. */
	for (i = 0; i < d->nr; i++)
		perf_event_text_poke((void *)d->vec[i].addr, d->vec[i].old,
				     MARKER_SITE_SIZE, d->vec[i].new,
				     MARKER_SITE_SIZE);
	marker_poke_write(d, 0, 1);
	/* Byte 0 written before held CPUs return to it. */
	smp_store_release(&d->released, 1);
	local_irq_restore(flags);
	marker_sync(d);
	window = rdtsc() - window;
	marker_max_window = max(marker_max_window, window);
	marker_test_step(3);

	/*
	 * Nothing is written after the last sync.  (An emulator's stale
	 * copies of an int3 are handled where they trap: marker_late() and
	 * marker_int3_fixup().)
	 */

	if (!atomic_dec_and_test(&d->refs))
		atomic_cond_read_acquire(&d->refs, !VAL);
	preempt_enable();
	d->nr = 0;
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
 * No CPU is held.
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

	marker_site_insn(s, !armed, p->old);
	marker_site_insn(s, armed, p->new);
	/* Any other int3 (a disabled kprobe has none) is refused below. */
	if (kp && kprobe_armed_at(code))
		return marker_poke_kprobed(kp, code, p->old, p->new, armed);
	if (!memcmp(code, p->new, MARKER_SITE_SIZE))
		return 0;
	if (memcmp(code, p->old, MARKER_SITE_SIZE))
		return marker_refuse(code, p->old, armed);
	/* A disabled kprobe puts its int3 back with what the site will be. */
	if (kp)
		kprobe_update_opcode(code, p->new[0]);
	p->addr = (unsigned long)code;
	p->next = armed ? marker_site_target(s) :
			  p->addr + MARKER_SITE_SIZE;
	p->call = false;
	d->nr++;
	return 0;
}

/*
 * Queue @c in @d to call @target, unless it does.  A call is only ever
 * changed here, under text_mutex, and kprobes keep off it: anything but
 * a call there is refused.
 */
static int marker_poke_add_call(struct marker_poke_desc *d,
				const struct marker_call *c,
				unsigned long target)
{
	struct marker_poke *p = &d->vec[d->nr];
	void *code = (void *)marker_call_code(c);

	memcpy(p->old, code, MARKER_CALL_SIZE);
	if (p->old[0] != CALL_INSN_OPCODE) {
		pr_err("call %pS: bytes %*ph, not a call: not changed\n", code,
		       MARKER_CALL_SIZE, p->old);
		return -EINVAL;
	}
	__text_gen_insn(p->new, CALL_INSN_OPCODE, code, (void *)target,
			CALL_INSN_SIZE);
	if (!memcmp(p->old, p->new, MARKER_CALL_SIZE))
		return 0;
	p->addr = (unsigned long)code;
	p->next = target;
	p->call = true;
	d->nr++;
	return 0;
}

/* One warning per call in which held CPUs stopped waiting. */
static void marker_timeouts_tell(void)
{
	unsigned long n = atomic_long_read(&marker_timeouts) +
			  atomic_long_read(&marker_unheld);

	if (n == marker_timeouts_told)
		return;
	pr_warn("%lu hit(s) held over %u ms, or while a sync stalled for %u ms: emulated\n",
		n - marker_timeouts_told, marker_hold_timeout_ms,
		MARKER_SYNC_PATIENCE_MS);
	marker_timeouts_told = n;
}

/*
 * Lock order: markers_mutex (the caller's) -> kprobe_mutex -> CPU hotplug
 * lock -> text_mutex, as kernel/marker.c says.
 */
static struct marker_poke_desc *marker_patch_begin(void)
{
	kprobe_text_lock();
	cpus_read_lock();
	mutex_lock(&text_mutex);
	return &marker_desc;
}

static void marker_patch_end(struct marker_poke_desc *d)
{
	marker_poke_chunk(d);
	marker_timeouts_tell();
	mutex_unlock(&text_mutex);
	cpus_read_unlock();
	kprobe_text_unlock();
}

/**
 * arch_marker_change() - arm or disarm sites, point calls elsewhere
 * @v: the changes
 * @nr: how many
 *
 * Instructions change MARKER_CHUNK at a time, with three syncs per chunk.
 * A site's bytes must be what its other state says they are, byte 0 being
 * a kprobe's saved opcode where an armed kprobe sits; a call must be a
 * call.  Anything else (another patcher's bytes) is left alone and logged.
 *
 * Context: may sleep; takes kprobe_text_lock(), the CPU hotplug lock and
 * text_mutex.
 * Return: 0, or -EINVAL if some instruction was not as expected; the
 * others are changed.
 */
int arch_marker_change(const struct marker_change *v, unsigned int nr)
{
	struct marker_poke_desc *d = marker_patch_begin();
	unsigned int i;
	int ret = 0;

	for (i = 0; i < nr; i++) {
		if (v[i].site ? marker_poke_add(d, v[i].site, v[i].armed) :
				marker_poke_add_call(d, v[i].call,
						     v[i].target))
			ret = -EINVAL;
		if (d->nr == MARKER_CHUNK)
			marker_poke_chunk(d);
	}
	marker_patch_end(d);
	return ret;
}

/**
 * arch_marker_sites_set() - arm or disarm marker sites
 * @sites: the sites
 * @nr: how many
 * @armed: true to make them jump to their out-of-line calls, false for
 *	   NOPs
 *
 * As arch_marker_change(), for sites only.
 *
 * Context: may sleep; takes the locks arch_marker_change() takes.
 * Return: as for arch_marker_change().
 */
int arch_marker_sites_set(const struct marker_site *const *sites,
			  unsigned int nr, bool armed)
{
	struct marker_poke_desc *d = marker_patch_begin();
	unsigned int i;
	int ret = 0;

	for (i = 0; i < nr; i++) {
		if (marker_poke_add(d, sites[i], armed))
			ret = -EINVAL;
		if (d->nr == MARKER_CHUNK)
			marker_poke_chunk(d);
	}
	marker_patch_end(d);
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

/**
 * marker_x86_hold_stats() - what the int3 handler has done so far
 * @st: filled in
 */
void marker_x86_hold_stats(struct marker_hold_stats *st)
{
	u64 khz = tsc_khz ?: 1000000;
	u64 max = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		max = max(max, per_cpu(marker_max_hold, cpu));
	st->holds = atomic_long_read(&marker_holds);
	st->emulated = atomic_long_read(&marker_emulated);
	st->syncs = atomic_long_read(&marker_syncs);
	st->timeouts = atomic_long_read(&marker_timeouts);
	st->unheld = atomic_long_read(&marker_unheld);
	st->retried = atomic_long_read(&marker_retried);
	st->late = atomic_long_read(&marker_late_hits);
	st->stale = atomic_long_read(&marker_stale);
	st->resends = atomic_long_read(&marker_resends);
	st->holding = atomic_read(&marker_holding);
	st->max_hold_ns = div64_u64(max * 1000000, khz);
	st->max_hold_us = div64_u64(st->max_hold_ns, 1000);
	st->max_window_ns = div64_u64(READ_ONCE(marker_max_window) * 1000000,
				      khz);
	st->max_sync_ns = div64_u64(READ_ONCE(marker_max_sync) * 1000000, khz);
}
EXPORT_SYMBOL_GPL(marker_x86_hold_stats);

/**
 * marker_x86_hold_stats_reset_max() - start measuring the longest hold anew
 *
 * For benchmarks that want the longest hold of one operation.
 */
void marker_x86_hold_stats_reset_max(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		per_cpu(marker_max_hold, cpu) = 0;
	mutex_lock(&text_mutex);
	marker_max_window = 0;
	marker_max_sync = 0;
	mutex_unlock(&text_mutex);
}
EXPORT_SYMBOL_GPL(marker_x86_hold_stats_reset_max);
