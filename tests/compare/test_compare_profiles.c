/*
 * memscope-compare on two program profiles (memscope-profile), kernel by kernel (issue 48): every launch of a kernel,
 * over every process and run, is a sample of it. The fixture's cutlass GEMM runs twice a step (launches #0 and #1 at
 * step 1/matmul); in the "after" profile its #1 launch is 20 % slower: as one kernel of 12 launches, half of them
 * slower, it is UNSURE (its spread wider than the floor), and with --group-by launch, two profiles a side, the #1
 * launch alone is SLOWER (exit 1). A copy where every launch of the GEMM is 20 % slower is SLOWER by kernel over two
 * profiles a side, its launches paired one by one with the base's (verdict.h), and UNSURE over one, where Holm's
 * correction over the 5 kernels asks more than 12 launches can give; launches of other jobs are not paired; a
 * profile against itself has no SLOWER or FASTER. The softmax's changed global sector count is listed under its
 * kernel, and gated where each side has two profiles. A profile against a run of the suite is refused (exit 2);
 * profiles of different commands compare, with a note on stderr, and so do profiles on other GPUs. Two profiles
 * with the source group's lines compare line by line: a job's line whose wasted sectors grew is a regression (exit
 * 1), named by its file and line.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "../support/remove_tree.h"
#include "../support/run_shell.h"

#define BEFORE "tests/fixtures/profile-small"
#define AFTER "tests/fixtures/profile-small-after"
#define GEMM "Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>"

static char workdir[] = "/tmp/memscope-compare-profiles-XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(workdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

static void compare(struct outcome *o, const char *options, const char *base, const char *head)
{
    const char *tool = getenv("MEMSCOPE_COMPARE");
    shell(o, "%s %s %s %s", tool ? tool : "build/memscope-compare", options, base, head);
}

/* The line of the printed table that starts with the name. */
static const char *line_of(const char *output, const char *name)
{
    for (const char *at = strstr(output, name); at; at = strstr(at + 1, name))
        if (at == output || at[-1] == '\n')
            return at;
    return NULL;
}

static void expect_on_line(const char *line, const char *piece)
{
    assert_non_null(line);
    const char *found = strstr(line, piece), *end = strchr(line, '\n');
    if (!found || (end && found > end))
        fail_msg("expected \"%s\" on the line: %.*s", piece, end ? (int)(end - line) : 200, line);
}

/* The line of the metric changes that starts with the kernel's name. */
static const char *change_line(const char *output, const char *kernel)
{
    const char *changes = strstr(output, "metric changes");
    assert_non_null(changes);
    return line_of(changes, kernel);
}

/* A folder of two copies of the profile, name/1 and name/2 in the scratch folder: a side of two profiles (rounds). */
static const char *two_profiles(const char *name, const char *profile)
{
    static char paths[2][256];
    static int next;
    static struct outcome o;
    char *path = paths[next++ % 2];
    snprintf(path, sizeof paths[0], "%s/%s", workdir, name);
    shell(&o, "rm -rf %s && mkdir -p %s && cp -r %s %s/1 && cp -r %s %s/2", path, path, profile, path, profile, path);
    assert_int_equal(o.exit_code, 0);
    return path;
}

/* A copy of BEFORE whose every launch of the GEMM took 1.2 times as long: its samples.csv's rows of the kernel. */
static const char *gemm_slower(void)
{
    static char path[256];
    static struct outcome o;
    snprintf(path, sizeof path, "%s/slower", workdir);
    shell(&o, "rm -rf %s && cp -r %s %s && awk -F, -v OFS=, '/cutlass/ { $NF = $NF * 1.2 } { print }' "
              "%s/samples.csv > %s/x && mv %s/x %s/samples.csv", path, BEFORE, path, BEFORE, path, path, path);
    assert_int_equal(o.exit_code, 0);
    return path;
}

/* A copy of the profile `from`, named `name` in the scratch folder, whose CSV files a Python program edits:
 * rewrite(file, change) makes each row of the copy's file the rows change(header, row) gives; with_cell(header, row,
 * column, value) is the row with one cell changed. */
