/*
 * What the title, diagnosis, bank-conflict and ground-truth pages say, read from the tables memscope-report-data
 * writes for them, with no GPU and no gnuplot. The fixture, tests/fixtures/content-run, is cut verbatim from the
 * H100 reference run at af9d50f (reports/reference): ten variants (naive, naive_uncoalesced, tiled_32,
 * tiled_transposed, tiled_transposed_padded, warptiled, pipelined, halfwarp_lanes, icache_fit, cublas) at W = 1024
 * and 4096, their metrics.csv rows and the shared-memory rows of lines.csv at W = 4096 only, and the whole
 * --validate folder. The figures below were read from those CSV files by hand.
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

#define FIXTURE "tests/fixtures/content-run"
#define REFERENCE "reports/reference"

#include "../support/page_data.h"

static void expect_line(const char *text, const char *line)
{
    char wanted[1024];
    snprintf(wanted, sizeof wanted, "\n%s\n", line);
    if (!strstr(text, wanted))
        fail_msg("no line\n%s\nin\n%s", line, text);
}

/* A row of a table whose first column is a linetype: the row from its second column on. */
static void expect_row(const char *text, const char *row)
{
    char wanted[1024];
    snprintf(wanted, sizeof wanted, "\t%s\n", row);
    if (!strstr(text, wanted))
        fail_msg("no row\n%s\nin\n%s", row, text);
}

/* ---- the title page (p. 1) ---- */

/* What the run found comes first: the ladder's best rung against cuBLAS at the largest width (icache_fit, 2.892 ms
 * against cuBLAS's 2.658 ms at W = 4096; at 1024 pipelined was faster), each lesson's counter before and after its
 * idea with the change of the median time, and the checks. */
static void the_title_page_says_what_the_run_found(void **state)
{
    (void)state;
    write_data(FIXTURE);
    const char *t = data_file("title.tsv");
    assert_ptr_equal(strstr(t, "\nfound\tat W = 4096, the largest width (the checks: at every size)\n"), t);
    expect_line(t, "FP32 ladder\tbest rung icache_fit at 91.9 % of cuBLAS (47.5 of 51.7 TFLOP/s)");
    expect_line(t, "coalescing\tnaive_uncoalesced → naive: global load efficiency 12.5 % → 82.5 %, 12.3x faster");
    expect_line(t, "tiling\tnaive → tiled_32: global load requests 4,294,967,296 → 134,217,728, 1.5x faster");
    expect_line(t, "padding\ttiled_transposed → tiled_transposed_padded: exact bank conflicts 2,080,374,784 → 0, "
                   "1.4x faster");
    expect_line(t, "checks\tall 20 products matched the reference");
    expect_line(t, "ground truth\tall 102 checks passed");
    expect_line(t, "recorded\tfrom environment.csv");
}

/* A failed product and a failed ground-truth check are named on page 1 (a check by its kernel: the metric's name
 * would run off the page), and a lesson whose variant failed says nothing. */
static void the_title_page_names_failed_checks(void **state)
{
    (void)state;
    copy_fixture_and("sed -i 's/^tiled_32,fp32,row_major,4096,passed,/tiled_32,fp32,row_major,4096,failed,/' "
                     "$R/summary.csv && sed -i '/^transpose_naive,width=16384,dram__bytes_/s/,pass$/,fail/' "
                     "$R/validate/validate.csv");
    write_data(scratch);
    const char *t = data_file("title.tsv");
    expect_line(t, "checks\t1 of 20 products failed their check (tiled_32 at W = 4096)");
    /* its read and its write checks: two checks, one kernel */
    expect_line(t, "ground truth\t2 of 102 checks failed (transpose_naive)");
    assert_null(strstr(t, "\ntiling\t"));
}

/* A run of rectangles alone (reports/shapes-h200's four transformer GEMMs, its squares' rows taken out): no page
 * of the largest width, since there is none; its title, a summary page for each shape, named and titled by it, and
 * the shapes page. */
