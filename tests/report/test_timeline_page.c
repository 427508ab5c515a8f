/*
 * The timeline page's table (timeline.tsv) from the committed traced H100 run, reports/trace-h100 (memscope
 * --trace, 4 variants at W = 512 and 1024; as regenerated in 7e2875c). Its timeline.csv, summed by a script (not by
 * memscope), in ms:
 *   the run ("memscope run", depth 0)                                   6713.577985
 *   naive, both widths: allocate + copy in + release                      27.887555
 *                       reference + verify + copy out                    283.956503
 *                       warm-up + timed runs                               8.955805
 *                       its jobs less their phases                         0.057812
 *                       its jobs, together (4.8 % of the run)            320.857675
 *   the run's own phases: copy in (the operands again)                    97.598458
 *                         metric passes                                  742.237660
 *                         source counters                               2002.156364
 *                         stall sampling                                 108.656582
 *                         together (44.0 % of the run)                  2950.649064
 *   the run less its depth-1 ranges (jobs and the run's own phases)     2709.207678  (40.4 %)
 * the longest stretches in no range: 561.16 ms before copy in at W = 512 (3279.35 to 3840.51 ms), 500.25 ms before
 * stall sampling at 512 (1478.64 to 1978.90 ms), 496.20 ms before stall sampling at 1024 (2748.33 to 3244.52 ms).
 * The table prints seconds with %.6g. No GPU, no gnuplot, but for the page drawn last.
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

#define RUN "reports/trace-h100"
#define RUN_MS 6713.577985
#define FIXTURE RUN

#include "../support/page_data.h"

/* memscope-report-data's tables for a results folder, into a fresh data_dir; its error, if any. */
static struct error report_data(const char *results)
{
    static struct outcome o;
    struct results_folder r;
    struct error e = {0};
    shell(&o, "rm -rf %s && mkdir -p %s", data_dir, data_dir);
    assert_int_equal(o.exit_code, 0);
    if (results_folder_open(results, &r, &e) == 0) {
        report_data_write(&r, data_dir, "", NULL, GROUP_BY_KERNEL, &e);
        results_folder_close(&r);
    }
    return e;
}

/* ---- the table ---- */

static void each_variant_s_bar_sums_its_phases_at_every_width(void **state)
{
    (void)state;
    write_data(RUN);
    file_holds("timeline.tsv", "bar\tsetup (allocate, copy in, release)\tcheck (reference, verify, copy out)\t"
                               "warm-up and timed runs\tmetric passes\tsource counters\tstall sampling\tin no phase\t"
                               "total_s\tlabel\n"
                               "naive\t0.0278876\t0.283957\t0.0089558\t0\t0\t0\t5.7812e-05\t0.320858\t321 ms, 4.8 %\n"
                               "tiled_32\t");
}

/* A product of another shape is a job of its variant too ("naive 512x512x512" named as a rectangle's job is, width
 * 0): its ranges join the variant's bar, not a bar of their own. */
static void a_rectangle_s_jobs_join_their_variant_s_bar(void **state)
{
    (void)state;
    copy_fixture_and("sed -i 's/,naive W=512,512,/,naive 512x512x512,0,/' $R/timeline.csv && "
                     "grep -q ',naive 512x512x512,0,' $R/timeline.csv");
    write_data(scratch);
    file_holds("timeline.tsv", "\nnaive\t0.0278876\t0.283957\t0.0089558\t0\t0\t0\t5.7812e-05\t0.320858\t");
    const char *t = data_file("timeline.tsv");
    if (strstr(t, "512x512x512"))
        fail_msg("a bar of its own for the rectangle's jobs:\n%s", t);
}

static void the_run_s_own_phases_and_its_time_in_no_range_have_bars(void **state)
{
    (void)state;
    write_data(RUN);
    file_holds("timeline.tsv", "\ncublas\t");
    file_holds("timeline.tsv", "\nthe run's own phases\t0.0975985\t0\t0\t0.742238\t2.00216\t0.108657\t0\t2.95065\t"
                               "2.95 s, 44.0 %\n"
                               "in no range\t0\t0\t0\t0\t0\t0\t2.70921\t2.70921\t2.71 s, 40.4 %\n");
}

/* Every moment of the run is in exactly one bar: together they make its wall time. */
static void the_bars_add_up_to_the_run_s_wall_time(void **state)
{
    (void)state;
    char line[512];
    double sum = 0;
    int bars = 0;
    write_data(RUN);
    const char *text = data_file("timeline.tsv");
    /* the text starts with a newline, then the header: each bar's line follows the next newline */
    for (const char *at = strchr(text + 1, '\n'); at && at[1]; at = strchr(at + 1, '\n'), ++bars) {
        snprintf(line, sizeof line, "%.*s", (int)strcspn(at + 1, "\n"), at + 1);
        const char *total = line;
        for (int tab = 0; tab < 8; ++tab) /* the bar's name, 7 segments, then its total */
            total = strchr(total, '\t') + 1;
        sum += strtod(total, NULL);
    }
    assert_int_equal(bars, 6); /* 4 variants, the run's own phases, in no range */
    assert_float_equal(sum, RUN_MS / 1000, 5e-6);
    file_holds("timeline-notes.gp", "timeline_title = 'Where the run'.\"'\".'s 6.71 s went'\n");
}

