// SPDX-License-Identifier: GPL-2.0
/*
 * hold_file FILE r|w DATA READY GO: open FILE for reading (r) or writing
 * (w), create READY, wait until GO exists (60 s at most), then read FILE
 * whole, or write DATA to it in one write().  Prints what happened, the
 * error as strerror() words it: "open: ERROR", "read N bytes", "read:
 * ERROR", "wrote N bytes" or "write: ERROR".  Lets a test keep a file
 * open while what it belongs to goes away.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return -1;
	return close(fd);
}

int main(int argc, char **argv)
{
	char buf[4096];
	ssize_t n, total = 0;
	int fd, i;

	if (argc != 6 || (strcmp(argv[2], "r") && strcmp(argv[2], "w"))) {
		fprintf(stderr, "usage: hold_file FILE r|w DATA READY GO\n");
		return 2;
	}
	fd = open(argv[1], argv[2][0] == 'r' ? O_RDONLY : O_WRONLY);
	if (fd < 0) {
		printf("open: %s\n", strerror(errno));
		touch(argv[4]);
		return 0;
	}
	if (touch(argv[4]))
		return 2;
	for (i = 0; i < 600 && access(argv[5], F_OK); i++)
		usleep(100000);
	if (argv[2][0] == 'w') {
		n = write(fd, argv[3], strlen(argv[3]));
		if (n < 0)
			printf("write: %s\n", strerror(errno));
		else
			printf("wrote %zd bytes\n", n);
		return 0;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	if (n < 0)
		printf("read: %s\n", strerror(errno));
	else
		printf("read %zd bytes\n", total);
	return 0;
}
