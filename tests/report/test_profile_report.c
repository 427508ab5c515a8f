/*
 * A program's profile (memscope-profile, environment.csv's kind "program") rendered as a profile, not as a run of
 * the suite, read by kernel: its title page (command, GPU, launches, kernels, kernel time), its kernels (every
 * launch of each together, or by NVTX range, or each launch alone) ranked by total GPU time with their limiter and
 * evidence, a roofline of its profiled kernels with roofs only where the folder measured them,
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
#include "../../harness/program/labels.h"

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
    expect_in(title, "launches\t6 launches per run, 5 kernels; 3 kernels profiled with hardware metrics, each by its "
                     "first launch profiled; the rest timed\nmetric groups\tglobal,shared,dram,roofline,cache,sol\n");
    assert_null(strstr(title, "collectives apart")); /* the busiest is no collective */
    expect_in(title, "kernel time\t33.034 ms in all, 5.506 ms per run of the program (6 runs)\n");
    /* the cutlass GEMM's two jobs (launches #0 and #1 at step 1/matmul) are one kernel: 12 launches, 31.911 ms */
    expect_in(title, "busiest\tKernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1> takes 96.6 % of the kernels' GPU "
                     "time (12 launches, 31.911 ms)\n");
    expect_in(data_file("variables.gp"), "title_heading = 'memscope: the kernels of a CUDA program'\n");
}

/* The groups that ran in runs of their own are named beside those the first run replayed (environment.csv's
 * metric_groups lists only those): a profile with stall samples, one with lines, and one with neither (above). */
static void title_page_names_the_groups_of_the_runs_of_their_own(void **state)
{
    (void)state;
    write_data("tests/fixtures/profile-ddp-compile-h100");
    expect_in(data_file("title.tsv"), "\nmetric groups\tglobal,shared,dram,roofline,cache,sol,tensor,causes; stalls, "
                                      "sampled in a run of their own\n");
    write_data("tests/fixtures/profile-train-lines-h200");
    expect_in(data_file("title.tsv"), "\nmetric groups\tglobal,shared,sol; source, counted in a run of its own\n");
}

/* A comparison of two profiles (--compare) is written for its page as a TSV, its kernels' names whole: gnuplot cuts
 * a quoted CSV field at its first comma, and drew the softmax as "cunn_SoftMaxForward<4". */
static void a_comparisons_names_reach_its_page_whole(void **state)
{
    (void)state;
    static struct outcome o;
    struct results_folder r;
    struct error e = {0};
    char compare[192];
    const char *tool = getenv("MEMSCOPE_COMPARE");
    snprintf(compare, sizeof compare, "%s/cmp/compare.csv", workdir);
    shell(&o, "rm -rf %s/cmp && %s -o %s/cmp %s tests/fixtures/profile-small-after >/dev/null", workdir,
          tool ? tool : "build/memscope-compare", workdir, FIXTURE);
    shell(&o, "rm -rf %s && mkdir -p %s && test -s %s", data_dir, data_dir, compare);
    assert_int_equal(o.exit_code, 0);
    if (results_folder_open(FIXTURE, &r, &e) || report_data_write(&r, data_dir, "", compare, GROUP_BY_KERNEL, &e))
        fail_msg("%s", e.message);
    results_folder_close(&r);
    const char *table = data_file("compare.tsv");
    expect_in(table, "\nvariant\tprecision\twidth\t");
    /* alone (compare-chart's): the same table into a folder, never over a compare.tsv someone left there */
    shell(&o, "w=%s && mkdir -p $w/alone $w/mine && echo notes > $w/mine/compare.tsv && "
              "build/memscope-report-data --compare %s $w/alone && cmp $w/alone/compare.tsv %s/compare.tsv && "
              "build/memscope-report-data --compare %s $w/mine 2>&1; echo \"exit $?\"; cat $w/mine/compare.tsv",
          workdir, compare, data_dir, compare);
    expect_in(o.output, "compare.tsv already exists: it is not overwritten\nexit 4\nnotes\n");
    /* an empty DATA_DIR would put the tables into the root: refused, whichever form */
    shell(&o, "build/memscope-report-data --compare %s '' 2>&1; echo \"exit $?\"; "
              "build/memscope-report-data %s '' 2>&1; echo \"exit $?\"",
          compare, FIXTURE);
    expect_in(o.output, "DATA_DIR: empty path\nexit 2\nmemscope-report-data: DATA_DIR: empty path\nexit 2\n");
    expect_in(table, "\nvoid at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
                     "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)\tprogram\t");
    /* its label, then p_holm */
    expect_in(table, "\tcunn_SoftMaxForward<4, float, float, float, SoftMaxForwardEpilogue>\t1\n");
}