static void a_run_of_no_square_draws_its_title_summaries_and_shapes_alone(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "rm -rf %1$s && cp -r reports/shapes-h200 %1$s && for f in summary:4 samples:3; do "
              "awk -F, -v w=${f#*:} 'NR == 1 || $w == 0' %1$s/${f%%:*}.csv > %1$s/kept && mv %1$s/kept %1$s/${f%%:*}.csv; "
              "done",
          scratch);
    assert_int_equal(o.exit_code, 0);
    write_data(scratch);
    const char *pages = data_file("pages.tsv");
    expect_line(pages, "summary-8192x1024x1024\tsummary.gp\tsummary_size='8192x1024x1024'");
    expect_line(pages, "summary-8192x4096x1024\tsummary.gp\tsummary_size='8192x4096x1024'");
    expect_line(pages, "shapes\tshapes.gp\t");
    for (const char *const *page = (const char *const[]){"\nperformance\t", "\nsummary-8192\t", "\ntensor-ladder\t",
                                                           "\nroofline\t", "\ndram\t", NULL};
         *page; ++page)
        if (strstr(pages, *page))
            fail_msg("a page of the largest width in a run of no square:\n%s", pages);
    expect_line(data_file("title.tsv"), "found\tno square product in the run: its pages at the largest width are left out");
    expect_line(data_file("variables.gp"), "size_title_8192x3072x1024 = '8192 x 3072 x 1024'");
    /* fitted_tiles' median 0.06934399903 ms (overlapped_stores' kernel there; the shapes run at 089cd4a): 2 x 8192 x
     * 3072 x 1024 flop in it, 743,245 GFLOP/s; cuBLAS's 0.07268800214 over it, 104.8 % */
    if (!strstr(data_file("summary-8192x3072x1024.tsv"), "\tfitted_tiles\tbf16\t0.06934\t743245\t104.8\t"))
        fail_msg("fitted_tiles' row at 8192 x 3072 x 1024:\n%s", data_file("summary-8192x3072x1024.tsv"));
}

/* ---- the summary tables (pp. 2-4) and the ladder (p. 6) ---- */

/* The reference run's summary.csv at W = 1024 (run S, the reference run at c248597, on an H200): medians to four
 * significant figures (tiled_corner_turning 0.2523199916 ms, blocktiled_2d 0.1641760021, cublas 0.06240000017),
 * GFLOP/s as a share of cuBLAS's 34,414.80 (tiled_corner_turning 8,510.95: 24.7 %; blocktiled_2d 13,080.37: 38.0 %),
 * occupancy to one decimal (blocktiled_2d 12.5 % theoretical, 12.47 achieved; cublas has no theoretical figure, a
 * library call), and a DRAM figure (cublas 137.17 GB/s) marked where the three matrices (min_bytes 12,582,912) fit
 * in the L2 (environment.csv: 62,914,560 bytes); at 4096 (201,326,592 bytes) they do not (naive 367.45 GB/s,
 * 6,060.17 GFLOP/s: 11.8 % of cuBLAS's 51,389.96). The ladder at 4096 has blocktiled_2d's 27,955.93 GFLOP/s as
 * 54.4 % of cuBLAS (54.400) and 43.4 % of the run's FP32 ceiling (environment.csv: 64,407.6; summary.csv's
 * fp32_roof_pct 43.40), 1.64x blocktiled_1d (8.063 / 4.916 ms); its FFMA per global load sector and per shared
 * wavefront (metrics.csv: 68,719,476,736 FFMA over 134,217,728 sectors and 671,088,640 + 33,554,432 wavefronts) 512
 * and 98. */
static void summary_cells_keep_their_figures(void **state)
{
    (void)state;
    write_data(REFERENCE);
    const char *t = data_file("summary-1024.tsv");
    expect_row(t, "tiled_corner_turning\tfp32\t0.2523\t8511\t24.7\t100.0\t0\t34 †\t31\t100.0 / 93.8\tpassed");
    expect_row(t, "blocktiled_2d\tfp32\t0.1642\t13080\t38.0\t100.0\t4,194,304\t52 †\t178\t12.5 / 12.5\tpassed");
    expect_row(t, "cublas\tfp32\t0.06240\t34415\t100.0\tno LDG\t1,572,864\t137 †\t-\t- / 6.2\tpassed");
    t = data_file("summary-4096.tsv");
    expect_row(t, "naive\tfp32\t22.68\t6060\t11.8\t82.5\t0\t367\t32\t100.0 / 99.6\tpassed");
    t = data_file("ladder.tsv");
    assert_non_null(strstr(t, "\tblocktiled_2d\t27956\t54.4\t43.4\t1.64x\t512\t98\t268,435,456\t178\t12.5 / 12.5\t"));
}

