/*
 * stat_memo.h - stat(2) answers remembered for one pass over a run's
 * folders.  Finding each folder's configuration (config.h
 * wl_config_locate_memo) and its mod's layout (target.h
 * wl_target_layout_memo) climbs up to the root probing the same names in
 * the same parent folders for every folder of the run (.w3dlint.yaml, .git,
 * mod.conf ...; most of them absent): with a memo each probe is a system
 * call once per run, not once per folder below it.  The answers are taken
 * as they were when first asked: a memo lives only while a run's file list
 * is being set up (lint/run/run.c wl_run_set_files).  Not thread-safe.
 */
#ifndef WL_STAT_MEMO_H
#define WL_STAT_MEMO_H

#include <stddef.h>
#include <sys/stat.h>

typedef struct wl_stat_memo wl_stat_memo;

/** A new empty memo, or NULL when out of memory. */
wl_stat_memo *wl_stat_memo_new(void);

void wl_stat_memo_free(wl_stat_memo *m);

/**
 * stat(path) through the memo: 0 and *mode set (st_mode) when path
 * exists, -1 when it does not or cannot be read.  A NULL memo, or one
 * that cannot grow, asks the system every time.
 */
int wl_stat_memo_mode(wl_stat_memo *m, const char *path, mode_t *mode);

/**
 * stat(dir/rel) with rel (one or more '/'-separated names) matched in any
 * letter case, as the games' file systems do on Windows: "Data/INI" finds
 * data/ini or DATA/Ini.  The exact name is tried first; else each
 * component is the first entry of its folder equal to it ignoring case.
 * 0 and *mode set, or -1.  Remembered in m apart from wl_stat_memo_mode's
 * answers (NULL: asks the system every time).
 */
int wl_stat_memo_mode_ci(wl_stat_memo *m, const char *dir, const char *rel, mode_t *mode);

/**
 * Writes into out (cap bytes) the path of an existing file or folder that
 * equals path with the part after its first fixed bytes matched folder by
 * folder in any letter case (the exact path first; else in each folder the
 * first entry equal to the component ignoring case).  0, or -1 when none
 * exists or out is too small.
 */
int wl_path_resolve_ci(const char *path, size_t fixed, char *out, size_t cap);

/**
 * Any probe of dir/rel remembered in m: probe(path "dir/rel", fixed =
 * strlen(dir), out) is called once per (tag, dir, rel) and its answer (0
 * and *out, or -1) kept.  tag (2..31) keeps the answers of different
 * probes apart from each other and from the stat answers.  The layout
 * markers' content probes use it (registry.h wl_layout_marker.refine).
 */
int wl_stat_memo_ask(wl_stat_memo *m, char tag, const char *dir, const char *rel,
		     int (*probe)(const char *path, size_t fixed, mode_t *out), mode_t *out);

#endif
