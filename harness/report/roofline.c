/*
 * The hierarchical roofline at the run's largest width: for each variant that passed, its achieved GFLOP/s
 * against its arithmetic intensity at three levels (FLOP per L1/shared wavefront byte, per L2 byte, per DRAM
 * byte), under roofs measured on the run's GPU (environment.csv's ceiling_* keys, harness/ceilings/) or, for a
 * run without them, the datasheet's; each variant's bound is the roof that gives the lowest attainable GFLOP/s
 * at its intensities (harness/ceilings/rates.c, roofline_bound). A tensor kernel (more tensor operations than
 * FP32 and FP64 ones, tensor.h) is placed by the tensor FLOP of its type, under the measured roof of that type.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../common/palette.h"
#include "../common/paths.h"
#include "../profile/metric_catalog.h"
#include "cells.h"
#include "../ceilings/rates.h"
#include "../diagnose/diagnosis.h"
#include "model.h"
#include "pages.h"
#include "roofline.h"
#include "tensor.h"

static bool usable(double x)
{
    return isfinite(x) && x > 0;
}

int report_datasheet(const struct results_folder *r, struct ceiling_rates *out, struct error *e)
{
    struct gpu_figures g = {results_environment(r, "compute_capability"), NAN, NAN, NAN, NAN};
    *out = ceiling_rates_unknown();
    if (results_environment_number(r, "sm_count", &g.sm_count, e) ||
        results_environment_number(r, "sm_clock_max_mhz", &g.sm_clock_mhz, e) ||
        results_environment_number(r, "memory_clock_max_mhz", &g.memory_clock_mhz, e) ||
        results_environment_number(r, "memory_bus_width_bits", &g.memory_bus_width_bits, e))
        return e->code;
    *out = ceiling_datasheet(&g);
    return 0;
}

/* The ceilings the chart draws a roof for, those before the tensor ones (which the roofs note counts). */
#define DRAWN_CEILINGS CEILING_TENSOR_BF16

/* The page's roofs: each ceiling measured on the run's GPU where environment.csv holds it, else the datasheet's. */
struct page_roofs {
    struct ceiling_rates rate;
    const char *source[CEILING_COUNT]; /* "measured", "datasheet", or NULL where there is neither */
    int measured; /* of the DRAWN_CEILINGS */
};

/* A program's profile draws only the roofs it measured: its GPU's datasheet figures are not what its kernels could
 * reach, and the suite's measured ceilings are not its folder's. */
static int read_roofs(const struct results_folder *r, struct page_roofs *p, struct error *e)
{
    struct ceiling_rates datasheet = ceiling_rates_unknown();
    *p = (struct page_roofs){.rate = ceiling_rates_unknown()};
    if (!results_is_program(r) && report_datasheet(r, &datasheet, e))
        return e->code;
    for (int c = 0; c < CEILING_COUNT; ++c) {
        double measured;
        if (results_environment_number(r, ceiling_key((enum ceiling)c), &measured, e))
            return e->code;
        bool from_run = usable(measured);
        p->rate.value[c] = from_run ? measured : usable(datasheet.value[c]) ? datasheet.value[c] : NAN;
        p->source[c] = from_run ? "measured" : isnan(p->rate.value[c]) ? NULL : "datasheet";
        p->measured += from_run && c < DRAWN_CEILINGS;
    }
    return 0;
}

/* One variant at the largest width. */
struct point {
    int v;
    double gflops, flop_per_byte[ROOF_LEVELS];
    bool from_model; /* FLOP from the work model 2 W^3 */
    /* counted FLOP under half the model's in a run that did not count tensor operations: tensor-core work, for
     * which that run has no roof */
    bool uncounted_tensor;
    bool fp64;
    struct tensor_work tensor; /* tensor.type >= 0: placed by its tensor FLOP, under the roof of its type */
    struct roofline_bound bound; /* ROOF_NONE for tensor-core work without a roof of its type */
};

/* A tensor kernel: it ran more tensor operations (of its type) than FP32 and FP64 ones. */
static bool tensor_point(const struct point *p)
{
    return p->tensor.type >= 0;
}

/* The compute roof a point meets: its tensor type's, the FP64 one, or the FP32 one. */
static double compute_roof(const struct point *p, const struct page_roofs *roofs)
{
    return tensor_point(p) ? p->tensor.roof_gflops : roofs->rate.value[p->fp64 ? CEILING_FP64 : CEILING_FP32];
}

/* FLOP counted from the executed instructions: a tensor kernel's tensor operations of its type, else FP32 and
 * FP64 ones; where that misses most of the work (a run from before memscope counted tensor operations), or was not
 * collected, the work model's 2 W^3. Bytes per level summed over the call's kernels. *found is false for a variant
 * without a point: failed, not timed, or no level's bytes collected. */
