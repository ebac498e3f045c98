/* replay.c — a main for a fuzz harness built without libFuzzer (no clang): it runs the harness
 * once on each file named, or each file in a directory named, as libFuzzer runs the files it is
 * given; a harness that finds something wrong aborts. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Defined by a harness that sets something up first (timeparse's time zone). */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* Runs the harness on the file at path, in a buffer of exactly its size; returns 0, or -1 when
 * it cannot be read. */
static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data = NULL;
	size_t size = 0, cap = 0, got;

	if (!f)
		return -1;
	do {
		if (size == cap) {
			cap = cap ? cap * 2 : 4096;
			data = realloc(data, cap);
			if (!data)
				abort();
		}
		got = fread(data + size, 1, cap - size, f);
		size += got;
	} while (got > 0);
	fclose(f);
	{
		unsigned char *exact = malloc(size ? size : 1);

		if (!exact)
			abort();
		if (size)
			memcpy(exact, data, size);
		free(data);
		LLVMFuzzerTestOneInput(exact, size);
		free(exact);
	}
	return 0;
}

/* Runs the harness on path, a file or a directory of files; returns how many could not be read. */
static int run_path(const char *path)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int bad = 0;

	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return run_file(path) < 0;
	d = opendir(path);
	if (!d)
		return 1;
	while ((e = readdir(d)) != NULL) {
		char name[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(name, sizeof(name), "%s/%s", path, e->d_name);
		bad += run_file(name) < 0;
	}
	closedir(d);
	return bad;
}

int main(int argc, char **argv)
{
	int bad = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue; /* a libFuzzer option */
		bad += run_path(argv[i]);
		printf("Executed %s\n", argv[i]);
	}
	return bad ? 1 : 0;
}
