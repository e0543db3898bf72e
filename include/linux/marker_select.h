/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Commands that select marker sites, as tracefs' marker_sites, the
 * markers.select= boot parameter and modules' markers= parameter take
 * them: see Documentation/trace/markers.rst, section 5.
 */
#ifndef _LINUX_MARKER_SELECT_H
#define _LINUX_MARKER_SELECT_H

/**
 * struct marker_select_error - why marker_select_command() refused a command
 * @type: index of the reason in marker_select_errs[], or -1 if the command
 *	  was well formed
 * @pos: offset in the command of the word at fault
 */
struct marker_select_error {
	int type;
	unsigned int pos;
};

#ifdef CONFIG_MARKERS
extern const char *marker_select_errs[];

int marker_select_command(const char *cmd, struct marker_select_error *err);
int marker_selector_command(const void *selector, const char *cmd,
			    struct marker_select_error *err);
void marker_select_reset(const void *selector);
void marker_select_boot(void);
int marker_module_param(const char *param, const char *val,
			const char *modname);
#else
static inline int marker_module_param(const char *param, const char *val,
				      const char *modname)
{
	return -ENOENT;
}
#endif

#endif /* _LINUX_MARKER_SELECT_H */
