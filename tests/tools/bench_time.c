/*
 * bench_time.c - the timer of `make bench` (tests/bench.sh, bench_b3d.sh):
 * runs one command, or several at once, with their standard output and
 * error sent to /dev/null, waits for all, and prints one line
 *
 *     WALL USER SYS MAXRSS STATUS
 *
 * WALL: seconds from the first fork to the last exit (CLOCK_MONOTONIC);
 * USER, SYS: CPU seconds of all of them (wait4's rusage, microseconds);
 * MAXRSS: the largest peak resident set of them, KiB; STATUS: the highest
 * exit status (128 + signal for a killed one, 127 when one cannot run).
 * CPU seconds are what a loaded machine spoils least: they count only the
 * time the command ran, not the time it waited for a core.
 *
 * Usage: bench_time CMD [ARG]... [--also CMD [ARG]...]...
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* Starts argv[0..] (argv NULL-terminated by the caller); returns the pid
 * or -1. */
static pid_t start(char **argv)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	int null = open("/dev/null", O_WRONLY);
	if (null >= 0) {
		dup2(null, 1);
		dup2(null, 2);
	}
	execvp(argv[0], argv);
	_exit(127);
}

int main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--also") == 0) {
		fputs("usage: bench_time CMD [ARG]... [--also CMD [ARG]...]...\n", stderr);
		return 2;
	}
	int running = 0;
	double t0 = now();
	for (int i = 1; i < argc;) {
		int j = i;
		while (j < argc && strcmp(argv[j], "--also") != 0)
			j++;
		if (j == i) {
			fputs("bench_time: --also without a command\n", stderr);
			return 2;
		}
		argv[j < argc ? j : argc] = NULL; /* ends this command's argv */
		if (start(argv + i) < 0) {
			perror("bench_time: fork");
			return 2;
		}
		running++;
		i = j + 1;
	}
	double user = 0, sys = 0;
	long maxrss = 0;
	int worst = 0;
	while (running > 0) {
		int st;
		struct rusage ru;
		if (wait4(-1, &st, 0, &ru) < 0) {
			perror("bench_time: wait4");
			return 2;
		}
		running--;
		user += seconds(ru.ru_utime);
		sys += seconds(ru.ru_stime);
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
		int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		if (code > worst)
			worst = code;
	}
	printf("%.6f %.6f %.6f %ld %d\n", now() - t0, user, sys, maxrss, worst);
	return 0;
}
