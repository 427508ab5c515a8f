#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../csv/name_index.h"
#include "../profile/metric_catalog.h"
#include "../program/labels.h"
#include "compare.h"

/* One side's units in its order: a run's variants at each width, a program's kernels, the busiest first. */
struct unit {
    const char *name, *precision;
    int width;
};

static int unit_count(const struct compare_side *side)
{
    return side->program ? (int)side->kernels[0].n : side->round[0].summary.rows;
}

static struct unit unit_at(const struct compare_side *side, int i)
{
    const struct results_folder *r = &side->round[0];
    if (side->program)
        return (struct unit){side->kernels[0].at[i].key, PROGRAM_PRECISION, 0};
    return (struct unit){csv_table_text(&r->summary, i, r->col_variant), csv_table_text(&r->summary, i, r->col_precision),
                         r->summary_width[i]};
}

static bool has_unit(const struct compare_side *side, const struct unit *u)
{
    return side->program ? program_kernels_find(&side->kernels[0], u->name) != NULL
                         : results_summary_row(&side->round[0], u->name, u->width) >= 0;
}

/* The pair's label: a program's kernel by its shortened name, as the report names it. */
static void label_pair(const struct compare_side *side, struct compared_pair *p)
{
    const struct program_kernel *k = side->program ? program_kernels_find(&side->kernels[0], p->variant) : NULL;
    if (k)
        program_kernel_name(&side->kernels[0], k, p->label, sizeof p->label);
    else
        snprintf(p->label, sizeof p->label, "%s", p->variant);
}

static int add_pair(const struct compare_side *side, const struct compare_side *base, const struct compare_side *head,
                    const struct unit *u, struct comparison *c, struct error *e)
{
    /* Cut short, two jobs that differ only at their end (their ordinal) would pair as one. */
    if (strlen(u->name) >= sizeof c->pair[0].variant)
        return error_set(e, EXIT_USAGE, "%s: a name of %zu characters, longer than the %zu compared: %.80s...",
                         side->round[0].dir, strlen(u->name), sizeof c->pair[0].variant - 1, u->name);
    if (grow_for_one_more((void **)&c->pair, (size_t)c->pairs, sizeof *c->pair) != 0)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    struct compared_pair *p = &c->pair[c->pairs++];
    memset(p, 0, sizeof *p);
    snprintf(p->variant, sizeof p->variant, "%s", u->name);
    snprintf(p->precision, sizeof p->precision, "%s", u->precision);
    p->width = u->width;
    label_pair(side, p);
    p->state = !has_unit(head, u) ? PAIR_ONLY_BASE : !has_unit(base, u) ? PAIR_ONLY_HEAD : PAIR_COMPARED;
    return 0;
}

/* The pairs in the base's order, then those only the head has. */
static int list_pairs(const struct compare_side *base, const struct compare_side *head, struct comparison *c,
                      struct error *e)
{
    const struct compare_side *sides[2] = {base, head};
    struct name_index seen;
    if (name_index_init(&seen, (size_t)unit_count(base) + (size_t)unit_count(head)) != 0)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    for (int s = 0; s < 2 && !e->code; ++s)
        for (int i = 0; i < unit_count(sides[s]) && !e->code; ++i) {
            struct unit u = unit_at(sides[s], i);
            int added = name_index_add(&seen, u.name, u.width, c->pairs);
            if (added < -1)
                error_set(e, EXIT_RUNTIME, "out of memory");
            else if (added == c->pairs)
                add_pair(sides[s], base, head, &u, c, e);
        }
    name_index_free(&seen);
    return e->code;
}

/* A variant that fails its check in any round of a side is not timed there. */
static int failed_in(const struct compare_side *side, const char *variant, int width)
{
    for (int i = 0; i < side->rounds; ++i) {
        int row = results_summary_row(&side->round[i], variant, width);
        if (row >= 0 && !results_row_ok(&side->round[i], row))
            return 1;
    }
    return 0;
}

/* Who disturbed the timing of variant at width in the first round of a side where another process did; NULL
 * when none was seen. */
static const char *disturbed_in(const struct compare_side *side, const char *variant, int width)
{
    for (int i = 0; i < side->rounds; ++i) {
        int row = results_summary_row(&side->round[i], variant, width);
        if (row >= 0 && results_disturbed(&side->round[i], row))
            return results_other_gpu_work(&side->round[i], row);
    }
    return NULL;
}

/* A timing another process shared the GPU with measures that process too: no SLOWER or FASTER on it. */
static void refuse_disturbed(const struct compare_side *base, const struct compare_side *head,
                             struct compared_pair *p)
{
    const char *in_base = disturbed_in(base, p->variant, p->width), *in_head = disturbed_in(head, p->variant, p->width);
    if (!in_base && !in_head)
        return;
    p->timing.verdict = VERDICT_UNSURE;
    snprintf(p->timing.reason, sizeof p->timing.reason, "timed while another process used the GPU (%s: %s)",
             in_head ? "head" : "base", in_head ? in_head : in_base);
}

static int compare_pair(const struct compare_side *base, const struct compare_side *head,
                        const struct compare_options *o, struct compared_pair *p, struct error *e)
{
    if (p->state != PAIR_COMPARED)
        return 0;
    if (failed_in(head, p->variant, p->width)) {
        p->state = PAIR_HEAD_FAILED;
        return 0;
    }
    if (failed_in(base, p->variant, p->width)) {
        p->state = PAIR_BASE_FAILED;
        return 0;
    }
    double *a = NULL, *b = NULL;
    int na, nb, failed = compare_side_samples(base, p->variant, p->width, &a, &na) ||
                         compare_side_samples(head, p->variant, p->width, &b, &nb) ||
                         compare_timings(a, na, b, nb, &o->rules, &p->timing);
    if (!failed)
        refuse_disturbed(base, head, p);
    free(a);
    free(b);
    return failed ? error_set(e, EXIT_RUNTIME, "out of memory") : 0;
}

