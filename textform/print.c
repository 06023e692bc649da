/*
 * print.c - how the text form and the dumps print values (textform.h):
 * element and field sizes, one field value or record in YAML flow form,
 * floats that read back bit-exact, quoted text, hex, and the names of a
 * chunk's recovery marks.  Shared by every format's text form (the struct
 * tables of textform/w3d/fields.c, the decode hooks of textform/b3d/) and
 * by w3ddump.  Names no format.
 */
#include "textform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

size_t wl_tf_type_size(wl_tf_type t)
{
	switch (t) {
	case WL_TF_U16:
	case WL_TF_X16:
		return 2;
	case WL_TF_U32:
	case WL_TF_I32:
	case WL_TF_X32:
	case WL_TF_F32:
		return 4;
	default:
		return 1;
	}
}

size_t wl_tf_field_size(const wl_tf_field *f)
{
	size_t n = f->count ? f->count : 1;
	if (f->type == WL_TF_STRUCT)
		return f->sub ? n * wl_tf_struct_size(f->sub) : 0;
	if (f->type == WL_TF_NAME || f->type == WL_TF_HEX)
		return n;
	return n * wl_tf_type_size((wl_tf_type)f->type);
}

size_t wl_tf_struct_size(const wl_tf_struct *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->field_count; i++)
		n += wl_tf_field_size(&s->fields[i]);
	return n;
}

void wl_tf_put_f32(FILE *out, uint32_t bits)
{
	float f;
	memcpy(&f, &bits, sizeof f);
	if (isfinite(f)) {
		char buf[48];
		snprintf(buf, sizeof buf, "%.9g", (double)f);
		/* A shorter form that reads back bit-exact, when there is one
		 * (%g drops trailing zeros, so 6 digits also covers shorter). */
		for (int prec = 6; prec < 9; prec++) {
			char t[48];
			snprintf(t, sizeof t, "%.*g", prec, (double)f);
			float g = strtof(t, NULL);
			uint32_t gb;
			memcpy(&gb, &g, sizeof gb);
			if (gb == bits) {
				memcpy(buf, t, sizeof buf);
				break;
			}
		}
		float g = strtof(buf, NULL);
		uint32_t gb;
		memcpy(&gb, &g, sizeof gb);
		/* "inf"/"nan" never appear here; "e+" forms are YAML numbers. */
		if (gb == bits) {
			fputs(buf, out);
			return;
		}
	}
	fprintf(out, "!f32bits 0x%08X", (unsigned)bits);
}

void wl_tf_put_hex(FILE *out, const uint8_t *p, size_t n, int indent, const char *comment)
{
	if (n <= 16) {
		fputc('"', out);
		for (size_t i = 0; i < n; i++)
			fprintf(out, i ? " %02x" : "%02x", p[i]);
		fputc('"', out);
		if (comment)
			fprintf(out, "  # %s", comment);
		return;
	}
	fputs("|", out);
	if (comment)
		fprintf(out, "  # %s", comment);
	for (size_t i = 0; i < n; i++) {
		if (i % 16 == 0)
			fprintf(out, "\n%*s%02x", indent, "", p[i]);
		else
			fprintf(out, " %02x", p[i]);
	}
}

/* Is name[0..n) printable ASCII up to a NUL, then NUL bytes only? */
static bool clean_name(const uint8_t *p, size_t n)
{
	size_t i = 0;
	while (i < n && p[i])
		if (p[i] < 0x20 || p[i] > 0x7E)
			return false;
		else
			i++;
	for (; i < n; i++)
		if (p[i])
			return false;
	return true;
}

void wl_tf_put_quoted(FILE *out, const uint8_t *p, size_t n)
{
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		uint8_t c = p[i];
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\r')
			fputs("\\r", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c >= 0x20 && c < 0x7F)
			fputc(c, out);
		else
			fprintf(out, "\\x%02x", c);
	}
	fputc('"', out);
}

