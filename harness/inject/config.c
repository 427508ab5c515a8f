#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../cupti/activity.h"
#include "../common/numbers.h"
#include "../results/schema.h"
#include "config.h"
#include "protocol.h"

static int whole_number(const char *variable, long lowest, long fallback, long *value, struct error *e)
{
    const char *text = getenv(variable);
    *value = fallback;
    if (text && parse_long(text, lowest, LONG_MAX, value) != NUMBER_OK)
        return error_set(e, EXIT_USAGE, "%s: '%s' is not a whole number from %ld", variable, text, lowest);
    return 0;
}

/* *compiled points at into once pattern (NULL: not given) compiled. */
static int compile(const char *variable, const char *pattern, regex_t *into, const regex_t **compiled,
                   struct error *e)
{
    if (!pattern)
        return 0;
    int rc = regcomp(into, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char why[256];
        regerror(rc, into, why, sizeof why);
        return error_set(e, EXIT_USAGE, "%s: '%s' is no regular expression: %s", variable, pattern, why);
    }
    *compiled = into;
    return 0;
}

static int read_selection(struct inject_config *c, struct error *e)
{
    c->kernel_pattern = getenv(INJECT_ENV_KERNEL);
    c->nvtx_include = getenv(INJECT_ENV_NVTX_INCLUDE);
    c->no_replay_pattern = getenv(INJECT_ENV_NO_REPLAY);
    c->selection = (struct selection){NULL, c->nvtx_include, 0, -1, 0};
    if (whole_number(INJECT_ENV_LAUNCH_SKIP, 0, 0, &c->selection.skip, e) ||
        whole_number(INJECT_ENV_LAUNCH_COUNT, 1, -1, &c->selection.count, e) ||
        whole_number(INJECT_ENV_LAUNCH_COUNT_PER_KERNEL, 1, 0, &c->selection.per_kernel, e) ||
        compile(INJECT_ENV_KERNEL, c->kernel_pattern, &c->kernel, &c->selection.kernel, e))
        return e->code;
    return compile(INJECT_ENV_NO_REPLAY, c->no_replay_pattern, &c->no_replay, &c->user_collectives, e);
}

