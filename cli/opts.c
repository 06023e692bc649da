/* opts.c - option tables, --help and man pages; see opts.h. */
#include "opts.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "core/file_io.h"

/* Help text columns: options from column 2, their help from column 28,
 * wrapped at 79. */
#define HELP_INDENT 28
#define HELP_WIDTH 79

/* Where `make install` puts the documentation the help points to. */
#ifndef WL_DOCDIR
#define WL_DOCDIR "/usr/local/share/doc/w3dlint"
#endif

void wl_cli_getopt_tables(const wl_cli_doc *d, struct option *longs, char *shorts)
{
	size_t ns = 0;
	shorts[ns++] = ':';
	for (size_t i = 0; i < d->nopts; i++) {
		const wl_opt *o = &d->opts[i];
		longs[i].name = o->name;
		longs[i].has_arg = o->has_arg;
		longs[i].flag = NULL;
		longs[i].val = o->val;
		if (o->val < WL_OPT_LONG_ONLY) {
			shorts[ns++] = (char)o->val;
			if (o->has_arg == required_argument)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = 0;
	memset(&longs[d->nopts], 0, sizeof longs[d->nopts]);
}

void wl_cli_wrap(FILE *out, const char *text, int indent, int col, int width)
{
	const char *p = text;
	while (*p) {
		if (*p == '\n') {
			fputc('\n', out);
			p++;
			col = 0;
			continue;
		}
		if (*p == ' ') {
			p++;
			continue;
		}
		size_t w = strcspn(p, " \n");
		if (col > indent && col + 1 + (int)w > width) {
			fputc('\n', out);
			col = 0;
		}
		if (col < indent) {
			fprintf(out, "%*s", indent - col, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, w, out);
		col += (int)w;
		p += w;
	}
	if (col > 0)
		fputc('\n', out);
}

/* "-c, --config FILE" or "    --fail-on SEVERITY" into buf. */
static void opt_head(char *buf, size_t cap, const wl_opt *o)
{
	const char *sp = o->arg ? " " : "", *arg = o->arg ? o->arg : "";
	if (o->val < WL_OPT_LONG_ONLY)
		snprintf(buf, cap, "-%c, --%s%s%s", o->val, o->name, sp, arg);
	else
		snprintf(buf, cap, "    --%s%s%s", o->name, sp, arg);
}

void wl_cli_help(FILE *out, const wl_cli_doc *d)
{
	fprintf(out, "Usage: %s %s\n%s\n\nOptions:\n", d->tool, d->usage, d->description);
	for (size_t i = 0; i < d->nopts; i++) {
		char head[96];
		opt_head(head, sizeof head, &d->opts[i]);
		fprintf(out, "  %s", head);
		int col = 2 + (int)strlen(head);
		if (col >= HELP_INDENT) {
			fputc('\n', out);
			col = 0;
		}
		wl_cli_wrap(out, d->opts[i].help, HELP_INDENT, col, HELP_WIDTH);
	}
	fprintf(out, "\nExamples:\n%s\nExit status:\n%s", d->examples, d->exit_status);
	if (d->more)
		fprintf(out, "\n%s", d->more);
}

void wl_cli_usage_error(const wl_cli_doc *d, int ch, char **argv)
{
	if (ch == ':')
		fprintf(stderr, "%s: option '%s' needs an argument\n", d->tool, argv[optind - 1]);
	else if (optopt && optopt < WL_OPT_LONG_ONLY)
		fprintf(stderr, "%s: unknown option '-%c'\n", d->tool, optopt);
	else
		fprintf(stderr, "%s: unknown option '%s'\n", d->tool, argv[optind - 1]);
	fprintf(stderr, "Try '%s --help' for more information.\n", d->tool);
}

int wl_cli_read_input(const wl_cli_doc *d, const char *path, uint8_t **out, size_t *len)
{
	uint64_t seen;
	int rc = wl_read_input(path, out, len, &seen);
	if (rc == WL_READ_OK)
		return 0;
	char msg[1200];
	wl_read_message(msg, sizeof msg, d->tool, path, rc, errno, seen);
	fprintf(stderr, "%s\n", msg);
	return -1;
}

void wl_cli_version(FILE *out, const wl_cli_doc *d)
{
	fprintf(out, "%s %s\n", d->tool, WL_VERSION);
}

/* Writes text as roff: backslashes and minus signs escaped, a line that
 * would start with '.' or '\'' protected by \&.  Each '\n' ends a line. */
static void roff_text(FILE *out, const char *s)
{
	int at_start = 1;
	for (; *s; s++) {
		if (at_start && (*s == '.' || *s == '\''))
			fputs("\\&", out);
		at_start = *s == '\n';
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
	if (!at_start)
		fputc('\n', out);
}

/* A block of preformatted lines (examples, exit statuses). */
static void roff_lines(FILE *out, const char *s)
{
	fputs(".nf\n", out);
	roff_text(out, s);
	fputs(".fi\n", out);
}

void wl_cli_man(FILE *out, const wl_cli_doc *d)
{
	char upper[32];
	size_t n = strlen(d->tool) < sizeof upper - 1 ? strlen(d->tool) : sizeof upper - 1;
	for (size_t i = 0; i < n; i++)
		upper[i] = (char)toupper((unsigned char)d->tool[i]);
	upper[n] = 0;
	fprintf(out, ".TH %s 1 \"\" \"w3dlint %s\" \"User Commands\"\n.SH NAME\n", upper, WL_VERSION);
	roff_text(out, d->tool);
	fputs("\\- ", out);
	roff_text(out, d->summary);
	fprintf(out, ".SH SYNOPSIS\n.B %s\n", d->tool);
	roff_text(out, d->usage);
	fputs(".SH DESCRIPTION\n", out);
	/* Paragraphs: a blank line in the description starts a new one. */
	for (const char *p = d->description; *p;) {
		const char *end = strstr(p, "\n\n");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char para[2048];
		snprintf(para, sizeof para, "%.*s", (int)len, p);
		fputs(".PP\n", out);
		roff_text(out, para);
		p += len;
		while (*p == '\n')
			p++;
	}
	fputs(".SH OPTIONS\n", out);
	for (size_t i = 0; i < d->nopts; i++) {
		const wl_opt *o = &d->opts[i];
		fputs(".TP\n", out);
		if (o->val < WL_OPT_LONG_ONLY)
			fprintf(out, "\\fB\\-%c\\fR, ", o->val);
		fputs("\\fB\\-\\-", out);
		for (const char *c = o->name; *c; c++)
			fputs(*c == '-' ? "\\-" : (char[]){ *c, 0 }, out);
		fputs("\\fR", out);
		if (o->arg)
			fprintf(out, " \\fI%s\\fR", o->arg);
		fputc('\n', out);
		roff_text(out, o->help);
	}
	fputs(".SH EXAMPLES\n", out);
	roff_lines(out, d->examples);
	fputs(".SH \"EXIT STATUS\"\n", out);
	roff_lines(out, d->exit_status);
	if (d->more) {
		fputs(".SH NOTES\n", out);
		roff_text(out, d->more);
	}
	fputs(".SH \"SEE ALSO\"\n\\fBw3dlint\\fR(1), \\fBw3dfix\\fR(1), \\fBw3ddump\\fR(1), \\fBw3dasm\\fR(1); "
	      "README.md and docs/ in " WL_DOCDIR ".\n",
	      out);
}

int wl_cli_common_option(const wl_cli_doc *d, int ch, char **argv)
{
	switch (ch) {
	case 'V':
		wl_cli_version(stdout, d);
		break;
	case 'h':
		wl_cli_help(stdout, d);
		break;
	case WL_OPT_MAN_VAL:
		wl_cli_man(stdout, d);
		break;
	default:
		wl_cli_usage_error(d, ch, argv);
		return 2;
	}
	return wl_cli_flush_stdout(d) == 0 ? 0 : 2; /* e.g. --help > /dev/full */
}

int wl_cli_flush_stdout(const wl_cli_doc *d)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	fprintf(stderr, "%s: standard output: cannot write: %s\n", d->tool, strerror(errno ? errno : EIO));
	return -1;
}
