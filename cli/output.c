/* output.c - the -o output of w3dlint, w3ddump and w3dasm; see output.h. */
#include "output.h"

#include <errno.h>
#include <string.h>

static void say(const wl_cli_doc *d, const wl_cli_out *o, int rc)
{
	char msg[WL_SW_PATH_MAX + 256];
	wl_sw_message(msg, sizeof msg, d->tool, o->name, &o->sw, rc, errno, NULL, NULL);
	fprintf(stderr, "%s\n", msg);
}

int wl_cli_out_open(const wl_cli_doc *d, wl_cli_out *o, const char *path)
{
	memset(o, 0, sizeof *o);
	o->sw.lock_fd = o->sw.fd = o->sw.slot = -1;
	if (!path || strcmp(path, "-") == 0) {
		o->fp = stdout;
		o->name = "standard output";
		return 0;
	}
	o->name = path;
	o->to_file = true;
	int rc = wl_sw_lock(&o->sw, path, 0);
	if (rc == WL_SW_OK)
		rc = wl_sw_open(&o->sw, 0666);
	if (rc == WL_SW_OK && !(o->fp = wl_sw_stream(&o->sw)))
		rc = WL_SW_ERR;
	if (rc == WL_SW_OK)
		return 0;
	say(d, o, rc);
	wl_sw_abort(&o->sw);
	return -1;
}

int wl_cli_out_close(const wl_cli_doc *d, wl_cli_out *o)
{
	int rc = WL_SW_OK;
	errno = 0;
	if (!o->to_file) {
		if (o->fp && (fflush(o->fp) != 0 || ferror(o->fp))) {
			if (!errno)
				errno = EIO;
			rc = WL_SW_ERR;
		}
	} else if (o->fp) {
		rc = wl_sw_commit(&o->sw);
	}
	o->fp = NULL;
	if (rc != WL_SW_OK)
		say(d, o, rc);
	return rc == WL_SW_OK ? 0 : -1;
}

void wl_cli_out_abort(wl_cli_out *o)
{
	if (o->to_file)
		wl_sw_abort(&o->sw);
	o->fp = NULL;
}
