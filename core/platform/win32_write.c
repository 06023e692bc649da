/* win32_write.c - core/safe_write.h on Windows (issue 27): the same
 * promises as on POSIX with the Win32 API.
 *
 * - Lock: LockFileEx (exclusive, waiting) on one byte far past any file's
 *   end, on a handle of the target: Windows locks are mandatory, so a lock
 *   on the file's bytes would refuse this process's own read of the target;
 *   a lock out there orders the runs of these tools and nothing else.
 * - Temporary file: TARGET.wltmp-XXXXXX, made with CREATE_NEW beside the
 *   target; removed by wl_sw_abort and, on Ctrl-C, Ctrl-Break or a closed
 *   console, by the handler of wl_sw_signals_init (SetConsoleCtrlHandler).
 *   Windows has no O_TMPFILE: a run killed outright leaves that name.
 * - Commit: FlushFileBuffers, then the temporary file takes the target's
 *   name with the lock held, so that a run waiting for the lock finds the
 *   new file when it gets it: a rename with POSIX semantics
 *   (FileRenameInfoEx, Windows 10 1809 on NTFS), which replaces a file that
 *   other handles hold open; where the system cannot, the old file is
 *   renamed aside (allowed while the handles open on it share delete, as
 *   the lock's and the waiting runs' do) and the temporary file takes the
 *   free name (MOVEFILE_WRITE_THROUGH).  MoveFileExW with
 *   MOVEFILE_REPLACE_EXISTING is no use: it fails while any handle of the
 *   target is open, a waiting run's included.  A new target is given its
 *   name without replacing one that appeared meanwhile.  The
 *   read-only, hidden, system and archive attributes of the file replaced
 *   are given to the new one; a read-only target is refused unless
 *   WL_SW_READONLY_OK (its mode, from _wstat64, has no write bits).  The
 *   hard-link count is the locked handle's (GetFileInformationByHandle).
 * - A target that is a folder or a device (NUL, CON, COM1) is refused
 *   before anything is made (WL_SW_NOTREG); a symbolic link or junction is
 *   followed once.
 *
 * Sources: the Win32 API reference (LockFileEx, MoveFileExW,
 * SetConsoleCtrlHandler, CreateFileW, SetFileAttributesW). */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/platform.h"
#include "core/safe_write.h"
#include "core/safe_write_int.h"
#include "win32_int.h"

/* The byte locked: far past the end of any model (8 EiB). */
#define LOCK_AT 0x7FFFFFFF00000000ull

/* ------------------------------------------------------------ Ctrl-C */

/* Names of temporary files of writes in progress, removed by the handler
 * (which Windows runs on a thread of its own: the lock orders it). */
#define SLOTS 8
static char slot_name[SLOTS][WL_SW_PATH_MAX + 32];
static volatile LONG slot_used[SLOTS];
static CRITICAL_SECTION slot_lock;

static BOOL WINAPI on_ctrl(DWORD type)
{
	(void)type;
	EnterCriticalSection(&slot_lock);
	for (int i = 0; i < SLOTS; i++)
		if (slot_used[i]) {
			wchar_t *w = wl_w32_wide(slot_name[i]);
			if (w)
				DeleteFileW(w);
			free(w);
			slot_used[i] = 0;
		}
	LeaveCriticalSection(&slot_lock);
	return FALSE; /* then the default handler ends the process */
}

void wl_sw_signals_init(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	InitializeCriticalSection(&slot_lock);
	SetConsoleCtrlHandler(on_ctrl, TRUE);
}

static void slot_take(wl_sw *w)
{
	EnterCriticalSection(&slot_lock);
	w->slot = -1;
	for (int i = 0; i < SLOTS && w->slot < 0; i++)
		if (!slot_used[i]) {
			memcpy(slot_name[i], w->tmp, sizeof slot_name[i]);
			slot_used[i] = 1;
			w->slot = i;
		}
	LeaveCriticalSection(&slot_lock);
}

