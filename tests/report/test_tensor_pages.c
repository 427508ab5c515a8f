/*
 * Tensor kernels on the report's pages, with no GPU and no gnuplot: tests/fixtures/profile-tensor, a program's
 * profile made from profile-small (scripts: none; see the fixture's summary) whose matmul is cuBLASLt's bf16 GEMM
 * nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT at 4096^3 (flop_tensor_bf16 = 2 x 4096^3 = 137,438,953,472, no
 * FP32 FLOP, median 0.2 ms: 687,194.77 GFLOP/s; L1/shared wavefront bytes 4e9, L2 bytes 6e8, DRAM bytes
 * 134,217,728: 34.36 / 229.06 / 1024 FLOP per byte), beside a softmax and a layer norm that ran no tensor
 * operation; its environment holds measured roofs (DRAM 3,000, L2 6,500, L1/shared 30,000 GB/s; bf16 tensor
 * 812,000 GFLOP/s: the GEMM at 84.63 % of it, the L2 roof at its intensity 1,488,880: the bf16 roof bounds it).
 * The expected figures were worked out by hand from those numbers.
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

#define FIXTURE "tests/fixtures/profile-tensor"

#include "../support/page_data.h"

#define GEMM "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT"

/* The line of a table file whose cells hold every text given (NULL-terminated); "" when none. */
static const char *line_with(const char *file, const char *const *texts)
{
    static char line[2048];
    char path[256];
    snprintf(path, sizeof path, "%s/%s", data_dir, file);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s was not written", path);
    while (fgets(line, sizeof line, f)) {
        int all = 1;
        for (int i = 0; texts[i] && all; ++i)
            all = strstr(line, texts[i]) != NULL;
        if (all)
            return fclose(f), line;
    }
    fclose(f);
    return "";
}

/* The GEMM is on the roofline, placed by its bf16 FLOP (687,195 GFLOP/s, 1024 FLOP per DRAM byte) and bound by the
 * bf16 roof; the kernels without tensor operations keep their own bound and no type. */
static void the_gemm_is_drawn_against_the_bf16_roof(void **state)
{
    (void)state;
    write_data(FIXTURE);
    file_holds("roofline.tsv", "1\t1\t" GEMM "\t687195\t34.3597\t229.065\t1024\t0\tbf16 tensor\t812000\t84.6299\tbf16\n");
    file_holds("roofline.tsv", "\tbf16\n");
    const char *softmax[] = {"cunn_SoftMaxForward", "\tDRAM\t", "\t-\n", NULL};
    assert_string_not_equal(line_with("roofline.tsv", softmax), "");
    file_holds("variables.gp", "roofline_points = 3\n");
    file_holds("roofs.gp", "roof_tensor_bf16_gflops = 812000\n");
    file_holds("roofs.gp", "roof_tensor_bf16_title = 'bf16 tensor 812,000 GFLOP/s (measured)'");
    file_holds("roofs.gp", "roof_tensor_int8_gflops = NaN\n");
    file_lacks("roofs.gp", "not counted");
    file_lacks("roofs.gp", "No roofs");
    /* the y range reaches the highest roof: fp8 1,590,000 */
    file_holds("roofs.gp", "roofline_ymax = 1e+07\n");
}

/* The key and the kernels page name the type and the TFLOP/s; the limiter names the tensor pipe. */
static void the_key_and_the_kernels_page_give_type_and_tflops(void **state)
{
    (void)state;
    write_data(FIXTURE);
    const char *key[] = {GEMM, "\tbf16 687 TFLOP/s\t", "\tbf16 tensor\t812,000\t85 %\t", NULL};
    assert_string_not_equal(line_with("roofline-key.tsv", key), "");
    const char *kernel[] = {"nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT\t", "\tbf16 687 TFLOP/s\t",
                            "\ttensor pipe\n", NULL};
    assert_string_not_equal(line_with("kernels-1.tsv", kernel), "");
    /* tensor_bound: the tensor pipe at 94.7 % could gain at most what L1/shared's 55 % leaves, 45 % */
    file_holds("kernels-1.tsv", "\tfirst finding tensor_bound (est. 45 %); bf16 tensor 687 TFLOP/s, 85 % of the measured "
                                "bf16 roof; tensor pipe 95 % of cycles\n");
    const char *softmax[] = {"cunn_SoftMaxForward", "\t-\tDRAM bandwidth", NULL};
    assert_string_not_equal(line_with("kernels-1.tsv", softmax), "");
}

