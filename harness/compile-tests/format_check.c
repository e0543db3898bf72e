// SPDX-License-Identifier: GPL-2.0
/* A marker whose argument does not match its format must warn. */

#include <linux/marker.h>
#include <linux/module.h>

void markers_format_mismatch(const char *s);
void markers_format_mismatch(const char *s)
{
	MARK(compile_test_mismatch, "value %d", s);	/* expected warning */
}

MODULE_LICENSE("GPL");