static int read_point(const struct report_model *m, int v, const struct page_roofs *roofs, struct point *p,
                      bool *found, struct error *e)
{
    static const enum derived_metric_id level_bytes[ROOF_LEVELS] = {METRIC_L1_SHARED_WAVEFRONT_BYTES,
                                                                    METRIC_L2_BYTES, METRIC_DRAM_BYTES};
    const char *name = m->variant[v];
    int width = m->largest_width, levels = 0;
    double fp32, fp64, bytes[ROOF_LEVELS], nominal = report_summary_value(m, name, width, SUMMARY_FLOP);
    struct tensor_work tensor;
    *found = false;
    if (!report_passed(m, name, width))
        return 0;
    const struct product_shape size = product_shape_square(width);
    if (report_tensor_work(m, name, width, &tensor, e) ||
        results_metric_sum(m->r, name, size, DERIVED(FLOP_FP32), &fp32, e) ||
        results_metric_sum(m->r, name, size, DERIVED(FLOP_FP64), &fp64, e))
        return e->code;
    for (int l = 0; l < ROOF_LEVELS; ++l)
        if (results_metric_sum(m->r, name, size, derived_metric_name(level_bytes[l]), &bytes[l], e))
            return e->code;
    bool counted_any = !isnan(fp32) || !isnan(fp64);
    double counted = (isnan(fp32) ? 0 : fp32) + (isnan(fp64) ? 0 : fp64);
    if (tensor.type >= 0 && !(tensor.flop > counted))
        tensor.type = -1; /* a few tensor operations beside mostly FP32 or FP64 ones: not a tensor kernel */
    counted = tensor.type >= 0 ? tensor.flop : counted;
    double flop = counted > 0 && !(counted < 0.5 * nominal) ? counted : nominal;
    double seconds = report_summary_value(m, name, width, SUMMARY_MEDIAN_MS) * 1e-3;
    if (isnan(flop) || !(flop > 0) || !(seconds > 0))
        return 0;
    *p = (struct point){.v = v,
                        .gflops = flop / seconds / 1e9,
                        .from_model = flop != counted,
                        .uncounted_tensor = tensor.type < 0 && counted_any && counted < 0.5 * nominal,
                        .tensor = tensor,
                        /* a program's kernel: the precision of most of its FLOP */
                        .fp64 = m->program ? fp64 > fp32 : strcmp(m->precision[v], "fp64") == 0};
    for (int l = 0; l < ROOF_LEVELS; ++l) {
        p->flop_per_byte[l] = bytes[l] > 0 ? flop / bytes[l] : bytes[l] == 0 ? INFINITY : NAN;
        levels += !isnan(p->flop_per_byte[l]);
    }
    if (levels == 0)
        return 0;
    struct roofs r = {{roofs->rate.value[CEILING_L1_SHARED], roofs->rate.value[CEILING_L2],
                       roofs->rate.value[CEILING_DRAM]},
                      compute_roof(p, roofs)};
    /* Tensor-core work without a roof of its type has no bound here: a memory roof below it would be named its
     * bound only because the compute roof it meets is missing, and the measured memory roofs are not the units'
     * peaks either. */
    bool roofless = p->uncounted_tensor || (tensor_point(p) && isnan(p->tensor.roof_gflops));
    p->bound = roofless ? (struct roofline_bound){ROOF_NONE, NAN} : roofline_bound(&r, p->flop_per_byte);
    *found = true;
    return 0;
}

/* The bound's name; a tensor kernel's compute roof is its type's ("bf16 tensor"), written into name. */
static const char *bound_name(const struct point *p, char *name, size_t size)
{
    static const char *const levels[ROOF_LEVELS] = {"L1/shared", "L2", "DRAM"};
    if (p->uncounted_tensor)
        return "none: tensor cores";
    if (tensor_point(p) && p->bound.roof == ROOF_NONE)
        return snprintf(name, size, "none: no %s roof", report_tensor_type_name(p->tensor.type)), name;
    if (p->bound.roof == ROOF_NONE)
        return "-";
    if (p->bound.roof == ROOF_COMPUTE && tensor_point(p))
        return snprintf(name, size, "%s tensor", report_tensor_type_name(p->tensor.type)), name;
    if (p->bound.roof == ROOF_COMPUTE)
        return p->fp64 ? "FP64 compute" : "FP32 compute";
    return levels[p->bound.roof];
}

/* A number for the chart: NaN where unknown or infinite (no traffic at that level). */
static void put_finite(FILE *f, double value, int last)
{
    report_put_value(f, isfinite(value) ? value : NAN, last);
}

static void chart_row(FILE *f, const struct report_model *m, const struct point *p, int number)
{
    char bound[32];
    fprintf(f, "%d\t%d\t", number, p->v + 1);
    report_put_cell(f, m->label[p->v], 0);
    put_finite(f, p->gflops, 0);
    for (int l = 0; l < ROOF_LEVELS; ++l)
        put_finite(f, p->flop_per_byte[l], 0);
    fprintf(f, "%d\t", p->from_model);
    report_put_cell(f, bound_name(p, bound, sizeof bound), 0);
    put_finite(f, p->bound.gflops, 0);
    put_finite(f, 100.0 * p->gflops / p->bound.gflops, 0);
    report_put_cell(f, tensor_point(p) ? report_tensor_type_name(p->tensor.type) : "-", 1);
}

static void intensity_cell(char *cell, size_t size, double flop_per_byte)
{
    if (isinf(flop_per_byte))
        snprintf(cell, size, "no traffic");
    else
        report_format_number(cell, size, flop_per_byte, flop_per_byte < 100 ? "%.3g" : "%.0f");
}

