/*
 * main_w3ddump.c - the w3ddump front end: parses the options, reads the
 * file (or an archive's entry, cli/archive_walk.h) and hands the document
 * to the text form's dumps (textform/dump.h): the chunk tree of a W3D, B3D
 * or P3D file like readelf (human text, --chunks for the tree only, --json
 * for machines), an archive's table, or the editable text form (--text,
 * textform/textform.h wl_tf_write, docs/textform.md) that w3dasm assembles
 * back into the same bytes.  Owns the output (-o, cli/output.h).
 *
 * Exit status:
 *   0  dumped (also for damaged files: damage is shown, not an error)
 *   2  usage error, or a file that cannot be read or written
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/escape.h"
#include "core/file_io.h"
#include "core/filekind.h"
#include "core/format.h"
#include "core/chunk.h"
#include "core/platform.h"
#include "textform/dump.h"
#include "textform/textform.h"
#include "archive_walk.h"
#include "companions.h"
#include "opts.h"
#include "output.h"

#define EXIT_OK 0
#define EXIT_TROUBLE 2

typedef enum mode { MODE_HUMAN, MODE_CHUNKS, MODE_JSON, MODE_TEXT, MODE_DIFF, MODE_GEOMETRY } mode;

typedef struct opts {
	mode mode;
	bool all;
	const char *output;
} opts;

enum { OPT_CHUNKS = WL_OPT_LONG_ONLY, OPT_JSON, OPT_DIFF, OPT_GEOMETRY };

/* The option table: drives getopt_long, --help and --man (cli/opts.h).
 * --chunks and --json have no short letter: -c is --config and -j --jobs
 * in w3dlint. */
static const wl_opt OPTS[] = {
	{ "chunks", no_argument, OPT_CHUNKS, NULL, "the chunk tree only (no fields)" },
	{ "json", no_argument, OPT_JSON, NULL,
	  "one JSON document for machines (fields, tree, reader findings; keys described in docs/textform.md)" },
	{ "text", no_argument, 't', NULL,
	  "the editable text form (docs/textform.md; W3D and B3D files); `w3dasm` turns it back "
	  "into the same bytes" },
	{ "diff-text", no_argument, OPT_DIFF, NULL,
	  "stable line-oriented text for `git diff` (a textconv driver, docs/textform.md): no byte offsets, "
	  "every element" },
	{ "geometry", no_argument, OPT_GEOMETRY, NULL,
	  "the meshes for display, one JSON line: positions, normals, UVs, triangles, bones, and the chunk paths "
	  "findings name them by (W3D, B3D, P3D LODs; docs/web.md)" },
	{ "all", no_argument, 'a', NULL, "human dump: every array element, not only the first 8" },
	{ "output", required_argument, 'o', "FILE",
	  "write to FILE instead of standard output; a regular file only, replaced whole once the dump is "
	  "complete" },
	WL_OPT_COMMON,
};
#define OPT_COUNT (sizeof OPTS / sizeof OPTS[0])

static const wl_cli_doc DOC = {
	"w3ddump",
	"[OPTION]... FILE",
	"show the chunk tree and fields of a W3D, B3D or P3D file",
	"Show the chunk tree of a W3D, B3D or P3D (Arma ODOL/MLOD) file: offsets,\n"
	"sizes, spec chunk\n"
	"names, recovery marks for damaged parts, and decoded fields (names,\n"
	"counts, vectors; for B3D the keys of its text form: BB3D version, TEXS\n"
	"and BRUS entries, NODE transform, MESH brush, VRTS vertices, TRIS\n"
	"triangles, BONE weights, KEYS keys, ANIM frames and fps).  Damaged\n"
	"files are dumped as far as they can be read.  FILE may be ARCHIVE:PATH, a\n"
	"model entry of a BIG or PBO archive; an archive itself is listed (entries,\n"
	"archive findings; docs/archives.md).\n"
	"\n"
	"Human dump lines: OFFSET (hex, absolute) NAME (spec short name, or the id\n"
	"when unknown) id=ID size=PAYLOAD_BYTES, then marks: bit31 (bit 31 of the\n"
	"size field set), declared=N (the size field, when it differs), and the\n"
	"reader's recovery marks (truncated, clamped, extended, stray ...).",
	OPTS,
	OPT_COUNT,
	"  w3ddump tank.w3d\n"
	"  w3ddump --chunks tank.w3d\n"
	"  w3ddump --text tank.w3d > tank.txt && w3dasm tank.txt -o copy.w3d\n",
	"  0  dumped (also for damaged or garbage files)\n"
	"  2  usage error, or a file that cannot be read or written\n",
	NULL,
};

