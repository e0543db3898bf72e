// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of what a raw_tp or tp_btf program on a marker reads: how
 * many arguments, and each one as a 64-bit value, sign-extended if its C
 * type is signed, as a site's 8-byte slot holds it.  The values are read
 * from a variadic call's va_list, as on an architecture whose sites build
 * none (marker_bpf_read_args()).
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/stdarg.h>

#include "marker_bpf.h"
#include "marker_format.h"

/* Parse @format into an event that the next parse() or the exit frees. */
static struct marker_event *parse(struct kunit *test, const char *format)
{
	struct marker_event *ev;

	marker_event_free(test->priv);
	test->priv = NULL;
	ev = marker_event_alloc("marker_bpf_test", format);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	test->priv = ev;
	marker_format_parse(ev);
	return ev;
}

static void marker_bpf_test_exit(struct kunit *test)
{
	marker_event_free(test->priv);
}

/* Read the first @nr arguments after @nr into @v, as the probe does. */
static void read_args(const struct marker_event *ev, u64 *v, unsigned int nr,
		      ...)
{
	va_list args;

	va_start(args, nr);
	marker_bpf_read_args(ev, &args, v, nr);
	va_end(args);
}

/* One argument per conversion and per '*', at most 12. */
static void marker_bpf_test_count(struct kunit *test)
{
	static const struct {
		const char *format;
		unsigned int nr;
	} cases[] = {
		{ MARK_NOARGS, 0 },
		{ "pid %d comm %s", 2 },
		{ "w %*d", 2 },
		{ "s %-*.*s", 3 },
		{ "w %*d n %n s %pS v %u", 5 },
		{ "%d %d %d %d %d %d %d %d %d %d %d %d", 12 },
		{ "%d %d %d %d %d %d %d %d %d %d %d %d %d", 12 },
		{ "%*d %*d %*d %*d %*d %*d %*d", 12 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    marker_bpf_nr_args(parse(test,
							     cases[i].format)),
				    cases[i].nr, "%s", cases[i].format);
}

/* Check the arguments @ev reads against @want, and nothing past them. */
static void expect_args(struct kunit *test, const struct marker_event *ev,
			const u64 *v, const u64 *want, unsigned int nr)
{
	unsigned int i;

	KUNIT_EXPECT_EQ(test, marker_bpf_nr_args(ev), nr);
	for (i = 0; i < nr; i++)
		KUNIT_EXPECT_EQ_MSG(test, v[i], want[i], "argument %u", i);
	KUNIT_EXPECT_EQ(test, v[nr], 0x5a5a);
}

/* Every length modifier, signed and unsigned. */
static void marker_bpf_test_widths(struct kunit *test)
{
	const u64 want[] = {
		(u64)(s8)-5, 250, (u64)(short)-300, 65000, (u64)-70000,
		4000000000U, (u64)-9L, (u64)(ULONG_MAX - 1), (u64)-(1LL << 40),
		~0ULL, (u64)(ssize_t)-3, 7,
	};
	struct marker_event *ev;
	u64 v[ARRAY_SIZE(want) + 1];

	ev = parse(test, "%hhd %hhu %hd %hu %d %u %ld %lu %lld %llu %zd %zu");
	v[ARRAY_SIZE(want)] = 0x5a5a;
	read_args(ev, v, ARRAY_SIZE(want), (signed char)-5, (unsigned char)250,
		  (short)-300, (unsigned short)65000, -70000, 4000000000U, -9L,
		  ULONG_MAX - 1, -(1LL << 40), ~0ULL, (ssize_t)-3, (size_t)7);
	expect_args(test, ev, v, want, ARRAY_SIZE(want));
}

/* Characters, pointers and strings. */
static void marker_bpf_test_pointers(struct kunit *test)
{
	static const char str[] = "str";
	const u64 want[] = {
		'x', (u64)(unsigned long)test, (u64)(unsigned long)str,
		(u64)(unsigned long)test,
	};
	struct marker_event *ev;
	u64 v[ARRAY_SIZE(want) + 1];

	ev = parse(test, "m %c n %p s %s f %pS");
	v[ARRAY_SIZE(want)] = 0x5a5a;
	read_args(ev, v, ARRAY_SIZE(want), 'x', (void *)test, str,
		  (void *)test);
	expect_args(test, ev, v, want, ARRAY_SIZE(want));
}

/* '*' widths and precisions are arguments of their own, read as ints. */
static void marker_bpf_test_stars(struct kunit *test)
{
	struct marker_event *ev = parse(test, "w %*d p %-*.*s v %u");
	static const char str[] = "abc";
	u64 v[6] = { 0 };

	KUNIT_ASSERT_EQ(test, marker_bpf_nr_args(ev), 6);
	read_args(ev, v, 6, 5, -7, -2, 3, str, 9U);
	KUNIT_EXPECT_EQ(test, v[0], 5);
	KUNIT_EXPECT_EQ(test, v[1], (u64)-7);
	KUNIT_EXPECT_EQ(test, v[2], (u64)-2);
	KUNIT_EXPECT_EQ(test, v[3], 3);
	KUNIT_EXPECT_EQ(test, v[4], (u64)(unsigned long)str);
	KUNIT_EXPECT_EQ(test, v[5], 9);
}

/* A program that reads fewer arguments gets only those. */
static void marker_bpf_test_fewer(struct kunit *test)
{
	struct marker_event *ev = parse(test, "w %*d v %d u %u");
	u64 v[4] = { 0x5a, 0x5a, 0x5a, 0x5a };

	read_args(ev, v, 1, 4, -1, 2U);
	KUNIT_EXPECT_EQ(test, v[0], 4);
	KUNIT_EXPECT_EQ(test, v[1], 0x5a);
	read_args(ev, v, 2, 4, -1, 2U);
	KUNIT_EXPECT_EQ(test, v[1], (u64)-1);
	KUNIT_EXPECT_EQ(test, v[2], 0x5a);
}

static struct kunit_case marker_bpf_test_cases[] = {
	KUNIT_CASE(marker_bpf_test_count),
	KUNIT_CASE(marker_bpf_test_widths),
	KUNIT_CASE(marker_bpf_test_pointers),
	KUNIT_CASE(marker_bpf_test_stars),
	KUNIT_CASE(marker_bpf_test_fewer),
	{}
};

static struct kunit_suite marker_bpf_test_suite = {
	.name = "marker_bpf",
	.exit = marker_bpf_test_exit,
	.test_cases = marker_bpf_test_cases,
};

kunit_test_suites(&marker_bpf_test_suite);

MODULE_DESCRIPTION("KUnit tests for raw_tp programs' view of marker arguments");
MODULE_LICENSE("GPL");
