/*
 * rule_ids.h - rule handles: one enumerator per rule of the catalogue
 * (the YAML files of rules/), generated at build time (scripts/gen-rule-ids.sh writes
 * $(BUILD)/gen/rule_list.h, the X-macro list WL_FOREACH_RULE, as git's
 * FOREACH_FSCK_MSG_ID).  The code names rules by handle (WLR_CHUNK_TRUNCATED
 * for "chunk-truncated"): a handle that is not in the catalogue does not
 * compile.  Ids as text remain where users type them (configuration,
 * --select, baselines) and where reports write them: wl_rule_name and
 * wl_rule_lookup convert at that boundary.
 */
#ifndef WL_RULE_IDS_H
#define WL_RULE_IDS_H

#include "rule_list.h"

typedef enum wl_rule_id {
	/* No catalogue rule (0, so that a zeroed struct names none): a
	 * custom rule of the configuration (its id is text), the end of a
	 * handle list, or "no rule" in a variable. */
	WL_RULE_NONE = 0,
#define WL_RULE_ENUM_(handle, name) handle,
	WL_FOREACH_RULE(WL_RULE_ENUM_)
#undef WL_RULE_ENUM_
	WL_RULES_END /* 1 + the last handle */
} wl_rule_id;

/* The id of every handle, in handle order (= id order); NULL at
 * WL_RULE_NONE. */
extern const char *const wl_rule_names[WL_RULES_END];

/** The id of handle r ("chunk-truncated"); NULL for WL_RULE_NONE. */
static inline const char *wl_rule_name(wl_rule_id r)
{
	return (unsigned)r < WL_RULES_END ? wl_rule_names[r] : (const char *)0;
}

/** The handle of the id name (a binary search), or WL_RULE_NONE. */
wl_rule_id wl_rule_lookup(const char *name);

#endif