/* A roof's line in the chart's legend: "L1/shared 33,454 GB/s (datasheet)". */
static void roof_title(FILE *f, const char *variable, const struct page_roofs *r, enum ceiling c)
{
    char title[128], value[48];
    if (!r->source[c])
        snprintf(title, sizeof title, "%s: no roof (not measured%s)", ceiling_label(c),
                 c == CEILING_L2 ? "; NVIDIA publishes no L2 bandwidth" : ", no datasheet figure");
    else {
        report_format_count(value, sizeof value, r->rate.value[c]);
        snprintf(title, sizeof title, "%s %s %s (%s)", ceiling_label(c), value, ceiling_unit(c), r->source[c]);
    }
    report_put_variable(f, variable, title);
}

/* Each tensor type with a roof the run can measure: its roof (NAN: not measured) and its legend's line. */
struct tensor_roofs {
    double gflops[REPORT_TENSOR_TYPE_COUNT];
    double top; /* the highest compute roof of the chart, FP32, FP64 and tensor; NAN where none is known */
};

static int read_tensor_roofs(const struct results_folder *r, const struct page_roofs *roofs, struct tensor_roofs *t,
                             struct error *e)
{
    t->top = fmax(roofs->rate.value[CEILING_FP32], roofs->rate.value[CEILING_FP64]); /* fmax: NAN only if both */
    for (int i = 0; i < REPORT_TENSOR_TYPE_COUNT; ++i) {
        if (report_tensor_roof(r, i, &t->gflops[i], e))
            return e->code;
        t->top = fmax(t->top, t->gflops[i]);
    }
    return 0;
}

/* The measured tensor roofs: a line each ("bf16 tensor 823,000 GFLOP/s (measured)"); a type the run measured no
 * roof of draws none (roof_tensor_<type>_gflops NaN). tensor_types: the types, for roofline.gp's loop. */
static void tensor_roof_titles(FILE *f, const struct tensor_roofs *t)
{
    char names[128] = "";
    for (int i = 0; i < REPORT_TENSOR_TYPE_COUNT; ++i) {
        char variable[64], title[128], value[48];
        const char *type = report_tensor_type_name(i);
        snprintf(variable, sizeof variable, "roof_tensor_%s_gflops", type);
        report_put_number(f, variable, t->gflops[i]);
        report_format_count(value, sizeof value, t->gflops[i]);
        if (isnan(t->gflops[i]))
            snprintf(title, sizeof title, "%s tensor: no roof (not measured)", type);
        else
            snprintf(title, sizeof title, "%s tensor %s GFLOP/s (measured)", type, value);
        snprintf(variable, sizeof variable, "roof_tensor_%s_title", type);
        report_put_variable(f, variable, title);
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? " " : "", type);
    }
    report_put_variable(f, "tensor_types", names);
    report_put_number(f, "roof_top_gflops", t->top);
}

/* The smallest and largest power of ten around every value given (NAN and infinity left out); lo, hi NAN when
 * none is given. */
static void decades(const double *values, int n, double *lo, double *hi)
{
    *lo = *hi = NAN;
    for (int i = 0; i < n; ++i)
        if (usable(values[i])) {
            double below = pow(10.0, floor(log10(values[i]))), above = pow(10.0, ceil(log10(values[i] * 1.2)));
            *lo = isnan(*lo) || below < *lo ? below : *lo;
            *hi = isnan(*hi) || above > *hi ? above : *hi;
        }
}

/* The chart's axes: log scales, decade to decade. */
struct chart_ranges {
    double xmin, xmax, ymin, ymax;
};

/* x: every plotted intensity, and each ridge (where a diagonal meets the FP32 roof, and the highest compute roof)
 * with a decade below it, so that every diagonal shows; y: every point and the compute roofs. Defaults where
 * nothing is known. */
static struct chart_ranges chart_ranges(const struct point *points, int n, const struct page_roofs *r,
                                        const struct tensor_roofs *t)
{
    enum { MAX_VALUES = MAX_VARIANTS * ROOF_LEVELS + 4 * ROOF_LEVELS + 2 + REPORT_TENSOR_TYPE_COUNT };
    double x[MAX_VALUES], y[MAX_VALUES], lo, hi;
    int nx = 0, ny = 0;
    struct chart_ranges c;
    for (int i = 0; i < n; ++i) {
        for (int l = 0; l < ROOF_LEVELS; ++l)
            x[nx++] = points[i].flop_per_byte[l];
        y[ny++] = points[i].gflops;
    }
    static const enum ceiling levels[ROOF_LEVELS] = {CEILING_L1_SHARED, CEILING_L2, CEILING_DRAM};
    for (int l = 0; l < ROOF_LEVELS; ++l) {
        double ridge = r->rate.value[CEILING_FP32] / r->rate.value[levels[l]];
        x[nx++] = ridge;
        x[nx++] = ridge / 10.0;
        x[nx++] = t->top / r->rate.value[levels[l]];
        x[nx++] = t->top / r->rate.value[levels[l]] / 10.0;
    }
    y[ny++] = r->rate.value[CEILING_FP32];
    y[ny++] = r->rate.value[CEILING_FP64];
    for (int i = 0; i < REPORT_TENSOR_TYPE_COUNT; ++i)
        y[ny++] = t->gflops[i];
    decades(x, nx, &lo, &hi);
    c.xmin = isnan(lo) ? 0.01 : fmin(lo, hi / 100.0);
    c.xmax = isnan(hi) ? 1000.0 : hi;
    decades(y, ny, &lo, &hi);
    c.ymin = isnan(lo) ? 10.0 : fmin(lo, hi / 100.0);
    c.ymax = isnan(hi) ? 100000.0 : hi;
    return c;
}

