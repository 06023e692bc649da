/*
 * fuzz_util.c - the invariant checks shared by the fuzz targets (fuzz.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/edit.h"
#include "fuzz.h"

/* Kept for the life of the process: libFuzzer calls the target millions of
 * times and the catalogue never changes. */
static wl_catalog *catalog;

const wl_catalog *fz_catalog(void)
{
	if (!catalog) {
		char err[512];
		catalog = wl_catalog_load_builtin(err, sizeof err);
		if (!catalog)
			fz_fail("built-in catalogue does not load: %s", err);
	}
	return catalog;
}

void fz_fail(const char *fmt, ...)
{
	va_list ap;
	fputs("fuzz: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

/* The known open problems: "TARGET TEXT" lines (fz_known_open). */
static struct known {
	char target[16];
	char text[240];
} known[64];
static int known_count = -1;  /* -1: not loaded yet */

static void load_known(void)
{
	known_count = 0;
	const char *path = getenv("W3DLINT_FUZZ_KNOWN_OPEN");
	FILE *f = path && *path ? fopen(path, "r") : NULL;
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof line, f) && known_count < (int)(sizeof known / sizeof known[0])) {
		line[strcspn(line, "\r\n")] = '\0';
		char *sp = strchr(line, ' ');
		if (line[0] == '#' || !sp || sp == line || (size_t)(sp - line) >= sizeof known[0].target)
			continue;
		size_t tl = (size_t)(sp - line);
		while (*sp == ' ')
			sp++;
		size_t n = strlen(sp);
		if (n == 0)
			continue;
		if (n >= sizeof known[0].text)
			n = sizeof known[0].text - 1;
		memcpy(known[known_count].target, line, tl);
		known[known_count].target[tl] = '\0';
		memcpy(known[known_count].text, sp, n);
		known[known_count].text[n] = '\0';
		known_count++;
	}
	fclose(f);
}

int fz_known_open(const char *target, const char *text)
{
	if (known_count < 0)
		load_known();
	/* A prefix, ending at a word boundary: the text of a problem starts
	 * with its kind and rule id ("new error: file-empty reported ...");
	 * what follows quotes names from the file, which the fuzzer controls. */
	for (int i = 0; i < known_count; i++) {
		size_t n = strlen(known[i].text);
		if (strcmp(known[i].target, target) != 0 || strncmp(text, known[i].text, n) != 0)
			continue;
		char next = text[n];  /* text is at least n bytes long here */
		if (!(next == '-' || (next >= 'a' && next <= 'z') || (next >= '0' && next <= '9')))
			return 1;
	}
	return 0;
}

/* Checks that the nodes under parent tile [start, end) in order; recurses
 * into every container whose children were parsed. */
static void check_tiling(const wl_doc *d, const wl_chunk *parent, uint64_t start, uint64_t end,
			 const char *what, unsigned depth)
{
	char path[512];
	uint64_t at = start;
	if (depth > WL_MAX_DEPTH + 2)
		fz_fail("%s: chunk tree deeper than %d", what, WL_MAX_DEPTH);
	for (const wl_chunk *k = parent->first_child; k; k = k->next) {
		if (k->parent != parent)
			fz_fail("%s: node at 0x%llx has the wrong parent", what,
				(unsigned long long)k->offset);
		if (k->offset != at)
			fz_fail("%s: node %s starts at 0x%llx, expected 0x%llx", what,
				wl_chunk_path(d, k, -1, path, sizeof path),
				(unsigned long long)k->offset, (unsigned long long)at);
		uint64_t k_end = k->kind == WL_NODE_GAP ? k->offset + k->size : wl_chunk_end(k);
		if (k_end < k->offset || k_end > end)
			fz_fail("%s: node %s at 0x%llx ends at 0x%llx, past its parent's end 0x%llx",
				what, wl_chunk_path(d, k, -1, path, sizeof path),
				(unsigned long long)k->offset, (unsigned long long)k_end,
				(unsigned long long)end);
		if (k->kind == WL_NODE_GAP) {
			if (k->first_child || k->size == 0)
				fz_fail("%s: gap at 0x%llx is empty or has children", what,
					(unsigned long long)k->offset);
		} else if (k->kind != WL_NODE_CHUNK) {
			fz_fail("%s: node at 0x%llx has kind %u", what, (unsigned long long)k->offset,
				(unsigned)k->kind);
		} else if (k->container) {
			/* The children follow the container's own fields (B3D). */
			if (k->fields > k->size)
				fz_fail("%s: container %s has %llu bytes of fields in %llu", what,
					wl_chunk_path(d, k, -1, path, sizeof path),
					(unsigned long long)k->fields, (unsigned long long)k->size);
			check_tiling(d, k, wl_chunk_payload_offset(k) + k->fields, k_end, what,
				     depth + 1);
		} else if (k->first_child) {
			fz_fail("%s: data chunk %s has children", what,
				wl_chunk_path(d, k, -1, path, sizeof path));
		}
		at = k_end;
	}
	if (at != end)
		fz_fail("%s: nodes end at 0x%llx, their parent at 0x%llx", what, (unsigned long long)at,
			(unsigned long long)end);
}

void fz_check_doc(const wl_doc *d, const char *what, int linted)
{
	char path[512];
	if (d->oom)
		fz_fail("%s: out of memory on a %llu-byte input", what, (unsigned long long)d->size);
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		const char *where = f->chunk ? wl_chunk_path(d, f->chunk, f->element, path, sizeof path)
					     : "(file)";
		if (!f->rule || !f->message)
			fz_fail("%s: finding %zu has no rule or no message", what, i);
		if (f->offset > d->size || f->length > d->size - f->offset)
			fz_fail("%s: finding [%s] at 0x%llx length %llu lies outside the %llu-byte "
				"file (%s): %s",
				what, f->rule, (unsigned long long)f->offset,
				(unsigned long long)f->length, (unsigned long long)d->size, where,
				f->message);
		if (strcmp(f->rule, wl_rule_name(WLR_INTERNAL_UNKNOWN_RULE)) == 0)
			fz_fail("%s: internal-unknown-rule at 0x%llx (%s): %s", what,
				(unsigned long long)f->offset, where, f->message);
		if (linted && f->severity == WL_SEV_OFF)
			fz_fail("%s: finding [%s] kept with severity off", what, f->rule);
	}
	check_tiling(d, &d->root, 0, d->size, what, 0);
}

void fz_check_identity(const wl_doc *d, const char *what)
{
	uint8_t *out = NULL;
	size_t len = 0;
	if (wl_doc_write(d, &out, &len) != 0)
		fz_fail("%s: wl_doc_write failed with no edit", what);
	if (len != d->size || (len && memcmp(out, d->bytes, len) != 0)) {
		size_t at = 0;
		while (at < len && at < d->size && out[at] == d->bytes[at])
			at++;
		fz_fail("%s: writing with no edit changed the bytes (%zu -> %zu bytes, first "
			"difference at 0x%zx)",
			what, (size_t)d->size, len, at);
	}
	free(out);
}
