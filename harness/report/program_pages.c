/*
 * A program's profile (memscope-profile) on its own first pages, read by kernel (program/kernels.h): its title page
 * (the command, the GPU, its launches and kernels, the GPU time they took, the busiest kernel) and its kernels by GPU
 * time (each kernel ranked by its launches' total time, with its launches, share, median and range, and where one of
 * its launches was profiled, that launch's limiter, tensor rate, first finding and evidence).
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

/* The kernels whose status (program_kernel_status: their profiled job's, else their first's) is that one. */
static int count_status(const struct program_kernels *k, const struct results_folder *r, const char *status)
{
    int n = 0;
    for (size_t i = 0; i < k->with_launches; ++i)
        n += strcmp(program_kernel_status(r, &k->at[i]), status) == 0;
    return n;
}

/* Every launch of it a CUDA graph ran (a collective's row says what it is instead). */
static bool only_in_graphs(const struct program_kernel *k)
{
    return !k->collective && k->graph_jobs == k->jobs;
}

/* A launch of it was kept back from replay for when it ran, and none has hardware metrics. */
static bool kept_back_alone(const struct results_folder *r, const struct program_kernel *k)
{
    return k->kept_back && (k->profiled_row < 0 || strcmp(program_kernel_status(r, k), PROGRAM_STATUS_PROFILED) != 0);
}

/* How many kernels have no hardware metrics for those reasons: kept back beside a collective, kept back during a
 * capture, launched only inside graphs. */
struct not_replayed_counts {
    int beside_collective, in_capture, in_graphs;
};

static struct not_replayed_counts count_not_replayed(const struct program_kernels *k, const struct results_folder *r)
{
    struct not_replayed_counts n = {0};
    for (size_t i = 0; i < k->with_launches; ++i) {
        const struct program_kernel *x = &k->at[i];
        *(x->kept_in_capture ? &n.in_capture : &n.beside_collective) += kept_back_alone(r, x);
        n.in_graphs += only_in_graphs(x);
    }
    return n;
}

/* Appends "; " (none before the first) and the count and what it counts, where the count is not 0. */
static void append_count(char *value, size_t size, int count, const char *what)
{
    size_t used = strlen(value);
    if (count > 0)
        snprintf(value + used, size - used, "%s%d %s", used ? "; " : "", count, what);
}

/* Of the kernels timed only, those a user would expect profiled, by why they were not; no line where none. */
static void put_not_replayed(FILE *f, const struct program_kernels *k, const struct results_folder *r)
{
    struct not_replayed_counts n = count_not_replayed(k, r);
    char value[256] = "";
    append_count(value, sizeof value, n.beside_collective, "kept back from replay beside a running collective");
    append_count(value, sizeof value, n.in_capture, "kept back from replay during a CUDA graph's capture");
    append_count(value, sizeof value, n.in_graphs, "launched only inside CUDA graphs");
    if (*value)
        report_put_pair(f, "not replayed", value);
}

/* "KERNEL takes N % of the kernels' GPU time (L launches, T ms)" of the kernel at i. */
static void share_of(const struct report_model *m, size_t i, char *value, size_t size)
{
    const struct program_kernel *k = &m->kernels.at[i];
    char name[JOB_LABEL_LEN];
    program_kernel_name(&m->kernels, k, KERNEL_LABEL_MAX, name, sizeof name);
    snprintf(value, size, "%s takes %.1f %% of the kernels' GPU time (%zu launches, %.3f ms)", name,
             m->kernels.total_ms > 0 ? k->share_pct : NAN, k->launches, k->total_ms);
}

/* The busiest kernel; where it is a collective, whose time is mostly waiting, the busiest of the others too. */
static void busiest_rows(FILE *f, const struct report_model *m)
{
    const struct program_kernels *k = &m->kernels;
    char value[1024];
    if (k->with_launches == 0) { /* every launch an autotuner's (a script that only benchmarks) */
        report_put_pair(f, "busiest", "none: the program launched no kernel of its own (autotuning, below)");
        return;
    }
    share_of(m, 0, value, sizeof value);
    report_put_pair(f, "busiest", value);
    if (!k->at[0].collective)
        return;
    for (size_t i = 1; i < k->with_launches; ++i)
        if (!k->at[i].collective) {
            share_of(m, i, value, sizeof value);
            report_put_pair(f, "collectives apart", value);
            return;
        }
}