/* ---- the numbers beside the points ---- */

/* Where roofline.gp draws the chart (roofs.gp tells it): the frame on the page in screen fractions, the page A4
 * landscape in points as the PDF has it (scripts/gnuplot-common.sh; the PNG is the same shape, its text and
 * markers smaller), each level's marker size and the labels' font. */
static const struct {
    double left, right, bottom, top;
} frame = {0.09, 0.73, 0.22, 0.90};
#define PAGE_WIDTH_PT 841.89
#define PAGE_HEIGHT_PT 595.28
#define LABEL_FONT_PT 8.0
static const double marker_size[ROOF_LEVELS] = {1.4, 1.3, 1.6};
/* Measured on the PDF: a marker of size 1 spans 6.6 points (circle, square; the triangle a little more). */
#define MARKER_HALF_PT 3.4
/* A digit of the label's font (DejaVu Sans) is 0.64 of its size wide and stands 0.73 of it high (0.75 here). */
#define DIGIT_WIDTH 0.64
#define DIGIT_HEIGHT 0.75
#define LABEL_GAP_PT 1.0
#define LABEL_RINGS 8
/* Points nearer than this (on the page, either way) crowd each other's numbers. */
#define CROWD_PT 30.0

/* A box on the page, in points from the frame's lower left corner. */
struct box {
    double x0, y0, x1, y1;
};