static const char *edited_copy(const char *name, const char *from, const char *program)
{
    static char path[256];
    static struct outcome o;
    snprintf(path, sizeof path, "%s/%s", workdir, name);
    shell(&o, "rm -rf %s && cp -r %s %s && python3 -c 'import csv, sys\n"
              "def rewrite(file, change):\n"
              "    rows = list(csv.reader(open(sys.argv[1] + \"/\" + file)))\n"
              "    rows = rows[:1] + [r for row in rows[1:] for r in change(rows[0], row)]\n"
              "    out = open(sys.argv[1] + \"/\" + file, \"w\", newline=\"\")\n"
              "    csv.writer(out, lineterminator=\"\\n\").writerows(rows)\n"
              "def with_cell(header, row, column, value):\n"
              "    return [row[:header.index(column)] + [value] + row[header.index(column) + 1:]]\n"
              "%s' %s",
          path, from, path, program, path);
    assert_int_equal(o.exit_code, 0);
    return path;
}

static void a_kernel_made_slower_in_every_launch_is_slower_and_exits_one(void **state)
{
    (void)state;
    static struct outcome o;
    compare(&o, "", two_profiles("base-twice", BEFORE), two_profiles("slower-twice", gemm_slower()));
    assert_int_equal(o.exit_code, 1);
    expect_on_line(line_of(o.output, GEMM " "), "SLOWER");
    expect_on_line(line_of(o.output, GEMM " "), "+20.00%");
    assert_non_null(strstr(o.output, "1 SLOWER"));
    assert_int_equal(strncmp(o.output, "kernel ", strlen("kernel ")), 0); /* the table's first column's heading */
    expect_on_line(line_of(o.output, GEMM " "), "24 launches paired"); /* #0 and #1 alike, twice a side */
    /* a program's kernels have no width: no column of zeros; the first figure after the GEMM's name is its base
     * median */
    char heading[256], row[512];
    double first;
    const char *gemm = line_of(o.output, GEMM " ");
    snprintf(heading, sizeof heading, "%.*s", (int)strcspn(o.output, "\n"), o.output);
    snprintf(row, sizeof row, "%.*s", (int)strcspn(gemm, "\n"), gemm);
    if (strstr(heading, "width") || sscanf(row + strlen(GEMM), "%lf", &first) != 1 || first == 0)
        fail_msg("a program's table has a width column:\n%s", o.output);
}

/* One profile a side: the 12 launches' signed-rank test reads p = 0.0025 (the ratios all 1.2 but for awk's rounding,
 * no two equal: the normal approximation, z = 38.5 / sqrt(162.5)), and Holm's correction over the 5 kernels tested
 * makes it 0.0125, not below alpha: UNSURE, exit 0, the reason giving both. A run's own shift of a kernel moves all
 * its launches at once, which one profile a side cannot tell from a change. */
static void one_profile_a_side_weighs_the_kernels_together(void **state)
{
    (void)state;
    static struct outcome o;
    compare(&o, "", BEFORE, gemm_slower());
    assert_int_equal(o.exit_code, 0);
    const char *gemm = line_of(o.output, GEMM " ");
    expect_on_line(gemm, "UNSURE");
    expect_on_line(gemm, "signed-rank test p = 0.0025 (0.013 by Holm over 5 units), not below alpha 0.01");
    expect_on_line(gemm, "12 launches paired");
    assert_non_null(strstr(o.output, "Holm's correction over the 5 units tested"));
}

static void a_profile_against_itself_has_no_slower_or_faster(void **state)
{
    (void)state;
    static struct outcome o;
    compare(&o, "", BEFORE, BEFORE);
    assert_int_equal(o.exit_code, 0);
    assert_non_null(strstr(o.output, "5 SAME, 0 SLOWER, 0 FASTER, 0 UNSURE"));
}

/* Launches that are not alike on both sides do not pair: the copy's GEMM #1 runs in another NVTX range, so the
 * kernel's sides list other jobs, and its samples compare as two samples (their spread, unpaired). */
static void launches_unlike_compare_unpaired(void **state)
{
    (void)state;
    static struct outcome o;
    char path[256];
    snprintf(path, sizeof path, "%s/moved", workdir);
    shell(&o, "rm -rf %s && cp -r %s %s && sed -i 's|step 1/matmul/void cutlass::Kernel2<\\(.*\\) #1|step 1/moved/void "
              "cutlass::Kernel2<\\1 #1|' %s/summary.csv %s/samples.csv %s/metrics.csv",
          path, BEFORE, path, path, path, path);
    assert_int_equal(o.exit_code, 0);
    compare(&o, "", BEFORE, path);
    const char *gemm = line_of(o.output, GEMM " ");
    assert_non_null(gemm);
    if (strstr(gemm, "paired") && strstr(gemm, "paired") < gemm + strcspn(gemm, "\n"))
        fail_msg("launches of other jobs were paired:\n%s", o.output);
}