/* The groups the first run replayed (environment.csv's metric_groups), and those that ran in a run of their own,
 * which leave their own files: stalls (stalls.csv) and source (lines.csv). */
static void put_metric_groups(FILE *f, const struct report_model *m)
{
    char value[512];
    snprintf(value, sizeof value, "%s%s%s", report_environment_or(m->r, "metric_groups", "none"),
             m->has_stalls ? "; stalls, sampled in a run of their own" : "",
             m->has_lines ? "; source, counted in a run of its own" : "");
    report_put_pair(f, "metric groups", value);
}

/* The launches autotuners made to time their candidates (program/autotuning.h), which the kernels and their time
 * leave out: over every run, as the kernel time is. */
static void put_autotuning(FILE *f, const struct report_model *m)
{
    const struct program_kernels *k = &m->kernels;
    char value[512];
    if (k->autotuning_launches == 0)
        return;
    snprintf(value, sizeof value, "%zu launches in %s runs, %.3f ms (%.1f %% of all kernel time; not in the kernel "
             "time above), were autotuners timing candidates after an L2 flush (FillFunctor<int>): kernels.csv's "
             "autotuning_launches; fewer with a warm compile cache", k->autotuning_launches,
             report_environment_or(m->r, "repeat", "?"), k->autotuning_ms,
             100 * k->autotuning_ms / (k->total_ms + k->autotuning_ms));
    report_put_pair(f, "autotuning", value);
}

static int write_title_rows(FILE *f, const struct report_model *m, struct error *e)
{
    const struct results_folder *r = m->r;
    const struct program_kernels *k = &m->kernels;
    char value[1024];
    double repeat = NAN;
    fputs("found\tfrom the profile's kernels (every launch of a kernel, over every process and run)\n", f);
    busiest_rows(f, m);
    if (results_environment_number(r, "repeat", &repeat, e))
        return e->code;
    snprintf(value, sizeof value, "%.3f ms in all, %.3f ms per run of the program (%s runs)", k->total_ms,
             k->total_ms / (isnan(repeat) || repeat < 1 ? 1 : repeat), report_environment_or(r, "repeat", "?"));
    report_put_pair(f, "kernel time", value);
    snprintf(value, sizeof value, "%s launches per run, %zu kernels; %d kernels profiled with hardware metrics, each "
             "by its first launch profiled; the rest timed", report_environment_or(r, "kernel_launches", "?"),
             k->with_launches, count_status(k, r, PROGRAM_STATUS_PROFILED));
    report_put_pair(f, "launches", value);
    put_not_replayed(f, k, r);
    put_autotuning(f, m);
    put_metric_groups(f, m);
    fputs("recorded\tfrom environment.csv\n", f);
    report_put_pair(f, "Program", report_environment_or(r, "command_line", "unknown"));
    report_put_pair(f, "Processes", report_environment_or(r, "parts", "1"));
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
    if (write_title_rows(f, m, e))
        return fclose(f), e->code;
    return report_close(f, path, e) || report_title_layout(out->variables, path, e) ? e->code : 0;
}

/* ---- Kernels by GPU time ---- */

/* The line below a kernel's row, from the kernel's column to the page's edge at the table's 9 points, holds this
 * many characters: longer, it is cut at a word with "…" (summary.csv and findings.csv have it whole). */
#define BELOW_LINE_MAX 150
static void cut_to_line(char *below)
{
    if (strlen(below) <= BELOW_LINE_MAX)
        return;
    char *space = below + BELOW_LINE_MAX - 2;
    while (space > below && *space != ' ')
        --space;
    snprintf(space, BELOW_LINE_MAX + 1 - (size_t)(space - below), " …");
}

/* What the line below a kernel's row says first of the launch that stands for it, where it is not the program's own
 * launch replayed for metrics. */
static const char *whose_launch(const struct results_folder *r, const struct program_kernel *k)
{
    if (k->profiled_in_autotuning) /* an autotuned kernel's first launch is the autotuner's: maybe not its choice */
        return "an autotuner's candidate run: ";
    if (kept_back_alone(r, k)) /* the stall run sampled it */
        return k->kept_in_capture ? "kept back from replay during a CUDA graph's capture (stall samples only): "
                                  : "kept back from replay beside a running collective (stall samples only): ";
    return "";
}

