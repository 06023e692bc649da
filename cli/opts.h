/*
 * opts.h - the option tables of the four tools (w3dlint, w3dfix,
 * w3ddump, w3dasm): one table per tool drives getopt_long (libc), --help
 * and the man page (--man, used by `make install`), so the three never
 * disagree.  Every help has the same layout: Usage, the description,
 * Options, Examples, Exit status, and every tool prints the same version
 * (WL_VERSION) with --version.
 *
 * Short options mean one thing in every tool: -o FILE output, -c FILE
 * configuration, -q quiet, -f FORMAT report format, -j N jobs, -V version,
 * -h help (w3dlint's letters are the reference; README.md, "Changes").
 */
#ifndef WL_CLI_OPTS_H
#define WL_CLI_OPTS_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lint/version.h"

/* Option values above this are long-only options (no letter). */
#define WL_OPT_LONG_ONLY 256

/* One option: getopt_long's name, has_arg and val (the short letter, or a
 * value >= WL_OPT_LONG_ONLY for a long-only option), the argument's name
 * in the help (NULL: none), and the help text (wrapped; '\n' kept). */
typedef struct wl_opt {
	const char *name;
	int has_arg;
	int val;
	const char *arg;
	const char *help;
} wl_opt;

/* A tool's documentation.  Texts are plain, lines separated by '\n';
 * examples and exit_status are lines "  COMMAND   COMMENT" / "  N  MEANING"
 * as they appear in --help. */
typedef struct wl_cli_doc {
	const char *tool;        /* "w3ddump" */
	const char *usage;       /* after the tool's name: "[OPTION]... FILE" */
	const char *summary;     /* one line: the man page's NAME section */
	const char *description; /* paragraphs after Usage */
	const wl_opt *opts;
	size_t nopts;
	const char *examples;
	const char *exit_status;
	const char *more;        /* optional: a last paragraph (files, environment) */
} wl_cli_doc;

/* The options of the lint run that w3dlint and w3dfix share (cli/lint_pass.h),
 * one text each so that they mean the same in both; val is the tool's own
 * option value. */
#define WL_OPT_JOBS                                                                                             \
	{ "jobs", required_argument, 'j', "N",                                                                 \
	  "lint N files at a time (default: one per online processor); the report is the same for any N" }
#define WL_OPT_MEMORY_CAP(val)                                                                                  \
	{ "memory-cap", required_argument, (val), "SIZE",                                                      \
	  "the files being linted at once (one per job), and the file being repaired, hold at most SIZE bytes " \
	  "of memory together (a count with K, M, G or T, e.g. 512M; default 2G, or the smallest memory-cap "   \
	  "of the configurations in use): a file that needs more gets an out-of-memory finding naming the "     \
	  "cap, never a crash" }
#define WL_OPT_BASE(val)                                                                                        \
	{ "base", required_argument, (val), "FOLDER",                                                          \
	  "a folder of the base game (repeatable; adds to the configuration's base:): its files and the "      \
	  "entries of its archives are indexed for the cross-file checks (objects, hierarchies, textures, "     \
	  "materials the linted files name) but neither linted nor reported" }
#define WL_OPT_XREF(val)                                                                                        \
	{ "xref", no_argument, (val), NULL,                                                                    \
	  "run the cross-file checks even when every PATH is a file: the files named are indexed as one folder" }
#define WL_OPT_NO_XREF(val)                                                                                     \
	{ "no-xref", no_argument, (val), NULL,                                                                 \
	  "no cross-file checks.  By default they run when a PATH is a folder: every file of the run is "      \
	  "indexed, and HLOD sub-objects, hierarchies (and their pivot counts) and textures named in one file " \
	  "must be defined by some file of the run (rules/reference.yaml), and a P3D model's textures and "     \
	  "materials inside an addon of the run must be files of it (rules/p3d/references.yaml); archive "      \
	  "entries take part (docs/archives.md); a finding is reported in the file that names the object, "    \
	  "naming the other file" }
#define WL_OPT_NO_PROGRESS(val)                                                                                 \
	{ "no-progress", no_argument, (val), NULL,                                                             \
	  "never show the progress line (it only appears on a terminal, for more than 20 files)" }

/* The options every tool has, last in its table: -V/--version, -h/--help
 * and --man (prints the man page in roff and exits; its value is
 * WL_OPT_MAN_VAL). */
#define WL_OPT_MAN_VAL 1000
#define WL_OPT_COMMON                                                                     \
	{ "version", no_argument, 'V', NULL, "print the version and exit" },               \
	{ "help", no_argument, 'h', NULL, "print this help and exit" },                    \
	{ "man", no_argument, WL_OPT_MAN_VAL, NULL, "print this help as a man page (roff) and exit" }

/**
 * Fills longs (d->nopts + 1 entries, the last all zero) and shorts
 * (2 * d->nopts + 2 bytes: a leading ':' so that a missing argument is
 * reported as ':', then each letter, followed by ':' when it takes an
 * argument) for getopt_long.
 */
void wl_cli_getopt_tables(const wl_cli_doc *d, struct option *longs, char *shorts);

/** Prints --help: Usage, description, Options, Examples, Exit status. */
void wl_cli_help(FILE *out, const wl_cli_doc *d);

/** Prints the same content as a man page in roff (man(7)), section 1. */
void wl_cli_man(FILE *out, const wl_cli_doc *d);

/**
 * Prints text indented by indent columns, wrapped at width columns; the
 * first line continues at column col.  Keeps the line breaks already in
 * text (--help, --explain).
 */
void wl_cli_wrap(FILE *out, const char *text, int indent, int col, int width);

/**
 * After getopt_long (with the shorts of wl_cli_getopt_tables, opterr = 0)
 * returned ch ':' (missing argument) or '?' (unknown option): prints
 * "TOOL: option '--x' needs an argument" or "TOOL: unknown option '-x'"
 * and "Try 'TOOL --help' for more information." to stderr.
 */
void wl_cli_usage_error(const wl_cli_doc *d, int ch, char **argv);

/**
 * The end of every tool's getopt_long switch: the common options of
 * WL_OPT_COMMON ('V' --version, 'h' --help, WL_OPT_MAN_VAL --man) print to
 * standard output and give 0 (2 with a message when standard output cannot
 * be written); anything else is a usage error (wl_cli_usage_error) and
 * gives 2.  The tool then exits with that status.
 */
int wl_cli_common_option(const wl_cli_doc *d, int ch, char **argv);

/**
 * Reads an input file of the tool (core/file_io.h wl_read_input: regular
 * files of at most 1 GiB, "-" for standard input) into *out (malloc'd) and
 * *len.  Returns 0, or -1 after printing "TOOL: PATH: REASON" to stderr
 * (wl_read_message); the caller then exits with status 2 or counts an error.
 */
int wl_cli_read_input(const wl_cli_doc *d, const char *path, uint8_t **out, size_t *len);

/**
 * Flushes standard output: 0, or -1 after printing "TOOL: standard output:
 * cannot write: REASON" (a full disk, /dev/full, a closed pipe); the tool
 * then exits with status 2.
 */
int wl_cli_flush_stdout(const wl_cli_doc *d);

/** Prints "TOOL VERSION\n". */
void wl_cli_version(FILE *out, const wl_cli_doc *d);

#endif
