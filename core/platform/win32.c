/* win32.c - core/platform.h on Windows (MinGW-w64; `make windows`, issue
 * 27): UTF-8 at the interface, the wide-character API inside.
 *
 * Sources: the Win32 API reference (CreateFileW, GetFileInformationByHandle,
 * GetFinalPathNameByHandleW, FindFirstFileExW, CommandLineToArgvW,
 * MultiByteToWideChar), MinGW-w64's CRT headers (_wopen, _wstat64,
 * _wfopen, _aligned_malloc). */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <shellapi.h>

#include <direct.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/platform.h"
#include "win32_int.h"

/* ------------------------------------------------------------ UTF-8 */

/* The code point of the UTF-8 sequence at s, its length in *len; -1 for
 * bytes that are not UTF-8.  An encoded surrogate (ED A0..BF xx) is taken:
 * it is how a name holding a lone surrogate comes back from the layer
 * (WTF-8), so such a name can be opened again. */
static long utf8_next(const unsigned char *s, size_t *len)
{
	unsigned c = s[0];
	size_t n = c < 0x80 ? 1 : c >= 0xC2 && c < 0xE0 ? 2 : c >= 0xE0 && c < 0xF0 ? 3 : c >= 0xF0 && c < 0xF5 ? 4 : 0;
	if (n == 0)
		return -1;
	unsigned long cp = n == 1 ? c : c & (0xFFu >> (n + 1));
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3Fu);
	}
	static const unsigned long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (cp < least[n] || cp > 0x10FFFF)
		return -1; /* overlong or past Unicode */
	*len = n;
	return (long)cp;
}

wchar_t *wl_w32_wide(const char *s)
{
	size_t n = strlen(s);
	wchar_t *w = malloc((n + 1) * sizeof *w);
	if (!w) {
		errno = ENOMEM;
		return NULL;
	}
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		size_t len = 0;
		long cp = utf8_next((const unsigned char *)s + i, &len);
		if (cp < 0) {
			free(w);
			errno = EILSEQ;
			return NULL;
		}
		if (cp >= 0x10000) {
			w[o++] = (wchar_t)(0xD800 + ((cp - 0x10000) >> 10));
			w[o++] = (wchar_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
		} else {
			w[o++] = (wchar_t)cp;
		}
		i += len;
	}
	w[o] = 0;
	return w;
}

/* w (UTF-16, n units or NUL-terminated when n < 0) as malloc'd UTF-8; a
 * lone surrogate, which Windows allows in names, becomes its WTF-8 bytes
 * (ED A0..BF xx), never lost or replaced. */
static char *narrow_n(const wchar_t *w, long n)
{
	if (n < 0)
		n = (long)wcslen(w);
	char *s = malloc((size_t)n * 3 + 1);
	if (!s) {
		errno = ENOMEM;
		return NULL;
	}
	size_t o = 0;
	for (long i = 0; i < n; i++) {
		unsigned c = w[i];
		if (c >= 0xD800 && c < 0xDC00 && i + 1 < n && w[i + 1] >= 0xDC00 && w[i + 1] < 0xE000) {
			c = 0x10000 + ((c - 0xD800) << 10) + ((unsigned)w[i + 1] - 0xDC00);
			i++;
		}
		if (c < 0x80) {
			s[o++] = (char)c;
		} else if (c < 0x800) {
			s[o++] = (char)(0xC0 | (c >> 6));
			s[o++] = (char)(0x80 | (c & 0x3F));
		} else if (c < 0x10000) {
			s[o++] = (char)(0xE0 | (c >> 12));
			s[o++] = (char)(0x80 | ((c >> 6) & 0x3F));
			s[o++] = (char)(0x80 | (c & 0x3F));
		} else {
			s[o++] = (char)(0xF0 | (c >> 18));
			s[o++] = (char)(0x80 | ((c >> 12) & 0x3F));
			s[o++] = (char)(0x80 | ((c >> 6) & 0x3F));
			s[o++] = (char)(0x80 | (c & 0x3F));
		}
	}
	s[o] = 0;
	return s;
}

