#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/stats.h"
#include "../csv/name_index.h"
#include "../csv/reader.h"
#include "../profile/profile_summary.h"
#include "../program/line_findings.h"
#include "../results/folder_reader.h"
#include "../results/job_name.h"
#include "../results/launches_csv.h"
#include "../results/schema.h"
#include "../results/metrics_csv.h"
#include "../results/stalls_csv.h"
#include "merge.h"
#include "parts.h"
#include "source_run.h"
#include "summary.h"

#define MAX_STALL_REASONS 64

/* A job's stall samples per reason, summed over its lines (the stall sampling's run). */
struct stall_tally {
    const char *reason[MAX_STALL_REASONS]; /* point into the run's stalls.csv */
    double samples[MAX_STALL_REASONS];
    int n;
};

struct job {
    char *name, *kernel; /* the key, with its part where the profile has several (job_name.h) */
    double registers, static_smem, dynamic_smem, threads_per_block;
    double *samples_ms;
    int n_samples;
    struct profile *profile; /* NULL: not profiled (a profile is some 11 KB: most of a program's jobs have none) */
    const char *timed_status; /* its status where it has no hardware metrics (timed_status_of) */
    struct stall_tally stalls;
    struct finding_lines *lines; /* a profiled job's lines as its findings name them (none without the source run) */
    struct exact_shared exact;   /* the shared wavefronts its lines count exactly (NAN: none) */
};

struct jobs {
    struct job *rows;
    size_t n;
    struct name_index by_name; /* each job's row: a training script's profile holds 100,000 of them */
    struct csv_table stall_runs[MERGE_MAX_PARTS]; /* stay open: the tallies' reasons point into them */
    size_t n_stall_runs;
    struct part_names parts;   /* of the run being read */
    struct part_pairing pairing; /* a later run's parts as the first run's */
    struct csv_table lines;    /* the folder's lines.csv, from the source run: the findings' lines */
    int has_lines;
    struct csv merged_metrics; /* a multi-process profile's metrics.csv, every part's rows with the part in the key */
};

void profile_run_folder(char *dir, size_t len, const char *folder, int run)
{
    if (run == 1)
        snprintf(dir, len, "%s", folder);
    else
        snprintf(dir, len, "%s/run-%d", folder, run);
}

static struct job *find_job(struct jobs *j, const char *name)
{
    int row = name_index_find(&j->by_name, name, 0);
    return row < 0 ? NULL : &j->rows[row];
}

/* -1 in launches.csv: the driver did not say. */
static double known(const struct csv_table *t, int row, int column, struct error *e)
{
    double value = NAN;
    csv_table_real(t, row, column, &value, e);
    return value < 0 ? NAN : value;
}

/* A job's status without hardware metrics, from its launch's row: why it was not replayed (launches.csv's
 * not_replayed, "" for none), else whether a CUDA graph ran it. */
static const char *timed_status_of(const char *not_replayed, bool in_graph)
{
    if (not_replayed_is_collective(not_replayed))
        return PROGRAM_STATUS_NOT_REPLAYED;
    if (strcmp(not_replayed, NOT_REPLAYED_CAPTURING) == 0)
        return PROGRAM_STATUS_KEPT_BACK_IN_CAPTURE;
    if (not_replayed_is_kept_back(not_replayed))
        return PROGRAM_STATUS_KEPT_BACK;
    return in_graph ? PROGRAM_STATUS_IN_GRAPH : PROGRAM_STATUS_TIMED;
}
static int new_job(struct jobs *j, const struct csv_table *t, int row, const int *col, const char *name,
                   struct error *e)
{
    if (grow_for_one_more((void **)&j->rows, j->n, sizeof *j->rows) != 0)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    struct job *job = &j->rows[j->n++];
    *job = (struct job){.name = strdup(name), .kernel = strdup(csv_table_text(t, row, col[LAUNCHES_KERNEL]))};
    if (!job->name || !job->kernel || name_index_add(&j->by_name, job->name, 0, (int)(j->n - 1)) < -1)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    job->registers = known(t, row, col[LAUNCHES_REGISTERS_PER_THREAD], e);
    job->static_smem = known(t, row, col[LAUNCHES_STATIC_SMEM_BYTES], e);
    job->dynamic_smem = known(t, row, col[LAUNCHES_DYNAMIC_SMEM_BYTES], e);
    job->threads_per_block = known(t, row, col[LAUNCHES_BLOCK_X], e) * known(t, row, col[LAUNCHES_BLOCK_Y], e) *
                             known(t, row, col[LAUNCHES_BLOCK_Z], e);
    const char *why = col[LAUNCHES_NOT_REPLAYED] >= 0 ? csv_table_text(t, row, col[LAUNCHES_NOT_REPLAYED]) : "";
    bool in_graph = col[LAUNCHES_GRAPH] >= 0 && strcmp(csv_table_text(t, row, col[LAUNCHES_GRAPH]), "0") != 0;
    job->timed_status = timed_status_of(why, in_graph);
    return e->code;
}

