// SPDX-License-Identifier: GPL-2.0
/*
 * nonroot_open FILE...: as user and group 65534, open each FILE for
 * reading and for writing; exit 0 if every open fails with EACCES.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static const int modes[] = { O_RDONLY, O_WRONLY };
	int i, m, fd, ret = 0;

	if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
		perror("nonroot_open: setuid");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		for (m = 0; m < 2; m++) {
			fd = open(argv[i], modes[m]);
			if (fd < 0 && errno == EACCES)
				continue;
			printf("nonroot_open: %s (%s): %s\n", argv[i],
			       m ? "write" : "read",
			       fd < 0 ? strerror(errno) : "opened");
			if (fd >= 0)
				close(fd);
			ret = 1;
		}
	}
	return ret;
}
