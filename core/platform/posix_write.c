/* posix_write.c - core/safe_write.h on Linux and the other POSIX systems:
 * atomic, locked writes that keep what is there (O_TMPFILE, flock, xattrs). */
#define _GNU_SOURCE /* O_TMPFILE, linkat's AT_SYMLINK_FOLLOW on /proc */
#include "core/safe_write.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "core/escape.h"
#include "core/file_io.h"
#include "core/safe_write_int.h"

/* ------------------------------------------------------------ signals */

/* Named temporary files of writes in progress, removed by the handlers.
 * A slot's name is written while it is unused and the signals are blocked. */
#define SLOTS 8
static char slot_name[SLOTS][WL_SW_PATH_MAX + 32];
static volatile sig_atomic_t slot_used[SLOTS];

static void on_signal(int sig)
{
	for (int i = 0; i < SLOTS; i++)
		if (slot_used[i])
			unlink(slot_name[i]);
	/* SA_RESETHAND restored the default action: dies of sig on return */
	raise(sig);
}

void wl_sw_signals_init(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	signal(SIGXFSZ, SIG_IGN);
	static const int sigs[] = { SIGTERM, SIGHUP, SIGINT };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction old, sa;
		/* a signal the tool was started with ignored stays ignored */
		if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = (int)SA_RESETHAND; /* glibc spells it 0x80000000 */
		sigaction(sigs[i], &sa, NULL);
	}
}