static int add_sample(struct job *job, double ms, struct error *e)
{
    if (grow_for_one_more((void **)&job->samples_ms, (size_t)job->n_samples, sizeof *job->samples_ms) != 0)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    job->samples_ms[job->n_samples++] = ms;
    return 0;
}

/* Every launch of one part of one run (dir): a sample of its job. The jobs are the first run's; a later run's launch
 * that the first run did not make (the program took another path) is counted in *unmatched. */
static int read_run(struct jobs *j, const char *dir, const char *label, int run, size_t *unmatched, struct error *e)
{
    int col[LAUNCHES_COLUMNS], present;
    char name[JOB_NAME_LEN + MERGE_PART_NAME_LEN];
    struct csv_table t;
    if (results_read_optional(dir, &launches_csv, &t, &present, e))
        return e->code;
    if (!present)
        return error_set(e, EXIT_RUNTIME, "%s/%s is missing, though the part is marked complete", dir,
                         launches_csv.file);
    for (int id = 0; id < LAUNCHES_COLUMNS && !e->code; ++id)
        if (id >= LAUNCHES_NOT_REPLAYED) /* not_replayed since issue 41, start_ns since issue 48, graph 2026-11-30 */
            col[id] = schema_column_or_none(&t, &launches_csv, id);
        else
            schema_column(&t, &launches_csv, id, &col[id], e);
    for (int row = 0; row < t.rows && !e->code; ++row) {
        double duration_ns;
        const char *key = merge_job_key(label, csv_table_text(&t, row, col[LAUNCHES_JOB]), name, sizeof name);
        struct job *job = find_job(j, key);
        if (!job && run > 1) {
            ++*unmatched;
            continue;
        }
        if (!job && new_job(j, &t, row, col, key, e) == 0)
            job = &j->rows[j->n - 1];
        if (!e->code && csv_table_required_real(&t, row, col[LAUNCHES_DURATION_NS], &duration_ns, e) == 0 &&
            duration_ns > 0) /* 0: a launch CUPTI could not replay, whose duration nothing measured */
            add_sample(job, duration_ns / 1e6, e);
    }
    csv_table_free(&t);
    return e->code;
}

/* A part's metrics.csv row into the folder's, keyed with its part. */
static void merge_metric_row(struct jobs *j, const struct csv_table *t, int row, const char *key, int variant,
                             int kernel, int metric, int value, int unit, struct error *e)
{
    double number = NAN;
    (void)variant;
    if (csv_table_real(t, row, value, &number, e) == 0)
        metrics_csv_row(&j->merged_metrics,
                        &(struct metric_row){key, PROGRAM_PRECISION, PRODUCT_SHAPE_NONE, csv_table_text(t, row, kernel),
                                             csv_table_text(t, row, metric), number, csv_table_text(t, row, unit)});
}

