#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "summed_counts.h"

static const struct {
    enum collected_metric id;
    enum sass_metric marks, summed;
    const char *unit;
} summed[] = {
#define SUMMED_ROW(id, marks, summed, unit) {METRIC_##id, marks, summed, unit},
    SUMMED_COUNTS(SUMMED_ROW)
#undef SUMMED_ROW
};
#define SUMMED_COUNT (int)(sizeof summed / sizeof summed[0])
_Static_assert(sizeof summed / sizeof summed[0] <= MAX_SUMMED, "a set lists every count it leaves out");

/* The table's row of a metric name; -1 for a name not in it. */
static int summed_row(const char *name)
{
    for (int s = 0; s < SUMMED_COUNT; ++s)
        if (strcmp(name, collected_metric_name(summed[s].id)) == 0)
            return s;
    return -1;
}

bool summed_counts_known(const char *name)
{
    return summed_row(name) >= 0;
}

int summed_counts_leave_out(struct metric_set *set)
{
    int kept = 0;
    set->n_summed = 0;
    if (!set->source)
        return 0;
    for (int i = 0; i < set->n; ++i)
        kept += summed_row(set->names[i]) < 0;
    if (kept == 0 || kept == set->n)
        return 0;
    kept = 0;
    for (int i = 0; i < set->n; ++i) {
        int row = summed_row(set->names[i]);
        if (row >= 0)
            set->summed[set->n_summed++] = collected_metric_name(summed[row].id);
        else
            memmove(set->names[kept++], set->names[i], METRIC_NAME_LEN);
    }
    set->n = kept;
    return set->n_summed;
}

/* The sum of a counter over the instructions of the kernel named so (demangled), NAN where it has none. Instructions
 * come grouped by function: each function's name is demangled once. */
static double kernel_sum(const struct source_call *call, const char *kernel, enum sass_metric marks,
                         enum sass_metric what)
{
    double sum = 0.0;
    bool found = false, matches = false;
    for (size_t i = 0; i < call->n; ++i) {
        const struct source_instruction *in = &call->instructions[i];
        if (i == 0 || strcmp(in->function, call->instructions[i - 1].function) != 0) {
            char name[PROF_KERNEL_NAME_LEN];
            prof_demangle(in->function, name, sizeof name);
            matches = strcmp(name, kernel) == 0;
            found = found || matches;
        }
        if (matches && in->values[marks] > 0)
            sum += (double)in->values[what];
    }
    return found ? sum : NAN;
}

/* Whether another kernel of the profile has kernel k's name: their instructions could not be told apart. */
static bool name_shared(const struct profile *p, int k)
{
    for (int j = 0; j < p->n_kernels; ++j)
        if (j != k && strcmp(p->kernels[j].kernel, p->kernels[k].kernel) == 0)
            return true;
    return false;
}

static bool has_metric(const struct profile *p, const char *name)
{
    for (int i = 0; i < p->n_metrics; ++i)
        if (strcmp(p->names[i], name) == 0)
            return true;
    return false;
}

int summed_counts_add(struct profile *p, const struct source_call *call, const char *const *names, int n,
                      struct error *e)
{
    for (int i = 0; i < n && p->n_kernels > 0; ++i) {
        int row = summed_row(names[i]);
        if (row < 0)
            return error_set(e, EXIT_USAGE, "%s is not a count the source group sums", names[i]);
        const char *name = collected_metric_name(summed[row].id);
        if (has_metric(p, name))
            continue;
        if (p->n_metrics == MAX_METRICS)
            return error_set(e, EXIT_RUNTIME, "no room for %s beside %d metrics", name, MAX_METRICS);
        int m = p->n_metrics++;
        p->names[m] = name;
        snprintf(p->units[m], METRIC_UNIT_LEN, "%s", summed[row].unit);
        for (int k = 0; k < p->n_kernels; ++k)
            p->kernels[k].values[m] =
                name_shared(p, k) ? NAN : kernel_sum(call, p->kernels[k].kernel, summed[row].marks, summed[row].summed);
    }
    return 0;
}