void wl_sw_tmp_forget(wl_sw *w, bool remove_it)
{
	if (!w->tmp[0])
		return;
	wl_sw_signals_init();
	EnterCriticalSection(&slot_lock);
	if (remove_it) {
		wchar_t *t = wl_w32_wide(w->tmp);
		if (t)
			DeleteFileW(t);
		free(t);
	}
	if (w->slot >= 0)
		slot_used[w->slot] = 0;
	w->slot = -1;
	w->tmp[0] = 0;
	LeaveCriticalSection(&slot_lock);
}

/* -------------------------------------------------------------- lock */

/* w->path = target with a symbolic link or junction followed once. */
static int resolve(wl_sw *w, const char *target)
{
	struct stat st;
	w->through_link = wl_os_lstat(target, &st) == 0 && S_ISLNK(st.st_mode);
	if (!w->through_link)
		return wl_sw_copy_path(w->path, sizeof w->path, target);
	char *real = wl_os_realpath(target); /* ENOENT: a dangling link */
	if (!real)
		return -1;
	int rc = wl_sw_copy_path(w->path, sizeof w->path, real);
	free(real);
	return rc;
}

/* Locks w->path (see the header comment); sets existed, st.  A target
 * that does not exist is not locked: the commit names the new file
 * without replacing one made meanwhile. */