/* The collected metrics of each profiled job back into its profile; the derived ones are made again from them. */
static int read_metrics(struct jobs *j, const char *folder, const char *label, struct error *e)
{
    struct csv_table t;
    int present, variant, kernel, metric, value, unit;
    char key[JOB_NAME_LEN + MERGE_PART_NAME_LEN];
    if (results_read_optional(folder, &metrics_csv, &t, &present, e) || !present)
        return e->code;
    if (schema_column(&t, &metrics_csv, METRICS_VARIANT, &variant, e) ||
        schema_column(&t, &metrics_csv, METRICS_KERNEL, &kernel, e) ||
        schema_column(&t, &metrics_csv, METRICS_METRIC, &metric, e) ||
        schema_column(&t, &metrics_csv, METRICS_VALUE, &value, e) ||
        schema_column(&t, &metrics_csv, METRICS_UNIT, &unit, e)) {
        csv_table_free(&t);
        return e->code;
    }
    for (int row = 0; row < t.rows && !e->code; ++row) {
        const char *name = csv_table_text(&t, row, metric);
        struct job *job = find_job(j, merge_job_key(label, csv_table_text(&t, row, variant), key, sizeof key));
        if (*label)
            merge_metric_row(j, &t, row, key, variant, kernel, metric, value, unit, e);
        if (!job || !strstr(name, "__")) /* a derived metric: no Perfworks name holds "__" but the collected */
            continue;
        if (!job->profile && !(job->profile = calloc(1, sizeof *job->profile))) {
            error_set(e, EXIT_RUNTIME, "out of memory");
            break;
        }
        struct profile *p = job->profile;
        if (p->n_metrics == MAX_METRICS) {
            error_set(e, EXIT_USAGE, "%s:%d: more than %d metrics for one job", t.path, t.line[row], MAX_METRICS);
            break;
        }
        p->n_kernels = 1;
        snprintf(p->kernels[0].kernel, sizeof p->kernels[0].kernel, "%s", csv_table_text(&t, row, kernel));
        p->names[p->n_metrics] = strdup(name);
        snprintf(p->units[p->n_metrics], sizeof p->units[0], "%s", csv_table_text(&t, row, unit));
        if (!p->names[p->n_metrics])
            error_set(e, EXIT_RUNTIME, "out of memory");
        else
            csv_table_real(&t, row, value, &p->kernels[0].values[p->n_metrics++], e); /* empty: no finite value */
    }
    csv_table_free(&t);
    return e->code;
}

static int tally(struct stall_tally *t, const char *reason, double samples, struct error *e)
{
    int r = 0;
    while (r < t->n && strcmp(t->reason[r], reason) != 0)
        ++r;
    if (r == MAX_STALL_REASONS)
        return error_set(e, EXIT_USAGE, "more than %d stall reasons for one job", MAX_STALL_REASONS);
    if (r == t->n)
        t->reason[t->n++] = reason;
    t->samples[r] += samples;
    return 0;
}

/* One row of the stall run's stalls.csv into the folder's, as it is (a program's job: no product's shape). */
static void copy_stall_row(struct csv *c, const struct csv_table *t, int row, const int *col, const char *job,
                           double samples, struct error *e)
{
    int line = 0;
    if (csv_table_int(t, row, col[STALLS_LINE], &line, e))
        return;
    stalls_csv_row(c, &(struct stall_row){job, csv_table_text(t, row, col[STALLS_PRECISION]), PRODUCT_SHAPE_NONE,
                                          csv_table_text(t, row, col[STALLS_KERNEL]),
                                          csv_table_text(t, row, col[STALLS_FILE]), line,
                                          csv_table_text(t, row, col[STALLS_SOURCE]),
                                          csv_table_text(t, row, col[STALLS_REASON]), (uint64_t)samples});
}

/* One part of the stall sampling's run (dir): its rows of the first run's jobs go into the folder's stalls.csv (c),
 * keyed with the part, and into each job's tally; a row of a launch the first run did not make is counted in
 * *unmatched. */