/* Each page that shows "no LDG", a DRAM figure marked † or a register count "-" says why in a footnote, from the
 * run (run S, the reference run at c248597: summary.csv's min_bytes against environment.csv's l2_cache_bytes,
 * 62,914,560): at 1024 every precision fits in the L2 (FP32 and TF32 12,582,912 bytes, FP64 25,165,824, BF16 and
 * FP16 6,291,456), at 2048 all but FP64 (100,663,296; FP32 and TF32 50,331,648, BF16 and FP16 25,165,824), at
 * 4096 none (BF16 100,663,296 the smallest); cp.async kernels read "no LDG" at every width, cuBLAS has no register
 * count. */
static void footnotes_explain_the_marks_of_each_width(void **state)
{
    (void)state;
    write_data(REFERENCE);
    const char *t = data_file("variables.gp");
    expect_line(t, "no_ldg_note_4096 = 'no LDG: the kernel loads global memory only through cp.async (LDGSTS) or TMA, "
                   "which the LDG counters behind load efficiency and sectors per request leave out.'");
    expect_line(
        t, "l2_fit_note_1024 = '†: M, N and P (fp32 12.6 MB, fp64 25.2 MB, bf16 6.3 MB, fp16 6.3 MB, tf32 "
           "12.6 MB) fit in the 62.9 MB L2 (l2_cache_bytes): the kernel'.\"'\".'s reuse is served there, and its DRAM "
           "GB/s says little of its accesses.'");
    expect_line(
        t, "l2_fit_note_2048 = '†: M, N and P (fp32 50.3 MB, bf16 25.2 MB, fp16 25.2 MB, tf32 50.3 MB) fit in "
           "the 62.9 MB L2 (l2_cache_bytes): the kernel'.\"'\".'s reuse is served there, and its DRAM GB/s says little "
           "of its accesses.'");
    expect_line(t, "l2_fit_note_4096 = ''");
    expect_line(
        t, "library_note_4096 = '-: a library call (cuBLAS): memscope does not read its kernels'.\"'\".' registers, so "
           "it has no theoretical occupancy either.'");
}

/* The ideas page says, under each step's idea, what the run measured against the step before: halfwarp_lanes'
 * idea reads "fewer shared wavefronts", but the reference run's metrics.csv at W = 4096 (run S, the reference run at
 * c248597) has 268,435,456 shared load wavefronts for large_tiles and 335,544,320 for it (+25 %; no shared stores in
 * either), its median 2.964 against 2.981 ms (summary.csv: 2.964031935, 2.980751991: 1.01x); pipelined, against
 * warptiled, loads through cp.async (global load sectors 134,217,728 to none), has 402,653,184 shared wavefronts
 * against warptiled's 402,653,184 loads and 33,554,432 stores (-8 %), 50,331,648 exact conflicts (summary.csv) where
 * warptiled has none, and moves 589,652,480 DRAM bytes (dram__bytes_read.sum and _write.sum) against 394,311,168
 * (+50 %), its median 3.167 against 3.682 ms (3.167135954, 3.681679964: 1.16x). The first step has nothing to be
 * measured against. */
