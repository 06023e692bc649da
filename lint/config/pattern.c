/*
 * pattern.c - PCRE2 (8-bit) behind the small interface of pattern.h.  The
 * only file of w3dlint that includes <pcre2.h>.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "pattern.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wl_pattern {
	pcre2_code *code;
	pcre2_match_context *mctx; /* the limits; read-only while matching */
	char *source;              /* NUL-terminated copy of the pattern */
};

static void copy_message(char *msg, size_t msgcap, const char *text)
{
	if (msg && msgcap)
		snprintf(msg, msgcap, "%s", text);
}

int wl_pattern_compile(const char *src, size_t len, wl_pattern **out, size_t *err_offset,
		       char *msg, size_t msgcap)
{
	*out = NULL;
	*err_offset = 0;
	if (msg && msgcap)
		msg[0] = 0;
	wl_pattern *p = calloc(1, sizeof *p);
	if (p)
		p->source = malloc(len + 1);
	if (!p || !p->source) {
		free(p);
		copy_message(msg, msgcap, "out of memory");
		return -1;
	}
	memcpy(p->source, src, len);
	p->source[len] = 0;
	int code = 0;
	PCRE2_SIZE where = 0;
	p->code = pcre2_compile((PCRE2_SPTR)p->source, len, PCRE2_NEVER_UTF, &code, &where, NULL);
	if (!p->code) {
		PCRE2_UCHAR buf[256];
		if (pcre2_get_error_message(code, buf, sizeof buf) < 0)
			snprintf((char *)buf, sizeof buf, "PCRE2 error %d", code);
		copy_message(msg, msgcap, (const char *)buf);
		*err_offset = where;
		wl_pattern_free(p);
		return -1;
	}
	p->mctx = pcre2_match_context_create(NULL);
	if (!p->mctx) {
		copy_message(msg, msgcap, "out of memory");
		wl_pattern_free(p);
		return -1;
	}
	pcre2_set_match_limit(p->mctx, WL_PATTERN_MATCH_LIMIT);
	pcre2_set_depth_limit(p->mctx, WL_PATTERN_DEPTH_LIMIT);
	*out = p;
	return 0;
}

int wl_pattern_match(const wl_pattern *p, const uint8_t *subject, size_t len)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(p->code, NULL);
	if (!md)
		return PCRE2_ERROR_NOMEMORY;
	/* An empty subject may come with a NULL pointer; PCRE2 wants a valid
	 * one. */
	static const uint8_t empty[1];
	int rc = pcre2_match(p->code, len ? subject : empty, len, 0, 0, md, p->mctx);
	pcre2_match_data_free(md);
	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	return rc;
}

void wl_pattern_error(int code, char *buf, size_t cap)
{
	if (!buf || !cap)
		return;
	PCRE2_UCHAR tmp[256];
	if (pcre2_get_error_message(code, tmp, sizeof tmp) < 0)
		snprintf(buf, cap, "PCRE2 error %d", code);
	else
		snprintf(buf, cap, "%s", (const char *)tmp);
}

const char *wl_pattern_source(const wl_pattern *p)
{
	return p->source;
}

void wl_pattern_free(wl_pattern *p)
{
	if (!p)
		return;
	pcre2_match_context_free(p->mctx);
	pcre2_code_free(p->code);
	free(p->source);
	free(p);
}
