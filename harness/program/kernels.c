#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/stats.h"
#include "../results/job_name.h"
#include "../results/schema.h"
#include "autotuning.h"
#include "kernels.h"

int kernel_grouping_parse(const char *text, enum kernel_grouping *g, struct error *e)
{
    static const char *const names[] = {[GROUP_BY_KERNEL] = "kernel", [GROUP_BY_NVTX] = "nvtx",
                                        [GROUP_BY_LAUNCH] = "launch"};
    for (int i = 0; i < 3; ++i)
        if (strcmp(text, names[i]) == 0)
            return *g = (enum kernel_grouping)i, 0;
    return error_set(e, EXIT_USAGE, "--group-by: '%s' is none of kernel (every launch of a kernel together), nvtx "
                                    "(a kernel within its innermost NVTX range) and launch (each launch alone)", text);
}

/* The building's state beside the kernels: the kernel of each summary row, and the part each kernel was last seen
 * in (memscope-profile writes a part's rows together, so a change of part is one process more). */
struct building {
    const struct results_folder *r;
    struct program_kernels *k;
    int *kernel_of_row;
    const char **last_part;
    size_t *last_part_len;
    int kernel_column;
};

static const char *kernel_of(const struct building *b, int row)
{
    const char *kernel = b->kernel_column < 0 ? "" : csv_table_text(&b->r->summary, row, b->kernel_column);
    return *kernel ? kernel : csv_table_text(&b->r->summary, row, b->r->col_variant);
}

/* The innermost NVTX range of the job at row: the last of its path's ranges; "" where its name holds no path. */
static void innermost_range(const struct building *b, int row, const char **range, size_t *len)
{
    const char *label, *rest;
    size_t label_len;
    struct job_parts parts;
    job_name_part(csv_table_text(&b->r->summary, row, b->r->col_variant), &label, &label_len, &rest);
    *range = "";
    *len = 0;
    if (job_name_split(rest, kernel_of(b, row), &parts) != 0 || parts.path_len == 0)
        return;
    const char *last = parts.path;
    for (const char *p = parts.path; p < parts.path + parts.path_len; ++p)
        if (*p == '/')
            last = p + 1;
    *range = last;
    *len = (size_t)(parts.path + parts.path_len - last);
}

/* The row's key (malloc'd) and, by NVTX range, its range (malloc'd too; "" otherwise). */
static int key_of(const struct building *b, enum kernel_grouping g, int row, char **key, char **range)
{
    const char *kernel = kernel_of(b, row), *at = "";
    size_t len = 0;
    if (g == GROUP_BY_NVTX)
        innermost_range(b, row, &at, &len);
    *range = malloc(len + 1);
    if (*range)
        snprintf(*range, len + 1, "%.*s", (int)len, at);
    if (g == GROUP_BY_LAUNCH)
        *key = strdup(csv_table_text(&b->r->summary, row, b->r->col_variant));
    else if (len == 0)
        *key = strdup(kernel);
    else if ((*key = malloc(len + strlen(kernel) + 2)))
        sprintf(*key, "%.*s/%s", (int)len, at, kernel);
    return *key && *range ? 0 : -1;
}

static bool same_part(const struct building *b, int row, const char *part, size_t part_len)
{
    const char *label, *rest;
    size_t label_len;
    job_name_part(csv_table_text(&b->r->summary, row, b->r->col_variant), &label, &label_len, &rest);
    return label_len == part_len && strncmp(label, part, part_len) == 0;
}

static bool has_metrics_or_stalls(const struct results_folder *r, int row)
{
    int top_reason = schema_column_or_none(&r->summary, &summary_csv, SUMMARY_STALL_TOP_REASON);
    return strcmp(csv_table_text(&r->summary, row, r->col_status), PROGRAM_STATUS_PROFILED) == 0 ||
           (top_reason >= 0 && *csv_table_text(&r->summary, row, top_reason));
}

/* Whether the job at row, with metrics or stall samples, stands for its kernel before the one that does: the program's
 * own launch before an autotuner's, then one with hardware metrics before one with stall samples alone (a launch kept
 * back from replay in one process, replayed in another), then the first. */