static char *narrow(const wchar_t *w)
{
	return narrow_n(w, -1);
}

int wl_w32_errno(unsigned long e)
{
	switch (e) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
	case ERROR_INVALID_NAME:
	case ERROR_BAD_NETPATH:
	case ERROR_BAD_NET_NAME:
	case ERROR_INVALID_DRIVE:
		return ENOENT;
	case ERROR_ACCESS_DENIED:
	case ERROR_SHARING_VIOLATION:
	case ERROR_LOCK_VIOLATION:
		return EACCES;
	case ERROR_FILE_EXISTS:
	case ERROR_ALREADY_EXISTS:
		return EEXIST;
	case ERROR_DIRECTORY:
		return ENOTDIR;
	case ERROR_FILENAME_EXCED_RANGE:
		return ENAMETOOLONG;
	case ERROR_NOT_ENOUGH_MEMORY:
	case ERROR_OUTOFMEMORY:
		return ENOMEM;
	case ERROR_DISK_FULL:
	case ERROR_HANDLE_DISK_FULL:
		return ENOSPC;
	default:
		return EIO;
	}
}

/* ------------------------------------------------------------- start-up */

/* The console as the tool found it, put back at exit: the code page and
 * modes belong to the console, which the shell that started the tool
 * shares. */
static UINT saved_cp;
static DWORD saved_mode[2];
static bool mode_set[2];

static void restore_console(void)
{
	for (int i = 0; i < 2; i++)
		if (mode_set[i])
			SetConsoleMode(GetStdHandle(i ? STD_ERROR_HANDLE : STD_OUTPUT_HANDLE), saved_mode[i]);
	if (saved_cp)
		SetConsoleOutputCP(saved_cp);
}