static void block_signals(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static void restore_signals(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* Puts w->tmp in a free slot (signals blocked by the caller). */
static void slot_take(wl_sw *w)
{
	w->slot = -1;
	for (int i = 0; i < SLOTS && w->slot < 0; i++)
		if (!slot_used[i]) {
			memcpy(slot_name[i], w->tmp, sizeof slot_name[i]);
			slot_used[i] = 1;
			w->slot = i;
		}
}

/* Forgets w's temporary name (removing the file first when unlink_it),
 * freeing its slot. */
void wl_sw_tmp_forget(wl_sw *w, bool unlink_it)
{
	if (!w->tmp[0])
		return;
	sigset_t old;
	block_signals(&old);
	if (unlink_it)
		unlink(w->tmp);
	if (w->slot >= 0)
		slot_used[w->slot] = 0;
	w->slot = -1;
	w->tmp[0] = 0;
	restore_signals(&old);
}

/* -------------------------------------------------------------- paths */

/* The folder of path into buf ("." for a bare name). */
static void folder_of(const char *path, char *buf, size_t cap)
{
	char copy[WL_SW_PATH_MAX];
	snprintf(copy, sizeof copy, "%s", path);
	snprintf(buf, cap, "%s", dirname(copy));
}

/* w->path = target with a symbolic link (its last component) followed. */
static int resolve(wl_sw *w, const char *target)
{
	struct stat st;
	w->through_link = lstat(target, &st) == 0 && S_ISLNK(st.st_mode);
	if (!w->through_link)
		return wl_sw_copy_path(w->path, sizeof w->path, target);
	char *real = realpath(target, NULL); /* ENOENT: a dangling link */
	if (!real)
		return -1;
	int rc = wl_sw_copy_path(w->path, sizeof w->path, real);
	free(real);
	return rc;
}

/* ---------------------------------------------------------------- lock */

static int flock_wait(int fd)
{
	while (flock(fd, LOCK_EX) != 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* Locks w->path (or, when it cannot be opened for reading, its folder):
 * see the header.  Sets existed, st.  A target that does not exist is not
 * locked: the commit creates it without replacing a file made meanwhile. */
static int take_lock(wl_sw *w)
{
	for (int tries = 0; tries < 1000; tries++) {
		struct stat st, now;
		if (stat(w->path, &st) != 0) {
			if (errno != ENOENT)
				return WL_SW_ERR;
			w->existed = false;
			return WL_SW_OK;
		}
		w->existed = true;
		w->st = st;
		if (!S_ISREG(st.st_mode))
			return WL_SW_NOTREG;
		int fd = open(w->path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT)
			continue; /* gone meanwhile */
		if (fd < 0 && errno != EACCES)
			return WL_SW_ERR;
		bool folder = fd < 0; /* no read permission: lock the folder */
		if (folder) {
			char dir[WL_SW_PATH_MAX];
			folder_of(w->path, dir, sizeof dir);
			fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0)
				return WL_SW_ERR;
		}
		if (flock_wait(fd) != 0 || (!folder && fstat(fd, &st) != 0) || (folder && stat(w->path, &st) != 0)) {
			int e = errno;
			close(fd);
			if (e == ENOENT)
				continue;
			errno = e;
			return WL_SW_ERR;
		}
		if (!folder && (stat(w->path, &now) != 0 || now.st_dev != st.st_dev || now.st_ino != st.st_ino)) {
			close(fd); /* replaced while we waited: lock the new one */
			continue;
		}
		w->st = st;
		w->lock_fd = fd;
		return S_ISREG(st.st_mode) ? WL_SW_OK : WL_SW_NOTREG;
	}
	errno = EAGAIN;
	return WL_SW_ERR;
}

int wl_sw_lock(wl_sw *w, const char *target, unsigned flags)
{
	memset(w, 0, sizeof *w);
	w->lock_fd = w->fd = w->slot = -1;
	w->flags = flags;
	if (resolve(w, target) != 0)
		return WL_SW_ERR;
	int rc = take_lock(w);
	if (rc == WL_SW_OK && w->existed && !S_ISREG(w->st.st_mode))
		rc = WL_SW_NOTREG;
	if (rc != WL_SW_OK) {
		int e = errno;
		wl_sw_abort(w);
		errno = e;
	}
	return rc;
}

/* ---------------------------------------------------------- temp file */

static mode_t current_umask(void)
{
	mode_t m = umask(022);
	umask(m);
	return m;
}

/* Opens a temporary file for w beside w->path: an O_TMPFILE when the file
 * system and /proc allow (it is named at the commit), else a named one. */
static int tmp_open(wl_sw *w)
{
	char dir[WL_SW_PATH_MAX];
	folder_of(w->path, dir, sizeof dir);
	w->anon = false;
	w->tmp[0] = 0;
	if (!getenv("W3DLINT_NO_TMPFILE") && access("/proc/self/fd", X_OK) == 0) {
		w->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
		if (w->fd >= 0) {
			w->anon = true;
			return 0;
		}
		if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
			return -1;
	}
	if (wl_sw_tmp_name(w->tmp, sizeof w->tmp, w->path, "XXXXXX") != 0) {
		w->tmp[0] = 0;
		errno = ENAMETOOLONG;
		return -1;
	}
	sigset_t old;
	block_signals(&old);
	w->fd = mkstemp(w->tmp);
	int e = errno;
	if (w->fd >= 0)
		slot_take(w);
	else
		w->tmp[0] = 0;
	restore_signals(&old);
	errno = e;
	return w->fd >= 0 ? 0 : -1;
}

int wl_sw_open(wl_sw *w, mode_t create_mode)
{
	if (w->existed && w->st.st_nlink > 1 && !(w->flags & WL_SW_BREAK_LINKS))
		return WL_SW_LINKS;
	if (w->existed && !(w->st.st_mode & 0222) && !(w->flags & WL_SW_READONLY_OK))
		return WL_SW_READONLY;
	if (!w->existed)
		w->st.st_mode = S_IFREG | (create_mode & ~current_umask() & 07777);
	return tmp_open(w) == 0 ? WL_SW_OK : WL_SW_ERR;
}

/* Extended attributes (ACLs included) of w->path onto fd; what cannot be
 * set is counted in meta_lost. */
static void copy_xattrs(wl_sw *w, int fd)
{
	ssize_t n = listxattr(w->path, NULL, 0);
	if (n <= 0)
		return;
	char *names = malloc((size_t)n);
	if (!names) {
		w->meta_lost++;
		return;
	}
	n = listxattr(w->path, names, (size_t)n);
	for (ssize_t at = 0; n > 0 && at < n; at += (ssize_t)strlen(names + at) + 1) {
		const char *name = names + at;
		ssize_t len = getxattr(w->path, name, NULL, 0);
		void *val = len > 0 ? malloc((size_t)len) : NULL;
		if (len > 0 && val)
			len = getxattr(w->path, name, val, (size_t)len);
		if (len < 0 || (len > 0 && !val) || fsetxattr(fd, name, val, (size_t)len, 0) != 0)
			w->meta_lost++;
		free(val);
	}
	free(names);
}

/* Gives fd the owner, group, mode and attributes w->path had (or the mode
 * of a new file), then fsyncs it. */
static int finish_file(wl_sw *w, int fd)
{
	if (w->existed) {
		struct stat now;
		if (fstat(fd, &now) == 0 && (now.st_uid != w->st.st_uid || now.st_gid != w->st.st_gid) &&
		    fchown(fd, w->st.st_uid, w->st.st_gid) != 0)
			w->meta_lost++;
	}
	/* after fchown, which may clear set-id bits; before the ACL, which
	 * agrees with these bits */
	if (fchmod(fd, w->st.st_mode & 07777) != 0)
		return -1;
	if (w->existed)
		copy_xattrs(w, fd);
	return fsync(fd);
}

/* Gives the temporary file of t the name `name`, never replacing a file
 * (EEXIST when taken).  An O_TMPFILE is linked through /proc; a named one
 * is hard-linked, or renamed where the file system has no hard links. */
static int link_as(wl_sw *t, const char *name)
{
	if (t->anon) {
		char proc[64];
		snprintf(proc, sizeof proc, "/proc/self/fd/%d", t->fd);
		return linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW);
	}
	if (link(t->tmp, name) == 0)
		return 0;
	/* EMLINK: Emscripten's in-memory file system (the web page's,
	 * docs/web.md) has no hard links and answers so */
	if (errno != EPERM && errno != ENOSYS && errno != EOPNOTSUPP && errno != EMLINK)
		return -1;
	struct stat st;
	if (lstat(name, &st) == 0) {
		errno = EEXIST;
		return -1;
	}
	if (rename(t->tmp, name) != 0)
		return -1;
	wl_sw_tmp_forget(t, false); /* renamed: only the slot is left to free */
	return 0;
}

/* Names an O_TMPFILE PATH.wltmp-XXXXXX (registered for the handlers). */
static int name_anon(wl_sw *w)
{
	static unsigned seq;
	for (int tries = 0; tries < 100; tries++) {
		unsigned r = (unsigned)getpid() * 2654435761u ^ (unsigned)time(NULL) ^ (++seq * 40503u);
		char tag[8];
		snprintf(tag, sizeof tag, "%06x", r & 0xFFFFFF);
		if (wl_sw_tmp_name(w->tmp, sizeof w->tmp, w->path, tag) != 0) {
			w->tmp[0] = 0;
			errno = ENAMETOOLONG;
			return -1;
		}
		sigset_t old;
		block_signals(&old);
		int rc = link_as(w, w->tmp);
		int e = errno;
		if (rc == 0)
			slot_take(w);
		else
			w->tmp[0] = 0;
		restore_signals(&old);
		if (rc == 0)
			return 0;
		if (e != EEXIST) {
			errno = e;
			return -1;
		}
	}
	errno = EEXIST;
	return -1;
}

static void fsync_folder(const char *path)
{
	char dir[WL_SW_PATH_MAX];
	folder_of(path, dir, sizeof dir);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd); /* EINVAL on file systems that cannot: nothing to do */
		close(dfd);
	}
}

