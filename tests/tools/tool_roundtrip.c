/*
 * tool_roundtrip.c - the writer's corpus check (tests/roundtrip.sh):
 *
 *   tool_roundtrip [--rebuild] FILE...
 *
 * Reads each FILE as W3D (core/chunk.h), writes it back with wl_doc_write()
 * and compares the output with the input byte for byte.
 *   default    no edit at all: the output must equal the input for every
 *              file, whatever its defects (the tree covers every byte).
 *   --rebuild  every data chunk gets its own payload again through
 *              wl_edit_set_payload(), so every chunk of the file is dirty and
 *              re-serialised from the tree (sizes recomputed, bit 31 kept as
 *              read); checked only on files whose sizes the reader took as
 *              declared (no chunk with a size recovery mark), where the
 *              rebuilt file must equal the input too.
 * Prints one line per mismatch (file, first differing offset) and a summary
 * "roundtrip: N files, M identical, K skipped"; exit 0 when all compared
 * files were identical, 1 on a mismatch, 2 on an I/O or memory error.
 *
 *   tool_roundtrip --check-fixed IN OUT
 *
 * Checks a w3dfix output OUT against its input IN: OUT has no size
 * recovery mark and no gap (its structure is consistent), every
 * HLOD_SUB_OBJECT chunk of OUT lies inside an HLOD and OUT holds as many
 * as IN, and OUT has IN's length and IN's bytes everywhere except the size
 * fields (bytes 4..7) of OUT's chunk headers.  Exit 0 when all holds, 1
 * otherwise (one line says why), 2 on an I/O error.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/edit.h"
#include "core/file_io.h"
#include "core/format.h"

static const uint16_t size_marks = WL_REC_TRUNCATED | WL_REC_PAST_EOF | WL_REC_CLAMPED |
				   WL_REC_EXTENDED | WL_REC_DEPTH;

/* Sets every data chunk's payload to itself; false when a chunk has a size
 * recovery mark (the rebuilt file is then expected to differ). */
static bool dirty_all(wl_doc *d, wl_chunk *c, int *err)
{
	bool ok = true;
	for (wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind != WL_NODE_CHUNK)
			continue;
		if (k->recovery & size_marks)
			ok = false;
		if (k->container) {
			ok = dirty_all(d, k, err) && ok;
			continue;
		}
		size_t len;
		const uint8_t *p = wl_edit_payload(d, k, &len);
		if (wl_edit_set_payload(d, k, p, len) != 0)
			*err = 1;
	}
	return ok;
}

#define HLOD_ID 0x0700u
#define HLOD_SUB_OBJECT_ID 0x0704u

typedef struct tally {
	size_t subs, subs_outside, marks;
} tally;

static void survey(const wl_chunk *c, bool in_hlod, tally *t, uint8_t *size_field, uint64_t n)
{
	for (const wl_chunk *k = c->first_child; k; k = k->next) {
		if (k->kind == WL_NODE_GAP) {
			t->marks++;
			continue;
		}
		if (k->recovery & size_marks)
			t->marks++;
		if (size_field && k->offset + 8 <= n)
			memset(size_field + k->offset + 4, 1, 4);
		if (k->id == HLOD_SUB_OBJECT_ID) {
			t->subs++;
			t->subs_outside += !in_hlod; /* always at the top level */
		}
		survey(k, in_hlod || (k->id == HLOD_ID && k->parent->kind == WL_NODE_ROOT), t, size_field, n);
	}
}

static int check_fixed(const char *inp, const char *outp)
{
	uint8_t *in, *out;
	size_t n, m;
	if (wl_read_file(inp, SIZE_MAX, &in, &n) != WL_READ_OK)
		return 2;
	if (wl_read_file(outp, SIZE_MAX, &out, &m) != WL_READ_OK) {
		free(in);
		return 2;
	}
	wl_doc *di = wl_format_read(wl_format_detect(in, n, inp), inp, in, n);
	wl_doc *dout = wl_format_read(wl_format_detect(out, m, outp), outp, out, m);
	uint8_t *sf = calloc(m ? m : 1, 1);
	int rc = 2;
	if (di && dout && sf && !di->oom && !dout->oom) {
		tally ti = { 0 }, to = { 0 };
		survey(&di->root, false, &ti, NULL, n);
		survey(&dout->root, false, &to, sf, m);
		size_t at = 0;
		while (at < m && at < n && (in[at] == out[at] || sf[at]))
			at++;
		rc = 1;
		if (to.marks)
			printf("check-fixed: %s: %zu recovery mark(s) or gap(s) left\n", outp, to.marks);
		else if (to.subs_outside || to.subs != ti.subs)
			printf("check-fixed: %s: %zu hlod sub-object(s), %zu outside an hlod; input has %zu\n",
			       outp, to.subs, to.subs_outside, ti.subs);
		else if (m != n || at != m)
			printf("check-fixed: %s: differs from %s outside size fields at 0x%zx (%zu vs %zu bytes)\n",
			       outp, inp, at, m, n);
		else
			rc = 0;
	}
	free(sf);
	wl_doc_free(di);
	wl_doc_free(dout);
	free(in);
	free(out);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--check-fixed") == 0)
		return check_fixed(argv[2], argv[3]);
	bool rebuild = false;
	int first = 1;
	if (argc > 1 && strcmp(argv[1], "--rebuild") == 0) {
		rebuild = true;
		first = 2;
	}
	unsigned files = 0, same = 0, skipped = 0, bad = 0, errors = 0;
	for (int i = first; i < argc; i++) {
		uint8_t *in;
		size_t n;
		if (wl_read_file(argv[i], SIZE_MAX, &in, &n) != WL_READ_OK) {
			fprintf(stderr, "roundtrip: cannot read %s\n", argv[i]);
			errors++;
			continue;
		}
		files++;
		wl_doc *d = wl_format_read(wl_format_detect(in, n, argv[i]), argv[i], in, n);
		if (!d || d->oom) {
			fprintf(stderr, "roundtrip: out of memory reading %s\n", argv[i]);
			errors++;
			wl_doc_free(d);
			free(in);
			continue;
		}
		int err = 0;
		if (rebuild && !dirty_all(d, &d->root, &err)) {
			skipped++;
			wl_doc_free(d);
			free(in);
			continue;
		}
		uint8_t *out = NULL;
		size_t m = 0;
		if (err || wl_doc_write(d, &out, &m) != 0) {
			fprintf(stderr, "roundtrip: write failed for %s\n", argv[i]);
			errors++;
		} else if (m == n && memcmp(in, out, n) == 0) {
			same++;
		} else {
			size_t at = 0;
			while (at < m && at < n && in[at] == out[at])
				at++;
			printf("roundtrip: MISMATCH %s: %zu bytes in, %zu out, first difference at 0x%zx\n",
			       argv[i], n, m, at);
			bad++;
		}
		free(out);
		wl_doc_free(d);
		free(in);
	}
	printf("roundtrip%s: %u files, %u identical, %u skipped\n", rebuild ? " --rebuild" : "", files,
	       same, skipped);
	return errors ? 2 : bad ? 1 : 0;
}
