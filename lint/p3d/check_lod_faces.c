/* check_lod_faces.c - the faces and sections of each walked ODOL LOD
 * (checks.h), read from the file where the LOD's view
 * (core/p3d/p3d_lodview.h: layout and sources) places them, through the
 * cursor.  A section's face bounds are byte offsets into the face
 * allocation, in which a face of k vertices takes (1 + k) x index size.
 *   p3d-face-vertex-count a face of other than 3 or 4 vertices
 *   p3d-face-index        a face's vertex index at or past the LOD's
 *                         vertex count (v50+: vertexCount, below: the clip
 *                         flags' count)
 *   p3d-face-allocation   the allocation before the faces is not the
 *                         faces' allocation size
 *   p3d-section-faces     a section's face bounds lie outside the faces or
 *                         between two faces, or end before they start
 *   p3d-section-order     a section does not start where the one before
 *                         ended (0 for the first), or the last does not
 *                         end at the end of the faces
 *   p3d-section-texture, p3d-section-material   an index past the LOD's
 *                         textures / materials (-1 is "none" / "named") */
#include <stdlib.h>

#include "checks.h"

typedef struct fc {
	wl_lint_ctx *ctx;
	const p3d_lodview *x;
	uint32_t *face_at;     /* n_faces + 1 allocation offsets (malloc) */
	uint32_t next;         /* where the next section should start */
	uint64_t last;         /* offset of the last section checked */
} fc;

static const wl_chunk *rest_node(const p3d_lodview *x)
{
	return x->rest ? x->rest : x->lod;
}

static const wl_chunk *head_node(const p3d_lodview *x)
{
	return x->head ? x->head : x->lod;
}

/* The faces: their rules and each face's allocation offset (f->face_at,
 * NULL when they take more than 4 GiB). */
static void faces(fc *f)
{
	const p3d_lodview *x = f->x;
	wl_doc *d = f->ctx->doc;
	bool counts = wl_lint_enabled(f->ctx, WLR_P3D_FACE_VERTEX_COUNT);
	bool index = x->vertices != UINT32_MAX && wl_lint_enabled(f->ctx, WLR_P3D_FACE_INDEX);
	uint32_t isz = x->v >= 69 ? 4 : 2, n = x->n_faces, nv = x->vertices;
	f->face_at = malloc(((size_t)n + 1) * sizeof *f->face_at);
	if (!f->face_at) {
		d->oom = true;
		return;
	}
	uint64_t len = x->faces ? x->faces->size : 0, sum = 0;
	wl_cursor c = wl_cursor_make(d->bytes + x->faces_off, (size_t)len, x->faces_off);
	const uint8_t *p = wl_cursor_take(&c, (size_t)len), *end = p ? p + len : NULL;
	uint32_t i = 0;
	for (; p && i < n; i++) {
		/* The walk read every face inside the faces node: k and its
		 * indices lie before end (tested all the same). */
		if (p >= end)
			break;
		uint64_t at = (uint64_t)(p - d->bytes);
		uint32_t k = *p++;
		f->face_at[i] = (uint32_t)sum;
		sum += (1ull + k) * isz;
		if (counts && k != 3 && k != 4)
			wl_report(&d->findings, WLR_P3D_FACE_VERTEX_COUNT, x->faces, i, at, 1,
				  "face %u has %u vertices: a face has 3 or 4", (unsigned)i, (unsigned)k);
		if ((uint64_t)(end - p) < (uint64_t)k * isz)
			break;
		for (uint32_t j = 0; index && j < k; j++) {
			uint32_t idx = isz == 4 ? wl_le32(p + 4 * j) : wl_le16(p + 2 * j);
			if (idx >= nv)
				wl_report(&d->findings, WLR_P3D_FACE_INDEX, x->faces, i, at + 1 + j * isz,
					  isz, "face %u vertex %u uses vertex %u of %u", (unsigned)i,
					  (unsigned)j, (unsigned)idx, (unsigned)nv);
		}
		p += (size_t)k * isz;
	}
	if (i < n || sum > UINT32_MAX) {
		free(f->face_at);
		f->face_at = NULL;
		return;
	}
	f->face_at[n] = (uint32_t)sum;
	if (x->alloc != sum && wl_lint_enabled(f->ctx, WLR_P3D_FACE_ALLOCATION))
		wl_report(&d->findings, WLR_P3D_FACE_ALLOCATION, head_node(x), -1, x->alloc_off, 4,
			  "the faces' allocation size is %u but %u faces of (1 + vertices) x %u bytes "
			  "take %u",
			  (unsigned)x->alloc, (unsigned)n, (unsigned)isz, (unsigned)sum);
}

