#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/paths.h"
#include "../csv/reader.h"
#include "../inject/protocol.h"
#include "../results/environment_csv.h"
#include "../results/folder_reader.h"
#include "../results/schema.h"
#include "../results/job_name.h"
#include "merge.h"

/* The order of parts without a rank, after the ranks: the program's own before the processes it started (a compile
 * or data-loading worker), whatever their names. */
#define ORDER_PROGRAM -2
#define ORDER_CHILD -1

/* A part's label in job keys: a rank's, a worker's, the program's own beside others ("" where it is the only part).
 * child_label writes them, the pairing of a later run's parts reads them. */
#define RANK_LABEL "rank %ld"
#define WORKER_LABEL "process %ld"
#define PROGRAM_LABEL "program"

/* A child's part by its folder's name: its label and its order (ranks first, by rank). */
static int child_label(const char *name, char *label, size_t len, long *order)
{
    long number;
    char end;
    if (sscanf(name, INJECT_RANK_PART "%c", &number, &end) == 1) {
        snprintf(label, len, RANK_LABEL, number);
        *order = number;
        return 1;
    }
    if (sscanf(name, INJECT_CHILD_PART "%c", &number, &end) == 1) {
        snprintf(label, len, WORKER_LABEL, number);
        *order = ORDER_CHILD;
        return 1;
    }
    if (strcmp(name, INJECT_PROGRAM_PART) == 0) {
        snprintf(label, len, "%s", PROGRAM_LABEL);
        *order = ORDER_PROGRAM;
        return 1;
    }
    return 0;
}

struct ordered {
    struct part_name name;
    long order;
};

static int by_order(const void *a, const void *b)
{
    const struct ordered *x = a, *y = b;
    if ((x->order < 0) != (y->order < 0))
        return x->order < 0 ? 1 : -1;
    if (x->order < 0 && x->order != y->order)
        return x->order == ORDER_PROGRAM ? -1 : 1;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return strcmp(x->name.dir, y->name.dir);
}

int merge_list_children(const char *folder, struct part_names *p, struct error *e)
{
    static struct ordered found[MERGE_MAX_PARTS];
    DIR *d = opendir(folder);
    p->n = 0;
    if (!d)
        return error_set(e, EXIT_OUTPUT, "cannot read %s: %s", folder, strerror(errno));
    for (struct dirent *entry; (entry = readdir(d));) {
        struct ordered *o = &found[p->n];
        if (strlen(entry->d_name) >= sizeof o->name.dir ||
            !child_label(entry->d_name, o->name.label, sizeof o->name.label, &o->order))
            continue;
        if (p->n == MERGE_MAX_PARTS) {
            closedir(d);
            return error_set(e, EXIT_RUNTIME, "%s: more than %d processes left parts", folder, MERGE_MAX_PARTS);
        }
        snprintf(o->name.dir, sizeof o->name.dir, "%s", entry->d_name);
        p->n++;
    }
    closedir(d);
    qsort(found, p->n, sizeof *found, by_order);
    for (size_t i = 0; i < p->n; ++i)
        p->at[i] = found[i].name;
    return 0;
}

int merge_list_parts(const char *folder, struct part_names *p, struct error *e)
{
    if (merge_list_children(folder, p, e))
        return e->code;
    if (p->n == 0)
        p->at[p->n++] = (struct part_name){"", ""};
    return 0;
}

/* A value of dir's environment.csv, into out ("" where absent). */
static void environment_value(const char *dir, const char *key, char *out, size_t len)
{
    struct csv_table t;
    struct error ignored = {0};
    int present;
    out[0] = '\0';
    if (results_read_optional(dir, &environment_csv, &t, &present, &ignored) || !present)
        return;
    for (int row = 0; row < t.rows; ++row)
        if (t.columns > 1 && strcmp(csv_table_text(&t, row, 0), key) == 0)
            snprintf(out, len, "%s", csv_table_text(&t, row, 1));
    csv_table_free(&t);
}

static int has_file(const char *dir, const char *name)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0;
}

