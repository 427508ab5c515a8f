#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "../results/schema.h"

static const char *const change_kind[] = {
    "regression", "improvement", "dram_change", "scheduling", "scheduling_beyond_spread", "unconfirmed",
    "launch_differs", "unconfirmed_inputs"};

const char *pair_verdict(const struct compared_pair *p)
{
    switch (p->state) {
    case PAIR_COMPARED:
        return verdict_name(p->timing.verdict);
    case PAIR_HEAD_FAILED:
        return "FAILED";
    default:
        return "UNSURE";
    }
}

static const char *pair_reason(const struct compared_pair *p)
{
    switch (p->state) {
    case PAIR_ONLY_BASE:
        return "not measured in head";
    case PAIR_ONLY_HEAD:
        return "not measured in base";
    case PAIR_HEAD_FAILED:
        return "head failed its correctness check";
    case PAIR_BASE_FAILED:
        return "base failed its correctness check";
    default:
        return p->timing.reason;
    }
}

/* Characters, not bytes: a shortened kernel's ellipsis is one. */
static int characters(const char *text)
{
    int n = 0;
    for (; *text; ++text)
        n += (*text & 0xC0) != 0x80;
    return n;
}

/* The first column's width: its longest name's, at least 24. */
static int name_width(const struct comparison *c)
{
    int most = 24;
    for (int i = 0; i < c->pairs; ++i)
        most = characters(c->pair[i].label) > most ? characters(c->pair[i].label) : most;
    return most;
}

static void put_name(FILE *out, const char *name, int width)
{
    fprintf(out, "%s%*s", name, width - characters(name) + 1, "");
}

/* A program's kernels have no shape (0 x 0 x 0 in every row): their table leaves the column out. */
static bool of_program(const struct comparison *c)
{
    return c->pairs && strcmp(c->pair[0].precision, PROGRAM_PRECISION) == 0;
}

/* The size column of a suite's table: its title and characters, 0 for a program's. Squares by width, as ever; a
 * table with a rectangle names shapes, each as -s takes it (8192x3072x1024), its column as wide as the longest. */
struct size_column {
    const char *title;
    int chars;
};

static struct size_column size_column(const struct comparison *c)
{
    struct size_column column = {"width", of_program(c) ? 0 : 6};
    for (int i = 0; column.chars && i < c->pairs; ++i) {
        char text[PRODUCT_SHAPE_LEN];
        int chars = (int)strlen(product_shape_text(c->pair[i].shape, text));
        column.title = product_shape_width(c->pair[i].shape) ? column.title : "shape";
        column.chars = chars > column.chars ? chars : column.chars;
    }
    return column;
}

static void put_size(FILE *out, struct product_shape shape, struct size_column column)
{
    char text[PRODUCT_SHAPE_LEN];
    if (column.chars)
        fprintf(out, "%*s ", column.chars, product_shape_text(shape, text));
}

static void print_pair(FILE *out, const struct compared_pair *p, int width, struct size_column size)
{
    const struct timing_comparison *t = &p->timing;
    put_name(out, p->label, width);
    put_size(out, p->shape, size);
    if (p->state != PAIR_COMPARED) {
        fprintf(out, "%11s %11s %8s %19s %-7s %s\n", "-", "-", "-", "-", pair_verdict(p), pair_reason(p));
        return;
    }
    char interval[40] = "-";
    if (!isnan(t->interval_low))
        snprintf(interval, sizeof interval, "[%+.2f, %+.2f]", 100 * t->interval_low, 100 * t->interval_high);
    fprintf(out, "%11.4f %11.4f %+7.2f%% %19s %-7s %s\n", t->base_median, t->head_median, 100 * t->change, interval,
            pair_verdict(p), pair_reason(p));
}

/* How a scheduling-dependent count read: "base 276-281, head 279-284 over 2 + 2 collections". */
static void put_ranges(FILE *out, const struct metric_change *m)
{
    fprintf(out, " (base %.12g-%.12g, head %.12g-%.12g over %d + %d collections; not gated)", m->base_low, m->base_high,
            m->head_low, m->head_high, m->base_collections, m->head_collections);
}

