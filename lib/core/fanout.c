/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <pthread.h>
#include <stdlib.h>
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

/* max_parallel as runs use it: 0 the default, never over the maximum. */
static size_t
width(size_t max_parallel)
{
	if (max_parallel == 0)
		return LAB_FANOUT_DEFAULT;
	return max_parallel > LAB_FANOUT_MAX ? LAB_FANOUT_MAX : max_parallel;
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
	max_parallel = width(max_parallel);
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

/* Result i. */
static void *
job_res(const struct lab_fanout_job *job, size_t i)
{
	return (char *)job->res + i * job->size;
}

/* The name in result i. */
static char **
job_name(const struct lab_fanout_job *job, size_t i)
{
	return (char **)((char *)job_res(job, i) + job->name_off);
}

/* The job and, after a batch, the targets it left (i: the k-th of them). */
struct rest {
	struct lab_fanout_job	*job;
	size_t			*left;
};

static void
job_work(size_t k, void *arg)
{
	struct rest		*rest = arg;
	struct lab_fanout_job	*job = rest->job;
	size_t			 i = rest->left[k];

	job->work(job->arg, job->items[i], job_res(job, i));
}

/* Counts a finished target and tells the progress callback. */
static void
job_count(struct lab_fanout_job *job, size_t i)
{
	job->finished++;
	if (job->ctx == NULL)
		return;
	if (job->ctx->finished != NULL)
		job->ctx->finished(job->ctx->finished_arg, i, job_res(job, i));
	if (job->ctx->progress != NULL)
		job->ctx->progress(job->ctx->progress_arg, *job_name(job, i),
		    job->finished, job->n);
}

static void
job_done(size_t k, void *arg)
{
	struct rest	*rest = arg;

	job_count(rest->job, rest->left[k]);
}

const void *
lab_fanout_job_item(const struct lab_fanout_job *job, size_t i)
{
	return job->items[i];
}

void *
lab_fanout_job_res(const struct lab_fanout_job *job, size_t i)
{
	return job_res(job, i);
}

void
lab_fanout_job_done(struct lab_fanout_job *job, size_t i)
{
	if (job->done[i])
		return;
	job->done[i] = 1;
	job_count(job, i);
}

/*
 * Finds the targets, allocates their results, each with its name, and
 * runs work over them.
 */
int
lab_fanout_job_run(struct lab_fanout_job *job, const struct lab_strv *names,
    lab_fanout_find_fn find, const void *from, size_t max_parallel,
    struct lab_err *err)
{
	struct rest	 rest = { job, NULL };
	size_t		 i, nleft = 0;
	int		 rc = -1;

	job->n = names->n;
	job->finished = 0;
	job->items = calloc(names->n + 1, sizeof(*job->items));
	job->res = calloc(names->n + 1, job->size);
	job->done = calloc(names->n + 1, 1);
	rest.left = calloc(names->n + 1, sizeof(*rest.left));
	if (job->items == NULL || job->res == NULL || job->done == NULL ||
	    rest.left == NULL) {
		lab_err_oom(err);
		goto out;
	}
	for (i = 0; i < names->n; i++) {
		if ((job->items[i] = find(from, names->v[i], err)) == NULL)
			goto out;
		if ((*job_name(job, i) = strdup(names->v[i])) == NULL) {
			lab_err_oom(err);
			goto out;
		}
	}
	if (job->batch != NULL)
		job->batch(job->arg, job, width(max_parallel));
	for (i = 0; i < names->n; i++)
		if (!job->done[i])
			rest.left[nleft++] = i;
	rc = lab_fanout_run(nleft, max_parallel, job_work,
	    job->ctx != NULL ? job_done : NULL, &rest, err);
out:
	/* on error no work ran: the results hold their names only */
	for (i = 0; rc == -1 && job->res != NULL && i < names->n; i++)
		free(*job_name(job, i));
	if (rc == -1) {
		free(job->res);
		job->res = NULL;
	}
	free(job->items);
	job->items = NULL;
	free(job->done);
	job->done = NULL;
	free(rest.left);
	return rc;
}
