#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/stats.h"
#include "../csv/name_index.h"
#include "../profile/metric_catalog.h"
#include "../program/labels.h"
#include "../results/schema.h"
#include "compare.h"
#include "round_noise.h"

/* One side's units in its order: a run's variants at each shape, a program's kernels (0 x 0 x 0), the busiest
 * first; a kernel only an autotuner launched is none (program/kernels.h). */
struct unit {
    const char *name, *precision;
    struct product_shape shape;
};

static int unit_count(const struct compare_side *side)
{
    return side->program ? (int)side->kernels[0].with_launches : side->round[0].summary.rows;
}

static struct unit unit_at(const struct compare_side *side, int i)
{
    const struct results_folder *r = &side->round[0];
    if (side->program)
        return (struct unit){side->kernels[0].at[i].key, PROGRAM_PRECISION, PRODUCT_SHAPE_NONE};
    return (struct unit){csv_table_text(&r->summary, i, r->col_variant), csv_table_text(&r->summary, i, r->col_precision),
                         r->summary_shape[i]};
}

static bool has_unit(const struct compare_side *side, const struct unit *u)
{
    const struct program_kernel *k = side->program ? program_kernels_find(&side->kernels[0], u->name) : NULL;
    return side->program ? k && k->launches > 0
                         : results_summary_row(&side->round[0], u->name, u->shape) >= 0;
}

/* The pair's label: a program's kernel by its shortened name, as the report names it. */
static void label_pair(const struct compare_side *side, struct compared_pair *p)
{
    const struct program_kernel *k = side->program ? program_kernels_find(&side->kernels[0], p->variant) : NULL;
    if (k)
        program_kernel_name(&side->kernels[0], k, KERNEL_LABEL_MAX, p->label, sizeof p->label);
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
    p->shape = u->shape;
    label_pair(side, p);
    p->state = !has_unit(head, u) ? PAIR_ONLY_BASE : !has_unit(base, u) ? PAIR_ONLY_HEAD : PAIR_COMPARED;
    return 0;
}

/* The shapes both sides hold, each once: the index of the units seen keys a unit by its name and a number, its
 * shape's place here. */
struct shape_list {
    struct product_shape *at;
    int n;
};

/* The place of s in the list, added there when new; -1 when memory ran out. */
static int shape_place(struct shape_list *l, struct product_shape s)
{
    for (int i = 0; i < l->n; ++i)
        if (product_shape_equal(l->at[i], s))
            return i;
    if (grow_for_one_more((void **)&l->at, (size_t)l->n, sizeof *l->at) != 0)
        return -1;
    l->at[l->n] = s;
    return l->n++;
}

/* The pairs in the base's order, then those only the head has. */
static int list_pairs(const struct compare_side *base, const struct compare_side *head, struct comparison *c,
                      struct error *e)
{
    const struct compare_side *sides[2] = {base, head};
    struct shape_list shapes = {0};
    struct name_index seen;
    if (name_index_init(&seen, (size_t)unit_count(base) + (size_t)unit_count(head)) != 0)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    for (int s = 0; s < 2 && !e->code; ++s)
        for (int i = 0; i < unit_count(sides[s]) && !e->code; ++i) {
            struct unit u = unit_at(sides[s], i);
            int place = shape_place(&shapes, u.shape);
            int added = place < 0 ? -2 : name_index_add(&seen, u.name, place, c->pairs);
            if (added < -1)
                error_set(e, EXIT_RUNTIME, "out of memory");
            else if (added == c->pairs)
                add_pair(sides[s], base, head, &u, c, e);
        }
    name_index_free(&seen);
    free(shapes.at);
    return e->code;
}

/* A variant that fails its check in any round of a side is not timed there. */
static int failed_in(const struct compare_side *side, const char *variant, struct product_shape shape)
{
    for (int i = 0; i < side->rounds; ++i) {
        int row = results_summary_row(&side->round[i], variant, shape);
        if (row >= 0 && !results_row_ok(&side->round[i], row))
            return 1;
    }
    return 0;
}

/* Who disturbed the timing of variant at shape in the first round of a side where another process did; NULL
 * when none was seen. */
