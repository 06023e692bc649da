/*
 * main_w3dasm.c - w3dasm: assembles the W3D text form (docs/textform.md,
 * written by `w3ddump --text`) into a binary W3D file.
 *
 * Exit status:
 *   0  the file was written
 *   1  the text has errors (printed as file:line:column: message); nothing
 *      is written
 *   2  usage error, or a file that cannot be read or written
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../textform/textform.h"

#define EXIT_OK 0
#define EXIT_TEXT 1
#define EXIT_TROUBLE 2

/* Text files larger than this are refused. */
#define MAX_TEXT_BYTES ((size_t)1 << 31)

static void print_help(FILE *out)
{
	fputs("Usage: w3dasm [OPTION]... TEXT -o OUT.w3d\n"
	      "Assemble a W3D text form (as written by `w3ddump --text`, format in\n"
	      "docs/textform.md) into a binary W3D file.  TEXT may be - for standard input.\n"
	      "A text starting with `b3d-text: 1` is a Blitz3D B3D file (OUT.b3d).\n"
	      "Chunk sizes and container bits are computed unless the text pins them\n"
	      "(`size:`, `container_bit:`), so broken files can be written on purpose.\n"
	      "\n"
	      "Options:\n"
	      "  -o, --output FILE  write the W3D bytes to FILE (- for standard output;\n"
	      "                     required)\n"
	      "  -V, --version      print the version and exit\n"
	      "  -h, --help         print this help and exit\n"
	      "\n"
	      "Exit status:\n"
	      "  0  the file was written\n"
	      "  1  the text has errors, printed as file:line:column: message (nothing written)\n"
	      "  2  usage error, or a file that cannot be read or written\n"
	      "\n"
	      "Examples:\n"
	      "  w3ddump --text tank.w3d > tank.txt    # edit tank.txt, then:\n"
	      "  w3dasm tank.txt -o tank.w3d\n",
	      out);
}

/* Reads all of f into a malloc'd buffer; returns NULL on error (errno). */
static char *slurp(FILE *f, size_t *out_len)
{
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap);
	if (!buf)
		return NULL;
	for (;;) {
		if (len == cap) {
			if (cap >= MAX_TEXT_BYTES) {
				free(buf);
				errno = EFBIG;
				return NULL;
			}
			char *p = realloc(buf, cap * 2);
			if (!p) {
				free(buf);
				return NULL;
			}
			buf = p;
			cap *= 2;
		}
		size_t n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0) {
			if (ferror(f)) {
				free(buf);
				errno = EIO;
				return NULL;
			}
			break;
		}
	}
	*out_len = len;
	return buf;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	int c;
	while ((c = getopt_long(argc, argv, "o:Vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'V':
			printf("w3dasm (w3dlint) text form %d\n", WL_TF_VERSION);
			return EXIT_OK;
		case 'h':
			print_help(stdout);
			return EXIT_OK;
		default:
			fputs("Try 'w3dasm --help'.\n", stderr);
			return EXIT_TROUBLE;
		}
	}
	if (optind != argc - 1 || !output) {
		fprintf(stderr, "w3dasm: %s\nTry 'w3dasm --help'.\n",
			optind >= argc ? "missing TEXT file"
			: optind < argc - 1 ? "only one TEXT file is allowed"
					    : "missing -o OUT (where to write the W3D file)");
		return EXIT_TROUBLE;
	}
	const char *path = argv[optind];
	FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!in) {
		fprintf(stderr, "w3dasm: %s: %s\n", path, strerror(errno));
		return EXIT_TROUBLE;
	}
	size_t len = 0;
	char *text = slurp(in, &len);
	int read_errno = errno;
	if (in != stdin)
		fclose(in);
	if (!text) {
		fprintf(stderr, "w3dasm: %s: %s\n", path, strerror(read_errno));
		return EXIT_TROUBLE;
	}
	char err[1024];
	wl_tf_bytes out;
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	if (wl_tf_assemble(name, text, len, &out, err, sizeof err)) {
		free(text);
		fprintf(stderr, "%s\n", err);
		return EXIT_TEXT;
	}
	free(text);
	FILE *o = strcmp(output, "-") == 0 ? stdout : fopen(output, "wb");
	if (!o) {
		fprintf(stderr, "w3dasm: %s: %s\n", output, strerror(errno));
		free(out.data);
		return EXIT_TROUBLE;
	}
	size_t w = out.len ? fwrite(out.data, 1, out.len, o) : 0;
	int bad = w != out.len || fflush(o) != 0 || ferror(o);
	if (o != stdout && fclose(o) != 0)
		bad = 1;
	free(out.data);
	if (bad) {
		fprintf(stderr, "w3dasm: %s: write failed: %s\n", output, strerror(errno));
		return EXIT_TROUBLE;
	}
	return EXIT_OK;
}
