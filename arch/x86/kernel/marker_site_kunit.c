// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite markers_x86_site: a marker site's bytes at rest and armed
 * and kprobes on and next to a site (x86-64, CONFIG_HAVE_ARCH_MARKERS);
 * and, on 32-bit x86 too, a marker passed in NMI context.
 */

#include <linux/delay.h>
#include <linux/nmi.h>
#include <asm/apic.h>

#include "marker_kunit.h"

#ifdef CONFIG_HAVE_ARCH_MARKERS
/* The site's bytes, armed or not, with a kprobe's int3 on byte 0 or not. */
static void expect_site(struct kunit *test, const struct marker_site *s,
			bool armed, bool kprobed)
{
	u8 want[MARKER_SITE_SIZE];

	mkt_site_bytes(s, armed, want);
	if (kprobed)
		want[0] = INT3_INSN_OPCODE;
	KUNIT_EXPECT_EQ_MSG(test, 0, memcmp((void *)marker_site_code(s), want,
					    MARKER_SITE_SIZE),
			    "%*ph, armed %d kprobed %d", MARKER_SITE_SIZE,
			    (void *)marker_site_code(s), armed, kprobed);
	KUNIT_EXPECT_EQ(test, arch_marker_site_armed(s), armed);
}

/* A site is the 5-byte NOP at rest and a jmp to its block while armed. */
static void markers_x86_test_site_bytes(struct kunit *test)
{
	const struct marker_site *s = marker_test_site("markers_x86_site");
	struct mkt_site_log l = {};

	KUNIT_ASSERT_NOT_NULL(test, s);
	expect_site(test, s, false, false);
	KUNIT_ASSERT_EQ(test, 0, mkt_site_connect(&l));
	expect_site(test, s, true, false);
	mkt_pass_site(9);
	KUNIT_EXPECT_EQ(test, l.calls, 1);
	KUNIT_EXPECT_EQ(test, l.arg, 9);
	KUNIT_EXPECT_EQ(test, 0, mkt_site_disconnect(&l));
	expect_site(test, s, false, false);
}

#ifdef CONFIG_KPROBES
/*
 * kprobes keep off a site's bytes, except a probe on its first byte,
 * which the optimizer must not turn into a jump over the site.
 */
static void markers_x86_test_kprobe_reserved(struct kunit *test)
{
	const struct marker_site *s = marker_test_site("markers_x86_site");
	struct kprobe *kp;
	u8 *code;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	code = (u8 *)marker_site_code(s);
	kp = kunit_kzalloc(test, sizeof(*kp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kp);
	for (i = 1; i < MARKER_SITE_SIZE; i++) {
		memset(kp, 0, sizeof(*kp));
		kp->addr = (kprobe_opcode_t *)(code + i);
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL, register_kprobe(kp),
				    "kprobe on byte %d", i);
	}

	memset(kp, 0, sizeof(*kp));
	kp->addr = (kprobe_opcode_t *)code;
	kp->pre_handler = mkt_count_kprobe;
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(kp));
	msleep(200);		/* the optimizer runs after a delay */
	KUNIT_EXPECT_FALSE(test, kp->flags & KPROBE_FLAG_OPTIMIZED);
	expect_site(test, s, false, true);
	unregister_kprobe(kp);
	expect_site(test, s, false, false);
}

/*
 * A kprobe on a site's first byte fires on every pass, armed or not, and
 * the site is armed and disarmed under it: kprobes emulate what the site
 * is now, and put the right byte back when they go.
 */