/* A program's comparison of many kernels draws 40 bars, not one per kernel (the bars and names of a training script's
 * 109 ran together): 62 units made from the fixture's comparison, kernel k SAME at k ms a launch over 10 launches
 * (k = 1..60), one SLOWER at the least time, one of too few samples (no interval) at the most. Drawn: the SLOWER one,
 * then the 39 SAME ones of most base time (k = 22..60); not the one without an interval; compare-variables.gp says
 * 40 of 62, and is never written over; the chart's caption says so. */
static void a_comparison_of_many_kernels_draws_the_bars_worth_drawing(void **state)
{
    (void)state;
    static struct outcome o;
    const char *tool = getenv("MEMSCOPE_COMPARE");
    shell(&o, "w=%s/many && rm -rf $w && mkdir -p $w/data && %s -o $w/cmp %s tests/fixtures/profile-small-after "
              ">/dev/null; python3 -c 'import csv, sys\n"
              "rows = list(csv.DictReader(open(sys.argv[1])))\n"
              "out = csv.DictWriter(open(sys.argv[2], \"w\", newline=\"\"), rows[0].keys(), lineterminator=\"\\n\")\n"
              "out.writeheader()\n"
              "def unit(name, ms, n, verdict, low):\n"
              "    r = dict(rows[0], variant=name, label=name, verdict=verdict)\n"
              "    r.update(base_median_ms=str(ms), base_samples=str(n), interval_low_pct=low)\n"
              "    out.writerow(r)\n"
              "for k in range(1, 61): unit(\"k%%d\" %% k, k, 10, \"SAME\", \"-0.5\")\n"
              "unit(\"slower\", 0.5, 10, \"SLOWER\", \"5\")\n"
              "unit(\"few\", 1000, 2, \"UNSURE\", \"\")' $w/cmp/compare.csv $w/many.csv && "
              "build/memscope-report-data --compare $w/many.csv $w/data && cat $w/data/compare-variables.gp && "
              "cut -f 1 $w/data/compare.tsv | tr '\\n' ' '",
          workdir, tool ? tool : "build/memscope-compare", FIXTURE);
    assert_int_equal(o.exit_code, 0);
    expect_in(o.output, "compare_units = 62\ncompare_shown = 40\n");
    char drawn[1024] = "variant ";
    for (int k = 22; k <= 60; ++k)
        snprintf(drawn + strlen(drawn), sizeof drawn - strlen(drawn), "k%d ", k);
    strcat(drawn, "slower ");
    expect_in(o.output, drawn);
    /* alone, never over a compare-variables.gp someone left there */
    shell(&o, "w=%s/many && mkdir -p $w/mine && echo notes > $w/mine/compare-variables.gp && "
              "build/memscope-report-data --compare $w/many.csv $w/mine 2>&1; echo \"exit $?\"; "
              "cat $w/mine/compare-variables.gp; ls $w/mine",
          workdir);
    expect_in(o.output, "compare-variables.gp already exists: it is not overwritten\nexit 4\nnotes\n"
                        "compare-variables.gp\n");
    if (system("command -v gnuplot >/dev/null && command -v pdftotext >/dev/null") != 0) {
        print_message("gnuplot or pdftotext missing: the chart's caption is not read\n");
        return;
    }
    /* the chart's caption says how many were drawn, with nothing on stderr (where gnuplot warns) */
    shell(&o, "w=%s/many && mkdir -p $w/chart && cp $w/many.csv $w/chart/compare.csv && "
              "scripts/compare-chart $w/chart 2>&1 >/dev/null && pdftotext -raw $w/chart/compare.pdf - | tr -d '\\n '",
          workdir);
    expect_in(o.output, "40ofthe62unitsdrawn:everySLOWER,FASTERandFAILEDone");
    if (strstr(o.output, "warning") || strstr(o.output, "line "))
        fail_msg("gnuplot said something:\n%s", o.output);
}

/* Kernels, not launches: the GEMM's two jobs are one row of 12 launches; ranked by their total time over all kernels'
 * (33.034 ms); a profiled kernel's first finding and evidence on the row below it. The figures are the fixture's
 * samples.csv's: the GEMM's 12 durations sum to 31.911 ms (6 x 2.659673 + 6 x 2.658884). The fixture predates the
 * findings; today's rules find on its stored counters that each bound unit could gain at most what the next-busiest
 * leaves: issue slots 90 % against the FMA pipe's 80 % (20 %), DRAM 86 % against the L2's 48 % (52 %), DRAM 72 %
 * against 44 % (56 %). */