static void each_idea_is_followed_by_what_the_run_measured(void **state)
{
    (void)state;
    write_data(REFERENCE);
    const char *t = data_file("ladder-ideas.tsv");
    expect_line(t, "0\t\t\tmeasured against large_tiles: 1.01x faster (2.981 → 2.964 ms); shared wavefronts +25 %");
    /* a measurement longer than a line goes on in the row below */
    expect_line(t, "0\t\t\tmeasured against warptiled: 1.16x faster (3.682 → 3.167 ms); global load sectors 134,217,728 "
                   "→ 0, shared wavefronts -8 %, exact\n0\t\t\tconflicts 0 → 50,331,648, DRAM bytes +50 %");
    assert_null(strstr(t, "measured against naive_uncoalesced"));
    assert_non_null(strstr(data_file("variables.gp"), "\nladder_idea_rows = "));
}

/* ---- the diagnosis (p. 5) ---- */

/* The issue-bound kernels read apart by their own figures and their warps' top stall reason; no closing sentence
 * is shared by all of them. Their first finding, issue_bound, gains at most what the FMA pipe leaves (metrics.csv at
 * W = 4096): 100 - 68.45 = 31.55, 100 - 74.57 = 25.43, 100 - 79.77 = 20.23 %. */
static void issue_bound_kernels_read_apart(void **state)
{
    (void)state;
    write_data(FIXTURE);
    const char *t = data_file("diagnosis.tsv");
    expect_row(t, "pipelined\tinstruction issue\tissue_bound (est. 32 %, global)\tissue slots 76 % used, FMA pipe 68 %, "
                   "L1/shared 61 %; top stall reason not_selected (44 % of samples)");
    expect_row(t, "icache_fit\tinstruction issue\tissue_bound (est. 25 %, global)\tissue slots 79 % used, FMA pipe 75 %, "
                   "L1/shared 52 %; top stall reason selected (40 % of samples)");
    expect_row(t, "cublas\tinstruction issue\tissue_bound (est. 20 %, global)\tissue slots 90 % used, FMA pipe 80 %, "
                   "L1/shared 62 %; top stall reason selected (45 % of samples)");
    assert_null(strstr(t, "every FFMA"));
}

/* The rules applied to the run's figures give the limiters the run wrote: the conflict share from lines.csv
 * (2,080,374,784 of 6,509,559,808 shared wavefronts), the coalescing from metrics.csv. */
static void every_row_is_the_rules_on_the_runs_figures(void **state)
{
    (void)state;
    write_data(FIXTURE);
    const char *t = data_file("diagnosis.tsv");
    /* the stores' conflicts: 2,080,374,784 of 6,509,559,808 wavefronts x L1/shared's 96.94 % = 30.98 % */
    expect_row(t, "tiled_transposed\tbank conflicts\tshared_store_conflicts (est. 31 %, global)\t32 % of shared "
                   "wavefronts are bank conflicts; L1/shared at 97 % of peak, FMA pipe 8 %; top stall reason "
                   "mio_throttle (53 % of samples)");
    /* L1/shared at 90.28 %, the issue slots at 39.37 %: at most 60.63 % */
    expect_row(t, "tiled_transposed_padded\tL1/shared bandwidth\tl1_bound (est. 61 %, global)\tL1/shared at 90 % of peak; "
                   "FMA pipe 11 %, DRAM 13 %; top stall reason mio_throttle (46 % of samples)");
    /* 99.01 % x 7/8 of 70,866,960,384 load sectors over all 70,883,737,600 sectors = 86.61 % */
    expect_row(t, "naive_uncoalesced\tuncoalesced global loads\tuncoalesced_global_loads (est. 87 %, global)\tglobal loads "
                   "use 12.5 % of the bytes their sectors carry (16.5 sectors per request); L1/shared at 99 % of peak; "
                   "top stall reason lg_throttle (94 % of samples)");
}

