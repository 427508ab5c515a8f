/*
 * The tables of the roofline, stall, ladder and performance pages, with no GPU and no gnuplot; last, the reference
 * run's report as printed (gnuplot and poppler-utils, skipped without them): no two words on a page overlap.
 *
 * The stalls.csv of the fixture is
 * cut from the H100 reference run at 8d2607b (naive_uncoalesced, tiled_32 and halfwarp_lanes at W = 4096,
 * three rows of tiled_32 at W = 1024, which the pages leave out); the shares below were summed from it
 * with a spreadsheet-like script, not by memscope.
 *
 * The hierarchical roofline's data: memscope-report-data's tables for a results
 * folder cut from the H100 reference run (tests/fixtures/roofline-run: its FLOP, DRAM bytes and times) with
 * measured ceilings in its environment and L2 bytes and L1/shared wavefronts chosen so that each variant
 * sits under a different roof (the reference run predates those two counts): at W = 4096, with roofs
 * L1/shared 30,000 GB/s, L2 6,500 GB/s, DRAM 3,000 GB/s, FP32 60,000 and FP64 30,000 GFLOP/s,
 *   naive              0.5 / 1 / 16.1 FLOP per byte:   L2 (6,500 GFLOP/s), 94 % of it;
 *   naive_uncoalesced  0.0195 / 0.125 / 16.1:          L1/shared (586), 85 %;
 *   tiled_32           0.4 / 8 / 16.2:                 L1/shared (12,000), 75 %;
 *   halfwarp_lanes     8 / 40 / 393:                   FP32 compute (60,000), 78 %;
 *   tiled_32_fp64      2 / 10 / 8.07:                  DRAM (24,214), 20 %;
 *   cublas_fp64        4 / 30 / 86 (tensor cores: FLOP from the work model): no roof of the chart, no bound;
 * tiled_16 failed its check at 4096 and has no point; the rows at W = 1024 have none either.
 */
#define _XOPEN_SOURCE 700
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/csv/reader.h"

#define FIXTURE "tests/fixtures/roofline-run"
#define REFERENCE "reports/reference"

#include "../support/page_data.h"

/* ---- roofline.tsv, read by column name ---- */

#define MAX_ROWS 192 /* the roofline's labels: three per variant, at most MAX_VARIANTS (64) */
#define MAX_COLUMNS 16
#define MAX_CELL 96 /* the key's longest cell, a bf16 rung's points on one another, with room to spare */

struct tsv {
    int rows, columns;
    char header[MAX_COLUMNS][48];
    char cell[MAX_ROWS][MAX_COLUMNS][MAX_CELL];
};

static void read_tsv(const char *name, struct tsv *t)
{
    char path[192], line[1024];
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s was not written", path);
    memset(t, 0, sizeof *t);
    for (int n = 0; fgets(line, sizeof line, f); ++n) {
        line[strcspn(line, "\n")] = '\0';
        int c = 0;
        for (char *save, *field = strtok_r(line, "\t", &save); field && c < MAX_COLUMNS;
             field = strtok_r(NULL, "\t", &save), ++c)
            snprintf(n == 0 ? t->header[c] : t->cell[t->rows][c], n == 0 ? sizeof t->header[c] : MAX_CELL, "%s",
                     field);
        if (n == 0)
            t->columns = c;
        else if (++t->rows == MAX_ROWS)
            break;
    }
    fclose(f);
}

static const char *cell(const struct tsv *t, const char *variant, const char *column)
{
    int vc = -1, cc = -1;
    for (int c = 0; c < t->columns; ++c) {
        vc = strcmp(t->header[c], "variant") == 0 ? c : vc;
        cc = strcmp(t->header[c], column) == 0 ? c : cc;
    }
    if (vc < 0 || cc < 0)
        fail_msg("no column %s", cc < 0 ? column : "variant");
    for (int r = 0; r < t->rows; ++r)
        if (strcmp(t->cell[r][vc], variant) == 0)
            return t->cell[r][cc];
    return NULL;
}

static double number(const struct tsv *t, const char *variant, const char *column)
{
    const char *text = cell(t, variant, column);
    if (!text)
        fail_msg("no row for %s", variant);
    return strtod(text, NULL);
}

static void assert_within(double actual, double expected, double tolerance, const char *what)
{
    if (!(fabs(actual - expected) <= tolerance))
        fail_msg("%s: expected %g (within %g), got %g", what, expected, tolerance, actual);
}

/* ---- the tests ---- */

static void each_variant_gets_the_roof_that_bounds_it(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *bound;
        double pct;
        int from_model;
    } expected[] = {
        {"naive", "L2", 94.17, 0},
        {"naive_uncoalesced", "L1/shared", 85.0, 0},
        {"tiled_32", "L1/shared", 74.91, 0},
        {"halfwarp_lanes", "FP32 compute", 77.52, 0},
        {"tiled_32_fp64", "DRAM", 20.10, 0},
        {"cublas_fp64", "none: tensor cores", NAN, 1},
    };
    static struct tsv t;
    write_data(FIXTURE);
    read_tsv("roofline.tsv", &t);
    /* One row per variant that passed at the largest width: tiled_16 failed there, W = 1024 is not drawn. */
    assert_int_equal(t.rows, (int)(sizeof expected / sizeof expected[0]));
    assert_null(cell(&t, "tiled_16", "bound"));
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i) {
        const char *bound = cell(&t, expected[i].variant, "bound");
        if (!bound || strcmp(bound, expected[i].bound) != 0)
            fail_msg("%s: bound %s, expected %s", expected[i].variant, bound ? bound : "(no row)", expected[i].bound);
        double pct = number(&t, expected[i].variant, "pct_of_bound");
        if (isnan(expected[i].pct) ? !isnan(pct) : !(fabs(pct - expected[i].pct) <= 0.01))
            fail_msg("%s: %g %% of its bound, expected %g", expected[i].variant, pct, expected[i].pct);
        assert_int_equal((int)number(&t, expected[i].variant, "flop_from_work_model"), expected[i].from_model);
        assert_int_equal((int)number(&t, expected[i].variant, "number"), (int)i + 1);
    }
    /* The three x of naive_uncoalesced, and its y: 2 x 4096^3 FLOP in its median 275.86 ms. */
    double flop = 2.0 * 4096 * 4096 * 4096;
    assert_within(number(&t, "naive_uncoalesced", "flop_per_dram_byte"), flop / 8528398592.0, 1e-3, "DRAM x");
    assert_within(number(&t, "naive_uncoalesced", "flop_per_l2_byte"), 0.125, 1e-6, "L2 x");
    assert_within(number(&t, "naive_uncoalesced", "flop_per_l1_shared_wavefront_byte"), 0.0195378, 1e-6, "L1/shared x");
    assert_within(number(&t, "naive_uncoalesced", "gflops"), flop / 275.8635712e-3 / 1e9, 0.01, "GFLOP/s");
    assert_within(number(&t, "tiled_32_fp64", "bound_gflops"), 3000.0 * flop / 17027809024.0, 0.1, "DRAM bound");
}

static void measured_ceilings_are_the_roofs_and_say_so(void **state)
{
    (void)state;
    write_data(FIXTURE);
    file_holds("roofs.gp", "roof_l2_gbs = 6500\n");
    file_holds("roofs.gp", "roof_l1_shared_title = 'L1/shared 30,000 GB/s (measured)'");
    file_holds("roofs.gp", "roof_fp64_title = 'FP64 30,000 GFLOP/s (measured)'");
    file_holds("roofs.gp", "roofs_note = 'Roofs measured on this GPU");
    file_holds("variables.gp", "largest_width = 4096\n");
    file_lacks("roofs.gp", "datasheet");
    file_holds("variables.gp", "roofline_points = 6\n");
}