int main(int argc, char **argv)
{
	wl_os_start(&argc, &argv);
	struct option longs[OPT_COUNT + 1];
	char shorts[2 * OPT_COUNT + 2];
	wl_cli_getopt_tables(&DOC, longs, shorts);
	wl_sw_signals_init();
	opts o = { MODE_HUMAN, false, NULL };
	int modes = 0, c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		switch (c) {
		case OPT_CHUNKS:
			o.mode = MODE_CHUNKS;
			modes++;
			break;
		case OPT_JSON:
			o.mode = MODE_JSON;
			modes++;
			break;
		case OPT_DIFF:
			o.mode = MODE_DIFF;
			modes++;
			break;
		case OPT_GEOMETRY:
			o.mode = MODE_GEOMETRY;
			modes++;
			break;
		case 't':
			o.mode = MODE_TEXT;
			modes++;
			break;
		case 'a':
			o.all = true;
			break;
		case 'o':
			o.output = optarg;
			break;
		default:
			return wl_cli_common_option(&DOC, c, argv);
		}
	}
	if (modes > 1 || optind != argc - 1) {
		fprintf(stderr, "w3ddump: %s\nTry 'w3ddump --help'.\n",
			modes > 1 ? "--chunks, --json, --text, --diff-text and --geometry exclude each other"
			: optind >= argc ? "missing FILE"
					 : "only one FILE is allowed");
		return EXIT_TROUBLE;
	}
	const char *path = argv[optind];
	uint8_t *bytes = NULL;
	size_t size = 0;
	/* ARCHIVE:PATH names an archive's entry (cli/archive_walk.h). */
	struct stat st;
	wl_member *member = wl_os_stat(path, &st) != 0 ? wl_member_find(path) : NULL;
	if (member) {
		char err[1400];
		int rc = wl_member_read("w3ddump", path, member, &bytes, &size, err, sizeof err);
		wl_member_free(member);
		if (rc != 0) {
			fprintf(stderr, "%s\n", err);
			return EXIT_TROUBLE;
		}
	} else if (wl_cli_read_input(&DOC, path, &bytes, &size) != 0) {
		return EXIT_TROUBLE;
	}
	/* An archive, image or text file (core/filekind.h) not named as a
	 * model: one line; an archive: its table (one named as a model is
	 * dumped as the bytes it is). */
	const wl_file_kind *kind =
		member || wl_format_by_extension(path) ? NULL : wl_file_kind_of(bytes, size, path);
	if (kind) {
		int dumped = 0;
		if (kind->archive)
			dumped = wl_tf_dump_archive(stdout, path, kind, bytes, size, o.mode == MODE_JSON);
		else
			printf("%s: %s, not a model file\n", wl_esc(path), kind->title);
		free(bytes);
		return fflush(stdout) == 0 && dumped == 0 ? EXIT_OK : EXIT_TROUBLE;
	}
	wl_doc *d = wl_format_read(wl_format_detect(bytes, size, path), path, bytes, size);
	if (!d || d->oom) {
		fprintf(stderr, "w3ddump: %s: out of memory\n", wl_esc(path));
		wl_doc_free(d);
		free(bytes);
		return EXIT_TROUBLE;
	}
	wl_findings_sort(&d->findings);
	wl_cli_out dest; /* cli/output.h: FILE whole or not at all */
	if (wl_cli_out_open(&DOC, &dest, o.output) != 0) {
		wl_doc_free(d);
		free(bytes);
		return EXIT_TROUBLE;
	}
	FILE *out = dest.fp;
	int rc = 0;
	switch (o.mode) {
	case MODE_TEXT:
		rc = wl_tf_write(out, d, path);
		break;
	case MODE_DIFF:
		rc = wl_tf_dump_diff(out, d);
		break;
	case MODE_GEOMETRY: {
		/* a hierarchy the file lacks, from NAME.w3d beside it */
		wl_cli_companions cc;
		wl_cli_companions_init(&cc);
		rc = wl_tf_dump_geometry(out, d, &cc.c);
		wl_cli_companions_free(&cc);
		break;
	}
	case MODE_JSON:
		rc = wl_tf_dump_json(out, d, path);
		break;
	default:
		wl_tf_dump_human(out, d, path, o.mode == MODE_HUMAN, o.all);
		break;
	}
	if (rc == 0)
		rc = wl_cli_out_close(&DOC, &dest);
	else
		fprintf(stderr, "w3ddump: %s: cannot write: %s\n", wl_esc(dest.name), strerror(errno ? errno : EIO));
	wl_cli_out_abort(&dest);
	wl_doc_free(d);
	free(bytes);
	return rc ? EXIT_TROUBLE : EXIT_OK;
}
