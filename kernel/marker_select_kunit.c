// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of marker_select() and marker_select_command(): a marker's
 * probes connected to some of its sites only, chosen by module, file,
 * function and line; and of selectors, whose probes connect to the sites
 * of their own queries.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/kthread.h>
#include <linux/marker.h>
#include <linux/marker_select.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>

#define SEL		"markers_select_kunit"
#define SEL_FMT		"site %d"

/* Two expansions of one marker, in two functions on two lines. */
static noinline void pass_sel_a(void)
{
	MARK(markers_select_kunit, SEL_FMT, 0);
}

static noinline void pass_sel_b(void)
{
	MARK(markers_select_kunit, SEL_FMT, 1);
}

static noinline bool pass_sel_enabled(void)
{
	return MARK_ENABLED(markers_select_kunit);
}

static atomic_t sel_hits[2];

static void sel_probe(void *probe_private, void *call_private,
		      const char *fmt, va_list *args)
{
	int site = va_arg(*args, int);

	if (site == 0 || site == 1)
		atomic_inc(&sel_hits[site]);
}

/* The struct marker of the expansion in @func. */
static struct marker *sel_marker(const char *func)
{
	struct marker *m;

	for (m = __start___markers; m < __stop___markers; m++)
		if (!strcmp(m->name, SEL) && m->format &&
		    !strcmp(m->func, func))
			return m;
	return NULL;
}

/* Pass both sites once; which of them called the probe, as a bitmask. */
static int sel_pass(void)
{
	int before[2] = { atomic_read(&sel_hits[0]),
			  atomic_read(&sel_hits[1]) };

	pass_sel_a();
	pass_sel_b();
	return (atomic_read(&sel_hits[0]) != before[0]) |
	       (atomic_read(&sel_hits[1]) != before[1]) << 1;
}

/*
 * Two selectors, and the hits of their probes, by selector and site, but
 * those of a task that passes the sites meanwhile.
 */
static int sel_key[2];
static atomic_t sel_key_hits[2][2];
static struct task_struct *sel_key_other;

/* Connected with the selector &sel_key[i] as its probe_private. */
static void sel_key_probe(void *probe_private, void *call_private,
			  const char *fmt, va_list *args)
{
	int *key = probe_private;
	int site = va_arg(*args, int);

	if ((site == 0 || site == 1) && current != READ_ONCE(sel_key_other))
		atomic_inc(&sel_key_hits[key - sel_key][site]);
}

static int sel_key_command(int i, const char *cmd,
			   struct marker_select_error *err)
{
	return marker_selector_command(&sel_key[i], cmd, err);
}

static int sel_key_register(int i)
{
	return marker_probe_register_selector(SEL, SEL_FMT, sel_key_probe,
					      &sel_key[i], &sel_key[i]);
}

/*
 * Pass both sites once: which of them called the probe of no selector,
 * as sel_pass() says, and, in @keys, those of each selector's probe.
 */
static int sel_key_pass(int keys[2])
{
	int before[2][2], i, j;

	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++)
			before[i][j] = atomic_read(&sel_key_hits[i][j]);
	i = sel_pass();
	for (j = 0; j < 2; j++)
		keys[j] = (atomic_read(&sel_key_hits[j][0]) != before[j][0]) |
			  (atomic_read(&sel_key_hits[j][1]) != before[j][1]) << 1;
	return i;
}

static int sel_init(struct kunit *test)
{
	atomic_set(&sel_hits[0], 0);
	atomic_set(&sel_hits[1], 0);
	return 0;
}

static void sel_exit(struct kunit *test)
{
	int i;

	marker_probe_unregister(SEL, sel_probe, NULL);
	for (i = 0; i < 2; i++) {
		marker_probe_unregister(SEL, sel_key_probe, &sel_key[i]);
		marker_select_reset(&sel_key[i]);
	}
	marker_select(SEL, NULL);
}

