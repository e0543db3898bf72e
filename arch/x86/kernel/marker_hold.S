/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a task that met a marker site being patched waits, with
 * interrupts on, until the site holds its new instruction.
 *
 * marker_int3_handler() gets here in place of the site, from a
 * preemptible context, with the stack holding the number of the chunk
 * the task trapped in (as orig_ax) above an interrupt frame whose RIP is
 * the site and whose RSP, RFLAGS, CS and SS are the trapped ones: to the
 * unwinder, the task was interrupted at the site.  Every register is
 * kept in a struct pt_regs for marker_hold_wait(), which returns once
 * the chunk is released; IRET then serializes and runs the site as it
 * is now.
 */

#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/frame.h>
#include <asm/unwind_hints.h>

	.text
SYM_CODE_START(marker_hold_thunk)
	UNWIND_HINT_IRET_REGS offset=8
	ENDBR
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%rax
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	UNWIND_HINT_REGS
	/* To the frame pointer unwinder, too: an interrupted task. */
	ENCODE_FRAME_POINTER

	movq	%rsp, %rdi
	call	marker_hold_wait

	/*
	 * Interrupts off until IRET restores the trapped flags: an
	 * interrupt's frame would land on the registers being popped, which
	 * an unwinder still reads there.
	 */
	cli
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rax
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
	addq	$8, %rsp	/* orig_ax */
	UNWIND_HINT_IRET_REGS
	iretq
SYM_CODE_END(marker_hold_thunk)
_ASM_NOKPROBE(marker_hold_thunk)
