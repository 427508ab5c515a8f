/*
 * The tensor ladder's pages (the ladder, its ideas, the swizzle lesson, the shapes) and its line on the title page,
 * read from the tables memscope-report-data writes, with no GPU and no gnuplot.
 *
 * The fixture, tests/fixtures/tensor-ladder-run, is cut verbatim from the H100 reference run at 9ca7d96
 * (reports/reference before it was made again): mma_global, ldmatrix, ldmatrix_padded, ldmatrix_swizzled,
 * tma_store and cublas_bf16 at W = 1024 and 4096 (their summary, samples and metrics rows), its environment, and
 * the ground truth's ldmatrix_x4 rows of validate.csv. That run predates variants.csv's tensor_ladder_step; the
 * column was added by hand with the steps the registry gave them when it was added (1, 2, 3, 4, 9, 12), as a run
 * since writes it. The figures
 * below were worked out from those CSV files by hand: at W = 4096 the median times are 3.717808008 (mma_global),
 * 1.949487984 (ldmatrix), 0.5211680233 (padded), 0.524864018 (swizzled), 0.1750079989 (tma_store) and
 * 0.1762240008 ms (cublas_bf16); at 1024, tma_store 0.01744000055 and cublas_bf16 0.01047999971 ms.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define FIXTURE "tests/fixtures/tensor-ladder-run"

#include "../support/page_data.h"

static void expect_text(const char *text, const char *wanted)
{
    if (!strstr(text, wanted))
        fail_msg("no\n%s\nin\n%s", wanted, text);
}

/* ---- the tensor ladder's page and its ideas ---- */

/* In step order, with the speed against cuBLAS bf16 (its median over the rung's), the measured bf16 roof
 * (952,512.9 GFLOP/s), the speedup over the rung before, the tensor pipe and ldmatrix's wavefronts an instruction
 * (402,653,184 / 12,582,912 = 32 unpadded; 50,331,648 / 12,582,912 = 4 padded). */
static void the_tensor_ladder_lists_each_rung_with_the_counters_its_idea_moves(void **state)
{
    (void)state;
    write_data(FIXTURE);
    const char *t = data_file("tensor-ladder.tsv");
    expect_text(t, "step\tvariant\tTFLOP/s\t% cuBLAS bf16\t% bf16 roof\tx step before\ttensor pipe %\twavefr./LDSM\t");
    expect_text(t, "\t1\tmma_global\t37.0\t4.7\t3.9\t-\t6.1\tno LDSM\t0\t79\t");
    expect_text(t, "\t2\tldmatrix\t70.5\t9.0\t7.4\t1.91x\t11.1\t32.0\t352,321,536\t124\t");
    expect_text(t, "\t3\tldmatrix_padded\t263.7\t33.8\t27.7\t3.74x\t42.0\t4.0\t0\t124\t");
    expect_text(t, "\t9\ttma_store\t785.3\t100.7\t82.4\t3.00x\t95.0\tno LDSM\t0\t168\t");
    expect_text(t, "\t12\tcublas_bf16\t779.9\t100.0\t81.9\t0.99x\t94.9\tno LDSM\t");
    char *swizzled = strstr(t, "ldmatrix_swizzled"), *tma = strstr(t, "tma_store");
    assert_true(swizzled && tma && swizzled < tma);
    expect_text(data_file("variables.gp"), "\ntensor_ladder_steps = 6\n");
}

/* Each rung's idea, and what moved against the rung before: padding took ldmatrix's wavefronts down 87.5 % and its
 * conflicts to none, and the tensor pipe from 11.1 to 42.0 % of active cycles. */
static void the_ideas_page_says_which_counters_each_rung_moved(void **state)
{
    (void)state;
    write_data(FIXTURE);
    const char *t = data_file("tensor-ladder-ideas.tsv");
    expect_text(t, "\t3\tldmatrix_padded\tldmatrix with each tile row padded by 16 bytes");
    /* A sentence longer than a line of the page goes on in a row of its own. */
    expect_text(t, "\tmeasured against ldmatrix: 3.74x faster (1.949 → 0.5212 ms); ldmatrix wavefronts -88 %, exact "
                   "conflicts 352,321,536 → 0, tensor pipe\n0\t\t\tbusy 11 → 42 %\n");
    expect_text(t, "measured against ldmatrix_padded: 1.01x slower (0.5212 → 0.5249 ms); the counters within 5 %");
    expect_text(data_file("variables.gp"), "\ntensor_ladder_idea_rows = ");
}

