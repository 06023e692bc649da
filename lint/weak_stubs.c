/* weak_stubs.c - TEMPORARY weak definitions so the tree links while the
 * pieces are written in parallel; each real definition overrides its stub.
 * Deleted at integration. */
#include <stddef.h>
#include "lint.h"
#define W __attribute__((weak))
W w3d_mesh *w3d_decode_mesh(wl_doc *d, wl_chunk *c) { (void)d; (void)c; return NULL; }
W w3d_hierarchy *w3d_decode_hierarchy(wl_doc *d, wl_chunk *c) { (void)d; (void)c; return NULL; }
W w3d_animation *w3d_decode_animation(wl_doc *d, wl_chunk *c) { (void)d; (void)c; return NULL; }
W w3d_compressed_animation *w3d_decode_compressed_animation(wl_doc *d, wl_chunk *c) { (void)d; (void)c; return NULL; }
W w3d_hlod *w3d_decode_hlod(wl_doc *d, wl_chunk *c) { (void)d; (void)c; return NULL; }
W w3d_box *w3d_decode_box(wl_doc *d, wl_chunk *c) { (void)d; (void)c; return NULL; }
void w3d_check_mesh(wl_lint_ctx *ctx);
void w3d_check_aabtree(wl_lint_ctx *ctx);
void w3d_check_hierarchy(wl_lint_ctx *ctx);
void w3d_check_animation(wl_lint_ctx *ctx);
void w3d_check_hlod(wl_lint_ctx *ctx);
W void w3d_check_mesh(wl_lint_ctx *ctx) { (void)ctx; }
W void w3d_check_aabtree(wl_lint_ctx *ctx) { (void)ctx; }
W void w3d_check_hierarchy(wl_lint_ctx *ctx) { (void)ctx; }
W void w3d_check_animation(wl_lint_ctx *ctx) { (void)ctx; }
W void w3d_check_hlod(wl_lint_ctx *ctx) { (void)ctx; }
W wl_catalog *wl_catalog_load_builtin(char *e, size_t n) { (void)e; (void)n; return NULL; }
W int wl_catalog_add_yaml(wl_catalog **c, const char *n, const char *t, size_t l, char *e, size_t en) { (void)c; (void)n; (void)t; (void)l; (void)e; (void)en; return -1; }
W void wl_catalog_free(wl_catalog *c) { (void)c; }
W const wl_rule_def *wl_catalog_find(const wl_catalog *c, const char *id) { (void)c; (void)id; return NULL; }
W size_t wl_catalog_count(const wl_catalog *c) { (void)c; return 0; }
W const wl_rule_def *wl_catalog_at(const wl_catalog *c, size_t i) { (void)c; (void)i; return NULL; }
W double wl_catalog_param(const wl_catalog *c, const char *r, const char *p, double f) { (void)c; (void)r; (void)p; return f; }
W wl_config *wl_config_parse(const wl_catalog *c, const char *n, const char *t, size_t l, char *e, size_t en) { (void)c; (void)n; (void)t; (void)l; (void)e; (void)en; return NULL; }
W wl_config *wl_config_load(const wl_catalog *c, const char *p, char *e, size_t en) { (void)c; (void)p; (void)e; (void)en; return NULL; }
W int wl_config_locate(const char *f, char *o, size_t n) { (void)f; (void)o; (void)n; return 0; }
W void wl_config_free(wl_config *c) { (void)c; }
W wl_severity wl_config_severity(const wl_config *c, const wl_catalog *k, const char *r) { (void)c; (void)k; (void)r; return WL_SEV_WARNING; }
W double wl_config_param(const wl_config *c, const wl_catalog *k, const char *r, const char *p, double f) { (void)c; (void)k; (void)r; (void)p; return f; }
W wl_severity wl_config_fail_on(const wl_config *c) { (void)c; return WL_SEV_ERROR; }
W const char *wl_config_path(const wl_config *c) { (void)c; return ""; }
