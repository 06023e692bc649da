/*
 * bench_limit.c - the physical limit of `make bench` (tests/bench.sh):
 * reads every FILE whole into one reused buffer with read(2) and sums its
 * bytes (a loop the compiler vectorises), so that the bench can put
 * w3dlint's MB/s beside the MB/s of doing nothing with the bytes but
 * reading each one and touching it once.  Prints "FILES BYTES SUM" on
 * stdout.  Exit 2 when a file cannot be read.
 * Usage: bench_limit FILE...
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct tally {
	uint8_t *buf;
	size_t cap;
	uint64_t files, bytes, sum;
	int bad;
} tally;

/* Sum of n bytes, 64 at a time into 8-bit lanes widened every 255 rounds
 * (auto-vectorised at -O2 -ftree-vectorize or -O3). */
static uint64_t byte_sum(const uint8_t *p, size_t n)
{
	uint64_t s = 0;
	size_t i = 0;
	while (n - i >= 64) {
		uint16_t lanes[64] = { 0 };
		size_t rounds = (n - i) / 64;
		if (rounds > 255)
			rounds = 255;
		for (size_t r = 0; r < rounds; r++, i += 64)
			for (size_t k = 0; k < 64; k++)
				lanes[k] = (uint16_t)(lanes[k] + p[i + k]);
		for (size_t k = 0; k < 64; k++)
			s += lanes[k];
	}
	for (; i < n; i++)
		s += p[i];
	return s;
}

static void read_one(tally *t, const char *path, off_t size)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		t->bad = 1;
		return;
	}
	if ((size_t)size > t->cap) {
		free(t->buf);
		t->cap = (size_t)size;
		t->buf = malloc(t->cap ? t->cap : 1);
		if (!t->buf) {
			fprintf(stderr, "bench_limit: out of memory\n");
			exit(2);
		}
	}
	size_t got = 0;
	for (;;) {
		ssize_t n = read(fd, t->buf + got, t->cap - got);
		if (n <= 0)
			break;
		got += (size_t)n;
		if (got == t->cap)
			break;
	}
	close(fd);
	t->files++;
	t->bytes += got;
	t->sum += byte_sum(t->buf, got);
}

int main(int argc, char **argv)
{
	tally t = { 0 };
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISREG(st.st_mode))
			read_one(&t, argv[i], st.st_size);
		else
			t.bad = 1;
	}
	printf("%llu %llu %llu\n", (unsigned long long)t.files, (unsigned long long)t.bytes,
	       (unsigned long long)t.sum);
	free(t.buf);
	return t.bad ? 2 : 0;
}