static void kernels_are_ranked_by_total_time_with_limiter_and_evidence(void **state)
{
    (void)state;
    write_data(FIXTURE);
    assert_string_equal(
        data_file("kernels-1.tsv"),
        "\nrank\tkernel\tlaunches\ttotal ms\tshare %\tmedian ms\tleast-most ms\ttensor\tlimiter (finding below)\n"
        "1\tKernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>\t12\t31.91\t96.6\t2.66\t2.65-2.67\t-\t"
        "instruction issue\n"
        "\tfirst finding issue_bound (est. 20 %); issue slots 90 % used, FMA pipe 80 %, L1/shared 62 %\n"
        "2\tcunn_SoftMaxForward<4, float, float, float, SoftMaxForwardEpilogue>\t6\t0.4881\t1.5\t0.0814\t"
        "0.0811-0.0815\t-\tDRAM bandwidth\n"
        "\tfirst finding dram_bound (est. 52 %); DRAM at 86 % of peak; L2 48 %, FMA pipe 4 %\n"
        "3\tvectorized_layer_norm_kernel<float, float>\t6\t0.3134\t0.9\t0.0522\t0.0521-0.0524\t-\tDRAM bandwidth\n"
        "\tfirst finding dram_bound (est. 56 %); DRAM at 72 % of peak; L2 44 %, FMA pipe 8 %\n"
        "4\tvectorized_elementwise_kernel<4, CUDAFunctor_add<…>, array<…> >\t6\t0.2482\t0.8\t0.0414\t"
        "0.0413-0.0415\t-\ttimed only\n"
        "5\tvectorized_elementwise_kernel<4, FillFunctor<float>, array<char*, 1ul> >\t6\t0.07259\t0.2\t0.0121\t"
        "0.0121-0.0121\t-\ttimed only\n");
}

/* By NVTX range (--group-by nvtx), each kernel within the innermost range it ran in, named with it; by launch, each
 * launch alone, as profiles were read before issue 48. */
static void kernels_group_by_nvtx_range_or_by_launch(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "rm -rf %s && mkdir -p %s && build/memscope-report-data --group-by nvtx %s %s && sed -n 2,3p "
              "%s/kernels-1.tsv", data_dir, data_dir, FIXTURE, data_dir, data_dir);
    assert_int_equal(o.exit_code, 0);
    expect_in(o.output, "1\tKernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1> (matmul)\t12\t31.91\t");
    shell(&o, "rm -rf %s && mkdir -p %s && build/memscope-report-data --group-by launch %s %s && cut -f 2,3 "
              "%s/kernels-1.tsv", data_dir, data_dir, FIXTURE, data_dir, data_dir);
    assert_int_equal(o.exit_code, 0);
    expect_in(o.output, "Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1> #0 (step 1/matmul)\t6\n");
    expect_in(o.output, "Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1> #1 (step 1/matmul)\t6\n");
    shell(&o, "build/memscope-report-data --group-by stream %s %s", FIXTURE, data_dir);
    assert_int_equal(o.exit_code, 2);
    expect_in(o.output, "--group-by: 'stream' is none of kernel");
}

/* The profiled kernels alone, each by its profiled launch and named by the kernel, under no roof: the folder
 * measured none, and a profile draws no datasheet figure. */
static void roofline_places_profiled_kernels_without_unmeasured_roofs(void **state)
{
    (void)state;
    write_data(FIXTURE);
    const char *points = data_file("roofline.tsv");
    expect_in(points, "\n1\t1\tKernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>\t51605.3\t");
    expect_in(points, "\n2\t2\tcunn_SoftMaxForward<4, float, float, float, SoftMaxForwardEpilogue>\t");
    expect_in(points, "\n3\t3\tvectorized_layer_norm_kernel<float, float>\t");
    assert_null(strstr(points, "\n4\t"));
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
    expect_in(data_file("roofline.tsv"), "SoftMaxForwardEpilogue>\t2061.91\t0.762601\t0.834687\t0.897177\t0\tDRAM\t");
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
    /* the kernel's label cut to 52 characters */
    expect_in(data_file("stall-lines.tsv"), "\tcunn_SoftMaxForward<4, float, float, float, SoftM...\t");
}

