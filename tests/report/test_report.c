/*
 * The report as a user meets it, on a machine without a GPU: scripts/report-render
 * turns a results folder (fixture CSVs cut from the H100 reference run) into a PDF
 * with every page; bad input gives one message naming the file and line, a
 * non-zero exit, and no PDF. Needs gnuplot and poppler-utils (pdfinfo, pdftotext):
 * .ci/run installs them; where they are missing (the GPU machine, where nothing can
 * be installed) every test here reports SKIPPED and says why.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "../support/remove_tree.h"
#include "../support/rewrite_csv.h"
#include "../support/run_shell.h"
#include "../support/users_folder.h"

#define FIXTURE "tests/fixtures/report-run"
#define RENDER "scripts/report-render"

/* The fixture holds 7 variants at 2 widths and 40 ground-truth rows:
 * title, 2 summary tables, 6 charts, the roofline's key, 2 pages of the ground-truth table. */
#define FIXTURE_PAGES 12

static char workdir[] = "/tmp/memscope-report-XXXXXX";
static char out_dir[128], pdf[160], scratch[128], refused_dir[128];

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int tools_present = 1;

static int setup(void **state)
{
    (void)state;
    tools_present = system("command -v gnuplot >/dev/null && command -v pdfinfo >/dev/null && "
                           "command -v pdftotext >/dev/null") == 0;
    if (!tools_present)
        fprintf(stderr, "gnuplot or poppler-utils missing: the report tests are skipped "
                        "(apt-get install gnuplot-nox poppler-utils)\n");
    if (!mkdtemp(workdir))
        return -1;
    snprintf(out_dir, sizeof out_dir, "%s/report", workdir);
    snprintf(pdf, sizeof pdf, "%s/memscope-report.pdf", out_dir);
    snprintf(scratch, sizeof scratch, "%s/run", workdir);
    snprintf(refused_dir, sizeof refused_dir, "%s/refused", workdir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

/* A copy of the fixture that a test may damage. */
static void copy_fixture(void)
{
    static struct outcome o;
    shell(&o, "rm -rf %s && cp -r %s %s", scratch, FIXTURE, scratch);
    assert_int_equal(o.exit_code, 0);
}

static void require_tools(void)
{
    if (!tools_present)
        skip();
}

static void render(const char *results, struct outcome *o)
{
    shell(o, "%s %s %s", RENDER, results, out_dir);
}

static void expect_exit(const struct outcome *o, int code, const char *message)
{
    if (o->exit_code != code || !strstr(o->output, message))
        fail_msg("expected exit %d and \"%s\"; got %d:\n%s", code, message, o->exit_code, o->output);
}

/* Into a folder no render has written: a refused render leaves neither it nor its .partial. */
static void expect_refused(const char *results, const char *message)
{
    static struct outcome o;
    shell(&o, "%s %s %s", RENDER, results, refused_dir);
    expect_exit(&o, 2, message);
    assert_false(exists(refused_dir));
    char partial[160];
    snprintf(partial, sizeof partial, "%s.partial", refused_dir);
    assert_false(exists(partial));
}

/* Damages a copy of the fixture with a shell command ($R names the copy); the render must refuse it. */
static void expect_damage_refused(const char *damage, const char *message)
{
    static struct outcome o;
    copy_fixture();
    shell(&o, "R=%s; %s", scratch, damage);
    assert_int_equal(o.exit_code, 0);
    expect_refused(scratch, message);
}

static void fixture_renders_every_page(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    render(FIXTURE, &o);
    if (o.exit_code != 0)
        fail_msg("render failed (%d):\n%s", o.exit_code, o.output);
    assert_non_null(strstr(o.output, pdf));
    shell(&o, "pdfinfo %s | sed -n 's/^Pages: *//p'", pdf);
    assert_int_equal(atoi(o.output), FIXTURE_PAGES);
    shell(&o, "pdftotext -layout %s -", pdf);
    static const char *const expected[] = {
        "NVIDIA H100 80GB HBM3", "60dceeeabb15aa26c1aa7f8f3bd7cc75b0453d3b", "Summary at W = 1024",
        "Summary at W = 2048", "Performance versus matrix size", "Global load efficiency", "bank conflicts",
        "DRAM throughput", "Hierarchical roofline at W = 2048", "Roofline key at W = 2048", "Speedup over naive", "Ground truth: 40 of 40 checks passed",
        "naive_uncoalesced", "tiled_transposed_padded", "cublas_fp64", "naive_fp64", "32,505,856",
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i)
        if (!strstr(o.output, expected[i]))
            fail_msg("the PDF's text lacks \"%s\"", expected[i]);
}

/* The ladder's order comes from variants.csv: here cublas is step 5 and naive step 9, the reverse of the registry,
 * and a run holds only some steps of the ladder. */
static void ladder_pages_follow_the_steps_of_variants_csv(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    copy_fixture();
    shell(&o, "printf 'variant,precision,layout,block_x,block_y,tile_x,tile_y,ladder_step,description\\n"
              "cublas,fp32,row_major,0,0,0,0,5,the library\\nnaive,fp32,row_major,32,32,32,32,9,one thread per "
              "element\\ntiled_16,fp32,row_major,16,16,16,16,0,off the ladder\\n' > %s/variants.csv",
          scratch);
    assert_int_equal(o.exit_code, 0);
    render(scratch, &o);
    if (o.exit_code != 0)
        fail_msg("render failed (%d):\n%s", o.exit_code, o.output);
    shell(&o, "pdfinfo %s | sed -n 's/^Pages: *//p'", pdf);
    assert_int_equal(atoi(o.output), FIXTURE_PAGES + 2);
    shell(&o, "pdftotext -layout %s - | sed -n '/The FP32 ladder at W = 2048/,/One idea per step/p'", pdf);
    char *cublas = strstr(o.output, "cublas"), *naive = strstr(o.output, "naive");
    if (!cublas || !naive || naive < cublas || strstr(o.output, "tiled_16"))
        fail_msg("the ladder page should list cublas, then naive, and not tiled_16:\n%s", o.output);
    shell(&o, "pdftotext -layout %s - | grep -c 'one thread per element'", pdf);
    assert_int_equal(atoi(o.output), 1);
}

/* A run with measured ceilings and every level's bytes (tests/fixtures/roofline-run, see test_roofline.c): its
 * roofs are labelled measured, and the key names each variant's bound. */
static void the_roofline_pages_draw_measured_roofs_and_each_bound(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    render("tests/fixtures/roofline-run", &o);
    if (o.exit_code != 0)
        fail_msg("render failed (%d):\n%s", o.exit_code, o.output);
    shell(&o, "pdftotext -layout %s - | sed -n '/Hierarchical roofline at W = 4096/,/Speedup over naive/p'", pdf);
    static const char *const expected[] = {
        "L1/shared 30,000 GB/s (measured)", "L2 6,500 GB/s (measured)", "DRAM 3,000 GB/s (measured)",
        "FP32 60,000 GFLOP/s (measured)", "Roofs measured on this GPU", "Roofline key at W = 4096",
        "naive_uncoalesced", "FP32 compute", "60,422 *",
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i)
        if (!strstr(o.output, expected[i]))
            fail_msg("the roofline pages lack \"%s\":\n%s", expected[i], o.output);
    if (strstr(o.output, "(datasheet)"))
        fail_msg("a roof of a run with measured ceilings is labelled datasheet:\n%s", o.output);
}

static void every_page_has_a_png(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    render(FIXTURE, &o);
    assert_int_equal(o.exit_code, 0);
    shell(&o, "ls %s/*.png | wc -l", out_dir);
    assert_int_equal(atoi(o.output), FIXTURE_PAGES);
}

/* The summary of a run made with --no-metrics: the kernel and metric columns empty. */
static void blank_metric_columns(const struct csv_table *t, int row, char **fields)
{
    (void)row;
    for (int c = csv_table_column_or_none(t, "metrics_kernel"); c < t->columns; ++c)
        fields[c][0] = '\0';
}

static void run_without_metrics_reads_not_collected(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    copy_fixture();
    shell(&o, "rm %s/metrics.csv", scratch);
    rewrite_csv(scratch, "summary.csv", blank_metric_columns);
    render(scratch, &o);
    if (o.exit_code != 0)
        fail_msg("render failed (%d):\n%s", o.exit_code, o.output);
    shell(&o, "pdftotext -layout %s -", pdf);
    assert_non_null(strstr(o.output, "not collected"));
}

/* A run of the upper rungs alone (-v icache_fit,cublas) has no naive kernel to give a speedup over: its report
 * still renders, the speedup panel empty but for its 1x line. */
static void run_without_naive_renders(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    copy_fixture();
    shell(&o, "for f in %s/*.csv; do grep -v -E '^(naive|naive_fp64),' $f > $f.x && mv $f.x $f; done", scratch);
    assert_int_equal(o.exit_code, 0);
    render(scratch, &o);
    if (o.exit_code != 0)
        fail_msg("render failed (%d):\n%s", o.exit_code, o.output);
}

static void truncated_summary_is_refused_with_its_line(void **state)
{
    (void)state;
    require_tools();
    expect_damage_refused("head -c 2000 $R/summary.csv > $R/cut && mv $R/cut $R/summary.csv", "summary.csv:");
}

static void truncated_samples_are_refused(void **state)
{
    (void)state;
    require_tools();
    expect_damage_refused("sed -i '$d' $R/samples.csv", "samples.csv: 9 samples of cublas_fp64 at W=2048, but");
}

static void missing_column_is_named(void **state)
{
    (void)state;
    require_tools();
    expect_damage_refused("cut -d, -f1-4 $R/samples.csv > $R/cut && mv $R/cut $R/samples.csv",
                          "samples.csv:1: no column 'time_ms'");
}

static void malformed_number_is_refused_with_its_line(void **state)
{
    (void)state;
    require_tools();
    expect_damage_refused("sed -i '3s/,row_major,1024,/,row_major,ten,/' $R/summary.csv",
                          "summary.csv:3: column 'width' holds 'ten', not a number");
}

static void empty_folder_is_refused(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    shell(&o, "rm -rf %s && mkdir %s", scratch, scratch);
    expect_refused(scratch, "no environment.csv");
}

/* The earlier report is replaced only by a complete one: a failed render leaves it as it was. */
static void failed_render_leaves_the_earlier_report_as_it_was(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    render(FIXTURE, &o);
    assert_int_equal(o.exit_code, 0);
    shell(&o, "cp %s %s/earlier.pdf && rm -rf %s && mkdir %s", pdf, workdir, scratch, scratch);
    assert_int_equal(o.exit_code, 0);
    render(scratch, &o);
    expect_exit(&o, 2, "no environment.csv");
    shell(&o, "cmp %s %s/earlier.pdf && ls %s | wc -l", pdf, workdir, out_dir);
    assert_int_equal(o.exit_code, 0);
    assert_int_equal(atoi(o.output), FIXTURE_PAGES + 2); /* the PNGs, the PDF and data/ */
    char partial[160];
    snprintf(partial, sizeof partial, "%s.partial", out_dir);
    assert_false(exists(partial));
}

static void expect_notes_alone(const char *dir)
{
    static struct outcome o;
    shell(&o, "ls -A %s && cat %s/notes.txt", dir, dir);
    assert_int_equal(o.exit_code, 0);
    assert_string_equal(o.output, "notes.txt\nnotes\n");
}

/* report-render removes or replaces only a folder it wrote: a user's OUT_DIR or OUT_DIR.partial is refused, kept. */
static void a_folder_report_render_did_not_write_is_kept(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    const char *mine = users_folder(workdir, "mine");
    shell(&o, "%s %s %s", RENDER, FIXTURE, mine);
    expect_exit(&o, 4, "mine exists and report-render did not write it");
    expect_notes_alone(mine);
    const char *partial = users_folder(workdir, "theirs.partial");
    shell(&o, "%s %s %s/theirs", RENDER, FIXTURE, workdir);
    expect_exit(&o, 4, "theirs.partial exists and report-render did not write it");
    expect_notes_alone(partial);
}

/* A render again into report-render's own folder, where the user put a file of theirs (notes beside the PDF, in the
 * data folder): the render is refused, exit 4, naming the file, and the folder is left as it was. Only a folder
 * whose every file report-render wrote (its mark lists them) is replaced. */
static void a_render_again_keeps_a_file_the_user_added(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    if (!exists(pdf)) {
        render(FIXTURE, &o);
        assert_int_equal(o.exit_code, 0);
    }
    shell(&o, "cp %s %s/before.pdf && echo notes >%s/data/notes.txt", pdf, workdir, out_dir);
    assert_int_equal(o.exit_code, 0);
    render(FIXTURE, &o);
    expect_exit(&o, 4, "report/data/notes.txt: report-render did not write it, so it will not replace");
    shell(&o, "cat %s/data/notes.txt && cmp %s %s/before.pdf && rm %s/data/notes.txt", out_dir, pdf, workdir, out_dir);
    assert_string_equal(o.output, "notes\n");
}

static void an_output_that_is_a_file_is_refused(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    shell(&o, "echo mine > %s/file && %s %s %s/file", workdir, RENDER, FIXTURE, workdir);
    expect_exit(&o, 4, "file exists and is not a folder");
    shell(&o, "cat %s/file", workdir);
    assert_string_equal(o.output, "mine\n");
}

static const char *history_tool(void)
{
    const char *path = getenv("MEMSCOPE_HISTORY");
    return path ? path : "build/memscope-history";
}

/* history-render follows report-render's rule: it replaces its own chart, and refuses a user's folder. */
static void history_render_replaces_only_its_own_folder(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    shell(&o, "%s add %s/history.csv %s", history_tool(), workdir, FIXTURE);
    assert_int_equal(o.exit_code, 0);
    for (int i = 0; i < 2; ++i) {
        shell(&o, "scripts/history-render %s/history.csv %s/history", workdir, workdir);
        expect_exit(&o, 0, "history.pdf");
    }
    const char *mine = users_folder(workdir, "my-history");
    shell(&o, "scripts/history-render %s/history.csv %s", workdir, mine);
    expect_exit(&o, 4, "my-history exists and history-render did not write it");
    expect_notes_alone(mine);
}

/* Output paths reach gnuplot inside quoted strings, which a quote in a folder's name must not end. */
static void an_output_folder_named_with_a_quote_is_drawn(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    shell(&o, "%s %s \"%s/it's\"", RENDER, FIXTURE, workdir);
    expect_exit(&o, 0, "it's/memscope-report.pdf");
    shell(&o, "%s add %s/quote.csv %s && scripts/history-render %s/quote.csv \"%s/it's history\"",
          history_tool(), workdir, FIXTURE, workdir, workdir);
    expect_exit(&o, 0, "it's history/history.pdf");
}

/* The note reaches the title page as given: quotes, a backslash and backquotes (which run nothing). */
static void the_note_is_drawn_exactly_as_given(void **state)
{
    (void)state;
    static struct outcome o;
    char expected[256], ran[192];
    require_tools();
    snprintf(ran, sizeof ran, "%s/ran", workdir);
    snprintf(expected, sizeof expected, "it's \"q\" `touch %s` \\", ran);
    shell(&o, "%s --note 'it'\\''s \"q\" `touch %s` \\' %s %s", RENDER, ran, FIXTURE, out_dir);
    expect_exit(&o, 0, "memscope-report.pdf");
    shell(&o, "pdftotext -f 1 -l 1 %s -", pdf);
    if (!strstr(o.output, expected))
        fail_msg("the title page lacks the note \"%s\":\n%s", expected, o.output);
    assert_false(exists(ran));
}

/* The note is one line: a line break is refused, not turned silently into something else. */
static void a_note_with_a_line_break_is_refused(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    shell(&o, "%s --note \"$(printf 'one\\ntwo')\" %s %s", RENDER, FIXTURE, refused_dir);
    expect_exit(&o, 2, "--note: one line for the title page, without a line break");
    assert_false(exists(refused_dir));
}

static void output_over_the_results_is_refused(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    copy_fixture();
    shell(&o, "%s %s %s", RENDER, scratch, scratch);
    assert_int_equal(o.exit_code, 2);
    assert_non_null(strstr(o.output, "would replace the results folder"));
    assert_true(exists(scratch));
}

static void comparison_adds_a_page(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    const char *compare = getenv("MEMSCOPE_COMPARE");
    shell(&o, "%s -o %s/cmp %s %s", compare ? compare : "build/memscope-compare", workdir, FIXTURE, FIXTURE);
    assert_int_equal(o.exit_code, 0);
    shell(&o, "%s --compare %s/cmp/compare.csv %s %s", RENDER, workdir, FIXTURE, out_dir);
    if (o.exit_code != 0)
        fail_msg("render failed (%d):\n%s", o.exit_code, o.output);
    shell(&o, "pdfinfo %s | sed -n 's/^Pages: *//p'", pdf);
    assert_int_equal(atoi(o.output), FIXTURE_PAGES + 1);
    shell(&o, "pdftotext -layout %s -", pdf);
    assert_non_null(strstr(o.output, "Head against base"));
    /* A compare.csv of a memscope from before floor_pct, its last column, draws the same page; one cut further is
     * refused. */
    shell(&o, "cut -d, -f1-13 %s/cmp/compare.csv > %s/old-compare.csv && %s --compare %s/old-compare.csv %s %s", workdir,
          workdir, RENDER, workdir, FIXTURE, out_dir);
    if (o.exit_code != 0)
        fail_msg("render of an older compare.csv failed (%d):\n%s", o.exit_code, o.output);
    shell(&o, "pdfinfo %s | sed -n 's/^Pages: *//p'", pdf);
    assert_int_equal(atoi(o.output), FIXTURE_PAGES + 1);
    shell(&o, "cut -d, -f1-12 %s/cmp/compare.csv > %s/cut-compare.csv && %s --compare %s/cut-compare.csv %s %s", workdir,
          workdir, RENDER, workdir, FIXTURE, out_dir);
    assert_int_equal(o.exit_code, 2);
    assert_non_null(strstr(o.output, "not a compare.csv written by memscope"));
}

/* A gpu_name that would end a gnuplot string (quote, backslash) and run a shell command (backquotes). */
static void hostile_gpu_name(const struct csv_table *t, int row, char **fields)
{
    (void)t;
    (void)row;
    if (!strcmp(fields[0], "gpu_name"))
        snprintf(fields[1], 256, "H100 `touch %s/ran` \\\"", workdir);
}

/* environment.csv's gpu_name and the variant names go into gnuplot strings, where a backquoted `...` runs as a
 * shell command: rendering a results folder from elsewhere must run nothing, and the name is drawn as it is. */
static void text_from_the_results_cannot_run_commands(void **state)
{
    (void)state;
    static struct outcome o;
    char ran[192], expected[256];
    require_tools();
    copy_fixture();
    rewrite_csv(scratch, "environment.csv", hostile_gpu_name);
    render(scratch, &o);
    if (o.exit_code != 0)
        fail_msg("render failed (%d):\n%s", o.exit_code, o.output);
    snprintf(ran, sizeof ran, "%s/ran", workdir);
    assert_false(exists(ran));
    snprintf(expected, sizeof expected, "H100 `touch %s/ran` \\\"", workdir);
    shell(&o, "pdftotext -f 1 -l 1 %s - | grep -cF '%s'", pdf, expected);
    if (atoi(o.output) != 2) /* the title's line and the table's row */
        fail_msg("the title page shows the GPU's name %s times as it is, \"%s\", not twice", o.output, expected);
}

/* A source line is shown as it is written: the hot-lines page of a cp.async kernel quotes its asm string with
 * double quotes (tests/fixtures/content-run: kernels/ladder/ladder_common.cuh:125), and the last column's header
 * says what its cells are: per instruction for some, totals for others. */
static void source_text_is_shown_as_written(void **state)
{
    (void)state;
    static struct outcome o;
    require_tools();
    render("tests/fixtures/content-run", &o);
    if (o.exit_code != 0)
        fail_msg("render failed (%d):\n%s", o.exit_code, o.output);
    shell(&o, "pdftotext -layout %s - | sed -n '/Hot lines:/,/Ground truth:/p'", pdf);
    if (!strstr(o.output, "asm volatile(\"cp.async.ca.shared.global [%"))
        fail_msg("the hot lines lack the source as written, asm volatile(\"cp.async...:\n%s", o.output);
    assert_null(strstr(o.output, "per instruction"));
    assert_non_null(strstr(o.output, "measured on the line"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixture_renders_every_page),
        cmocka_unit_test(ladder_pages_follow_the_steps_of_variants_csv),
        cmocka_unit_test(the_roofline_pages_draw_measured_roofs_and_each_bound),
        cmocka_unit_test(every_page_has_a_png),
        cmocka_unit_test(source_text_is_shown_as_written),
        cmocka_unit_test(run_without_metrics_reads_not_collected),
        cmocka_unit_test(run_without_naive_renders),
        cmocka_unit_test(truncated_summary_is_refused_with_its_line),
        cmocka_unit_test(truncated_samples_are_refused),
        cmocka_unit_test(missing_column_is_named),
        cmocka_unit_test(malformed_number_is_refused_with_its_line),
        cmocka_unit_test(empty_folder_is_refused),
        cmocka_unit_test(failed_render_leaves_the_earlier_report_as_it_was),
        cmocka_unit_test(a_folder_report_render_did_not_write_is_kept),
        cmocka_unit_test(a_render_again_keeps_a_file_the_user_added),
        cmocka_unit_test(an_output_that_is_a_file_is_refused),
        cmocka_unit_test(history_render_replaces_only_its_own_folder),
        cmocka_unit_test(an_output_folder_named_with_a_quote_is_drawn),
        cmocka_unit_test(the_note_is_drawn_exactly_as_given),
        cmocka_unit_test(a_note_with_a_line_break_is_refused),
        cmocka_unit_test(output_over_the_results_is_refused),
        cmocka_unit_test(comparison_adds_a_page),
        cmocka_unit_test(text_from_the_results_cannot_run_commands),
    };
    return cmocka_run_group_tests_name("report", tests, setup, teardown);
}
