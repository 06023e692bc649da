/*
 * fuzz_textform.c - fuzz target: text-form dump -> assemble round trip.
 *
 * The input is taken two ways (textform/textform.h, docs/textform.md):
 *  1. as a W3D file: its text form (wl_tf_write) must assemble
 *     (wl_tf_assemble) back to the input byte for byte, whatever the bytes;
 *  2. as a text-form document: when it assembles, the bytes it gives must
 *     round-trip the same way (1).  An assembler error is fine here (the
 *     text may be anything); a crash or a sanitizer report is not.
 * The seeds hold both kinds: W3D files and their text forms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/w3d/w3d_format.h"
#include "../../textform/textform.h"
#include "fuzz.h"

static void round_trip(const uint8_t *data, size_t size, const char *what)
{
	wl_doc *d = wl_doc_read(&w3d_format, "fuzz.w3d", data, size);
	if (!d)
		fz_fail("%s: wl_doc_read: out of memory", what);
	fz_check_doc(d, what, 0);

	char *text = NULL;
	size_t text_len = 0;
	FILE *m = open_memstream(&text, &text_len);
	if (!m)
		fz_fail("%s: open_memstream failed", what);
	int rc = wl_tf_write(m, d, "fuzz.w3d");
	if (fclose(m) != 0 || rc != 0)
		fz_fail("%s: wl_tf_write failed", what);
	wl_doc_free(d);

	wl_tf_bytes b = { 0 };
	char err[512];
	if (wl_tf_assemble("dump.txt", text, text_len, &b, err, sizeof err) != 0) {
		fprintf(stderr, "%.*s\n", text_len > 4000 ? 4000 : (int)text_len, text);
		fz_fail("%s: the dump does not assemble: %s", what, err);
	}
	if (b.len != size || (size && memcmp(b.data, data, size) != 0)) {
		size_t at = 0;
		while (at < b.len && at < size && b.data[at] == data[at])
			at++;
		fprintf(stderr, "%.*s\n", text_len > 4000 ? 4000 : (int)text_len, text);
		fz_fail("%s: dump -> assemble gives %zu bytes for %zu, first difference at 0x%zx",
			what, b.len, size, at);
	}
	free(b.data);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	round_trip(data, size, "textform (binary input)");

	wl_tf_bytes b = { 0 };
	char err[512];
	if (wl_tf_assemble("fuzz.txt", (const char *)data, size, &b, err, sizeof err) == 0) {
		round_trip(b.data, b.len, "textform (assembled input)");
		free(b.data);
	} else if (b.data) {
		fz_fail("textform: wl_tf_assemble failed but left output");
	}
	return 0;
}
