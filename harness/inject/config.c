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

/* Every part of the first run (folder): its own files' where the program used CUDA, and each rank's and worker's. */
static int read_every_part(const char *folder, struct selected_launches *s, struct error *e)
{
    char part[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    long number;
    char end;
    DIR *d = opendir(folder);
    if (!d)
        return error_set(e, EXIT_USAGE, "cannot read %s: %s", folder, strerror(errno));
    snprintf(part, sizeof part, "%s/%s", folder, launches_csv.file);
    if (access(part, F_OK) == 0)
        launches_csv_selected(folder, s, e);
    for (struct dirent *entry; !e->code && (entry = readdir(d));)
        if (sscanf(entry->d_name, INJECT_RANK_PART "%c", &number, &end) == 1 ||
            sscanf(entry->d_name, INJECT_CHILD_PART "%c", &number, &end) == 1) {
            snprintf(part, sizeof part, "%s/%s", folder, entry->d_name);
            launches_csv_selected(part, s, e);
        }
    closedir(d);
    return e->code;
}

/* The first run's selected launches, whose durations set this run's sampling periods: those of this process's part,
 * the program's own or its rank's; a worker's part is named by its pid, another each run, so a worker reads every
 * part's and takes the launches of its kernels there. */
static int read_first_run(struct inject_config *c, struct error *e)
{
    const char *first_run = getenv(INJECT_ENV_FIRST_RUN);
    char own[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    if (!first_run || !first_run[0])
        return error_set(e, EXIT_USAGE, "%s is not set: the stall sampling's run needs the first run's durations",
                         INJECT_ENV_FIRST_RUN);
    if (!c->child)
        launches_csv_selected(first_run, &c->first_run, e);
    else if (!c->rank.variable)
        read_every_part(first_run, &c->first_run, e);
    else {
        snprintf(own, sizeof own, "%s/%s", first_run, strrchr(c->part, '/') + 1);
        launches_csv_selected(own, &c->first_run, e);
    }
    if (!e->code && !(c->sampled = calloc(c->first_run.n + 1, 1)))
        error_set(e, EXIT_RUNTIME, "out of memory");
    return e->code;
}

/* Whether l is a launch of that kernel, and with `whole` of that grid and block too. */
static int same_launch(const struct selected_launch *l, const char *mangled, const unsigned grid[3],
                       const unsigned block[3], bool whole)
{
    for (int i = 0; whole && i < 3; ++i)
        if ((unsigned)l->grid[i] != grid[i] || (unsigned)l->block[i] != block[i])
            return 0;
    size_t kept = strlen(l->mangled); /* launches.csv keeps a symbol's first PROF_OP_NAME_LEN - 1 characters */
    return kept >= PROF_OP_NAME_LEN - 1 ? strncmp(l->mangled, mangled, kept) == 0 : strcmp(l->mangled, mangled) == 0;
}

/* The first selected launch not yet taken that is the launch (whole: kernel, grid and block) or of its kernel. */
static double take_first(const struct inject_config *c, const char *mangled, const unsigned grid[3],
                         const unsigned block[3], bool whole)
{
    static const unsigned any[3];
    for (size_t i = 0; i < c->first_run.n; ++i)
        if (!c->sampled[i] && same_launch(&c->first_run.at[i], mangled, whole ? grid : any, whole ? block : any, whole)) {
            c->sampled[i] = 1;
            return c->first_run.at[i].ms;
        }
    return -1;
}

double inject_config_first_run_ms(const struct inject_config *c, const char *mangled, const unsigned grid[3],
                                  const unsigned block[3])
{
    double ms = take_first(c, mangled, grid, block, true);
    return ms >= 0 ? ms : take_first(c, mangled, grid, block, false);
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
    selected_launches_free(&c->first_run);
    free(c->sampled);
    c->sampled = NULL;
    if (c->selection.kernel)
        regfree(&c->kernel);
    if (c->user_collectives)
        regfree(&c->no_replay);
    c->selection.kernel = NULL;
    c->user_collectives = NULL;
}
