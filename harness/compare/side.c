#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/paths.h"
#include "../results/job_name.h"
#include "../results/schema.h"
#include "side.h"

/* What makes two runs' timings comparable. The GPU's serial (uuid) may differ:
 * the same model in two machines is a fair comparison. */
static const char *const matching_fields[] = {
    "gpu_name", "compute_capability", "driver_version", "sm_clock_application_mhz", "memory_clock_application_mhz",
    "power_limit_w",
};

static int is_results_folder(const char *dir)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    struct stat st;
    snprintf(path, sizeof path, "%s/environment.csv", dir);
    return stat(path, &st) == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rounds in name order (round-1, round-2, ...: the order they ran in). */
static int list_rounds(const char *dir, char **names, int *count, struct error *e)
{
    if (results_folder_exists(dir, e))
        return e->code;
    DIR *d = opendir(dir);
    if (!d)
        return error_set(e, EXIT_USAGE, "%s: cannot be read as a results folder", dir);
    struct dirent *entry;
    *count = 0;
    while ((entry = readdir(d)) && !e->code) {
        char path[PATH_IN_FOLDER_LEN];
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        if (entry->d_name[0] == '.' || !is_results_folder(path))
            continue;
        if (*count == COMPARE_MAX_ROUNDS)
            error_set(e, EXIT_USAGE, "%s: more than %d rounds", dir, COMPARE_MAX_ROUNDS);
        else if (!(names[(*count)++] = strdup(path)))
            error_set(e, EXIT_RUNTIME, "out of memory");
    }
    closedir(d);
    if (!e->code && *count == 0)
        error_set(e, EXIT_USAGE, "%s: neither a results folder nor a folder of them (no environment.csv)", dir);
    qsort(names, (size_t)*count, sizeof *names, by_name);
    return e->code;
}

/* A round opened, and a program's read by kernel. */
static int open_round(const char *path, enum kernel_grouping grouping, struct compare_side *side, struct error *e)
{
    struct results_folder *r = &side->round[side->rounds];
    if (results_folder_open(path, r, e))
        return e->code;
    if (results_is_program(r) && program_kernels_build(r, grouping, &side->kernels[side->rounds], e)) {
        results_folder_close(r);
        return e->code;
    }
    side->program = side->program || results_is_program(r);
    ++side->rounds;
    return 0;
}

int compare_side_open(const char *path, enum kernel_grouping grouping, struct compare_side *side, struct error *e)
{
    memset(side, 0, sizeof *side);
    snprintf(side->path, sizeof side->path, "%s", path);
    if (is_results_folder(path))
        return open_round(path, grouping, side, e);
    char *names[COMPARE_MAX_ROUNDS];
    int count = 0;
    list_rounds(path, names, &count, e);
    for (int i = 0; i < count; ++i) {
        if (!e->code)
            open_round(names[i], grouping, side, e);
        free(names[i]);
    }
    if (e->code)
        compare_side_close(side);
    return e->code;
}

void compare_side_close(struct compare_side *side)
{
    for (int i = 0; i < side->rounds; ++i) {
        results_folder_close(&side->round[i]);
        program_kernels_free(&side->kernels[i]);
    }
    side->rounds = 0;
}

static int fields_match(const struct results_folder *a, const struct results_folder *b, int force, struct error *e)
{
    for (size_t i = 0; i < sizeof matching_fields / sizeof matching_fields[0]; ++i) {
        const char *x = results_environment(a, matching_fields[i]), *y = results_environment(b, matching_fields[i]);
        if (strcmp(x ? x : "(not recorded)", y ? y : "(not recorded)") == 0)
            continue;
        if (!force)
            return error_set(e, EXIT_USAGE,
                             "%s differs: '%s' in %s, '%s' in %s (--force compares anyway)", matching_fields[i],
                             x ? x : "(not recorded)", a->dir, y ? y : "(not recorded)", b->dir);
        fprintf(stderr, "memscope-compare: warning: %s differs: '%s' in %s, '%s' in %s\n", matching_fields[i],
                x ? x : "(not recorded)", a->dir, y ? y : "(not recorded)", b->dir);
    }
    return 0;
}

static const char *kind_of(const struct results_folder *r)
{
    return results_is_program(r) ? "a program's profile (memscope-profile)" : "a run of the suite (memscope)";
}

/* A suite's variants and a program's jobs name different things: no pair would match, so --force does not apply. */
static int kinds_match(const struct results_folder *a, const struct results_folder *b, struct error *e)
{
    if (results_is_program(a) == results_is_program(b))
        return 0;
    return error_set(e, EXIT_USAGE, "%s is %s, %s is %s: different kinds of results folder, nothing to compare",
                     a->dir, kind_of(a), b->dir, kind_of(b));
}

/* Two profiles of different commands compare (a program's arguments may change with it), but not silently. */
static void say_other_command(const struct results_folder *a, const struct results_folder *b)
{
    const char *x = results_environment(a, "command_line"), *y = results_environment(b, "command_line");
    if (results_is_program(a) && strcmp(x ? x : "", y ? y : "") != 0)
        fprintf(stderr, "memscope-compare: note: profiles of different commands: '%s' in %s, '%s' in %s\n",
                x ? x : "(not recorded)", a->dir, y ? y : "(not recorded)", b->dir);
}

/* A timing measures its machine too: profiles of one training script a day apart, on other GPUs of one kind, ran
 * the same kernels far apart (docs/regressions.md). Said once, for the first folder on other GPUs than the base's
 * first. */
