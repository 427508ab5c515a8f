#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "parallel.h"

struct span {
    span_body body;
    void *context;
    size_t begin, end;
};

static void *run_span(void *arg)
{
    const struct span *s = arg;
    s->body(s->context, s->begin, s->end);
    return NULL;
}

void parallel_spans(size_t units, size_t unit_elements, span_body body, void *context)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t threads = cores < 1 ? 1 : cores > PARALLEL_MAX_THREADS ? PARALLEL_MAX_THREADS : (size_t)cores;
    if (units * unit_elements < PARALLEL_MIN_ELEMENTS)
        threads = 1;
    else if (threads > units)
        threads = units;
    struct span spans[PARALLEL_MAX_THREADS];
    pthread_t ids[PARALLEL_MAX_THREADS];
    bool started[PARALLEL_MAX_THREADS] = {false};
    for (size_t t = 0; t < threads; ++t) {
        spans[t] = (struct span){body, context, units * t / threads, units * (t + 1) / threads};
        started[t] = t > 0 && pthread_create(&ids[t], NULL, run_span, &spans[t]) == 0;
    }
    for (size_t t = 0; t < threads; ++t)
        if (!started[t])
            run_span(&spans[t]);
    for (size_t t = 1; t < threads; ++t)
        if (started[t])
            pthread_join(ids[t], NULL);
}

static void zero_span(void *context, size_t begin, size_t end)
{
    double *x = context;
    memset(x + begin, 0, (end - begin) * sizeof *x);
}

void parallel_zero(double *x, size_t count)
{
    parallel_spans(count, 1, zero_span, x);
}