/*
 * Booted with markers.select="SEL_BOOT", the query is in force before the
 * suite's sites first run, at boot; without it the case is skipped.
 */
#define SEL_BOOT	"marker " SEL " func pass_sel_b"

static void markers_select_test_boot(struct kunit *test)
{
	if (!strstr(saved_command_line, SEL_BOOT))
		kunit_skip(test, "no markers.select=\"" SEL_BOOT "\"");
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(SEL, SEL_FMT,
						       sel_probe, NULL));
	KUNIT_EXPECT_EQ(test, sel_pass(), 2);
}

struct sel_word_case {
	const char *desc;
	const char *query;	/* with %u for the line of pass_sel_b */
	int want;		/* the sites selected, as sel_pass() says */
};

static const struct sel_word_case sel_word_cases[] = {
	{ "func", "func pass_sel_b", 2 },
	{ "func glob", "func pass_sel_?", 3 },
	{ "line", "line %u", 2 },
	{ "line range", "line %u-", 2 },
	{ "file by base name", "file marker_select_kunit.c", 3 },
	{ "file by path glob", "file kernel/*select_kunit.c", 3 },
	{ "other file", "file marker_kunit.c", 0 },
	{ "module", "module vmlinux func pass_sel_a", 1 },
	{ "other module", "module test_markers", 0 },
	{ "every word", "module vmlinux file *.c func *_b line 1-100000", 2 },
	{ "empty", " ", 3 },
};

KUNIT_ARRAY_PARAM_DESC(sel_word, sel_word_cases, desc);

/*
 * Each word selects the expansions it matches, and only those: their
 * sites are enabled and call the probe, the others stay disabled.
 */
static void markers_select_test_words(struct kunit *test)
{
	const struct sel_word_case *c = test->param_value;
	struct marker *a = sel_marker("pass_sel_a");
	struct marker *b = sel_marker("pass_sel_b");
	char query[128];

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	snprintf(query, sizeof(query), c->query, b->line);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(SEL, SEL_FMT,
						       sel_probe, NULL));
	KUNIT_EXPECT_EQ(test, sel_pass(), 3);
	KUNIT_ASSERT_EQ(test, 0, marker_select(SEL, query));
	KUNIT_EXPECT_EQ_MSG(test, sel_pass(), c->want, "query \"%s\"", query);
	KUNIT_EXPECT_EQ(test, !!READ_ONCE(a->state), !!(c->want & 1));
	KUNIT_EXPECT_EQ(test, !!READ_ONCE(b->state), !!(c->want & 2));
	KUNIT_ASSERT_EQ(test, 0, marker_select(SEL, ""));
	KUNIT_EXPECT_EQ(test, sel_pass(), 3);
}

static const char *const sel_bad_queries[] = {
	"line", "line x", "line 5-3", "line -", "line 1 line 2",
	"fun pass_sel_a", "func", "func a func b", "file", "module",
	"file a.c module",
};

static void sel_bad_desc(const char *const *q, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", *q);
}

KUNIT_ARRAY_PARAM(sel_bad, sel_bad_queries, sel_bad_desc);

/* A bad query is refused with -EINVAL and changes nothing. */
static void markers_select_test_bad(struct kunit *test)
{
	const char *const *q = test->param_value;

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(SEL, SEL_FMT,
						       sel_probe, NULL));
	KUNIT_ASSERT_EQ(test, 0, marker_select(SEL, "func pass_sel_a"));
	KUNIT_EXPECT_EQ(test, -EINVAL, marker_select(SEL, *q));
	KUNIT_EXPECT_EQ(test, sel_pass(), 1);
}

/* Bad names, and a query longer than a dynamic debug query may be. */
static void markers_select_test_errors(struct kunit *test)
{
	char *q = kunit_kzalloc(test, 2048, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, q);
	memset(q, 'x', 2047);
	memcpy(q, "func ", 5);
	KUNIT_EXPECT_EQ(test, -EINVAL, marker_select(NULL, "line 1"));
	KUNIT_EXPECT_EQ(test, -EINVAL, marker_select("", "line 1"));
	KUNIT_EXPECT_EQ(test, -EINVAL, marker_select(SEL, q));
}