static void job_labels_drop_signature_namespaces_and_deep_templates(void **state)
{
    (void)state;
    char label[JOB_LABEL_LEN];
    program_kernel_label("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
                        "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)",
                        KERNEL_LABEL_MAX, label, sizeof label);
    assert_string_equal(label, "vectorized_elementwise_kernel<4, CUDAFunctor_add<…>, array<…> >");
    program_kernel_label("void foo<int>::bar<3>(int)", KERNEL_LABEL_MAX, label, sizeof label);
    assert_string_equal(label, "bar<3>");
    program_job_label("a/b/k(int) #3", "k(int)", KERNEL_LABEL_MAX, label, sizeof label);
    assert_string_equal(label, "k #3 (a/b)");
    program_job_label("k(int) #0", "k(int)", KERNEL_LABEL_MAX, label, sizeof label);
    assert_string_equal(label, "k #0");
    char name[100];
    memset(name, 'z', 99);
    name[99] = '\0';
    program_kernel_label(name, KERNEL_LABEL_MAX, label, sizeof label);
    assert_int_equal(strlen(label), KERNEL_LABEL_MAX - 1 + strlen("…"));
    /* Inductor's names differ at their end: cut in the middle, the last 12 characters kept, and again to fewer */
    char triton[JOB_LABEL_LEN + 8];
    static const char *const inductor = "triton_red_fused__to_copy_native_layer_norm_native_layer_norm_backward_view_4";
    program_kernel_label(inductor, KERNEL_LABEL_MAX, triton, sizeof triton);
    assert_string_equal(triton, "triton_red_fused__to_copy_native_layer_norm_native_layer_no…kward_view_4");
    program_label_shorten(triton, 48);
    assert_string_equal(triton, "triton_red_fused__to_copy_native_la…kward_view_4");
    /* a narrower label of the same kernel: its NVTX range or ordinal comes after it, never into its cut */
    program_job_label("fwd/step/triton_red_fused__to_copy_native_layer_norm_native_layer_norm_backward_view_4 #0",
                      inductor, 48, triton, sizeof triton);
    assert_string_equal(triton, "triton_red_fused__to_copy_native_la…kward_view_4 #0 (fwd/step)");
    /* too short a cut for a middle: at the end */
    program_label_shorten(triton, 10);
    assert_string_equal(triton, "triton_re…");
    char file[JOB_LABEL_LEN + 8] = "cxtu6hie3ghdjkpfnyplpwl2xhvigaigus4ttdkazrrz4gzc7qcu.py";
    program_label_shorten(file, 36);
    assert_string_equal(file, "cxtu6hie3ghdjkpfnyplpwl…z4gzc7qcu.py");
}

/* The rules a profile's stored figures cannot judge are named on the kernels page, not passed over. The H200 bf16
 * profile (reports/profile-torch-bf16-h200, at cffaf3b) stores the SM's resources beside the ceilings, so the page
 * finds what the profile found, every kernel: partial_last_wave 20 %, dram_bound 13, strided_global_access 32,
 * issue_bound 48, tensor_bound 28 (summary.csv's first_finding_gain_pct 20, 12.54, 31.77, 48.42, 28.17). A profile
 * taken before memscope-profile stored them (here a copy without them) judges the wave and occupancy rules by
 * nothing: the page names them, and the normal distribution's kernel reads the profile's second cause first
 * (findings.csv: partial_last_wave 20, then issue_bound; its gain is not the stored 56.51, for the cause findings
 * judged there, the partial wave among them, accounted for 20 points of the issue slots' share, and here fewer are
 * judged). */
static void rules_the_profile_cannot_judge_are_named(void **state)
{
    (void)state;
    static struct outcome o;
    write_data("reports/profile-torch-bf16-h200");
    expect_in(data_file("variables.gp"), "kernels_unjudged_note = ''\n");
    const char *t = data_file("kernels-1.tsv");
    expect_in(t, "\n2\tdistribution_elementwise_grid_stride_kernel<float, 4, normal_and_transf…\t4\t0.1275\t7.5\t"
                 "0.0368\t0.0126-0.0412\t-\tinstruction issue\n\tfirst finding partial_last_wave (est. 20 %); issue "
                 "slots 77 % used");
    expect_in(t, "\tfirst finding dram_bound (est. 13 %); DRAM at 81 % of peak");
    expect_in(t, "\tfirst finding strided_global_access (est. 32 %)");
    expect_in(t, "\tfirst finding issue_bound (est. 48 %)");
    expect_in(t, "\tfirst finding tensor_bound (est. 28 %)");
    shell(&o,
          "rm -rf %s && cp -r reports/profile-torch-bf16-h200 %s && grep -v -E '^(sm_count|sm_max_warps|"
          "sm_max_blocks|sm_registers|sm_shared_memory_bytes|block_reserved_shared_memory_bytes),' "
          "reports/profile-torch-bf16-h200/environment.csv > %s/environment.csv",
          scratch, scratch, scratch);
    assert_int_equal(o.exit_code, 0);
    write_data(scratch);
    expect_in(data_file("variables.gp"), "kernels_unjudged_note = 'Not judged, what they read not stored in this "
                                         "profile (docs/metrics.md): occupancy_registers, occupancy_shared_memory, "
                                         "occupancy_block_size,'.\"\\n\".'too_few_blocks, partial_last_wave.'\n");
    expect_in(data_file("kernels-1.tsv"), "\t0.0126-0.0412\t-\tinstruction issue\n\tfirst finding issue_bound (est. ");
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
        "NVIDIA H100 80GB HBM3", "python3 tests/inject/program_torch.py", "(6 runs)", "12 launches per run, 5 kernels",
        "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_sta…l__5x_cublas",
        "vectorized_layer_norm_kernel<float, float, false>", "DRAM at 78 % of peak",
        "rank", "total ms", "share %", /* the kernels table's header is drawn */
        "Warp stall reasons: where the warps wait", "Most stalled lines", /* its stalls group */
        "100 % of the samples; long_scoreboard 78 % of the line's", /* the layer norm's, as its stalls.csv has it */
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i)
        expect_in(o.output, expected[i]);
}