static void the_key_lists_every_point_with_its_bound(void **state)
{
    (void)state;
    static struct tsv t;
    write_data(FIXTURE);
    read_tsv("roofline-key.tsv", &t);
    assert_int_equal(t.rows, 6);
    assert_string_equal(cell(&t, "naive_uncoalesced", "bound"), "L1/shared");
    assert_string_equal(cell(&t, "naive_uncoalesced", "% of bound"), "85 %");
    assert_string_equal(cell(&t, "halfwarp_lanes", "bound GFLOP/s"), "60,000");
    assert_string_equal(cell(&t, "cublas_fp64", "GFLOP/s"), "60,422 *"); /* FLOP from the work model */
    assert_string_equal(cell(&t, "naive", "FLOP/B L2"), "1");
    file_holds("pages.tsv", "roofline\troofline.gp\t\nroofline-key\troofline_key.gp\t\n");
}

/* The reference run's cublas_fp64 (run S, the H200 reference run at c248597: point 25) runs on the FP64 tensor cores
 * (DMMA), which the chart has no roof for: its metrics.csv at W = 4096 counts 137,438,953,472 FLOP as
 * flop_tensor_fp64 (sm__ops_path_tensor_src_fp64.sum; and 16,777,216 as flop_fp64), and environment.csv holds no
 * ceiling_tensor_fp64_gflops. No memory roof is named its bound for want of a compute roof (an older key said
 * "L2, 94 %" while CUPTI put the L2 at 54 % of its peak), and the caption says why, with its tensor pipe busy
 * 97.74 % (summary.csv's tensor_pipe_pct). The L2 note names the point that moves the largest share of the measured
 * L2 roof (environment.csv: 7,505.8 GB/s): warp_specialized (point 32), 1,759,470,304 bytes of L2 traffic
 * (lts__t_bytes.sum) in its median 0.1966720074 ms, 8,946 GB/s, 119.2 % of the roof (tma_wgmma, the next, 110.9 %),
 * where CUPTI puts the L2 at 68 % of its peak (summary.csv's sol_l2_pct 67.76). */
static void a_tensor_core_point_is_held_to_no_memory_roof(void **state)
{
    (void)state;
    static struct tsv t;
    write_data(REFERENCE);
    read_tsv("roofline.tsv", &t);
    assert_string_equal(cell(&t, "cublas_fp64", "bound"), "none: no fp64 roof");
    assert_true(isnan(number(&t, "cublas_fp64", "pct_of_bound")));
    assert_string_equal(cell(&t, "tiled_32_fp64", "bound"), "L1/shared"); /* DFMA: the FP64 roof applies */
    file_holds("roofs.gp", "roofline_tensor_note = 'No bound for 25 (cublas_fp64, tensor pipe busy 98 %, fp64): this "
                           "run measured no roof of its tensor type (environment.csv, ceiling_tensor_*).'");
    file_holds("roofs.gp",
               "roofline_l2_note = 'The L2 roof is a copy'.\"'\".'s bandwidth, not the L2'.\"'\".'s peak: 32 "
               "(warp_specialized) moves 119 % of it, CUPTI puts the L2 at 68 % of its peak "
               "(lts__throughput).'");
    file_holds("roofs.gp", "roofs_note = 'Roofs measured on this GPU by memscope'.\"'\".'s kernels (environment.csv, "
                           "ceiling_*): what they reached, not the peaks; a kernel can pass one.'");
}

/* Points whose markers lie on one another at print size are named in the key, level by level, a run of three or more
 * numbers as its first and last (run S, the H200 reference run at c248597, its 46 points placed from metrics.csv's
 * FLOP and l1_shared_wavefront_bytes, l2_bytes and dram_bytes at W = 4096 and summary.csv's medians, on the chart the
 * run's roofs give (x 0.01 to 1000 FLOP/B, y 100 to 10^7 GFLOP/s), centres a quarter of a marker apart or less, a chain
 * one group; worked out from those files by a script of its own, which first reproduced the rows of run R at 089cd4a,
 * gave every row of the key as the page has it: 4 on 5 at every level, 28 on 29 at every level, 23 on 24 at every
 * level, and with 6 at L1/shared; 17 on 19, icache_fit and split_k, the same kernel, at every level, with 15 and 16 at
 * DRAM and with 16 and 20 at L1/shared, 15 on 16 at L2; 10 on 11 at every level, and with 12 at L2 and DRAM and 26 at
 * L2; 13 on 14 at L1/shared and L2, 20 on 21 at L2 and DRAM (at DRAM alone in run R), 32 on 33 at L1/shared; and the
 * bf16 rungs from tma_store on with cuBLAS: 34 to 43 at L1/shared, 44 on 45 there, 34 and 36 to 45 at L2, and at DRAM
 * two groups, 36 to 43 and 35 (cluster_multicast) with 44 and 45 (in run R one, 35 to 45)); a point alone reads "-".
 * cublas_bf16 is point 44 here (short_tiles is 43; cublas_fp16 45). */
static void points_on_one_another_are_named_in_the_key(void **state)
{
    (void)state;
    static struct tsv t;
    write_data(REFERENCE);
    read_tsv("roofline-key.tsv", &t);
    static const char *const expected[][2] = {
        {"naive", "-"},
        {"tiled_32", "L1/shared 5; L2 5; DRAM 5"},
        {"tiled_corner_turning", "L1/shared 4; L2 4; DRAM 4"},
        {"vectorized", "L1/shared 11; L2 11, 12, 26; DRAM 11, 12"},
        {"large_tiles", "L2 16; DRAM 16, 17, 19"},
        {"icache_fit", "L1/shared 16, 19, 20; L2 19; DRAM 15, 16, 19"},
        {"spread_copies", "L1/shared 16, 17, 19; L2 21; DRAM 21"},
        {"tiled_32_fp64", "L1/shared 6, 24; L2 24; DRAM 24"},
        {"ldmatrix_padded", "L1/shared 29; L2 29; DRAM 29"},
        {"cublas_bf16", "L1/shared 45; L2 34, 36-43, 45; DRAM 35, 45"},
        {"overlapped_stores", "L1/shared 34-39, 41-43; L2 34, 36-39, 41-45; DRAM 36-39, 41-43"},
        {"even_waves", "L1/shared 34, 35, 37-43; L2 34, 37-45; DRAM 37-43"},
        {"square_tiles", "L1/shared 34-41, 43; L2 34, 36-41, 43-45; DRAM 36-41, 43"},
        {"short_tiles", "L1/shared 34-42; L2 34, 36-42, 44, 45; DRAM 36-42"},
        {"cluster_multicast", "L1/shared 34, 36-43; DRAM 44, 45"},
        {"mma_global", "L2 10-12"},
        {"cublas_fp64", "-"},
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i)
        assert_string_equal(cell(&t, expected[i][0], "on one another with"), expected[i][1]);
}

/* The captions' sentences from the run: colours repeat past the palette's twelve (46 variants; the fixture's 7
 * share none), the key's GFLOP/s count the executed FLOP where the summary divides 2 W^3 (cuBLAS executed
 * 137,472,507,904 FLOP, metrics.csv's flop_fp32, 2 x 4096^3 = 137,438,953,472: 0.024 % more; at W = 4096 in run S,
 * the H200 reference run at c248597, 51,403 GFLOP/s in its median 2.67443192 ms against summary.csv's 51,389.96;
 * every other point counts 2 W^3 exactly), and the L1/shared intensity is per byte (naive: 137,438,953,472 FLOP over
 * 550,074,163,328 l1_shared_wavefront_bytes: 0.2499). */
