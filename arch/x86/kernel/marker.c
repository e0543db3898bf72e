// SPDX-License-Identifier: GPL-2.0
/*
 * x86 marker sites: a 5-byte NOP, armed into a jmp rel32 to the site's
 * out-of-line call.  Bytes are changed with text_poke_bp(): int3 on byte
 * 0, sync, bytes 1-4, sync, byte 0, sync; a CPU that meets the site in
 * between has the instruction emulated by the int3 handler.
 */

#define pr_fmt(fmt) "markers: " fmt

#include <linux/marker.h>
#include <linux/memory.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <asm/text-patching.h>

static void marker_site_insn(const struct marker_site *s, bool armed,
			     u8 insn[MARKER_SITE_SIZE])
{
	if (armed)
		__text_gen_insn(insn, JMP32_INSN_OPCODE,
				(void *)marker_site_code(s),
				(void *)marker_site_target(s), JMP32_INSN_SIZE);
	else
		memcpy(insn, x86_nops[MARKER_SITE_SIZE], MARKER_SITE_SIZE);
}

/**
 * arch_marker_site_set() - arm or disarm one marker site
 * @s: the site
 * @armed: true to make it jump to its out-of-line call, false for a NOP
 *
 * The site's bytes must be what its other state says they are; anything
 * else (a kprobe's int3, another patcher's bytes) is left alone.
 *
 * Context: may sleep; takes text_mutex.
 * Return: 0, or -EINVAL if the site's bytes were not as expected.
 */
int arch_marker_site_set(const struct marker_site *s, bool armed)
{
	u8 old[MARKER_SITE_SIZE], new[MARKER_SITE_SIZE];
	void *code = (void *)marker_site_code(s);
	int ret = 0;

	marker_site_insn(s, !armed, old);
	marker_site_insn(s, armed, new);

	mutex_lock(&text_mutex);
	if (!memcmp(code, new, MARKER_SITE_SIZE))
		goto unlock;
	if (memcmp(code, old, MARKER_SITE_SIZE)) {
		pr_err("site %pS: bytes %*ph, expected %*ph: not %s\n", code,
		       MARKER_SITE_SIZE, code, MARKER_SITE_SIZE, old,
		       armed ? "armed" : "disarmed");
		ret = -EINVAL;
		goto unlock;
	}
	text_poke_bp(code, new, MARKER_SITE_SIZE, NULL);
unlock:
	mutex_unlock(&text_mutex);
	return ret;
}

/**
 * arch_marker_site_armed() - whether a site is armed
 * @s: the site
 *
 * Return: true if the site's first byte is a jmp.
 */
bool arch_marker_site_armed(const struct marker_site *s)
{
	return *(u8 *)marker_site_code(s) == JMP32_INSN_OPCODE;
}
