/*
 * model_entry.c - which entries of an archive are models (model_entry.h).
 */
#include <stdlib.h>

#include "core/format.h"
#include "model_entry.h"

/* A packed entry that does not unpack is left out: the archive's own lint
 * reports it (archive-pbo-unpack), and it is no model to lint. */
static bool unpacks(const wl_archive_entry *e, const uint8_t *archive)
{
	if (!e->packed)
		return true;
	uint8_t *out = NULL;
	char why[160];
	int rc = wl_archive_unpack(e, archive + e->offset, &out, why, sizeof why);
	free(out);
	return rc == 0;
}

bool wl_archive_model_entry(const wl_archive_entry *e, const uint8_t *archive)
{
	return e->readable && wl_format_by_extension(e->path) && unpacks(e, archive);
}
