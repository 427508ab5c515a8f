/*
 * A program's profile (memscope-profile, environment.csv's kind "program") rendered as a profile, not as a run of
 * the suite: its title page (command, GPU, launches, jobs, kernel time), its kernels ranked by share of GPU time
 * with their limiter and evidence, a roofline of its profiled jobs with roofs only where the folder measured them,
 * and no stall or hot-line page without stalls.csv and lines.csv. Then `make report RESULTS=` on the fixture, as CI
 * runs it (gnuplot and poppler-utils; skipped where missing). The job labels' shortening on its own.
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

#define FIXTURE "tests/fixtures/profile-small"
#include "../support/page_data.h"
#include "../../harness/report/job_label.h"

static void profile_pages_replace_the_suites(void **state)
{
    (void)state;
    write_data(FIXTURE);
    assert_string_equal(data_file("pages.tsv"), "\ntitle\ttitle.gp\t\n"
                                                "kernels-1\tkernels.gp\tkernels_page=1\n"
                                                "roofline\troofline.gp\t\n"
                                                "roofline-key\troofline_key.gp\t\n");
}

static void title_page_names_the_program_and_its_kernel_time(void **state)
{
    (void)state;
    write_data(FIXTURE);
    const char *title = data_file("title.tsv");
    expect_in(title, "Program\tpython3 train.py --steps 1\n");
    expect_in(title, "GPU\tNVIDIA H100 80GB HBM3\n");
    expect_in(title, "launches\t6 launches per run, 6 jobs; 3 jobs profiled with hardware metrics "
                     "(global,shared,dram,roofline,cache,sol), 3 timed\n");
    expect_in(title, "kernel time\t33.034 ms in all, 5.506 ms per run of the program (6 runs)\n");
    expect_in(title, "busiest\tKernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1> #0 (step 1/matmul) takes 48.3 %");
    expect_in(data_file("variables.gp"), "title_heading = 'memscope: the kernels of a CUDA program'\n");
}

/* Ranked by mean x launches over the total (33.034 ms); a profiled job's evidence on the row below it. */
static void kernels_are_ranked_by_share_with_limiter_and_evidence(void **state)
{
    (void)state;
    write_data(FIXTURE);
    assert_string_equal(
        data_file("kernels-1.tsv"),
        "\nrank\tkernel\tNVTX path\tlaunch\tlaunches\tmedian ms\tshare %\ttensor\tlimiter (evidence below)\n"
        "1\tKernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>\tstep 1/matmul\t#0\t6\t2.664\t48.3\t-\tinstruction issue\n"
        "\tissue slots 90 % used, FMA pipe 80 %, L1/shared 62 %\n"
        "2\tKernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>\tstep 1/matmul\t#1\t6\t2.660\t48.3\t-\ttimed only\n"
        "3\tcunn_SoftMaxForward<4, float, float, float, SoftMaxForwardEpilogue>\tstep 1/softmax\t#0\t6\t0.08137\t1.5"
        "\t-\tDRAM bandwidth\n"
        "\tDRAM at 86 % of peak; L2 48 %, FMA pipe 4 %\n"
        "4\tvectorized_layer_norm_kernel<float, float>\tstep 1/layer_norm\t#0\t6\t0.05223\t0.9\t-\tDRAM bandwidth\n"
        "\tDRAM at 72 % of peak; L2 44 %, FMA pipe 8 %\n"
        "5\tvectorized_elementwise_kernel<4, CUDAFunctor_add<…>, array<…> >\tstep 1/add\t#0\t6\t0.04137\t0.8"
        "\t-\ttimed only\n"
        "6\tvectorized_elementwise_kernel<4, FillFunctor<float>, array<char*, 1ul> >\t(none)\t#0\t6\t0.01210\t0.2"
        "\t-\ttimed only\n");
}

/* The profiled jobs alone, under no roof: the folder measured none, and a profile draws no datasheet figure. */
static void roofline_places_profiled_jobs_without_unmeasured_roofs(void **state)
{
    (void)state;
    write_data(FIXTURE);
    const char *points = data_file("roofline.tsv");
    expect_in(points, "\n1\t1\tKernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1> #0 (step 1/matmul)\t51605.3\t");
    expect_in(points, "\n2\t2\tcunn_SoftMaxForward<4, float, float, float, SoftMaxForwardEpilogue> #0 (step 1/softmax)");
    expect_in(points, "\n3\t3\tvectorized_layer_norm_kernel<float, float> #0 (step 1/layer_norm)\t");
    assert_null(strstr(points, "#1"));
    const char *roofs = data_file("roofs.gp");
    expect_in(roofs, "roof_dram_gbs = NaN\n");
    expect_in(roofs, "roof_fp32_gflops = NaN\n");
    expect_in(roofs, "roofs_note = 'No roofs: this profile holds no measured ceilings");
    expect_in(data_file("variables.gp"), "at_width = ''\n");
}