/* The evidence quotes the pipe a kernel's arithmetic runs on: the FP64 kernels of the reference run (run S, the
 * reference run at c248597) executed FP64 operations only (metrics.csv: flop_fp64 137,438,953,472, flop_fp32 0), and
 * that run measured the FP64 pipe apart from the tensor pipe (issue 39): at W = 4096 tiled_32_fp64's FP64 pipe was
 * busy 14.63 % of its cycles, its FMA pipe 1.85 %, its L1/shared 95.71 % of its peak, DRAM 12.51 % (summary.csv);
 * naive_fp64's L1/shared 92.14 %, FP64 pipe 11.51 % (its FMA pipe 12.24 %, busier, is not its arithmetic's), DRAM
 * 4.97 %; tiled_32's L1/shared 87.12 %, FMA pipe 14.14 %, DRAM 11.31 %. Their top stall reasons, summed from
 * stalls.csv: mio_throttle 53.36 % (14,942 of 28,004 samples), long_scoreboard 85.73 % (30,500 of 35,578),
 * mio_throttle 40.38 % (12,420 of 30,759); their first findings by today's rules: l1_bound, at most what the issue
 * slots, the next unit, leave (24.08, 26.33 and 40.42 %): 75.92, 73.67 and 59.58 % (as the run recorded them,
 * summary.csv's first_finding_gain_pct).
 * naive_uncoalesced's L1 is the L1/shared unit, as everywhere (99.01 %). */
static void the_evidence_quotes_the_kernel_s_own_arithmetic_pipe(void **state)
{
    (void)state;
    write_data(REFERENCE);
    const char *t = data_file("diagnosis.tsv");
    expect_row(t, "tiled_32_fp64\tL1/shared bandwidth\tl1_bound (est. 76 %, global)\tL1/shared at 96 % of peak; FP64 pipe "
                   "15 %, DRAM 13 %; top stall reason mio_throttle (53 % of samples)");
    expect_row(t, "naive_fp64\tL1/shared bandwidth\tl1_bound (est. 74 %, global)\tL1/shared at 92 % of peak; FP64 pipe 12 "
                   "%, DRAM 5 %; top stall reason long_scoreboard (86 % of samples)");
    expect_row(t, "tiled_32\tL1/shared bandwidth\tl1_bound (est. 60 %, global)\tL1/shared at 87 % of peak; FMA pipe 14 %, "
                   "DRAM 11 %; top stall reason mio_throttle (40 % of samples)");
    assert_non_null(strstr(t, "(16.5 sectors per request); L1/shared at 99 % of peak"));
}

/* Each variant's first finding and its estimated gain stand beside its limiter, by today's rules on the stored
 * counters, whatever findings.csv recorded (here a planted 51.6 %: the rules give 31 %, as above); the rules the
 * run's counters cannot judge (the fixture predates the causes group and the launch's columns) are named. */
static void the_first_finding_and_its_estimated_gain_are_shown(void **state)
{
    (void)state;
    copy_fixture_and("printf 'variant,precision,width,kernel,rank,cause,scope,estimated_gain_pct,evidence,line\\n"
                     "tiled_transposed,fp32,4096,k,2,l1_bound,global,45.5,limiter,\\n"
                     "tiled_transposed,fp32,4096,k,1,shared_store_conflicts,global,51.6,stores,k.cu:32\\n"
                     "tiled_transposed,fp32,1024,k,1,l1_bound,global,90,limiter,\\n' >$R/findings.csv");
    write_data(scratch);
    const char *t = data_file("diagnosis.tsv");
    expect_row(t, "tiled_transposed\tbank conflicts\tshared_store_conflicts (est. 31 %, global)\t32 % of shared "
                   "wavefronts are bank conflicts; L1/shared at 97 % of peak, FMA pipe 8 %; top stall reason "
                   "mio_throttle (53 % of samples)");
    /* L1/shared at 73.45 %, the issue slots at 41.97 %: at most 58.03 % */
    expect_row(t, "naive\tL1/shared bandwidth\tl1_bound (est. 58 %, global)\tL1/shared at 73 % of peak; FMA pipe 29 %, "
                   "DRAM 11 %; top stall reason long_scoreboard (34 % of samples)");
    assert_non_null(strstr(t, "\tfirst finding (estimated gain)\t"));
    assert_non_null(strstr(data_file("variables.gp"), "\ndiagnosis_unjudged = \"local_memory_spills, branch_divergence, "
                                                      "predicated_off_lanes, type_conversions, atomic_contention, "));
}

/* ---- the bank conflicts (p. 10) ---- */

