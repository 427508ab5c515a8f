#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../profile/metric_catalog.h"
#include "compare.h"

static int find_pair(const struct comparison *c, const char *variant, int width)
{
    for (int i = 0; i < c->pairs; ++i)
        if (strcmp(c->pair[i].variant, variant) == 0 && c->pair[i].width == width)
            return i;
    return -1;
}

/* The pairs in the base's order, then those only the head has. */
static int list_pairs(const struct results_folder *base, const struct results_folder *head, struct comparison *c,
                      struct error *e)
{
    const struct results_folder *sides[2] = {base, head};
    for (int s = 0; s < 2; ++s)
        for (int row = 0; row < sides[s]->summary.rows; ++row) {
            const char *variant = csv_table_text(&sides[s]->summary, row, sides[s]->col_variant);
            int width = sides[s]->summary_width[row];
            if (find_pair(c, variant, width) >= 0)
                continue;
            if (c->pairs == COMPARE_MAX_PAIRS)
                return error_set(e, EXIT_USAGE, "more than %d variant x width pairs", COMPARE_MAX_PAIRS);
            /* Cut short, two jobs that differ only at their end (their ordinal) would pair as one. */
            if (strlen(variant) >= sizeof c->pair[0].variant)
                return error_set(e, EXIT_USAGE, "%s:%d: a name of %zu characters, longer than the %zu compared",
                                 sides[s]->summary.path, sides[s]->summary.line[row], strlen(variant),
                                 sizeof c->pair[0].variant - 1);
            struct compared_pair *p = &c->pair[c->pairs++];
            snprintf(p->variant, sizeof p->variant, "%s", variant);
            snprintf(p->precision, sizeof p->precision, "%s",
                     csv_table_text(&sides[s]->summary, row, sides[s]->col_precision));
            p->width = width;
            int in_base = results_summary_row(base, variant, width) >= 0;
            int in_head = results_summary_row(head, variant, width) >= 0;
            p->state = !in_head ? PAIR_ONLY_BASE : !in_base ? PAIR_ONLY_HEAD : PAIR_COMPARED;
        }
    return 0;
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
    m->width = p->width;
    m->base = base;
    m->head = head;
    m->kind = kind;
    return 0;
}

static int compare_metrics(const struct results_folder *base, const struct results_folder *head,
                           const struct compare_options *o, struct comparison *c, struct error *e)
{
    const char *exact[COLLECTED_METRIC_COUNT + DERIVED_METRIC_COUNT];
    int n_exact = deterministic_metrics(exact, COLLECTED_METRIC_COUNT + DERIVED_METRIC_COUNT);
    const char *dram_gbs = DERIVED(DRAM_GBS);
    for (int i = 0; i < c->pairs && !e->code; ++i) {
        const struct compared_pair *p = &c->pair[i];
        double x, y;
        if (p->state != PAIR_COMPARED)
            continue;
        /* Counts fixed by the code and the size alone: more of any of them is more work, a regression. A count
         * missing from either side is not compared (older runs have the hardware global counts instead). */
        for (int m = 0; m < n_exact && !e->code; ++m) {
            if (results_metric_sum(base, p->variant, p->width, exact[m], &x, e) ||
                results_metric_sum(head, p->variant, p->width, exact[m], &y, e) || isnan(x) ||
                isnan(y) || x == y)
                continue;
            add_change(c, p, exact[m], x, y, y > x ? METRIC_REGRESSION : METRIC_IMPROVEMENT, e);
        }
        if (!e->code && !results_metric_sum(base, p->variant, p->width, dram_gbs, &x, e) &&
            !results_metric_sum(head, p->variant, p->width, dram_gbs, &y, e) && x > 0 &&
            fabs(y / x - 1) > o->dram_tolerance)
            add_change(c, p, dram_gbs, x, y, METRIC_DRAM_CHANGE, e);
    }
    return e->code;
}

int compare_run(const struct compare_side *base, const struct compare_side *head, const struct compare_options *o,
                struct comparison *c, struct error *e)
{
    memset(c, 0, sizeof *c);
    if (compare_sides_match(base, head, o->force, e) || list_pairs(&base->round[0], &head->round[0], c, e))
        return e->code;
    for (int i = 0; i < c->pairs && !e->code; ++i)
        compare_pair(base, head, o, &c->pair[i], e);
    const struct results_folder *base_metrics = compare_side_metrics(base), *head_metrics = compare_side_metrics(head);
    if (!e->code && base_metrics && head_metrics) {
        c->metrics_compared = 1;
        compare_metrics(base_metrics, head_metrics, o, c, e);
    }
    return e->code;
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
