/* parallel.c - the ordered worker pool; see parallel.h. */
#include "parallel.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct slot {
	void *result;
	bool done;
} slot;

typedef struct pool {
	pthread_mutex_t mu;
	pthread_cond_t ready;    /* a slot became done (the emitter waits) */
	pthread_cond_t space;    /* the window moved or the run stopped */
	size_t count, window;
	size_t next;             /* next index to claim */
	size_t emitted;          /* indexes [0, emitted) are emitted */
	bool stop;
	slot *slots;             /* window entries, index % window */
	wl_pool_work_fn work;
	void *ud;
} pool;

unsigned wl_pool_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		return 1;
	return n > WL_POOL_MAX_JOBS ? WL_POOL_MAX_JOBS : (unsigned)n;
}

static void *worker(void *arg)
{
	pool *p = arg;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->stop && p->next < p->count && p->next >= p->emitted + p->window)
			pthread_cond_wait(&p->space, &p->mu);
		if (p->stop || p->next >= p->count)
			break;
		size_t i = p->next++;
		pthread_mutex_unlock(&p->mu);
		void *r = p->work(p->ud, i);
		pthread_mutex_lock(&p->mu);
		slot *s = &p->slots[i % p->window];
		s->result = r;
		s->done = true;
		if (i == p->emitted)
			pthread_cond_signal(&p->ready);
	}
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
	p.ud = ud;
	p.slots = calloc(window, sizeof *p.slots);
	pthread_t *th = calloc(jobs, sizeof *th);
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
	pthread_cond_init(&p.ready, NULL);
	pthread_cond_init(&p.space, NULL);
	unsigned started = 0;
	for (unsigned t = 0; t < jobs; t++) {
		if (pthread_create(&th[started], NULL, worker, &p) == 0)
			started++;
	}
	int rc = 0;
	if (started == 0) {
		rc = run_inline(count, work, emit, ud);
	} else {
		pthread_mutex_lock(&p.mu);
		while (p.emitted < count) {
			slot *s = &p.slots[p.emitted % window];
			while (!s->done)
				pthread_cond_wait(&p.ready, &p.mu);
			void *r = s->result;
			s->result = NULL;
			s->done = false;
			size_t i = p.emitted;
			pthread_mutex_unlock(&p.mu);
			rc = emit(ud, i, r);
			pthread_mutex_lock(&p.mu);
			p.emitted++;
			if (rc != 0)
				p.stop = true;
			pthread_cond_broadcast(&p.space);
			if (rc != 0)
				break;
		}
		pthread_mutex_unlock(&p.mu);
		for (unsigned t = 0; t < started; t++)
			pthread_join(th[t], NULL);
		/* After a stop: results computed but never emitted. */
		for (size_t i = p.emitted; i < p.next; i++) {
			slot *s = &p.slots[i % window];
			if (s->done && discard)
				discard(ud, i, s->result);
		}
	}
	pthread_cond_destroy(&p.ready);
	pthread_cond_destroy(&p.space);
	pthread_mutex_destroy(&p.mu);
	free(p.slots);
	free(th);
	return rc;
}