/*
 * A query set before any probe is kept, and the first probe arms the
 * selected site only; it outlives the probes, and goes with "".
 */
static void markers_select_test_before(struct kunit *test)
{
	struct marker *a = sel_marker("pass_sel_a");

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_EQ(test, 0, marker_select(SEL, "func pass_sel_b"));
	KUNIT_EXPECT_EQ(test, sel_pass(), 0);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(SEL, SEL_FMT,
						       sel_probe, NULL));
	KUNIT_EXPECT_EQ(test, READ_ONCE(a->state), 0);
	KUNIT_EXPECT_EQ(test, sel_pass(), 2);
	marker_probe_unregister(SEL, sel_probe, NULL);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(SEL, SEL_FMT,
						       sel_probe, NULL));
	KUNIT_EXPECT_EQ(test, sel_pass(), 2);
	KUNIT_ASSERT_EQ(test, 0, marker_select(SEL, NULL));
	KUNIT_EXPECT_EQ(test, sel_pass(), 3);
}

struct sel_cmd_case {
	const char *desc;
	const char *cmd;
	int want;		/* the sites selected, as sel_pass() says */
};

static const struct sel_cmd_case sel_cmd_cases[] = {
	{ "one query", "marker " SEL " func pass_sel_a", 1 },
	{ "words first", "func pass_sel_b marker " SEL, 2 },
	{ "two queries, one name",
	  "marker " SEL " func pass_sel_a; marker " SEL " func pass_sel_b", 3 },
	{ "a query that matches nothing",
	  "marker " SEL " func pass_sel_a;marker " SEL " func nothing", 1 },
	{ "empty queries", " ;; marker " SEL " func pass_sel_b ; ", 2 },
	{ "the same query twice",
	  "marker " SEL " func pass_sel_b; marker " SEL " func pass_sel_b", 2 },
	{ "glob on the name", "marker markers_select_k?nit func *_b", 2 },
	{ "every site again", "marker " SEL " func pass_sel_a; marker " SEL,
	  3 },
	{ "removed", "marker " SEL " func pass_sel_a; !marker " SEL, 3 },
	{ "empty", "", 3 },
};

KUNIT_ARRAY_PARAM_DESC(sel_cmd, sel_cmd_cases, desc);

/* A command's queries select the sites any of them matches. */
static void markers_select_test_commands(struct kunit *test)
{
	const struct sel_cmd_case *c = test->param_value;

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(SEL, SEL_FMT,
						       sel_probe, NULL));
	KUNIT_ASSERT_EQ(test, 0, marker_select_command(c->cmd, NULL));
	KUNIT_EXPECT_EQ_MSG(test, sel_pass(), c->want, "\"%s\"", c->cmd);
	KUNIT_ASSERT_EQ(test, 0, marker_select(SEL, NULL));
	KUNIT_EXPECT_EQ(test, sel_pass(), 3);
}

/*
 * Queries added one at a time add sites; "!marker NAME WORDS" removes
 * the query with those words, "!marker GLOB" every query of the names it
 * matches; a query not in force is not removed.
 */
static void markers_select_test_remove(struct kunit *test)
{
	struct marker_select_error err;

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(SEL, SEL_FMT,
						       sel_probe, NULL));
	KUNIT_ASSERT_EQ(test, 0, marker_select_command("marker " SEL
						       " func pass_sel_a", NULL));
	KUNIT_EXPECT_EQ(test, sel_pass(), 1);
	KUNIT_ASSERT_EQ(test, 0, marker_select_command("marker " SEL
						       " line 1-", NULL));
	KUNIT_EXPECT_EQ(test, sel_pass(), 3);
	KUNIT_ASSERT_EQ(test, 0, marker_select_command("!marker " SEL
						       " line 1-", NULL));
	KUNIT_EXPECT_EQ(test, sel_pass(), 1);
	KUNIT_EXPECT_EQ(test, -ENOENT,
			marker_select_command("!marker " SEL " line 1-", &err));
	KUNIT_EXPECT_STREQ(test, marker_select_errs[err.type],
			   "No such query in force");
	KUNIT_EXPECT_EQ(test, sel_pass(), 1);
	KUNIT_ASSERT_EQ(test, 0, marker_select_command("!marker markers_sel*",
						       NULL));
	KUNIT_EXPECT_EQ(test, sel_pass(), 3);
}