static void measured_ceilings_give_measured_roofs_and_bounds(void **state)
{
    (void)state;
    copy_fixture_and("printf 'ceiling_dram_gbs,2862.5\\nceiling_fp32_gflops,64362.7\\n' >> $R/environment.csv");
    write_data(scratch);
    const char *roofs = data_file("roofs.gp");
    expect_in(roofs, "roof_dram_gbs = 2862.5\n");
    expect_in(roofs, "roof_dram_title = 'DRAM 2,862 GB/s (measured)'\n");
    expect_in(roofs, "roof_l2_gbs = NaN\n");
    expect_in(roofs, "roofs_note = 'Roofs measured on this GPU where the profile has the ceiling; none for the others.'");
    expect_in(data_file("roofline.tsv"), "(step 1/softmax)\t2061.91\t0.762601\t0.834687\t0.897177\t0\tDRAM\t");
}

static void stalls_csv_brings_the_stall_pages(void **state)
{
    (void)state;
    copy_fixture_and("printf '%s\\n%s\\n' 'variant,precision,width,kernel,file,line,source,reason,samples' "
                     "'\"step 1/softmax/void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, "
                     "float, at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int) #0\","
                     "program,0,\"void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
                     "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)\",,0,,"
                     "long_scoreboard,120' > $R/stalls.csv");
    write_data(scratch);
    assert_string_equal(data_file("pages.tsv"), "\ntitle\ttitle.gp\t\n"
                                                "kernels-1\tkernels.gp\tkernels_page=1\n"
                                                "roofline\troofline.gp\t\n"
                                                "roofline-key\troofline_key.gp\t\n"
                                                "stalls\tstalls.gp\t\n"
                                                "stall-lines\tstall_lines.gp\t\n");
    /* the label cut to 52 characters, the launch's ordinal and NVTX path kept whole */
    expect_in(data_file("stall-lines.tsv"), "\tcunn_SoftMaxForward<4, float,... #0 (step 1/softmax)\t");
}

static void job_labels_drop_signature_namespaces_and_deep_templates(void **state)
{
    (void)state;
    char label[REPORT_JOB_LABEL_LEN];
    report_kernel_label("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
                        "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)",
                        label, sizeof label);
    assert_string_equal(label, "vectorized_elementwise_kernel<4, CUDAFunctor_add<…>, array<…> >");
    report_kernel_label("void foo<int>::bar<3>(int)", label, sizeof label);
    assert_string_equal(label, "bar<3>");
    report_job_label("a/b/k(int) #3", "k(int)", label, sizeof label);
    assert_string_equal(label, "k #3 (a/b)");
    report_job_label("k(int) #0", "k(int)", label, sizeof label);
    assert_string_equal(label, "k #0");
    char name[100];
    memset(name, 'z', 99);
    name[99] = '\0';
    report_kernel_label(name, label, sizeof label);
    assert_int_equal(strlen(label), REPORT_KERNEL_LABEL_MAX - 1 + strlen("…"));
}

/* make report RESULTS=results as CI runs it, into reports/<its name>-report/ (removed after): a PDF of pages pages,
 * its text in o. */
static void make_report_of(const char *results, int pages, struct outcome *o)
{
    char report[256];
    snprintf(report, sizeof report, "reports/%s-report", strrchr(results, '/') + 1);
    if (system("command -v gnuplot >/dev/null && command -v pdfinfo >/dev/null && command -v pdftotext "
               ">/dev/null") != 0)
        skip();
    shell(o, "rm -rf %s && make --no-print-directory report RESULTS=%s", report, results);
    if (o->exit_code != 0)
        fail_msg("make report failed (%d):\n%s", o->exit_code, o->output);
    expect_in(o->output, report);
    shell(o, "pdfinfo %s/memscope-report.pdf | sed -n 's/^Pages: *//p'", report);
    assert_int_equal(atoi(o->output), pages);
    shell(o, "pdftotext -layout %s/memscope-report.pdf - && rm -rf %s", report, report);
}

