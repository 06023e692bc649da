/* registry.c - the format registry (format.h: wl_formats).  The one place
 * in core/ that names the formats: add a line to `formats` per format.
 * Lookup, detection and dialects over it are in core/formats.c. */
#include "format.h"

#include "b3d/b3d_format.h"
#include "p3d/p3d.h"
#include "w3d/w3d_format.h"

static const wl_format *const formats[] = {
	&w3d_format, /* first: the default for files no format recognises */
	&b3d_format,
	&p3d_format,
};

const wl_format *const *wl_formats(size_t *count)
{
	*count = sizeof formats / sizeof formats[0];
	return formats;
}
