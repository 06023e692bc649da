/*
 * fix_util.h - the before/after and idempotence check of the fixer tests
 * (tests/fix/b3d/test_fix.c, tests/fix/p3d/test_fix.c): runs w3dfix's driver (fix/driver.h)
 * over a built file with the built-in catalogue (t_cat).
 */
#ifndef FIX_UTIL_H
#define FIX_UTIL_H

#include <stdbool.h>

#include "w3dbuild.h"

/**
 * Runs the fixers (unsafe as given) over in, named name (its extension
 * picks nothing: the bytes tell the format): the output must be want byte
 * for byte (want NULL: no change), verified, and a second run over it
 * must change nothing.
 */
void t_fix_expect_fix(const char *name, const wb *in, const wb *want, bool unsafe);

#endif
