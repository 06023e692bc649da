/* tree_walk.h - the regular files below a folder, for the unit tests that
 * read the real corpus (through core/platform.h's folder listing, so they
 * run on every platform: nftw's struct stat differs from the build's on
 * Windows). */
#ifndef T_TREE_WALK_H
#define T_TREE_WALK_H

/* Calls fn(path, ud) for every regular file below root (folders entered
 * in listing order, symbolic links not followed, at most 16 deep); 0, or
 * -1 when root cannot be listed. */
int t_walk_files(const char *root, void (*fn)(const char *path, void *ud), void *ud);

#endif
