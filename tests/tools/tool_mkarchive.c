/* tool_mkarchive.c - writes a BIG or PBO archive of the files given, for the
 * shell tests (tests/archive_cli.sh): tests/build/archbuild.c's layouts.
 *
 *   tool_mkarchive KIND OUT NAME=FILE...
 *   tool_mkarchive KIND OUT -n COUNT NAME=FILE
 *
 * KIND: bigf, big4 (BIG with that magic), pbo (plain entries, SHA-1
 * trailer), pbo-packed (every entry packed with BI LZSS), pbo-mixed (the
 * second, fourth, ... entries packed, the others plain).  NAME is the path
 * stored in the archive (it may hold '=': FILE follows the last one).  The
 * environment variable MKARCHIVE_PREFIX, when set, is a PBO's prefix
 * property (default x\test\addon).  At most 64 entries.  Exit 0, or 2
 * with a message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_io.h"
#include "tests/build/archbuild.h"

/* Writes b to path; 0, or 2 with a message. */
static int write_out(const char *path, const wb *b)
{
	FILE *f = fopen(path, "wb");
	int rc = f && fwrite(b->data, 1, b->len, f) == b->len ? 0 : 2;
	if (f && fclose(f) != 0)
		rc = 2;
	if (rc)
		fprintf(stderr, "tool_mkarchive: %s: cannot write\n", path);
	return rc;
}

/* -n COUNT NAME=FILE: COUNT entries of FILE's bytes. */
static int many(const char *kind, const char *out, const char *count, char *spec)
{
	char *end;
	unsigned long n = strtoul(count, &end, 10);
	char *eq = strrchr(spec, '=');
	if (*end || n == 0 || n > 10000000 || !eq) {
		fprintf(stderr, "tool_mkarchive: -n COUNT NAME=FILE (COUNT 1..10000000)\n");
		return 2;
	}
	*eq = 0;
	uint8_t *data;
	size_t len;
	if (wl_read_file(eq + 1, (size_t)1 << 30, &data, &len) != WL_READ_OK) {
		fprintf(stderr, "tool_mkarchive: %s: cannot read\n", eq + 1);
		return 2;
	}
	const char *dot = strrchr(spec, '.');
	size_t stem = dot ? (size_t)(dot - spec) : strlen(spec);
	size_t nl = strlen(spec) + 8;
	t_arc_entry *e = calloc(n, sizeof *e);
	char *names = malloc(n * nl);
	if (!e || !names) {
		fprintf(stderr, "tool_mkarchive: out of memory\n");
		return 2;
	}
	for (size_t i = 0; i < n; i++) {
		char *nm = names + i * nl;
		snprintf(nm, nl, "%.*s%06zu%s", (int)stem, spec, i, spec + stem);
		e[i] = (t_arc_entry){ nm, data, len, false };
	}
	wb b;
	t_w3d_init(&b);
	int rc = 0;
	if (strcmp(kind, "bigf") == 0 || strcmp(kind, "big4") == 0) {
		t_arc_big(&b, strcmp(kind, "bigf") == 0 ? "BIGF" : "BIG4", e, n, NULL);
	} else if (strcmp(kind, "pbo") == 0) {
		t_arc_pbo(&b, "x\\test\\addon", e, n, true, NULL);
	} else {
		fprintf(stderr, "tool_mkarchive: -n: kind bigf, big4 or pbo\n");
		rc = 2;
	}
	if (rc == 0)
		rc = write_out(out, &b);
	t_w3d_free(&b);
	free(names);
	free(e);
	free(data);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 6 && strcmp(argv[3], "-n") == 0)
		return many(argv[1], argv[2], argv[4], argv[5]);
	if (argc < 3 || argc - 3 > 64) {
		fprintf(stderr, "usage: tool_mkarchive bigf|big4|pbo|pbo-packed|pbo-mixed OUT NAME=FILE... (at most 64)\n");
		return 2;
	}
	const char *kind = argv[1];
	size_t n = (size_t)(argc - 3);
	t_arc_entry e[64];
	uint8_t *bufs[64] = { 0 };
	bool packed = strcmp(kind, "pbo-packed") == 0, mixed = strcmp(kind, "pbo-mixed") == 0;
	for (size_t i = 0; i < n; i++) {
		char *eq = strrchr(argv[3 + i], '=');
		if (!eq) {
			fprintf(stderr, "tool_mkarchive: %s: not NAME=FILE\n", argv[3 + i]);
			return 2;
		}
		*eq = 0;
		size_t len;
		if (wl_read_file(eq + 1, (size_t)1 << 30, &bufs[i], &len) != WL_READ_OK) {
			fprintf(stderr, "tool_mkarchive: %s: cannot read\n", eq + 1);
			return 2;
		}
		e[i] = (t_arc_entry){ argv[3 + i], bufs[i], len, packed || (mixed && i % 2 == 1) };
	}
	wb b;
	t_arc_layout at;
	t_w3d_init(&b);
	if (strcmp(kind, "bigf") == 0 || strcmp(kind, "big4") == 0) {
		t_arc_big(&b, strcmp(kind, "bigf") == 0 ? "BIGF" : "BIG4", e, n, &at);
	} else if (strcmp(kind, "pbo") == 0 || packed || mixed) {
		const char *prefix = getenv("MKARCHIVE_PREFIX");
		t_arc_pbo(&b, prefix ? prefix : "x\\test\\addon", e, n, true, &at);
	} else {
		fprintf(stderr, "tool_mkarchive: unknown kind '%s'\n", kind);
		return 2;
	}
	int rc = write_out(argv[2], &b);
	for (size_t i = 0; i < n; i++)
		free(bufs[i]);
	t_w3d_free(&b);
	return rc;
}
