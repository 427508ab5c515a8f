/*
 * A program's profile (memscope-profile) on its own first pages: its title page (the command, the GPU, its launches
 * and jobs, the GPU time they took) and its kernels by GPU time (every job ranked by its share, with its launches,
 * median, limiter and evidence). Every job is read from the summary, timed or profiled; a job's GPU time is its
 * mean duration times its launches (samples), its share that over the sum of every job's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/paths.h"
#include "../results/job_name.h"
#include "cells.h"
#include "pages.h"
#include "tensor.h"

/* A job of the summary and its GPU time in milliseconds, over every run of the program. */
struct job_time {
    int row;
    double ms;
};

static const char *summary_text(const struct results_folder *r, int row, enum summary_column id)
{
    int column = schema_column_or_none(&r->summary, &summary_csv, id);
    return column < 0 ? "" : csv_table_text(&r->summary, row, column);
}

static double summary_number(const struct report_model *m, int row, enum summary_column id)
{
    return report_summary_value(m, csv_table_text(&m->r->summary, row, m->r->col_variant), m->r->summary_width[row],
                                id);
}

static int by_time(const void *a, const void *b)
{
    const struct job_time *x = a, *y = b;
    return x->ms < y->ms ? 1 : x->ms > y->ms ? -1 : x->row - y->row;
}

/* Every job with its GPU time (a job timed by no launch takes none), the longest first; the total into *total. */
static struct job_time *jobs_by_time(const struct report_model *m, double *total, struct error *e)
{
    const struct results_folder *r = m->r;
    struct job_time *jobs = calloc((size_t)r->summary.rows, sizeof *jobs);
    if (!jobs)
        return error_set(e, EXIT_RUNTIME, "out of memory"), NULL;
    *total = 0;
    for (int row = 0; row < r->summary.rows; ++row) {
        double ms = summary_number(m, row, SUMMARY_MEAN_MS) * r->summary_samples[row];
        jobs[row] = (struct job_time){row, isnan(ms) ? 0 : ms};
        *total += jobs[row].ms;
    }
    qsort(jobs, (size_t)r->summary.rows, sizeof *jobs, by_time);
    return jobs;
}

static int count_status(const struct results_folder *r, const char *status)
{
    int n = 0;
    for (int row = 0; row < r->summary.rows; ++row)
        n += strcmp(csv_table_text(&r->summary, row, r->col_status), status) == 0;
    return n;
}

static void job_label_of(const struct results_folder *r, int row, char *out, size_t size)
{
    report_job_label(csv_table_text(&r->summary, row, r->col_variant), summary_text(r, row, SUMMARY_METRICS_KERNEL),
                     out, size);
}

static int write_title_rows(FILE *f, const struct report_model *m, struct error *e)
{
    const struct results_folder *r = m->r;
    char value[1024], label[REPORT_JOB_LABEL_LEN];
    double total;
    struct job_time *jobs = jobs_by_time(m, &total, e);
    if (!jobs)
        return e->code;
    job_label_of(r, jobs[0].row, label, sizeof label);
    snprintf(value, sizeof value, "%s takes %.1f %% of the kernels' GPU time", label,
             total > 0 ? 100.0 * jobs[0].ms / total : NAN);
    free(jobs);
    fputs("found\tfrom the profile's jobs (a kernel at its NVTX path and ordinal)\n", f);
    report_put_pair(f, "busiest", value);
    double repeat = NAN;
    if (results_environment_number(r, "repeat", &repeat, e))
        return e->code;
    snprintf(value, sizeof value, "%.3f ms in all, %.3f ms per run of the program (%s runs)", total,
             total / (isnan(repeat) || repeat < 1 ? 1 : repeat), report_environment_or(r, "repeat", "?"));
    report_put_pair(f, "kernel time", value);
    snprintf(value, sizeof value, "%s launches per run, %d jobs; %d jobs profiled with hardware metrics (%s), %d timed",
             report_environment_or(r, "kernel_launches", "?"), r->summary.rows, count_status(r, PROGRAM_STATUS_PROFILED),
             report_environment_or(r, "metric_groups", "none"), count_status(r, PROGRAM_STATUS_TIMED));
    report_put_pair(f, "launches", value);
    fputs("recorded\tfrom environment.csv\n", f);
    report_put_pair(f, "Program", report_environment_or(r, "command_line", "unknown"));
    report_put_pair(f, "GPU", report_environment_or(r, "gpu_name", "unknown"));
    report_put_pair(f, "Date (UTC)", report_environment_or(r, "time_utc", "unknown"));
    report_put_pair(f, "memscope", report_environment_or(r, "git_commit", "unknown"));
    report_put_pair(f, "Results", r->dir);
    return 0;
}

