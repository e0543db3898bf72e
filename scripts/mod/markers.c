// SPDX-License-Identifier: GPL-2.0
/*
 * Module.markers: the kernel markers of vmlinux and of modules, for tools
 * that list a kernel's markers without booting it (SystemTap's
 * kernel.mark() probes).  One line per marker name, module and format,
 * separated by tabs, the format being the rest of the line; sorted, each
 * line once.
 *
 * Every MARK() expansion keeps its name and format in the
 * __markers_strings section, "name\0format\0", and its struct marker
 * points at them: the section holds every marker the kernel registers,
 * with the strings it registers it by.  Entries may be padded with NULs.
 */

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <xalloc.h>

#include "modpost.h"

#define MARKERS_STRINGS_SECTION	"__markers_strings"

struct marker_line {
	const char *name;
	const char *module;
	const char *format;
};

static struct marker_line *marker_lines;
static size_t nr_marker_lines, max_marker_lines;

static void add_marker_line(const char *name, const char *module,
			    const char *format)
{
	struct marker_line *l;

	if (nr_marker_lines == max_marker_lines) {
		max_marker_lines = max_marker_lines ? 2 * max_marker_lines : 64;
		marker_lines = xrealloc(marker_lines,
					max_marker_lines * sizeof(*l));
	}
	l = &marker_lines[nr_marker_lines++];
	l->name = xstrdup(name);
	l->module = module;
	l->format = xstrdup(format);
}

static bool marker_name_valid(const char *name)
{
	if (!*name)
		return false;
	for (; *name; name++)
		if (!isalnum((unsigned char)*name) && *name != '_')
			return false;
	return true;
}

/* The index of the __markers_strings section, or 0. */
static unsigned int find_markers_strings(const struct elf_info *info)
{
	const char *secstrings = (void *)info->hdr +
		info->sechdrs[info->secindex_strings].sh_offset;
	unsigned int i;

	for (i = 1; i < info->num_sections; i++)
		if (!strcmp(secstrings + info->sechdrs[i].sh_name,
			    MARKERS_STRINGS_SECTION))
			return i;
	return 0;
}

/**
 * read_markers - gather the markers of one object
 * @mod: the module (or vmlinux) that the object is
 * @info: the object's ELF
 */
void read_markers(struct module *mod, const struct elf_info *info)
{
	unsigned int sec = find_markers_strings(info);
	const char *p, *end, *name, *format;
	size_t offset, size;

	if (!sec)
		return;
	if (info->sechdrs[sec].sh_type == SHT_NOBITS) {
		error("%s: %s has no contents\n", mod->name,
		      MARKERS_STRINGS_SECTION);
		return;
	}
	offset = info->sechdrs[sec].sh_offset;
	size = info->sechdrs[sec].sh_size;
	/* An object cut short: an interrupted build, a truncated copy. */
	if (offset > info->size || size > info->size - offset) {
		error("%s: %s runs past the end of the file\n", mod->name,
		      MARKERS_STRINGS_SECTION);
		return;
	}
	p = (void *)info->hdr + offset;
	end = p + size;
	while (p < end) {
		if (!*p) {
			p++;
			continue;
		}
		name = p;
		format = memchr(name, '\0', end - name);
		p = format ? memchr(format + 1, '\0', end - format - 1) : NULL;
		if (!p) {
			error("%s: %s ends inside an entry\n", mod->name,
			      MARKERS_STRINGS_SECTION);
			return;
		}
		format++;
		p++;
		if (!marker_name_valid(name)) {
			error("%s: marker name \"%s\" is not an identifier\n",
			      mod->name, name);
			continue;
		}
		/* The format is the rest of its line. */
		if (strchr(format, '\n')) {
			warn("%s: marker %s: a newline in the format, left out of Module.markers\n",
			     mod->name, name);
			continue;
		}
		add_marker_line(name, mod->name, format);
	}
}

static int marker_line_cmp(const void *a, const void *b)
{
	const struct marker_line *x = a, *y = b;

	return strcmp(x->name, y->name) ?: strcmp(x->module, y->module) ?:
		strcmp(x->format, y->format);
}

/**
 * write_markers - the lines of Module.markers
 * @buf: where to write them
 *
 * Sorted by name, module and format; an expansion inlined or repeated
 * gives one line.  Marker names are one namespace over the kernel and its
 * modules: a name without a subsystem prefix is warned about.
 */
void write_markers(struct buffer *buf)
{
	const struct marker_line *l, *prev = NULL;
	size_t i;

	qsort(marker_lines, nr_marker_lines, sizeof(*marker_lines),
	      marker_line_cmp);
	for (i = 0; i < nr_marker_lines; i++) {
		l = &marker_lines[i];
		if (prev && !marker_line_cmp(prev, l))
			continue;
		if (!strchr(l->name, '_'))
			warn("%s: marker %s: no <subsystem>_ prefix\n",
			     l->module, l->name);
		buf_printf(buf, "%s\t%s\t%s\n", l->name, l->module, l->format);
		prev = l;
	}
}
