/*
 * catalog_builtin.c - the catalogue built into the binaries (catalog.h):
 * the pre-built tables of catalog_table.h, wrapped without parsing.
 */
#include "catalog.h"

#include <pthread.h>
#include <stdio.h>

#include "catalog_table.h"

wl_catalog *wl_catalog_load_builtin(char *err, size_t errcap)
{
	wl_catalog *cat = wl_catalog_wrap(wl_builtin_slots, wl_builtin_count, wl_builtin_by_handle);
	if (!cat && err && errcap)
		snprintf(err, errcap, "(builtin catalogue):1:1: out of memory");
	return cat;
}

static wl_catalog *builtin;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void load_builtin_once(void)
{
	char err[256];
	builtin = wl_catalog_load_builtin(err, sizeof err);
}

const wl_catalog *wl_catalog_builtin(void)
{
	pthread_once(&builtin_once, load_builtin_once);
	return builtin;
}
