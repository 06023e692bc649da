/* grow.c - a growing malloc'd array; see grow.h. */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>

bool wl_grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	if (!elem || need > SIZE_MAX / elem)
		return false;
	size_t n = *cap ? *cap : 16;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	if (n > SIZE_MAX / elem)
		n = need;
	void *q = realloc(*p, n * elem);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}