static bool stands_before(const struct results_folder *r, const struct program_kernel *k, int row, bool autotuning)
{
    if (k->profiled_row < 0 || (k->profiled_in_autotuning && !autotuning))
        return true;
    if (autotuning && !k->profiled_in_autotuning)
        return false;
    return strcmp(csv_table_text(&r->summary, row, r->col_status), PROGRAM_STATUS_PROFILED) == 0 &&
           strcmp(csv_table_text(&r->summary, k->profiled_row, r->col_status), PROGRAM_STATUS_PROFILED) != 0;
}

static int new_kernel(struct building *b, char *key, char *range, int row)
{
    struct program_kernels *k = b->k;
    if (grow_for_one_more((void **)&k->at, k->n, sizeof *k->at) != 0 ||
        grow_for_one_more((void **)&b->last_part, k->n, sizeof *b->last_part) != 0 ||
        grow_for_one_more((void **)&b->last_part_len, k->n, sizeof *b->last_part_len) != 0 ||
        name_index_add(&k->by_key, key, 0, (int)k->n) < -1)
        return -1; /* key and range are still the caller's */
    k->at[k->n] = (struct program_kernel){.key = key, .kernel = kernel_of(b, row), .nvtx_range = range,
                                          .first_row = row, .profiled_row = -1, .found_as = k->n};
    b->last_part[k->n] = NULL;
    b->last_part_len[k->n++] = 0;
    return 0;
}

/* Row row counted in its kernel, a new one where its key is new. */
static int add_job(struct building *b, enum kernel_grouping g, int row)
{
    char *key, *range;
    if (key_of(b, g, row, &key, &range) != 0) {
        free(key);
        free(range);
        return -1;
    }
    int at = name_index_find(&b->k->by_key, key, 0);
    if (at >= 0 || new_kernel(b, key, range, row) != 0) {
        free(key);
        free(range);
        if (at < 0)
            return -1;
    } else {
        at = (int)b->k->n - 1;
    }
    struct program_kernel *kernel = &b->k->at[at];
    const char *label, *rest;
    size_t label_len;
    job_name_part(csv_table_text(&b->r->summary, row, b->r->col_variant), &label, &label_len, &rest);
    if (!b->last_part[at] || label_len != b->last_part_len[at] || strncmp(label, b->last_part[at], label_len) != 0)
        ++kernel->processes;
    b->last_part[at] = label;
    b->last_part_len[at] = label_len;
    ++kernel->jobs;
    bool autotuning = b->k->autotuning_row[row];
    *(autotuning ? &kernel->autotuning_launches : &kernel->launches) += (size_t)b->r->summary_samples[row];
    const char *status = csv_table_text(&b->r->summary, row, b->r->col_status);
    bool in_capture = strcmp(status, PROGRAM_STATUS_KEPT_BACK_IN_CAPTURE) == 0;
    kernel->kept_back |= in_capture || strcmp(status, PROGRAM_STATUS_KEPT_BACK) == 0;
    kernel->kept_in_capture |= in_capture;
    kernel->graph_jobs += strcmp(status, PROGRAM_STATUS_IN_GRAPH) == 0;
    kernel->not_replayed |= strcmp(status, PROGRAM_STATUS_NOT_REPLAYED) == 0;
    kernel->collective = kernel->not_replayed || job_kernel_is_nccl(kernel->kernel);
    if (has_metrics_or_stalls(b->r, row)) {
        kernel->profiled_jobs++;
        if (stands_before(b->r, kernel, row, autotuning)) {
            kernel->profiled_row = row;
            kernel->profiled_in_autotuning = autotuning;
        }
    }
    b->kernel_of_row[row] = at;
    return 0;
}

