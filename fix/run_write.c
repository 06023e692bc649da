/*
 * run_write.c - how a w3dfix run puts a repaired file on disk (run_int.h):
 * -o OUT with the folders it needs, or over the file itself under its
 * lock, with --backup; all through core/safe_write.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/escape.h"
#include "core/path.h"
#include "core/platform.h"
#include "run_int.h"

/* true when the folder dir exists now: made, or there already (a drive
 * such as "C:" or a share's root answers the mkdir with another error
 * than EEXIST, so a folder already there is asked for directly). */
static bool made(const char *dir)
{
	struct stat st;
	if (wl_os_mkdir(dir) == 0 || errno == EEXIST)
		return true;
	int e = errno;
	if (wl_os_stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		return true;
	errno = e;
	return false;
}

/* Makes dir and the folders above it (mode 0777 less the umask); 0, or -1
 * with errno set. */
static int mkdirs(const char *dir)
{
	char buf[4096];
	if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
		return -1;
	for (char *p = buf + 1; *p; p++) {
		if (!wl_os_is_sep(*p))
			continue;
		char sep = *p;
		*p = 0;
		if (!made(buf))
			return -1;
		*p = sep;
	}
	return made(buf) ? 0 : -1;
}

unsigned wl_fixrun_sw_flags(const wl_fixrun *r)
{
	return (r->o.break_links ? WL_SW_BREAK_LINKS : 0) | (r->o.readonly_ok ? WL_SW_READONLY_OK : 0);
}

void wl_fixrun_write_failed(const wl_fixrun *r, const char *path, const wl_sw *w, int rc)
{
	char msg[WL_SW_PATH_MAX + 256];
	wl_sw_message(msg, sizeof msg, r->o.tool, path, w, rc, errno, "--break-links", "--force");
	fprintf(r->o.diag, "%s\n", msg);
}

int wl_fixrun_write(const wl_fixrun *r, const char *file, const char *target, wl_sw *lk,
		    const wl_fix_result *res, const uint8_t *in, size_t n, char *note, size_t cap)
{
	bool repaired = res->verified && res->changed;
	const uint8_t *bytes = repaired ? res->out : in;
	size_t len = repaired ? res->out_len : n;
	struct stat st;
	mode_t mode = strcmp(file, "-") != 0 && wl_os_stat(file, &st) == 0 ? (st.st_mode & 07777) : 0666;
	if (r->o.output && strcmp(target, "-") == 0) {
		/* -o -: the bytes (repaired, or the input when not) on standard
		 * output, as w3dlint's and w3dasm's -o - */
		if (fwrite(bytes, 1, len, stdout) != len || fflush(stdout) != 0) {
			fprintf(r->o.diag, "%s: standard output: cannot write: %s\n", r->o.tool,
				strerror(errno ? errno : EIO));
			return -1;
		}
		return 0;
	}
	if (r->o.output) {
		char dir[WL_SW_PATH_MAX];
		snprintf(dir, sizeof dir, "%s", target);
		wl_path_to_folder(dir);
		if (mkdirs(dir) != 0) {
			fprintf(r->o.diag, "%s: %s: cannot make the folder: %s\n", r->o.tool, wl_esc(target),
				strerror(errno));
			return -1;
		}
		wl_sw w;
		int rc = wl_sw_write_file(&w, target, wl_fixrun_sw_flags(r), mode, bytes, len);
		if (rc != WL_SW_OK)
			wl_fixrun_write_failed(r, target, &w, rc);
		return rc == WL_SW_OK ? 0 : -1;
	}
	if (!repaired) {
		wl_sw_abort(lk);
		return 0;
	}
	char bak[WL_SW_PATH_MAX + 16];
	int rc = wl_sw_open(lk, mode);
	const char *failed = file; /* the path named when something fails */
	if (rc == WL_SW_OK && r->o.backup) {
		rc = wl_sw_backup(lk, in, n, bak, sizeof bak);
		failed = bak; /* the name it tried last */
	}
	if (rc == WL_SW_OK) {
		failed = lk->path;
		rc = wl_sw_write(lk, bytes, len);
	}
	if (rc == WL_SW_OK)
		rc = wl_sw_commit(lk);
	if (rc != WL_SW_OK) {
		wl_fixrun_write_failed(r, failed, lk, rc);
		wl_sw_abort(lk);
		return -1;
	}
	if (lk->through_link)
		snprintf(note, cap, " to %s (through the symbolic link)", wl_esc(lk->path));
	if (r->o.backup)
		snprintf(note + strlen(note), cap - strlen(note), ", the original kept as %s", wl_esc(bak));
	return 0;
}