struct sel_err_case {
	const char *cmd;
	int ret;
	const char *why;	/* marker_select_errs[] */
	unsigned int pos;	/* of the word at fault */
};

static const struct sel_err_case sel_err_cases[] = {
	{ "marker " SEL " bogus 1", -EINVAL, "Unknown keyword", 28 },
	{ "func pass_sel_a", -EINVAL, "No 'marker NAME' in the query", 0 },
	{ "marker a marker b", -EINVAL, "'marker' given twice in one query", 9 },
	{ "  marker", -EINVAL, "'marker' without a name", 2 },
	{ "marker " SEL " func", -EINVAL, "Keyword without a value", 28 },
	{ "marker " SEL " line 9-1", -EINVAL, "Bad line range", 33 },
	{ "marker " SEL " func a func b", -EINVAL, "Keyword given twice", 35 },
	{ "marker " SEL " func a; line 1", -EINVAL,
	  "No 'marker NAME' in the query", 36 },
	{ "marker no_marker_like_this* func a", -ENOENT,
	  "No loaded marker matches this name", 7 },
	{ "!marker " SEL " func a", -ENOENT, "No such query in force", 8 },
};

static void sel_err_desc(const struct sel_err_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->cmd);
}

KUNIT_ARRAY_PARAM(sel_err, sel_err_cases, sel_err_desc);

/*
 * A bad command is refused whole, saying why and where, and changes
 * nothing: the first query of "func a; line 1" is not applied either.
 */
static void markers_select_test_command_errors(struct kunit *test)
{
	const struct sel_err_case *c = test->param_value;
	struct marker_select_error err;

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(SEL, SEL_FMT,
						       sel_probe, NULL));
	KUNIT_EXPECT_EQ(test, c->ret, marker_select_command(c->cmd, &err));
	KUNIT_ASSERT_GE(test, err.type, 0);
	KUNIT_EXPECT_STREQ(test, marker_select_errs[err.type], c->why);
	KUNIT_EXPECT_EQ(test, err.pos, c->pos);
	KUNIT_EXPECT_EQ(test, sel_pass(), 3);
}

struct sel_param_case {
	const char *desc;
	const char *val;	/* markers= of the module "vmlinux" */
	int want;		/* the sites selected, as sel_pass() says */
};

static const struct sel_param_case sel_param_cases[] = {
	{ "one query", "marker " SEL " func pass_sel_b", 2 },
	{ "two queries", "marker " SEL " func pass_sel_b;marker " SEL " line 1",
	  2 },
	{ "a glob on the name", "marker markers_sel* func pass_sel_a", 1 },
	{ "every site of the module", "marker " SEL, 3 },
	{ "empty", " ; ", 3 },
	{ "no value", NULL, 3 },
	{ "a module word", "marker " SEL " module vmlinux func pass_sel_a", 3 },
	{ "an unknown word", "marker " SEL " bogus 1", 3 },
	{ "a bad query after a good one",
	  "marker " SEL " func pass_sel_a; func pass_sel_b", 3 },
};

KUNIT_ARRAY_PARAM_DESC(sel_param, sel_param_cases, desc);

/*
 * A module's markers= parameter is a command whose queries are limited to
 * the module's sites; a bad one is refused whole, which changes nothing,
 * and the module loads: the loader is told the parameter was taken.
 */
