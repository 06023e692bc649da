/*
 * suggest.h - "did you mean ...?" for a mistyped rule id: the nearest of a
 * set of names by edit distance (Levenshtein: insertions, deletions and
 * substitutions of one byte each cost 1).
 */
#ifndef WL_SUGGEST_H
#define WL_SUGGEST_H

#include <stddef.h>

/* The search state: feed every candidate with wl_suggest_offer(), then read
 * best (NULL when none is near enough). */
typedef struct wl_suggest {
	const char *typed;  /* the unknown name */
	const char *best;   /* the nearest candidate so far, or NULL */
	size_t best_dist;
} wl_suggest;

/** Starts a search for names near typed. */
void wl_suggest_init(wl_suggest *s, const char *typed);

/**
 * Offers a candidate.  It becomes best when its distance to typed is
 * smaller than the best so far (the first offered wins a tie) and at most
 * max(2, strlen(typed) / 4): a typo or two, not a different name.  Names
 * longer than 255 bytes are not compared.
 */
void wl_suggest_offer(wl_suggest *s, const char *candidate);

#endif
