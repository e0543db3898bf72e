// SPDX-License-Identifier: GPL-2.0
/*
 * The trampolines through which a marker site calls several probes
 * (marker_tramps.S): a pool of them per number of probes, filled in for a
 * probe array and handed to kernel/marker.c, which points the marker's
 * calls at one.
 *
 * A trampoline is written only while no CPU can run it: when it is taken
 * from the pool, no call leads to it, and a grace period has passed since
 * the last call that did was pointed elsewhere (arch_marker_tramp_put()).
 * A site's block runs with preemption off, and so does a trampoline it
 * calls, so that grace period covers every CPU that entered it.  Once
 * filled in, a trampoline is reached only through a call that the
 * patcher writes in three synced steps (marker.c), so every CPU is
 * serialized after the writes before it can enter it.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/init.h>
#include <linux/marker.h>
#include <linux/marker_test.h>
#include <linux/memory.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <asm/insn.h>
#include <asm/text-patching.h>

#define MARKER_TRAMP_POOL	8	/* trampolines per number of probes */
#define MARKER_TRAMP_SIZES	(MARKER_TRAMP_MAX_PROBES - 1)

#define MARKER_TRAMP_DECLARE(nr)					\
	void marker_tramp_##nr##_0(void), marker_tramp_##nr##_1(void),	\
	     marker_tramp_##nr##_2(void), marker_tramp_##nr##_3(void),	\
	     marker_tramp_##nr##_4(void), marker_tramp_##nr##_5(void),	\
	     marker_tramp_##nr##_6(void), marker_tramp_##nr##_7(void)