/* The caption's two sentences on the hardware counter come from the run: at W = 4096 it read 18,311,027 for
 * tiled_32, 18,302,564 for tiled_transposed_padded and 1,992,982 for warptiled, which have no conflict (naive and
 * naive_uncoalesced read 0), and 13,108, 0, 5 and 0 for pipelined, halfwarp_lanes, icache_fit and cublas against
 * 50,331,648, 25,165,824, 25,165,824 and 50,331,648 exact: the conflicts of their cp.async copies. */
static void the_counter_sentences_are_the_runs_figures(void **state)
{
    (void)state;
    write_data(FIXTURE);
    const char *t = data_file("conflicts_notes.gp");
    expect_line(t, "conflicts_overcount_note = 'Where the exact count is 0 it read more than 0 for 3 of 5 kernels, up "
                   "to 18,311,027 (tiled_32).'");
    expect_line(t, "conflicts_missed_note = 'It read under half the exact count for pipelined, halfwarp_lanes, "
                   "icache_fit, cublas.'");
}

/* A run from before the source group holds an estimate, not the exact count: the page claims nothing from it. */
static void an_estimate_gives_no_counter_sentences(void **state)
{
    (void)state;
    copy_fixture_and("sed -i '/^source_group,/d' $R/environment.csv");
    write_data(scratch);
    const char *t = data_file("conflicts_notes.gp");
    expect_line(t, "conflicts_overcount_note = ''");
    expect_line(t, "conflicts_missed_note = ''");
}

/* ---- the ground truth (pp. 19-22) ---- */

/* Each check shows its unit (the unit validate/metrics.csv records for the metric, a ceiling's own: the reference
 * run, whose validate.csv the fixture holds too, but not its metrics.csv), its rule (validate.csv's bounds) and how
 * far the measured value lies from the expected one. The reference run's validate.csv (run S, the reference run at
 * c248597): the naive transpose's DRAM reads, 1,122,355,456 bytes of a 1,073,741,824-byte matrix (+4.53 %), pass
 * under a lower bound alone (1,052,266,988: 0.98 x); the shared transpose's writes, 1,052,904,448 (-1.94 %), within
 * 0.941 to 1.02 x (1,010,827,264 and 1,095,216,660); the DRAM ceiling 3,978.7 GB/s against the datasheet's 4,814.304
 * (-17.36 %), the L2's 7,273.9 between the measured DRAM and L1/shared ceilings (3,978.7 and 32,271.4). All 173 of
 * its checks pass, the corpus cases too: coalesced_copy, planted as dram_bound, read dram_bound first (estimated gain
 * 14.93 %, no sibling: no measured gain), where the H200 run at 7dd9a9b read latency_bound and failed. cuBLAS's bf16
 * GEMM at 1000x3000x520, which failed in the H200 run at 5ad9730 (3,623,878,656 tensor operations counted where
 * 3,538,944,000 were expected), passes here: 3,623,878,656 expected and counted, within 3,623,878,652 to
 * 3,623,878,660 (exact). misaligned_loads, the H100 run's one failure, passes here too: its first finding read
 * misaligned_global_access as planted (estimated gain 8.73 %, its aligned sibling measured 16.50 % faster). */