static void the_roofline_captions_say_what_the_run_shows(void **state)
{
    (void)state;
    static struct tsv t;
    write_data(REFERENCE);
    file_holds("roofs.gp",
               "roofline_colour_note = 'the palette'.\"'\".'s 12 colours repeat (variants 1 and 13 share one): "
               "read the number'");
    file_holds("roofs.gp", "roofline_flop_note = 'GFLOP/s here: the executed FLOP over the median time; the summary "
                           "divides 2 W^3 instead, 0.024 % apart at most (cublas: 51,403 against 51,390).'");
    read_tsv("roofline-key.tsv", &t);
    assert_string_equal(cell(&t, "naive", "FLOP/B L1/shared"), "0.25");
    write_data(FIXTURE);
    file_holds("roofs.gp", "roofline_colour_note = ''\n");
}

/* The committed reference run has no ceilings: the datasheet's roofs, no L2 roof, and labels that say so. */
static void without_ceilings_the_datasheet_is_used_and_named(void **state)
{
    (void)state;
    static struct tsv t;
    copy_fixture_and("sed -i '/^ceiling_/d' $R/environment.csv");
    write_data(scratch);
    file_holds("roofs.gp", "roof_l1_shared_title = 'L1/shared 33,454 GB/s (datasheet)'");
    file_holds("roofs.gp", "roof_dram_title = 'DRAM 3,352 GB/s (datasheet)'");
    file_holds("roofs.gp", "roof_fp32_title = 'FP32 66,908 GFLOP/s (datasheet)'");
    file_holds("roofs.gp", "roof_l2_gbs = NaN\n");
    file_holds("roofs.gp", "roofs_note = 'Roofs from the datasheet");
    file_lacks("roofs.gp", "(measured)");
    read_tsv("roofline.tsv", &t);
    /* naive without an L2 roof: 0.5 FLOP per wavefront byte x 33,454 GB/s. */
    assert_string_equal(cell(&t, "naive", "bound"), "L1/shared");
    assert_within(number(&t, "naive", "bound_gflops"), 0.5 * 128 * 132 * 1.98, 0.5, "naive's bound (6 digits)");
    /* The datasheet figures the other pages draw come from the same place. */
    file_holds("variables.gp", "fp32_peak_gflops = 66908.2\n");
    file_holds("variables.gp", "dram_peak_gbs = 3352.32\n");
}

static void a_run_without_byte_counts_has_no_points_and_no_key(void **state)
{
    (void)state;
    static struct tsv t;
    copy_fixture_and("rm $R/metrics.csv");
    write_data(scratch);
    read_tsv("roofline.tsv", &t);
    assert_int_equal(t.rows, 0);
    file_holds("variables.gp", "roofline_points = 0\n");
    file_holds("pages.tsv", "roofline\troofline.gp");
    file_lacks("pages.tsv", "roofline-key");
}

/* A number that memscope-report-data gave gnuplot in a data file ("name = 0.25"). */
static double gnuplot_number(const char *file, const char *name)
{
    char path[192], line[512], key[64];
    double value = NAN;
    snprintf(path, sizeof path, "%s/%s", data_dir, file);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s was not written", path);
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%63s = %lf", key, &value) == 2 && strcmp(key, name) == 0)
            break;
        else
            value = NAN;
    fclose(f);
    if (isnan(value))
        fail_msg("%s has no number %s", file, name);
    return value;
}

/* The roofline as printed, from roofs.gp: the frame on the page (points; the page is A4 landscape) and the axes. */
struct printed_chart {
    double width, height, font, xmin, xmax, ymin, ymax;
};

static struct printed_chart printed_chart(void)
{
    static const char *const f = "roofs.gp";
    return (struct printed_chart){
        .width = (gnuplot_number(f, "roofline_frame_right") - gnuplot_number(f, "roofline_frame_left")) * 841.89,
        .height = (gnuplot_number(f, "roofline_frame_top") - gnuplot_number(f, "roofline_frame_bottom")) * 595.28,
        .font = gnuplot_number(f, "roofline_label_font"),
        .xmin = gnuplot_number(f, "roofline_xmin"),
        .xmax = gnuplot_number(f, "roofline_xmax"),
        .ymin = gnuplot_number(f, "roofline_ymin"),
        .ymax = gnuplot_number(f, "roofline_ymax")};
}

struct page_box {
    double x0, y0, x1, y1;
};

/* Where a label's text lies on the printed page, in points from the frame's lower left corner: centred on its
 * place, a digit of the font 0.64 of its size wide and 0.75 of it high. */
static struct page_box label_box(const struct printed_chart *c, const char *text, double x, double y)
{
    double at_x = log10(x / c->xmin) / log10(c->xmax / c->xmin) * c->width;
    double at_y = log10(y / c->ymin) / log10(c->ymax / c->ymin) * c->height;
    double half_w = strlen(text) * 0.64 * c->font / 2, half_h = 0.75 * c->font / 2;
    return (struct page_box){at_x - half_w, at_y - half_h, at_x + half_w, at_y + half_h};
}

/* The H100 reference run: 27 pairs of its roofline's numbers overlapped when gnuplot set each beside its point.
 * Every point's number is on the chart, and no two numbers' boxes meet. */
static void the_roofline_numbers_do_not_overlap(void **state)
{
    (void)state;
    static struct tsv t;
    static struct page_box boxes[MAX_ROWS];
    int col[3];
    write_data(REFERENCE);
    struct printed_chart chart = printed_chart();
    read_tsv("roofline-labels.tsv", &t);
    /* run S, the H200 reference run at c248597: 46 variants passed at 4096 (summary.csv), each with traffic at all
     * three levels (metrics.csv: l1tex__data_pipe_lsu_wavefronts.sum, lts__t_bytes.sum, dram__bytes_read.sum and
     * _write.sum above 0 for each) */
    assert_int_equal(t.rows, 3 * 46);
    static const char *const names[] = {"number", "label_x", "label_y"};
    for (int n = 0; n < 3; ++n) {
        col[n] = -1;
        for (int c = 0; c < t.columns; ++c)
            col[n] = strcmp(t.header[c], names[n]) == 0 ? c : col[n];
        if (col[n] < 0)
            fail_msg("roofline-labels.tsv has no column %s", names[n]);
    }
    for (int r = 0; r < t.rows; ++r) {
        double x = strtod(t.cell[r][col[1]], NULL), y = strtod(t.cell[r][col[2]], NULL);
        if (isnan(x) || isnan(y))
            fail_msg("number %s (row %d) has no place on the chart", t.cell[r][col[0]], r + 1);
        boxes[r] = label_box(&chart, t.cell[r][col[0]], x, y);
        for (int q = 0; q < r; ++q)
            if (boxes[q].x0 < boxes[r].x1 && boxes[r].x0 < boxes[q].x1 && boxes[q].y0 < boxes[r].y1 &&
                boxes[r].y0 < boxes[q].y1)
                fail_msg("numbers %s (row %d) and %s (row %d) overlap", t.cell[q][col[0]], q + 1, t.cell[r][col[0]],
                         r + 1);
    }
}

/* ---- the stall pages ---- */

