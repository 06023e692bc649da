/* tool_mkarchive.c - writes a BIG or PBO archive of the files given, for the
 * shell tests (tests/archive_cli.sh): tests/archbuild.c's layouts.
 *
 *   tool_mkarchive KIND OUT NAME=FILE...
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
#include "archbuild.h"

int main(int argc, char **argv)
{
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
	FILE *f = fopen(argv[2], "wb");
	int rc = f && fwrite(b.data, 1, b.len, f) == b.len ? 0 : 2;
	if (f && fclose(f) != 0)
		rc = 2;
	if (rc)
		fprintf(stderr, "tool_mkarchive: %s: cannot write\n", argv[2]);
	for (size_t i = 0; i < n; i++)
		free(bufs[i]);
	t_w3d_free(&b);
	return rc;
}