/* Why a kernel kept back, or launched only inside graphs, has no hardware metrics. */
static const char *why_not_replayed(const struct program_kernel *k)
{
    if (!k->kept_back)
        return "launched only inside CUDA graphs, whose kernels memscope does not replay: run it once outside a graph "
               "to profile it";
    if (k->kept_in_capture)
        return "kept back from replay: the program was capturing a CUDA graph at its selected launches, which a "
               "replay's calls would have ended with an error";
    return "kept back from replay: a collective of the program ran on this host at its selected launches, and a "
           "replay would have undone its writes";
}

/* The limiter of the kernel's profiled launch, and what stands on the line below it: its first finding with the
 * finding's estimated gain, then the limiter's evidence. A kernel only timed says why. */
static int diagnose_kernel(const struct report_model *m, const struct program_kernel *k, struct diagnosis *d,
                           struct tensor_work *tensor, char *below, size_t size, struct error *e)
{
    const struct results_folder *r = m->r;
    *d = (struct diagnosis){"timed only", "", DIAGNOSIS_NOT_COLLECTED};
    *tensor = (struct tensor_work){.type = -1};
    *below = '\0';
    if (k->collective && k->profiled_row < 0) { /* a selected one's reason is in launches.csv's not_replayed */
        if (k->not_replayed)
            snprintf(d->limiter, sizeof d->limiter, "not replayed");
        snprintf(below, size, "a collective: its time is mostly waiting for the other ranks%s",
                 k->not_replayed ? "; never replayed for metrics" : "");
        return 0;
    }
    if (k->profiled_row < 0 && (k->kept_back || only_in_graphs(k))) {
        snprintf(d->limiter, sizeof d->limiter, "not replayed");
        snprintf(below, size, "%s", why_not_replayed(k));
        return 0;
    }
    if (k->profiled_row < 0)
        return 0;
    const char *job = csv_table_text(&r->summary, k->profiled_row, r->col_variant);
    if (report_diagnose(m, job, 0, d, e) || report_tensor_work(m, job, 0, tensor, e))
        return e->code;
    struct finding f[FINDING_MAX];
    char unjudged[512];
    int n;
    if (report_findings(m, job, 0, f, FINDING_MAX, &n, unjudged, sizeof unjudged, e))
        return e->code;
    char gain[16];
    report_format_gain(gain, sizeof gain, n > 0 ? f[0].gain_pct : NAN);
    const char *whose = whose_launch(r, k);
    if (n > 0)
        snprintf(below, size, "%sfirst finding %s (est. %s %%)%s%s", whose, f[0].cause, gain,
                 *d->evidence ? "; " : "", d->evidence);
    else
        snprintf(below, size, "%s%s", whose, d->evidence);
    cut_to_line(below);
    return 0;
}

/* A kernel's row, and below it its first finding and evidence where it has them. */
static int kernel_rows(FILE *f, const struct report_model *m, const struct program_kernel *k, int rank,
                       struct error *e)
{
    char name[JOB_LABEL_LEN], cell[6][48], below[512];
    struct diagnosis d;
    struct tensor_work tensor;
    if (diagnose_kernel(m, k, &d, &tensor, below, sizeof below, e))
        return e->code;
    program_kernel_name(&m->kernels, k, KERNEL_LABEL_MAX, name, sizeof name);
    snprintf(cell[0], sizeof cell[0], "%zu", k->launches);
    report_format_significant(cell[1], sizeof cell[1], k->total_ms, 4);
    report_format_number(cell[2], sizeof cell[2], k->share_pct, "%.1f");
    report_format_significant(cell[3], sizeof cell[3], k->median_ms, 3);
    char least[24], most[24];
    report_format_significant(least, sizeof least, k->min_ms, 3);
    report_format_significant(most, sizeof most, k->max_ms, 3);
    snprintf(cell[4], sizeof cell[4], k->launches > 1 ? "%s-%s" : "%s", least, most);
    report_format_tensor(cell[5], sizeof cell[5], &tensor);
    fprintf(f, "%d\t", rank);
    report_put_cell(f, name, 0);
    for (int c = 0; c < 6; ++c)
        report_put_cell(f, cell[c], 0);
    report_put_cell(f, d.limiter, 1);
    if (*below) {
        fputc('\t', f);
        report_put_cell(f, below, 1);
    }
    return 0;
}

