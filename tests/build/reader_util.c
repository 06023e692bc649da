/* reader_util.c - see reader_util.h. */
#include "reader_util.h"

#include <check.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/w3d/w3d_format.h"
#include "lint/lint.h"
#include "textform/textform.h"
#include "core/platform.h"

static char err_buf[512];

static const char *fail_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *fail_msg(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err_buf, sizeof err_buf, fmt, ap);
	va_end(ap);
	return err_buf;
}

uint32_t t_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint8_t *t_copy(const void *p, size_t n)
{
	uint8_t *copy = malloc(n ? n : 1);
	ck_assert_ptr_nonnull(copy);
	if (n)
		memcpy(copy, p, n);
	return copy;
}

wl_doc *t_read_fmt(const wl_format *fmt, const void *p, size_t n)
{
	uint8_t *copy = t_copy(p, n);
	wl_doc *d = wl_format_read(fmt, "test.w3d", copy, n);
	if (!d)
		free(copy);
	ck_assert_ptr_nonnull(d);
	ck_assert_msg(!d->oom, "reader ran out of memory on %zu bytes", n);
	return d;
}

wl_doc *t_read(const void *p, size_t n)
{
	return t_read_fmt(&w3d_format, p, n);
}

void t_free(wl_doc *d)
{
	if (!d)
		return;
	/* The copy was made by t_copy; the document only borrows it. */
	void *copy = (void *)(uintptr_t)d->bytes;
	wl_doc_free(d);
	free(copy);
}

size_t t_count(const wl_doc *d, const char *rule)
{
	size_t n = 0;
	for (size_t i = 0; i < d->findings.count; i++)
		if (strcmp(d->findings.items[i].rule, rule) == 0)
			n++;
	return n;
}

const wl_finding *t_find(const wl_doc *d, const char *rule)
{
	for (size_t i = 0; i < d->findings.count; i++)
		if (strcmp(d->findings.items[i].rule, rule) == 0)
			return &d->findings.items[i];
	return NULL;
}

const wl_finding *t_find_at(const wl_doc *d, const char *rule, uint64_t offset)
{
	for (size_t i = 0; i < d->findings.count; i++)
		if (strcmp(d->findings.items[i].rule, rule) == 0 &&
		    d->findings.items[i].offset == offset)
			return &d->findings.items[i];
	return NULL;
}

int64_t t_offset(const wl_doc *d, const char *rule)
{
	const wl_finding *f = t_find(d, rule);
	return f ? (int64_t)f->offset : -1;
}

/* Context of the children of parent, as the reader derives it. */
static uint16_t child_ctx(const wl_chunk *parent)
{
	if (parent->kind == WL_NODE_ROOT)
		return 0;
	return parent->type ? parent->type->child_ctx : 0xFFFF;
}