/* Each sample of samples.csv into its kernel's list, then each kernel's statistics. */
static int gather_samples(struct building *b)
{
    struct program_kernels *k = b->k;
    const struct results_folder *r = b->r;
    size_t *filled = calloc(k->n + 1, sizeof *filled);
    if (!filled)
        return -1;
    for (size_t i = 0; i < k->n; ++i)
        if (!(k->at[i].samples_ms = malloc((k->at[i].launches + 1) * sizeof *k->at[i].samples_ms)) ||
            !(k->at[i].sample_rows = malloc((k->at[i].launches + 1) * sizeof *k->at[i].sample_rows))) {
            free(filled);
            return -1;
        }
    for (int s = 0; s < r->samples.rows; ++s) {
        int row = r->sample_summary_row[s], i = b->kernel_of_row[row];
        if (k->autotuning_row[row]) {
            k->at[i].autotuning_ms += r->sample_ms[s];
        } else if (filled[i] < k->at[i].launches) {
            k->at[i].sample_rows[filled[i]] = row;
            k->at[i].samples_ms[filled[i]++] = r->sample_ms[s];
        }
    }
    for (size_t i = 0; i < k->n; ++i) /* a samples.csv with fewer rows than summary.csv counts: those it has */
        k->at[i].launches = filled[i];
    free(filled);
    return 0;
}

static int describe(struct program_kernel *kernel)
{
    struct sample_stats s;
    kernel->total_ms = 0;
    for (size_t i = 0; i < kernel->launches; ++i)
        kernel->total_ms += kernel->samples_ms[i];
    if (kernel->launches == 0)
        return 0;
    if (stats_compute(kernel->samples_ms, (int)kernel->launches, &s) != 0)
        return -1;
    kernel->mean_ms = s.mean;
    kernel->median_ms = s.median;
    kernel->min_ms = s.min;
    kernel->max_ms = s.max;
    kernel->stdev_ms = s.stdev;
    return 0;
}

/* The busiest first; a kernel only an autotuner launched after every kernel of the program's. */
static int by_total(const void *a, const void *b)
{
    const struct program_kernel *x = a, *y = b;
    if ((x->launches == 0) != (y->launches == 0))
        return x->launches == 0 ? 1 : -1;
    if (x->total_ms != y->total_ms)
        return x->total_ms < y->total_ms ? 1 : -1;
    return x->first_row - y->first_row;
}

/* Sorted busiest first, and the index and each row's kernel made again for the kernels' new places. */
static int rank(struct program_kernels *k, int rows)
{
    k->total_ms = k->autotuning_ms = 0;
    k->autotuning_launches = k->with_launches = 0;
    for (size_t i = 0; i < k->n; ++i) {
        if (describe(&k->at[i]) != 0)
            return -1;
        k->total_ms += k->at[i].total_ms;
        k->autotuning_launches += k->at[i].autotuning_launches;
        k->autotuning_ms += k->at[i].autotuning_ms;
        k->with_launches += k->at[i].launches > 0;
    }
    qsort(k->at, k->n, sizeof *k->at, by_total);
    int *now_at = malloc((k->n + 1) * sizeof *now_at);
    if (!now_at)
        return -1;
    for (size_t i = 0; i < k->n; ++i)
        now_at[k->at[i].found_as] = (int)i;
    for (int row = 0; row < rows; ++row)
        k->kernel_of_row[row] = now_at[k->kernel_of_row[row]];
    free(now_at);
    name_index_free(&k->by_key);
    if (name_index_init(&k->by_key, k->n) != 0)
        return -1;
    for (size_t i = 0; i < k->n; ++i) {
        k->at[i].share_pct = k->total_ms > 0 ? 100 * k->at[i].total_ms / k->total_ms : 0;
        if (name_index_add(&k->by_key, k->at[i].key, 0, (int)i) < -1)
            return -1;
    }
    return 0;
}

/* Each part's rows are its launches in the order it made them (memscope-profile writes a part's rows together):
 * the autotuner's among them, part by part. */
static int mark_autotuning(struct building *b)
{
    int rows = b->r->summary.rows;
    const char **kernels = malloc(((size_t)rows + 1) * sizeof *kernels);
    if (!kernels || !(b->k->autotuning_row = calloc((size_t)rows + 1, sizeof *b->k->autotuning_row)))
        return free(kernels), -1;
    int failed = 0;
    for (int first = 0, row = 0; row < rows && !failed; first = row) {
        const char *part, *rest;
        size_t part_len;
        job_name_part(csv_table_text(&b->r->summary, first, b->r->col_variant), &part, &part_len, &rest);
        for (; row < rows && same_part(b, row, part, part_len); ++row)
            kernels[row] = kernel_of(b, row);
        failed = autotuning_mark(kernels + first, (size_t)(row - first), b->k->autotuning_row + first);
    }
    free(kernels);
    return failed;
}

