// SPDX-License-Identifier: GPL-2.0
/*
 * write_file FILE STRING: write STRING, "\n" standing for a newline and
 * "\0" for a NUL byte, to FILE in one write(); write_file FILE -s SIZE:
 * write SIZE bytes of 'a'.
 * Prints "ok" or the error, as strerror() words it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t len = 0;
	char *buf, *s;
	int fd;

	if (argc == 4 && !strcmp(argv[2], "-s")) {
		len = strtoul(argv[3], NULL, 0);
		buf = malloc(len + 1);
		if (!buf)
			return 2;
		memset(buf, 'a', len);
	} else if (argc == 3) {
		buf = malloc(strlen(argv[2]) + 1);
		if (!buf)
			return 2;
		for (s = argv[2]; *s; s++) {
			if (s[0] == '\\' && (s[1] == 'n' || s[1] == '0')) {
				buf[len++] = s[1] == 'n' ? '\n' : '\0';
				s++;
			} else {
				buf[len++] = *s;
			}
		}
	} else {
		fprintf(stderr, "usage: write_file FILE STRING | FILE -s SIZE\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0 || write(fd, buf, len) < 0)
		printf("%s\n", strerror(errno));
	else
		printf("ok\n");
	return 0;
}