/* Half the GEMM's launches 20 % slower: no verdict on the kernel, whose launches now spread 18 %; by launch, over two
 * profiles a side (12 runs: 6 a side is too few for the U test's p under Holm's correction over 6 launches), the #1
 * launch alone is SLOWER and the #0 launch SAME. */
static void one_launch_made_slower_is_found_by_launch(void **state)
{
    (void)state;
    static struct outcome o;
    compare(&o, "", BEFORE, AFTER);
    expect_on_line(line_of(o.output, GEMM " "), "UNSURE");
    compare(&o, "--group-by launch", two_profiles("base-twice", BEFORE), two_profiles("after-twice", AFTER));
    assert_int_equal(o.exit_code, 1);
    expect_on_line(line_of(o.output, GEMM " #1 (step 1/matmul)"), "SLOWER");
    expect_on_line(line_of(o.output, GEMM " #1 (step 1/matmul)"), "+20.00%");
    expect_on_line(line_of(o.output, GEMM " #0 (step 1/matmul)"), "SAME");
}

/* The softmax's global load sectors 0 -> 262144: one profile a side cannot show that the program's own count holds,
 * so it is listed as unconfirmed_inputs, exit 0 (the GEMM's half-slower launches are UNSURE); two profiles a side
 * that agree within each side make it a regression, exit 1. */