static void markers_select_test_module_param(struct kunit *test)
{
	const struct sel_param_case *c = test->param_value;

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(SEL, SEL_FMT,
						       sel_probe, NULL));
	KUNIT_EXPECT_EQ(test, 0, marker_module_param("markers", c->val,
						     "vmlinux"));
	KUNIT_EXPECT_EQ_MSG(test, sel_pass(), c->want, "\"%s\"", c->val);
}

/*
 * Another module's markers= limits that name's sites to that module's,
 * as any query naming a module does; parameters of other names are not
 * markers'.
 */
static void markers_select_test_module_param_other(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(SEL, SEL_FMT,
						       sel_probe, NULL));
	KUNIT_EXPECT_EQ(test, -ENOENT, marker_module_param("marker", "marker "
							   SEL, "vmlinux"));
	KUNIT_EXPECT_EQ(test, -ENOENT, marker_module_param("dyndbg", "+p",
							   "vmlinux"));
	KUNIT_EXPECT_EQ(test, sel_pass(), 3);
	KUNIT_EXPECT_EQ(test, 0, marker_module_param("markers", "marker " SEL,
						     "test_markers"));
	KUNIT_EXPECT_EQ(test, sel_pass(), 0);
	KUNIT_EXPECT_EQ(test, 0, marker_module_param("markers", "!marker " SEL,
						     "test_markers"));
	KUNIT_EXPECT_EQ(test, sel_pass(), 3);
}

/* MARK_ENABLED() is not a site: true while the name has probes. */
static void markers_select_test_enabled(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, 0, marker_select(SEL, "func pass_sel_a"));
	KUNIT_EXPECT_FALSE(test, pass_sel_enabled());
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(SEL, SEL_FMT,
						       sel_probe, NULL));
	KUNIT_EXPECT_TRUE(test, pass_sel_enabled());
	marker_probe_unregister(SEL, sel_probe, NULL);
	KUNIT_EXPECT_FALSE(test, pass_sel_enabled());
}

static atomic_t sel_passes;

static int sel_passer(void *data)
{
	while (!kthread_should_stop()) {
		pass_sel_a();
		pass_sel_b();
		atomic_inc(&sel_passes);
		cond_resched_tasks_rcu_qs();
	}
	return 0;
}

/* Wait, 10 s at most, for the passer to pass both sites @n more times. */
static bool sel_passed(int n)
{
	int until = atomic_read(&sel_passes) + n;
	unsigned long timeout = jiffies + 10 * HZ;

	while (atomic_read(&sel_passes) < until) {
		if (time_after(jiffies, timeout))
			return false;
		usleep_range(100, 200);
	}
	return true;
}

/*
 * The query changes while a thread passes both sites: every change is in
 * force when marker_select() returns, for this CPU's passes, and the
 * thread's passes reach the sites each query selects.
 */
static void markers_select_test_live(struct kunit *test)
{
	static const char *const queries[] = {
		"func pass_sel_a", "func pass_sel_b", "func nothing", "",
	};
	static const int want[] = { 1, 2, 0, 3 };
	struct task_struct *t;
	int i, hits[2];

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(SEL, SEL_FMT,
						       sel_probe, NULL));
	t = kthread_run(sel_passer, NULL, "markers_sel");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	for (i = 0; i < 200; i++) {
		KUNIT_ASSERT_EQ(test, 0, marker_select(SEL, queries[i % 4]));
		KUNIT_EXPECT_EQ(test, sel_pass(), want[i % 4]);
		if (i % 4 == 1) {
			hits[1] = atomic_read(&sel_hits[1]);
			KUNIT_EXPECT_TRUE(test, sel_passed(2));
			KUNIT_EXPECT_GT(test, atomic_read(&sel_hits[1]),
					hits[1]);
		}
		if (i % 4 == 0) {
			hits[0] = atomic_read(&sel_hits[0]);
			KUNIT_EXPECT_TRUE(test, sel_passed(2));
			KUNIT_EXPECT_GT(test, atomic_read(&sel_hits[0]),
					hits[0]);
		}
	}
	kthread_stop(t);
}

