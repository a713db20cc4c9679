/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <pthread.h>
#include <string.h>

#include "lab/fanout.h"

struct pool {
	pthread_mutex_t	 lock;
	size_t		 next;		/* the next item to hand out */
	size_t		 n;
	lab_fanout_fn	 work;
	lab_fanout_fn	 done;
	void		*arg;
};

static void *
worker(void *p)
{
	struct pool	*pool = p;
	size_t		 i;

	for (;;) {
		pthread_mutex_lock(&pool->lock);
		i = pool->next < pool->n ? pool->next++ : pool->n;
		pthread_mutex_unlock(&pool->lock);
		if (i == pool->n)
			return NULL;
		pool->work(i, pool->arg);
		if (pool->done != NULL) {
			pthread_mutex_lock(&pool->lock);
			pool->done(i, pool->arg);
			pthread_mutex_unlock(&pool->lock);
		}
	}
}

/* Runs work over n items on at most max_parallel threads. */
int
lab_fanout_run(size_t n, size_t max_parallel, lab_fanout_fn work,
    lab_fanout_fn done, void *arg, struct lab_err *err)
{
	pthread_t	 tid[LAB_FANOUT_MAX];
	pthread_attr_t	 attr;
	struct pool	 pool;
	size_t		 nthreads, started = 0, i;

	if (n == 0)
		return 0;
	if (max_parallel == 0)
		max_parallel = LAB_FANOUT_DEFAULT;
	if (max_parallel > LAB_FANOUT_MAX)
		max_parallel = LAB_FANOUT_MAX;
	nthreads = n < max_parallel ? n : max_parallel;
	memset(&pool, 0, sizeof(pool));
	pthread_mutex_init(&pool.lock, NULL);
	pool.n = n;
	pool.work = work;
	pool.done = done;
	pool.arg = arg;
	if (nthreads == 1) {
		/* no thread needed: the caller's own does the work */
		worker(&pool);
		pthread_mutex_destroy(&pool.lock);
		return 0;
	}
	pthread_attr_init(&attr);
	/* protocol work needs little stack; 512 KiB keeps 1024 threads cheap */
	pthread_attr_setstacksize(&attr, (size_t)512 * 1024);
	for (i = 0; i < nthreads; i++) {
		if (pthread_create(&tid[i], &attr, worker, &pool) != 0)
			break;
		started++;
	}
	pthread_attr_destroy(&attr);
	if (started == 0) {
		pthread_mutex_destroy(&pool.lock);
		return lab_err_set(err, LAB_EXIT_ENV, "cannot start a thread");
	}
	/* fewer threads than asked still finish every item */
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	pthread_mutex_destroy(&pool.lock);
	return 0;
}