static void each_variant_gets_its_share_of_every_reason(void **state)
{
    (void)state;
    static struct tsv t;
    write_data(FIXTURE);
    read_tsv("stalls.tsv", &t);
    assert_int_equal(t.rows, 3); /* the variants with samples at W = 4096, in the run's order */
    assert_string_equal(t.cell[0][1], "naive_uncoalesced");
    assert_string_equal(t.cell[2][1], "halfwarp_lanes");
    assert_within(number(&t, "naive_uncoalesced", "lg_throttle"), 94.660, 0.001, "naive_uncoalesced lg_throttle");
    assert_within(number(&t, "tiled_32", "mio_throttle"), 42.663, 0.001, "tiled_32 mio_throttle");
    assert_within(number(&t, "halfwarp_lanes", "selected"), 38.407, 0.001, "halfwarp_lanes selected");
    for (int r = 0; r < t.rows; ++r) { /* the named reasons and "other" make up every sample */
        double sum = 0;
        for (int c = 2; c < t.columns; ++c)
            sum += strtod(t.cell[r][c], NULL);
        assert_within(sum, 100.0, 1e-3, t.cell[r][1]); /* each share printed to 6 digits */
    }
    assert_string_equal(t.header[t.columns - 1], "other");
    file_holds("variables.gp", "stall_rows = 3\n");
}

static void the_most_stalled_line_is_named_with_its_reason(void **state)
{
    (void)state;
    write_data(FIXTURE);
    file_holds("stall-lines.tsv", "naive_uncoalesced\tkernels/lessons/matmul_naive.cu:40\t");
    file_holds("stall-lines.tsv", "100 % of the samples; lg_throttle 95 % of the line's");
    file_holds("stall-lines.tsv", "tiled_32\tkernels/lessons/matmul_tiled.cu:30\tacc += Mds[ty][k] * Nds[k][tx];\t"
                                  "66 % of the samples; mio_throttle 54 % of the line's");
    file_holds("stall-lines.tsv", "halfwarp_lanes\tkernels/ladder/ladder_common.cuh:257\t");
    file_holds("pages.tsv", "stalls\tstalls.gp\t\nstall-lines\tstall_lines.gp\t\n");
}

/* Each variant's largest stall reason at width, summed from a stalls.csv row by row (not by memscope's pages). */
static void largest_reasons(const char *results, int width, const struct tsv *chart, char top[][48])
{
    static double samples[MAX_ROWS][64];
    static char reasons[64][48];
    char path[192];
    int n_reasons = 0, col[4];
    struct csv_table t;
    struct error e = {0};
    snprintf(path, sizeof path, "%s/stalls.csv", results);
    memset(samples, 0, sizeof samples);
    if (csv_table_read(path, &t, &e) || csv_table_column(&t, "variant", &col[0], &e) ||
        csv_table_column(&t, "width", &col[1], &e) || csv_table_column(&t, "reason", &col[2], &e) ||
        csv_table_column(&t, "samples", &col[3], &e))
        fail_msg("%s", e.message);
    for (int row = 0; row < t.rows; ++row) {
        int k = 0, w = atoi(csv_table_text(&t, row, col[1]));
        const char *reason = csv_table_text(&t, row, col[2]);
        while (k < n_reasons && strcmp(reasons[k], reason) != 0)
            ++k;
        if (k == n_reasons)
            snprintf(reasons[n_reasons++], sizeof reasons[0], "%.47s", reason);
        for (int r = 0; r < chart->rows && w == width; ++r)
            if (strcmp(chart->cell[r][1], csv_table_text(&t, row, col[0])) == 0)
                samples[r][k] += strtod(csv_table_text(&t, row, col[3]), NULL);
    }
    csv_table_free(&t);
    for (int r = 0; r < chart->rows; ++r) {
        int best = 0;
        for (int k = 1; k < n_reasons; ++k)
            best = samples[r][k] > samples[r][best] ? k : best;
        snprintf(top[r], sizeof top[r], "%.47s", reasons[best]);
    }
}

/* The H100 reference run at 4096 at ccbbfeb: the run's nine most common reasons left cublas_fp64's largest,
 * math_pipe_throttle (42 %), in "other" (43 %). Every variant's largest reason must have a colour of its own, and
 * "other" must stay under each variant's largest named share. In run R, the H200 reference run at 089cd4a,
 * cublas_fp64's largest was math_pipe_throttle (42.20 %), wait (41.81 %) beside it. In run S, the H200 reference run at
 * c248597, the two have changed places: cublas_fp64's largest is wait (42.16 % of its 25,204 samples at 4096 in
 * stalls.csv: 10,627; cp_async's largest too), math_pipe_throttle 41.24 % (10,393) beside it. math_pipe_throttle, no
 * variant's largest now and only the run's eleventh most common reason (its shares summed over the 46 variants), is
 * named as cublas_fp64's second, not left in "other", and cublas_fp64's other is 0.84 %. */
static void every_variant_s_largest_stall_reason_is_named(void **state)
{
    (void)state;
    static struct tsv t;
    static char top[MAX_ROWS][48];
    write_data(REFERENCE);
    read_tsv("stalls.tsv", &t);
    assert_int_equal(t.rows, 46); /* every one of the 46 variants has samples at 4096 */
    assert_string_equal(t.header[t.columns - 1], "other");
    largest_reasons(REFERENCE, 4096, &t, top);
    for (int r = 0; r < t.rows; ++r) {
        double largest_named = 0;
        for (int c = 2; c < t.columns - 1; ++c)
            largest_named = fmax(largest_named, strtod(t.cell[r][c], NULL));
        if (number(&t, t.cell[r][1], top[r]) < largest_named) /* fails on a missing column */
            fail_msg("%s: its largest reason %s is not the largest it is charted with", t.cell[r][1], top[r]);
        if (number(&t, t.cell[r][1], "other") > largest_named)
            fail_msg("%s: other %s %% over its largest named share %.1f %%", t.cell[r][1],
                     cell(&t, t.cell[r][1], "other"), largest_named);
    }
    assert_within(number(&t, "cublas_fp64", "wait"), 42.16, 0.05, "cublas_fp64 wait");
    assert_within(number(&t, "cublas_fp64", "math_pipe_throttle"), 41.24, 0.05, "cublas_fp64 math_pipe_throttle");
    assert_within(number(&t, "cublas_fp64", "other"), 0.84, 0.05, "cublas_fp64 other");
}

/* Each variant's share (%) of one stall reason at width, summed from a stalls.csv row by row. */
static double reason_share(const char *results, int width, const char *variant, const char *reason)
{
    char path[192];
    int col[4];
    double named = 0, all = 0;
    struct csv_table t;
    struct error e = {0};
    snprintf(path, sizeof path, "%s/stalls.csv", results);
    if (csv_table_read(path, &t, &e) || csv_table_column(&t, "variant", &col[0], &e) ||
        csv_table_column(&t, "width", &col[1], &e) || csv_table_column(&t, "reason", &col[2], &e) ||
        csv_table_column(&t, "samples", &col[3], &e))
        fail_msg("%s", e.message);
    for (int row = 0; row < t.rows; ++row)
        if (atoi(csv_table_text(&t, row, col[1])) == width && strcmp(csv_table_text(&t, row, col[0]), variant) == 0) {
            double samples = strtod(csv_table_text(&t, row, col[3]), NULL);
            all += samples;
            named += strcmp(csv_table_text(&t, row, col[2]), reason) == 0 ? samples : 0;
        }
    csv_table_free(&t);
    return all > 0 ? 100.0 * named / all : NAN;
}