/* The program's part's own folder: rank-R where it had a rank and no child took that name, else program/. */
static void program_part_dir(const char *folder, char *path, size_t len)
{
    char rank[32];
    environment_value(folder, "rank", rank, sizeof rank);
    if (rank[0]) {
        snprintf(path, len, "%s/" INJECT_RANK_PART, folder, atol(rank));
        if (mkdir(path, 0777) == 0)
            return;
    }
    snprintf(path, len, "%s/%s", folder, INJECT_PROGRAM_PART);
    mkdir(path, 0777);
}

const char *merge_job_key(const char *label, const char *job, char *out, size_t size)
{
    if (!*label || job_name_with_part(out, size, label, job) != 0)
        return job;
    return out;
}

int merge_move_program_part(const char *folder, struct error *e)
{
    static struct part_names children;
    char to[PATH_JOINED(PATH_IN_FOLDER_LEN)], from[PATH_JOINED(PATH_IN_FOLDER_LEN)],
        moved[PATH_JOINED(PATH_IN_FOLDER_LEN) * 2 + 2];
    if (merge_list_children(folder, &children, e) || children.n == 0 ||
        !(has_file(folder, INJECT_STARTED_MARK) || has_file(folder, INJECT_COMPLETE_MARK) ||
          has_file(folder, INJECT_ERROR_FILE)))
        return e->code;
    program_part_dir(folder, to, sizeof to);
    DIR *d = opendir(folder);
    if (!d)
        return error_set(e, EXIT_OUTPUT, "cannot read %s: %s", folder, strerror(errno));
    for (struct dirent *entry; !e->code && (entry = readdir(d));) {
        struct stat st;
        snprintf(from, sizeof from, "%s/%s", folder, entry->d_name);
        if (stat(from, &st) != 0 || !S_ISREG(st.st_mode)) /* the program's files: the other parts are folders */
            continue;
        snprintf(moved, sizeof moved, "%s/%s", to, entry->d_name);
        if (rename(from, moved) != 0)
            error_set(e, EXIT_OUTPUT, "cannot move %s into %s: %s", from, to, strerror(errno));
    }
    closedir(d);
    return e->code;
}

/* Per part, what tells it apart. */
static const char *const part_keys[] = {"pid", "rank", "rank_variable", "gpu_uuids", "gpu_name", "kernel_launches",
                                        "selected_launches", "graph_launches", "kept_back_from_replay",
                                        "not_replayed_collective_running", "not_replayed_capturing", "replay_wait_ms",
                                        "collective_launch_wait_ms", "replay_failures", "command_line"};
/* Summed over the parts in the folder's own rows. */
static const char *const summed_keys[] = {"kernel_launches", "selected_launches", "graph_launches", "gpu_records",
                                          "dropped_records", "records_without_call", "nvtx_ranges", "nvtx_ranges_lost",
                                          "replay_failures", "kept_back_from_replay",
                                          "not_replayed_collective_running", "not_replayed_capturing",
                                          "replay_wait_ms", "collective_launch_wait_ms"};

static int listed(const char *key, const char *const *keys, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (strcmp(keys[i], key) == 0)
            return 1;
    return 0;
}

#define COUNT(array) (sizeof array / sizeof array[0])

static void summed(const char *folder, const struct part_names *p, const char *key, char *out, size_t len)
{
    char dir[PATH_JOINED(PATH_IN_FOLDER_LEN)], value[64];
    double sum = 0;
    for (size_t i = 0; i < p->n; ++i) {
        snprintf(dir, sizeof dir, "%s/%s", folder, p->at[i].dir);
        environment_value(dir, key, value, sizeof value);
        sum += atof(value);
    }
    snprintf(out, len, "%.0f", sum);
}

/* The parts' GPU, as the report's title and roofs need one: each GPU name the parts ran on, once, joined by " + "
 * (a part that ran on none, torchrun's own process, names none). */
