/*
 * parallel.h - an ordered worker pool: runs a function over the indexes
 * 0..count-1 on several POSIX threads (the calling thread is one of them)
 * and hands the results, strictly in index order, to an emit function (a
 * reorder buffer).  w3dlint uses it to read and lint files on every core
 * while the report is written in file order, byte for byte the same as
 * with one job.
 *
 * Memory is bounded: at most `window` indexes are claimed and not yet
 * emitted at any time (a thread waits when index >= next-to-emit + window),
 * so at most `window` results are held.  w3dlint uses window = 16 x jobs.
 *
 * work runs concurrently and must only touch state that is its own or
 * read-only (or locked).  emit runs one call at a time, in index order, on
 * whichever thread finished the next index in order (the calls are ordered
 * by the pool's mutex, so emit may use unlocked state of its own); it must
 * not rely on thread-local state of the calling thread other than errno,
 * which the pool carries back when emit fails.  With jobs == 1 no thread
 * is started: work and emit alternate on the calling thread.
 */
#ifndef WL_PARALLEL_H
#define WL_PARALLEL_H

#include <stddef.h>

/** Computes the result of index (any pointer, NULL allowed). */
typedef void *(*wl_pool_work_fn)(void *ud, size_t index);
/** Consumes the result of index; nonzero stops the run (no more work is
 *  started; results computed but not emitted go to discard). */
typedef int (*wl_pool_emit_fn)(void *ud, size_t index, void *result);
/** Frees a result that will not be emitted (after a stop); may be NULL. */
typedef void (*wl_pool_discard_fn)(void *ud, size_t index, void *result);

/** Upper bound of jobs (threads) the pool starts. */
#define WL_POOL_MAX_JOBS 256

/**
 * Runs work over 0..count-1 on jobs threads (1..WL_POOL_MAX_JOBS; clamped,
 * and to count), emitting in order with at most window (>= 1; values below
 * jobs are raised to jobs) results in flight.  When a thread cannot be
 * started, runs with the threads that could (on the calling thread when
 * none).  Returns 0 when every index was emitted, else the first nonzero
 * value emit returned, with errno as that emit call left it.
 */
int wl_pool_run(size_t count, unsigned jobs, size_t window, wl_pool_work_fn work, wl_pool_emit_fn emit,
		wl_pool_discard_fn discard, void *ud);

/** Number of online processors (sysconf), at least 1. */
unsigned wl_pool_online_cpus(void);

#endif
