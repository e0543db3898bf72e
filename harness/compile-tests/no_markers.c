// SPDX-License-Identifier: GPL-2.0
/*
 * With CONFIG_MARKERS=n, MARK() is the format check alone: it still warns
 * on a mismatch, emits no marker and evaluates no argument.
 */

#undef CONFIG_MARKERS
#include <linux/marker.h>
#include <linux/module.h>

int markers_side_effect(void);
void markers_off(const char *s);
void markers_off(const char *s)
{
	MARK(compile_test_off, "value %d", s);		/* expected warning */
	MARK(compile_test_off_eval, "value %d", markers_side_effect());
	trace_mark(compile_test_off_compat, "value %d", 1);
	_trace_mark(compile_test_off_plain, MARK_NOARGS);
}

MODULE_LICENSE("GPL");
