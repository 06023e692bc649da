/* registry.c - the text form's format registry (registry.h). */
#include "registry.h"

#include <string.h>

#include "core/format.h"

extern const wl_tf_format wl_w3d_text, wl_b3d_text, wl_p3d_text;

static const wl_tf_format *const formats[] = { &wl_w3d_text, &wl_b3d_text, &wl_p3d_text };

const wl_tf_format *wl_tf_format_of(const wl_format *f)
{
	for (size_t i = 0; f && i < sizeof formats / sizeof formats[0]; i++)
		if (strcmp(formats[i]->format, f->name) == 0)
			return formats[i];
	return NULL;
}

const wl_tf_struct *wl_tf_find(const wl_tf_format *tf, const char *chunk)
{
	if (!tf || !chunk || !tf->tables)
		return NULL;
	size_t n;
	const wl_tf_struct *t = tf->tables(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(t[i].chunk, chunk) == 0)
			return &t[i];
	return NULL;
}

unsigned wl_tf_context(const wl_doc *d, const wl_chunk *c)
{
	const wl_tf_format *tf = wl_tf_format_of(d->format);
	return tf && tf->context ? tf->context(d, c) : WL_TF_IN_PLAIN;
}

wl_tf_view wl_tf_view_of(const wl_doc *d, const wl_chunk *c)
{
	const wl_tf_format *tf = wl_tf_format_of(d->format);
	const wl_tf_struct *s = c->type ? wl_tf_find(tf, c->type->short_name) : NULL;
	return wl_tf_classify_table(c->type, s, wl_chunk_payload(d, c), (size_t)c->size,
				    wl_tf_context(d, c));
}

bool wl_tf_decode(const wl_doc *d, const wl_chunk *c, const wl_tf_sink *s)
{
	const wl_tf_format *tf = wl_tf_format_of(d->format);
	return tf && tf->decode && c->type && tf->decode(d, c, s);
}
