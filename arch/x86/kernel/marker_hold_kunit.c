// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite markers_x86_hold: the bytes of a site at every step of its
 * patching, a task held there until its site is released, the patcher's
 * own hit emulated, a hit after release, refused bytes, and a kprobe on a
 * site that is armed and disarmed under it (x86-64).
 */

#include "marker_kunit.h"

static void hold_expect_bytes(struct kunit *test, bool armed)
{
	u8 old[MARKER_SITE_SIZE], new[MARKER_SITE_SIZE];

	mkt_site_bytes(mkt_ht.site, !armed, old);
	mkt_site_bytes(mkt_ht.site, armed, new);
	/* int3, then the new tail behind it, then the new first byte. */
	KUNIT_EXPECT_EQ(test, mkt_ht.bytes[1][0], INT3_INSN_OPCODE);
	KUNIT_EXPECT_EQ(test, 0, memcmp(mkt_ht.bytes[1] + 1, old + 1, 4));
	KUNIT_EXPECT_EQ(test, mkt_ht.bytes[2][0], INT3_INSN_OPCODE);
	KUNIT_EXPECT_EQ(test, 0, memcmp(mkt_ht.bytes[2] + 1, new + 1, 4));
	KUNIT_EXPECT_EQ(test, 0, memcmp(mkt_ht.bytes[3], new, 5));
	KUNIT_EXPECT_EQ(test, 0, memcmp((void *)marker_site_code(mkt_ht.site),
					new, 5));
}

/*
 * A task that meets the site after step 1 is held through step 2, is
 * released by step 3, and runs the new instruction: the armed path when
 * arming, the NOP when disarming (the probe stays connected throughout).
 */
static void markers_x86_test_hold(struct kunit *test)
{
	struct marker_hold_stats st0, st;
	bool armed;

	marker_x86_hold_stats_reset_max();
	for (armed = false; ; armed = true) {
		long hits = atomic_long_read(&mkt_probe_hits);

		marker_x86_hold_stats(&st0);
		mkt_hold_run(test, armed, NULL);
		marker_x86_hold_stats(&st);
		KUNIT_EXPECT_TRUE_MSG(test, mkt_ht.held[1], "armed %d", armed);
		KUNIT_EXPECT_TRUE_MSG(test, mkt_ht.held[2], "armed %d", armed);
		KUNIT_EXPECT_TRUE_MSG(test, !mkt_ht.held[3], "armed %d", armed);
		KUNIT_EXPECT_EQ(test, mkt_ht.passed, 1);
		KUNIT_EXPECT_EQ(test, atomic_long_read(&mkt_probe_hits),
				hits + armed);
		KUNIT_EXPECT_EQ(test, st.holds, st0.holds + 1);
		KUNIT_EXPECT_EQ(test, st.emulated, st0.emulated);
		KUNIT_EXPECT_EQ(test, st.syncs, st0.syncs + 3);
		hold_expect_bytes(test, armed);
		if (armed)
			break;
	}
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mkt_probe_bad), 0);
	/* The two holds above are measured, and the measure resets. */
	KUNIT_EXPECT_GT(test, st.max_hold_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, st.max_hold_us, st.max_hold_ns / 1000);
	kunit_info(test, "longest hold here: %llu ns\n", st.max_hold_ns);
	marker_x86_hold_stats_reset_max();
	marker_x86_hold_stats(&st);
	KUNIT_EXPECT_EQ(test, st.max_hold_ns, 0ULL);
}

/*
 * A hit of the patcher itself, preemptible between its steps, is emulated
 * as the new instruction: it would wait for its own release.
 */
static void markers_x86_test_owner(struct kunit *test)
{
	static const struct mkt_hold_opts owner = { .owner_pass = true };
	struct marker_hold_stats st0, st;
	long hits;

	/* Disarm: the emulated NOP does not call the probe. */
	hits = atomic_long_read(&mkt_probe_hits);
	marker_x86_hold_stats(&st0);
	mkt_hold_run(test, false, &owner);
	marker_x86_hold_stats(&st);
	KUNIT_EXPECT_EQ(test, mkt_ht.hits_at_owner_pass, hits);
	KUNIT_EXPECT_EQ(test, st.emulated, st0.emulated + 1);

	/* Arm: the emulated jmp does. */
	hits = atomic_long_read(&mkt_probe_hits);
	marker_x86_hold_stats(&st0);
	mkt_hold_run(test, true, &owner);
	marker_x86_hold_stats(&st);
	KUNIT_EXPECT_EQ(test, mkt_ht.hits_at_owner_pass, hits + 1);
	KUNIT_EXPECT_EQ(test, st.emulated, st0.emulated + 1);
	KUNIT_EXPECT_EQ(test, st.holds, st0.holds + 1);
}

/* Bad bytes are refused with an error, never overwritten. */
static void markers_x86_test_refuse(struct kunit *test)
{
	const struct marker_site *s = marker_test_site("markers_x86_hold");
	u8 before[MARKER_SITE_SIZE];

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_TRUE(test, arch_marker_site_armed(s));
	memcpy(before, (void *)marker_site_code(s), MARKER_SITE_SIZE);
	/* Disarming twice: the second call finds it already disarmed. */
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, false));
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, false));
	/* A torn site (armed byte 0 over a NOP tail) is left alone. */
	mkt_poke_byte(s, JMP32_INSN_OPCODE);
	KUNIT_EXPECT_EQ(test, -EINVAL, arch_marker_site_set(s, false));
	KUNIT_EXPECT_EQ(test, -EINVAL, arch_marker_site_set(s, true));
	KUNIT_EXPECT_EQ(test, *(u8 *)marker_site_code(s), JMP32_INSN_OPCODE);
	mkt_poke_byte(s, x86_nops[5][0]);
	KUNIT_EXPECT_EQ(test, 0, memcmp((void *)marker_site_code(s),
					x86_nops[5], MARKER_SITE_SIZE));
	KUNIT_EXPECT_EQ(test, 0, arch_marker_site_set(s, true));
	KUNIT_EXPECT_EQ(test, 0, memcmp((void *)marker_site_code(s), before,
					MARKER_SITE_SIZE));
}

