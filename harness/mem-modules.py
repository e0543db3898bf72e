#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mem-modules.py DIR: the modules of `make bench`'s memory section.

For each N of 10, 100 and 1,000, DIR/markN/ is an external module with N
markers of distinct names, "mmN_I", each of format "a %d b %lu s %s";
DIR/teN/ one with N TRACE_EVENT()s of the same fields and print format,
"teN_I"; DIR/dbgN/ one with N pr_debug() sites of the same format;
DIR/none/ a module with none of them.  Each is built with M= against the
default variant (harness/bench.sh), dbgN and a second none against the
btf variant, which has dynamic debug, and harness/guest/bench.sh loads
them one at a time and reads what each costs.
"""
import os
import sys

SIZES = (10, 100, 1000)
LICENSE = 'MODULE_LICENSE("GPL");\n'


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)


def module_c(d, name, comment, includes, body, desc):
    """DIR/NAME/NAME.c: NAME_pass(a, b, s) runs BODY."""
    write(f'{d}/{name}/{name}.c', f'''// SPDX-License-Identifier: GPL-2.0
/* {comment} */
{includes}
noinline void {name}_pass(int a, unsigned long b, const char *s)
{{
{body}}}
EXPORT_SYMBOL_GPL({name}_pass);

{LICENSE}MODULE_DESCRIPTION("{desc}");
''')


def mark_module(d, n):
    name = f'mark{n}'
    marks = ''.join(f'\tMARK(mm{n}_{i}, "a %d b %lu s %s", a, b, s);\n'
                    for i in range(n))
    write(f'{d}/{name}/Kbuild', f'obj-m := {name}.o\n')
    module_c(d, name, f"{n} markers of distinct names, for make bench's "
             "memory section.",
             '#include <linux/marker.h>\n#include <linux/module.h>\n',
             marks, f'{n} kernel markers')


def te_module(d, n):
    name = f'te{n}'
    events = ''.join(f'''TRACE_EVENT({name}_{i},
	TP_PROTO(int a, unsigned long b, const char *s),
	TP_ARGS(a, b, s),
	TP_STRUCT__entry(__field(int, a) __field(unsigned long, b)
			 __string(s, s)),
	TP_fast_assign(__entry->a = a; __entry->b = b; __assign_str(s);),
	TP_printk("a %d b %lu s %s", __entry->a, __entry->b, __get_str(s)));
''' for i in range(n))
    calls = ''.join(f'\ttrace_{name}_{i}(a, b, s);\n' for i in range(n))
    write(f'{d}/{name}/Kbuild',
          f'obj-m := {name}.o\nccflags-y := -I$(src)\n')
    write(f'{d}/{name}/{name}_trace.h', f'''/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM {name}

#if !defined(_{name.upper()}_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _{name.upper()}_TRACE_H
#include <linux/tracepoint.h>

{events}
#endif

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE {name}_trace
#include <trace/define_trace.h>
''')
    module_c(d, name, f"{n} TRACE_EVENT()s, for make bench's memory section.",
             '#include <linux/module.h>\n\n#define CREATE_TRACE_POINTS\n'
             f'#include "{name}_trace.h"\n', calls, f'{n} TRACE_EVENT()s')


def dbg_module(d, n):
    name = f'dbg{n}'
    sites = ''.join('\tpr_debug("a %d b %lu s %s\\n", a, b, s);\n'
                    for i in range(n))
    write(f'{d}/{name}/Kbuild', f'obj-m := {name}.o\n')
    module_c(d, name, f"{n} pr_debug() sites, for make bench's memory "
             "section.",
             '#include <linux/module.h>\n#include <linux/printk.h>\n',
             sites, f'{n} pr_debug() sites')


def main():
    d = sys.argv[1]
    write(f'{d}/none/Kbuild', 'obj-m := none.o\n')
    module_c(d, 'none', 'Neither markers nor events: what any module costs.',
             '#include <linux/module.h>\n', '', 'No markers, no events')
    for n in SIZES:
        mark_module(d, n)
        te_module(d, n)
        dbg_module(d, n)


if __name__ == '__main__':
    main()