static void changed_count_of_a_profiled_kernel_is_reported(void **state)
{
    (void)state;
    static struct outcome o;
    const char *softmax;
    compare(&o, "", BEFORE, AFTER);
    assert_int_equal(o.exit_code, 0);
    softmax = change_line(o.output, "cunn_SoftMaxForward<4, float, float, float, SoftMaxForwardEpilogue> ");
    expect_on_line(softmax, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum");
    expect_on_line(softmax, "unconfirmed_inputs (a program's count, over 1 + 1 collections");
    compare(&o, "", two_profiles("base-twice", BEFORE), two_profiles("after-twice", AFTER));
    assert_int_equal(o.exit_code, 1);
    softmax = change_line(o.output, "cunn_SoftMaxForward<4, float, float, float, SoftMaxForwardEpilogue> ");
    expect_on_line(softmax, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum");
    expect_on_line(softmax, "regression");
}

/* The softmax's changed sector count again, but the head profiled it at another block (threads_per_block 1024 -> 512
 * in its summary.csv: an autotuner's candidate on one side, the configuration it chose on the other): the launches
 * differ, so the counts are not compared; the launch property is listed, nothing gated, exit 0. */
static void counts_of_launches_that_differ_are_not_compared(void **state)
{
    (void)state;
    static struct outcome o;
    const char *path = edited_copy("other-block", AFTER,
                                   "rewrite(\"summary.csv\", lambda header, row: with_cell(header, row, "
                                   "\"threads_per_block\", str(int(row[header.index(\"threads_per_block\")]) // 2)) "
                                   "if \"SoftMaxForward\" in row[0] else [row])");
    compare(&o, "", BEFORE, path);
    assert_int_equal(o.exit_code, 0);
    const char *softmax = change_line(o.output, "cunn_SoftMaxForward<4, float, float, float, SoftMaxForwardEpilogue> ");
    expect_on_line(softmax, "threads_per_block");
    expect_on_line(softmax, "1024 -> 512");
    expect_on_line(softmax, "launch_differs (the profiled launches differ: their counts not compared, not gated)");
    if (strstr(o.output, "global_op_ld.sum"))
        fail_msg("the counts of launches that differ were compared:\n%s", o.output);
    assert_non_null(strstr(o.output, "0 metric regressions"));
    assert_non_null(strstr(o.output, "counts: 1 kernel profiled at launches that differ between the sides"));
}

/* A kernel launched three times as often in the head (the fixture ran the program six times: 6 launches of it, one a
 * run, against 18), the added launches 1.5 times as long (an autotuner's benchmarks in a cold L2, where the head's
 * compile cache was cold): not the same work, no verdict, exit 0; the reason says how often each side launched it. */
static void a_kernel_launched_far_more_often_on_one_side_gets_no_verdict(void **state)
{
    (void)state;
    static struct outcome o;
    const char *path = edited_copy("benchmarked", BEFORE,
                                   "fill = lambda row: \"FillFunctor\" in row[0]\n"
                                   "rewrite(\"samples.csv\", lambda header, row: [row] + ([[*row[:3], "
                                   "str(int(row[3]) + 6 * k), str(float(row[4]) * 1.5)] for k in (1, 2)] if fill(row) "
                                   "else []))\n"
                                   "rewrite(\"summary.csv\", lambda header, row: with_cell(header, row, \"samples\", "
                                   "\"18\") if fill(row) else [row])");
    compare(&o, "", BEFORE, path);
    assert_int_equal(o.exit_code, 0);
    const char *fill = line_of(o.output, "vectorized_elementwise_kernel<4, FillFunctor<float>, array<char*, 1ul> > ");
    expect_on_line(fill, "UNSURE");
    expect_on_line(fill, "1 launches a run in base, 3 in head: not the same work");
    assert_non_null(strstr(o.output, "0 SLOWER"));
    assert_non_null(strstr(o.output, "Holm's correction over the 4 units tested")); /* not the refused kernel */
    /* compare.csv: its p as the test gave it, and no p_holm, which only the family's units have */
    char out[300];
    snprintf(out, sizeof out, "%s/benchmarked-verdict", workdir);
    shell(&o, "rm -rf %s && build/memscope-compare -o %s %s %s >/dev/null; python3 -c 'import csv, sys\n"
              "for row in csv.DictReader(open(sys.argv[1])):\n"
              "    if \"FillFunctor<float>\" in row[\"variant\"]:\n"
              "        print(bool(row[\"p_value\"]), repr(row[\"p_holm\"]))' "
              "%s/compare.csv", out, out, BEFORE, path, out);
    assert_string_equal(o.output, "True ''\n");
}

/* The same rule as a suite's: profiles of the program taken twice a side (folders of rounds), the GEMM's shared-load
 * wavefronts read 336150528 and 336150540 in the base's two and 336150532 and 336150528 in the head's. A count that
 * moved within a side is scheduling-dependent: listed with its ranges, not gated. */
static void a_count_that_moved_between_a_sides_profiles_is_not_gated(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "for r in base/1 base/2 head/1 head/2; do mkdir -p %s/$(dirname $r) && cp -r %s %s/$r; done && "
              "sed -i 's/,336150528,/,336150540,/' %s/base/2/metrics.csv && "
              "sed -i 's/,336150528,/,336150532,/' %s/head/1/metrics.csv",
          workdir, BEFORE, workdir, workdir, workdir);
    assert_int_equal(o.exit_code, 0);
    char base[300], head[300];
    snprintf(base, sizeof base, "%s/base", workdir);
    snprintf(head, sizeof head, "%s/head", workdir);
    compare(&o, "", base, head);
    assert_int_equal(o.exit_code, 0);
    const char *gemm = change_line(o.output, "Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1> ");
    expect_on_line(gemm, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
    expect_on_line(gemm, "scheduling (base 336150528-336150540, head 336150528-336150532 over 2 + 2 collections");
    assert_non_null(strstr(o.output, "0 metric regressions"));
}

/* A program's count that moved between two profiles of one collection each may be the program's (two profiles of
 * one training script, a minute apart, moved its fused Adam kernel's HMMA count by 33 %, docs/regressions.md): the
 * GEMM's shared-load wavefronts 336150528 -> 336352218 (+0.06 %), 342873539 (+2 %) and 447080202 (+33 %) are each
 * listed, not gated, exit 0. */
static void a_programs_count_over_one_profile_a_side_is_not_gated(void **state)
{
    (void)state;
    static struct outcome o;
    static const char *const moved[] = {"336352218", "342873539", "447080202"};
    for (int i = 0; i < 3; ++i) {
        char head[300];
        snprintf(head, sizeof head, "%s/moved", workdir);
        shell(&o, "rm -rf %s && cp -r %s %s && sed -i 's/,336150528,/,%s,/' %s/metrics.csv", head, BEFORE, head,
              moved[i], head);
        assert_int_equal(o.exit_code, 0);
        compare(&o, "", BEFORE, head);
        const char *gemm = change_line(o.output, GEMM " ");
        expect_on_line(gemm, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
        assert_int_equal(o.exit_code, 0);
        expect_on_line(gemm, "unconfirmed_inputs (a program's count, over 1 + 1 collections: its data need not be the "
                             "same twice; not gated)");
        assert_non_null(strstr(o.output, "0 metric regressions"));
        assert_non_null(strstr(o.output, "two profiles a side (a folder of profiles each) gate those that agree"));
    }
}

/* Profiles written before kernels were the unit (reports/profile-torch-h100, at 25a8748) compare by kernel too: its
 * five kernels against themselves, no SLOWER or FASTER, exit 0. Four of them are launched as 12 or 18 jobs alike on
 * both sides, paired launch by launch: every ratio 1, SAME; reduce_kernel is one job of 6 samples spread 2.4 %,
 * unpaired: its interval reaches past the floor, UNSURE. */
static void an_older_profile_compares_by_kernel(void **state)
{
    (void)state;
    static struct outcome o;
    compare(&o, "", "reports/profile-torch-h100", "reports/profile-torch-h100");
    assert_int_equal(o.exit_code, 0);
    assert_non_null(strstr(o.output, "4 SAME, 0 SLOWER, 0 FASTER, 1 UNSURE"));
    assert_non_null(strstr(o.output, "18 launches paired"));
}

/* compare.csv keeps each kernel's whole name, and in its label column the name the table shows, which the chart
 * draws under its bar (a whole C++ name ran into the chart's caption; no width is drawn beside it). */
static void compare_csv_names_kernels_whole_and_labels_them_as_the_table(void **state)
{
    (void)state;
    static struct outcome o;
    char out[256];
    snprintf(out, sizeof out, "%s/verdict", workdir);
    shell(&o, "rm -rf %s && build/memscope-compare -o %s %s %s >/dev/null; python3 -c 'import csv, sys\n"
              "for row in csv.DictReader(open(sys.argv[1])): print(row[\"variant\"] + \" | \" + row[\"label\"])' "
              "%s/compare.csv", out, out, BEFORE, gemm_slower(), out);
    assert_non_null(line_of(o.output, "void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>"
                                      "(cutlass_80_simt_sgemm_256x128_8x4_nn_align1::Params) | " GEMM "\n"));
    if (system("command -v gnuplot >/dev/null") != 0) {
        print_message("gnuplot missing: the chart is not drawn\n");
        return;
    }
    shell(&o, "scripts/compare-chart %s && ls %s/compare.png", out, out);
    assert_int_equal(o.exit_code, 0);
}

static void profile_against_a_suite_run_exits_two(void **state)
{
    (void)state;
    static struct outcome o;
    compare(&o, "", BEFORE, "tests/fixtures/report-run");
    assert_int_equal(o.exit_code, 2);
    assert_non_null(strstr(o.output, "different kinds of results folder"));
    assert_non_null(strstr(o.output, "a program's profile"));
    compare(&o, "", "tests/fixtures/report-run", BEFORE);
    assert_int_equal(o.exit_code, 2);
    assert_non_null(strstr(o.output, "different kinds of results folder"));
}

static void different_commands_compare_with_a_note(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "cp -r %s %s/other && sed -i 's/^command_line,.*/command_line,python3 train.py --steps 2/' %s/other/environment.csv",
          BEFORE, workdir, workdir);
    assert_int_equal(o.exit_code, 0);
    char other[256];
    snprintf(other, sizeof other, "%s/other", workdir);
    compare(&o, "", BEFORE, other);
    assert_int_equal(o.exit_code, 0);
    assert_non_null(strstr(o.output, "note: profiles of different commands: 'python3 train.py --steps 1'"));
    assert_non_null(strstr(o.output, "'python3 train.py --steps 2'"));
    compare(&o, "", BEFORE, BEFORE);
    assert_int_equal(o.exit_code, 0);
    assert_null(strstr(o.output, "different commands"));
}

/* A copy of the profile at fixture with a lines.csv: the softmax's store line wasting excess sectors. */
static const char *with_lines(const char *fixture, const char *name, int excess)
{
    static char paths[2][256];
    static struct outcome o;
    char *path = paths[excess > 0];
    snprintf(path, sizeof paths[0], "%s/%s", workdir, name);
    shell(&o, "cp -r %s %s && { echo variant,precision,width,kernel,file,line,source,opcodes,metric,value; "
              "echo 'step 1/softmax/k() #0,program,0,k(),softmax.cu,25,out[i * 32] = v;,STG.E,global_st_sectors,%d'; "
              "echo 'step 1/softmax/k() #0,program,0,k(),softmax.cu,25,out[i * 32] = v;,STG.E,global_excess_sectors,"
              "%d'; } > %s/lines.csv",
          fixture, path, 131072 + excess, excess, path);
    assert_int_equal(o.exit_code, 0);
    return path;
}

static void two_profiles_compare_line_by_line(void **state)
{
    (void)state;
    struct outcome o;
    const char *base = with_lines(BEFORE, "lines-before", 0), *head = with_lines(AFTER, "lines-after", 917504);
    compare(&o, "", base, head);
    if (o.exit_code != 1 || !strstr(o.output, "REGRESSION softmax.cu:25 step 1/softmax/k() #0: global_excess_sectors "
                                              "0 -> 917504 (new)"))
        fail_msg("expected the line's regression and exit 1; got %d:\n%s", o.exit_code, o.output);
}

/* The two-rank fixture against two copies whose rank 1 ran on another GPU: the note names both sides' GPUs, once
 * (not for each copy), on stderr, and the comparison goes on (exit 0); against itself, no note. */
static void profiles_on_other_gpus_are_noted(void **state)
{
    (void)state;
    static struct outcome o;
    char path[256];
    snprintf(path, sizeof path, "%s/other-gpu", workdir);
    shell(&o, "rm -rf %s && cp -r tests/fixtures/profile-two-ranks %s && "
              "sed -i 's/GPU-00000001-hand-made-fixture/GPU-00000002-hand-made-fixture/' %s/environment.csv",
          path, path, path);
    assert_int_equal(o.exit_code, 0);
    compare(&o, "", "tests/fixtures/profile-two-ranks", two_profiles("other-gpus", path));
    assert_int_equal(o.exit_code, 0);
    const char *note = strstr(o.output, "memscope-compare: note: other GPUs of the same kind: "
                                        "rank-0 GPU-00000000-hand-made-fixture, rank-1 GPU-00000001-hand-made-fixture "
                                        "in tests/fixtures/profile-two-ranks; rank-0 GPU-00000000-hand-made-fixture, "
                                        "rank-1 GPU-00000002-hand-made-fixture in ");
    assert_non_null(note);
    assert_null(strstr(strstr(note, "other GPUs") + 1, "other GPUs")); /* said once */
    compare(&o, "", "tests/fixtures/profile-two-ranks", "tests/fixtures/profile-two-ranks");
    assert_null(strstr(o.output, "other GPUs"));
    /* a program of one process records its GPUs as gpu_uuids */
    shell(&o, "rm -rf %s && cp -r tests/fixtures/profile-lines-h200 %s && "
              "sed -i 's/^gpu_uuids,GPU-[0-9a-f-]*$/gpu_uuids,GPU-00000003-hand-made-fixture/' %s/environment.csv",
          path, path, path);
    assert_int_equal(o.exit_code, 0);
    compare(&o, "", "tests/fixtures/profile-lines-h200", path);
    expect_on_line(strstr(o.output, "memscope-compare: note: other GPUs"), "GPU-00000003-hand-made-fixture in ");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_kernel_made_slower_in_every_launch_is_slower_and_exits_one),
        cmocka_unit_test(one_profile_a_side_weighs_the_kernels_together),
        cmocka_unit_test(profiles_on_other_gpus_are_noted),
        cmocka_unit_test(a_profile_against_itself_has_no_slower_or_faster),
        cmocka_unit_test(launches_unlike_compare_unpaired),
        cmocka_unit_test(one_launch_made_slower_is_found_by_launch),
        cmocka_unit_test(changed_count_of_a_profiled_kernel_is_reported),
        cmocka_unit_test(counts_of_launches_that_differ_are_not_compared),
        cmocka_unit_test(a_kernel_launched_far_more_often_on_one_side_gets_no_verdict),
        cmocka_unit_test(a_count_that_moved_between_a_sides_profiles_is_not_gated),
        cmocka_unit_test(a_programs_count_over_one_profile_a_side_is_not_gated),
        cmocka_unit_test(an_older_profile_compares_by_kernel),
        cmocka_unit_test(compare_csv_names_kernels_whole_and_labels_them_as_the_table),
        cmocka_unit_test(profile_against_a_suite_run_exits_two),
        cmocka_unit_test(different_commands_compare_with_a_note),
        cmocka_unit_test(two_profiles_compare_line_by_line),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