void wl_os_start(int *argc, char ***argv)
{
	/* UTF-8 output, and the escape sequences of the colours and the
	 * progress line interpreted (Windows 10's console does so only when
	 * asked: ENABLE_VIRTUAL_TERMINAL_PROCESSING) */
	saved_cp = GetConsoleOutputCP();
	SetConsoleOutputCP(CP_UTF8);
	for (int i = 0; i < 2; i++) {
		HANDLE h = GetStdHandle(i ? STD_ERROR_HANDLE : STD_OUTPUT_HANDLE);
		if (h != INVALID_HANDLE_VALUE && h && GetConsoleMode(h, &saved_mode[i]))
			mode_set[i] = SetConsoleMode(h, saved_mode[i] | ENABLE_PROCESSED_OUTPUT |
							       ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
	}
	atexit(restore_console);
	_setmode(_fileno(stdin), _O_BINARY);
	_setmode(_fileno(stdout), _O_BINARY);
	_setmode(_fileno(stderr), _O_BINARY);
	int n = 0;
	wchar_t **wv = CommandLineToArgvW(GetCommandLineW(), &n);
	if (!wv || n < 1)
		return;
	char **v = calloc((size_t)n + 1, sizeof *v);
	if (!v)
		return;
	for (int i = 0; i < n; i++)
		if (!(v[i] = narrow(wv[i])))
			return; /* out of memory: the ANSI arguments stay */
	LocalFree(wv);
	*argc = n;
	*argv = v;
}

void wl_os_tune_malloc(void)
{
}

unsigned wl_os_cpus(void)
{
	DWORD n = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
	return n > 0 ? (unsigned)n : 1;
}

/* ---------------------------------------------------------------- files */

static bool is_folder(const char *path);

int wl_os_open_read(const char *path, bool nonblock)
{
	(void)nonblock; /* no FIFOs without writers to block on */
	wchar_t *w = wl_w32_wide(path);
	if (!w)
		return -1;
	/* CreateFileW rather than _wopen: FILE_SHARE_DELETE lets another run
	 * rename or replace the file while this one reads it, as on POSIX; the
	 * handle is not inherited (no SECURITY_ATTRIBUTES) */
	HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
			       OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
	DWORD e = GetLastError();
	free(w);
	if (h == INVALID_HANDLE_VALUE) {
		errno = e == ERROR_ACCESS_DENIED && is_folder(path) ? EISDIR : wl_w32_errno(e);
		return -1;
	}
	int fd = _open_osfhandle((intptr_t)h, _O_RDONLY | _O_BINARY | _O_NOINHERIT);
	if (fd < 0) {
		CloseHandle(h);
		errno = EMFILE;
	}
	return fd;
}

int wl_os_fd_blocking(int fd)
{
	(void)fd;
	return 0;
}

ssize_t wl_os_pread(int fd, void *buf, size_t n, uint64_t off)
{
	HANDLE h = (HANDLE)_get_osfhandle(fd);
	if (h == INVALID_HANDLE_VALUE) {
		errno = EBADF;
		return -1;
	}
	/* ReadFile at an offset moves the position of a synchronous handle:
	 * it is put back, as pread(2) leaves it */
	LARGE_INTEGER zero = { .QuadPart = 0 }, pos;
	if (!SetFilePointerEx(h, zero, &pos, FILE_CURRENT)) {
		errno = wl_w32_errno(GetLastError());
		return -1;
	}
	OVERLAPPED ov;
	memset(&ov, 0, sizeof ov);
	ov.Offset = (DWORD)off;
	ov.OffsetHigh = (DWORD)(off >> 32);
	DWORD got = 0;
	DWORD want = n > 0x40000000u ? 0x40000000u : (DWORD)n;
	BOOL ok = ReadFile(h, buf, want, &got, &ov);
	DWORD e = GetLastError();
	SetFilePointerEx(h, pos, NULL, FILE_BEGIN);
	if (!ok) {
		if (e == ERROR_HANDLE_EOF)
			return 0;
		errno = wl_w32_errno(e);
		return -1;
	}
	return (ssize_t)got;
}

FILE *wl_os_fopen(const char *path, const char *mode)
{
	wchar_t wm[16];
	size_t k = 0;
	bool b = false;
	for (const char *m = mode; *m && k < 14; m++) {
		wm[k++] = (wchar_t)*m;
		b = b || *m == 'b';
	}
	if (!b)
		wm[k++] = L'b';
	wm[k] = 0;
	wchar_t *w = wl_w32_wide(path);
	if (!w)
		return NULL;
	FILE *f = _wfopen(w, wm);
	free(w);
	return f;
}

/* Attributes and reparse tag of path without following a link; false
 * with errno when it is not there. */
static bool attributes(const wchar_t *w, DWORD *attr, DWORD *tag)
{
	WIN32_FIND_DATAW fd;
	*attr = GetFileAttributesW(w);
	*tag = 0;
	if (*attr == INVALID_FILE_ATTRIBUTES) {
		errno = wl_w32_errno(GetLastError());
		return false;
	}
	if (*attr & FILE_ATTRIBUTE_REPARSE_POINT) {
		HANDLE h = FindFirstFileW(w, &fd);
		if (h != INVALID_HANDLE_VALUE) {
			*tag = fd.dwReserved0;
			FindClose(h);
		}
	}
	return true;
}

/* true when the last name of w is one Windows keeps for a device (NUL,
 * CON, PRN, AUX, COM1-9, LPT1-9, CONIN$, CONOUT$, with any extension), or
 * w is in the \\.\ device namespace: such a path is asked what it is. */
static bool device_name(const wchar_t *w)
{
	if (wcsncmp(w, L"\\\\.\\", 4) == 0)
		return true;
	const wchar_t *b = w;
	for (const wchar_t *p = w; *p; p++)
		if (*p == L'\\' || *p == L'/' || (*p == L':' && p == w + 1))
			b = p + 1;
	size_t n = 0;
	while (b[n] && b[n] != L'.' && b[n] != L' ' && b[n] != L':')
		n++;
	wchar_t u[8];
	if (n < 3 || n > 7)
		return false;
	for (size_t i = 0; i < n; i++)
		u[i] = b[i] >= L'a' && b[i] <= L'z' ? (wchar_t)(b[i] - 32) : b[i];
	u[n] = 0;
	if (n == 3)
		return !wcscmp(u, L"NUL") || !wcscmp(u, L"CON") || !wcscmp(u, L"PRN") || !wcscmp(u, L"AUX");
	if (n == 4)
		return (!wcsncmp(u, L"COM", 3) || !wcsncmp(u, L"LPT", 3)) && u[3] >= L'1' && u[3] <= L'9';
	return !wcscmp(u, L"CONIN$") || !wcscmp(u, L"CONOUT$");
}

/* The kind of a device path (S_IFCHR for NUL, CON, a serial port;
 * S_IFIFO for a pipe), or 0 when it is a file on a disk after all
 * (Windows 11 keeps only the bare names for devices). */
static unsigned short device_kind(const wchar_t *w)
{
	/* CON opens only for reading or writing (CONIN$, CONOUT$) */
	static const DWORD access[] = { 0, GENERIC_READ, GENERIC_WRITE };
	HANDLE h = INVALID_HANDLE_VALUE;
	for (size_t i = 0; i < 3 && h == INVALID_HANDLE_VALUE; i++)
		h = CreateFileW(w, access[i], FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
				OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
	if (h == INVALID_HANDLE_VALUE) {
		/* a bare device name is a device on every Windows, even one
		 * this process cannot open (CON without a console) */
		bool bare = true;
		for (const wchar_t *p = w; *p; p++)
			bare = bare && *p != L'\\' && *p != L'/' && *p != L':';
		return bare ? S_IFCHR : 0;
	}
	DWORD t = GetFileType(h);
	CloseHandle(h);
	return t == FILE_TYPE_CHAR ? S_IFCHR : t == FILE_TYPE_PIPE ? S_IFIFO : 0;
}

static int stat_wl_w32_wide(const wchar_t *w, struct stat *st)
{
	struct _stat64 s;
	unsigned short dev = device_name(w) ? device_kind(w) : 0;
	if (dev) {
		memset(st, 0, sizeof *st);
		st->st_mode = (unsigned short)(dev | 0666);
		st->st_nlink = 1;
		return 0;
	}
	if (_wstat64(w, &s) != 0) {
		/* a root such as "C:\" answers; a trailing separator elsewhere
		 * needs its attributes (_wstat64 refuses "C:\x\") */
		DWORD attr, tag;
		size_t n = wcslen(w);
		if (!attributes(w, &attr, &tag)) {
			/* "file\": POSIX says ENOTDIR when the name without the
			 * separator is not a folder */
			if (n > 1 && (w[n - 1] == L'\\' || w[n - 1] == L'/') && errno == ENOENT) {
				wchar_t *cut = _wcsdup(w);
				if (cut) {
					while (n > 1 && (cut[n - 1] == L'\\' || cut[n - 1] == L'/'))
						cut[--n] = 0;
					if (attributes(cut, &attr, &tag) && !(attr & FILE_ATTRIBUTE_DIRECTORY))
						errno = ENOTDIR;
					else
						errno = ENOENT;
					free(cut);
				}
			}
			return -1;
		}
		memset(st, 0, sizeof *st);
		st->st_mode = (unsigned short)((attr & FILE_ATTRIBUTE_DIRECTORY) ? (S_IFDIR | 0755) : (S_IFREG | 0644));
		return 0;
	}
	memset(st, 0, sizeof *st);
	st->st_dev = s.st_dev;
	st->st_ino = s.st_ino;
	st->st_mode = s.st_mode;
	st->st_nlink = s.st_nlink;
	st->st_size = s.st_size;
	st->st_atime = s.st_atime;
	st->st_mtime = s.st_mtime;
	st->st_ctime = s.st_ctime;
	return 0;
}

int wl_os_stat(const char *path, struct stat *st)
{
	wchar_t *w = wl_w32_wide(path);
	if (!w)
		return -1;
	int rc = stat_wl_w32_wide(w, st);
	int e = errno;
	free(w);
	errno = e;
	return rc;
}

static bool is_folder(const char *path)
{
	struct stat st;
	return wl_os_stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int wl_os_lstat(const char *path, struct stat *st)
{
	wchar_t *w = wl_w32_wide(path);
	if (!w)
		return -1;
	DWORD attr, tag;
	int rc = -1;
	if (attributes(w, &attr, &tag) && (attr & FILE_ATTRIBUTE_REPARSE_POINT) &&
	    (tag == IO_REPARSE_TAG_SYMLINK || tag == IO_REPARSE_TAG_MOUNT_POINT)) {
		memset(st, 0, sizeof *st);
		st->st_mode = (unsigned short)(S_IFLNK | 0777);
		rc = 0;
	} else {
		rc = stat_wl_w32_wide(w, st);
	}
	int e = errno;
	free(w);
	errno = e;
	return rc;
}

int wl_os_file_id(const char *path, const struct stat *st, wl_os_id *id)
{
	(void)st;
	wchar_t *w = wl_w32_wide(path);
	if (!w)
		return -1;
	HANDLE h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
			       FILE_FLAG_BACKUP_SEMANTICS, NULL);
	free(w);
	if (h == INVALID_HANDLE_VALUE) {
		errno = wl_w32_errno(GetLastError());
		return -1;
	}
	BY_HANDLE_FILE_INFORMATION info;
	bool ok = GetFileInformationByHandle(h, &info) != 0;
	DWORD e = GetLastError();
	CloseHandle(h);
	if (!ok) {
		errno = wl_w32_errno(e);
		return -1;
	}
	id->dev = info.dwVolumeSerialNumber;
	id->ino = ((uint64_t)info.nFileIndexHigh << 32) | info.nFileIndexLow;
	return 0;
}

bool wl_os_isatty(int fd)
{
	/* _isatty is true for every character device, NUL included: a
	 * console is what has a console mode */
	HANDLE h = (HANDLE)_get_osfhandle(fd);
	DWORD mode;
	return h != INVALID_HANDLE_VALUE && GetConsoleMode(h, &mode) != 0;
}

int wl_os_term_cols(int fd)
{
	HANDLE h = (HANDLE)_get_osfhandle(fd);
	CONSOLE_SCREEN_BUFFER_INFO info;
	if (h == INVALID_HANDLE_VALUE || !GetConsoleScreenBufferInfo(h, &info))
		return 0;
	return info.srWindow.Right - info.srWindow.Left + 1;
}

char *wl_os_realpath(const char *path)
{
	wchar_t *w = wl_w32_wide(path);
	if (!w)
		return NULL;
	HANDLE h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
			       FILE_FLAG_BACKUP_SEMANTICS, NULL);
	free(w);
	if (h == INVALID_HANDLE_VALUE) {
		errno = wl_w32_errno(GetLastError());
		return NULL;
	}
	DWORD n = GetFinalPathNameByHandleW(h, NULL, 0, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
	wchar_t *full = n ? malloc(((size_t)n + 1) * sizeof *full) : NULL;
	DWORD got = full ? GetFinalPathNameByHandleW(h, full, n + 1, FILE_NAME_NORMALIZED | VOLUME_NAME_DOS) : 0;
	DWORD e = GetLastError();
	CloseHandle(h);
	if (!full || got == 0 || got > n) {
		free(full);
		errno = full ? wl_w32_errno(e) : ENOMEM;
		return NULL;
	}
	/* \\?\C:\x -> C:\x; \\?\UNC\srv\share\x -> \\srv\share\x */
	const wchar_t *p = full;
	char *out;
	if (wcsncmp(p, L"\\\\?\\UNC\\", 8) == 0) {
		char *rest = narrow(p + 8);
		out = rest ? malloc(strlen(rest) + 3) : NULL;
		if (out) {
			out[0] = out[1] = '\\';
			strcpy(out + 2, rest);
		}
		free(rest);
	} else {
		if (wcsncmp(p, L"\\\\?\\", 4) == 0)
			p += 4;
		out = narrow(p);
	}
	free(full);
	return out;
}

char *wl_os_getcwd(char *buf, size_t cap)
{
	wchar_t *w = _wgetcwd(NULL, 0);
	if (!w)
		return NULL;
	char *s = narrow(w);
	free(w);
	if (!s)
		return NULL;
	size_t n = strlen(s);
	if (n + 1 > cap) {
		free(s);
		errno = ERANGE;
		return NULL;
	}
	memcpy(buf, s, n + 1);
	free(s);
	return buf;
}

int wl_os_mkdir(const char *path)
{
	wchar_t *w = wl_w32_wide(path);
	if (!w)
		return -1;
	int rc = _wmkdir(w);
	int e = errno;
	free(w);
	errno = e;
	return rc;
}

int wl_os_remove(const char *path)
{
	wchar_t *w = wl_w32_wide(path);
	if (!w)
		return -1;
	DWORD attr = GetFileAttributesW(w);
	int rc = attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_DIRECTORY) ? _wrmdir(w) : _wremove(w);
	int e = errno;
	free(w);
	errno = e;
	return rc;
}

bool wl_os_is_sep(char c)
{
	return c == '/' || c == '\\';
}

size_t wl_os_path_root(const char *p)
{
	bool letter = (p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z');
	if (letter && p[1] == ':')
		return wl_os_is_sep(p[2]) ? 3 : 2;
	if (wl_os_is_sep(p[0]) && wl_os_is_sep(p[1])) {
		/* \\server\share\ (or \\?\C:\ and \\.\device: the same shape) */
		size_t i = 2;
		for (int part = 0; part < 2; part++) {
			while (p[i] && !wl_os_is_sep(p[i]))
				i++;
			if (!p[i])
				return i;
			i++;
		}
		return i;
	}
	return wl_os_is_sep(p[0]) ? 1 : 0;
}

/* -------------------------------------------------------------- folders */

struct wl_os_dir {
	HANDLE h;
	bool first;    /* fd holds an entry not yet given */
	WIN32_FIND_DATAW fd;
	char *name;    /* the last name given, UTF-8 */
};

wl_os_dir *wl_os_opendir(const char *path)
{
	size_t n = strlen(path);
	char *pat = malloc(n + 3);
	if (!pat) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(pat, path, n);
	size_t k = n;
	if (k > 0 && !wl_os_is_sep(pat[k - 1]))
		pat[k++] = '\\';
	pat[k++] = '*';
	pat[k] = 0;
	wchar_t *w = wl_w32_wide(pat);
	free(pat);
	if (!w)
		return NULL;
	wl_os_dir *d = calloc(1, sizeof *d);
	if (!d) {
		free(w);
		errno = ENOMEM;
		return NULL;
	}
	d->h = FindFirstFileExW(w, FindExInfoBasic, &d->fd, FindExSearchNameMatch, NULL, 0);
	DWORD e = GetLastError();
	free(w);
	if (d->h == INVALID_HANDLE_VALUE && e == ERROR_FILE_NOT_FOUND && is_folder(path))
		return d; /* an empty root (C:\ has no "." or ".."): lists nothing */
	if (d->h == INVALID_HANDLE_VALUE) {
		free(d);
		errno = wl_w32_errno(e);
		/* a file given as a folder */
		if (e == ERROR_DIRECTORY || e == ERROR_PATH_NOT_FOUND) {
			struct stat st;
			if (wl_os_stat(path, &st) == 0 && !S_ISDIR(st.st_mode))
				errno = ENOTDIR;
		}
		return NULL;
	}
	d->first = true;
	return d;
}

const char *wl_os_readdir(wl_os_dir *d, int *kind)
{
	if (d->h == INVALID_HANDLE_VALUE)
		return NULL;
	if (!d->first && !FindNextFileW(d->h, &d->fd))
		return NULL;
	d->first = false;
	free(d->name);
	d->name = narrow(d->fd.cFileName);
	if (!d->name)
		return NULL;
	if (kind) {
		DWORD a = d->fd.dwFileAttributes;
		if ((a & FILE_ATTRIBUTE_REPARSE_POINT) &&
		    (d->fd.dwReserved0 == IO_REPARSE_TAG_SYMLINK || d->fd.dwReserved0 == IO_REPARSE_TAG_MOUNT_POINT))
			*kind = WL_OS_DT_LNK;
		else if (a & FILE_ATTRIBUTE_DIRECTORY)
			*kind = WL_OS_DT_DIR;
		else
			*kind = WL_OS_DT_REG;
	}
	return d->name;
}

void wl_os_closedir(wl_os_dir *d)
{
	if (!d)
		return;
	if (d->h != INVALID_HANDLE_VALUE)
		FindClose(d->h);
	free(d->name);
	free(d);
}

/* ----------------------------------------------------------------- text */

/* wl_os_fnmatch: win32_fnmatch.c */

char *wl_os_strndup(const char *s, size_t n)
{
	size_t k = 0;
	while (k < n && s[k])
		k++;
	char *d = malloc(k + 1);
	if (d) {
		memcpy(d, s, k);
		d[k] = 0;
	}
	return d;
}

void wl_os_strerror(int e, char *buf, size_t cap)
{
	if (cap > 0 && strerror_s(buf, cap, e) != 0)
		snprintf(buf, cap, "error %d", e);
}

/* The stream is a file in the user's temporary folder, removed by Windows
 * when closed (FILE_FLAG_DELETE_ON_CLOSE) and kept in memory while it is
 * small (FILE_ATTRIBUTE_TEMPORARY).  Not tmpfile(): msvcrt's makes its
 * file in the root of the current drive, which a user who is not an
 * administrator may not write. */
FILE *wl_os_memstream_open(wl_os_memstream *m)
{
	static volatile LONG seq;
	m->buf = NULL;
	m->len = 0;
	m->f = NULL;
	wchar_t dir[MAX_PATH + 1], name[MAX_PATH + 64];
	DWORD n = GetTempPathW(MAX_PATH + 1, dir);
	if (n == 0 || n > MAX_PATH) {
		errno = ENOENT;
		return NULL;
	}
	for (int tries = 0; tries < 100; tries++) {
		swprintf(name, sizeof name / sizeof name[0], L"%lsw3dlint-%lx-%lx-%lx.tmp", dir,
			 (unsigned long)GetCurrentProcessId(), (unsigned long)InterlockedIncrement(&seq),
			 (unsigned long)GetTickCount());
		HANDLE h = CreateFileW(name, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_NEW,
				       FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, NULL);
		if (h == INVALID_HANDLE_VALUE) {
			DWORD e = GetLastError();
			if (e == ERROR_FILE_EXISTS || e == ERROR_ALREADY_EXISTS)
				continue;
			errno = wl_w32_errno(e);
			return NULL;
		}
		int fd = _open_osfhandle((intptr_t)h, _O_RDWR | _O_BINARY);
		if (fd < 0) {
			CloseHandle(h);
			errno = EMFILE;
			return NULL;
		}
		m->f = _fdopen(fd, "w+b");
		if (!m->f)
			_close(fd);
		return m->f;
	}
	errno = EEXIST;
	return NULL;
}

int wl_os_memstream_close(wl_os_memstream *m, char **buf, size_t *len)
{
	FILE *f = m->f;
	m->f = NULL;
	if (!f)
		return -1;
	/* 64-bit positions: long has 32 bits on Windows */
	long long n = fflush(f) == 0 && !ferror(f) ? _ftelli64(f) : -1;
	char *b = n >= 0 && (unsigned long long)n < SIZE_MAX ? malloc((size_t)n + 1) : NULL;
	bool ok = b && _fseeki64(f, 0, SEEK_SET) == 0 && fread(b, 1, (size_t)n, f) == (size_t)n;
	if (fclose(f) != 0)
		ok = false;
	if (!ok) {
		free(b);
		return -1;
	}
	b[n] = 0;
	*buf = b;
	*len = (size_t)n;
	return 0;
}

/* --------------------------------------------------------------- memory */

void *wl_os_aligned_alloc(size_t align, size_t n)
{
	return _aligned_malloc(n ? n : 1, align ? align : 16);
}

void wl_os_aligned_free(void *p)
{
	_aligned_free(p);
}

void wl_os_advise_huge(void *p, size_t n)
{
	(void)p;
	(void)n;
}

void wl_os_prefault(void *p, size_t n)
{
	(void)p;
	(void)n;
}