/* A new target: the temporary file takes its name without replacing
 * anything.  0 done; 1 when a file of that name appeared meanwhile (it is
 * then locked, to be replaced); -1 on failure. */
static int create_new(wl_sw *w)
{
	sigset_t old;
	block_signals(&old);
	int rc = link_as(w, w->path);
	int e = errno;
	restore_signals(&old);
	if (rc == 0) {
		wl_sw_tmp_forget(w, true); /* a named temporary file: its second name goes */
		return 0;
	}
	if (e != EEXIST) {
		errno = e;
		return -1;
	}
	rc = take_lock(w);
	if (rc == WL_SW_NOTREG)
		errno = EEXIST; /* something that is not a regular file took the name */
	return rc == WL_SW_OK ? 1 : -1;
}

int wl_sw_commit(wl_sw *w)
{
	int rc = 0;
	if (w->fp && (fflush(w->fp) != 0 || ferror(w->fp))) {
		if (errno == 0)
			errno = EIO;
		rc = -1;
	}
	if (rc == 0)
		rc = finish_file(w, w->fd);
	bool done = false;
	if (rc == 0 && !w->existed) {
		rc = create_new(w);
		done = rc == 0;
		rc = rc < 0 ? -1 : 0;
	}
	if (rc == 0 && !done && w->anon)
		rc = name_anon(w);
	if (rc == 0 && !done && rename(w->tmp, w->path) != 0)
		rc = -1;
	int e = errno;
	if (rc == 0) {
		wl_sw_tmp_forget(w, false); /* renamed: the name is the target's now */
		fsync_folder(w->path);
	}
	wl_sw_abort(w);
	errno = e;
	return rc == 0 ? WL_SW_OK : WL_SW_ERR;
}

int wl_sw_backup(wl_sw *w, const uint8_t *p, size_t n, char *name, size_t cap)
{
	wl_sw b = *w; /* path, existed, st: the file the backup is of */
	b.lock_fd = b.fd = b.slot = -1;
	b.fp = NULL;
	b.tmp[0] = 0;
	snprintf(name, cap, "%s.bak", w->path);
	int rc = tmp_open(&b) == 0 && wl_sw_write(&b, p, n) == WL_SW_OK && finish_file(&b, b.fd) == 0 ? 0 : -1;
	if (rc == 0)
		rc = wl_sw_backup_claim(w->path, name, cap, &b, link_as);
	int e = errno;
	w->meta_lost += b.meta_lost;
	wl_sw_abort(&b);
	if (rc == 0)
		fsync_folder(w->path);
	errno = e;
	return rc == 0 ? WL_SW_OK : WL_SW_ERR;
}