static const char *disturbed_in(const struct compare_side *side, const char *variant, struct product_shape shape)
{
    for (int i = 0; i < side->rounds; ++i) {
        int row = results_summary_row(&side->round[i], variant, shape);
        if (row >= 0 && results_disturbed(&side->round[i], row))
            return results_other_gpu_work(&side->round[i], row);
    }
    return NULL;
}

/* A timing another process shared the GPU with measures that process too: no SLOWER or FASTER on it. */
static bool refuse_disturbed(const struct compare_side *base, const struct compare_side *head,
                             struct compared_pair *p)
{
    const char *in_base = disturbed_in(base, p->variant, p->shape), *in_head = disturbed_in(head, p->variant, p->shape);
    if (!in_base && !in_head)
        return false;
    p->timing.verdict = VERDICT_UNSURE;
    snprintf(p->timing.reason, sizeof p->timing.reason, "timed while another process used the GPU (%s: %s)",
             in_head ? "head" : "base", in_head ? in_head : in_base);
    return true;
}

/* A side's samples of the pair's unit, pooled over its rounds, and the median of each round that timed it. */
struct side_samples {
    double *pooled, median[COMPARE_MAX_ROUNDS];
    int n, rounds;
};

/* Returns 0, or -1 when memory ran out (what was pooled is freed by the caller). */
static int pool_samples(const struct compare_side *side, const struct compared_pair *p, struct side_samples *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < side->rounds; ++i) {
        int before = s->n;
        struct sample_stats round;
        if (compare_side_round_samples(side, i, p->variant, p->shape, &s->pooled, &s->n) ||
            stats_compute(s->pooled + before, s->n - before, &round))
            return -1;
        if (s->n > before)
            s->median[s->rounds++] = round.median;
    }
    return 0;
}

/* A side's launches of a program's kernel a run of the program (--repeat N runs it N times a round). */
static double launches_a_run(const struct compare_side *side, const char *key)
{
    double launches = 0, runs = 0, repeat;
    for (int i = 0; i < side->rounds; ++i) {
        const struct program_kernel *k = program_kernels_find(&side->kernels[i], key);
        struct error ignored = {0};
        launches += k ? (double)k->launches : 0;
        runs += results_environment_number(&side->round[i], "repeat", &repeat, &ignored) == 0 && repeat >= 1 ? repeat
                                                                                                             : 1;
    }
    return launches / runs;
}

/* A program that does the same work launches each kernel as often each time. An autotuner (Triton's, under
 * torch.compile) benchmarks its candidates under the kernel's own name, in a cold L2, where the compile cache was
 * cold, and not where it was warm: hundreds of launches more, of other work. A kernel launched over LAUNCHES_ALIKE
 * times as often a run on one side as on the other gets no verdict. */
#define LAUNCHES_ALIKE 1.5

static bool launched_unlike(const struct compare_side *base, const struct compare_side *head, struct compared_pair *p)
{
    if (!base->program || !head->program)
        return false;
    double a = launches_a_run(base, p->variant), b = launches_a_run(head, p->variant);
    if (!(fmax(a, b) > LAUNCHES_ALIKE * fmin(a, b)))
        return false;
    p->timing.verdict = VERDICT_UNSURE;
    snprintf(p->timing.reason, sizeof p->timing.reason,
             "%.4g launches a run in base, %.4g in head: not the same work (an autotuner benchmarking its candidates, "
             "say)", a, b);
    return true;
}

static int compare_pair(const struct compare_side *base, const struct compare_side *head,
                        const struct compare_options *o, struct compared_pair *p, struct error *e)
{
    if (p->state != PAIR_COMPARED)
        return 0;
    if (failed_in(head, p->variant, p->shape)) {
        p->state = PAIR_HEAD_FAILED;
        return 0;
    }
    if (failed_in(base, p->variant, p->shape)) {
        p->state = PAIR_BASE_FAILED;
        return 0;
    }
    struct side_samples a = {0}, b = {0};
    int failed = pool_samples(base, p, &a) || pool_samples(head, p, &b);
    if (!failed) {
        double floor = round_noise_floor(a.median, a.rounds, b.median, b.rounds, o->rules.alpha);
        /* a program's kernel launched alike on both sides: launch against launch (verdict.h, paired) */
        failed = compare_sides_launch_alike(base, head, p->variant)
                     ? compare_timings_paired(a.pooled, b.pooled, a.n, &o->rules, floor, &p->timing)
                     : compare_timings(a.pooled, a.n, b.pooled, b.n, &o->rules, floor, &p->timing);
    }
    if (!failed)
        p->refused = launched_unlike(base, head, p) || refuse_disturbed(base, head, p);
    free(a.pooled);
    free(b.pooled);
    return failed ? error_set(e, EXIT_RUNTIME, "out of memory") : 0;
}

