/* web_main.c - the one program of the page's WebAssembly module
 * (build-wasm/web/w3dlint-web.js, docs/web.md; issue 28): w3dlint, w3dfix
 * and w3ddump in one module, as a multi-call binary.  The page's worker
 * (web/worker.js) calls callMain([TOOL, ARGS...]) with TOOL "w3dlint",
 * "w3dfix" or "w3ddump"; the tool's own main runs with argv[0] = TOOL, so
 * lint, fix, explain and the geometry for display are the command lines of
 * the tools, on the module's in-memory file system.  The Makefile compiles
 * each cli/main_TOOL.c a second time with -Dmain=wl_web_main_TOOL for this
 * module only; the node programs and the native tools are unchanged.
 *
 * Exit status: the tool's, or 2 for a missing or unknown TOOL. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int wl_web_main_w3dlint(int argc, char **argv);
int wl_web_main_w3dfix(int argc, char **argv);
int wl_web_main_w3ddump(int argc, char **argv);
int main(int argc, char **argv);

static const struct {
	const char *name;
	int (*main)(int argc, char **argv);
} TOOLS[] = {
	{ "w3dlint", wl_web_main_w3dlint },
	{ "w3dfix", wl_web_main_w3dfix },
	{ "w3ddump", wl_web_main_w3ddump },
};

int main(int argc, char **argv)
{
	/* Emscripten starts a program with umask 0777 (its stub's initial
	 * value), so every file a tool wrote would have mode 0, unreadable by
	 * the worker's FS.readFile: 022, what a shell gives a program. */
	umask(022);
	for (size_t i = 0; argc > 1 && i < sizeof TOOLS / sizeof TOOLS[0]; i++)
		if (strcmp(argv[1], TOOLS[i].name) == 0)
			return TOOLS[i].main(argc - 1, argv + 1);
	fprintf(stderr, "usage: %s w3dlint|w3dfix|w3ddump [ARG]...\n", argc > 0 ? argv[0] : "w3dlint-web");
	return 2;
}
