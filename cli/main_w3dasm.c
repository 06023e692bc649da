/*
 * main_w3dasm.c - w3dasm: assembles the W3D text form (docs/textform.md,
 * written by `w3ddump --text`) into a binary W3D file.
 *
 * Exit status:
 *   0  the file was written
 *   1  the text has errors (printed as file:line:column: message); nothing
 *      is written
 *   2  usage error, or a file that cannot be read or written (OUT is
 *      written through cli/output.h: whole or not at all)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "core/file_io.h"
#include "core/platform.h"
#include "textform/textform.h"
#include "opts.h"
#include "output.h"

#define EXIT_OK 0
#define EXIT_TEXT 1
#define EXIT_TROUBLE 2

#define STR_(x) #x
#define STR(x) STR_(x)

/* The option table: drives getopt_long, --help and --man (cli/opts.h). */
static const wl_opt OPTS[] = {
	{ "output", required_argument, 'o', "FILE",
	  "write the model bytes to FILE (- for standard output; required); a regular file only, replaced "
	  "whole or not at all" },
	WL_OPT_COMMON,
};
#define OPT_COUNT (sizeof OPTS / sizeof OPTS[0])

static const wl_cli_doc DOC = {
	"w3dasm",
	"[OPTION]... TEXT -o OUT.w3d",
	"assemble the text form into a binary W3D, B3D or MLOD P3D file",
	"Assemble a text form (as written by `w3ddump --text`, format in\n"
	"docs/textform.md) into a binary model file: a text starting with\n"
	"`w3d-text: 1` gives a W3D file, one starting with `b3d-text: 1` a Blitz3D\n"
	"B3D file.  TEXT may be - for standard input.  Chunk sizes (and W3D\n"
	"container bits) are computed unless the text pins them (`size:`,\n"
	"`container_bit:`), so broken files can be written on purpose.  A text with\n"
	"`p3d-text: 1` and `mlod:` (written by `w3ddump --text` for an MLOD .p3d\n"
	"file, Object Builder's source form) gives the MLOD file, byte for byte; the\n"
	"P3D chunk form (`chunks:`, for ODOL and damaged files) is for reading only:\n"
	"w3dasm refuses it.",
	OPTS,
	OPT_COUNT,
	"  w3ddump --text tank.w3d > tank.txt    # edit tank.txt, then:\n"
	"  w3dasm tank.txt -o tank.w3d\n"
	"  w3ddump --text mob.b3d > mob.txt && w3dasm mob.txt -o mob.b3d\n"
	"  w3ddump --text crate.p3d > crate.txt && w3dasm crate.txt -o crate.p3d   (MLOD)\n",
	"  0  the file was written\n"
	"  1  the text has errors, printed as file:line:column: message (nothing written)\n"
	"  2  usage error, or a file that cannot be read or written\n",
	"The text form's version (the `w3d-text:` / `b3d-text:` line it reads and writes): " STR(WL_TF_VERSION) ".\n",
};

int main(int argc, char **argv)
{
	wl_os_start(&argc, &argv);
	struct option longs[OPT_COUNT + 1];
	char shorts[2 * OPT_COUNT + 2];
	wl_cli_getopt_tables(&DOC, longs, shorts);
	wl_sw_signals_init();
	const char *output = NULL;
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		default:
			return wl_cli_common_option(&DOC, c, argv);
		}
	}
	if (optind != argc - 1 || !output) {
		fprintf(stderr, "w3dasm: %s\nTry 'w3dasm --help'.\n",
			optind >= argc ? "missing TEXT file"
			: optind < argc - 1 ? "only one TEXT file is allowed"
					    : "missing -o OUT (where to write the W3D or B3D file)");
		return EXIT_TROUBLE;
	}
	const char *path = argv[optind];
	size_t len = 0;
	uint8_t *bytes = NULL;
	if (wl_cli_read_input(&DOC, path, &bytes, &len) != 0)
		return EXIT_TROUBLE;
	char *text = (char *)bytes;
	char err[1024];
	wl_tf_bytes out;
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	if (wl_tf_assemble(name, text, len, &out, err, sizeof err)) {
		free(text);
		fprintf(stderr, "%s\n", wl_esc(err)); /* the name and the text's words, raw */
		return EXIT_TEXT;
	}
	free(text);
	/* cli/output.h: a temporary file renamed over OUT once whole */
	wl_cli_out o;
	int bad = wl_cli_out_open(&DOC, &o, output);
	if (!bad && out.len)
		fwrite(out.data, 1, out.len, o.fp);
	if (!bad)
		bad = wl_cli_out_close(&DOC, &o);
	free(out.data);
	return bad ? EXIT_TROUBLE : EXIT_OK;
}