/* The face starting at allocation offset a, or -1. */
static int64_t face_starting(const fc *f, uint32_t a)
{
	uint32_t lo = 0, hi = f->x->n_faces + 1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (f->face_at[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo <= f->x->n_faces && f->face_at[lo] == a ? (int64_t)lo : -1;
}

/* Section i at off: u32 from, to; 12 bytes; i16 texture; u32; i32
 * material. */
static void section(fc *f, uint32_t i, uint64_t off)
{
	const p3d_lodview *x = f->x;
	wl_findings *fs = &f->ctx->doc->findings;
	const wl_chunk *node = rest_node(x);
	wl_cursor c = wl_cursor_make(f->ctx->doc->bytes + off, 30, off);
	uint32_t from = wl_cursor_u32(&c), to = wl_cursor_u32(&c);
	wl_cursor_skip(&c, 12);
	int16_t tex = (int16_t)wl_cursor_u16(&c);
	wl_cursor_skip(&c, 4);
	int32_t mat = (int32_t)wl_cursor_u32(&c);
	f->last = off;
	if (f->face_at) {
		uint32_t end = f->face_at[x->n_faces];
		if (from > to || to > end || face_starting(f, from) < 0 || face_starting(f, to) < 0) {
			if (wl_lint_enabled(f->ctx, WLR_P3D_SECTION_FACES))
				wl_report(fs, WLR_P3D_SECTION_FACES, node, i, off, 8,
					  "section %u covers face bytes %u to %u, which are not whole "
					  "faces inside the %u bytes of the lod's %u faces",
					  (unsigned)i, (unsigned)from, (unsigned)to, (unsigned)end,
					  (unsigned)x->n_faces);
			f->next = UINT32_MAX;
		} else {
			if (f->next != UINT32_MAX && from != f->next &&
			    wl_lint_enabled(f->ctx, WLR_P3D_SECTION_ORDER))
				wl_report(fs, WLR_P3D_SECTION_ORDER, node, i, off, 4,
					  "section %u starts at face %u (byte %u) but the section before "
					  "it ends at byte %u",
					  (unsigned)i, (unsigned)face_starting(f, from), (unsigned)from,
					  (unsigned)f->next);
			f->next = to;
		}
	}
	if ((tex < -1 || (tex >= 0 && (uint32_t)tex >= x->n_textures)) &&
	    wl_lint_enabled(f->ctx, WLR_P3D_SECTION_TEXTURE))
		wl_report(fs, WLR_P3D_SECTION_TEXTURE, node, i, off + 20, 2,
			  "section %u uses texture %d but the lod has %u textures (-1: none)",
			  (unsigned)i, (int)tex, (unsigned)x->n_textures);
	if ((mat < -1 || (mat >= 0 && (uint32_t)mat >= x->n_materials)) &&
	    wl_lint_enabled(f->ctx, WLR_P3D_SECTION_MATERIAL))
		wl_report(fs, WLR_P3D_SECTION_MATERIAL, node, i, off + 26, 4,
			  "section %u uses material %d but the lod has %u materials (-1: named in "
			  "the section)",
			  (unsigned)i, (int)mat, (unsigned)x->n_materials);
}

/* After the last section: the sections reach the end of the faces. */
static void sections_end(fc *f)
{
	const p3d_lodview *x = f->x;
	if (!f->face_at || x->n_faces == 0 || f->next == UINT32_MAX ||
	    !wl_lint_enabled(f->ctx, WLR_P3D_SECTION_ORDER))
		return;
	uint32_t end = f->face_at[x->n_faces];
	wl_findings *fs = &f->ctx->doc->findings;
	if (x->n_sections == 0)
		wl_report(fs, WLR_P3D_SECTION_ORDER, rest_node(x), -1, x->sections_at, 4,
			  "the lod has %u faces but no section: no face is drawn",
			  (unsigned)x->n_faces);
	else if (f->next != end)
		wl_report(fs, WLR_P3D_SECTION_ORDER, rest_node(x), x->n_sections - 1, f->last + 4, 4,
			  "the last section (%u) ends at face byte %u but the faces take %u bytes",
			  (unsigned)(x->n_sections - 1), (unsigned)f->next, (unsigned)end);
}

void p3d_check_lod_faces(wl_lint_ctx *ctx)
{
	const p3d_model *m = ctx->model;
	if (!m || m->mlod || !m->in_file)
		return;
	for (uint32_t i = 0; i < m->n_lods; i++) {
		const p3d_lodview *x = m->in_file[i]->view;
		if (!x || !x->faces_read)
			continue;
		fc f = { ctx, x, NULL, 0, 0 };
		faces(&f);
		for (uint32_t s = 0; s < x->sections_seen; s++)
			section(&f, s, x->section_off[s]);
		if (x->sections_read)
			sections_end(&f);
		free(f.face_at);
	}
}