static void each_check_shows_its_rule_and_distance(void **state)
{
    (void)state;
    static struct outcome o;
    write_data(REFERENCE);
    const char *t = data_file("validate-*.tsv");
    expect_line(t, "kernel\tparameter\tmetric\tunit\texpected\trule\tmeasured\tvs expected\tcheck");
    expect_line(t, "transpose_naive\twidth=16384\tdram__bytes_read.sum\tbyte\t1073741824\t≥ 0.98 × expected\t1122355456"
                   "\t+4.5 %\tpass");
    expect_line(t, "transpose_shared\twidth=16384\tdram__bytes_write.sum\tbyte\t1073741824\t0.941 to 1.02 × expected"
                   "\t1052904448\t-1.9 %\tpass");
    expect_line(t, "strided_copy\tstride=2 offset=0\tglobal_load_efficiency\t%\t50\texact\t50\t0 %\tpass");
    expect_line(t, "ceilings\twithin 25 % of the datasheet\tceiling_dram_gbs\tGB/s\t4814.304\t0.75 to 1.25 × expected"
                   "\t3978.7\t-17.4 %\tpass");
    expect_line(t, "ceilings\tno datasheet: DRAM<L2<L1/shared\tceiling_l2_gbs\tGB/s\t-\t3978.7 to 32271.4\t7273.9\t-\t"
                   "pass");
    /* a metric check the H200 run at 5ad9730 failed, passed here: as it reads now */
    expect_line(t, "cublas_gemm_bf16\t1000x3000x520\tsm__ops_path_tensor_src_bf16_dst_fp32.sum\tmath_op\t3623878656\t"
                   "exact\t3623878656\t0 %\tpass");
    /* a corpus case without a sibling, passed: its gain estimated, none measured */
    expect_line(t, "coalesced_copy\t\tfirst_finding\t-\tdram_bound\tfirst finding\tdram_bound\test. 15 % gain\tpass");
    /* the corpus case with a sibling, passed: its gain estimated and measured */
    expect_line(t, "misaligned_loads\tsibling=aligned_loads\tfirst_finding\t-\tmisaligned_global_access\tfirst finding"
                   "\tmisaligned_global_access\test. 9 %, measured 17 %\tpass");
    /* the exact count comes from the source group, not metrics.csv: no unit recorded, none shown */
    expect_line(t, "shared_stride_32bit\tstride=2\tshared_conflicts_exact\t\t135168\texact\t135168\t0 %\tpass");
    /* the page's title counts the passes (data_file's text is replaced by the next call: t is read by now), and page
     * 1 says every check passed (summary.csv: 138 rows, every one passed; validate.csv: 173 rows, every one passed) */
    assert_non_null(strstr(data_file("validate.gp"), "\nvalidate_result = \"173 of 173 checks passed\"\n"));
    const char *title = data_file("title.tsv");
    expect_line(title, "checks\tall 138 products matched the reference");
    expect_line(title, "ground truth\tall 173 checks passed");
    /* a check that failed, as it failed: the three corpus cases the H200 run at 7dd9a9b failed (validate.csv's rows
     * 139 to 141, in its order), planted in a copy as reading latency_bound, as they read there; the title counts
     * them, and page 1 names the kernels of the first three, each once */
    shell(&o, "rm -rf %1$s && cp -r %2$s %1$s && awk -F, -v OFS=, '$3 == \"first_finding\" && ($1 == "
              "\"coalesced_copy\" || $1 == \"aligned_loads\" || $1 == \"copy_loop\") {$8 = \"fail\"; "
              "$10 = \"latency_bound\"} 1' %1$s/validate/validate.csv >%1$s/cut && "
              "mv %1$s/cut %1$s/validate/validate.csv",
          scratch, REFERENCE);
    assert_int_equal(o.exit_code, 0);
    write_data(scratch);
    t = data_file("validate-*.tsv");
    expect_line(t, "coalesced_copy\t\tfirst_finding\t-\tdram_bound\tfirst finding\tlatency_bound\test. 15 % gain"
                   "\tfail");
    assert_non_null(strstr(data_file("validate.gp"), "\nvalidate_result = \"170 of 173 checks passed\"\n"));
    title = data_file("title.tsv");
    expect_line(title, "ground truth\t3 of 173 checks failed (coalesced_copy, aligned_loads, copy_loop)");
}

/* A case of the diagnosis corpus reads as its cause planted against the first finding's, with the gain its finding
 * estimated and the one its fixed sibling measured; the metric checks of a validate.csv with the corpus's columns
 * read as before. */