/* One element of type t at p. */
static void put_elem(FILE *out, wl_tf_type t, const uint8_t *p)
{
	switch (t) {
	case WL_TF_U8:
		fprintf(out, "%u", (unsigned)p[0]);
		break;
	case WL_TF_U16:
		fprintf(out, "%u", (unsigned)wl_le16(p));
		break;
	case WL_TF_U32:
		fprintf(out, "%lu", (unsigned long)wl_le32(p));
		break;
	case WL_TF_I32:
		fprintf(out, "%ld", (long)(int32_t)wl_le32(p));
		break;
	case WL_TF_X8:
		fprintf(out, "0x%02X", (unsigned)p[0]);
		break;
	case WL_TF_X16:
		fprintf(out, "0x%04X", (unsigned)wl_le16(p));
		break;
	case WL_TF_X32:
		fprintf(out, "0x%08lX", (unsigned long)wl_le32(p));
		break;
	case WL_TF_F32:
		wl_tf_put_f32(out, wl_le32(p));
		break;
	default:
		fprintf(out, "%02x", p[0]);
		break;
	}
}

void wl_tf_put_struct(FILE *out, const wl_tf_struct *s, const uint8_t *p)
{
	size_t at = 0;
	fputc('{', out);
	for (size_t j = 0; j < s->field_count; j++) {
		const wl_tf_field *f = &s->fields[j];
		fprintf(out, "%s%s: ", j ? ", " : "", f->name);
		wl_tf_put_value(out, f, p + at);
		at += wl_tf_field_size(f);
	}
	fputc('}', out);
}

void wl_tf_put_value(FILE *out, const wl_tf_field *f, const uint8_t *p)
{
	size_t n = f->count ? f->count : 1;
	if (f->type == WL_TF_STRUCT) {
		if (f->sub)
			wl_tf_put_struct(out, f->sub, p);
		else
			fputs("{}", out);
		return;
	}
	if (f->type == WL_TF_NAME) {
		if (clean_name(p, n)) {
			wl_tf_put_quoted(out, p, strnlen((const char *)p, n));
			return;
		}
	}
	if (f->type == WL_TF_NAME || f->type == WL_TF_HEX) {
		/* Always inline: the value may sit in a flow mapping. */
		fputs("!hex \"", out);
		for (size_t i = 0; i < n; i++)
			fprintf(out, i ? " %02x" : "%02x", p[i]);
		fputc('"', out);
		return;
	}
	size_t es = wl_tf_type_size((wl_tf_type)f->type);
	if (n == 1) {
		put_elem(out, (wl_tf_type)f->type, p);
		return;
	}
	fputc('[', out);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", out);
		put_elem(out, (wl_tf_type)f->type, p + i * es);
	}
	fputc(']', out);
}

size_t wl_tf_put_item(FILE *out, const wl_tf_struct *e, const uint8_t *p, size_t width)
{
	size_t at = 0;
	fputc('{', out);
	for (size_t j = 0; j < e->field_count; j++) {
		const wl_tf_field *f = &e->fields[j];
		fprintf(out, "%s%s: ", j ? ", " : "", f->name);
		if (f->count) {
			wl_tf_put_value(out, f, p + at);
			at += wl_tf_field_size(f);
			continue;
		}
		wl_tf_field one = *f;
		one.count = 1;
		size_t es = wl_tf_field_size(&one);
		fputc('[', out);
		for (size_t i = 0; i < width; i++) {
			if (i)
				fputs(", ", out);
			wl_tf_put_value(out, &one, p + at);
			at += es;
		}
		fputc(']', out);
	}
	fputc('}', out);
	return at;
}

void wl_tf_marks(char *buf, size_t cap, uint16_t rec)
{
	static const struct {
		uint16_t bit;
		const char *name;
	} marks[] = {
		{ WL_REC_TRUNCATED, "truncated" },
		{ WL_REC_PAST_EOF, "size-past-eof" },
		{ WL_REC_CLAMPED, "clamped" },
		{ WL_REC_EXTENDED, "extended" },
		{ WL_REC_RESYNCED, "resynced" },
		{ WL_REC_FLAG_ON_LEAF, "bit31-on-leaf" },
		{ WL_REC_FLAG_MISSING, "bit31-missing" },
		{ WL_REC_DEPTH, "depth-limit" },
		{ WL_REC_STRAY, "stray" },
		{ WL_REC_TRAILING, "trailing" },
		{ WL_REC_SKIPPED, "resync-skipped" },
	};
	size_t at = 0;
	if (cap)
		buf[0] = 0;
	for (size_t i = 0; i < N(marks) && at < cap; i++)
		if (rec & marks[i].bit) {
			int w = snprintf(buf + at, cap - at, "%s%s", at ? " " : "", marks[i].name);
			if (w < 0)
				break;
			at += (size_t)w;
		}
}
