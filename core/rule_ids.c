/* rule_ids.c - the name table of the rule handles (rule_ids.h). */
#include "rule_ids.h"

#include <string.h>

const char *const wl_rule_names[WL_RULES_END] = {
	(const char *)0,
#define WL_RULE_NAME_(handle, name) name,
	WL_FOREACH_RULE(WL_RULE_NAME_)
#undef WL_RULE_NAME_
};

wl_rule_id wl_rule_lookup(const char *name)
{
	size_t lo = 1, hi = WL_RULES_END;
	while (name && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, wl_rule_names[mid]);
		if (c == 0)
			return (wl_rule_id)mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return WL_RULE_NONE;
}