static int add_change(struct comparison *c, const struct compared_pair *p, const char *metric, double base,
                      double head, enum metric_change_kind kind, struct error *e)
{
    if (c->changes == COMPARE_MAX_METRIC_CHANGES)
        return error_set(e, EXIT_USAGE, "more than %d metric changes", COMPARE_MAX_METRIC_CHANGES);
    struct metric_change *m = &c->change[c->changes++];
    snprintf(m->variant, sizeof m->variant, "%s", p->variant);
    snprintf(m->metric, sizeof m->metric, "%s", metric);
    m->pair = (int)(p - c->pair);
    m->width = p->width;
    m->base = base;
    m->head = head;
    m->kind = kind;
    return 0;
}

/* The metrics of a pair's unit: a run's variant, or the job that stands for a program's kernel in each side, the same
 * launch (its job's name) or none: two launches of one kernel may do different work. */
static bool metrics_jobs(const struct compare_side *base, int base_round, const struct compare_side *head,
                         int head_round, const struct compared_pair *p, const char **base_job, const char **head_job)
{
    *base_job = compare_side_metrics_job(base, base_round, p->variant);
    *head_job = compare_side_metrics_job(head, head_round, p->variant);
    return *base_job && *head_job && strcmp(*base_job, *head_job) == 0;
}

static int compare_metrics(const struct compare_side *base, int base_round, const struct compare_side *head,
                           int head_round, const struct compare_options *o, struct comparison *c, struct error *e)
{
    const char *exact[COLLECTED_METRIC_COUNT + DERIVED_METRIC_COUNT];
    int n_exact = deterministic_metrics(exact, COLLECTED_METRIC_COUNT + DERIVED_METRIC_COUNT);
    const char *dram_gbs = DERIVED(DRAM_GBS), *x_job, *y_job;
    const struct results_folder *x_side = &base->round[base_round], *y_side = &head->round[head_round];
    for (int i = 0; i < c->pairs && !e->code; ++i) {
        const struct compared_pair *p = &c->pair[i];
        double x, y;
        if (p->state != PAIR_COMPARED || !metrics_jobs(base, base_round, head, head_round, p, &x_job, &y_job))
            continue;
        /* Counts fixed by the code and the size alone: more of any of them is more work, a regression. A count
         * missing from either side is not compared (older runs have the hardware global counts instead). */
        for (int m = 0; m < n_exact && !e->code; ++m) {
            if (results_metric_sum(x_side, x_job, p->width, exact[m], &x, e) ||
                results_metric_sum(y_side, y_job, p->width, exact[m], &y, e) || isnan(x) || isnan(y) || x == y)
                continue;
            add_change(c, p, exact[m], x, y, y > x ? METRIC_REGRESSION : METRIC_IMPROVEMENT, e);
        }
        if (!e->code && !results_metric_sum(x_side, x_job, p->width, dram_gbs, &x, e) &&
            !results_metric_sum(y_side, y_job, p->width, dram_gbs, &y, e) && x > 0 &&
            fabs(y / x - 1) > o->dram_tolerance)
            add_change(c, p, dram_gbs, x, y, METRIC_DRAM_CHANGE, e);
    }
    return e->code;
}

int compare_run(const struct compare_side *base, const struct compare_side *head, const struct compare_options *o,
                struct comparison *c, struct error *e)
{
    memset(c, 0, sizeof *c);
    if (compare_sides_match(base, head, o->force, e) || list_pairs(base, head, c, e))
        return e->code;
    for (int i = 0; i < c->pairs && !e->code; ++i)
        compare_pair(base, head, o, &c->pair[i], e);
    int base_metrics = compare_side_metrics(base), head_metrics = compare_side_metrics(head);
    if (!e->code && base_metrics >= 0 && head_metrics >= 0) {
        c->metrics_compared = 1;
        compare_metrics(base, base_metrics, head, head_metrics, o, c, e);
    }
    return e->code;
}

void comparison_free(struct comparison *c)
{
    free(c->pair);
    c->pair = NULL;
    c->pairs = 0;
}

double comparison_geomean_ratio(const struct comparison *c)
{
    double log_sum = 0;
    int n = 0;
    for (int i = 0; i < c->pairs; ++i) {
        const struct timing_comparison *t = &c->pair[i].timing;
        if (c->pair[i].state == PAIR_COMPARED && t->base_median > 0 && t->head_median > 0) {
            log_sum += log(t->head_median / t->base_median);
            ++n;
        }
    }
    return n ? exp(log_sum / n) : NAN;
}

int comparison_exit_code(const struct comparison *c, const struct compare_options *o)
{
    for (int i = 0; i < c->pairs; ++i)
        if (c->pair[i].state == PAIR_HEAD_FAILED ||
            (c->pair[i].state == PAIR_COMPARED && c->pair[i].timing.verdict == VERDICT_SLOWER))
            return 1;
    for (int i = 0; i < c->changes && !o->ignore_metrics; ++i)
        if (c->change[i].kind == METRIC_REGRESSION)
            return 1;
    return 0;
}
