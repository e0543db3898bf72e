/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trampolines that call the probes of a marker with two to
 * MARKER_TRAMP_MAX_PROBES of them, each by a direct call with its
 * probe_private an immediate, as arch/x86/kernel/marker.c fills them in.
 *
 * A site's call enters one as it enters a probe: %rsi call_private, %rdx
 * the format, %rcx the va_list; the first closure's probe_private in %rdi
 * and the array in %r8 are not used.  Every probe gets the va_list as the
 * site built it: its overflow pointer is put back after each.  The last
 * probe is jumped to, and returns to the site.
 *
 * Until filled in, and in a trampoline of the pool that is free, each
 * probe is marker_tramp_none() with probe_private 0.  A trampoline is
 * written only while no call leads to it and no CPU can be in it.
 */

#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/frame.h>

/* The va_list's overflow_arg_area, where the next argument is read. */
#define MARKER_VA_OVERFLOW	8

/* Call probe n of the trampoline, then restore the probe's arguments. */
.macro MARKER_TRAMP_CALL
	movabsq	$0, %rdi
	call	marker_tramp_none
	movq	%r14, MARKER_VA_OVERFLOW(%r13)
	movq	%rbx, %rsi
	movq	%r12, %rdx
	movq	%r13, %rcx
.endm

/* A trampoline for @nr probes. */
.macro MARKER_TRAMP name, nr
SYM_FUNC_START(\name)
	FRAME_BEGIN
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	movq	%rsi, %rbx
	movq	%rdx, %r12
	movq	%rcx, %r13
	movq	MARKER_VA_OVERFLOW(%rcx), %r14
	.rept \nr - 1
	MARKER_TRAMP_CALL
	.endr
	movabsq	$0, %rdi
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	FRAME_END
	jmp	marker_tramp_none
SYM_FUNC_END(\name)
_ASM_NOKPROBE(\name)
.endm

/* @count trampolines for @nr probes, named marker_tramp_<nr>_<i>. */
.macro MARKER_TRAMPS nr, count
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7
	.if \i < \count
	MARKER_TRAMP marker_tramp_\nr\()_\i, \nr
	.endif
	.endr
.endm

	.text
	MARKER_TRAMPS 2, 8
	MARKER_TRAMPS 3, 8
	MARKER_TRAMPS 4, 8