static int read_stalls(struct jobs *j, const char *dir, const char *label, struct csv *c, size_t *unmatched,
                       struct error *e)
{
    int col[STALLS_COLUMNS], present;
    char key[JOB_NAME_LEN + MERGE_PART_NAME_LEN];
    struct csv_table *t = &j->stall_runs[j->n_stall_runs];
    if (results_read_optional(dir, &stalls_csv, t, &present, e))
        return e->code;
    if (!present)
        return error_set(e, EXIT_RUNTIME, "%s/%s is missing, though the part is marked complete", dir,
                         stalls_csv.file);
    j->n_stall_runs++;
    if (schema_columns_before(t, &stalls_csv, STALLS_ROWS, col, e)) /* a program's job has no product's shape */
        return e->code;
    for (int row = 0; row < t->rows && !e->code; ++row) {
        double samples;
        const char *name = merge_job_key(label, csv_table_text(t, row, col[STALLS_VARIANT]), key, sizeof key);
        struct job *job = find_job(j, name);
        if (!job) {
            ++*unmatched;
            continue;
        }
        if (csv_table_required_real(t, row, col[STALLS_SAMPLES], &samples, e) == 0 &&
            tally(&job->stalls, csv_table_text(t, row, col[STALLS_REASON]), samples, e) == 0)
            copy_stall_row(c, t, row, col, job->name, samples, e);
    }
    return e->code;
}

/* Every part of the stall sampling's run into the folder's stalls.csv. */
static int read_stall_run(struct jobs *j, const char *folder, size_t *unmatched, struct error *e)
{
    char dir[PATH_LEN + 32], part[PATH_LEN + 32 + MERGE_PART_NAME_LEN];
    struct csv c;
    snprintf(dir, sizeof dir, "%s/%s", folder, PROFILE_STALL_RUN);
    if (parts_open_run(dir, &j->parts, &j->pairing, e) || stalls_csv_create(&c, folder, e))
        return e->code;
    for (size_t i = 0; i < j->parts.n && !e->code; ++i) {
        snprintf(part, sizeof part, "%s/%s", dir, j->parts.at[i].dir);
        read_stalls(j, part, part_pairing_label(&j->pairing, &j->parts, i), &c, unmatched, e);
    }
    struct error closing = {0};
    csv_close(&c, &closing);
    return e->code ? e->code : closing.code ? (*e = closing).code : 0;
}

/* What summary.csv shows of a job's samples: how many, and its top reason with its share. */
static void fill_stalls(const struct job *job, struct summary_row *row)
{
    const struct stall_tally *t = &job->stalls;
    int top = -1;
    double total = 0;
    for (int r = 0; r < t->n; ++r) {
        total += t->samples[r];
        if (top < 0 || t->samples[r] > t->samples[top])
            top = r;
    }
    if (top < 0 || total <= 0)
        return;
    row->stall_samples = total;
    row->stall_top_reason = t->reason[top];
    row->stall_top_pct = 100.0 * t->samples[top] / total;
}

static void fill_timing(const struct job *job, struct summary_row *row)
{
    struct sample_stats s;
    row->samples = job->n_samples;
    if (job->n_samples == 0 || stats_compute(job->samples_ms, job->n_samples, &s) != 0)
        return;
    row->min_ms = s.min;
    row->q1_ms = s.q1;
    row->median_ms = s.median;
    row->q3_ms = s.q3;
    row->max_ms = s.max;
    row->mean_ms = s.mean;
    row->stdev_ms = s.stdev;
    row->ci95_rel = s.ci95_rel;
}

/* Each profiled job's lines as its findings name them, and the shared wavefronts they count exactly (NAN: the
 * source group did not run, or did not reach the job's launch), read once: lines.csv is scanned for each. */