static bool boxes_meet(const struct box *a, const struct box *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

static struct box box_around(double x, double y, double half_width, double half_height)
{
    return (struct box){x - half_width, y - half_height, x + half_width, y + half_height};
}

/* One number of the chart: its point (page and data coordinates), its marker, and where its text went. */
struct label {
    int number, level;
    double x, y;   /* the point, in the chart's units */
    double px, py; /* the point on the page */
    struct box marker, text;
    bool placed, leader;
};

static double on_page(double value, double lo, double hi, double extent)
{
    return (log10(value) - log10(lo)) / (log10(hi) - log10(lo)) * extent;
}

static double from_page(double at, double lo, double hi, double extent)
{
    return lo * pow(10.0, at / extent * (log10(hi) - log10(lo)));
}

static bool text_fits(const struct box *text, const struct label *labels, int n, double width, double height)
{
    if (text->x0 < 0 || text->y0 < 0 || text->x1 > width || text->y1 > height)
        return false;
    for (int i = 0; i < n; ++i)
        if (boxes_meet(text, &labels[i].marker) || (labels[i].placed && boxes_meet(text, &labels[i].text)))
            return false;
    return true;
}

/* The first free place around the point: beside it (right, left, above, below, then the corners), then ring after
 * ring further out, where a leader line will join it to its point. Unplaced if every ring is taken. */
static void place_label(struct label *l, const struct label *labels, int n, double width, double height)
{
    static const int directions[][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    int digits = l->number < 10 ? 1 : l->number < 100 ? 2 : 3;
    double half_w = digits * DIGIT_WIDTH * LABEL_FONT_PT / 2 + LABEL_GAP_PT / 2;
    double half_h = DIGIT_HEIGHT * LABEL_FONT_PT / 2 + LABEL_GAP_PT / 2, marker = (l->marker.x1 - l->marker.x0) / 2;
    for (int ring = 0; ring < LABEL_RINGS; ++ring)
        for (size_t d = 0; d < sizeof directions / sizeof directions[0]; ++d) {
            double dx = directions[d][0] * (marker + half_w + ring * 2 * half_w);
            double dy = directions[d][1] * (marker + half_h + ring * 2 * half_h);
            struct box text = box_around(l->px + dx, l->py + dy, half_w, half_h);
            if (text_fits(&text, labels, n, width, height)) {
                l->text = text;
                l->placed = true;
                l->leader = ring > 0;
                return;
            }
        }
}

/* A label for every point of the chart (three per variant, less those at no traffic), its marker's box on a frame of
 * width by height points. */
static int collect_labels(const struct point *points, int n, const struct chart_ranges *c, double width,
                          double height, struct label *labels)
{
    int count = 0;
    for (int i = 0; i < n; ++i)
        for (int l = 0; l < ROOF_LEVELS; ++l) {
            double x = points[i].flop_per_byte[l], y = points[i].gflops;
            if (!usable(x) || !usable(y))
                continue;
            struct label *at = &labels[count++];
            *at = (struct label){.number = i + 1, .level = l, .x = x, .y = y,
                                 .px = on_page(x, c->xmin, c->xmax, width), .py = on_page(y, c->ymin, c->ymax, height)};
            at->marker = box_around(at->px, at->py, MARKER_HALF_PT * marker_size[l], MARKER_HALF_PT * marker_size[l]);
        }
    return count;
}

static int neighbours(const struct label *labels, int n, int i)
{
    int near = 0;
    for (int j = 0; j < n; ++j)
        near += j != i && fabs(labels[j].px - labels[i].px) < CROWD_PT && fabs(labels[j].py - labels[i].py) < CROWD_PT;
    return near;
}

/* Each point's number, placed so that no two numbers and no number and marker meet on the page: the points in
 * the order of how crowded their neighbourhood is, the most crowded first, as they have the fewest free places. */
static void place_labels(struct label *labels, int n, double width, double height)
{
    int order[MAX_VARIANTS * ROOF_LEVELS], crowd[MAX_VARIANTS * ROOF_LEVELS];
    for (int i = 0; i < n; ++i) {
        int at = i;
        crowd[i] = neighbours(labels, n, i);
        for (; at > 0 && crowd[order[at - 1]] < crowd[i]; --at)
            order[at] = order[at - 1];
        order[at] = i;
    }
    for (int i = 0; i < n; ++i)
        place_label(&labels[order[i]], labels, n, width, height);
}

/* Every point's number on the chart, and which markers lie on one another. */
struct chart_labels {
    struct label at[MAX_VARIANTS * ROOF_LEVELS];
    int n;
    int group[MAX_VARIANTS * ROOF_LEVELS]; /* labels of a level whose markers lie on one another share a group */
};

/* Markers of one level that hide each other at print size: centres nearer than a quarter of a marker's width
 * either way. */
static bool on_one_another(const struct label *a, const struct label *b)
{
    double near = (a->marker.x1 - a->marker.x0) / 4;
    return a->level == b->level && fabs(a->px - b->px) < near && fabs(a->py - b->py) < near;
}

/* A chain of markers on one another is one group (15 on 16, 16 on 17: all three). */
static void group_markers(struct chart_labels *c)
{
    for (int i = 0; i < c->n; ++i)
        c->group[i] = i;
    for (int i = 0; i < c->n; ++i)
        for (int j = 0; j < i; ++j)
            if (c->group[i] != c->group[j] && on_one_another(&c->at[i], &c->at[j])) {
                int from = c->group[i];
                for (int k = 0; k < c->n; ++k)
                    c->group[k] = c->group[k] == from ? c->group[j] : c->group[k];
            }
}

static void label_the_chart(const struct point *points, int n, const struct chart_ranges *c, struct chart_labels *l)
{
    double width = (frame.right - frame.left) * PAGE_WIDTH_PT, height = (frame.top - frame.bottom) * PAGE_HEIGHT_PT;
    l->n = collect_labels(points, n, c, width, height, l->at);
    place_labels(l->at, l->n, width, height);
    group_markers(l);
}

/* The levels where the markers of points a and b lie on one another (groups never span levels). */
static void levels_on_one_another(const struct chart_labels *l, int a, int b, bool at[ROOF_LEVELS])
{
    for (int i = 0; i < l->n; ++i)
        for (int j = 0; j < l->n; ++j)
            if (l->at[i].number == a && l->at[j].number == b && l->group[i] == l->group[j])
                at[l->at[i].level] = true;
}

/* The numbers of one level in the key's last cell, in order: a run of three or more consecutive numbers as its first
 * and last ("34-41"), so that a point among many on one another keeps a cell the page's last column holds. */
static size_t put_numbers(char *cell, size_t len, size_t used, const bool *listed, int points)
{
    for (int first = 1, put = 0; first <= points && used < len; ++first) {
        if (!listed[first])
            continue;
        int last = first;
        while (last + 1 <= points && listed[last + 1])
            ++last;
        const char *gap = put++ ? ", " : " ";
        if (last - first >= 2)
            used += snprintf(cell + used, len - used, "%s%d-%d", gap, first, last);
        else
            used += snprintf(cell + used, len - used, last > first ? "%s%d, %d" : "%s%d", gap, first, last);
        first = last;
    }
    return used;
}

/* The key's last cell: for each level, the numbers whose markers lie on this one's there ("L1/shared 16, 19, 20;
 * L2 19; DRAM 15-17, 19"), level by level so that a crowded point's cell stays short enough for the page's last
 * column; "-" for none (gnuplot reads an empty last cell as missing and draws another row's). */
static void on_one_another_cell(char *cell, size_t len, const struct chart_labels *l, int number, int points)
{
    static const char *const level_names[ROOF_LEVELS] = {"L1/shared", "L2", "DRAM"};
    bool at[MAX_VARIANTS + 1][ROOF_LEVELS] = {{false}}, listed[MAX_VARIANTS + 2];
    size_t used = 0;
    snprintf(cell, len, "-");
    if (points > MAX_VARIANTS)
        points = MAX_VARIANTS;
    for (int other = 1; other <= points; ++other)
        if (other != number)
            levels_on_one_another(l, number, other, at[other]);
    for (int k = 0; k < ROOF_LEVELS && used < len; ++k) {
        bool any = false;
        for (int other = 1; other <= points; ++other)
            any |= listed[other] = at[other][k];
        if (any) {
            used += snprintf(cell + used, len - used, "%s%s", used ? "; " : "", level_names[k]);
            used = put_numbers(cell, len, used, listed, points);
        }
    }
}

static void key_row(FILE *f, const struct report_model *m, const struct point *p, int number,
                    const struct chart_labels *l, int points)
{
    char cell[8][160], bound[32];
    report_format_count(cell[0], sizeof cell[0], p->gflops);
    if (p->from_model)
        strncat(cell[0], " *", sizeof cell[0] - strlen(cell[0]) - 1);
    if (tensor_point(p))
        report_format_tensor(cell[0], sizeof cell[0], &p->tensor);
    for (int c = 0; c < ROOF_LEVELS; ++c)
        intensity_cell(cell[1 + c], sizeof cell[1 + c], p->flop_per_byte[c]);
    snprintf(cell[4], sizeof cell[4], "%s", bound_name(p, bound, sizeof bound));
    report_format_count(cell[5], sizeof cell[5], p->bound.gflops);
    report_format_number(cell[6], sizeof cell[6], 100.0 * p->gflops / p->bound.gflops, "%.0f %%");
    if (p->bound.roof == ROOF_NONE) {
        snprintf(cell[5], sizeof cell[5], "-");
        snprintf(cell[6], sizeof cell[6], "-");
    }
    on_one_another_cell(cell[7], sizeof cell[7], l, number, points);
    fprintf(f, "%d\t%d\t", p->v + 1, number);
    report_put_cell(f, m->label[p->v], 0);
    for (int c = 0; c < 8; ++c)
        report_put_cell(f, cell[c], c == 7);
}

/* roofline.tsv: the chart's points. */
static int write_points(const struct report_model *m, const struct point *points, int n, const char *dir,
                        struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    FILE *f = report_open(dir, "roofline.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("number\tlinetype\tvariant\tgflops\tflop_per_l1_shared_wavefront_byte\tflop_per_l2_byte\tflop_per_dram_byte"
          "\tflop_from_work_model\tbound\tbound_gflops\tpct_of_bound\ttensor_type\n",
          f);
    for (int i = 0; i < n; ++i)
        chart_row(f, m, &points[i], i + 1);
    return report_close(f, path, e);
}

/* roofline-key.tsv: the key's table. */
static int write_key(const struct report_model *m, const struct point *points, int n, const struct chart_labels *l,
                     const char *dir, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    FILE *f = report_open(dir, "roofline-key.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fprintf(f, "0\t#\t%s\tGFLOP/s\tFLOP/B L1/shared\tFLOP/B L2\tFLOP/B DRAM\tbound\tbound GFLOP/s\t%% of bound"
               "\ton one another with\n",
            m->program ? "kernel" : "variant");
    for (int i = 0; i < n; ++i)
        key_row(f, m, &points[i], i + 1, l, n);
    return report_close(f, path, e);
}

/* roofline-labels.tsv: a row per number on the chart (level 0 L1/shared, 1 L2, 2 DRAM), its point and its text's
 * centre in the chart's units, and whether a leader line joins them; an unplaced number has no text (NaN), the key
 * still lists it. */
static int write_labels(const struct chart_labels *labels, const struct chart_ranges *c, const char *dir,
                        struct error *e)
{
    double width = (frame.right - frame.left) * PAGE_WIDTH_PT, height = (frame.top - frame.bottom) * PAGE_HEIGHT_PT;
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    FILE *f = report_open(dir, "roofline-labels.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("number\tlevel\tx\ty\tlabel_x\tlabel_y\tleader\n", f);
    for (int i = 0; i < labels->n; ++i) {
        const struct label *l = &labels->at[i];
        double cx = (l->text.x0 + l->text.x1) / 2, cy = (l->text.y0 + l->text.y1) / 2;
        fprintf(f, "%d\t%d\t", l->number, l->level);
        report_put_value(f, l->x, 0);
        report_put_value(f, l->y, 0);
        report_put_value(f, l->placed ? from_page(cx, c->xmin, c->xmax, width) : NAN, 0);
        report_put_value(f, l->placed ? from_page(cy, c->ymin, c->ymax, height) : NAN, 0);
        fprintf(f, "%d\n", l->leader);
    }
    return report_close(f, path, e);
}

/* ---- the captions' sentences, from the run ---- */

/* Variants that share a colour: the palette has fewer colours than the run has variants. */
static void colour_note(const struct report_model *m, char *note, size_t len)
{
    int colours = palette_colour_count();
    *note = '\0';
    if (m->variants > colours)
        snprintf(note, len, "the palette's %d colours repeat (variants 1 and %d share one): read the number", colours,
                 colours + 1);
}

/* The points without a bound: tensor-core work without a roof, with how busy its pipe was. A run that counted
 * tensor operations lacks the roof of the point's type; an older run counted none, and measured the tensor pipe only
 * with the FP64 one (fp64_tensor_pipe_pct). */
static int tensor_note(const struct report_model *m, const struct point *points, int n, char *note, size_t len,
                       struct error *e)
{
    int width = m->largest_width, listed = 0;
    bool uncounted = false;
    *note = '\0';
    for (int i = 0; i < n; ++i) {
        const struct point *p = &points[i];
        double pipe = NAN;
        size_t used = strlen(note);
        if (!p->uncounted_tensor && !(tensor_point(p) && p->bound.roof == ROOF_NONE))
            continue;
        uncounted |= p->uncounted_tensor;
        const char *pipe_metric = diagnosis_input_name(p->uncounted_tensor ? IN_FP64_TENSOR_PIPE : IN_TENSOR_PIPE);
        if (results_main_kernel_metric(m->r, m->variant[p->v], product_shape_square(width), pipe_metric, &pipe, e))
            return e->code;
        used += snprintf(note + used, len - used, "%s%d (%s", listed++ ? ", " : "No bound for ", i + 1,
                         m->label[p->v]);
        if (!isnan(pipe) && used < len)
            used += snprintf(note + used, len - used, ", %s busy %.0f %%",
                             p->uncounted_tensor ? "FP64/tensor pipe" : "tensor pipe", pipe);
        if (tensor_point(p) && used < len)
            used += snprintf(note + used, len - used, ", %s", report_tensor_type_name(p->tensor.type));
        if (used < len)
            snprintf(note + used, len - used, ")");
    }
    if (listed && strlen(note) < len)
        snprintf(note + strlen(note), len - strlen(note), "%s",
                 uncounted ? ": its FLOP run on tensor cores, for which the chart has no roof."
                           : ": this run measured no roof of its tensor type (environment.csv, ceiling_tensor_*).");
    return 0;
}

/* How the chart's FLOP were counted, for its caption's first line (short enough for the page's width): a run that
 * counted tensor operations (metrics.csv's flop_tensor_* for any point) places its tensor kernels by them; an older
 * run counted none. */
static const char *flop_source(const struct report_model *m, const struct point *points, int n)
{
    bool counted = false;
    for (int i = 0; i < n; ++i)
        counted |= points[i].tensor.counted;
    if (counted)
        return m->program ? "executed instructions; a tensor kernel's: its tensor operations of its type, against the "
                            "measured roof of that type"
                          : "executed instructions, or 2 W^3 where they count under half; tensor kernels: their tensor "
                            "operations of their type";
    return m->program ? "executed instructions; this profile predates memscope's count of tensor-core operations"
                      : "executed instructions, or 2 W^3 where they count under half; this run predates memscope's "
                        "count of tensor operations";
}

/* The measured L2 roof is a copy's bandwidth: where a kernel moves a larger share of it than CUPTI's share of the
 * L2's peak, the roof lies below the peak. Said for the point that moves the largest share of it (a program's
 * point by its number alone: a job's name would run off the page). */
static int l2_note(const struct report_model *m, const struct point *points, int n, const struct page_roofs *r,
                   char *note, size_t len, struct error *e)
{
    int width = m->largest_width, top = -1;
    double top_share = 0, sol_l2 = NAN;
    *note = '\0';
    if (!r->source[CEILING_L2] || strcmp(r->source[CEILING_L2], "measured") != 0)
        return 0;
    for (int i = 0; i < n; ++i) {
        double share = 100.0 * points[i].gflops / (points[i].flop_per_byte[ROOF_L2] * r->rate.value[CEILING_L2]);
        if (isfinite(share) && share > top_share)
            top = i, top_share = share;
    }
    if (top < 0 || results_main_kernel_metric(m->r, m->variant[points[top].v], product_shape_square(width),
                                              DERIVED(SOL_L2_PCT), &sol_l2, e))
        return e->code;
    if (sol_l2 < top_share)
        snprintf(note, len,
                 "The L2 roof is a copy's bandwidth, not the L2's peak: %d%s%s%s moves %.0f %% of it, CUPTI puts the L2 "
                 "at %.0f %% of its peak (lts__throughput).",
                 top + 1, m->program ? "" : " (", m->program ? "" : m->variant[points[top].v], m->program ? "" : ")",
                 top_share, sol_l2);
    return 0;
}

/* This page's GFLOP/s count the executed FLOP; the other pages' divide 2 W^3: the largest difference. */
static void flop_note(const struct report_model *m, const struct point *points, int n, char *note, size_t len)
{
    int width = m->largest_width, top = -1;
    double top_change = 0, summary = NAN;
    char here[32], there[32];
    *note = '\0';
    for (int i = 0; i < n; ++i) {
        double s = report_summary_value(m, m->variant[points[i].v], width, SUMMARY_GFLOPS);
        double change = fabs(points[i].gflops / s - 1);
        if (!points[i].from_model && change > top_change)
            top = i, top_change = change, summary = s;
    }
    if (top < 0)
        return;
    report_format_count(here, sizeof here, points[top].gflops);
    report_format_count(there, sizeof there, summary);
    snprintf(note, len,
             "GFLOP/s here: the executed FLOP over the median time; the summary divides 2 W^3 instead, %.2g %% apart "
             "at most (%s: %s against %s).",
             100.0 * top_change, m->variant[points[top].v], here, there);
}

static int write_notes(FILE *f, const struct report_model *m, const struct point *points, int n,
                       const struct page_roofs *r, struct error *e)
{
    char note[512];
    colour_note(m, note, sizeof note);
    report_put_variable(f, "roofline_colour_note", note);
    if (tensor_note(m, points, n, note, sizeof note, e))
        return e->code;
    report_put_variable(f, "roofline_tensor_note", note);
    if (l2_note(m, points, n, r, note, sizeof note, e))
        return e->code;
    report_put_variable(f, "roofline_l2_note", note);
    flop_note(m, points, n, note, sizeof note);
    report_put_variable(f, "roofline_flop_note", note);
    return 0;
}

/* Where the roofs come from: measured, the datasheet, or (a program's profile without ceilings) nowhere. */
static const char *roofs_note(const struct report_model *m, const struct page_roofs *r, const struct tensor_roofs *t)
{
    int tensor_measured = 0;
    for (int i = 0; i < REPORT_TENSOR_TYPE_COUNT; ++i)
        tensor_measured += !isnan(t->gflops[i]);
    if (m->program && r->measured == 0 && tensor_measured == 0)
        return "No roofs: this profile holds no measured ceilings (environment.csv, ceiling_*), and a program's "
               "profile draws no datasheet figures; the points alone.";
    if (m->program && (r->measured < DRAWN_CEILINGS || tensor_measured == 0))
        return "Roofs measured on this GPU where the profile has the ceiling; none for the others.";
    return r->measured == DRAWN_CEILINGS
               ? "Roofs measured on this GPU by memscope's kernels (environment.csv, ceiling_*): what they reached, not "
                 "the peaks; a kernel can pass one."
           : r->measured > 0 ? "Roofs measured on this GPU where the run has the ceiling, else from the datasheet (each "
                               "roof says which)."
                             : "Roofs from the datasheet: this run measured no ceilings, and there is no L2 roof (NVIDIA "
                               "publishes no L2 bandwidth).";
}

/* The chart as both its pages draw it: the roofs, a point per variant, the chart's ranges and its numbers' places. */
struct roofline_chart {
    struct page_roofs roofs;
    struct tensor_roofs tensor_roofs;
    struct point points[MAX_VARIANTS];
    int n;
    struct chart_ranges ranges;
    struct chart_labels labels;
};

static int write_roofs(const struct report_model *m, const char *dir, const struct roofline_chart *chart,
                       struct error *e)
{
    static const struct {
        enum ceiling c;
        const char *value, *title;
    } roofs[] = {{CEILING_L1_SHARED, "roof_l1_shared_gbs", "roof_l1_shared_title"},
                 {CEILING_L2, "roof_l2_gbs", "roof_l2_title"},
                 {CEILING_DRAM, "roof_dram_gbs", "roof_dram_title"},
                 {CEILING_FP32, "roof_fp32_gflops", "roof_fp32_title"},
                 {CEILING_FP64, "roof_fp64_gflops", "roof_fp64_title"}};
    const struct page_roofs *r = &chart->roofs;
    const struct chart_ranges *c = &chart->ranges;
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    FILE *f = report_open(dir, "roofs.gp", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("# Written by memscope-report-data; loaded by scripts/report/roofline.gp and roofline_key.gp.\n", f);
    for (size_t i = 0; i < sizeof roofs / sizeof roofs[0]; ++i) {
        report_put_number(f, roofs[i].value, r->rate.value[roofs[i].c]);
        roof_title(f, roofs[i].title, r, roofs[i].c);
    }
    tensor_roof_titles(f, &chart->tensor_roofs);
    report_put_variable(f, "roofs_note", roofs_note(m, r, &chart->tensor_roofs));
    report_put_variable(f, "roofline_flop_source", flop_source(m, chart->points, chart->n));
    if (write_notes(f, m, chart->points, chart->n, r, e))
        return fclose(f), e->code;
    report_put_number(f, "roofline_xmin", c->xmin);
    report_put_number(f, "roofline_xmax", c->xmax);
    report_put_number(f, "roofline_ymin", c->ymin);
    report_put_number(f, "roofline_ymax", c->ymax);
    fprintf(f, "roofline_frame_left = %g\nroofline_frame_right = %g\nroofline_frame_bottom = %g\n"
               "roofline_frame_top = %g\nroofline_label_font = %g\nroofline_marker_sizes = \"%g %g %g\"\n",
            frame.left, frame.right, frame.bottom, frame.top, LABEL_FONT_PT, marker_size[0], marker_size[1],
            marker_size[2]);
    return report_close(f, path, e);
}

static int draw_chart(const struct report_model *m, struct roofline_chart *c, struct error *e)
{
    c->n = 0;
    if (read_roofs(m->r, &c->roofs, e) || read_tensor_roofs(m->r, &c->roofs, &c->tensor_roofs, e))
        return e->code;
    for (int v = 0; v < m->variants; ++v) {
        bool found;
        if (read_point(m, v, &c->roofs, &c->points[c->n], &found, e))
            return e->code;
        c->n += found;
    }
    c->ranges = chart_ranges(c->points, c->n, &c->roofs, &c->tensor_roofs);
    label_the_chart(c->points, c->n, &c->ranges, &c->labels);
    return 0;
}

/* roofline.tsv (a row per variant that passed: its FLOP per byte at L1/shared, L2 and DRAM, its GFLOP/s and its
 * bound), roofline-labels.tsv (where each point's number goes, no two meeting) and roofs.gp (the roofs, measured or
 * datasheet, the chart's ranges and its frame on the page; the key's page loads it too). */
int report_write_roofline(const struct report_model *m, struct page_output *out, struct error *e)
{
    static struct roofline_chart c;
    if (draw_chart(m, &c, e) || write_points(m, c.points, c.n, out->dir, e) ||
        write_roofs(m, out->dir, &c, e) ||
        write_labels(&c.labels, &c.ranges, out->dir, e))
        return e->code;
    fprintf(out->variables, "roofline_points = %d\n", c.n);
    return 0;
}

/* roofline-key.tsv, the same points for the key's table; no page for a chart without points. */
int report_write_roofline_key(const struct report_model *m, struct page_output *out, struct error *e)
{
    static struct roofline_chart c;
    if (draw_chart(m, &c, e))
        return e->code;
    out->copies = c.n > 0;
    return c.n > 0 ? write_key(m, c.points, c.n, &c.labels, out->dir, e) : 0;
}
