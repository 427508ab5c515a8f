/*
 * The report's pages, in order: one table, REPORT_PAGES, from which follow the tables of every page (each row's
 * writer), pages.tsv (the PNG pages scripts/report-render draws) and pages.gp (the PDF's pages, which
 * scripts/report/report.gp loads). A page is a gnuplot script, scripts/report/<script>.gp, and a table writer
 * here; adding one is its script, its writer and its row: the writer's declaration follows from the row.
 */
#ifndef MEMSCOPE_REPORT_PAGES_H
#define MEMSCOPE_REPORT_PAGES_H

#include <stdio.h>

#include "../diagnose/diagnosis.h"
#include "../diagnose/findings.h"
#include "model.h"

/* A page is drawn at most this often: once per size (the summary). */
#define REPORT_MAX_COPIES MAX_WIDTHS

/* What a page's writer is given, and what it tells the list of pages. */
struct page_output {
    const char *dir; /* DATA_DIR, where its tables go (cells.h: report_open, report_put_cell, report_close) */
    FILE *variables; /* variables.gp, which every script loads: where the page's own gnuplot variables go */
    int copies;      /* how often the page is drawn: 1 unless the writer says otherwise; 0 leaves it out */
    /* A page drawn more than once: the gnuplot variable that tells its copies apart, and its value in each, which
     * also names the copy: a whole number, or a product's shape, which gnuplot is given as text (summary_size = 4096
     * draws summary-4096, summary_size = '8192x3072x1024' summary-8192x3072x1024). */
    const char *numbered_by;
    char number[REPORT_MAX_COPIES][PRODUCT_SHAPE_LEN];
};

/* A page's table writer: its tables into out->dir, from the model. */
typedef int report_page_writer(const struct report_model *m, struct page_output *out, struct error *e);

/* Each page: its name (of its PNG, and in pages.tsv), its script and its table writer. A page that draws only what
 * every page may read (variables.gp and bars.tsv, which report_data.c writes) has report_draws_shared_data. */
#define REPORT_PAGES(PAGE)                                              \
    PAGE("title", "title", report_write_title)                          \
    PAGE("summary", "summary", report_write_summaries)                  \
    PAGE("diagnosis", "diagnosis", report_write_diagnosis)              \
    PAGE("ladder", "ladder", report_write_ladder)                       \
    PAGE("ladder-ideas", "ladder_ideas", report_write_ladder_ideas)     \
    PAGE("tensor-ladder", "tensor_ladder", report_write_tensor_ladder)  \
    PAGE("tensor-ladder-ideas", "tensor_ladder_ideas", report_write_tensor_ladder_ideas) \
    PAGE("swizzle", "swizzle", report_write_swizzle)                    \
    PAGE("shapes", "shapes", report_write_shapes)                       \
    PAGE("performance", "performance", report_write_performance)        \
    PAGE("efficiency", "efficiency", report_draws_shared_data)          \
    PAGE("conflicts", "conflicts", report_write_conflicts_notes)        \
    PAGE("dram", "dram", report_draws_shared_data)                      \
    PAGE("roofline", "roofline", report_write_roofline)                 \
    PAGE("roofline-key", "roofline_key", report_write_roofline_key)     \
    PAGE("speedup", "speedup", report_draws_shared_data)                \
    PAGE("stalls", "stalls", report_write_stalls)                       \
    PAGE("stall-lines", "stall_lines", report_write_stall_lines)        \
    PAGE("hot-lines", "hot_lines", report_write_hot_lines)              \
    PAGE("timeline", "timeline", report_write_timeline)                 \
    PAGE("validate", "validate", report_write_validate)                 \
    PAGE("compare", "compare", report_write_compare)

/* A program's profile (memscope-profile) instead: what it ran and where its GPU time went, then the suite's pages of
 * hardware metrics, drawn for its profiled jobs (a page without data leaves itself out, as in a run). */
#define PROGRAM_PAGES(PAGE)                                             \
    PAGE("title", "title", report_write_program_title)                  \
    PAGE("kernels", "kernels", report_write_kernels)                    \
    PAGE("ranks", "ranks", report_write_ranks)                          \
    PAGE("collectives", "collectives", report_write_collectives)        \
    PAGE("roofline", "roofline", report_write_roofline)                 \
    PAGE("roofline-key", "roofline_key", report_write_roofline_key)     \
    PAGE("stalls", "stalls", report_write_stalls)                       \
    PAGE("stall-lines", "stall_lines", report_write_stall_lines)        \
    PAGE("hot-lines", "hot_lines", report_write_hot_lines)              \
    PAGE("compare", "compare", report_write_compare)

/* Jobs per page of the kernels table, and its pages at most: a benchmark that launches a kernel thousands of
 * times has as many jobs; the table shows the busiest, and says what share the others take. */
#define REPORT_KERNELS_PER_PAGE 14
#define REPORT_KERNELS_MAX_PAGES 4

#define REPORT_DECLARE_WRITER(name, script, writer) report_page_writer writer;
REPORT_PAGES(REPORT_DECLARE_WRITER)
report_page_writer report_write_program_title, report_write_kernels, report_write_ranks, report_write_collectives;
#undef REPORT_DECLARE_WRITER

/* The diagnosis as the report gives it (diagnosis_page.c), for the diagnosis page and a profile's kernels page:
 * harness/diagnose/'s rules applied to variant's recorded figures at width, with the warps' top stall reason where
 * the stalls group ran. */
int report_diagnose(const struct report_model *m, const char *variant, int width, struct diagnosis *d,
                    struct error *e);

/* The findings as the report gives them: today's rules (harness/diagnose/findings.h) applied to the counters the run
 * stored, the launch as summary.csv keeps it, the SM as environment.csv does and the lines of lines.csv, so that a
 * folder written before a rule changed reads as the rules say now. Ranked into out (at most max, *n of them);
 * unjudged: the rules its counters could not judge (findings_unjudged), "" when none. */
int report_findings(const struct report_model *m, const char *variant, int width, struct finding out[], int max,
                    int *n, char *unjudged, size_t len, struct error *e);

/* The title page's table (title.tsv at path: labels, then values, as report_write_title and
 * report_write_program_title write it) laid out from the widths its cells take, in title.gp's title_table_x and
 * title_table_font_size: a long command line sets the table smaller rather than off the page. */
int report_title_layout(FILE *variables, const char *path, struct error *e);

/* For a writer whose page is drawn once per page of its table (hot-lines-1, hot-lines-2, ...): copies numbered 1 to
 * copies, in the gnuplot variable named. Refuses more than REPORT_MAX_COPIES, naming the page. */
int report_page_numbered(struct page_output *out, const char *variable, int copies, struct error *e);

/* Every page's writer (PROGRAM_PAGES' for a program's profile, else REPORT_PAGES'), in the table's order, then the
 * list of the pages drawn: pages.tsv (name, script, setup) and pages.gp (a load per page). variables: variables.gp,
 * open. */
int report_write_pages(const struct report_model *m, const char *dir, FILE *variables, struct error *e);

#endif
