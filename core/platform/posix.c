/* posix.c - core/platform.h on Linux, the other POSIX systems and
 * Emscripten: the system's own calls, unchanged. */
#include "core/platform.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <dirent.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

void wl_os_start(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
}

void wl_os_tune_malloc(void)
{
#ifdef M_MMAP_THRESHOLD
	/* the per-file buffers stay in the heap: no mmap/munmap per file, and
	 * no trim of what the next file needs again */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

unsigned wl_os_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

int wl_os_open_read(const char *path, bool nonblock)
{
	return open(path, O_RDONLY | O_CLOEXEC | (nonblock ? O_NONBLOCK : 0));
}

int wl_os_fd_blocking(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
}

ssize_t wl_os_pread(int fd, void *buf, size_t n, uint64_t off)
{
	return pread(fd, buf, n, (off_t)off);
}

FILE *wl_os_fopen(const char *path, const char *mode)
{
	return fopen(path, mode);
}

int wl_os_stat(const char *path, struct stat *st)
{
	return stat(path, st);
}

int wl_os_lstat(const char *path, struct stat *st)
{
	return lstat(path, st);
}

int wl_os_file_id(const char *path, const struct stat *st, wl_os_id *id)
{
	(void)path;
	id->dev = (uint64_t)st->st_dev;
	id->ino = (uint64_t)st->st_ino;
	return 0;
}

bool wl_os_isatty(int fd)
{
	return isatty(fd) == 1;
}

int wl_os_term_cols(int fd)
{
	struct winsize ws;
	return ioctl(fd, TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
}

char *wl_os_realpath(const char *path)
{
	return realpath(path, NULL);
}

char *wl_os_getcwd(char *buf, size_t cap)
{
	return getcwd(buf, cap);
}

int wl_os_mkdir(const char *path)
{
	return mkdir(path, 0777);
}

int wl_os_remove(const char *path)
{
	return remove(path);
}

bool wl_os_is_sep(char c)
{
	return c == '/';
}

size_t wl_os_path_root(const char *path)
{
	return path[0] == '/' ? 1 : 0;
}

struct wl_os_dir {
	DIR *d;
};

wl_os_dir *wl_os_opendir(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return NULL;
	wl_os_dir *w = malloc(sizeof *w);
	if (!w) {
		closedir(d);
		errno = ENOMEM;
		return NULL;
	}
	w->d = d;
	return w;
}

const char *wl_os_readdir(wl_os_dir *d, int *kind)
{
	struct dirent *e = readdir(d->d);
	if (!e)
		return NULL;
	if (kind) {
		switch (e->d_type) {
		case DT_REG: *kind = WL_OS_DT_REG; break;
		case DT_DIR: *kind = WL_OS_DT_DIR; break;
		case DT_LNK: *kind = WL_OS_DT_LNK; break;
		case DT_UNKNOWN: *kind = WL_OS_DT_UNKNOWN; break;
		default: *kind = WL_OS_DT_OTHER; break;
		}
	}
	return e->d_name;
}

void wl_os_closedir(wl_os_dir *d)
{
	if (d) {
		closedir(d->d);
		free(d);
	}
}

int wl_os_fnmatch(const char *pat, const char *string)
{
	return fnmatch(pat, string, 0);
}

char *wl_os_strndup(const char *s, size_t n)
{
	return strndup(s, n);
}

void wl_os_strerror(int e, char *buf, size_t cap)
{
	/* the XSI strerror_r: the build defines no _GNU_SOURCE */
	if (cap > 0 && strerror_r(e, buf, cap) != 0)
		snprintf(buf, cap, "error %d", e);
}

FILE *wl_os_memstream_open(wl_os_memstream *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	return m->f;
}

int wl_os_memstream_close(wl_os_memstream *m, char **buf, size_t *len)
{
	int rc = m->f && fclose(m->f) == 0 && m->buf ? 0 : -1;
	m->f = NULL;
	if (rc != 0) {
		free(m->buf);
		m->buf = NULL;
		return -1;
	}
	*buf = m->buf;
	*len = m->len;
	m->buf = NULL;
	return 0;
}

void *wl_os_aligned_alloc(size_t align, size_t n)
{
	if (align == 0)
		return malloc(n);
	void *p = NULL;
	return posix_memalign(&p, align, n) == 0 ? p : NULL;
}

void wl_os_aligned_free(void *p)
{
	free(p);
}

void wl_os_advise_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	(void)madvise(p, n, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

void wl_os_prefault(void *p, size_t n)
{
#ifdef MADV_POPULATE_WRITE
	const uintptr_t page = 4096;
	uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t hi = ((uintptr_t)p + n) & ~(page - 1);
	if (hi > lo)
		(void)madvise((void *)lo, (size_t)(hi - lo), MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)n;
#endif
}