static int take_lock(wl_sw *w)
{
	wl_sw_signals_init();
	for (int tries = 0; tries < 1000; tries++) {
		struct stat st;
		if (wl_os_stat(w->path, &st) != 0) {
			if (errno != ENOENT)
				return WL_SW_ERR;
			w->existed = false;
			return WL_SW_OK;
		}
		w->existed = true;
		w->st = st;
		if (!S_ISREG(st.st_mode))
			return WL_SW_NOTREG;
		wl_os_id now;
		wchar_t *p = wl_w32_wide(w->path);
		if (!p)
			return WL_SW_ERR;
		HANDLE h = CreateFileW(p, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
				       OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
		free(p);
		if (h == INVALID_HANDLE_VALUE) {
			DWORD e = GetLastError();
			if (e == ERROR_FILE_NOT_FOUND)
				continue; /* gone meanwhile */
			errno = wl_w32_errno(e);
			return WL_SW_ERR;
		}
		OVERLAPPED ov;
		memset(&ov, 0, sizeof ov);
		ov.Offset = (DWORD)LOCK_AT;
		ov.OffsetHigh = (DWORD)(LOCK_AT >> 32);
		if (!LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ov)) {
			errno = wl_w32_errno(GetLastError());
			CloseHandle(h);
			return WL_SW_ERR;
		}
		/* the file locked is still the one of that name (a run that held
		 * the lock may have replaced it while we waited: then lock the
		 * new one); its link count is the handle's (the CRT says 1) */
		BY_HANDLE_FILE_INFORMATION info;
		if (!GetFileInformationByHandle(h, &info) || wl_os_stat(w->path, &st) != 0 ||
		    wl_os_file_id(w->path, &st, &now) != 0 || now.dev != info.dwVolumeSerialNumber ||
		    now.ino != (((uint64_t)info.nFileIndexHigh << 32) | info.nFileIndexLow)) {
			CloseHandle(h);
			continue;
		}
		st.st_nlink = (short)(info.nNumberOfLinks > 0x7FFF ? 0x7FFF : info.nNumberOfLinks);
		int fd = _open_osfhandle((intptr_t)h, _O_RDONLY);
		if (fd < 0) {
			CloseHandle(h);
			errno = EMFILE;
			return WL_SW_ERR;
		}
		w->st = st;
		w->lock_fd = fd;
		return WL_SW_OK;
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
	if (rc != WL_SW_OK) {
		int e = errno;
		wl_sw_abort(w);
		errno = e;
	}
	return rc;
}

/* ---------------------------------------------------------- temp file */

/* Makes w's temporary file beside w->path: a free TARGET.wltmp-XXXXXX. */
static int tmp_open(wl_sw *w)
{
	static unsigned seq;
	for (int tries = 0; tries < 100; tries++) {
		unsigned r = (unsigned)GetCurrentProcessId() * 2654435761u ^ (unsigned)time(NULL) ^ (++seq * 40503u) ^
			     (unsigned)GetTickCount();
		char tag[8];
		snprintf(tag, sizeof tag, "%06x", r & 0xFFFFFF);
		if (wl_sw_tmp_name(w->tmp, sizeof w->tmp, w->path, tag) != 0) {
			w->tmp[0] = 0;
			errno = ENAMETOOLONG;
			return -1;
		}
		wchar_t *t = wl_w32_wide(w->tmp);
		if (!t) {
			w->tmp[0] = 0;
			return -1;
		}
		HANDLE h = CreateFileW(t, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
		DWORD e = GetLastError();
		free(t);
		if (h == INVALID_HANDLE_VALUE) {
			w->tmp[0] = 0;
			if (e == ERROR_FILE_EXISTS || e == ERROR_ALREADY_EXISTS)
				continue;
			errno = wl_w32_errno(e);
			return -1;
		}
		slot_take(w);
		w->fd = _open_osfhandle((intptr_t)h, _O_WRONLY | _O_BINARY);
		if (w->fd < 0) {
			CloseHandle(h);
			wl_sw_tmp_forget(w, true);
			errno = EMFILE;
			return -1;
		}
		return 0;
	}
	errno = EEXIST;
	return -1;
}

int wl_sw_open(wl_sw *w, mode_t create_mode)
{
	if (w->existed && w->st.st_nlink > 1 && !(w->flags & WL_SW_BREAK_LINKS))
		return WL_SW_LINKS;
	if (w->existed && !(w->st.st_mode & 0222) && !(w->flags & WL_SW_READONLY_OK))
		return WL_SW_READONLY;
	if (!w->existed)
		w->st.st_mode = (unsigned short)(S_IFREG | (create_mode & 0777));
	return tmp_open(w) == 0 ? WL_SW_OK : WL_SW_ERR;
}

/* Flushes and closes the temporary file (its data on disk). */
static int close_tmp(wl_sw *w)
{
	int rc = 0;
	if (w->fp && (fflush(w->fp) != 0 || ferror(w->fp))) {
		if (errno == 0)
			errno = EIO;
		rc = -1;
	}
	HANDLE h = (HANDLE)_get_osfhandle(w->fd);
	if (rc == 0 && h != INVALID_HANDLE_VALUE && !FlushFileBuffers(h)) {
		errno = wl_w32_errno(GetLastError());
		rc = -1;
	}
	wl_sw_close_fd(w);
	return rc;
}

/* The attributes to give the new file: those of the file replaced that a
 * file keeps (read-only, hidden, system, archive, not indexed). */
static DWORD kept_attributes(const wchar_t *target)
{
	DWORD a = GetFileAttributesW(target);
	if (a == INVALID_FILE_ATTRIBUTES)
		return 0;
	return a & (FILE_ATTRIBUTE_READONLY | FILE_ATTRIBUTE_HIDDEN | FILE_ATTRIBUTE_SYSTEM | FILE_ATTRIBUTE_ARCHIVE |
		    FILE_ATTRIBUTE_NOT_CONTENT_INDEXED);
}

/* Gives the temporary file tmp the name `name`, never replacing a file
 * (EEXIST when the name is taken). */
static int move_new(const char *tmp, const char *name)
{
	wchar_t *t = wl_w32_wide(tmp), *n = wl_w32_wide(name);
	int rc = -1;
	if (t && n) {
		if (MoveFileExW(t, n, MOVEFILE_WRITE_THROUGH))
			rc = 0;
		else
			errno = wl_w32_errno(GetLastError());
	}
	free(t);
	free(n);
	return rc;
}

/* FILE_RENAME_INFO as FileRenameInfoEx takes it (Windows 10 1809), spelt
 * here whatever _WIN32_WINNT the headers are read with. */
struct rename_ex {
	DWORD flags;
	HANDLE root;
	DWORD len;
	WCHAR name[1];
};
#define RENAME_EX_CLASS 22 /* FileRenameInfoEx */
#define RENAME_REPLACE 0x1 /* FILE_RENAME_FLAG_REPLACE_IF_EXISTS */
#define RENAME_POSIX 0x2   /* FILE_RENAME_FLAG_POSIX_SEMANTICS */

/* Renames tmp over target with POSIX semantics: the name changes file at
 * once while other handles of the old file (the lock's, and those of runs
 * waiting for it, all sharing delete) stay open on it.  0 done; 1 when
 * the system or the file system cannot (before Windows 10 1809, FAT);
 * -1 with errno. */
static int rename_posix(const wchar_t *tmp, const wchar_t *target)
{
	HANDLE h = CreateFileW(tmp, DELETE | SYNCHRONIZE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
			       OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
	if (h == INVALID_HANDLE_VALUE) {
		errno = wl_w32_errno(GetLastError());
		return -1;
	}
	size_t n = wcslen(target);
	size_t size = sizeof(struct rename_ex) + n * sizeof(WCHAR);
	struct rename_ex *r = calloc(1, size);
	if (!r) {
		CloseHandle(h);
		errno = ENOMEM;
		return -1;
	}
	r->flags = RENAME_REPLACE | RENAME_POSIX;
	r->len = (DWORD)(n * sizeof(WCHAR));
	memcpy(r->name, target, n * sizeof(WCHAR));
	BOOL ok = SetFileInformationByHandle(h, (FILE_INFO_BY_HANDLE_CLASS)RENAME_EX_CLASS, r, (DWORD)size);
	DWORD e = GetLastError();
	free(r);
	CloseHandle(h);
	if (ok)
		return 0;
	if (e == ERROR_INVALID_PARAMETER || e == ERROR_NOT_SUPPORTED || e == ERROR_INVALID_FUNCTION ||
	    e == ERROR_CALL_NOT_IMPLEMENTED)
		return 1;
	errno = wl_w32_errno(e);
	return -1;
}

/* Renames tmp over target where the name cannot change file while the old
 * one is open: the old file is renamed aside (allowed while handles that
 * share delete are open on it, the lock's among them), tmp takes the free
 * name, the old file is removed (gone when its last handle closes).  A
 * reader that looks in between finds no file for an instant; a run killed
 * in between leaves the old bytes as TARGET.wltmp-XXXXXX. */
static int rename_aside(wl_sw *w, const wchar_t *tmp, const wchar_t *target)
{
	char aside[sizeof w->tmp];
	for (unsigned k = 0; k < 100; k++) {
		char tag[8];
		snprintf(tag, sizeof tag, "%06x", (unsigned)(GetTickCount() * 2654435761u + k * 40503u) & 0xFFFFFF);
		if (wl_sw_tmp_name(aside, sizeof aside, w->path, tag) != 0) {
			errno = ENAMETOOLONG;
			return -1;
		}
		wchar_t *a = wl_w32_wide(aside);
		if (!a)
			return -1;
		/* the Ctrl-C handler waits: it never finds the target gone */
		EnterCriticalSection(&slot_lock);
		int rc = -1;
		DWORD e = 0;
		if (!MoveFileExW(target, a, MOVEFILE_WRITE_THROUGH)) {
			e = GetLastError();
		} else if (!MoveFileExW(tmp, target, MOVEFILE_WRITE_THROUGH)) {
			e = GetLastError();
			MoveFileExW(a, target, MOVEFILE_WRITE_THROUGH); /* put back */
		} else {
			rc = 0;
		}
		LeaveCriticalSection(&slot_lock);
		if (rc == 0) {
			SetFileAttributesW(a, FILE_ATTRIBUTE_NORMAL); /* a read-only file is not deleted */
			DeleteFileW(a);
		}
		free(a);
		if (rc == 0)
			return 0;
		if (e != ERROR_FILE_EXISTS && e != ERROR_ALREADY_EXISTS) {
			errno = wl_w32_errno(e);
			return -1;
		}
	}
	errno = EEXIST;
	return -1;
}

/* Replaces w->path, locked, by the temporary file, giving the new file the
 * attributes of the old; the lock is held throughout, so that a run waiting
 * for it finds the new file when it gets it.  Retries for a while when
 * another program has the target open without sharing delete (a reader,
 * a virus scanner). */
static int replace_locked(wl_sw *w)
{
	wchar_t *t = wl_w32_wide(w->tmp), *n = wl_w32_wide(w->path);
	int rc = -1;
	if (!t || !n) {
		free(t);
		free(n);
		return -1;
	}
	DWORD attr = kept_attributes(n);
	if (attr & FILE_ATTRIBUTE_READONLY)
		SetFileAttributesW(n, attr & ~(DWORD)FILE_ATTRIBUTE_READONLY);
	for (int tries = 0; tries < 50 && rc != 0; tries++) {
		if (tries)
			Sleep(20);
		rc = rename_posix(t, n);
		if (rc == 1)
			rc = rename_aside(w, t, n);
		if (rc != 0 && errno != EACCES)
			break;
	}
	int e = errno;
	if (rc == 0 && attr)
		SetFileAttributesW(n, attr);
	else if (rc != 0 && (attr & FILE_ATTRIBUTE_READONLY))
		SetFileAttributesW(n, attr); /* put back */
	free(t);
	free(n);
	errno = e;
	return rc;
}

int wl_sw_commit(wl_sw *w)
{
	int rc = close_tmp(w);
	if (rc == 0 && !w->existed) {
		if (move_new(w->tmp, w->path) == 0) {
			wl_sw_tmp_forget(w, false);
			wl_sw_abort(w);
			return WL_SW_OK;
		}
		if (errno != EEXIST) {
			rc = -1;
		} else {
			/* a file of that name appeared meanwhile: lock it, replace it */
			int lr = take_lock(w);
			if (lr != WL_SW_OK) {
				if (lr == WL_SW_NOTREG)
					errno = EEXIST;
				rc = -1;
			}
		}
	}
	if (rc == 0)
		rc = replace_locked(w);
	int e = errno;
	if (rc == 0)
		wl_sw_tmp_forget(w, false);
	wl_sw_abort(w);
	errno = e;
	return rc == 0 ? WL_SW_OK : WL_SW_ERR;
}

/* Names the backup b's temporary file `name`, never replacing a file. */
static int claim(wl_sw *b, const char *name)
{
	if (move_new(b->tmp, name) != 0)
		return -1;
	wl_sw_tmp_forget(b, false);
	return 0;
}

int wl_sw_backup(wl_sw *w, const uint8_t *p, size_t n, char *name, size_t cap)
{
	wl_sw b = *w;
	b.lock_fd = b.fd = b.slot = -1;
	b.fp = NULL;
	b.tmp[0] = 0;
	snprintf(name, cap, "%s.bak", w->path);
	int rc = tmp_open(&b) == 0 && wl_sw_write(&b, p, n) == WL_SW_OK && close_tmp(&b) == 0 ? 0 : -1;
	if (rc == 0)
		rc = wl_sw_backup_claim(w->path, name, cap, &b, claim);
	int e = errno;
	wl_sw_abort(&b);
	errno = e;
	return rc == 0 ? WL_SW_OK : WL_SW_ERR;
}