static int kernels_page(const struct report_model *m, int shown, int page, const char *dir, struct error *e)
{
    char name[64], path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    snprintf(name, sizeof name, "kernels-%d.tsv", page + 1);
    FILE *f = report_open(dir, name, path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("rank\tkernel\tlaunches\ttotal ms\tshare %\tmedian ms\tleast-most ms\ttensor\tlimiter (finding below)\n", f);
    int first = page * REPORT_KERNELS_PER_PAGE;
    for (int i = first; i < shown && i < first + REPORT_KERNELS_PER_PAGE && !e->code; ++i)
        kernel_rows(f, m, &m->kernels.at[i], i + 1, e);
    return e->code ? (fclose(f), e->code) : report_close(f, path, e);
}

/* What the table leaves out, for its caption: "" when it shows every kernel. */
static void rest_note(FILE *variables, const struct program_kernels *k, int shown)
{
    double rest = 0;
    size_t launches = 0;
    char note[256] = "";
    for (size_t i = (size_t)shown; i < k->with_launches; ++i) {
        rest += k->at[i].total_ms;
        launches += k->at[i].launches;
    }
    if ((size_t)shown < k->with_launches)
        snprintf(note, sizeof note, "The %d busiest of %zu kernels: the other %zu (%zu launches) take %.1f %% of the "
                 "GPU time (every kernel: kernels.csv).", shown, k->with_launches, k->with_launches - (size_t)shown,
                 launches,
                 k->total_ms > 0 ? 100.0 * rest / k->total_ms : 0.0);
    report_put_variable(variables, "kernels_rest_note", note);
}

/* The rules the profile's stored figures cannot judge, as its first profiled kernel has them (every launch of a
 * profile is profiled with one set of metrics, and the SM's facts are the folder's, its first part's), for the
 * caption: "" when it judges them all. */
#define UNJUDGED_COLUMNS 150

static int unjudged_note(const struct report_model *m, FILE *variables, struct error *e)
{
    struct finding f[FINDING_MAX];
    char unjudged[FINDING_MAX * FINDING_CAUSE_LEN] = "", note[sizeof unjudged + 128] = "";
    int n;
    for (size_t i = 0; i < m->kernels.with_launches; ++i)
        if (m->kernels.at[i].profiled_row >= 0) {
            const char *job = csv_table_text(&m->r->summary, m->kernels.at[i].profiled_row, m->r->col_variant);
            if (report_findings(m, job, 0, f, FINDING_MAX, &n, unjudged, sizeof unjudged, e))
                return e->code;
            break;
        }
    if (*unjudged)
        snprintf(note, sizeof note, "Not judged, what they read not stored in this profile (docs/metrics.md): %s.",
                 unjudged);
    report_put_wrapped(variables, "kernels_unjudged_note", note, UNJUDGED_COLUMNS);
    return 0;
}

/* kernels-N.tsv, REPORT_KERNELS_PER_PAGE kernels a page, the busiest first, at most REPORT_KERNELS_MAX_PAGES pages. */
int report_write_kernels(const struct report_model *m, struct page_output *out, struct error *e)
{
    int shown = (int)m->kernels.with_launches;
    if (shown > REPORT_KERNELS_MAX_PAGES * REPORT_KERNELS_PER_PAGE)
        shown = REPORT_KERNELS_MAX_PAGES * REPORT_KERNELS_PER_PAGE;
    int pages = (shown + REPORT_KERNELS_PER_PAGE - 1) / REPORT_KERNELS_PER_PAGE;
    if (report_page_numbered(out, "kernels_page", pages, e))
        return e->code;
    for (int page = 0; page < pages && !e->code; ++page)
        kernels_page(m, shown, page, out->dir, e);
    rest_note(out->variables, &m->kernels, shown);
    if (e->code || unjudged_note(m, out->variables, e))
        return e->code;
    fprintf(out->variables, "kernels_pages = %d\nkernels_table_rows = %d\n", pages, 2 * REPORT_KERNELS_PER_PAGE + 1);
    fprintf(out->variables, "kernels_total_ms = %.6g\n", m->kernels.total_ms);
    fprintf(out->variables, "kernels_grouping = '%s'\n", m->kernels.grouping == GROUP_BY_NVTX      ? "nvtx"
                                                         : m->kernels.grouping == GROUP_BY_LAUNCH ? "launch"
                                                                                          : "kernel");
    return e->code;
}