#define MARKER_TRAMP_ADDRS(nr)						\
	{ marker_tramp_##nr##_0, marker_tramp_##nr##_1,			\
	  marker_tramp_##nr##_2, marker_tramp_##nr##_3,			\
	  marker_tramp_##nr##_4, marker_tramp_##nr##_5,			\
	  marker_tramp_##nr##_6, marker_tramp_##nr##_7 }

MARKER_TRAMP_DECLARE(2);
MARKER_TRAMP_DECLARE(3);
MARKER_TRAMP_DECLARE(4);

static void (*const marker_tramp_text[MARKER_TRAMP_SIZES][MARKER_TRAMP_POOL])(void) = {
	MARKER_TRAMP_ADDRS(2), MARKER_TRAMP_ADDRS(3), MARKER_TRAMP_ADDRS(4),
};

/**
 * struct marker_tramp - one trampoline of the pool
 * @addr: its code
 * @used: handed out and not put back
 * @gp: the RCU state when it was last put back: reused after that
 */
struct marker_tramp {
	unsigned long addr;
	bool used;
	unsigned long gp;
};

/*
 * Where a trampoline for nr probes has probe n's probe_private (the
 * movabs to %rdi) and its call (the last probe's: a jmp), from its start;
 * the same in every trampoline of the size.  Read from the code at boot.
 */
struct marker_tramp_layout {
	u8 priv[MARKER_TRAMP_MAX_PROBES];
	u8 call[MARKER_TRAMP_MAX_PROBES];
};

/* The pool: taken and put back under text_mutex. */
static struct marker_tramp marker_tramps[MARKER_TRAMP_SIZES][MARKER_TRAMP_POOL];
static struct marker_tramp_layout marker_tramp_layouts[MARKER_TRAMP_SIZES];
static bool marker_tramps_ok __ro_after_init;

/* What marker_tramps.S calls until a trampoline is filled in. */
void marker_tramp_none(void *probe_private, void *call_private,
		       const char *fmt, va_list *args)
{
}

#define MOVABS_RDI_OPCODE	0xbf	/* with REX.W: movabs $imm64, %rdi */
#define MOVABS_INSN_SIZE	10

/* Find where @nr probes' immediates and calls are in @code. */
static int __init marker_tramp_decode(unsigned long code, unsigned int nr,
				      struct marker_tramp_layout *l)
{
	unsigned int off = 0, privs = 0, calls = 0;
	struct insn insn;
	u8 op;

	while (calls < nr && off < 256) {
		if (insn_decode_kernel(&insn, (void *)code + off) < 0)
			return -EINVAL;
		op = insn.opcode.bytes[0];
		if (op == MOVABS_RDI_OPCODE && insn.length == MOVABS_INSN_SIZE &&
		    privs < nr)
			l->priv[privs++] = off;
		if ((op == CALL_INSN_OPCODE || op == JMP32_INSN_OPCODE) &&
		    insn.length == CALL_INSN_SIZE)
			l->call[calls++] = off;
		off += insn.length;
	}
	if (privs != nr || calls != nr ||
	    *(u8 *)(code + l->call[nr - 1]) != JMP32_INSN_OPCODE)
		return -EINVAL;
	return 0;
}

static int __init marker_tramp_init(void)
{
	unsigned int s, i;

	for (s = 0; s < MARKER_TRAMP_SIZES; s++) {
		if (marker_tramp_decode((unsigned long)marker_tramp_text[s][0],
					s + 2, &marker_tramp_layouts[s])) {
			pr_err("trampolines for %u probes not as expected: none used\n",
			       s + 2);
			return 0;
		}
		for (i = 0; i < MARKER_TRAMP_POOL; i++) {
			marker_tramps[s][i].addr =
				(unsigned long)marker_tramp_text[s][i];
			marker_tramps[s][i].gp = get_completed_synchronize_rcu();
		}
	}
	marker_tramps_ok = true;
	return 0;
}
early_initcall(marker_tramp_init);

/*
 * A free trampoline for @nr probes: one whose grace period is over if
 * there is one, else the first free one, whose grace period the caller
 * waits for.
 */
static struct marker_tramp *marker_tramp_take(unsigned int nr)
{
	struct marker_tramp *t, *found = NULL;
	unsigned int i;

	lockdep_assert_held(&text_mutex);
	for (i = 0; i < MARKER_TRAMP_POOL; i++) {
		t = &marker_tramps[nr - 2][i];
		if (t->used)
			continue;
		if (poll_state_synchronize_rcu(t->gp)) {
			found = t;
			break;
		}
		found = found ?: t;
	}
	if (found)
		found->used = true;
	return found;
}

/* Write @len bytes of @t's code at @off. */
static void marker_tramp_poke(const struct marker_tramp *t, unsigned int off,
			      const void *bytes, size_t len)
{
	void *addr = (void *)t->addr + off;
	u8 old[MOVABS_INSN_SIZE];

	memcpy(old, addr, len);
	text_poke(addr, bytes, len);
	perf_event_text_poke(addr, old, len, bytes, len);
}

/* Make @t call @nr closures of @p, the last by a tail jump. */
static void marker_tramp_fill(const struct marker_tramp *t,
			      const struct marker_probe_closure *p,
			      unsigned int nr)
{
	const struct marker_tramp_layout *l = &marker_tramp_layouts[nr - 2];
	u8 insn[MOVABS_INSN_SIZE];
	unsigned int n;
	void *dest;
	u8 op;

	lockdep_assert_held(&text_mutex);
	for (n = 0; n < nr; n++) {
		memcpy(insn, (void *)t->addr + l->priv[n], 2);
		memcpy(insn + 2, &p[n].probe_private, sizeof(void *));
		marker_tramp_poke(t, l->priv[n], insn, MOVABS_INSN_SIZE);
		/* A call goes through the probe's accounting thunk, a jmp not. */
		op = n < nr - 1 ? CALL_INSN_OPCODE : JMP32_INSN_OPCODE;
		dest = op == CALL_INSN_OPCODE ?
		       callthunks_translate_call_dest(p[n].func) : p[n].func;
		__text_gen_insn(insn, op, (void *)t->addr + l->call[n], dest,
				CALL_INSN_SIZE);
		marker_tramp_poke(t, l->call[n], insn, CALL_INSN_SIZE);
	}
}

/**
 * arch_marker_tramp_get() - a trampoline that calls a probe array's probes
 * @p: the closures, in the order they are called
 * @nr: how many, at least 2
 *
 * Takes a trampoline from the pool, waiting for its grace period if none
 * of the free ones has had it, and fills it in with @p's probes and
 * probe_private, for the calls of the array's markers to call.  Nothing
 * leads to it yet.
 *
 * Context: may sleep; the caller holds markers_mutex and the CPU hotplug
 * lock, not text_mutex.
 * Return: the trampoline's address, or 0 if @nr is more than
 * MARKER_TRAMP_MAX_PROBES or none is free: calls then go to
 * marker_iterate().
 */
unsigned long arch_marker_tramp_get(const struct marker_probe_closure *p,
				    unsigned int nr)
{
	struct marker_tramp *t;

	if (nr < 2 || nr > MARKER_TRAMP_MAX_PROBES || !marker_tramps_ok)
		return 0;
	mutex_lock(&text_mutex);
	t = marker_tramp_take(nr);
	mutex_unlock(&text_mutex);
	if (!t)
		return 0;
	cond_synchronize_rcu(t->gp);
	mutex_lock(&text_mutex);
	marker_tramp_fill(t, p, nr);
	mutex_unlock(&text_mutex);
	return t->addr;
}

/**
 * arch_marker_tramp_put() - give a trampoline back to the pool
 * @addr: from arch_marker_tramp_get()
 *
 * No call may lead to it any more.  It is written again only a grace
 * period after this, when every CPU that entered it has left it.
 *
 * Context: may sleep.
 */
void arch_marker_tramp_put(unsigned long addr)
{
	unsigned int s, i;

	mutex_lock(&text_mutex);
	for (s = 0; s < MARKER_TRAMP_SIZES; s++) {
		for (i = 0; i < MARKER_TRAMP_POOL; i++) {
			struct marker_tramp *t = &marker_tramps[s][i];

			if (t->addr != addr)
				continue;
			WARN_ON_ONCE(!t->used);
			t->gp = get_state_synchronize_rcu();
			t->used = false;
			goto out;
		}
	}
	WARN_ONCE(1, "markers: %pS is not a trampoline\n", (void *)addr);
out:
	mutex_unlock(&text_mutex);
}

#ifdef CONFIG_MARKERS_X86_KUNIT_TEST
/**
 * marker_x86_tramp_of() - the trampoline that a call goes to
 * @dest: where the call is written to go
 *
 * Return: the trampoline's address if @dest is one, or its accounting
 * thunk, else 0.
 */
unsigned long marker_x86_tramp_of(unsigned long dest)
{
	unsigned long found = 0;
	unsigned int s, i;

	mutex_lock(&text_mutex);
	for (s = 0; s < MARKER_TRAMP_SIZES && !found; s++) {
		for (i = 0; i < MARKER_TRAMP_POOL; i++) {
			unsigned long addr = marker_tramps[s][i].addr;

			if (addr && (dest == addr || dest ==
				     (unsigned long)callthunks_translate_call_dest((void *)addr))) {
				found = addr;
				break;
			}
		}
	}
	mutex_unlock(&text_mutex);
	return found;
}
#endif