/* Checks the nodes under parent, whose payload is [from, to); counts chunks. */
static const char *tile_children(const wl_doc *d, const wl_chunk *parent, uint64_t from,
				 uint64_t to, int depth, uint64_t *chunks)
{
	if (depth > WL_MAX_DEPTH + 2)
		return fail_msg("tree deeper than %d levels", WL_MAX_DEPTH + 2);
	uint64_t pos = from;
	uint32_t index = 0;
	const wl_chunk *last = NULL;
	for (const wl_chunk *k = parent->first_child; k; k = k->next, index++) {
		if (k->parent != parent)
			return fail_msg("node at 0x%llx: wrong parent link", (unsigned long long)k->offset);
		if (k->offset != pos)
			return fail_msg("node %u under parent at 0x%llx starts at 0x%llx, expected 0x%llx",
					(unsigned)index, (unsigned long long)parent->offset,
					(unsigned long long)k->offset, (unsigned long long)pos);
		uint64_t end = wl_chunk_end(k);
		if (end <= k->offset)
			return fail_msg("node at 0x%llx is empty", (unsigned long long)k->offset);
		if (end > to)
			return fail_msg("node at 0x%llx ends at 0x%llx, past its parent's end 0x%llx",
					(unsigned long long)k->offset, (unsigned long long)end,
					(unsigned long long)to);
		if (k->kind == WL_NODE_GAP) {
			if (k->header_size || k->first_child || k->type || k->container)
				return fail_msg("gap at 0x%llx has a header, type or children",
						(unsigned long long)k->offset);
		} else if (k->kind == WL_NODE_CHUNK) {
			(*chunks)++;
			if (k->header_size != d->format->header_size)
				return fail_msg("chunk at 0x%llx: header_size %u",
						(unsigned long long)k->offset, (unsigned)k->header_size);
			/* A format with its own reader (P3D) has no chunk headers:
			 * its node's id names its type. */
			uint32_t id = k->id, size = k->declared_size;
			bool flag = k->flag_bit != 0;
			if (d->format->read_header)
				d->format->read_header(d->bytes + k->offset, &id, &size, &flag);
			if (id != k->id || size != k->declared_size || flag != (k->flag_bit != 0))
				return fail_msg("chunk at 0x%llx: id/size/flag differ from its header bytes",
						(unsigned long long)k->offset);
			if (k->type != d->format->lookup(child_ctx(parent), id))
				return fail_msg("chunk at 0x%llx: schema entry differs from the lookup in its parent",
						(unsigned long long)k->offset);
			if (k->first_child && !k->container)
				return fail_msg("chunk at 0x%llx has children but is not a container",
						(unsigned long long)k->offset);
			if (k->container) {
				if (!k->type || !k->type->child_ctx)
					return fail_msg("chunk at 0x%llx parsed as container without a container type",
							(unsigned long long)k->offset);
				const char *e = tile_children(d, k, wl_chunk_payload_offset(k) + k->fields, end,
							      depth + 1, chunks);
				if (e)
					return e;
			}
		} else {
			return fail_msg("node at 0x%llx has kind %u", (unsigned long long)k->offset,
					(unsigned)k->kind);
		}
		pos = end;
		last = k;
	}
	if (wl_chunk_last_child(parent) != last)
		return fail_msg("parent at 0x%llx: wl_chunk_last_child is not the last node",
				(unsigned long long)parent->offset);
	if (pos != to)
		return fail_msg("nodes under parent at 0x%llx end at 0x%llx, its payload ends at 0x%llx",
				(unsigned long long)parent->offset, (unsigned long long)pos,
				(unsigned long long)to);
	return NULL;
}

const char *t_tiling_error(const wl_doc *d)
{
	if (d->root.kind != WL_NODE_ROOT)
		return "root is not a root node";
	if (d->root.offset != 0 || d->root.size != d->size)
		return "root does not span the file";
	uint64_t chunks = 0;
	const char *e = tile_children(d, &d->root, 0, d->size, 0, &chunks);
	if (e)
		return e;
	if (chunks != d->chunk_count)
		return fail_msg("chunk_count %llu, tree holds %llu chunks",
				(unsigned long long)d->chunk_count, (unsigned long long)chunks);
	return NULL;
}

const char *t_findings_bounds_error(const wl_doc *d)
{
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		if (f->offset > d->size || f->length > d->size - f->offset)
			return fail_msg("%s at 0x%llx length %llu is outside the %llu-byte file", f->rule,
					(unsigned long long)f->offset, (unsigned long long)f->length,
					(unsigned long long)d->size);
		if (!f->message)
			return fail_msg("%s at 0x%llx has no message", f->rule,
					(unsigned long long)f->offset);
	}
	return NULL;
}

wl_doc *t_lint_checked(const wl_catalog *cat, const char *path, const char *fmt, const void *p,
			size_t n)
{
	wl_doc *d = wl_lint_bytes(cat, NULL, path, p, n);
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->format->name, fmt);
	const char *why = t_tiling_error(d);
	ck_assert_msg(why == NULL, "%s", why ? why : "");
	why = t_findings_bounds_error(d);
	ck_assert_msg(why == NULL, "%s", why ? why : "");
	return d;
}

wl_chunk *t_child(const wl_chunk *parent, size_t i)
{
	wl_chunk *k = parent->first_child;
	while (k && i--)
		k = k->next;
	return k;
}

/* Depth-first search of the list starting at first and everything below it. */
static wl_chunk *find_node(wl_chunk *first, uint8_t kind, uint64_t offset, uint32_t id)
{
	for (wl_chunk *k = first; k; k = k->next) {
		if (k->kind == kind && k->offset == offset && k->id == id)
			return k;
		wl_chunk *r = find_node(k->first_child, kind, offset, id);
		if (r)
			return r;
	}
	return NULL;
}

wl_chunk *t_chunk_at(const wl_doc *d, uint64_t offset, uint32_t id)
{
	return find_node(d->root.first_child, WL_NODE_CHUNK, offset, id);
}

wl_chunk *t_gap_at(const wl_doc *d, uint64_t offset)
{
	return find_node(d->root.first_child, WL_NODE_GAP, offset, 0);
}

