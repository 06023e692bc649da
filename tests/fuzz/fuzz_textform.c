/*
 * fuzz_textform.c - fuzz target: text-form dump -> assemble round trip.
 *
 * The input is taken two ways (textform/textform.h, docs/textform.md):
 *  1. as a file of every format with a text form (W3D, B3D: registry.h):
 *     its text form (wl_tf_write) must assemble (wl_tf_assemble) back to
 *     the input byte for byte, whatever the bytes;
 *  2. as a text-form document (w3d-text or b3d-text): when it assembles,
 *     the bytes it gives must round-trip the same way (1).  An assembler
 *     error is fine here (the text may be anything); a crash or a
 *     sanitizer report is not.
 * The seeds hold both kinds: W3D and B3D files and their text forms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/format.h"
#include "textform/registry.h"
#include "textform/textform.h"
#include "fuzz.h"

static void round_trip_as(const wl_format *f, const uint8_t *data, size_t size, const char *what)
{
	wl_doc *d = wl_format_read(f, "fuzz", data, size);
	if (!d)
		fz_fail("%s: %s: reading: out of memory", what, f->name);
	fz_check_doc(d, what, 0);

	char *text = NULL;
	size_t text_len = 0;
	FILE *m = open_memstream(&text, &text_len);
	if (!m)
		fz_fail("%s: open_memstream failed", what);
	int rc = wl_tf_write(m, d, "fuzz");
	if (fclose(m) != 0 || rc != 0)
		fz_fail("%s: %s: wl_tf_write failed", what, f->name);
	wl_doc_free(d);

	wl_tf_bytes b = { 0 };
	char err[512];
	if (wl_tf_assemble("dump.txt", text, text_len, &b, err, sizeof err) != 0) {
		fprintf(stderr, "%.*s\n", text_len > 4000 ? 4000 : (int)text_len, text);
		fz_fail("%s: the %s dump does not assemble: %s", what, f->name, err);
	}
	if (b.len != size || (size && memcmp(b.data, data, size) != 0)) {
		size_t at = 0;
		while (at < b.len && at < size && b.data[at] == data[at])
			at++;
		fprintf(stderr, "%.*s\n", text_len > 4000 ? 4000 : (int)text_len, text);
		fz_fail("%s: %s dump -> assemble gives %zu bytes for %zu, first difference at 0x%zx",
			what, f->name, b.len, size, at);
	}
	free(b.data);
	free(text);
}

/* Round trip through the text form of every writable format that has one. */
static void round_trip(const uint8_t *data, size_t size, const char *what)
{
	size_t n;
	const wl_format *const *fs = wl_formats(&n);
	for (size_t i = 0; i < n; i++)
		if (fs[i]->writable && wl_tf_format_of(fs[i]))
			round_trip_as(fs[i], data, size, what);
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