/* The committed profile of the bf16 transformer block (reports/profile-torch-bf16-h100, issue 39) renders where there
 * is no GPU: cuBLAS's GEMM kernel first, with its type, TFLOP/s and share of the bf16 roof the profile measured, and
 * the roofline drawing that roof, as its summary.csv and environment.csv have them. */
static void the_committed_bf16_profile_renders_with_its_tensor_roofs(void **state)
{
    (void)state;
    static struct outcome o;
    make_report_of("reports/profile-torch-bf16-h100", 4, &o); /* title, the kernels page, roofline, its key */
    static const char *const expected[] = {
        "python3 tests/inject/program_torch_bf16.py", "bf16 741 TFLOP/s",
        /* cuBLAS's GEMM kernel, its 8 launches one kernel, described by its first profiled launch */
        "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT", "58.8",
        "bf16 tensor 741 TFLOP/s, 78 % of the measured bf16 roof; tensor pipe 91 % of cycles",
        "bf16 tensor 953,230 GFLOP/s (measured)", "tensor pipe",
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i)
        expect_in(o.output, expected[i]);
    assert_null(strstr(o.output, "not counted"));
}

/* A program of many kernels: the table shows the 56 busiest on its four pages and says what share the others take
 * (60 kernels added here, each a copy of the fixture's last with another name: 65 kernels). */
static void the_kernels_table_keeps_to_four_pages_and_says_what_it_leaves_out(void **state)
{
    (void)state;
    static struct outcome o;
    copy_fixture_and("row=$(grep FillFunctor $R/summary.csv); samples=$(grep FillFunctor $R/samples.csv); "
                     "for i in $(seq 1 60); do "
                     "echo \"$row\" | sed \"s|FillFunctor<float>|FillFunctor$i<float>|g\" >> $R/summary.csv; "
                     "echo \"$samples\" | sed \"s|FillFunctor<float>|FillFunctor$i<float>|g\" >> $R/samples.csv; done");
    make_report_of(scratch, 7, &o); /* title, 4 kernels pages, roofline and its key */
    expect_in(o.output, "Kernels by GPU time (page 4 of 4)");
    expect_in(o.output, "The 56 busiest of 65 kernels: the other 9 (54 launches) take");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(profile_pages_replace_the_suites),
        cmocka_unit_test(title_page_names_the_program_and_its_kernel_time),
        cmocka_unit_test(title_page_names_the_groups_of_the_runs_of_their_own),
        cmocka_unit_test(a_comparisons_names_reach_its_page_whole),
        cmocka_unit_test(a_comparison_of_many_kernels_draws_the_bars_worth_drawing),
        cmocka_unit_test(kernels_are_ranked_by_total_time_with_limiter_and_evidence),
        cmocka_unit_test(kernels_group_by_nvtx_range_or_by_launch),
        cmocka_unit_test(roofline_places_profiled_kernels_without_unmeasured_roofs),
        cmocka_unit_test(measured_ceilings_give_measured_roofs_and_bounds),
        cmocka_unit_test(stalls_csv_brings_the_stall_pages),
        cmocka_unit_test(job_labels_drop_signature_namespaces_and_deep_templates),
        cmocka_unit_test(make_report_renders_the_profile),
        cmocka_unit_test(the_committed_h100_profile_renders),
        cmocka_unit_test(the_committed_bf16_profile_renders_with_its_tensor_roofs),
        cmocka_unit_test(the_kernels_table_keeps_to_four_pages_and_says_what_it_leaves_out),
        cmocka_unit_test(rules_the_profile_cannot_judge_are_named),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