static void a_corpus_case_shows_its_causes_and_gains(void **state)
{
    (void)state;
    copy_fixture_and("sed -i '1s/$/,expected_cause,found_cause,estimated_gain_pct,measured_gain_pct/; 2,$s/$/,,,,/' "
                     "$R/validate/validate.csv && printf 'uncoalesced_stores,sibling=coalesced_copy,first_finding,,,,,"
                     "pass,uncoalesced_global_stores,uncoalesced_global_stores,58.3,71.9\\ntiny_kernel,,first_finding,"
                     ",,,,fail,launch_overhead,latency_bound,40,\\n' >>$R/validate/validate.csv");
    write_data(scratch);
    const char *t = data_file("validate-*.tsv");
    expect_line(t, "uncoalesced_stores\tsibling=coalesced_copy\tfirst_finding\t-\tuncoalesced_global_stores\tfirst "
                   "finding\tuncoalesced_global_stores\test. 58 %, measured 72 %\tpass");
    expect_line(t, "tiny_kernel\t\tfirst_finding\t-\tlaunch_overhead\tfirst finding\tlatency_bound\test. 40 % gain"
                   "\tfail");
    expect_line(t, "strided_copy\tstride=2 offset=0\tglobal_load_efficiency\t\t50\texact\t50\t0 %\tpass");
}

/* The ceilings judged there are --validate's own measurement, not the roofline's roofs: the page says so, with the
 * largest difference (environment.csv: L2 5642.4 GB/s; validate.csv: 5526.8), or that the roofline draws the
 * datasheet's figures when its run measured none. */
static void the_ceilings_note_says_why_they_differ_from_the_roofline(void **state)
{
    (void)state;
    write_data(FIXTURE);
    assert_non_null(strstr(data_file("validate.gp"),
                           "validate_ceilings_note = 'The roofline draws the ceilings its own run measured; "
                           "--validate measured these again: they differ by 2.0 % at most (L2, 5642.4 against "
                           "5526.8 GB/s).'"));
    copy_fixture_and("sed -i '/^ceiling_/d' $R/environment.csv");
    write_data(scratch);
    assert_non_null(strstr(data_file("validate.gp"),
                           "validate_ceilings_note = 'The roofline draws the datasheet'.\"'\".'s "
                           "figures instead: the run it draws measured no ceilings.'"));
}

/* ---- the hot-lines pages ---- */

/* Every page but the summaries shows the run's largest width (W = 4096 here): lines.csv rows at 1024 alone give no
 * hot-lines page, rather than one at W = 1024 under a report that says 4096 everywhere else. */
static void the_hot_lines_show_the_run_s_largest_width_or_none(void **state)
{
    (void)state;
    write_data(FIXTURE);
    expect_line(data_file("pages.tsv"), "hot-lines-1\thot_lines.gp\thot_lines_page=1");
    copy_fixture_and("awk -F, -v OFS=, 'NR > 1 {$3 = 1024} 1' $R/lines.csv >$R/cut && mv $R/cut $R/lines.csv");
    write_data(scratch);
    if (strstr(data_file("pages.tsv"), "hot-lines"))
        fail_msg("a hot-lines page at another width than the report's:\n%s", data_file("hot-lines-1.tsv"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_title_page_says_what_the_run_found),
        cmocka_unit_test(the_title_page_names_failed_checks),
        cmocka_unit_test(a_run_of_no_square_draws_its_title_summaries_and_shapes_alone),
        cmocka_unit_test(summary_cells_keep_their_figures),
        cmocka_unit_test(footnotes_explain_the_marks_of_each_width),
        cmocka_unit_test(each_idea_is_followed_by_what_the_run_measured),
        cmocka_unit_test(issue_bound_kernels_read_apart),
        cmocka_unit_test(the_first_finding_and_its_estimated_gain_are_shown),
        cmocka_unit_test(a_corpus_case_shows_its_causes_and_gains),
        cmocka_unit_test(every_row_is_the_rules_on_the_runs_figures),
        cmocka_unit_test(the_evidence_quotes_the_kernel_s_own_arithmetic_pipe),
        cmocka_unit_test(the_counter_sentences_are_the_runs_figures),
        cmocka_unit_test(an_estimate_gives_no_counter_sentences),
        cmocka_unit_test(each_check_shows_its_rule_and_distance),
        cmocka_unit_test(the_ceilings_note_says_why_they_differ_from_the_roofline),
        cmocka_unit_test(the_hot_lines_show_the_run_s_largest_width_or_none),
    };
    return cmocka_run_group_tests_name("page content", tests, setup, teardown);
}