/* Without a measured bf16 roof the GEMM is still drawn, bound by nothing, and no share is made up. */
static void without_its_roof_the_gemm_has_no_bound_and_no_share(void **state)
{
    (void)state;
    copy_fixture_and("sed -i '/^ceiling_tensor_bf16/d' $R/environment.csv");
    write_data(scratch);
    file_holds("roofline.tsv", "1\t1\t" GEMM "\t687195\t34.3597\t229.065\t1024\t0\tnone: no bf16 roof\tNaN\tNaN\tbf16");
    file_holds("roofs.gp", "roofline_tensor_note = 'No bound for 1 (nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT, tensor "
                           "pipe busy 95 %, bf16): this run measured no roof of its tensor type");
    file_holds("kernels-1.tsv", "\tfirst finding tensor_bound (est. 45 %); bf16 tensor 687 TFLOP/s, no measured bf16 "
                                "roof; tensor pipe 95 % of cycles\n");
}

/* A profile from before memscope counted tensor operations (the committed ones) still renders and says so. */
static void a_profile_without_tensor_counts_says_it_predates_them(void **state)
{
    (void)state;
    write_data("tests/fixtures/profile-small");
    file_holds("roofs.gp",
               "roofline_flop_source = 'executed instructions; this profile predates memscope'.\"'\".'s count of "
               "tensor-core operations'");
    file_holds("kernels-1.tsv", "\t-\t");
    file_lacks("kernels-1.tsv", "TFLOP/s");
}

/* The committed profile of tests/inject/program_torch_bf16.py on an H100 (reports/profile-torch-bf16-h100), read by
 * launch (--group-by launch): its eight cuBLASLt GEMMs and two flash-attention launches are on the roofline by their
 * bf16 operations, against the bf16 roof that profile measured (953,230 GFLOP/s in its environment.csv). The QKV GEMM
 * of step 0 is 4096 x 6144 x 2048: 2 M N K = 103,079,215,104 FLOP over its median 0.139104 ms (summary.csv) =
 * 741,023 GFLOP/s; the MLP's down projection of step 0 (4096 x 2048 x 8192, 137,438,953,472 FLOP over 0.173856 ms =
 * 790,533 GFLOP/s) is bound by the bf16 roof, at 82.9 % of it. Read by kernel, the GEMM kernel and the attention
 * kernel are one point each, by their first profiled launch (the QKV GEMM's). */
static void the_committed_bf16_profile_draws_every_gemm_against_its_roof(void **state)
{
    (void)state;
    static struct outcome o;
    write_data("reports/profile-torch-bf16-h100");
    const char *gemm[] = {"\tnvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT\t741023\t", "\tbf16\n", NULL};
    assert_string_not_equal(line_with("roofline.tsv", gemm), "");
    shell(&o, "grep -c 'nvjet_sm90_tst.*\tbf16$' %s/roofline.tsv; grep -c 'sdpa_sm90_flash.*\tbf16$' %s/roofline.tsv",
          data_dir, data_dir);
    assert_string_equal(o.output, "1\n1\n");
    write_data_by("reports/profile-torch-bf16-h100", GROUP_BY_LAUNCH);
    file_holds("roofs.gp", "roof_tensor_bf16_title = 'bf16 tensor 953,230 GFLOP/s (measured)'");
    file_lacks("roofs.gp", "not counted");
    const char *qkv[] = {"nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT #0 (step 0/qkv)\t741023\t", "\tbf16\n", NULL};
    assert_string_not_equal(line_with("roofline.tsv", qkv), "");
    const char *down[] = {"(step 0/mlp_down)\t790533\t", "\tbf16 tensor\t953230\t82.93", NULL};
    assert_string_not_equal(line_with("roofline.tsv", down), "");
    shell(&o, "grep -c 'nvjet_sm90_tst.*\tbf16$' %s/roofline.tsv; grep -c 'sdpa_sm90_flash.*\tbf16$' %s/roofline.tsv",
          data_dir, data_dir);
    assert_string_equal(o.output, "8\n2\n"); /* every GEMM and attention launch, each with its type */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_gemm_is_drawn_against_the_bf16_roof),
        cmocka_unit_test(the_key_and_the_kernels_page_give_type_and_tflops),
        cmocka_unit_test(without_its_roof_the_gemm_has_no_bound_and_no_share),
        cmocka_unit_test(a_profile_without_tensor_counts_says_it_predates_them),
        cmocka_unit_test(the_committed_bf16_profile_draws_every_gemm_against_its_roof),
    };
    return cmocka_run_group_tests_name("tensor pages", tests, setup, teardown);
}