/* One count of a unit over one side's collections of metrics. */
struct collected {
    double value[COMPARE_MAX_ROUNDS], low, high, median;
    int n;
};

static int add_change(struct comparison *c, const struct compared_pair *p, const char *metric,
                      const struct collected *base, const struct collected *head, enum metric_change_kind kind,
                      struct error *e)
{
    if (c->changes == COMPARE_MAX_METRIC_CHANGES)
        return error_set(e, EXIT_USAGE, "more than %d metric changes", COMPARE_MAX_METRIC_CHANGES);
    struct metric_change *m = &c->change[c->changes++];
    snprintf(m->variant, sizeof m->variant, "%s", p->variant);
    snprintf(m->metric, sizeof m->metric, "%s", metric);
    m->pair = (int)(p - c->pair);
    m->shape = p->shape;
    m->base = base->median;
    m->head = head->median;
    m->base_low = base->low;
    m->base_high = base->high;
    m->head_low = head->low;
    m->head_high = head->high;
    m->base_collections = base->n;
    m->head_collections = head->n;
    m->kind = kind;
    return 0;
}

/* metric's value in each of a side's collections that has it for launch (0, or the error's code). The pair's
 * metrics are its launch's: a run's variant, or the job that stands for a program's kernel in the base's first
 * collection, as the sides match it (compare_side_metrics_launch); a collection where the kernel's job is another
 * launch is left out (two launches of one kernel may do different work). */
static int collect(const struct compare_side *side, const int *rounds, int n_rounds, const struct compared_pair *p,
                   const char *launch, const char *metric, struct collected *out, struct error *e)
{
    out->n = 0;
    for (int i = 0; i < n_rounds && !e->code; ++i) {
        char name[JOB_NAME_LEN];
        const char *here = compare_side_metrics_job(side, rounds[i], p->variant),
                   *as = compare_side_metrics_launch(side, rounds[i], p->variant, name, sizeof name);
        double x;
        if (!here || !as || strcmp(as, launch) != 0 ||
            results_metric_sum(&side->round[rounds[i]], here, p->shape, metric, &x, e) || isnan(x))
            continue;
        out->value[out->n++] = x;
    }
    if (e->code || out->n == 0)
        return e->code;
    struct sample_stats stats;
    if (stats_compute(out->value, out->n, &stats))
        return error_set(e, EXIT_RUNTIME, "out of memory");
    out->low = stats.min;
    out->high = stats.max;
    out->median = stats.median;
    return 0;
}

/* A count equal in every collection of each side is exact: any change is the code's doing. One that moved between
 * two collections of one side depends on the run's scheduling (a tile scheduler, atomics-ordered work): it is
 * listed, beside whether the head left the base's range by more than the widest spread a side showed, and never
 * gated. Where a side has one collection nothing shows a count moving, and two kinds are held exact only where both
 * sides had two collections or more to agree: a count that timing can steer, and any count of a program's kernel,
 * which counts what the program gave it. A program's data, its allocations and its other streams need not be the
 * same twice, and profiles of one training script a minute apart read a kernel's count far apart at the same launch
 * and grid (docs/regressions.md). */
static enum metric_change_kind judge_count(const char *metric, bool program, const struct collected *base,
                                           const struct collected *head)
{
    if (base->low == base->high && head->low == head->high) {
        bool one_collection = base->n < 2 || head->n < 2;
        if (one_collection && metric_timing_steered(metric))
            return METRIC_UNCONFIRMED;
        if (one_collection && program)
            return METRIC_INPUTS;
        return head->low > base->low ? METRIC_REGRESSION : METRIC_IMPROVEMENT;
    }
    double spread = fmax(base->high - base->low, head->high - head->low);
    return head->low > base->high + spread || head->high < base->low - spread ? METRIC_SCHEDULING_BEYOND
                                                                                : METRIC_SCHEDULING;
}