/* The reason a step of the ladder moves most is named, not left in "other". Run S, the H200 reference run at c248597,
 * at W = 4096, each variant's shares summed from stalls.csv by this test (not by memscope's pages), the steps in
 * variants.csv's ladder_step order: icache_fit (step 12) against halfwarp_lanes moves no_instructions, the stall the
 * step is there to cut, most (991 of 25,550 samples, 3.88 %, to 148 of 25,093, 0.59 %: -3.29 points), not_selected
 * next (8,176 samples, 32.00 %, to 8,830, 35.19 %: +3.19; in run R, at 089cd4a, not_selected moved most, +3.79, and
 * no_instructions next, -3.08); naive to tiled_32 mio_throttle (+40.3 points), icache_fit to small_tiles not_selected
 * (-7.72), spread_copies to cublas short_scoreboard (3.37 % to 8.94 %: +5.58; dispatch_stall -5.25 next). Here eight
 * names go to the variants' largest reasons (long_scoreboard, lg_throttle, mio_throttle, selected, not_selected,
 * short_scoreboard, wait, barrier), among them every step's most moved but icache_fit's; then no_instructions for
 * that step; then the variants' seconds, cublas_fp64's (math_pipe_throttle, 41.24 %, under its wait, 42.16 %) and
 * cublas_bf16's (warpgroup_arrive, 21.22 %, under its barrier, 33.55 %). That makes the eleven, so dispatch_stall, the
 * run's eighth most common reason, named in run R, is in "other" now (halfwarp_lanes' other 9.18 %, of which
 * dispatch_stall 9.12 %; icache_fit's 9.50 %, of which 9.33 %), and cublas_bf16's other is 0.81 %. Every variant's
 * largest reason stays named too (above).
 */
static void the_reason_a_ladder_step_moves_most_is_named(void **state)
{
    (void)state;
    static struct tsv t;
    static const char *const ladder[] = {"naive",       "tiled_32",       "blocktiled_1d", "blocktiled_2d",
                                         "vectorized",  "vectorized_padded", "warptiled",  "pipelined",
                                         "rasterized",  "large_tiles",    "halfwarp_lanes", "icache_fit",
                                         "small_tiles", "split_k",        "spread_copies", "cublas"};
    static const char *const reasons[] = {"long_scoreboard", "not_selected", "selected",  "barrier",
                                          "mio_throttle",    "wait",         "short_scoreboard", "dispatch_stall",
                                          "lg_throttle",     "math_pipe_throttle", "warpgroup_arrive", "no_instructions",
                                          "drain",           "branch_resolving", "imc_miss"};
    write_data(REFERENCE);
    read_tsv("stalls.tsv", &t);
    for (size_t i = 1; i < sizeof ladder / sizeof ladder[0]; ++i) {
        const char *most = NULL;
        double moved = 1.0; /* the page's threshold: a point of the samples */
        for (size_t k = 0; k < sizeof reasons / sizeof reasons[0]; ++k) {
            double change = fabs(reason_share(REFERENCE, 4096, ladder[i], reasons[k]) -
                                 reason_share(REFERENCE, 4096, ladder[i - 1], reasons[k]));
            if (change >= moved)
                most = reasons[k], moved = change;
        }
        if (most && isnan(number(&t, ladder[i], most))) /* number() fails on a missing column */
            fail_msg("%s: %s, which moved most from %s, is not named", ladder[i], most, ladder[i - 1]);
    }
    assert_within(number(&t, "halfwarp_lanes", "no_instructions"), 3.879, 0.001, "halfwarp_lanes no_instructions");
    assert_within(number(&t, "icache_fit", "no_instructions"), 0.590, 0.001, "icache_fit no_instructions");
    assert_within(number(&t, "halfwarp_lanes", "not_selected"), 32.000, 0.001, "halfwarp_lanes not_selected");
    assert_within(number(&t, "icache_fit", "not_selected"), 35.189, 0.001, "icache_fit not_selected");
    assert_within(number(&t, "spread_copies", "short_scoreboard"), 3.365, 0.001, "spread_copies short_scoreboard");
    assert_within(number(&t, "cublas", "short_scoreboard"), 8.942, 0.001, "cublas short_scoreboard");
    assert_within(number(&t, "halfwarp_lanes", "other"), 9.182, 0.001, "halfwarp_lanes other");
    assert_within(number(&t, "icache_fit", "other"), 9.497, 0.001, "icache_fit other");
    assert_within(number(&t, "cublas_bf16", "warpgroup_arrive"), 21.220, 0.001, "cublas_bf16 warpgroup_arrive");
    assert_within(number(&t, "cublas_bf16", "other"), 0.808, 0.001, "cublas_bf16 other");
    for (int c = 0; c < t.columns; ++c) /* eleven names taken: dispatch_stall is in "other" */
        if (strcmp(t.header[c], "dispatch_stall") == 0)
            fail_msg("dispatch_stall has a column of its own");
}

static void a_run_without_stalls_has_no_stall_pages(void **state)
{
    (void)state;
    copy_fixture_and("rm $R/stalls.csv");
    write_data(scratch);
    file_lacks("pages.tsv", "stall");
}

/* Every page but the summaries shows the run's largest width (variables.gp's largest_width, 4096 here): a stalls.csv
 * without samples there gets no stall pages, rather than pages at its own largest width (1024, tiled_32's rows)
 * under a report that says 4096 everywhere else. */
static void the_stall_pages_show_the_run_s_largest_width_or_none(void **state)
{
    (void)state;
    copy_fixture_and("awk -F, '$3 != 4096' $R/stalls.csv >$R/cut && mv $R/cut $R/stalls.csv");
    write_data(scratch);
    file_holds("variables.gp", "largest_width = 4096\n");
    file_lacks("pages.tsv", "stall");
}

/* ---- the scripts ---- */

/* A chart reads its table's columns by the header's names ("position", column("gflops"), strcol("variant"), a title
 * from columnheader), never by number, so that a column the writer adds or moves cannot shift what a chart draws.
 * table.gp alone draws columns by number: a table page shows its file's columns in their order, the header row as
 * the page's header text. */
static void every_chart_reads_its_columns_by_name(void **state)
{
    (void)state;
    static struct outcome o;
    static const char *const by_number[] = {
        "using +[1-9A-Za-z_]",                                   /* using 3:..., using i:... */
        "(\"|\\)):[1-9]",                                        /* "width":2 */
        "(xtic|ytic|xticlabels)\\( *[0-9A-Za-z_]+ *\\)",         /* xtic(2), xtic(c) */
        "(column|stringcolumn|strcol) *\\( *[0-9A-Za-z_]+ *\\)", /* column(3), stringcolumn(c) */
        "\\$[1-9]",                                              /* $2; $0, the row's number, is no column */
    };
    char pattern[512] = "";
    for (size_t i = 0; i < sizeof by_number / sizeof by_number[0]; ++i)
        snprintf(pattern + strlen(pattern), sizeof pattern - strlen(pattern), "%s%s", i ? "|" : "", by_number[i]);
    shell(&o, "grep -nE '%s' scripts/report/*.gp | grep -v '^scripts/report/table.gp:'", pattern);
    if (o.exit_code == 0)
        fail_msg("columns read by number:\n%s", o.output);
}

static void a_negative_sample_count_is_refused_with_its_line(void **state)
{
    (void)state;
    struct results_folder r;
    struct error e = {0};
    copy_fixture_and("sed -i '2s/,[0-9]*$/,-4/' $R/stalls.csv");
    /* refused as the folder opens, by the one check of values every reader shares */
    assert_int_not_equal(results_folder_open(scratch, &r, &e), 0);
    if (!strstr(e.message, "stalls.csv:2: column 'samples' holds '-4'"))
        fail_msg("not the shared refusal: %s", e.message);
}