/* The length of job's name without its ordinal (" #K"). */
static size_t without_ordinal(const char *job)
{
    const char *mark = strrchr(job, '#');
    return mark && mark > job + 1 ? (size_t)(mark - 1 - job) : strlen(job);
}

/* Each program launch's ordinal among the program's launches of its kernel at its part and path, in row order. */
static int number_program_launches(const struct results_folder *r, struct program_kernels *k)
{
    int rows = r->summary.rows, failed = 0;
    char **prefix = calloc((size_t)rows + 1, sizeof *prefix);
    int *count = calloc((size_t)rows + 1, sizeof *count);
    struct name_index seen;
    k->program_ordinal = malloc(((size_t)rows + 1) * sizeof *k->program_ordinal);
    if (!prefix || !count || !k->program_ordinal || name_index_init(&seen, (size_t)rows) != 0) {
        free(prefix);
        free(count);
        return -1;
    }
    for (int row = 0; row < rows && !failed; ++row) {
        const char *job = csv_table_text(&r->summary, row, r->col_variant);
        k->program_ordinal[row] = -1;
        if (k->autotuning_row[row])
            continue;
        if (!(prefix[row] = strndup(job, without_ordinal(job)))) {
            failed = 1;
            break;
        }
        int first = name_index_add(&seen, prefix[row], 0, row);
        failed = first < -1;
        if (!failed)
            k->program_ordinal[row] = count[first]++;
    }
    for (int row = 0; row < rows; ++row)
        free(prefix[row]);
    free(prefix);
    free(count);
    name_index_free(&seen);
    return failed ? -1 : 0;
}

static bool any(const bool *flags, int n)
{
    for (int i = 0; i < n; ++i)
        if (flags[i])
            return true;
    return false;
}

int program_kernels_build(const struct results_folder *r, enum kernel_grouping g, struct program_kernels *k,
                          struct error *e)
{
    *k = (struct program_kernels){.grouping = g};
    struct building b = {r, k, calloc((size_t)r->summary.rows + 1, sizeof *b.kernel_of_row), NULL, NULL,
                         schema_column_or_none(&r->summary, &summary_csv, SUMMARY_METRICS_KERNEL)};
    k->kernel_of_row = b.kernel_of_row;
    int failed = !b.kernel_of_row || name_index_init(&k->by_key, 64) != 0 || mark_autotuning(&b) != 0 ||
                 (any(k->autotuning_row, r->summary.rows) && number_program_launches(r, k) != 0);
    for (int row = 0; row < r->summary.rows && !failed; ++row)
        failed = add_job(&b, g, row) != 0;
    failed = failed || gather_samples(&b) != 0 || rank(k, r->summary.rows) != 0;
    free(b.last_part);
    free(b.last_part_len);
    if (failed) {
        program_kernels_free(k);
        return error_set(e, EXIT_RUNTIME, "out of memory for the kernels of %s", r->dir);
    }
    return 0;
}

void program_kernels_free(struct program_kernels *k)
{
    for (size_t i = 0; i < k->n; ++i) {
        free(k->at[i].key);
        free(k->at[i].nvtx_range);
        free(k->at[i].samples_ms);
        free(k->at[i].sample_rows);
    }
    free(k->at);
    free(k->kernel_of_row);
    free(k->autotuning_row);
    free(k->program_ordinal);
    name_index_free(&k->by_key);
    *k = (struct program_kernels){0};
}

const struct program_kernel *program_kernels_find(const struct program_kernels *k, const char *key)
{
    int at = name_index_find(&k->by_key, key, 0);
    return at < 0 ? NULL : &k->at[at];
}

const char *program_kernels_launch_name(const struct program_kernels *k, const struct results_folder *r, int row,
                                        char *out, size_t size)
{
    const char *job = csv_table_text(&r->summary, row, r->col_variant);
    if (!k->program_ordinal || k->program_ordinal[row] < 0)
        return job;
    snprintf(out, size, "%.*s #%d", (int)without_ordinal(job), job, k->program_ordinal[row]);
    return out;
}

const char *program_kernel_status(const struct results_folder *r, const struct program_kernel *k)
{
    return csv_table_text(&r->summary, k->profiled_row >= 0 ? k->profiled_row : k->first_row, r->col_status);
}