/*
 * Each probe connects to the sites of its selector's queries, every site
 * while its selector has none; a site is armed while any probe connects
 * to it; removing and resetting touch one selector's queries only.
 */
static void markers_select_test_selectors(struct kunit *test)
{
	struct marker *a = sel_marker("pass_sel_a");
	struct marker *b = sel_marker("pass_sel_b");
	struct marker_select_error err;
	int keys[2];

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(SEL, SEL_FMT,
						       sel_probe, NULL));
	KUNIT_ASSERT_EQ(test, 0, sel_key_register(0));
	KUNIT_ASSERT_EQ(test, 0, sel_key_register(1));
	KUNIT_EXPECT_EQ(test, sel_key_pass(keys), 3);
	KUNIT_EXPECT_EQ(test, keys[0], 3);
	KUNIT_EXPECT_EQ(test, keys[1], 3);

	KUNIT_ASSERT_EQ(test, 0, sel_key_command(0, "marker " SEL
						 " func pass_sel_a", NULL));
	KUNIT_ASSERT_EQ(test, 0, sel_key_command(1, "marker " SEL
						 " func pass_sel_b", NULL));
	KUNIT_EXPECT_EQ(test, sel_key_pass(keys), 3);
	KUNIT_EXPECT_EQ(test, keys[0], 1);
	KUNIT_EXPECT_EQ(test, keys[1], 2);

	/* The probe of no selector follows marker_select()'s queries. */
	KUNIT_ASSERT_EQ(test, 0, marker_select(SEL, "func pass_sel_b"));
	KUNIT_EXPECT_EQ(test, sel_key_pass(keys), 2);
	KUNIT_EXPECT_EQ(test, keys[0], 1);
	KUNIT_EXPECT_EQ(test, keys[1], 2);

	/* One selector's query is not another's to remove. */
	KUNIT_EXPECT_EQ(test, -ENOENT, sel_key_command(1, "!marker " SEL
						       " func pass_sel_a", &err));
	KUNIT_EXPECT_STREQ(test, marker_select_errs[err.type],
			   "No such query in force");
	KUNIT_ASSERT_EQ(test, 0, sel_key_command(1, "!marker " SEL, NULL));
	KUNIT_EXPECT_EQ(test, sel_key_pass(keys), 2);
	KUNIT_EXPECT_EQ(test, keys[0], 1);
	KUNIT_EXPECT_EQ(test, keys[1], 3);

	/* With the probe of sel_key[0] alone, site b is disarmed. */
	marker_probe_unregister(SEL, sel_probe, NULL);
	marker_probe_unregister(SEL, sel_key_probe, &sel_key[1]);
	KUNIT_EXPECT_EQ(test, sel_key_pass(keys), 0);
	KUNIT_EXPECT_EQ(test, keys[0], 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(a->state), 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->state), 0);

	marker_select_reset(&sel_key[0]);
	KUNIT_EXPECT_EQ(test, sel_key_pass(keys), 0);
	KUNIT_EXPECT_EQ(test, keys[0], 3);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->state), 1);
}

/*
 * A site that no probe connected to yet is armed when a probe of another
 * selector connects to it, and disarmed when the last probe that
 * connects to it goes while others stay.
 */
static void markers_select_test_selectors_arm(struct kunit *test)
{
	struct marker *b = sel_marker("pass_sel_b");
	int keys[2];

	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_EQ(test, 0, marker_select(SEL, "func pass_sel_a"));
	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(SEL, SEL_FMT,
						       sel_probe, NULL));
	KUNIT_EXPECT_EQ(test, sel_pass(), 1);
	KUNIT_ASSERT_EQ(test, 0, sel_key_register(0));
	KUNIT_EXPECT_EQ(test, sel_key_pass(keys), 1);
	KUNIT_EXPECT_EQ(test, keys[0], 3);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->state), 1);
	KUNIT_ASSERT_EQ(test, 0, sel_key_register(1));
	KUNIT_EXPECT_EQ(test, sel_key_pass(keys), 1);
	KUNIT_EXPECT_EQ(test, keys[0], 3);
	KUNIT_EXPECT_EQ(test, keys[1], 3);
	marker_probe_unregister(SEL, sel_key_probe, &sel_key[1]);
	marker_probe_unregister(SEL, sel_key_probe, &sel_key[0]);
	KUNIT_EXPECT_EQ(test, READ_ONCE(b->state), 0);
	KUNIT_EXPECT_EQ(test, sel_key_pass(keys), 1);
	KUNIT_EXPECT_EQ(test, keys[0], 0);
}