/* ---- the swizzle lesson ---- */

/* The rungs that ran ldmatrix at W = 4096 (not mma_global, tma_store or cuBLAS: none), then the ground truth's
 * three layouts: 3,379,200 / 105,600 = 32 wavefronts an instruction at pitch 128, 4 at 144 and swizzled, each as
 * its closed form says. Shared memory: 32,768 bytes unpadded and swizzled, 35,840 padded. */
static void the_swizzle_page_sets_each_layout_beside_its_closed_form(void **state)
{
    (void)state;
    write_data(FIXTURE);
    const char *t = data_file("swizzle.tsv");
    expect_text(t, "\tldmatrix\t12,582,912\t402,653,184\t32.00\t-\t-\t352,321,536\t32.0\t1.949\t70.5\n");
    expect_text(t, "\tldmatrix_padded\t12,582,912\t50,331,648\t4.00\t-\t-\t0\t35.0\t0.5212\t263.7\n");
    expect_text(t, "\tldmatrix_swizzled\t12,582,912\t50,331,648\t4.00\t-\t-\t0\t32.0\t0.5249\t261.9\n");
    expect_text(t, "\ttruth, pitch=128\t105,600\t3,379,200\t32.00\t32\texact\t2,956,800\t-\t-\t-\n");
    expect_text(t, "\ttruth, pitch=144\t105,600\t422,400\t4.00\t4\texact\t0\t-\t-\t-\n");
    expect_text(t, "\ttruth, pitch=128 swizzled\t105,600\t422,400\t4.00\t4\texact\t0\t-\t-\t-\n");
    if (strstr(t, "mma_global") || strstr(t, "tma_store") || strstr(t, "cublas"))
        fail_msg("a rung without ldmatrix is on the swizzle page:\n%s", t);
    expect_text(data_file("variables.gp"), "\nswizzle_rows = 6\n");
}

/* A ground-truth check of a layout that failed makes the layout's row say so, not "exact". */
static void a_failed_truth_check_is_not_called_exact(void **state)
{
    (void)state;
    copy_fixture_and("sed -i '/pitch=144,ldsm_wavefronts_per_inst/s/,pass,/,fail,/' $R/validate/validate.csv");
    write_data(scratch);
    const char *t = data_file("swizzle.tsv");
    expect_text(t, "\ttruth, pitch=144\t105,600\t422,400\t4.00\t4\tFAILED\t");
    expect_text(t, "\ttruth, pitch=128\t105,600\t3,379,200\t32.00\t32\texact\t");
}

/* ---- the shapes page and the title ---- */

/* The top rung is the last hand-written step (tma_store here); at 1024 cuBLAS bf16 is faster (0.01048 against
 * 0.01744 ms: 60.1 %), at 4096 tma_store (100.7 %). */
static void the_shapes_page_sets_the_top_rung_against_cublas_at_each_size(void **state)
{
    (void)state;
    write_data(FIXTURE);
    const char *t = data_file("shapes.tsv");
    expect_text(t, "\t1024 x 1024 x 1024\t123.1\t204.9\t60.1\ttma_store\t60.1\n");
    expect_text(t, "\t4096 x 4096 x 4096\t785.3\t779.9\t100.7\ttma_store\t100.7\n");
    expect_text(data_file("variables.gp"), "\nshapes_top_rung = 'tma_store'\n");
}

