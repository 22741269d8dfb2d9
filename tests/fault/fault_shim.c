/* LD_PRELOAD fault injection for the durability tests (tests/e2e/fault_injection_test.cpp).
 * Environment:
 *   RAYDB_FAULT_OP=write|fsync|rename  RAYDB_FAULT_NTH=N   the Nth call (1-based, counted
 *       over the process) of that function fails with RAYDB_FAULT_ERRNO (EIO default,
 *       or ENOSPC); later calls succeed, as after a transient error.
 *   RAYDB_FAULT_SPACE=BYTES   a full filesystem: writes to regular files succeed until
 *       BYTES bytes in all were written, then write what fits and fail with ENOSPC.
 * Only regular files count, so stdout and stderr (the error message) still work.
 * Mounting a small tmpfs would need root; this shim needs nothing. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static atomic_long calls;
static atomic_long space_used;

static int is_regular(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

/* 1 when this call of `op` is the one to fail. */
static int should_fail(const char* op) {
  const char* want = getenv("RAYDB_FAULT_OP");
  const char* nth = getenv("RAYDB_FAULT_NTH");
  if (!want || !nth || strcmp(want, op) != 0) return 0;
  return atomic_fetch_add(&calls, 1) + 1 == atol(nth);
}

static int fault_errno(void) {
  const char* e = getenv("RAYDB_FAULT_ERRNO");
  return e && strcmp(e, "ENOSPC") == 0 ? ENOSPC : EIO;
}

ssize_t write(int fd, const void* buf, size_t count) {
  static ssize_t (*real)(int, const void*, size_t);
  if (!real) real = (ssize_t(*)(int, const void*, size_t))dlsym(RTLD_NEXT, "write");
  if (!is_regular(fd)) return real(fd, buf, count);
  if (should_fail("write")) {
    errno = fault_errno();
    return -1;
  }
  const char* space = getenv("RAYDB_FAULT_SPACE");
  if (!space) atomic_fetch_add(&space_used, (long)count);
  if (space) {
    long limit = atol(space);
    long before = atomic_fetch_add(&space_used, (long)count);
    if (before + (long)count > limit) {
      long fits = limit - before;
      if (fits <= 0) {
        atomic_fetch_sub(&space_used, (long)count);
        errno = ENOSPC;
        return -1;
      }
      atomic_fetch_sub(&space_used, (long)count - fits);
      count = (size_t)fits; /* a partial write, then ENOSPC on the next call */
    }
  }
  return real(fd, buf, count);
}

int fsync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  if (should_fail("fsync")) {
    errno = fault_errno();
    return -1;
  }
  return real(fd);
}

int rename(const char* from, const char* to) {
  static int (*real)(const char*, const char*);
  if (!real) real = (int (*)(const char*, const char*))dlsym(RTLD_NEXT, "rename");
  if (should_fail("rename")) {
    errno = fault_errno();
    return -1;
  }
  return real(from, to);
}

/* RAYDB_FAULT_REPORT=PATH: at exit, write "CALLS BYTES" (calls of RAYDB_FAULT_OP,
 * bytes written to regular files), so a test learns how many calls it can fail. */
__attribute__((destructor)) static void report(void) {
  const char* path = getenv("RAYDB_FAULT_REPORT");
  if (!path) return;
  FILE* f = fopen(path, "w");
  if (!f) return;
  fprintf(f, "%ld %ld\n", atomic_load(&calls), atomic_load(&space_used));
  fclose(f);
}