/* Every worker's part of the first run (folder), and with every_part the program's own and each rank's too. */
static int read_parts(const char *folder, bool every_part, struct selected_launches *s, struct error *e)
{
    char part[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    long number;
    char end;
    DIR *d = opendir(folder);
    if (!d)
        return error_set(e, EXIT_USAGE, "cannot read %s: %s", folder, strerror(errno));
    snprintf(part, sizeof part, "%s/%s", folder, launches_csv.file);
    if (every_part && access(part, F_OK) == 0)
        launches_csv_selected(folder, s, e);
    for (struct dirent *entry; !e->code && (entry = readdir(d));)
        if ((every_part && sscanf(entry->d_name, INJECT_RANK_PART "%c", &number, &end) == 1) ||
            sscanf(entry->d_name, INJECT_CHILD_PART "%c", &number, &end) == 1) {
            snprintf(part, sizeof part, "%s/%s", folder, entry->d_name);
            launches_csv_selected(part, s, e);
        }
    closedir(d);
    return e->code;
}

/* A launch's key in the index of launch shapes: its symbol as launches.csv keeps it (its first PROF_OP_NAME_LEN - 1
 * characters), its grid and its block. */
static void shape_key(const char *mangled, const unsigned grid[3], const unsigned block[3], char *key, size_t len)
{
    snprintf(key, len, "%.*s %u %u %u %u %u %u", PROF_OP_NAME_LEN - 1, mangled, grid[0], grid[1], grid[2], block[0],
             block[1], block[2]);
}

/* Each launch chained to the next of its shape (kernel, grid and block), each shape found by its key, and each kernel
 * by its symbol (launches.csv's, and each shape's key, which the indexes keep pointing into). */
static int index_launches(struct first_run *f, struct error *e)
{
    size_t n = f->launches.n;
    f->key = calloc(n + 1, sizeof *f->key);
    f->next = malloc((n + 1) * sizeof *f->next);
    f->last = malloc((n + 1) * sizeof *f->last);
    f->cursor = malloc((n + 1) * sizeof *f->cursor);
    if (!f->key || !f->next || !f->last || !f->cursor || name_index_init(&f->by_kernel, n + 1) != 0 ||
        name_index_init(&f->by_shape, n + 1) != 0)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    for (size_t i = 0; i < n; ++i) {
        const struct selected_launch *l = &f->launches.at[i];
        const unsigned grid[3] = {(unsigned)l->grid[0], (unsigned)l->grid[1], (unsigned)l->grid[2]},
                       block[3] = {(unsigned)l->block[0], (unsigned)l->block[1], (unsigned)l->block[2]};
        char buffer[PROF_OP_NAME_LEN + 96], *key;
        shape_key(l->mangled, grid, block, buffer, sizeof buffer);
        if (!(key = strdup(buffer)))
            return error_set(e, EXIT_RUNTIME, "out of memory");
        int shape = name_index_add(&f->by_shape, key, 0, (int)f->shapes);
        if (shape == (int)f->shapes)
            f->key[shape] = key;
        else /* a shape indexed already, by its first launch's key */
            free(key);
        if (shape < -1 || name_index_add(&f->by_kernel, l->mangled, 0, (int)i) < -1)
            return error_set(e, EXIT_RUNTIME, "out of memory");
        f->next[i] = SIZE_MAX;
        if (shape == (int)f->shapes) /* the shape's first launch */
            f->cursor[f->shapes++] = i;
        else
            f->next[f->last[shape]] = i;
        f->last[shape] = i;
    }
    return 0;
}

/* The first run's selected launches, whose durations set this run's sampling periods: those of this process's part,
 * the program's own or its rank's. A worker's part is named by its pid, another each run, so a worker reads every
 * part's; a process with a rank reads every worker's besides its rank's, since a worker that inherited the rank (a
 * compile or DataLoader worker under torchrun) takes a part of its own, process-<pid>. */
static int read_first_run(struct inject_config *c, struct error *e)
{
    const char *first_run = getenv(INJECT_ENV_FIRST_RUN);
    char own[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    struct selected_launches *s = &c->first_run.launches;
    if (!first_run || !first_run[0])
        return error_set(e, EXIT_USAGE, "%s is not set: the stall sampling's run needs the first run's durations",
                         INJECT_ENV_FIRST_RUN);
    if (!c->child)
        launches_csv_selected(first_run, s, e);
    else if (!c->rank.variable)
        read_parts(first_run, true, s, e);
    else {
        snprintf(own, sizeof own, "%s/%s", first_run, strrchr(c->part, '/') + 1);
        if (launches_csv_selected(own, s, e) == 0)
            read_parts(first_run, false, s, e);
    }
    return e->code ? e->code : index_launches(&c->first_run, e);
}

double first_run_ms(struct first_run *f, const char *mangled, const unsigned grid[3], const unsigned block[3])
{
    char key[PROF_OP_NAME_LEN + 96];
    shape_key(mangled, grid, block, key, sizeof key);
    int shape = f->shapes ? name_index_find(&f->by_shape, key, 0) : -1;
    if (shape >= 0 && f->cursor[shape] != SIZE_MAX) { /* the shape's launches are taken in order */
        size_t taken = f->cursor[shape];
        f->cursor[shape] = f->next[taken];
        return f->launches.at[taken].ms;
    }
    /* no launch of that grid and block left: the kernel's first stands in, and is left for a launch of its own */
    snprintf(key, sizeof key, "%.*s", PROF_OP_NAME_LEN - 1, mangled);
    int first = f->shapes ? name_index_find(&f->by_kernel, key, 0) : -1;
    return first < 0 ? -1 : f->launches.at[first].ms;
}

void first_run_free(struct first_run *f)
{
    for (size_t i = 0; f->key && i < f->launches.n; ++i) /* NULL past the shapes */
        free(f->key[i]);
    selected_launches_free(&f->launches);
    name_index_free(&f->by_kernel);
    name_index_free(&f->by_shape);
    free(f->key);
    free(f->next);
    free(f->last);
    free(f->cursor);
    *f = (struct first_run){0};
}

/* The groups the range profiler collects, or the stalls group alone, or the source group alone (each in a run of
 * its own). */
static int read_metrics(struct inject_config *c, struct error *e)
{
    const char *groups = getenv(INJECT_ENV_METRIC_GROUPS);
    long run, repeat;
    c->metric_groups = groups && groups[0] ? groups : "none";
    if (whole_number(INJECT_ENV_RUN, 1, 1, &run, e) || whole_number(INJECT_ENV_REPEAT, 1, 1, &repeat, e) ||
        whole_number(INJECT_ENV_WAIT_GPU, 0, INJECT_DEFAULT_WAIT_GPU_S, &c->wait_gpu_s, e) ||
        metric_set_build(c->metric_groups, NULL, &c->metrics, e))
        return e->code;
    c->run = (int)run;
    c->repeat = (int)repeat;
    if (c->metrics.source && (c->metrics.n || c->metrics.stalls))
        return error_set(e, EXIT_USAGE, "%s: '%s': the source group is counted in a run of its own, without metrics "
                         "or stalls", INJECT_ENV_METRIC_GROUPS, groups);
    if (c->metrics.stalls && c->metrics.n)
        return error_set(e, EXIT_USAGE, "%s: '%s': the stalls group is sampled in a run of its own, without metrics",
                         INJECT_ENV_METRIC_GROUPS, groups);
    return c->metrics.stalls ? read_first_run(c, e) : 0;
}

int inject_config_read(struct inject_config *c, struct error *e)
{
    const char *folder = getenv(INJECT_ENV_DIR), *root = getenv(INJECT_ENV_ROOT_PID);
    *c = (struct inject_config){0};
    if (!folder || !folder[0])
        return error_set(e, EXIT_USAGE, "%s is not set: the library records only under memscope-profile",
                         INJECT_ENV_DIR);
    if (strlen(folder) >= sizeof c->folder)
        return error_set(e, EXIT_OUTPUT, "%s: path too long", INJECT_ENV_DIR);
    snprintf(c->folder, sizeof c->folder, "%s", folder);
    c->child = !root || atol(root) != (long)getpid();
    process_rank_read(&c->rank);
    if (c->child && c->rank.variable)
        snprintf(c->part, sizeof c->part, "%s/" INJECT_RANK_PART, c->folder, c->rank.rank);
    else if (c->child)
        snprintf(c->part, sizeof c->part, "%s/" INJECT_CHILD_PART, c->folder, (long)getpid());
    else
        snprintf(c->part, sizeof c->part, "%s", c->folder);
    if (read_selection(c, e) || read_metrics(c, e))
        return e->code;
    return 0;
}

int inject_config_start_part(struct inject_config *c, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    int made = !c->child || mkdir(c->part, 0777) == 0;
    if (!made && errno == EEXIST && c->rank.variable) { /* two processes of one rank (a worker that inherited it) */
        snprintf(c->part, sizeof c->part, "%s/" INJECT_CHILD_PART, c->folder, (long)getpid());
        made = mkdir(c->part, 0777) == 0;
    }
    if (!made)
        return error_set(e, EXIT_OUTPUT, "cannot create %s: %s", c->part, strerror(errno));
    snprintf(path, sizeof path, "%s/%s", c->part, INJECT_STARTED_MARK);
    FILE *f = fopen(path, "w");
    if (!f || fclose(f) != 0)
        return error_set(e, EXIT_OUTPUT, "cannot create %s: %s", path, strerror(errno));
    return 0;
}

void inject_config_free(struct inject_config *c)
{
    first_run_free(&c->first_run);
    if (c->selection.kernel)
        regfree(&c->kernel);
    if (c->user_collectives)
        regfree(&c->no_replay);
    c->selection.kernel = NULL;
    c->user_collectives = NULL;
}