static void print_changes(FILE *out, const struct comparison *c, int width, struct size_column size)
{
    if (c->changes == 0)
        return;
    fprintf(out, "\nmetric changes (the catalog's deterministic counts; DRAM GB/s beyond its tolerance; a program's "
                 "launches that differ):\n");
    for (int i = 0; i < c->changes; ++i) {
        const struct metric_change *m = &c->change[i];
        put_name(out, c->pair[m->pair].label, width);
        put_size(out, m->shape, size);
        fprintf(out, "%-64s %14.6g -> %-14.6g %+8.2f%% %s", m->metric, m->base, m->head, 100 * (m->head / m->base - 1),
                change_kind[m->kind]);
        if (m->kind == METRIC_SCHEDULING || m->kind == METRIC_SCHEDULING_BEYOND)
            put_ranges(out, m);
        else if (m->kind == METRIC_UNCONFIRMED)
            fprintf(out, " (a count timing can steer, over %d + %d collections; not gated)", m->base_collections,
                    m->head_collections);
        else if (m->kind == METRIC_LAUNCH_DIFFERS)
            fprintf(out, " (the profiled launches differ: their counts not compared, not gated)");
        else if (m->kind == METRIC_INPUTS)
            fprintf(out, " (a program's count, over %d + %d collections: its data need not be the same twice; "
                         "not gated)",
                    m->base_collections, m->head_collections);
        fputc('\n', out);
    }
}

/* How many changes of a kind. */
static int changes_of(const struct comparison *c, enum metric_change_kind kind)
{
    int n = 0;
    for (int i = 0; i < c->changes; ++i)
        n += c->change[i].kind == kind;
    return n;
}

/* What the counts' verdict rests on: a side with one collection cannot show a count moving. */
static void print_collections(FILE *out, const struct comparison *c)
{
    int scheduling = changes_of(c, METRIC_SCHEDULING) + changes_of(c, METRIC_SCHEDULING_BEYOND);
    if (c->base_collections == 0)
        return;
    fprintf(out, "counts: %d + %d collections; %d scheduling-dependent (moved within a side, not gated), %d of them "
                 "beyond their spread\n",
            c->base_collections, c->head_collections, scheduling, changes_of(c, METRIC_SCHEDULING_BEYOND));
    int unconfirmed = changes_of(c, METRIC_UNCONFIRMED), inputs = changes_of(c, METRIC_INPUTS);
    if (c->base_collections >= 2 && c->head_collections >= 2 && !unconfirmed)
        return;
    if (of_program(c)) {
        fprintf(out, "counts: a side with one collection cannot show a count moving, so no count of a program's "
                     "kernels that moved is gated: %d unconfirmed_inputs (its data, allocations and other streams need "
                     "not be the same twice), %d unconfirmed (timing can steer them); two profiles a side (a folder of "
                     "profiles each) gate those that agree within a side\n",
                inputs, unconfirmed);
        return;
    }
    char steered[96] = "";
    if (unconfirmed)
        snprintf(steered, sizeof steered, ", but for %d that timing can steer (unconfirmed, not gated)", unconfirmed);
    fprintf(out, "counts: a side with one collection cannot show a count moving, so a count that moved only between "
                 "the sides is held exact, as the catalog says%s (compare-revisions collects counts in every round)\n",
            steered);
}

/* How many pairs were judged launch by launch. */
static int paired_pairs(const struct comparison *c)
{
    int n = 0;
    for (int i = 0; i < c->pairs; ++i)
        n += c->pair[i].state == PAIR_COMPARED && c->pair[i].timing.paired;
    return n;
}

