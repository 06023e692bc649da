/*
 * catalog_table.h - the built-in rule catalogue as pre-built C tables
 * (private to the catalogue: lint/catalog.c, lint/catalog_builtin.c, the
 * generator scripts/gen_catalog.c and the file it writes).
 *
 * At build time scripts/gen_catalog.c reads every rules/ YAML file with the
 * catalogue's own reader (wl_catalog_add_yaml: libyaml, every check and
 * error message of catalog.h, so a bad catalogue fails the build) and
 * writes $(BUILD)/gen/catalog_table.c: the rules as static wl_rule_def
 * records in id order (strings as C literals, parameter defaults as hex
 * floats, so every byte and bit is the one the reader produced) and the
 * handle index.  At run time wl_catalog_load_builtin wraps these tables:
 * no YAML is parsed when a tool starts.
 */
#ifndef WL_CATALOG_TABLE_H
#define WL_CATALOG_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/rule_ids.h"
#include "catalog.h"

/* A rule plus where its id was written (1-based line and column of the id
 * value in source_file), for duplicate-id messages. */
typedef struct wl_catalog_slot {
	wl_rule_def def;
	unsigned long line, column;
} wl_catalog_slot;

/* The generated tables: wl_builtin_count slots sorted by id (strcmp);
 * wl_builtin_by_handle[h] = 1 + the index of handle h's slot, 0 when the
 * catalogue lacks it (never, for a build's own handles). */
extern const wl_catalog_slot wl_builtin_slots[];
extern const size_t wl_builtin_count;
extern const uint32_t wl_builtin_by_handle[WL_RULES_END];

/** A catalogue over count slots sorted by id (not copied: they must outlive
 *  it) and their handle index (copied), or NULL when out of memory.  A
 *  document added later with wl_catalog_add_yaml copies the slots first. */
wl_catalog *wl_catalog_wrap(const wl_catalog_slot *slots, size_t count, const uint32_t *by_handle);

/** Slot i of cat in id order (0 <= i < wl_catalog_count(cat)), or NULL:
 *  the rule with its position, for the generator. */
const wl_catalog_slot *wl_catalog_slot_at(const wl_catalog *cat, size_t i);

/** cat's handle index (WL_RULES_END entries; NULL for no catalogue), for
 *  the generator. */
const uint32_t *wl_catalog_by_handle(const wl_catalog *cat);

#endif
