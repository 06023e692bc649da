/* suggest.c - nearest name by edit distance; see suggest.h. */
#include "suggest.h"

#include <string.h>

#define SUGGEST_MAX_LEN 255

void wl_suggest_init(wl_suggest *s, const char *typed)
{
	s->typed = typed;
	s->best = NULL;
	s->best_dist = (size_t)-1;
}

/* Levenshtein distance with one row of the table (both lengths <= 255). */
static size_t distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t row[SUGGEST_MAX_LEN + 1];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

void wl_suggest_offer(wl_suggest *s, const char *candidate)
{
	size_t la = strlen(s->typed), lb = strlen(candidate);
	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
		return;
	size_t limit = la / 4 > 2 ? la / 4 : 2;
	size_t d = distance(s->typed, la, candidate, lb);
	if (d <= limit && d < s->best_dist) {
		s->best = candidate;
		s->best_dist = d;
	}
}