/*
 * The ladder page at the largest width (4096): the fixture's steps in their order, the speedup over the step
 * before from the medians (naive 22.453 ms, tiled_32 15.289, halfwarp_lanes 2.955: 1.47x and 5.17x), the issue
 * slots used as summary.csv has them (halfwarp_lanes 76.67 %), and each step's share of the FP32 ceiling the run
 * measured (environment.csv: 60,000 GFLOP/s; summary.csv's gflops: naive 6,121.17, halfwarp_lanes 46,514.30).
 */
static void the_ladder_follows_its_steps_with_speedup_and_issue_slots(void **state)
{
    (void)state;
    static struct tsv t;
    write_data(FIXTURE);
    read_tsv("ladder.tsv", &t);
    assert_int_equal(t.rows, 3);
    assert_string_equal(t.cell[0][2], "naive");
    assert_string_equal(t.cell[1][2], "tiled_32");
    assert_string_equal(t.cell[2][2], "halfwarp_lanes");
    assert_string_equal(cell(&t, "naive", "x step before"), "-");
    assert_string_equal(cell(&t, "tiled_32", "x step before"), "1.47x");
    assert_string_equal(cell(&t, "halfwarp_lanes", "x step before"), "5.17x");
    assert_string_equal(cell(&t, "halfwarp_lanes", "issue %"), "76.7");
    assert_string_equal(cell(&t, "naive", "issue %"), "42.0");
    assert_string_equal(cell(&t, "naive", "% FP32 roof"), "10.2");
    assert_string_equal(cell(&t, "halfwarp_lanes", "% FP32 roof"), "77.5");
}

/* A run that measured no ceilings (no roofline group) has no share of one: "-", not a share of the datasheet's. */
static void without_a_measured_ceiling_the_ladder_has_no_roof_share(void **state)
{
    (void)state;
    static struct tsv t;
    copy_fixture_and("sed -i '/^ceiling_/d' $R/environment.csv");
    write_data(scratch);
    read_tsv("ladder.tsv", &t);
    assert_string_equal(cell(&t, "halfwarp_lanes", "% FP32 roof"), "-");
}

/*
 * The performance page: against width, the variants off the ladder and the ladder's ends (naive, step 1, and
 * halfwarp_lanes, the fixture's last step): linetypes 1 2 3 5 6 7, tiled_32 (4) left to the ladder's panel, which
 * lists the steps in order with a column per width (summary.csv's gflops: tiled_32 8646.94 and 8989.53).
 */
static void the_ladder_has_a_performance_panel_of_its_own(void **state)
{
    (void)state;
    static struct tsv t;
    write_data(FIXTURE);
    file_holds("variables.gp", "lesson_linetypes = \"1 2 3 5 6 7\"\n");
    read_tsv("performance-ladder.tsv", &t);
    assert_int_equal(t.rows, 3);
    assert_string_equal(t.cell[0][1], "naive");
    assert_string_equal(t.cell[1][1], "tiled_32");
    assert_string_equal(t.cell[2][1], "halfwarp_lanes");
    assert_within(number(&t, "tiled_32", "gflops_1024"), 8646.94, 0.01, "tiled_32 at 1024");
    assert_within(number(&t, "tiled_32", "gflops_4096"), 8989.53, 0.01, "tiled_32 at 4096");
}

/* The performance page names the lines of its left panel that lie on one another, in groups, from the summary's
 * GFLOP/s (run S, the H200 reference run at c248597, each pair's largest difference over W = 1024, 2048 and 4096, the
 * larger over the smaller: tiled_32_fp64 and colmajor_padded_fp64 at most 0.17 % apart, tiled_transposed 5.74 and
 * 5.92 % from them (at 4096); tma_store within 2.83 % of cluster_multicast and 1.43 % of even_waves (both at 1024),
 * which lie 4.30 % apart there, on one another through tma_store; chosen_tiles, wider_tiles, overlapped_stores and
 * fitted_tiles at most 1.34 % (chosen_tiles and wider_tiles, at 1024), and cublas_bf16 with them through wider_tiles
 * (2.67 %, at 4096), though 3.73 % from chosen_tiles at 1024, 3.51 % from overlapped_stores and 3.13 % from
 * fitted_tiles at 4096; square_tiles and short_tiles at most 0.61 % (at 2048), a group of their own, 3.21 % from the
 * other bf16 group at their nearest (short_tiles and chosen_tiles, at 1024); not on one another: ldmatrix_padded and
 * ldmatrix_swizzled 3.46 % at 2048 (239,514.12 against 231,509.67 GFLOP/s; at most 2.87 % in run R, at 089cd4a, and
 * one group there), taller_tiles 3.28 % from square_tiles, its nearest, at 1024 (one of the bf16 rungs' group in
 * run R), warp_specialized and persistent 6.84 % at 1024, cublas_fp16 4.02 % from cublas_bf16 and 6.76 % from
 * chosen_tiles, the nearest of the rest of their group, at 4096); the fixture's lines lie apart. */
static void the_performance_page_names_lines_on_one_another(void **state)
{
    (void)state;
    write_data(REFERENCE);
    file_holds("variables.gp", "performance_overlap_note = 'On one another (within 3 % at every width): "
                               "tiled_32_fp64 = colmajor_padded_fp64; tma_store = cluster_multicast = even_waves; "
                               "chosen_tiles = wider_tiles ='.\"\\n\".'overlapped_stores = fitted_tiles = cublas_bf16; "
                               "square_tiles = short_tiles.'\n");
    write_data(FIXTURE);
    file_holds("variables.gp", "performance_overlap_note = ''\n");
}

/* Lines on one another through a third are one group: in a copy of the fixture, naive_uncoalesced at 100 GFLOP/s,
 * tiled_16 at 105 and tiled_32_fp64 at 102.5 at every width (tiled_16 failed at 4096): the first two 4.8 % apart,
 * each 2.4 % from the third. */
static void lines_on_one_another_through_a_third_are_one_group(void **state)
{
    (void)state;
    copy_fixture_and("awk -F, -v OFS=, '$1 == \"naive_uncoalesced\" { $23 = 100 } $1 == \"tiled_16\" && $5 == "
                     "\"passed\" { $23 = 105 } $1 == \"tiled_32_fp64\" { $23 = 102.5 } 1' $R/summary.csv >$R/s && "
                     "mv $R/s $R/summary.csv");
    write_data(scratch);
    file_holds("variables.gp", "performance_overlap_note = 'On one another (within 3 % at every width): "
                               "naive_uncoalesced = tiled_16 = tiled_32_fp64.'\n");
}

/* ---- the README's figures ---- */

#define FIGURES "reports/figures/figures.txt"

/* The page FIGURES gives for a figure, or NULL where it lists none. */
static const char *figure_page(const char *figure)
{
    static char name[128], page[64];
    char line[256];
    const char *found = NULL;
    FILE *f = fopen(FIGURES, "r");
    if (!f)
        fail_msg("%s is missing: make figures reads its figures from it", FIGURES);
    while (!found && fgets(line, sizeof line, f))
        if (line[0] != '#' && sscanf(line, "%127s %63s", name, page) == 2 && strcmp(name, figure) == 0)
            found = page;
    fclose(f);
    return found;
}

/* Every figure the README shows is one that make figures draws from the reference run (FIGURES, the target's one
 * list), of a page the reference report has: none can be left behind by a newer run. */