/* As CI runs it: the PDF of the fixture, its four pages. */
static void make_report_renders_the_profile(void **state)
{
    (void)state;
    static struct outcome o;
    make_report_of(FIXTURE, 4, &o);
    static const char *const expected[] = {
        "memscope: the kernels of a CUDA program", "python3 train.py --steps 1", "Kernels by GPU time (page 1 of 1)",
        "cunn_SoftMaxForward<4, float, float, float, SoftMaxForwardEpilogue>", "DRAM at 86 % of peak",
        "Hierarchical roofline", "No roofs: this profile holds no measured ceilings", "Roofline key: what bounds",
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i)
        expect_in(o.output, expected[i]);
    assert_null(strstr(o.output, "Summary at W"));
}

/* The profile of a PyTorch script taken on an H100 and committed (reports/profile-torch-h100, --repeat 6) renders
 * where there is no GPU: its busiest job, its runs, the layer norm's evidence and its stall pages, as its summary.csv
 * and stalls.csv have them. */
static void the_committed_h100_profile_renders(void **state)
{
    (void)state;
    static struct outcome o;
    make_report_of("reports/profile-torch-h100", 6, &o); /* title, kernels, roofline, its key, stalls, lines */
    static const char *const expected[] = {
        "NVIDIA H100 80GB HBM3", "python3 tests/inject/program_torch.py", "(6 runs)", "12 launches per run, 12 jobs",
        "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_stage3_warpsize… #0 (step 1/matmul)",
        "vectorized_layer_norm_kernel<float, float, false>", "DRAM at 78 % of peak",
        "rank", "NVTX path", "share %", /* the kernels table's header is drawn */
        "Warp stall reasons: where the warps wait", "Most stalled lines", /* its stalls group */
        "100 % of the samples; long_scoreboard 78 % of the line's", /* the layer norm's, as its stalls.csv has it */
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i)
        expect_in(o.output, expected[i]);
}

/* The committed profile of the bf16 transformer block (reports/profile-torch-bf16-h100, issue 39) renders where there
 * is no GPU: its GEMMs ranked with their type, TFLOP/s and share of the bf16 roof the profile measured, and the roofline
 * drawing that roof, as its summary.csv and environment.csv have them. */
static void the_committed_bf16_profile_renders_with_its_tensor_roofs(void **state)
{
    (void)state;
    static struct outcome o;
    make_report_of("reports/profile-torch-bf16-h100", 6, &o); /* title, three kernels pages, roofline, its key */
    static const char *const expected[] = {
        "python3 tests/inject/program_torch_bf16.py", "bf16 791 TFLOP/s",
        "bf16 tensor 791 TFLOP/s, 83 % of the measured bf16 roof; tensor pipe 97 % of cycles",
        "bf16 tensor 953,230 GFLOP/s (measured)", "tensor pipe",
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i)
        expect_in(o.output, expected[i]);
    assert_null(strstr(o.output, "not counted"));
}

/* A benchmark that launches a kernel thousands of times has as many jobs: the table shows the 56 busiest on its four
 * pages and says what share the others take (60 copies of the fixture's last job added here: 66 jobs). */
static void the_kernels_table_keeps_to_four_pages_and_says_what_it_leaves_out(void **state)
{
    (void)state;
    static struct outcome o;
    copy_fixture_and("row=$(tail -1 $R/summary.csv); samples=$(tail -6 $R/samples.csv); "
                     "for i in $(seq 1 60); do "
                     "echo \"$row\" | sed \"s|^\\\"[^\\\"]*\\\"|\\\"extra/k() #$i\\\"|\" >> $R/summary.csv; "
                     "echo \"$samples\" | sed \"s|^\\\"[^\\\"]*\\\"|\\\"extra/k() #$i\\\"|\" >> $R/samples.csv; done");
    make_report_of(scratch, 7, &o); /* title, 4 kernels pages, roofline and its key */
    expect_in(o.output, "Kernels by GPU time (page 4 of 4)");
    expect_in(o.output, "The 56 busiest of 66 jobs: the other 10 take");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(profile_pages_replace_the_suites),
        cmocka_unit_test(title_page_names_the_program_and_its_kernel_time),
        cmocka_unit_test(kernels_are_ranked_by_share_with_limiter_and_evidence),
        cmocka_unit_test(roofline_places_profiled_jobs_without_unmeasured_roofs),
        cmocka_unit_test(measured_ceilings_give_measured_roofs_and_bounds),
        cmocka_unit_test(stalls_csv_brings_the_stall_pages),
        cmocka_unit_test(job_labels_drop_signature_namespaces_and_deep_templates),
        cmocka_unit_test(make_report_renders_the_profile),
        cmocka_unit_test(the_committed_h100_profile_renders),
        cmocka_unit_test(the_committed_bf16_profile_renders_with_its_tensor_roofs),
        cmocka_unit_test(the_kernels_table_keeps_to_four_pages_and_says_what_it_leaves_out),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