static int compare_counts(const struct compare_side *base, const int *base_rounds, int nb,
                          const struct compare_side *head, const int *head_rounds, int nh,
                          const struct compared_pair *p, const char *launch, struct comparison *c, struct error *e)
{
    const char *exact[COLLECTED_METRIC_COUNT + DERIVED_METRIC_COUNT];
    int n_exact = deterministic_metrics(exact, COLLECTED_METRIC_COUNT + DERIVED_METRIC_COUNT);
    /* Counts fixed by the code and the size alone: more of any of them is more work, a regression. A count
     * missing from either side is not compared (older runs have the hardware global counts instead). */
    for (int m = 0; m < n_exact && !e->code; ++m) {
        struct collected x, y;
        if (collect(base, base_rounds, nb, p, launch, exact[m], &x, e) ||
            collect(head, head_rounds, nh, p, launch, exact[m], &y, e) || x.n == 0 || y.n == 0 ||
            (x.low == x.high && y.low == y.high && x.low == y.low))
            continue;
        add_change(c, p, exact[m], &x, &y, judge_count(exact[m], base->program, &x, &y), e);
    }
    return e->code;
}

/* DRAM GB/s depends on timing: the first collection of each side, reported beyond its tolerance. */
static int compare_dram(const struct compare_side *base, int base_round, const struct compare_side *head,
                        int head_round, const struct compare_options *o, const struct compared_pair *p,
                        const char *launch, struct comparison *c, struct error *e)
{
    struct collected x, y;
    const char *dram_gbs = DERIVED(DRAM_GBS);
    if (collect(base, &base_round, 1, p, launch, dram_gbs, &x, e) ||
        collect(head, &head_round, 1, p, launch, dram_gbs, &y, e) ||
        x.n == 0 || y.n == 0 || !(x.median > 0) || fabs(y.median / x.median - 1) <= o->dram_tolerance)
        return e->code;
    return add_change(c, p, dram_gbs, &x, &y, METRIC_DRAM_CHANGE, e);
}

/* What a program's launch was: its block, its dynamic shared memory (summary.csv) and its grid (the blocks launched,
 * where the groups collected them). */
enum launch_property { LAUNCH_THREADS, LAUNCH_DYNAMIC_SMEM, LAUNCH_BLOCKS, LAUNCH_PROPERTIES };

/* One launch property of job in a side's collection; NAN where the side does not say. */
static double launch_property(const struct compare_side *side, int round, const char *job, enum launch_property what,
                              struct error *e)
{
    const struct results_folder *r = &side->round[round];
    double value = NAN;
    if (what == LAUNCH_BLOCKS) {
        results_metric_sum(r, job, PRODUCT_SHAPE_NONE, COLLECTED(BLOCKS_LAUNCHED), &value, e);
        return value;
    }
    int column = schema_column_or_none(&r->summary, &summary_csv,
                                       what == LAUNCH_THREADS ? SUMMARY_THREADS_PER_BLOCK : SUMMARY_DYNAMIC_SMEM_BYTES),
        row = results_summary_row(r, job, PRODUCT_SHAPE_NONE);
    if (column >= 0 && row >= 0)
        csv_table_real(&r->summary, row, column, &value, e); /* empty: not known */
    return value < 0 ? NAN : value;
}

/* A program's kernel stands for its counts by its first profiled launch, which may be another launch on each side
 * under one job's name: an autotuner's candidate where the compile cache was cold, the configuration it chose where
 * it was warm (Inductor's Triton kernels). A launch of another block, grid or dynamic shared memory does other work:
 * the property that differs is listed (LAUNCH_DIFFERS, never gated), the counts are not compared. */
