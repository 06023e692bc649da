/* report_html.c - the HTML report: one self-contained page holding the JSON
 * report, the geometry of the files with findings, the rules' --explain text
 * and the viewer that shows them (report.h wl_report_html_new;
 * docs/web.md "The HTML report"). */
#include "report.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/platform.h"

typedef struct html_reporter {
	wl_reporter base;
	FILE *out;
	wl_report_html_parts p;
	wl_reporter *json;        /* the JSON report, written part by part */
	wl_os_memstream parts[2]; /* the JSON reporter's streams: */
	int cur;                  /* the one it writes to */
	char **rules;             /* rule ids with findings, in order seen */
	size_t nrules, cap;
	bool failed;              /* out of memory or a write failed */
} html_reporter;

/* The page up to the data; the Content-Security-Policy allows the page's
 * own inline script and style and nothing else: it loads nothing and
 * connects nowhere. */
static const char HEAD[] =
	"<!DOCTYPE html>\n"
	"<!-- w3dlint's HTML report (w3dlint --format html; docs/web.md): the JSON report\n"
	"     (script.w3dlint-json, its parts in order), the geometry of the files with\n"
	"     findings (script.w3dlint-geometry), the rules' explanations\n"
	"     (script#w3dlint-explain) and the viewer that shows them. -->\n"
	"<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	"script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:\">\n"
	"<meta name=\"generator\" content=\"" W3DLINT_NAME " " W3DLINT_VERSION "\">\n"
	"<title>w3dlint report</title>\n</head>\n<body>\n"
	"<noscript>This report is shown by its script. Its findings are the JSON in the "
	"script.w3dlint-json elements of this file, in order.</noscript>\n";

/* Writes text[0..len) as the content of a JSON script element: '<' becomes
 * \u003c (it occurs only inside JSON strings), so that no "</script" or
 * "<!--" can end or change the element. */
static void put_json(html_reporter *h, const char *text, size_t len)
{
	size_t run = 0;
	for (size_t i = 0; i < len; i++) {
		if (text[i] != '<')
			continue;
		fwrite(text + run, 1, i - run, h->out);
		fputs("\\u003c", h->out);
		run = i + 1;
	}
	fwrite(text + run, 1, len - run, h->out);
}

/* <script type="application/json" class="CLS"> or id="ID" (one of them). */
static void open_script(html_reporter *h, const char *cls, const char *id)
{
	fprintf(h->out, "<script type=\"application/json\" %s=\"%s\">", cls ? "class" : "id", cls ? cls : id);
}

/* Closes the JSON reporter's current part and writes it as a
 * script.w3dlint-json; unless last, the reporter writes to the other
 * stream from here on.  (A stream's buffer and length are fields of its
 * wl_os_memstream, which therefore never moves.) */
static int flush_part(html_reporter *h, bool last)
{
	wl_os_memstream *cur = &h->parts[h->cur], *next = &h->parts[!h->cur];
	if (!last) {
		if (!wl_os_memstream_open(next))
			return -1;
		if (wl_report_json_retarget(h->json, next->f) != 0)
			return -1;
		h->cur = !h->cur;
	}
	char *buf = NULL;
	size_t len = 0;
	if (wl_os_memstream_close(cur, &buf, &len) != 0)
		return -1;
	if (len) {
		open_script(h, "w3dlint-json", NULL);
		put_json(h, buf, len);
		fputs("</script>\n", h->out);
	}
	free(buf);
	return 0;
}

static int note_rule(html_reporter *h, const char *rule)
{
	for (size_t i = 0; i < h->nrules; i++)
		if (strcmp(h->rules[i], rule) == 0)
			return 0;
	if (h->nrules == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 16;
		char **r = realloc(h->rules, cap * sizeof *r);
		if (!r)
			return -1;
		h->rules = r;
		h->cap = cap;
	}
	if (!(h->rules[h->nrules] = strdup(rule)))
		return -1;
	h->nrules++;
	return 0;
}

/* The file's geometry as a script.w3dlint-geometry:
 * {"path": PATH as the JSON report writes it, "geometry": ...}.  A file
 * whose geometry cannot be had is shown without one. */
static int geometry_part(html_reporter *h, const wl_file_report *f)
{
	wl_os_memstream g = { 0 };
	if (!h->p.geometry || !wl_os_memstream_open(&g))
		return h->p.geometry ? -1 : 0;
	int got = h->p.geometry(h->p.ud, f, g.f);
	char *buf = NULL;
	size_t len = 0;
	if (wl_os_memstream_close(&g, &buf, &len) != 0)
		return -1;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	json_t *path = got == 0 && len ? wl_report_json_str(f->path) : NULL;
	char *p = path ? json_dumps(path, JSON_ENCODE_ANY) : NULL;
	json_decref(path);
	if (p) {
		open_script(h, "w3dlint-geometry", NULL);
		fputs("{\"path\":", h->out);
		put_json(h, p, strlen(p));
		fputs(",\"geometry\":", h->out);
		put_json(h, buf, len);
		fputs("}</script>\n", h->out);
	}
	free(p);
	free(buf);
	return got == 0 && len && !p ? -1 : 0;
}