static int read_job_lines(struct jobs *j, struct error *e)
{
    for (size_t i = 0; i < j->n && !e->code; ++i) {
        struct job *job = &j->rows[i];
        if (!job->profile)
            continue;
        if (!(job->lines = malloc(sizeof *job->lines)))
            return error_set(e, EXIT_RUNTIME, "out of memory");
        if (finding_lines_read(j->has_lines ? &j->lines : NULL, job->name, PRODUCT_SHAPE_NONE, job->lines,
                               &job->exact.wavefronts, e) == 0)
            job->exact.excess_wavefronts = job->lines->shared_ld.total + job->lines->shared_st.total;
    }
    return e->code;
}

/* The job's findings: its metrics, its lines where the source group counted them, its launch as launches.csv gives
 * it, and the SM's limits where the profile has its GPU's environment (the roofline group's memscope
 * --measure-ceilings). */
static int job_findings(const struct job *job, const struct environment *roofs, struct finding *out)
{
    struct launch_facts launch = {job->registers, job->static_smem + job->dynamic_smem, job->threads_per_block};
    return profile_findings(job->profile, 0, &job->exact, roofs, &launch, job->lines, out, FINDING_MAX);
}

static void fill_metrics(const struct job *job, const struct environment *roofs, struct summary_row *row)
{
    struct diagnosis d;
    struct finding f[FINDING_MAX];
    if (!job->profile)
        return;
    struct tensor_work w;
    profile_headline(job->profile, 0, row->headline);
    profile_tensor_work(job->profile, 0, roofs, &w);
    row->tensor_type = w.type;
    row->tensor_flop = w.flop;
    row->tensor_tflops = w.tflops;
    row->tensor_roof_pct = w.roof_pct;
    profile_diagnose(job->profile, 0, &job->exact, roofs, &d);
    snprintf(row->limiter, sizeof row->limiter, "%s", d.limiter);
    snprintf(row->evidence, sizeof row->evidence, "%s", d.evidence);
    profile_first_finding(f, job_findings(job, roofs, f), row);
}

static int write_findings(const struct jobs *j, const char *folder, const struct environment *roofs, struct error *e)
{
    struct csv c;
    if (findings_csv_create(&c, folder, e))
        return e->code;
    for (size_t i = 0; i < j->n; ++i) {
        const struct job *job = &j->rows[i];
        struct finding f[FINDING_MAX];
        if (job->profile)
            profile_write_findings(&c, job->name, PROGRAM_PRECISION, PRODUCT_SHAPE_NONE, job->kernel, f,
                                   job_findings(job, roofs, f));
    }
    return csv_close(&c, e);
}

static int write_summary(const struct jobs *j, const char *folder, const struct environment *roofs, struct error *e)
{
    struct csv c;
    if (summary_csv_create(&c, folder, e))
        return e->code;
    for (size_t i = 0; i < j->n; ++i) {
        const struct job *job = &j->rows[i];
        struct summary_row row;
        summary_row_init(&row);
        row.variant = job->name;
        row.precision = PROGRAM_PRECISION;
        row.status = job->profile ? PROGRAM_STATUS_PROFILED : job->timed_status;
        row.metrics_kernel = job->kernel;
        row.registers_per_thread = job->registers;
        row.static_smem_bytes = job->static_smem;
        row.dynamic_smem_bytes = job->dynamic_smem;
        row.threads_per_block = job->threads_per_block;
        fill_timing(job, &row);
        fill_metrics(job, roofs, &row);
        fill_stalls(job, &row);
        summary_csv_row(&c, &row);
    }
    return csv_close(&c, e);
}

static int write_samples(const struct jobs *j, const char *folder, struct error *e)
{
    struct csv c;
    if (samples_csv_create(&c, folder, e))
        return e->code;
    for (size_t i = 0; i < j->n; ++i)
        for (int s = 0; s < j->rows[i].n_samples; ++s)
            samples_csv_row(&c, &(struct sample_row){j->rows[i].name, PROGRAM_PRECISION, PRODUCT_SHAPE_NONE, s + 1,
                                                     j->rows[i].samples_ms[s]});
    return csv_close(&c, e);
}

