/*
 * custom_rules.c - the message templates of the declarative rules of the
 * configuration (custom_rules.h): their placeholders, checked when the
 * configuration is read.  The field catalogue is the formats' own
 * (lint/registry.c); the evaluation is a registered check
 * (custom_check.c).
 */
#include "custom_rules.h"

#include <stdio.h>
#include <string.h>

static const char *const placeholders[] = { "rule", "field", "value", "object" };
#define PLACEHOLDER_COUNT (sizeof placeholders / sizeof *placeholders)

int wl_custom_placeholder_at(const char *p, size_t *n)
{
	for (size_t i = 0; i < PLACEHOLDER_COUNT; i++) {
		size_t k = strlen(placeholders[i]);
		if (p[0] == '{' && strncmp(p + 1, placeholders[i], k) == 0 && p[1 + k] == '}') {
			*n = k + 2;
			return (int)i;
		}
	}
	return -1;
}

int wl_custom_message_check(const char *tmpl, char *bad, size_t cap)
{
	for (const char *p = tmpl; *p; p++) {
		if (*p != '{')
			continue;
		size_t n;
		if (p[1] == '{') {
			p++;
		} else if (wl_custom_placeholder_at(p, &n) >= 0) {
			p += n - 1;
		} else {
			if (bad && cap)
				snprintf(bad, cap, "%.*s", 32, p);
			return -1;
		}
	}
	return 0;
}