int report_write_program_title(const struct report_model *m, struct page_output *out, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    report_put_variable(out->variables, "title_heading", "memscope: the kernels of a CUDA program");
    FILE *f = report_open(out->dir, "title.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    return write_title_rows(f, m, e) ? (fclose(f), e->code) : report_close(f, path, e);
}

/* ---- Kernels by GPU time ---- */

/* The job's kernel (shortened), NVTX path and ordinal ("#K"), each "-" where the name does not say. */
static void job_cells(const struct results_folder *r, int row, char *kernel, char *path, char *ordinal, size_t size)
{
    const char *job = csv_table_text(&r->summary, row, r->col_variant);
    const char *demangled = summary_text(r, row, SUMMARY_METRICS_KERNEL);
    struct job_parts parts;
    if (job_name_split(job, demangled, &parts) != 0) {
        report_job_label(job, demangled, kernel, size);
        snprintf(path, size, "-");
        snprintf(ordinal, size, "-");
        return;
    }
    report_kernel_label(demangled, kernel, size);
    snprintf(path, size, "%.*s", (int)(parts.path_len ? parts.path_len : 6), parts.path_len ? parts.path : "(none)");
    snprintf(ordinal, size, "#%ld", parts.ordinal);
}

/* A job's row, and below it the evidence of its limiter where it was profiled; its tensor work's type and TFLOP/s
 * where it ran tensor operations ("-" where it ran none, or was only timed). */
static int kernel_rows(FILE *f, const struct report_model *m, const struct job_time *job, int rank, double total,
                       struct error *e)
{
    const struct results_folder *r = m->r;
    const char *name = csv_table_text(&r->summary, job->row, r->col_variant);
    char kernel[REPORT_JOB_LABEL_LEN], path[REPORT_JOB_LABEL_LEN], ordinal[REPORT_JOB_LABEL_LEN], cell[4][32];
    const int kept_back = strcmp(csv_table_text(&r->summary, job->row, r->col_status), PROGRAM_STATUS_NOT_REPLAYED) == 0;
    struct diagnosis d = {"timed only", "", DIAGNOSIS_NOT_COLLECTED};
    if (kept_back) /* a collective: its reason is in launches.csv's not_replayed (docs/profile.md) */
        d = (struct diagnosis){"not replayed", "timed only: a selected collective is never replayed for metrics",
                               DIAGNOSIS_NOT_COLLECTED};
    struct tensor_work tensor = {.type = -1};
    if (report_variant_index(m, name) >= 0 &&
        (report_diagnose(m, name, r->summary_width[job->row], &d, e) ||
         report_tensor_work(m, name, r->summary_width[job->row], &tensor, e)))
        return e->code;
    job_cells(r, job->row, kernel, path, ordinal, sizeof kernel);
    snprintf(cell[0], sizeof cell[0], "%d", r->summary_samples[job->row]);
    report_format_significant(cell[1], sizeof cell[1], summary_number(m, job->row, SUMMARY_MEDIAN_MS), 4);
    report_format_number(cell[2], sizeof cell[2], total > 0 ? 100.0 * job->ms / total : NAN, "%.1f");
    report_format_tensor(cell[3], sizeof cell[3], &tensor);
    fprintf(f, "%d\t", rank);
    report_put_cell(f, kernel, 0);
    report_put_cell(f, path, 0);
    report_put_cell(f, ordinal, 0);
    for (int c = 0; c < 4; ++c)
        report_put_cell(f, cell[c], 0);
    report_put_cell(f, d.limiter, 1);
    if (*d.evidence) {
        fputc('\t', f);
        report_put_cell(f, d.evidence, 1);
    }
    return 0;
}

static int kernels_page(const struct report_model *m, const struct job_time *jobs, int shown, int page, double total,
                        const char *dir, struct error *e)
{
    char name[64], path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    snprintf(name, sizeof name, "kernels-%d.tsv", page + 1);
    FILE *f = report_open(dir, name, path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("rank\tkernel\tNVTX path\tlaunch\tlaunches\tmedian ms\tshare %\ttensor\tlimiter (evidence below)\n", f);
    int first = page * REPORT_KERNELS_PER_PAGE;
    for (int i = first; i < shown && i < first + REPORT_KERNELS_PER_PAGE && !e->code; ++i)
        kernel_rows(f, m, &jobs[i], i + 1, total, e);
    return e->code ? (fclose(f), e->code) : report_close(f, path, e);
}

/* What the table leaves out, for its caption: "" when it shows every job. */
static void rest_note(FILE *variables, const struct job_time *jobs, int shown, int all, double total)
{
    double rest = 0;
    char note[256] = "";
    for (int i = shown; i < all; ++i)
        rest += jobs[i].ms;
    if (shown < all)
        snprintf(note, sizeof note, "The %d busiest of %d jobs: the other %d take %.1f %% of the GPU time (every job: summary.csv).",
                 shown, all, all - shown, total > 0 ? 100.0 * rest / total : 0.0);
    report_put_variable(variables, "kernels_rest_note", note);
}

/* kernels-N.tsv, REPORT_KERNELS_PER_PAGE jobs a page, the busiest first, at most REPORT_KERNELS_MAX_PAGES pages. */
int report_write_kernels(const struct report_model *m, struct page_output *out, struct error *e)
{
    double total;
    int all = m->r->summary.rows, shown = all;
    if (shown > REPORT_KERNELS_MAX_PAGES * REPORT_KERNELS_PER_PAGE)
        shown = REPORT_KERNELS_MAX_PAGES * REPORT_KERNELS_PER_PAGE;
    int pages = (shown + REPORT_KERNELS_PER_PAGE - 1) / REPORT_KERNELS_PER_PAGE;
    if (report_page_numbered(out, "kernels_page", pages, e))
        return e->code;
    struct job_time *jobs = jobs_by_time(m, &total, e);
    if (!jobs)
        return e->code;
    for (int page = 0; page < pages && !e->code; ++page)
        kernels_page(m, jobs, shown, page, total, out->dir, e);
    rest_note(out->variables, jobs, shown, all, total);
    free(jobs);
    fprintf(out->variables, "kernels_pages = %d\nkernels_table_rows = %d\n", pages, 2 * REPORT_KERNELS_PER_PAGE + 1);
    fprintf(out->variables, "kernels_total_ms = %.6g\n", total);
    return e->code;
}
