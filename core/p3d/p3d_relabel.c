/* p3d_relabel.c - an ODOL file whose version field names another layout
 * than the one it is written in (p3d.h: p3d_odol_layout).  The version
 * gates (p3d_info.c, p3d_lod.c) decide every field's place, so a file
 * binarised at v50 but labelled 39 (a version the readers know) does not
 * read: ModelInfo's walk misses the table and the LODs do not land on
 * their ends.  Each other known version is tried on a scratch document
 * until one reads the whole file; no real file of the corpus is read
 * under any version but its own (docs/corpus-errors-p3d.md). */
#include "p3d.h"

/* Versions of real files first (../shared/notes/p3d_reference.md §1), so
 * that of two versions with the same layout the released one is named. */
static const uint32_t PREFERRED[] = { 73, 70, 68, 59, 53, 50, 48, 40 };
#define FIRST_LOD_VERSION 40u /* the LOD walk's first version (p3d_lod.c) */

bool p3d_odol_read_ok(const wl_doc *d, const p3d_model *m)
{
	if (d->oom || !m->info_walked || !m->table_found || !m->lods)
		return false;
	for (uint32_t i = 0; i < m->n_lods; i++)
		if (!m->lods[i].walked)
			return false;
	return true;
}

/* Whether the whole file reads under version v's layout. */
static bool reads_as(const wl_doc *d, uint32_t v)
{
	wl_doc *t = wl_doc_empty(d->format, d->path, d->bytes, d->size);
	if (!t)
		return false;
	p3d_model *m = wl_arena_alloc(t->arena, sizeof *m);
	bool ok = false;
	if (m) {
		m->layout = v;
		m->trial = true;
		p3d_read_odol(t, m);
		ok = p3d_odol_read_ok(t, m) && t->findings.count == 0;
	}
	wl_doc_free(t);
	return ok;
}

static bool preferred(uint32_t v)
{
	for (size_t i = 0; i < sizeof PREFERRED / sizeof PREFERRED[0]; i++)
		if (PREFERRED[i] == v)
			return true;
	return false;
}

uint32_t p3d_odol_layout(const wl_doc *d, const p3d_model *m)
{
	uint32_t h = m->header_version;
	if (m->mlod || !m->header_complete || !p3d_version_known(h) || p3d_odol_read_ok(d, m))
		return 0;
	for (size_t i = 0; i < sizeof PREFERRED / sizeof PREFERRED[0]; i++)
		if (PREFERRED[i] != h && reads_as(d, PREFERRED[i]))
			return PREFERRED[i];
	for (uint32_t v = FIRST_LOD_VERSION; p3d_version_known(v); v++)
		if (v != h && !preferred(v) && reads_as(d, v))
			return v;
	return 0;
}
