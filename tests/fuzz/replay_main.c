/*
 * replay_main.c - runs a fuzz target (fuzz_*.c) over saved inputs without
 * libFuzzer, so any compiler can build it and `make test` (and `make asan`)
 * replays the seeds and tests/fuzz/regressions/:
 *
 *   replay_NAME PATH...
 *
 * Each PATH is a file or a folder; a folder's regular files are replayed in
 * name order (not recursively; names starting with '.' and README files are
 * skipped), a missing PATH is skipped.  Each input is handed to
 * LLVMFuzzerTestOneInput() once, which aborts on a violated invariant
 * (fuzz.h).  When an input aborts, crashes or trips a sanitizer, its path
 * is printed on stderr ("replay: crash on input PATH") from a signal
 * handler and the sanitizer death callback.  Prints "replay_NAME: N
 * inputs, no invariant broken" and exits 0; 2 on a read error.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/file_io.h"
#include "fuzz.h"

/* The sanitizer runtimes (gcc's and clang's) call this back before they
 * exit on a report; weak, so the plain build links without them. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static const char *current;  /* the input being replayed, or NULL */

static void say_current(void)
{
	static const char head[] = "replay: crash on input ";
	if (!current)
		return;
	ssize_t rc = write(2, head, sizeof head - 1);
	rc = write(2, current, strlen(current));
	rc = write(2, "\n", 1);
	(void)rc;
}

static void on_signal(int sig)
{
	say_current();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int replay_file(const char *path, size_t *count)
{
	uint8_t *data;
	size_t len;
	if (wl_read_file(path, SIZE_MAX, &data, &len) != WL_READ_OK) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* An exact-size copy, so ASan sees a read one past the input. */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact) {
		free(data);
		fprintf(stderr, "replay: out of memory\n");
		return -1;
	}
	if (len)
		memcpy(exact, data, len);
	free(data);
	current = path;
	LLVMFuzzerTestOneInput(exact, len);
	current = NULL;
	free(exact);
	(*count)++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_dir(const char *dir, size_t *count)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || strncmp(e->d_name, "README", 6) == 0)
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			char **q = realloc(names, ncap * sizeof *names);
			if (!q) {
				rc = -1;
				break;
			}
			names = q;
			cap = ncap;
		}
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		if (!(names[n] = malloc(len))) {
			rc = -1;
			break;
		}
		snprintf(names[n++], len, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (rc != 0)
		fprintf(stderr, "replay: out of memory\n");
	if (n)
		qsort(names, n, sizeof *names, by_name);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
			rc = replay_file(names[i], count);
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	size_t count = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: %s PATH...\n", name);
		return 2;
	}
	signal(SIGABRT, on_signal);
	if (__sanitizer_set_death_callback) {
		/* The sanitizer handles the other signals and reports the stack. */
		__sanitizer_set_death_callback(say_current);
	} else {
		signal(SIGSEGV, on_signal);
		signal(SIGBUS, on_signal);
		signal(SIGFPE, on_signal);
	}
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0)
			continue;
		int rc = S_ISDIR(st.st_mode) ? replay_dir(argv[i], &count) : replay_file(argv[i], &count);
		if (rc != 0)
			return 2;
	}
	printf("%s: %zu inputs, no invariant broken\n", name, count);
	return 0;
}