static void every_readme_figure_is_drawn_by_make_figures(void **state)
{
    (void)state;
    static const char link[] = "](reports/figures/";
    static struct outcome o;
    char line[1024], figure[128];
    int links = 0;
    write_data(REFERENCE);
    FILE *readme = fopen("README.md", "r");
    assert_non_null(readme);
    while (fgets(line, sizeof line, readme))
        for (const char *at = strstr(line, link); at; at = strstr(at + 1, link)) {
            if (sscanf(at + strlen(link), "%127[^)]", figure) != 1)
                continue;
            const char *page = figure_page(figure);
            ++links;
            if (!page)
                fail_msg("README.md shows reports/figures/%s, which %s does not list", figure, FIGURES);
            shell(&o, "cut -f1 %s/pages.tsv | grep -qx '%s'", data_dir, page);
            if (o.exit_code != 0)
                fail_msg("%s: %s is of page %s, which the reference report lacks", FIGURES, figure, page);
        }
    fclose(readme);
    assert_true(links > 0);
}

/* ---- the printed pages ---- */

struct word_box {
    double x0, y0, x1, y1;
    char text[48];
};

/* One line of pdftotext -bbox's output as a word and its box; false for the lines that are not words. */
static bool read_word(const char *line, struct word_box *w)
{
    return sscanf(line, " <word xMin=\"%lf\" yMin=\"%lf\" xMax=\"%lf\" yMax=\"%lf\">%47[^<]", &w->x0, &w->y0, &w->x1,
                  &w->y1, w->text) == 5;
}

/* The words of a results folder's report PDF, page by page (pdftotext -bbox): the first two on one page whose boxes
 * overlap by more than half a point each way (type set on type), or a word that runs off its page, fail the test; its
 * pages are counted. Rotated labels are split by pdftotext into the horizontal runs it reads, which overlap only where
 * the labels do. */
/* Renders a results folder's report and writes its words with their boxes (pdftotext -bbox) to workdir/words.html,
 * whose path goes to bbox. */
static void report_words(const char *results, char bbox[192])
{
    static struct outcome o;
    snprintf(bbox, 192, "%s/words.html", workdir);
    shell(&o, "rm -rf %s/report && scripts/report-render %s %s/report >/dev/null && "
              "pdftotext -bbox %s/report/memscope-report.pdf %s",
          workdir, results, workdir, workdir, bbox);
    assert_int_equal(o.exit_code, 0);
}

static int pages_with_no_word_on_another(const char *results)
{
    static struct word_box words[4096];
    char line[1024], bbox[192];
    int page = 0, n = 0;
    double width = 0, height = 0;
    report_words(results, bbox);
    FILE *f = fopen(bbox, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        struct word_box *w = &words[n];
        if (sscanf(line, " <page width=\"%lf\" height=\"%lf\"", &width, &height) == 2)
            ++page, n = 0;
        if (!read_word(line, w) || n == (int)(sizeof words / sizeof words[0]))
            continue;
        if (w->x0 < 0 || w->y0 < 0 || w->x1 > width || w->y1 > height) {
            fclose(f);
            fail_msg("%s, page %d: \"%s\" runs off the page (%.1f, %.1f to %.1f, %.1f in %.0f x %.0f points)", results,
                     page, w->text, w->x0, w->y0, w->x1, w->y1, width, height);
        }
        for (int i = 0; i < n; ++i)
            if (fmin(w->x1, words[i].x1) - fmax(w->x0, words[i].x0) > 0.5 &&
                fmin(w->y1, words[i].y1) - fmax(w->y0, words[i].y0) > 0.5) {
                fclose(f);
                fail_msg("%s, page %d: \"%s\" and \"%s\" overlap at (%.0f, %.0f) points", results, page,
                         words[i].text, w->text, w->x0, w->y0);
            }
        ++n;
    }
    fclose(f);
    return page;
}

/* `word`'s box (its first, where it stands more than once) and the page's height, on the first page of the words
 * file that has `marker` as a word; false where that page lacks the word, or no page has the marker. */
static bool word_on_marked_page(const char *bbox, const char *marker, const char *word, struct word_box *box,
                                double *page_height)
{
    char line[1024];
    struct word_box w;
    bool marked = false, found = false;
    double width;
    FILE *f = fopen(bbox, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f) && !(marked && strstr(line, "</page>"))) {
        if (sscanf(line, " <page width=\"%lf\" height=\"%lf\"", &width, page_height) == 2)
            found = false;
        if (!read_word(line, &w))
            continue;
        marked |= strcmp(w.text, marker) == 0;
        if (!found && strcmp(w.text, word) == 0)
            *box = w, found = true;
    }
    fclose(f);
    return marked && found;
}

/* Whether `word` is a word of its own (pdftotext's) on the page of the words file that has `marker` as a word:
 * labels set too close run together into one word. */
static bool word_beside(const char *bbox, const char *marker, const char *word)
{
    struct word_box box;
    double height;
    return word_on_marked_page(bbox, marker, word, &box, &height);
}

static void no_two_words_of_the_reference_report_overlap(void **state)
{
    (void)state;
    if (system("command -v gnuplot >/dev/null && command -v pdftotext >/dev/null") != 0)
        skip();
    /* every page of the reference run's pages.tsv (run S, the H200 reference run at c248597): the title, three
     * summaries, diagnosis, ladder, ideas, the tensor ladder and its ideas (variants.csv's tensor_ladder_step), the
     * swizzle lesson, the shapes (the top rung against cuBLAS bf16 at every size), performance, efficiency, conflicts,
     * DRAM, roofline and its key, speedup, two stall pages, three hot-lines pages, the timeline (a traced run) and six
     * ground-truth pages (validate.csv's 173 checks, 30 a page) */
    assert_int_equal(pages_with_no_word_on_another(REFERENCE), 30);
    /* the stall page's glossary says what the reasons it names in colour wait on, and no other: in this run
     * no_instructions (the reason icache_fit's step moves most), warpgroup_arrive (cublas_bf16's second) and
     * math_pipe_throttle (cublas_fp64's second) have a colour, and dispatch_stall, the run's eighth most common reason,
     * is in "other", the eleven names taken (the stall pages' tests above, from stalls.csv; in run R, at 089cd4a,
     * dispatch_stall had a colour and no_instructions had none) */
    char bbox[192];
    snprintf(bbox, sizeof bbox, "%s/words.html", workdir);
    assert_true(word_beside(bbox, "Waiting", "no_instructions:"));
    assert_true(word_beside(bbox, "Waiting", "warpgroup_arrive:"));
    assert_true(word_beside(bbox, "Waiting", "math_pipe_throttle:"));
    assert_false(word_beside(bbox, "Waiting", "dispatch_stall:"));
}

/* A program's profile with the stalls group (reports/profile-torch-h100, the README's PyTorch script): the most
 * stalled lines' caption, one line longer for a program than for the suite, ran off the page's right edge ("as a
 * library's, has none" cut at "a libr"). Its pages: the title, the kernels, the roofline and its key, two stall
 * pages. */
static void no_word_of_a_programs_stall_pages_leaves_its_page(void **state)
{
    (void)state;
    if (system("command -v gnuplot >/dev/null && command -v pdftotext >/dev/null") != 0)
        skip();
    assert_int_equal(pages_with_no_word_on_another("reports/profile-torch-h100"), 6);
}

/* The committed shapes run (reports/shapes-h200, the README's second report): its performance page's widths lie
 * close on a log axis (8192 / 7680 is 1.07), and it has no FP32 ladder. Its pages: the title, 19 summaries, the
 * tensor ladder and its ideas, the shapes, performance, efficiency, conflicts, DRAM, roofline, speedup. Set side by
 * side, 7168, 7680 and 8192 ran into one word ("716876808192"). */