static void the_longest_stretches_in_no_range_are_named(void **state)
{
    (void)state;
    write_data(RUN);
    /* gnuplot strings single-quoted (report_put_variable) */
    file_holds("timeline-notes.gp", "timeline_gaps = 'Longest in no range: 561 ms before copy in (W = 512), 500 ms "
                                    "before stall sampling (W = 512), 496 ms before stall sampling (W = 1024).'\n");
    /* the segments drawn, by their columns' names, each in its phase's colour: a run without the roofline has no
     * ceilings */
    file_holds("timeline-notes.gp", "timeline_segments = '\"setup (allocate, copy in, release)\" \"check (reference, "
                                    "verify, copy out)\" \"warm-up and timed runs\" \"metric passes\" "
                                    "\"source counters\" \"stall sampling\" \"in no phase\"'\n"
                                    "timeline_colours = \"#9e9e9e #00acc1 #e53935 #fb8c00 #00897b #d81b60 #cfcfcf\"\n");
}

/* With the roofline group, the ceilings are measured before the run's own range opens (depth 0 both): they are one
 * of the run's phases, and the run's time reaches from their start. Here 17 ms of them, ending 0.5 ms before it:
 * the run 6713.577985 + 17.5 = 6731.077985 ms; its own phases 2950.649064 + 17 = 2967.649064 ms (44.1 %); in no
 * range 2709.207678 + 0.5 = 2709.707678 ms (40.3 %). */
static void ceilings_before_the_run_s_range_are_one_of_its_phases(void **state)
{
    (void)state;
    copy_fixture_and("sed -i '1a ceilings,,0,0,-17.5,17' $R/timeline.csv");
    write_data(scratch);
    file_holds("timeline-notes.gp", "timeline_title = 'Where the run'.\"'\".'s 6.73 s went'\n");
    file_holds("timeline.tsv", "\tstall sampling\tceilings\tin no phase\ttotal_s\tlabel\n");
    file_holds("timeline.tsv", "\nthe run's own phases\t0.0975985\t0\t0\t0.742238\t2.00216\t0.108657\t0.017\t0\t"
                               "2.96765\t2.97 s, 44.1 %\n"
                               "in no range\t0\t0\t0\t0\t0\t0\t0\t2.70971\t2.70971\t2.71 s, 40.3 %\n");
}

/* ---- runs with no timeline, or a broken one ---- */

/* A run without --trace has no timeline.csv; one whose ranges were all lost has only its header. */
static void only_a_traced_run_has_a_timeline_page(void **state)
{
    (void)state;
    static const char *const changes[] = {"rm $R/timeline.csv",
                                          "head -1 $R/timeline.csv > $R/t && mv $R/t $R/timeline.csv"};
    write_data(RUN);
    file_holds("pages.tsv", "\ntimeline\ttimeline.gp\t\n");
    for (size_t i = 0; i < sizeof changes / sizeof changes[0]; ++i) {
        copy_fixture_and(changes[i]);
        write_data(scratch);
        assert_null(strstr(data_file("pages.tsv"), "timeline"));
        assert_false(data_written("timeline.tsv"));
    }
}

static void expect_refused(const char *change, const char *message)
{
    copy_fixture_and(change);
    struct error e = report_data(scratch);
    assert_int_equal(e.code, EXIT_USAGE);
    if (!strstr(e.message, message))
        fail_msg("expected \"%s\", got \"%s\"", message, e.message);
}

static void a_broken_timeline_is_refused_with_its_line(void **state)
{
    (void)state;
    /* line 3: "copy in,naive W=512,512,2,313.67805,11.102475" */
    expect_refused("sed -i '3s/,11.102475$/,-11.102475/' $R/timeline.csv", "timeline.csv:3: column 'duration_ms' holds '-11.102475', but a time must be 0 or more");
    expect_refused("sed -i '3s/,2,313.67805,/,x,313.67805,/' $R/timeline.csv", "timeline.csv:3");
    expect_refused("sed -i '/^memscope run,/d' $R/timeline.csv",
                   "timeline.csv: no range of depth 0, where a run has its own (memscope run)");
    expect_refused("sed -i 's/^range,job,width,depth,/range,job,width,level,/' $R/timeline.csv", "depth");
}

/* ---- the page drawn ---- */

static void the_report_of_a_traced_run_ends_with_its_timeline(void **state)
{
    (void)state;
    static struct outcome o;
    if (system("command -v gnuplot >/dev/null && command -v pdftotext >/dev/null") != 0) {
        print_message("gnuplot or poppler-utils missing: the page is not drawn, skipped\n");
        skip();
    }
    shell(&o, "scripts/report-render %s %s/report >/dev/null && pdftotext -layout %s/report/memscope-report.pdf - && "
              "ls %s/report",
          RUN, workdir, workdir, workdir);
    assert_int_equal(o.exit_code, 0);
    assert_non_null(strstr(o.output, "Where the run's 6.71 s went"));
    assert_non_null(strstr(o.output, "Longest in no range: 561 ms before copy in (W = 512)"));
    assert_non_null(strstr(o.output, "2.95 s, 44.0 %"));
    /* the last page, 16th: lines.csv's 283 rows (the run's source counters) make one page of hot lines before it,
     * its 4 variants at W = 1024 with at most 3 rows each in a page's 28 */
    assert_non_null(strstr(o.output, "16-timeline.png"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_variant_s_bar_sums_its_phases_at_every_width),
        cmocka_unit_test(a_rectangle_s_jobs_join_their_variant_s_bar),
        cmocka_unit_test(the_run_s_own_phases_and_its_time_in_no_range_have_bars),
        cmocka_unit_test(the_bars_add_up_to_the_run_s_wall_time),
        cmocka_unit_test(the_longest_stretches_in_no_range_are_named),
        cmocka_unit_test(ceilings_before_the_run_s_range_are_one_of_its_phases),
        cmocka_unit_test(only_a_traced_run_has_a_timeline_page),
        cmocka_unit_test(a_broken_timeline_is_refused_with_its_line),
        cmocka_unit_test(the_report_of_a_traced_run_ends_with_its_timeline),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