static void free_jobs(struct jobs *j)
{
    for (size_t i = 0; i < j->n; ++i) {
        free(j->rows[i].samples_ms);
        free(j->rows[i].name);
        free(j->rows[i].kernel);
        for (int m = 0; j->rows[i].profile && m < j->rows[i].profile->n_metrics; ++m)
            free((char *)j->rows[i].profile->names[m]);
        free(j->rows[i].profile);
        free(j->rows[i].lines);
    }
    free(j->rows);
    name_index_free(&j->by_name);
    for (size_t i = 0; i < j->n_stall_runs; ++i)
        csv_table_free(&j->stall_runs[i]);
    if (j->has_lines)
        csv_table_free(&j->lines);
}

/* Every part of one run, its launches samples of their jobs; the first run's also gives the jobs' metrics. */
static int read_parts(struct jobs *j, const char *folder, int run, const char *command_line, size_t *unmatched,
                      struct error *e)
{
    char dir[PATH_LEN + 16], part[PATH_LEN + 16 + MERGE_PART_NAME_LEN];
    profile_run_folder(dir, sizeof dir, folder, run);
    if (parts_open_run(dir, &j->parts, run > 1 ? &j->pairing : NULL, e))
        return e->code;
    bool merged = j->parts.n > 1 || j->parts.at[0].dir[0];
    if (run == 1 && merged && metrics_csv_create(&j->merged_metrics, folder, e))
        return e->code;
    for (size_t i = 0; i < j->parts.n && !e->code; ++i) {
        const char *label = run > 1 ? part_pairing_label(&j->pairing, &j->parts, i) : j->parts.at[i].label;
        snprintf(part, sizeof part, "%s/%s", dir, j->parts.at[i].dir);
        if (read_run(j, part, label, run, unmatched, e) == 0 && run == 1)
            read_metrics(j, part, label, e);
    }
    if (run == 1)
        part_pairing_init(&j->pairing, dir, &j->parts, &j->by_name);
    if (run == 1 && merged) {
        struct error closing = {0};
        csv_close(&j->merged_metrics, &closing);
        if (!e->code && closing.code)
            *e = closing;
        if (!e->code)
            merge_environment(folder, &j->parts, command_line, e);
    } else if (run == 1 && !e->code) {
        merge_name_command(folder, command_line, e);
    }
    return e->code;
}

/* The source run's rows into the folder's lines.csv and instructions.csv, then lines.csv read back for the
 * findings. */
static int read_source_run(struct jobs *j, const char *folder, struct profile_unmatched *unmatched, struct error *e)
{
    struct source_run_outcome out = {0};
    if (source_run_merge(folder, &j->pairing, &out, e) ||
        results_read_optional(folder, &lines_csv, &j->lines, &j->has_lines, e))
        return e->code;
    unmatched->source_rows = out.unmatched;
    unmatched->uncounted = out.failed;
    snprintf(unmatched->first_uncounted, sizeof unmatched->first_uncounted, "%s", out.first_failure);
    return 0;
}

int profile_summary_write(const char *folder, const struct profile_runs *runs, const struct environment *roofs,
                          const char *command_line, struct profile_unmatched *unmatched, struct error *e)
{
    static struct jobs j;
    j = (struct jobs){0};
    *unmatched = (struct profile_unmatched){0};
    if (name_index_init(&j.by_name, 1024) != 0)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    for (int run = 1; run <= runs->timed && !e->code; ++run)
        read_parts(&j, folder, run, command_line, &unmatched->launches, e);
    if (!e->code && (!runs->stalls || read_stall_run(&j, folder, &unmatched->stall_rows, e) == 0) &&
        (!runs->source || read_source_run(&j, folder, unmatched, e) == 0) && read_job_lines(&j, e) == 0 &&
        write_summary(&j, folder, roofs, e) == 0 && write_samples(&j, folder, e) == 0)
        write_findings(&j, folder, roofs, e);
    free_jobs(&j);
    return e->code;
}
