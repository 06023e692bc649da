/* report_html.c - the front end's parts of the HTML report; see
 * report_html.h. */
#include "report_html.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "core/filekind.h"
#include "core/format.h"
#include "core/platform.h"
#include "lint/run/run.h"
#include "textform/dump.h"
#include "archive_walk.h"
#include "companions.h"
#include "explain.h"

bool wl_cli_html_available(void)
{
	return wl_report_html_viewer_ok(wl_html_viewer, wl_html_viewer_size);
}

/* The file's bytes again, from its path as the run named it. */
static int read_again(const wl_file_report *f, uint8_t **bytes, size_t *size)
{
	char err[1400];
	if (f->archive) {
		wl_member *m = wl_member_find(f->path);
		int rc = m ? wl_member_read("w3dlint", f->path, m, bytes, size, err, sizeof err) : -1;
		wl_member_free(m);
		return rc;
	}
	uint64_t n = 0;
	if (wl_run_read(f->path, bytes, &n, err, sizeof err) != 0)
		return -1;
	*size = (size_t)n;
	return 0;
}

static int geometry(const void *ud, const wl_file_report *f, FILE *out)
{
	(void)ud;
	uint8_t *bytes = NULL;
	size_t size = 0;
	if (read_again(f, &bytes, &size) != 0)
		return -1;
	/* an archive's own findings: no model to show (core/filekind.h; as
	 * w3ddump tells a model from an archive) */
	if (!f->archive && !wl_format_by_extension(f->path) && wl_file_kind_of(bytes, size, f->path)) {
		free(bytes);
		return -1;
	}
	wl_doc *d = wl_format_read(wl_format_detect(bytes, size, f->path), f->path, bytes, size);
	wl_cli_companions cc;
	wl_cli_companions_init(&cc);
	int rc = d && !d->oom ? wl_tf_dump_geometry(out, d, &cc.c) : -1;
	wl_cli_companions_free(&cc);
	wl_doc_free(d);
	free(bytes);
	return rc;
}

/* A custom rule of a configuration is not in the catalogue: no text. */
static int explain(const void *ud, const char *rule, FILE *out)
{
	const wl_catalog *cat = ud;
	return wl_catalog_find(cat, rule) && wl_cli_explain_rule(cat, rule, out) == 0 ? 0 : -1;
}

void wl_cli_html_parts(const wl_catalog *cat, wl_report_html_parts *parts)
{
	*parts = (wl_report_html_parts){ wl_html_viewer, wl_html_viewer_size, geometry, explain, cat };
}
