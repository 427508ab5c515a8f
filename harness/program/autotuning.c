#include <stdlib.h>
#include <string.h>

#include "autotuning.h"

bool autotuning_is_flush(const char *kernel)
{
    return strstr(kernel, "FillFunctor<int>") != NULL;
}

/* The end of the run of flush-and-candidate pairs that starts at i (i itself where none does): the candidate is the
 * launch after the first flush, and every pair has that candidate. */
static size_t pairs_end(const char *const *kernels, const bool *flush, size_t n, size_t i, size_t *pairs)
{
    size_t j = i;
    *pairs = 0;
    while (j + 1 < n && flush[j] && !flush[j + 1] && strcmp(kernels[j + 1], kernels[i + 1]) == 0) {
        j += 2;
        ++*pairs;
    }
    return j;
}

/* Marks [start, end) and what straight before it is the autotuner's: flushes (Inductor's memory warm-up), back to a
 * launch marked already, then one untimed run of the candidate (both autotuners' first call). One only: a program
 * that calls an autotuned kernel and then calls it with a new key, which the autotuner times anew, launches it just
 * before that first call. */
static void mark_timing(const char *const *kernels, const bool *flush, size_t start, size_t end, bool *autotuning)
{
    const char *candidate = kernels[start + 1];
    while (start > 0 && !autotuning[start - 1] && flush[start - 1])
        --start;
    if (start > 0 && !autotuning[start - 1] && !flush[start - 1] && strcmp(kernels[start - 1], candidate) == 0)
        --start;
    for (size_t i = start; i < end; ++i)
        autotuning[i] = true;
}

/* After do_bench's five estimating runs (end: past them), its untimed warm-up runs of the candidate and then its
 * timed runs, however few (a candidate slower than 20 ms gets fewer than five): the end of those, or end. */
static size_t after_estimate(const char *const *kernels, const bool *flush, size_t n, size_t end)
{
    const char *candidate = kernels[end - 1];
    size_t bare = end, pairs;
    while (bare < n && !flush[bare] && strcmp(kernels[bare], candidate) == 0)
        ++bare;
    if (bare == end || bare + 1 >= n || !flush[bare] || strcmp(kernels[bare + 1], candidate) != 0)
        return end;
    return pairs_end(kernels, flush, n, bare, &pairs);
}

int autotuning_mark(const char *const *kernels, size_t n, bool *autotuning)
{
    bool *flush = malloc(n + 1);
    if (!flush)
        return -1;
    for (size_t i = 0; i < n; ++i) {
        flush[i] = autotuning_is_flush(kernels[i]);
        autotuning[i] = false;
    }
    for (size_t i = 0; i + 1 < n;) {
        size_t pairs, end = pairs_end(kernels, flush, n, i, &pairs);
        if (pairs >= AUTOTUNING_LEAST_PAIRS)
            mark_timing(kernels, flush, i, end, autotuning);
        if (pairs == AUTOTUNING_LEAST_PAIRS) { /* an estimate: do_bench's warm-up and timed runs may follow */
            size_t timed = after_estimate(kernels, flush, n, end);
            for (size_t t = end; t < timed; ++t)
                autotuning[t] = true;
            end = timed;
        }
        i = pairs ? end : i + 1;
    }
    free(flush);
    return 0;
}