/* The committed shapes run (reports/shapes-h200: even_waves, taller_tiles, wider_tiles, overlapped_stores,
 * fitted_tiles, square_tiles, short_tiles and cublas_bf16 at every multiple of 512 from 1024 to 8192 and at a
 * transformer block's four GEMMs at 8192 tokens, on an H200, GPU-0695e63a, at 089cd4a, no metrics;
 * docs/tensor-ladder.md): the top rung is short_tiles. Worked out from its summary.csv by a script apart from the code
 * under test (flop over the median; cuBLAS's median over the rung's; the fastest the least median of the ladder's
 * rungs, cuBLAS aside): at 1024, the one shape where it runs its own tiles (64 x 128, where square_tiles takes 128 x
 * 64), its median 0.008063999936 ms against cuBLAS's 0.00800000038 (2 x 1024^3 flop: 266.3 and 268.4 TFLOP/s,
 * 99.2 %), the fastest (square_tiles 0.008287999779). Elsewhere it takes square_tiles' tiles, and which rung is
 * fastest is the noise between kernels that run alike, so these rows check that every rung is weighed, not only the
 * top: at 2560 0.04864000157 against 0.05536000058 (689.9 and 606.1 TFLOP/s, 113.8 %), behind square_tiles'
 * 0.04811200127 (115.1 %); at 3584 0.1153439991 against 0.1164960004 (798.3 and 790.4, 101.0 %), behind
 * even_waves', the first rung, 0.1152799986 (101.1 %); at 7168 0.8575679958 against 0.8564800024 (858.9 and 860.0,
 * 99.9 %), behind fitted_tiles' 0.8556640148, ahead of cuBLAS where the top rung is not (100.1 %); at 8192 x 3072 x
 * 1024 0.06931199878 against 0.07268800214 (743.6 and 709.1, 104.9 %), behind square_tiles' 0.0692479983 (105.0 %);
 * at 8192 x 4096 x 1024 0.09172799811 against 0.09657599777 (749.2 and 711.6, 105.3 %), the fastest; at 8192, the
 * largest, 1.276256025 against 1.321871996 (861.5 and 831.8, 103.6 %), behind overlapped_stores' 1.275776029 (103.6 %
 * too). At 2048 taller_tiles', short_tiles' and cuBLAS's medians are the same to the digit (0.02627200074: 653.9
 * TFLOP/s, 100.0 %) and the earliest rung is named the fastest. A rectangle sits among the squares by its work: 8192 x
 * 1024 x 1024 (2^33 multiply-adds) after 2048^3 (2^33, fewer rows), where short_tiles' 0.02758399956 (622.8 TFLOP/s,
 * 101.3 % of cuBLAS's 0.0279520005: 614.6) is behind overlapped_stores' 0.02748800069 (101.7 %). At 8192 short_tiles
 * runs square_tiles' kernel: 1.276256025 against 1.276463985 ms. */
#define SHAPES_RUN "reports/shapes-h200"
static void the_committed_shapes_run_sets_the_top_rung_against_cublas(void **state)
{
    (void)state;
    write_data(SHAPES_RUN);
    const char *t = data_file("shapes.tsv");
    expect_text(t, "\t1024 x 1024 x 1024\t266.3\t268.4\t99.2\tshort_tiles\t99.2\n");
    expect_text(t, "\t2560 x 2560 x 2560\t689.9\t606.1\t113.8\tsquare_tiles\t115.1\n");
    expect_text(t, "\t3584 x 3584 x 3584\t798.3\t790.4\t101.0\teven_waves\t101.1\n");
    expect_text(t, "\t7168 x 7168 x 7168\t858.9\t860.0\t99.9\tfitted_tiles\t100.1\n");
    expect_text(t, "\t8192 x 3072 x 1024\t743.6\t709.1\t104.9\tsquare_tiles\t105.0\n");
    expect_text(t, "\t8192 x 4096 x 1024\t749.2\t711.6\t105.3\tshort_tiles\t105.3\n");
    expect_text(t, "\t8192 x 8192 x 8192\t861.5\t831.8\t103.6\toverlapped_stores\t103.6\n");
    expect_text(t, "\t2048 x 2048 x 2048\t653.9\t653.9\t100.0\ttaller_tiles\t100.0\n");
    expect_text(t, "\t8192 x 1024 x 1024\t622.8\t614.6\t101.3\toverlapped_stores\t101.7\n");
    const char *after_2048 = strstr(strstr(t, "\t2048 x 2048 x 2048\t"), "\n");
    assert_true(strncmp(after_2048, "\n0\t8192 x 1024 x 1024\t", strlen("\n0\t8192 x 1024 x 1024\t")) == 0);
    expect_text(data_file("variables.gp"), "\nshapes_top_rung = 'short_tiles'\nshapes_rows = 19\n");
    /* a run without metrics has no counters to say moved or stayed: its ideas page says so */
    const char *ideas = data_file("tensor-ladder-ideas.tsv");
    expect_text(ideas, "measured against square_tiles: 1.00x faster (1.276 → 1.276 ms); no counters collected");
    assert_null(strstr(ideas, "within 5 %"));
}