static void markers_x86_test_kprobe_arm(struct kunit *test)
{
	const struct marker_site *s = marker_test_site("markers_x86_site");
	struct mkt_site_log l = {};
	struct kprobe *kp;

	KUNIT_ASSERT_NOT_NULL(test, s);
	kp = mkt_site_kprobe(test, s);
	KUNIT_ASSERT_EQ(test, 0, register_kprobe(kp));
	expect_site(test, s, false, true);

	/* Arm under the kprobe. */
	KUNIT_ASSERT_EQ(test, 0, mkt_site_connect(&l));
	expect_site(test, s, true, true);
	mkt_pass_site(1);
	mkt_pass_site(2);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mkt_kprobe_hits), 2);
	KUNIT_EXPECT_EQ(test, l.calls, 2);

	/* Disarm under it. */
	mkt_site_disconnect(&l);
	expect_site(test, s, false, true);
	mkt_pass_site(3);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mkt_kprobe_hits), 3);
	KUNIT_EXPECT_EQ(test, l.calls, 2);

	/* Arm while the kprobe is disabled; it fires once enabled. */
	KUNIT_EXPECT_EQ(test, 0, disable_kprobe(kp));
	expect_site(test, s, false, false);
	KUNIT_ASSERT_EQ(test, 0, mkt_site_connect(&l));
	expect_site(test, s, true, false);
	KUNIT_EXPECT_EQ(test, 0, enable_kprobe(kp));
	expect_site(test, s, true, true);
	mkt_pass_site(4);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mkt_kprobe_hits), 4);
	KUNIT_EXPECT_EQ(test, l.calls, 3);

	/* The kprobe goes while armed: it puts the jmp's byte back. */
	unregister_kprobe(kp);
	expect_site(test, s, true, false);
	mkt_pass_site(5);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&mkt_kprobe_hits), 4);
	KUNIT_EXPECT_EQ(test, l.calls, 4);
	mkt_site_disconnect(&l);
	expect_site(test, s, false, false);
}
#endif /* CONFIG_KPROBES */
#endif /* CONFIG_HAVE_ARCH_MARKERS */

#ifdef CONFIG_X86_LOCAL_APIC
static atomic_t nmi_pending;
static int nmi_cpu;

static int site_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	if (!atomic_read(&nmi_pending) || smp_processor_id() != nmi_cpu)
		return NMI_DONE;
	mkt_pass_site(300);
	atomic_set_release(&nmi_pending, 0);
	return NMI_HANDLED;
}

/* A marker passed in an NMI handler calls its probe, in NMI context. */
static void markers_x86_test_nmi(struct kunit *test)
{
	struct mkt_site_log l = {};
	int i;

	nmi_cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (nmi_cpu >= nr_cpu_ids)
		kunit_skip(test, "needs a second CPU");
	KUNIT_ASSERT_EQ(test, 0, register_nmi_handler(NMI_LOCAL,
						      site_nmi_handler, 0,
						      "markers_x86_site"));
	KUNIT_ASSERT_EQ(test, 0, mkt_site_connect(&l));
	atomic_set(&nmi_pending, 1);
	apic->send_IPI_mask(cpumask_of(nmi_cpu), NMI_VECTOR);
	for (i = 0; i < 50 && atomic_read_acquire(&nmi_pending); i++)
		msleep(20);
	mkt_site_disconnect(&l);
	unregister_nmi_handler(NMI_LOCAL, "markers_x86_site");

	KUNIT_EXPECT_EQ(test, atomic_read(&nmi_pending), 0);
	KUNIT_EXPECT_EQ(test, l.calls, 1);
	KUNIT_EXPECT_EQ(test, l.arg, 300);
	KUNIT_EXPECT_TRUE(test, l.in_nmi);
}
#endif

static struct kunit_case markers_x86_site_cases[] = {
#ifdef CONFIG_HAVE_ARCH_MARKERS
	KUNIT_CASE(markers_x86_test_site_bytes),
#ifdef CONFIG_KPROBES
	KUNIT_CASE(markers_x86_test_kprobe_reserved),
	KUNIT_CASE(markers_x86_test_kprobe_arm),
#endif
#endif
#ifdef CONFIG_X86_LOCAL_APIC
	KUNIT_CASE(markers_x86_test_nmi),
#endif
	{}
};

static struct kunit_suite markers_x86_site_suite = {
	.name = "markers_x86_site",
	.test_cases = markers_x86_site_cases,
};

kunit_test_suites(&markers_x86_site_suite);

MODULE_DESCRIPTION("KUnit tests for x86 marker sites");
MODULE_LICENSE("GPL");