/*
 * A kprobe on the site's first byte counts every pass exactly, while the
 * site is armed and disarmed under it with passers on every CPU, the
 * patcher's own included: between two patches the patcher lets them run.
 */
#define KPROBE_PASSES	2000
#define KPROBE_TOGGLES	200
#define KPROBE_SECONDS	120

static atomic_t kprobe_passers_done;

static int kprobe_passer(void *data)
{
	int i;

	for (i = 0; i < KPROBE_PASSES; i++) {
		mkt_pass_hold();
		if (!(i & 63))
			cond_resched_tasks_rcu_qs();
	}
	atomic_inc(&kprobe_passers_done);
	return mkt_park();
}

static bool passers_running(int n)
{
	return atomic_read(&kprobe_passers_done) < n;
}

static void markers_x86_test_kprobe_toggle(struct kunit *test)
{
	const struct marker_site *s = marker_test_site("markers_x86_hold");
	struct task_struct *t[NR_CPUS] = {};
	struct kprobe *kp;
	unsigned long end = jiffies + KPROBE_SECONDS * HZ;
	int cpu, i, n = 0, refused = 0;

	KUNIT_ASSERT_NOT_NULL(test, s);
	kp = mkt_site_kprobe(test, s);
	atomic_long_set(&mkt_probe_hits, 0);
	atomic_set(&kprobe_passers_done, 0);
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(kp));

	for_each_online_cpu(cpu) {
		t[cpu] = mkt_thread_on(kprobe_passer, NULL, cpu,
				       "markers_kp/%u");
		n += !!t[cpu];
	}
	/* At least KPROBE_TOGGLES, and until every passer is done. */
	for (i = 0; i < KPROBE_TOGGLES || passers_running(n); i++) {
		if (time_after(jiffies, end))
			break;
		refused += !!arch_marker_site_set(s, i & 1);
		/* Without preemption, the passer here runs only now. */
		cond_resched();
	}
	mkt_threads_stop(t, nr_cpu_ids);
	arch_marker_site_set(s, true);
	unregister_kprobe(kp);

	kunit_info(test, "%d toggles, %ld probe hits of %d passes\n", i,
		   atomic_long_read(&mkt_probe_hits), n * KPROBE_PASSES);
	KUNIT_EXPECT_EQ(test, refused, 0);
	KUNIT_EXPECT_FALSE_MSG(test, passers_running(n),
			       "passers still running after %d s",
			       KPROBE_SECONDS);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mkt_kprobe_hits),
			(long)n * KPROBE_PASSES);
	KUNIT_EXPECT_LE(test, atomic_long_read(&mkt_probe_hits),
			(long)n * KPROBE_PASSES);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mkt_probe_bad), 0);
	KUNIT_EXPECT_TRUE(test, arch_marker_site_armed(s));
	KUNIT_EXPECT_EQ(test, *(u8 *)marker_site_code(s), JMP32_INSN_OPCODE);
}

/*
 * A trap after release (the CPU fetched the int3 before byte 0 became
 * final) emulates the new instruction, and is counted late.
 */
static void markers_x86_test_late(struct kunit *test)
{
	static const struct mkt_hold_opts late = { .late = true };
	struct marker_hold_stats st0, st;
	unsigned long next;
	bool armed;

	for (armed = false; ; armed = true) {
		marker_x86_hold_stats(&st0);
		mkt_hold_run(test, armed, &late);
		marker_x86_hold_stats(&st);
		next = armed ? marker_site_target(mkt_ht.site) :
			       marker_site_code(mkt_ht.site) + MARKER_SITE_SIZE;
		KUNIT_EXPECT_TRUE(test, mkt_ht.late_handled[0]);
		KUNIT_EXPECT_TRUE(test, mkt_ht.late_handled[1]);
		KUNIT_EXPECT_EQ(test, mkt_ht.late_ip[0], next);
		KUNIT_EXPECT_EQ(test, mkt_ht.late_ip[1], next);
		KUNIT_EXPECT_EQ(test, st.late - st0.late, 2UL);
		KUNIT_EXPECT_EQ(test, st.emulated - st0.emulated, 2UL);
		if (armed)
			break;
	}
}

static struct kunit_case markers_x86_hold_cases[] = {
	KUNIT_CASE(markers_x86_test_hold),
	KUNIT_CASE(markers_x86_test_owner),
	KUNIT_CASE(markers_x86_test_refuse),
	KUNIT_CASE(markers_x86_test_kprobe_toggle),
	KUNIT_CASE(markers_x86_test_late),
	{}
};

static struct kunit_suite markers_x86_hold_suite = {
	.name = "markers_x86_hold",
	.init = mkt_hold_init,
	.exit = mkt_hold_exit,
	.test_cases = markers_x86_hold_cases,
};

kunit_test_suites(&markers_x86_hold_suite);

MODULE_DESCRIPTION("KUnit tests for x86 marker sites patched with tasks held");
MODULE_LICENSE("GPL");