static void no_two_words_of_the_shapes_report_overlap(void **state)
{
    (void)state;
    char bbox[192], width[8];
    if (system("command -v gnuplot >/dev/null && command -v pdftotext >/dev/null") != 0)
        skip();
    assert_int_equal(pages_with_no_word_on_another("reports/shapes-h200"), 29);
    snprintf(bbox, sizeof bbox, "%s/words.html", workdir);
    for (int w = 1024; w <= 8192; w += 512) {
        snprintf(width, sizeof width, "%d", w);
        if (!word_beside(bbox, "versus", width))
            fail_msg("the performance page's width %s is not a word of its own", width);
    }
}

/* The top of `word`'s box, in points from the page's top, and the page's height, on the page of the words file that
 * has `marker` as a word; the test fails where there is none. */
static double word_top(const char *bbox, const char *marker, const char *word, double *page_height)
{
    struct word_box box;
    if (!word_on_marked_page(bbox, marker, word, &box, page_height))
        fail_msg("no page has both \"%s\" and \"%s\"", marker, word);
    return box.y0;
}

/* A table of few rows keeps the pitch of a page of 16 at the top of its page, instead of spreading them over it:
 * the reference run's shapes page has three rows, its sizes 1024, 2048 and 4096 (the first word of each on the
 * page), which stood 81 points apart, 13.6 % of the page, the second at the page's middle (run R's report at 089cd4a,
 * pdftotext -bbox). */
static void a_table_of_few_rows_stays_at_the_top_of_its_page(void **state)
{
    (void)state;
    char bbox[192];
    double height;
    if (system("command -v gnuplot >/dev/null && command -v pdftotext >/dev/null") != 0)
        skip();
    report_words(REFERENCE, bbox);
    double first = word_top(bbox, "across", "1024", &height), second = word_top(bbox, "across", "2048", &height),
           third = word_top(bbox, "across", "4096", &height);
    assert_true(first < second && second < third);
    if (second - first > 0.06 * height || third - second > 0.06 * height)
        fail_msg("the shapes page's rows stand %.0f and %.0f points apart", second - first, third - second);
    if (third > height / 3)
        fail_msg("the shapes page's last row is %.0f points down a page of %.0f", third, height);
}

/* The diagnosis page's columns are laid out from the widths their cells take in the font a fresh Debian machine has
 * (DejaVu Sans): in its PNG, drawn by gnuplot, no cell runs into the next column (with fixed positions
 * "uncoalesced global loads" ran into its first finding). tests/support/png_columns.py reads the page's pixels. */
static void the_diagnosis_columns_do_not_run_into_each_other(void **state)
{
    (void)state;
    static struct outcome o;
    char x[128] = "";
    if (system("command -v gnuplot >/dev/null && command -v python3 >/dev/null") != 0)
        skip();
    shell(&o, "scripts/report-render %s %s/columns >/dev/null && sed -n 's/^diagnosis_table_x = \"\\(.*\\)\"$/\\1/p' "
              "%s/columns/data/variables.gp",
          REFERENCE, workdir, workdir);
    assert_int_equal(o.exit_code, 0);
    snprintf(x, sizeof x, "%.*s", (int)strcspn(o.output, "\n"), o.output);
    if (!*x)
        fail_msg("the reference report's variables.gp has no diagnosis_table_x");
    shell(&o, "python3 tests/support/png_columns.py %s/columns/05-diagnosis.png '%s'", workdir, x);
    if (o.exit_code != 0)
        fail_msg("columns %s:\n%s", x, o.output);
}

/* No word of the reference run's PDF ends within 5 points of its page's edge: text set past the edge is cut there,
 * and pdftotext keeps the word across it (the diagnosis page's evidence at 9 pt ran off the right edge, its caption's
 * last line off the foot). */
static void no_word_of_the_reference_report_leaves_its_page(void **state)
{
    (void)state;
    static struct outcome o;
    char line[1024], bbox[192], text[48];
    double width = 0, height = 0, x0, y0, x1, y1;
    int page = 0;
    if (system("command -v gnuplot >/dev/null && command -v pdftotext >/dev/null") != 0)
        skip();
    snprintf(bbox, sizeof bbox, "%s/edges.html", workdir);
    shell(&o, "scripts/report-render %s %s/edges >/dev/null && pdftotext -bbox %s/edges/memscope-report.pdf %s",
          REFERENCE, workdir, workdir, bbox);
    assert_int_equal(o.exit_code, 0);
    FILE *f = fopen(bbox, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, " <page width=\"%lf\" height=\"%lf\"", &width, &height) == 2)
            ++page;
        if (sscanf(line, " <word xMin=\"%lf\" yMin=\"%lf\" xMax=\"%lf\" yMax=\"%lf\">%47[^<]", &x0, &y0, &x1, &y1,
                   text) == 5 &&
            (x1 > width - 5 || y1 > height - 5 || x0 < 5 || y0 < 5)) {
            fclose(f);
            fail_msg("page %d: \"%s\" at (%.0f, %.0f)-(%.0f, %.0f) reaches the edge of the %.0f x %.0f page", page,
                     text, x0, y0, x1, y1, width, height);
        }
    }
    fclose(f);
    assert_int_equal(page, 30); /* the reference report's pages, as above */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_variant_gets_the_roof_that_bounds_it),
        cmocka_unit_test(measured_ceilings_are_the_roofs_and_say_so),
        cmocka_unit_test(the_key_lists_every_point_with_its_bound),
        cmocka_unit_test(a_tensor_core_point_is_held_to_no_memory_roof),
        cmocka_unit_test(points_on_one_another_are_named_in_the_key),
        cmocka_unit_test(the_roofline_captions_say_what_the_run_shows),
        cmocka_unit_test(without_ceilings_the_datasheet_is_used_and_named),
        cmocka_unit_test(a_run_without_byte_counts_has_no_points_and_no_key),
        cmocka_unit_test(the_roofline_numbers_do_not_overlap),
        cmocka_unit_test(each_variant_gets_its_share_of_every_reason),
        cmocka_unit_test(the_most_stalled_line_is_named_with_its_reason),
        cmocka_unit_test(every_variant_s_largest_stall_reason_is_named),
        cmocka_unit_test(the_reason_a_ladder_step_moves_most_is_named),
        cmocka_unit_test(a_run_without_stalls_has_no_stall_pages),
        cmocka_unit_test(the_stall_pages_show_the_run_s_largest_width_or_none),
        cmocka_unit_test(a_negative_sample_count_is_refused_with_its_line),
        cmocka_unit_test(every_chart_reads_its_columns_by_name),
        cmocka_unit_test(the_ladder_follows_its_steps_with_speedup_and_issue_slots),
        cmocka_unit_test(without_a_measured_ceiling_the_ladder_has_no_roof_share),
        cmocka_unit_test(the_ladder_has_a_performance_panel_of_its_own),
        cmocka_unit_test(the_performance_page_names_lines_on_one_another),
        cmocka_unit_test(lines_on_one_another_through_a_third_are_one_group),
        cmocka_unit_test(every_readme_figure_is_drawn_by_make_figures),
        cmocka_unit_test(no_two_words_of_the_reference_report_overlap),
        cmocka_unit_test(no_two_words_of_the_shapes_report_overlap),
        cmocka_unit_test(no_word_of_a_programs_stall_pages_leaves_its_page),
        cmocka_unit_test(a_table_of_few_rows_stays_at_the_top_of_its_page),
        cmocka_unit_test(the_diagnosis_columns_do_not_run_into_each_other),
        cmocka_unit_test(no_word_of_the_reference_report_leaves_its_page),
    };
    return cmocka_run_group_tests_name("page tables", tests, setup, teardown);
}
