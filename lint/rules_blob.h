/*
 * rules_blob.h - the rule catalogue built into the binaries.
 *
 * scripts/embed-rules.sh turns every rules/ YAML file into one generated
 * C file ($(BUILD)/gen/rules_blob.c) that includes this header and defines
 * the table below, so the tools need no data files at run time.  The
 * catalogue reader (lint/catalog.c) is the only user.
 */
#ifndef WL_RULES_BLOB_H
#define WL_RULES_BLOB_H

#include <stddef.h>

/* One embedded catalogue file. */
typedef struct wl_embedded_file {
	const char *name;          /* path as given to the script, e.g. "rules/w3d/mesh.yaml" */
	const unsigned char *text; /* the file's bytes, NUL-terminated (len + 1 bytes) */
	size_t len;                /* bytes of text before the terminating NUL */
} wl_embedded_file;

/* wl_embedded_rules_count entries, then one all-zero entry. */
extern const wl_embedded_file wl_embedded_rules[];
extern const size_t wl_embedded_rules_count;

#endif