static void say_other_gpus(const struct results_folder *a, const struct results_folder *b, bool *said)
{
    char x[4096], y[4096];
    results_gpu_uuids(a, x, sizeof x);
    results_gpu_uuids(b, y, sizeof y);
    if (*said || !x[0] || !y[0] || strcmp(x, y) == 0)
        return;
    *said = true;
    fprintf(stderr, "memscope-compare: note: other GPUs of the same kind: %s in %s; %s in %s; a change between "
                    "them may be the machines' (time both sides in one session, or give each side rounds from "
                    "several)\n",
            x, a->dir, y, b->dir);
}

static int rounds_match(const struct results_folder *first, const struct results_folder *other, int force,
                        bool *said_gpus, struct error *e)
{
    if (kinds_match(first, other, e) || fields_match(first, other, force, e))
        return e->code;
    say_other_command(first, other);
    say_other_gpus(first, other, said_gpus);
    return 0;
}

int compare_sides_match(const struct compare_side *base, const struct compare_side *head, int force, struct error *e)
{
    const struct results_folder *first = &base->round[0];
    bool said_gpus = false;
    for (int i = 1; i < base->rounds && !e->code; ++i)
        rounds_match(first, &base->round[i], force, &said_gpus, e);
    for (int i = 0; i < head->rounds && !e->code; ++i)
        rounds_match(first, &head->round[i], force, &said_gpus, e);
    return e->code;
}

static int append(double **samples, int *count, double ms)
{
    double *grown = realloc(*samples, (size_t)(*count + 1) * sizeof **samples);
    if (!grown)
        return -1;
    *samples = grown;
    (*samples)[(*count)++] = ms;
    return 0;
}

static int append_round(const struct results_folder *r, const char *variant, struct product_shape shape,
                        double **samples, int *count)
{
    int row = results_summary_row(r, variant, shape);
    for (int s = 0; row >= 0 && s < r->samples.rows; ++s)
        if (r->sample_summary_row[s] == row && append(samples, count, r->sample_ms[s]))
            return -1;
    return 0;
}

/* A program's kernel: every launch of it in the round. */
static int append_kernel(const struct program_kernels *k, const char *key, double **samples, int *count)
{
    const struct program_kernel *kernel = program_kernels_find(k, key);
    for (size_t i = 0; kernel && i < kernel->launches; ++i)
        if (append(samples, count, kernel->samples_ms[i]))
            return -1;
    return 0;
}

int compare_side_round_samples(const struct compare_side *side, int round, const char *variant,
                               struct product_shape shape, double **samples, int *count)
{
    return side->program ? append_kernel(&side->kernels[round], variant, samples, count)
                         : append_round(&side->round[round], variant, shape, samples, count);
}

/* The job of a side's n-th launch of a kernel, counted over its rounds in order, as the program's own launches
 * number it (an autotuner's launches before it on one side only do not shift it); NULL past its last. */
static const char *nth_launch_job(const struct compare_side *side, const char *key, size_t n, char *out, size_t size)
{
    for (int i = 0; i < side->rounds; ++i) {
        const struct program_kernel *k = program_kernels_find(&side->kernels[i], key);
        size_t here = k ? k->launches : 0;
        if (n < here)
            return program_kernels_launch_name(&side->kernels[i], &side->round[i], k->sample_rows[n], out, size);
        n -= here;
    }
    return NULL;
}

bool compare_sides_launch_alike(const struct compare_side *base, const struct compare_side *head, const char *key)
{
    if (!base->program || !head->program)
        return false;
    size_t n = 0;
    char first_name[JOB_NAME_LEN], a_name[JOB_NAME_LEN], b_name[JOB_NAME_LEN];
    const char *a, *b, *first = nth_launch_job(base, key, 0, first_name, sizeof first_name);
    bool several = false;
    while ((a = nth_launch_job(base, key, n, a_name, sizeof a_name)) &&
           (b = nth_launch_job(head, key, n, b_name, sizeof b_name)) && strcmp(a, b) == 0) {
        several = several || strcmp(a, first) != 0;
        ++n;
    }
    return several && !nth_launch_job(base, key, n, a_name, sizeof a_name) &&
           !nth_launch_job(head, key, n, b_name, sizeof b_name);
}

int compare_side_metric_rounds(const struct compare_side *side, int rounds[COMPARE_MAX_ROUNDS])
{
    int n = 0;
    for (int i = 0; i < side->rounds; ++i)
        if (side->round[i].has_metrics)
            rounds[n++] = i;
    return n;
}

const char *compare_side_metrics_job(const struct compare_side *side, int round, const char *variant)
{
    if (!side->program)
        return variant;
    const struct program_kernel *k = program_kernels_find(&side->kernels[round], variant);
    const struct results_folder *r = &side->round[round];
    return k && k->profiled_row >= 0 ? csv_table_text(&r->summary, k->profiled_row, r->col_variant) : NULL;
}

const char *compare_side_metrics_launch(const struct compare_side *side, int round, const char *variant, char *out,
                                        size_t size)
{
    if (!side->program)
        return variant;
    const struct program_kernel *k = program_kernels_find(&side->kernels[round], variant);
    return k && k->profiled_row >= 0
               ? program_kernels_launch_name(&side->kernels[round], &side->round[round], k->profiled_row, out, size)
               : NULL;
}
