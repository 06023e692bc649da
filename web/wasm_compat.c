/* wasm_compat.c - what Emscripten's C library lacks, for the WebAssembly
 * build only (Makefile `web`, docs/web.md; issue 28).
 *
 * Emscripten declares the extended-attribute calls (<sys/xattr.h>) but does
 * not define them.  Its file systems (MEMFS in the browser, the host's through
 * NODERAWFS under node) keep no extended attributes, so each call fails with
 * ENOTSUP, the answer Linux gives on a file system without them:
 * core/safe_write.c then copies none (listxattr < 0: nothing to copy).
 * Linked into the library only by the WebAssembly build (PLATFORM_SRC). */
#include <errno.h>
#include <sys/types.h>
#include <sys/xattr.h>

ssize_t listxattr(const char *path, char *list, size_t size)
{
	(void)path, (void)list, (void)size;
	errno = ENOTSUP;
	return -1;
}

ssize_t getxattr(const char *path, const char *name, void *value, size_t size)
{
	(void)path, (void)name, (void)value, (void)size;
	errno = ENOTSUP;
	return -1;
}

int fsetxattr(int fd, const char *name, const void *value, size_t size, int flags)
{
	(void)fd, (void)name, (void)value, (void)size, (void)flags;
	errno = ENOTSUP;
	return -1;
}