static int launch_differs(const struct compare_side *base, int base_round, const struct compare_side *head,
                          int head_round, const struct compared_pair *p, const char *launch, struct comparison *c,
                          bool *differs, struct error *e)
{
    static const char *const name[LAUNCH_PROPERTIES] = {"threads_per_block", "dynamic_smem_bytes", "blocks_launched"};
    char as[JOB_NAME_LEN];
    const char *head_launch = compare_side_metrics_launch(head, head_round, p->variant, as, sizeof as),
               *base_job = compare_side_metrics_job(base, base_round, p->variant),
               *head_job = compare_side_metrics_job(head, head_round, p->variant);
    *differs = false;
    if (!base->program || !head_launch || !base_job || !head_job || strcmp(head_launch, launch) != 0)
        return 0;
    for (int i = 0; i < LAUNCH_PROPERTIES && !*differs && !e->code; ++i) {
        struct collected x = {.n = 1}, y = {.n = 1};
        x.median = x.low = x.high = launch_property(base, base_round, base_job, (enum launch_property)i, e);
        y.median = y.low = y.high = launch_property(head, head_round, head_job, (enum launch_property)i, e);
        if (!e->code && x.median != y.median && !isnan(x.median) && !isnan(y.median)) {
            *differs = true;
            add_change(c, p, name[i], &x, &y, METRIC_LAUNCH_DIFFERS, e);
        }
    }
    return e->code;
}

static int compare_metrics(const struct compare_side *base, const struct compare_side *head,
                           const struct compare_options *o, struct comparison *c, struct error *e)
{
    int base_rounds[COMPARE_MAX_ROUNDS], head_rounds[COMPARE_MAX_ROUNDS];
    int nb = compare_side_metric_rounds(base, base_rounds), nh = compare_side_metric_rounds(head, head_rounds);
    if (nb == 0 || nh == 0)
        return 0;
    c->base_collections = nb;
    c->head_collections = nh;
    for (int i = 0; i < c->pairs && !e->code; ++i) {
        const struct compared_pair *p = &c->pair[i];
        char as[JOB_NAME_LEN];
        const char *launch = p->state == PAIR_COMPARED
                                 ? compare_side_metrics_launch(base, base_rounds[0], p->variant, as, sizeof as)
                                 : NULL;
        bool differs = false;
        if (launch && !launch_differs(base, base_rounds[0], head, head_rounds[0], p, launch, c, &differs, e) &&
            !differs && !compare_counts(base, base_rounds, nb, head, head_rounds, nh, p, launch, c, e))
            compare_dram(base, base_rounds[0], head, head_rounds[0], o, p, launch, c, e);
    }
    return e->code;
}

bool compared_pair_tested(const struct compared_pair *p)
{
    return p->state == PAIR_COMPARED && !p->refused && isfinite(p->timing.p_value);
}

/* Every unit whose test ran, weighed together (verdict.h, Holm): a gate over a program's hundred kernels, each at
 * alpha, fails on noise now and then (docs/regressions.md measures how often); together it fails on noise at most at
 * alpha, as far as each side's samples are independent. */
static int judge_as_a_family(struct comparison *c, const struct compare_options *o, struct error *e)
{
    struct timing_comparison **tested = malloc((size_t)(c->pairs + 1) * sizeof *tested);
    int m = 0;
    if (!tested)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    for (int i = 0; i < c->pairs; ++i)
        if (compared_pair_tested(&c->pair[i]))
            tested[m++] = &c->pair[i].timing;
    int failed = verdict_holm(tested, m, &o->rules);
    free(tested);
    c->tested = m;
    return failed ? error_set(e, EXIT_RUNTIME, "out of memory") : 0;
}

int compare_run(const struct compare_side *base, const struct compare_side *head, const struct compare_options *o,
                struct comparison *c, struct error *e)
{
    memset(c, 0, sizeof *c);
    c->base_rounds = base->rounds;
    c->head_rounds = head->rounds;
    if (compare_sides_match(base, head, o->force, e) || list_pairs(base, head, c, e))
        return e->code;
    if (c->pairs == 0 && base->program) /* a gate that compared nothing must not pass */
        return error_set(e, EXIT_USAGE, "%s, %s: no kernel launched by the program itself on either side (every "
                         "launch an autotuner's timing of candidates): nothing to compare", base->round[0].dir,
                         head->round[0].dir);
    for (int i = 0; i < c->pairs && !e->code; ++i)
        compare_pair(base, head, o, &c->pair[i], e);
    if (!e->code)
        judge_as_a_family(c, o, e);
    if (!e->code)
        compare_metrics(base, head, o, c, e);
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