static void gpu_names(const char *folder, const struct part_names *p, char *out, size_t len)
{
    char dir[PATH_JOINED(PATH_IN_FOLDER_LEN)], name[256];
    *out = '\0';
    for (size_t i = 0; i < p->n; ++i) {
        snprintf(dir, sizeof dir, "%s/%s", folder, p->at[i].dir);
        environment_value(dir, "gpu_name", name, sizeof name);
        if (*name && !strstr(out, name)) {
            size_t used = strlen(out);
            snprintf(out + used, len - used, "%s%s", used ? " + " : "", name);
        }
    }
}

int merge_environment(const char *folder, const struct part_names *p, const char *command_line, struct error *e)
{
    char dir[PATH_JOINED(PATH_IN_FOLDER_LEN)], key[128], value[1024];
    struct csv_table first;
    struct csv c;
    int present;
    snprintf(dir, sizeof dir, "%s/%s", folder, p->at[0].dir);
    if (results_read_optional(dir, &environment_csv, &first, &present, e))
        return e->code;
    if (!present)
        return error_set(e, EXIT_RUNTIME, "%s/environment.csv is missing, though the part is marked complete", dir);
    if (environment_csv_create(&c, folder, e)) {
        csv_table_free(&first);
        return e->code;
    }
    for (int row = 0; row < first.rows && first.columns > 1; ++row) {
        const char *name = csv_table_text(&first, row, 0);
        if (listed(name, summed_keys, COUNT(summed_keys))) {
            summed(folder, p, name, value, sizeof value);
            environment_csv_row(&c, name, value);
        } else if (!listed(name, part_keys, COUNT(part_keys)) && strcmp(name, "part") != 0 &&
                   strcmp(name, "kernels") != 0) {
            environment_csv_row(&c, name, csv_table_text(&first, row, 1));
        }
    }
    csv_table_free(&first);
    gpu_names(folder, p, value, sizeof value);
    environment_csv_row(&c, "gpu_name", value);
    environment_csv_row(&c, "command_line", command_line);
    snprintf(value, sizeof value, "%zu", p->n);
    environment_csv_row(&c, "parts", value);
    for (size_t i = 0; i < p->n; ++i) {
        snprintf(dir, sizeof dir, "%s/%s", folder, p->at[i].dir);
        snprintf(key, sizeof key, "part_%s", p->at[i].dir);
        environment_csv_row(&c, key, p->at[i].label);
        for (size_t k = 0; k < COUNT(part_keys); ++k) {
            snprintf(key, sizeof key, "part_%s_%s", p->at[i].dir, part_keys[k]);
            environment_value(dir, part_keys[k], value, sizeof value);
            environment_csv_row(&c, key, value);
        }
    }
    return csv_close(&c, e);
}

int merge_name_command(const char *folder, const char *command_line, struct error *e)
{
    static struct environment env;
    if (env_read(folder, &env, e))
        return e->code;
    for (int i = 0; i < env.count; ++i)
        if (strcmp(env.entry[i].key, "command_line") == 0)
            snprintf(env.entry[i].value, sizeof env.entry[i].value, "%s", command_line);
    return env_write(&env, folder, e);
}

static bool is_worker(const char *label)
{
    long number;
    char end;
    return sscanf(label, WORKER_LABEL "%c", &number, &end) == 1;
}

static bool is_program(const char *label)
{
    return !*label || strcmp(label, PROGRAM_LABEL) == 0;
}

void part_pairing_init(struct part_pairing *p, const char *first_dir, const struct part_names *first,
                       const struct name_index *jobs)
{
    snprintf(p->first_dir, sizeof p->first_dir, "%s", first_dir);
    p->first = *first;
    p->jobs = jobs;
}

static int first_run_index(const struct part_pairing *p, bool (*same)(const char *, const char *), const char *label)
{
    for (size_t i = 0; i < p->first.n; ++i)
        if (same(p->first.at[i].label, label))
            return (int)i;
    return -1;
}