void compare_print(FILE *out, const struct comparison *c, const struct compare_options *o)
{
    int count[5] = {0}, width = name_width(c);
    struct size_column size = size_column(c);
    put_name(out, of_program(c) ? "kernel" : "variant", width);
    if (size.chars)
        fprintf(out, "%*s ", size.chars, size.title);
    fprintf(out, "%11s %11s %8s %19s %-7s %s\n", "base_ms", "head_ms", "change", "95% interval (%)", "verdict", "why");
    for (int i = 0; i < c->pairs; ++i) {
        print_pair(out, &c->pair[i], width, size);
        const char *v = pair_verdict(&c->pair[i]);
        count[strcmp(v, "SAME") == 0 ? 0 : strcmp(v, "SLOWER") == 0 ? 1 : strcmp(v, "FASTER") == 0 ? 2
                                      : strcmp(v, "UNSURE") == 0 ? 3 : 4]++;
    }
    print_changes(out, c, width, size);
    int regressions = changes_of(c, METRIC_REGRESSION);
    fprintf(out, "\ngeometric mean of head/base medians: %.4f (%+.2f %%); %d SAME, %d SLOWER, %d FASTER, %d UNSURE, "
                 "%d FAILED; %s%d metric regressions%s\n",
            comparison_geomean_ratio(c), 100 * (comparison_geomean_ratio(c) - 1), count[0], count[1], count[2],
            count[3], count[4], c->base_collections ? "" : "metrics not compared (a side has none), ", regressions,
            o->ignore_metrics && regressions ? " (ignored)" : "");
    print_collections(out, c);
    if (changes_of(c, METRIC_LAUNCH_DIFFERS))
        fprintf(out, "counts: %d kernel%s profiled at launches that differ between the sides (block, grid or "
                     "dynamic shared memory: an autotuner's candidate on one side, say); their counts are not "
                     "compared\n",
                changes_of(c, METRIC_LAUNCH_DIFFERS), changes_of(c, METRIC_LAUNCH_DIFFERS) == 1 ? "" : "s");
    fprintf(out, "test: Mann-Whitney U (alpha %.3g) and a bootstrap 95 %% interval of the ratio of medians%s; "
                 "Holm's correction over the %d unit%s tested; floor %.3g %%, or a unit's rounds' noise where larger\n",
            o->rules.alpha,
            paired_pairs(c) ? "; launches paired: Wilcoxon signed-rank on their ratios, an interval of their median"
                            : "",
            c->tested, c->tested == 1 ? "" : "s", 100 * o->rules.floor);
    if (of_program(c) && (c->base_rounds < 2 || c->head_rounds < 2))
        fprintf(out, "noise: one profile a side cannot show a run's own shift of a kernel (all its launches move at "
                     "once), so a kernel of few launches cannot be SLOWER; two profiles a side or more (a folder of "
                     "profiles each) set each kernel's floor from its runs\n");
}

static void write_pair(struct csv *f, const struct compared_pair *p)
{
    const struct timing_comparison *t = &p->timing;
    int compared = p->state == PAIR_COMPARED;
    csv_text(f, p->variant);
    csv_text(f, p->precision);
    csv_int(f, product_shape_width(p->shape));
    csv_int(f, compared ? t->base_n : 0);
    csv_int(f, compared ? t->head_n : 0);
    csv_real(f, compared ? t->base_median : NAN);
    csv_real(f, compared ? t->head_median : NAN);
    csv_real(f, compared ? 100 * t->change : NAN);
    csv_real(f, compared ? 100 * t->interval_low : NAN);
    csv_real(f, compared ? 100 * t->interval_high : NAN);
    csv_real(f, compared ? t->p_value : NAN);
    csv_text(f, pair_verdict(p));
    csv_text(f, pair_reason(p));
    csv_real(f, compared ? 100 * t->floor : NAN);
    csv_shape(f, p->shape);
    csv_text(f, p->label);
    csv_real(f, compared_pair_tested(p) ? t->p_family : NAN);
    csv_end_row(f);
}

static void write_change(struct csv *f, const struct metric_change *m)
{
    csv_text(f, m->variant);
    csv_int(f, product_shape_width(m->shape));
    csv_text(f, m->metric);
    csv_real(f, m->base);
    csv_real(f, m->head);
    csv_real(f, 100 * (m->head / m->base - 1));
    csv_text(f, change_kind[m->kind]);
    csv_real(f, m->base_low);
    csv_real(f, m->base_high);
    csv_real(f, m->head_low);
    csv_real(f, m->head_high);
    csv_int(f, m->base_collections);
    csv_int(f, m->head_collections);
    csv_shape(f, m->shape);
    csv_end_row(f);
}

int compare_write_csv(const char *dir, const struct comparison *c, struct error *e)
{
    struct csv f;
    if (schema_create(&f, dir, &compare_csv, e))
        return e->code;
    for (int i = 0; i < c->pairs; ++i)
        write_pair(&f, &c->pair[i]);
    if (csv_close(&f, e) || schema_create(&f, dir, &compare_metrics_csv, e))
        return e->code;
    for (int i = 0; i < c->changes; ++i)
        write_change(&f, &c->change[i]);
    return csv_close(&f, e);
}