/* Its ladder page: a run without metrics says "not collected" in six columns, which ran into each other at fixed
 * places; laid out from their widths, no cell of the drawn page reaches the next column (tests/support/
 * png_columns.py reads the PNG). */
static void a_ladder_without_metrics_does_not_run_into_itself(void **state)
{
    (void)state;
    static struct outcome o;
    char rendered[192];
    if (system("command -v gnuplot >/dev/null") != 0)
        skip();
    snprintf(rendered, sizeof rendered, "%s/shapes", workdir);
    shell(&o, "scripts/report-render %s %s >/dev/null", SHAPES_RUN, rendered);
    assert_int_equal(o.exit_code, 0);
    expect_columns_apart(rendered, "tensor_ladder_table", "*-tensor-ladder.png");
}

static void the_title_page_gives_the_tensor_ladders_best_rung(void **state)
{
    (void)state;
    write_data(FIXTURE);
    expect_text(data_file("title.tsv"),
                "\nbf16 ladder\tbest rung tma_store at 100.7 % of cuBLAS bf16 (785.3 of 779.9 TFLOP/s)\n");
}

/* A run written before variants.csv had tensor_ladder_step has no rung on the tensor ladder: no tensor ladder pages,
 * no shapes page, and no bf16 line on the title page; the swizzle page still has its kernels that ran ldmatrix, found
 * by their counters, not their steps. */
static void a_run_before_the_column_has_no_tensor_ladder_pages(void **state)
{
    (void)state;
    copy_fixture_and("sed -i 's/,tensor_ladder_step$//; 2,$s/,[0-9]*$//' $R/variants.csv && head -1 $R/variants.csv "
                     "| grep -q 'ladder_step,description$'");
    write_data(scratch);
    const char *pages = data_file("pages.tsv");
    if (strstr(pages, "tensor-ladder") || strstr(pages, "shapes"))
        fail_msg("pages of a ladder the run does not have:\n%s", pages);
    expect_text(data_file("variables.gp"), "\ntensor_ladder_steps = 0\n");
    if (strstr(data_file("title.tsv"), "bf16 ladder"))
        fail_msg("a bf16 ladder line without the ladder:\n%s", data_file("title.tsv"));
    const char *t = data_file("swizzle.tsv");
    expect_text(t, "\tldmatrix\t12,582,912\t402,653,184\t32.00\t");
    expect_text(t, "\tldmatrix_swizzled\t12,582,912\t50,331,648\t4.00\t");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_tensor_ladder_lists_each_rung_with_the_counters_its_idea_moves),
        cmocka_unit_test(the_ideas_page_says_which_counters_each_rung_moved),
        cmocka_unit_test(the_swizzle_page_sets_each_layout_beside_its_closed_form),
        cmocka_unit_test(a_failed_truth_check_is_not_called_exact),
        cmocka_unit_test(the_shapes_page_sets_the_top_rung_against_cublas_at_each_size),
        cmocka_unit_test(the_committed_shapes_run_sets_the_top_rung_against_cublas),
        cmocka_unit_test(a_ladder_without_metrics_does_not_run_into_itself),
        cmocka_unit_test(the_title_page_gives_the_tensor_ladders_best_rung),
        cmocka_unit_test(a_run_before_the_column_has_no_tensor_ladder_pages),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