static bool equal(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

static bool both_programs(const char *a, const char *b)
{
    return is_program(a) && is_program(b);
}

/* How many of the jobs in t (a later part's launches.csv) the first run has under the label. */
static int jobs_held(const struct part_pairing *p, const struct csv_table *t, int job_column, const char *label)
{
    char key[JOB_NAME_LEN + MERGE_PART_NAME_LEN];
    int held = 0;
    for (int row = 0; row < t->rows; ++row)
        held += name_index_find(p->jobs, merge_job_key(label, csv_table_text(t, row, job_column), key, sizeof key),
                                0) >= 0;
    return held;
}

/* held[f]: how many of the jobs of the later part in dir each first-run worker f holds (0 for a part that is not a
 * worker's). */
static int held_by_workers(const struct part_pairing *p, const char *dir, int *held, struct error *e)
{
    struct csv_table t;
    int present, job;
    if (results_read_optional(dir, &launches_csv, &t, &present, e) || !present)
        return e->code;
    if (schema_column(&t, &launches_csv, LAUNCHES_JOB, &job, e) == 0)
        for (size_t f = 0; f < p->first.n; ++f)
            held[f] = is_worker(p->first.at[f].label) ? jobs_held(p, &t, job, p->first.at[f].label) : 0;
    csv_table_free(&t);
    return e->code;
}

/* The later workers paired with the first run's, the pair that shares the most jobs first (on a tie, the earlier
 * later part, then the earlier first-run one), each part of either run in one pair at most: a worker that shares few
 * jobs does not take the partner of one that shares more. held[w * first + f]. */
static void pair_workers(struct part_pairing *p, const struct part_names *later, const int *held)
{
    size_t first = p->first.n;
    bool taken[MERGE_MAX_PARTS] = {false};
    for (;;) {
        int most = 0;
        size_t best_w = 0, best_f = 0;
        for (size_t w = 0; w < later->n; ++w)
            for (size_t f = 0; f < first && p->paired[w] < 0; ++f)
                if (!taken[f] && held[w * first + f] > most)
                    most = held[w * first + f], best_w = w, best_f = f;
        if (most == 0)
            return;
        p->paired[best_w] = (int)best_f;
        taken[best_f] = true;
    }
}

/* The program's own part of the later run (dir, labelled label) with the first run's, which, like it, is the folder
 * itself ("") where it was the run's only part, and beside others program/ or, where it had a rank, rank-R; or a later
 * rank-R that was the program's own, with the first run's lone "" of that rank. -1 where none. */
static int program_pair(const struct part_pairing *p, const char *dir, const char *label)
{
    char rank[32], want[MERGE_PART_NAME_LEN];
    long number;
    if (is_program(label)) {
        int at = first_run_index(p, both_programs, label);
        environment_value(dir, "rank", rank, sizeof rank);
        if (at >= 0 || *label || !*rank)
            return at;
        snprintf(want, sizeof want, RANK_LABEL, atol(rank));
        return first_run_index(p, equal, want);
    }
    int alone = first_run_index(p, equal, "");
    environment_value(p->first_dir, "rank", rank, sizeof rank);
    return sscanf(label, RANK_LABEL, &number) == 1 && alone >= 0 && *rank && atol(rank) == number ? alone : -1;
}

int part_pairing_run(struct part_pairing *p, const char *dir, const struct part_names *later, struct error *e)
{
    char part[PATH_LEN + 32 + MERGE_PART_NAME_LEN];
    int *held = calloc(later->n * p->first.n + 1, sizeof *held);
    if (!held)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    for (size_t w = 0; w < later->n && !e->code; ++w) {
        const char *label = later->at[w].label;
        /* a worker by its jobs alone: its pid may be one the first run gave another worker */
        p->paired[w] = is_worker(label) ? -1 : first_run_index(p, equal, label);
        snprintf(part, sizeof part, "%s/%s", dir, later->at[w].dir);
        if (p->paired[w] < 0 && !is_worker(label)) /* moved into a folder of its own in one run, not the other */
            p->paired[w] = program_pair(p, part, label);
        if (is_worker(label))
            held_by_workers(p, part, held + w * p->first.n, e);
    }
    if (!e->code)
        pair_workers(p, later, held);
    free(held);
    return e->code;
}

const char *part_pairing_label(const struct part_pairing *p, const struct part_names *later, size_t w)
{
    return p->paired[w] >= 0 ? p->first.at[p->paired[w]].label : later->at[w].label;
}