static int html_file(wl_reporter *r, const wl_file_report *f)
{
	html_reporter *h = (html_reporter *)r;
	if (h->failed || h->json->file(h->json, f) != 0 || flush_part(h, false) != 0)
		goto fail;
	for (size_t i = 0; i < f->findings_count; i++)
		if (note_rule(h, f->findings[i].rule) != 0)
			goto fail;
	if (f->findings_count && geometry_part(h, f) != 0)
		goto fail;
	return ferror(h->out) ? -1 : 0;
fail:
	h->failed = true;
	return -1;
}

/* {"RULE": "its --explain text", ...} for the rules with findings. */
static int explain_part(html_reporter *h)
{
	json_t *o = json_object();
	for (size_t i = 0; o && h->p.explain && i < h->nrules; i++) {
		wl_os_memstream m = { 0 };
		if (!wl_os_memstream_open(&m)) {
			json_decref(o);
			return -1;
		}
		int got = h->p.explain(h->p.ud, h->rules[i], m.f);
		char *buf = NULL;
		size_t len = 0;
		if (wl_os_memstream_close(&m, &buf, &len) != 0) {
			json_decref(o);
			return -1;
		}
		/* the catalogue's own text, lines kept (a byte that is not
		 * UTF-8 would make it the escaped form) */
		json_t *s = got == 0 ? json_string(buf) : NULL;
		if (got == 0 && !s)
			s = wl_report_json_str(buf);
		free(buf);
		if (s && json_object_set_new(o, h->rules[i], s) != 0) {
			json_decref(o);
			return -1;
		}
	}
	char *text = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(o);
	if (!text)
		return -1;
	open_script(h, NULL, "w3dlint-explain");
	put_json(h, text, strlen(text));
	fputs("</script>\n", h->out);
	free(text);
	return 0;
}

static int html_finish(wl_reporter *r, const wl_report_summary *s)
{
	html_reporter *h = (html_reporter *)r;
	if (h->failed || h->json->finish(h->json, s) != 0 || flush_part(h, true) != 0 || explain_part(h) != 0)
		return -1;
	fputs("<script>", h->out);
	fwrite(h->p.viewer, 1, h->p.viewer_size, h->out);
	fputs("</script>\n</body>\n</html>\n", h->out);
	return fflush(h->out) != 0 || ferror(h->out) ? -1 : 0;
}

static void html_destroy(wl_reporter *r)
{
	html_reporter *h = (html_reporter *)r;
	wl_reporter_free(h->json);
	for (int i = 0; i < 2; i++) {
		char *b = NULL;
		size_t n;
		if (h->parts[i].f && wl_os_memstream_close(&h->parts[i], &b, &n) == 0)
			free(b);
	}
	for (size_t i = 0; i < h->nrules; i++)
		free(h->rules[i]);
	free(h->rules);
	free(h);
}

bool wl_report_html_viewer_ok(const unsigned char *viewer, size_t size)
{
	static const char *const bad[] = { "</script", "<!--" };
	if (!viewer || !size)
		return false;
	for (size_t i = 0; i < size; i++) {
		if (viewer[i] != '<')
			continue;
		for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
			size_t n = strlen(bad[k]), j = 0;
			while (j < n && i + j < size &&
			       (viewer[i + j] | (bad[k][j] >= 'a' && bad[k][j] <= 'z' ? 0x20 : 0)) == (unsigned char)bad[k][j])
				j++;
			if (j == n)
				return false;
		}
	}
	return true;
}

wl_reporter *wl_report_html_new(FILE *out, const wl_report_html_parts *p)
{
	if (!wl_report_html_viewer_ok(p->viewer, p->viewer_size)) {
		errno = EINVAL;
		return NULL;
	}
	html_reporter *h = calloc(1, sizeof *h);
	if (!h)
		return NULL;
	h->base.file = html_file;
	h->base.finish = html_finish;
	h->base.destroy = html_destroy;
	h->out = out;
	h->p = *p;
	if (!wl_os_memstream_open(&h->parts[0]) || !(h->json = wl_report_json_new(h->parts[0].f))) {
		html_destroy(&h->base);
		return NULL;
	}
	fputs(HEAD, out);
	return &h->base;
}