static void dump_node(const wl_doc *d, const wl_chunk *k, int depth, FILE *out)
{
	for (; k; k = k->next) {
		fprintf(out, "%*s%s @0x%llx hdr %u size %llu (declared %u, bit %u) rec 0x%x\n",
			depth * 2, "", wl_chunk_name(d, k), (unsigned long long)k->offset,
			(unsigned)k->header_size, (unsigned long long)k->size,
			(unsigned)k->declared_size, (unsigned)k->flag_bit, (unsigned)k->recovery);
		dump_node(d, k->first_child, depth + 1, out);
	}
}

void t_dump(const wl_doc *d, FILE *out)
{
	fprintf(out, "file of %llu bytes, %llu chunks\n", (unsigned long long)d->size,
		(unsigned long long)d->chunk_count);
	dump_node(d, d->root.first_child, 1, out);
	for (size_t i = 0; i < d->findings.count; i++) {
		const wl_finding *f = &d->findings.items[i];
		fprintf(out, "  %s @0x%llx +%llu: %s\n", f->rule, (unsigned long long)f->offset,
			(unsigned long long)f->length, f->message);
	}
}

void t_expect_all(const char *name, const wl_doc *d, const void *layout, const t_expect *e,
		   size_t n)
{
	ck_assert_ptr_nonnull(d);
	for (size_t i = 0; i < n && e[i].rule; i++) {
		const t_expect *x = &e[i];
		const wl_finding *f = t_find(d, x->rule);
		if (!x->fires) {
			ck_assert_msg(f == NULL, "%s [%zu]: %s at %llu, expected none", name, i, x->rule,
				      f ? (unsigned long long)f->offset : 0ull);
			continue;
		}
		uint64_t at = x->add;
		if (layout) {
			size_t base;
			memcpy(&base, (const char *)layout + x->at, sizeof base);
			at += base;
		}
		if (!f || (!x->anywhere && f->offset != at))
			t_dump(d, stderr);
		ck_assert_msg(f != NULL, "%s [%zu]: no %s", name, i, x->rule);
		ck_assert_msg(x->anywhere || f->offset == at, "%s [%zu]: %s at %llu, expected %llu", name, i, x->rule,
			      (unsigned long long)f->offset, (unsigned long long)at);
		if (x->length)
			ck_assert_msg(f->length == x->length, "%s [%zu]: %s length %llu, expected %llu",
				      name, i, x->rule, (unsigned long long)f->length,
				      (unsigned long long)x->length);
		if (x->element)
			ck_assert_msg(f->element == x->element, "%s [%zu]: %s element %lld, expected %lld",
				      name, i, x->rule, (long long)f->element, (long long)x->element);
		if (x->message)
			ck_assert_msg(strcmp(f->message, x->message) == 0,
				      "%s [%zu]: %s message '%s', expected '%s'", name, i, x->rule,
				      f->message, x->message);
	}
}

wl_tf_bytes t_assemble(const char *name, const char *text, size_t n)
{
	char err[512] = "";
	wl_tf_bytes out;
	int rc = wl_tf_assemble(name, text, n, &out, err, sizeof err);
	ck_assert_msg(rc == 0, "assembly failed: %s", err);
	return out;
}

char *t_text(const wl_format *fmt, const void *p, size_t n, const char *source)
{
	wl_doc *d = t_read_fmt(fmt, p, n);
	ck_assert_ptr_nonnull(d);
	char *text = NULL;
	size_t len = 0;
	wl_os_memstream ms;
	FILE *f = wl_os_memstream_open(&ms);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(wl_tf_write(f, d, source), 0);
	ck_assert_int_eq(wl_os_memstream_close(&ms, &text, &len), 0);
	t_free(d);
	return text;
}

void t_assembles_to(const char *text, const uint8_t *want, size_t n)
{
	char err[512] = "";
	wl_tf_bytes out;
	ck_assert_msg(wl_tf_assemble("t.txt", text, strlen(text), &out, err, sizeof err) == 0,
		      "assembly failed: %s\n%.3000s", err, text);
	size_t i = 0;
	while (i < n && i < out.len && out.data[i] == want[i])
		i++;
	ck_assert_msg(i == n && out.len == n, "%zu bytes assembled, %zu expected, first difference at 0x%zx\n%.3000s",
		      out.len, n, i, text);
	free(out.data);
}

wl_catalog *t_cat;

void t_cat_setup(void)
{
	char err[256];
	t_cat = wl_catalog_load_builtin(err, sizeof err);
	ck_assert_msg(t_cat != NULL, "%s", err);
}

void t_cat_teardown(void)
{
	wl_catalog_free(t_cat);
	t_cat = NULL;
}