/*
 * A selector's queries change and another selector's probe comes and
 * goes while a thread passes both sites: the arrays that sites call are
 * replaced and freed under it, and each change is in force for this
 * CPU's passes when it returns.
 */
static void markers_select_test_selectors_live(struct kunit *test)
{
	static const char *const cmds[] = {
		"marker " SEL " func pass_sel_a",
		"!marker " SEL "; marker " SEL " func pass_sel_b",
		"!marker " SEL,
	};
	static const int want[] = { 1, 2, 3 };
	struct task_struct *t;
	int i, ret, keys[2];

	KUNIT_ASSERT_EQ(test, 0, marker_probe_register(SEL, SEL_FMT,
						       sel_probe, NULL));
	KUNIT_ASSERT_EQ(test, 0, sel_key_register(0));
	t = kthread_create(sel_passer, NULL, "markers_sel");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	WRITE_ONCE(sel_key_other, t);
	wake_up_process(t);
	for (i = 0; i < 150; i++) {
		ret = sel_key_command(0, cmds[i % 3], NULL);
		if (i % 2)
			marker_probe_unregister(SEL, sel_key_probe,
						&sel_key[1]);
		else
			ret = sel_key_register(1) ?: ret;
		KUNIT_EXPECT_EQ(test, ret, 0);
		KUNIT_EXPECT_EQ(test, sel_key_pass(keys), 3);
		KUNIT_EXPECT_EQ(test, keys[0], want[i % 3]);
		KUNIT_EXPECT_EQ(test, keys[1], i % 2 ? 0 : 3);
		if (ret || !sel_passed(2))
			break;
	}
	KUNIT_EXPECT_EQ(test, i, 150);
	kthread_stop(t);
	WRITE_ONCE(sel_key_other, NULL);
}

static struct kunit_case markers_select_test_cases[] = {
	KUNIT_CASE(markers_select_test_boot),
	KUNIT_CASE_PARAM(markers_select_test_words, sel_word_gen_params),
	KUNIT_CASE_PARAM(markers_select_test_bad, sel_bad_gen_params),
	KUNIT_CASE(markers_select_test_errors),
	KUNIT_CASE_PARAM(markers_select_test_commands, sel_cmd_gen_params),
	KUNIT_CASE(markers_select_test_remove),
	KUNIT_CASE_PARAM(markers_select_test_command_errors,
			 sel_err_gen_params),
	KUNIT_CASE(markers_select_test_before),
	KUNIT_CASE_PARAM(markers_select_test_module_param,
			 sel_param_gen_params),
	KUNIT_CASE(markers_select_test_module_param_other),
	KUNIT_CASE(markers_select_test_enabled),
	KUNIT_CASE(markers_select_test_live),
	KUNIT_CASE(markers_select_test_selectors),
	KUNIT_CASE(markers_select_test_selectors_arm),
	KUNIT_CASE(markers_select_test_selectors_live),
	{}
};

static struct kunit_suite markers_select_test_suite = {
	.name = "markers_select",
	.init = sel_init,
	.exit = sel_exit,
	.test_cases = markers_select_test_cases,
};

kunit_test_suite(markers_select_test_suite);

MODULE_DESCRIPTION("KUnit tests for selecting kernel marker sites");
MODULE_LICENSE("GPL");
