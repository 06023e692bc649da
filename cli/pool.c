/* parallel.c - the ordered worker pool; see parallel.h.
 *
 * There is no dedicated emitting thread: the calling thread works like the
 * others, and whichever thread finishes the index next in order emits it
 * and every finished index after it (one emitter at a time, the `emitting`
 * flag).  Threads only sleep when the window is full, so a run over many
 * small files costs no thread wake-up per file. */
#include "pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "core/platform.h"

typedef struct slot {
	void *result;
	bool done;
} slot;

typedef struct pool {
	pthread_mutex_t mu;
	pthread_cond_t space;    /* the window moved or the run stopped */
	size_t count, window;
	size_t next;             /* next index to claim */
	size_t emitted;          /* indexes [0, emitted) are emitted */
	size_t waiting;          /* threads asleep on space */
	bool emitting;           /* a thread is inside the emit loop */
	bool stop;
	int rc;                  /* first nonzero emit result */
	int rc_errno;            /* errno right after that emit */
	slot *slots;             /* window entries, index % window */
	wl_pool_work_fn work;
	wl_pool_emit_fn emit;
	void *ud;
} pool;

unsigned wl_pool_online_cpus(void)
{
	unsigned n = wl_os_cpus();
	return n > WL_POOL_MAX_JOBS ? WL_POOL_MAX_JOBS : n;
}

/* Emits every finished index from p->emitted on, in order.  Called with
 * p->mu held and p->emitting false; returns with p->mu held. */
static void emit_ready(pool *p)
{
	p->emitting = true;
	bool moved = false;
	while (!p->stop && p->emitted < p->count) {
		slot *s = &p->slots[p->emitted % p->window];
		if (!s->done)
			break;
		void *r = s->result;
		s->result = NULL;
		s->done = false;
		size_t i = p->emitted;
		pthread_mutex_unlock(&p->mu);
		errno = 0;
		int rc = p->emit(p->ud, i, r);
		int e = errno;
		pthread_mutex_lock(&p->mu);
		p->emitted++;
		moved = true;
		if (rc != 0) {
			p->stop = true;
			p->rc = rc;
			p->rc_errno = e;
		}
	}
	p->emitting = false;
	if ((moved || p->stop) && p->waiting)
		pthread_cond_broadcast(&p->space);
}

static void *worker(void *arg)
{
	pool *p = arg;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->stop && p->next < p->count && p->next >= p->emitted + p->window) {
			p->waiting++;
			pthread_cond_wait(&p->space, &p->mu);
			p->waiting--;
		}
		if (p->stop || p->next >= p->count)
			break;
		size_t i = p->next++;
		pthread_mutex_unlock(&p->mu);
		void *r = p->work(p->ud, i);
		pthread_mutex_lock(&p->mu);
		slot *s = &p->slots[i % p->window];
		s->result = r;
		s->done = true;
		if (i == p->emitted && !p->emitting)
			emit_ready(p);
	}
	/* The last index may have finished on another thread while this one
	 * was emitting: whoever leaves last empties the buffer. */
	if (!p->emitting)
		emit_ready(p);
	if (p->waiting)
		pthread_cond_broadcast(&p->space);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static int run_inline(size_t count, wl_pool_work_fn work, wl_pool_emit_fn emit, void *ud)
{
	for (size_t i = 0; i < count; i++) {
		int rc = emit(ud, i, work(ud, i));
		if (rc != 0)
			return rc;
	}
	return 0;
}

int wl_pool_run(size_t count, unsigned jobs, size_t window, wl_pool_work_fn work, wl_pool_emit_fn emit,
		wl_pool_discard_fn discard, void *ud)
{
	if (jobs < 1)
		jobs = 1;
	if (jobs > WL_POOL_MAX_JOBS)
		jobs = WL_POOL_MAX_JOBS;
	if (jobs > count)
		jobs = count ? (unsigned)count : 1;
	if (jobs == 1)
		return run_inline(count, work, emit, ud);
	if (window < jobs)
		window = jobs;

	pool p = { 0 };
	p.count = count;
	p.window = window;
	p.work = work;
	p.emit = emit;
	p.ud = ud;
	p.slots = calloc(window, sizeof *p.slots);
	/* The calling thread is one of the jobs. */
	pthread_t *th = calloc(jobs - 1, sizeof *th);
	if (!p.slots || !th) {
		free(p.slots);
		free(th);
		return run_inline(count, work, emit, ud);
	}
	if (pthread_mutex_init(&p.mu, NULL) != 0) {
		free(p.slots);
		free(th);
		return run_inline(count, work, emit, ud);
	}
	pthread_cond_init(&p.space, NULL);
	unsigned started = 0;
	for (unsigned t = 0; t + 1 < jobs; t++) {
		if (pthread_create(&th[started], NULL, worker, &p) == 0)
			started++;
	}
	worker(&p);
	for (unsigned t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	/* Every thread has left: emit what is still finished and in order
	 * (nothing, unless the run stopped), then discard the rest. */
	pthread_mutex_lock(&p.mu);
	if (!p.stop)
		emit_ready(&p);
	pthread_mutex_unlock(&p.mu);
	for (size_t i = p.emitted; i < p.next; i++) {
		slot *s = &p.slots[i % window];
		if (s->done && discard)
			discard(ud, i, s->result);
	}
	pthread_cond_destroy(&p.space);
	pthread_mutex_destroy(&p.mu);
	free(p.slots);
	free(th);
	if (p.rc != 0)
		errno = p.rc_errno;
	return p.rc;
}
