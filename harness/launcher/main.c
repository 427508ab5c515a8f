/*
 * memscope-profile: runs any CUDA program with memscope's injection library
 * (libmemscope-inject.so, beside this binary) and leaves a results folder with
 * every kernel launch it made: its name, ordinal, grid, block, shared memory,
 * registers, NVTX path and duration.
 *
 *   memscope-profile [options] -- PROGRAM [ARGS...]
 *
 * Exit codes: 0 profiled (every process's part complete); 2 bad usage; 3 no GPU (the program failed before
 * CUDA started in it, and the driver finds none), no process of the program launched a
 * kernel, or the library is missing; 4 the results folder cannot be written; 5 and 6
 * the library could not finish or could not record; 7 another memscope run
 * kept the GPU past --wait-gpu; 8 the program failed (exited non-zero or was
 * killed); 9 the program could not be started.
 */
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/args.h"
#include "../inject/protocol.h"
#include "../profile/metric_set.h"
#include "../program/files.h"
#include "../results/launches_csv.h"
#include "../results/partial_folder.h"
#include "driver.h"
#include "parts.h"
#include "program.h"
#include "roofs.h"
#include "source_run.h"
#include "summary.h"

/* The suite's default groups less source lines and stalls, which cost a run of the program more each
 * (--metric-groups ...,source,stalls asks for them). */
#define PROFILE_DEFAULT_GROUPS "global,shared,dram,roofline,cache,sol,tensor,causes"

static const char usage_text[] =
    "usage: memscope-profile [options] -- PROGRAM [ARGS...]\n"
    "\n"
    "Runs PROGRAM (found in PATH like a shell finds it) with memscope's injection library and\n"
    "writes every kernel launch it makes (launches.csv: name, ordinal, grid, block, shared\n"
    "memory, registers, NVTX path, duration) with environment.csv and trace.json into DIR.\n"
    "A process PROGRAM starts that uses CUDA writes its own part into DIR/rank-<R>/ (the rank\n"
    "its launcher gave it: RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID, LOCAL_RANK) or\n"
    "DIR/process-<pid>/; DIR's own files then merge every part, each job keyed \"[rank R]/...\".\n"
    "\n"
    "  -o, --out DIR         results folder; must not exist yet\n"
    "                        (default: memscope-results/profile-<UTC time>)\n"
    "      --kernel REGEX    select the launches whose demangled kernel name matches REGEX\n"
    "                        (extended regular expression, anywhere in the name)\n"
    "      --nvtx-include TEXT  select the launches whose NVTX path (outer/inner) contains TEXT\n"
    "      --launch-skip N   of the launches that match, pass over the first N (default: 0)\n"
    "      --launch-count N  then select at most N (default: all)\n"
    "      --launch-count-per-kernel N  and at most N of each kernel in each process (0: no\n"
    "                        bound); without any selection option the default is 1, the\n"
    "                        first launch of each kernel, else 0\n"
    "      --metric-groups LIST  hardware metric groups for the selected launches, collected\n"
    "                        by CUPTI's kernel replay: global, shared, dram, roofline, cache,\n"
    "                        sol, tensor, causes, or \"none\"\n"
    "                        (default: " PROFILE_DEFAULT_GROUPS ");\n"
    "                        stalls: warp stall reasons per kernel and source line, by PC\n"
    "                        sampling in one more run of the program (DIR/" PROFILE_STALL_RUN "/);\n"
    "                        source: each selected launch's instructions counted exactly by\n"
    "                        CUPTI's SASS patching and placed on their file, line and opcode\n"
    "                        (kernels built with -lineinfo, Triton's), in one more run of the\n"
    "                        program (DIR/" PROFILE_SOURCE_RUN "/): lines.csv, instructions.csv\n"
    "      --no-replay REGEX  a selected launch of a kernel whose demangled name matches is timed\n"
    "                        only, never replayed for metrics, as NCCL's kernels (ncclKernel*,\n"
    "                        ncclDevKernel*) always are: a collective replayed by one rank alone\n"
    "                        hangs the job (launches.csv: not_replayed)\n"
    "      --repeat N        run the program N times (default: 1); the first run collects the\n"
    "                        metrics, every run's launches are timing samples of their jobs\n"
    "      --wait-gpu SECONDS  at the program's first kernel launch (in every run), wait at most\n"
    "                        this long while another memscope run uses the GPU, then exit 7\n"
    "                        (default: 600; 0 refuses at once)\n"
    "  -h, --help            this text\n"
    "\n"
    "The selection is recorded per launch (launches.csv: selected); each selected launch's\n"
    "metrics go to metrics.csv under its job (NVTX/PATH/KERNEL #K), its stall samples to\n"
    "stalls.csv, its lines to lines.csv; the findings name the lines where the source group\n"
    "ran. The later runs' launches are paired with the first run's by job: the program must\n"
    "make the same launches each time.\n"
    "\n"
    "Exit codes: 0 profiled, every process's part complete; 2 bad usage; 3 no GPU (the\n"
    "program failed before CUDA started in it, and the driver finds none), no process of the\n"
    "program launched a kernel, or the library is\n"
    "missing; 4 DIR cannot be written or exists; 5 the library could not finish its\n"
    "records; 6 it could not record (CUPTI refused); 7 another memscope run kept the GPU past\n"
    "--wait-gpu (the program ran on, unprofiled: DIR.partial); 8 the program failed (exited\n"
    "non-zero or was killed: DIR.partial keeps what was collected; none is left where CUDA\n"
    "never started in it); 9 the program could not be started.\n";

struct cli {
    const char *out, *kernel, *nvtx_include, *metric_groups, *no_replay;
    long launch_skip, launch_count; /* count -1: all */
    long launch_count_per_kernel;   /* 0: no bound; -1: not given (choose_default_selection decides) */
    bool default_selection;         /* no selection option given: the first launch of each kernel in each process */
    long wait_gpu_s;
    long repeat;
    char **program;                 /* PROGRAM ARGS..., NULL-terminated: argv's tail after "--" */
    bool help;
    bool stalls;                    /* the stalls group: one more run of the program samples them */
    bool source;                    /* the source group: one more run of the program counts instructions */
    bool roofline;                  /* the roofline group: the GPU's ceilings too (roofs.h) */
    char replayed[4096];            /* the groups of the first run: metric_groups less stalls and source, never
                                       longer than metric_groups, which metric_set_build refuses past 4,095
                                       characters */
};

/* Our options end at "--"; what follows is the program's, options and all. */
static int split_at_double_dash(int argc, char **argv, int *ours)
{
    for (int i = 1; i < argc; ++i)
        if (strcmp(argv[i], "--") == 0) {
            *ours = i;
            return i + 1 < argc;
        }
    *ours = argc;
    return 0;
}

static int check_pattern(const char *option, const char *pattern, struct error *e)
{
    regex_t compiled;
    int rc = regcomp(&compiled, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char why[256];
        regerror(rc, &compiled, why, sizeof why);
        return error_set(e, EXIT_USAGE, "%s: '%s' is no extended regular expression: %s", option, pattern, why);
    }
    regfree(&compiled);
    return 0;
}

static int check_groups(struct cli *c, struct error *e)
{
    struct metric_set set;
    if (metric_set_build(c->metric_groups, NULL, &set, e))
        return error_set(e, EXIT_USAGE, "--metric-groups: %s", e->message);
    c->stalls = set.stalls;
    c->source = set.source;
    c->roofline = set.roofline;
    return 0;
}

static bool is_group(const char *at, size_t n, const char *group)
{
    return n == strlen(group) && strncmp(at, group, n) == 0;
}

/* The groups of the first run: the list less "stalls" and "source", which runs of their own collect; "none" when
 * nothing is left. */
static void replayed_groups(const char *groups, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (const char *at = groups; *at; at += *at == ',') {
        size_t n = strcspn(at, ",");
        if (!is_group(at, n, "stalls") && !is_group(at, n, "source"))
            used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s%.*s", used ? "," : "", (int)n, at);
        at += n;
    }
    if (!out[0])
        snprintf(out, len, "none");
}

/* Without a selection option, the first launch of each kernel in each process: a training script launches each
 * kernel thousands of times, and replaying each launch would make the profile take as long per launch as the
 * script per step. With one, the options select as Nsight Compute's do, every launch they match. */
static void choose_default_selection(struct cli *c)
{
    if (c->launch_count_per_kernel >= 0)
        return;
    c->default_selection = !c->kernel && !c->nvtx_include && c->launch_skip == 0 && c->launch_count < 0;
    c->launch_count_per_kernel = c->default_selection ? 1 : 0;
}

static int parse(int argc, char **argv, struct cli *c, struct error *e)
{
    *c = (struct cli){.launch_count = -1, .launch_count_per_kernel = -1, .metric_groups = PROFILE_DEFAULT_GROUPS,
                      .repeat = 1, .wait_gpu_s = INJECT_DEFAULT_WAIT_GPU_S};
    const struct arg_option options[] = {
        {"out", 'o', ARG_TEXT, &c->out, 0, 0, NULL},
        {"kernel", 0, ARG_TEXT, &c->kernel, 0, 0, NULL},
        {"nvtx-include", 0, ARG_TEXT, &c->nvtx_include, 0, 0, NULL},
        {"launch-skip", 0, ARG_LONG, &c->launch_skip, 0, (double)LONG_MAX, NULL},
        {"launch-count", 0, ARG_LONG, &c->launch_count, 1, (double)LONG_MAX, NULL},
        {"launch-count-per-kernel", 0, ARG_LONG, &c->launch_count_per_kernel, 0, (double)LONG_MAX, NULL},
        {"no-replay", 0, ARG_TEXT, &c->no_replay, 0, 0, NULL},
        {"metric-groups", 0, ARG_TEXT, &c->metric_groups, 0, 0, NULL},
        {"repeat", 0, ARG_LONG, &c->repeat, 1, 1000, NULL},
        {"wait-gpu", 0, ARG_LONG, &c->wait_gpu_s, 0, (double)LONG_MAX, NULL},
        {"help", 'h', ARG_FLAG, &c->help, 0, 0, NULL},
    };
    const char *stray[1];
    int ours, n_stray;
    int has_program = split_at_double_dash(argc, argv, &ours);
    if (args_parse(ours, argv, options, (int)(sizeof options / sizeof options[0]), stray, 1, &n_stray, e))
        return e->code;
    if (c->help)
        return 0;
    if (!has_program || n_stray)
        return error_set(e, EXIT_USAGE, "give the program to profile after --: memscope-profile [options] -- "
                                        "PROGRAM [ARGS...] (see --help)");
    c->program = argv + ours + 1;
    if ((c->kernel && check_pattern("--kernel", c->kernel, e)) ||
        (c->no_replay && check_pattern("--no-replay", c->no_replay, e)) ||
        check_groups(c, e))
        return e->code;
    replayed_groups(c->metric_groups, c->replayed, sizeof c->replayed);
    if (c->source && strcmp(c->replayed, "none") == 0)
        fprintf(stderr, "memscope-profile: the source group alone counts lines (lines.csv, instructions.csv) but no "
                        "metrics: the findings and the report's kernel pages need a metric group beside it "
                        "(global,source is the cheapest)\n");
    choose_default_selection(c);
    return 0;
}

/* libmemscope-inject.so beside our own binary: no path to configure. */
static int find_library(char *path, size_t len, struct error *e)
{
    char self[PATH_LEN];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n < 0)
        return error_set(e, EXIT_NO_GPU, "cannot find memscope-profile's own binary: %s", strerror(errno));
    self[n] = '\0';
    *strrchr(self, '/') = '\0';
    snprintf(path, len, "%s/%s", self, INJECT_LIBRARY);
    if (access(path, R_OK) != 0)
        return error_set(e, EXIT_NO_GPU, "the injection library %s is missing (%s): build it with make", path,
                         strerror(errno));
    return 0;
}

/* Whether this run created DEFAULT_RESULTS_ROOT: a run that leaves nothing in it removes it again. */
static bool created_root;

/* memscope-results/profile-<UTC time>, the default root created on demand, a suffix where the second is taken. */
static int default_folder(char *path, size_t len, struct error *e)
{
    char stamp[32];
    struct stat st;
    time_t now = time(NULL);
    created_root = mkdir(DEFAULT_RESULTS_ROOT, 0777) == 0;
    if (!created_root && errno != EEXIST)
        return error_set(e, EXIT_OUTPUT, "cannot create %s: %s", DEFAULT_RESULTS_ROOT, strerror(errno));
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime(&now));
    snprintf(path, len, "%s/profile-%s", DEFAULT_RESULTS_ROOT, stamp);
    for (int i = 2; stat(path, &st) == 0; ++i)
        snprintf(path, len, "%s/profile-%s-%d", DEFAULT_RESULTS_ROOT, stamp, i);
    return 0;
}

static int set_or_unset(const char *variable, const char *value)
{
    return value ? setenv(variable, value, 1) : unsetenv(variable);
}

/* What the program inherits: the library for CUDA and NVTX to load, where to write and what to select. */
static int give_environment(const struct cli *c, const char *library, const char *folder, struct error *e)
{
    char skip[32], count[32], repeat[32], wait[32], per_kernel[32];
    snprintf(per_kernel, sizeof per_kernel, "%ld", c->launch_count_per_kernel);
    snprintf(skip, sizeof skip, "%ld", c->launch_skip);
    snprintf(wait, sizeof wait, "%ld", c->wait_gpu_s);
    snprintf(repeat, sizeof repeat, "%ld", c->repeat);
    snprintf(count, sizeof count, "%ld", c->launch_count);
    if (setenv("CUDA_INJECTION64_PATH", library, 1) || setenv("NVTX_INJECTION64_PATH", library, 1) ||
        setenv(INJECT_ENV_DIR, folder, 1) || set_or_unset(INJECT_ENV_KERNEL, c->kernel) ||
        set_or_unset(INJECT_ENV_NVTX_INCLUDE, c->nvtx_include) || setenv(INJECT_ENV_LAUNCH_SKIP, skip, 1) ||
        set_or_unset(INJECT_ENV_LAUNCH_COUNT, c->launch_count < 0 ? NULL : count) ||
        set_or_unset(INJECT_ENV_LAUNCH_COUNT_PER_KERNEL, c->launch_count_per_kernel > 0 ? per_kernel : NULL) ||
        set_or_unset(INJECT_ENV_NO_REPLAY, c->no_replay) ||
        setenv(INJECT_ENV_METRIC_GROUPS, c->replayed, 1) || setenv(INJECT_ENV_REPEAT, repeat, 1) ||
        setenv(INJECT_ENV_WAIT_GPU, wait, 1))
        return error_set(e, EXIT_RUNTIME, "cannot set the program's environment: %s", strerror(errno));
    return 0;
}

static int prepare(const struct cli *c, struct results_dir *d, char *absolute, struct error *e)
{
    char library[PATH_IN_FOLDER_LEN], folder[PATH_LEN];
    if (find_library(library, sizeof library, e) || (!c->out && default_folder(folder, sizeof folder, e)) ||
        results_dir_plan(d, c->out ? c->out : folder, e) || results_dir_create(d, e))
        return e->code;
    if (!realpath(d->partial_path, absolute)) /* the program may change its directory */
        return error_set(e, EXIT_OUTPUT, "cannot resolve %s: %s", d->partial_path, strerror(errno));
    return give_environment(c, library, absolute, e);
}

/* A program that failed before CUDA started in it (its folder stayed empty, and is removed): on a machine without
 * a GPU that is the reason, said as memscope says it (exit 3); elsewhere the program's own failure (exit 8). */
static int nothing_collected(const char *said, struct error *e)
{
    char why[512];
    if (driver_finds_no_gpu(why, sizeof why))
        return error_set(e, EXIT_NO_GPU, "%s: %s before CUDA started in it; nothing was profiled and no results "
                                         "folder is left", why, said);
    return error_set(e, EXIT_PROGRAM_FAILED, "%s before CUDA started in it: nothing was collected and no results "
                                             "folder is left", said);
}

/* The file the program's processes shared while the first run replayed (INJECT_PEERS_FILE; the later runs replay
 * nothing): its work is over once they exited. */
static void remove_peers_file(const char *run_folder)
{
    char path[PATH_JOINED(PATH_LEN)];
    snprintf(path, sizeof path, "%s/%s", run_folder, INJECT_PEERS_FILE);
    unlink(path);
}

/* How the program ended, as our exit code: its own status is said in words, never passed on. */
static int program_outcome(const struct cli *c, const struct results_dir *d, const struct program_end *end,
                           struct error *e)
{
    char said[512];
    program_describe(c->program[0], end, said, sizeof said);
    if (end->not_started) {
        rmdir(d->partial_path); /* ours, and empty: the program never ran */
        return error_set(e, EXIT_PROGRAM_NOT_STARTED, "%s", said);
    }
    if (end->exited && end->status == 0)
        return 0;
    if (rmdir(d->partial_path) == 0) /* ours, and empty: CUDA never started in the program */
        return nothing_collected(said, e);
    return error_set(e, EXIT_PROGRAM_FAILED, "%s: %s keeps what was collected and stays incomplete", said,
                     d->partial_path);
}

/* A later run of the program into its own folder dir: groups "none" for a timing run, "stalls" for the stall
 * sampling's (with first_run, the folder whose launches.csv gives the durations: INJECT_ENV_FIRST_RUN). */
static int run_again(const struct cli *c, const struct results_dir *d, const char *dir, int run, const char *groups,
                     const char *first_run, struct error *e)
{
    char number[16];
    struct program_end end;
    struct part p;
    snprintf(number, sizeof number, "%d", run);
    if (mkdir(dir, 0777) != 0)
        return error_set(e, EXIT_OUTPUT, "cannot create %s: %s", dir, strerror(errno));
    if (setenv(INJECT_ENV_DIR, dir, 1) || setenv(INJECT_ENV_RUN, number, 1) ||
        setenv(INJECT_ENV_METRIC_GROUPS, groups, 1) || set_or_unset(INJECT_ENV_FIRST_RUN, first_run))
        return error_set(e, EXIT_RUNTIME, "cannot set the program's environment: %s", strerror(errno));
    fflush(NULL);
    program_run(c->program, INJECT_ENV_ROOT_PID, &end);
    if (program_outcome(c, d, &end, e))
        return e->code;
    if (parts_check_run(dir, &p, e)) {
        struct error why = *e;
        return error_set(e, why.code, "run %d of the program: %s", run, why.message);
    }
    return 0;
}

/* Runs 2 to N: timing only, each into its own run-<i>/ of the folder. */
static int time_again(const struct cli *c, const struct results_dir *d, const char *absolute, int run,
                      struct error *e)
{
    char dir[PATH_LEN + 16];
    profile_run_folder(dir, sizeof dir, absolute, run);
    return run_again(c, d, dir, run, "none", NULL, e);
}

/* The stall sampling's run, after the others, over the launches the first run selected. */
static int sample_stalls(const struct cli *c, const struct results_dir *d, const char *absolute, struct error *e)
{
    char dir[PATH_LEN + 32];
    snprintf(dir, sizeof dir, "%s/%s", absolute, PROFILE_STALL_RUN);
    return run_again(c, d, dir, (int)c->repeat + 1, "stalls", absolute, e);
}

/* The source group's run, last, over the launches the first run selected. */
static int count_instructions(const struct cli *c, const struct results_dir *d, const char *absolute, bool sampled,
                              struct error *e)
{
    char dir[PATH_LEN + 32];
    snprintf(dir, sizeof dir, "%s/%s", absolute, PROFILE_SOURCE_RUN);
    return run_again(c, d, dir, (int)c->repeat + 1 + sampled, "source", NULL, e);
}

static void say_unmatched(const struct profile_unmatched *u)
{
    if (u->launches)
        fprintf(stderr, "memscope-profile: %zu launches of the later runs were not made by the first run: they "
                        "are in run-<i>/launches.csv, not in the summary\n", u->launches);
    if (u->stall_rows)
        fprintf(stderr, "memscope-profile: %zu rows of stall samples are of launches the first run did not make: "
                        "they are in " PROFILE_STALL_RUN "/stalls.csv, not in stalls.csv\n", u->stall_rows);
    if (u->source_rows)
        fprintf(stderr, "memscope-profile: %zu rows of lines and instructions are of launches the first run did not "
                        "make: they are in " PROFILE_SOURCE_RUN "/, not in lines.csv and instructions.csv\n",
                u->source_rows);
    if (u->uncounted)
        fprintf(stderr, "memscope-profile: the source group could not count %zu selected launches, which have no "
                        "lines and whose findings name none (each part's environment.csv in " PROFILE_SOURCE_RUN "/); the "
                        "first: %s\n",
                u->uncounted, u->first_uncounted);
}

/* The launches timed only that a user would expect replayed: why, and where it is written. */
static void say_not_replayed(const struct part *p)
{
    if (p->timed_only)
        fprintf(stderr, "memscope-profile: %zu selected launches were timed only, not replayed: a collective of the "
                        "program was running on this host, whose writes a replay would have undone (launches.csv: "
                        "not_replayed \"" NOT_REPLAYED_COLLECTIVE_RUNNING "\"; docs/profile.md)\n",
                p->timed_only);
    if (p->capturing)
        fprintf(stderr, "memscope-profile: %zu selected launches were timed only, not replayed: the program was "
                        "capturing a CUDA graph, which a replay's calls would have ended with an error (launches.csv: "
                        "not_replayed \"" NOT_REPLAYED_CAPTURING "\"; docs/profile.md)\n",
                p->capturing);
    if (p->graph)
        fprintf(stderr, "memscope-profile: %zu of the kernel launches ran inside CUDA graphs and were timed only: "
                        "memscope replays a kernel at its own launch, which a graph's kernels do not have "
                        "(launches.csv: graph; docs/profile.md); a kernel launched only inside graphs has no metrics: "
                        "run the work once outside a graph to profile it\n",
                p->graph);
}

/* The first run collects; the later ones time, with stalls one more samples them and with source one more counts
 * their instructions; then the summary, and the folder is committed. */
static int profile(const struct cli *c, struct results_dir *d, const char *absolute, struct error *e)
{
    static struct environment roofs;
    struct program_end end;
    struct part p;
    struct profile_unmatched unmatched;
    fflush(NULL); /* nothing of ours is written twice by the child */
    program_run(c->program, INJECT_ENV_ROOT_PID, &end);
    remove_peers_file(absolute);
    if (program_outcome(c, d, &end, e) || parts_check(d, &p, e) ||
        (c->roofline && roofs_add(d->partial_path, c->wait_gpu_s, &roofs, e)))
        return e->code;
    for (int run = 2; run <= c->repeat; ++run)
        if (time_again(c, d, absolute, run, e))
            return e->code;
    /* no launch selected, no stall or source run */
    struct profile_runs runs = {(int)c->repeat, c->stalls && p.selected > 0, c->source && p.selected > 0};
    char command_line[4096];
    args_join((const char *const *)c->program, command_line, sizeof command_line);
    if ((c->stalls || c->source) && p.selected == 0)
        fprintf(stderr, "memscope-profile: no launch was selected: no stalls to sample, no instructions to count\n");
    if ((runs.stalls && sample_stalls(c, d, absolute, e)) ||
        (runs.source && count_instructions(c, d, absolute, runs.stalls, e)) ||
        profile_summary_write(d->partial_path, &runs, &roofs, command_line, &unmatched, e) ||
        program_files_write(d->partial_path, e))
        return e->code;
    say_unmatched(&unmatched);
    if (results_dir_commit(d, e))
        return e->code;
    printf("%zu kernel launches, %zu selected\n", p.launches, p.selected);
    if (c->default_selection)
        printf("selected: the first launch of each kernel in each process (--launch-count-per-kernel N takes N, 0 "
               "every launch; --kernel, --nvtx-include, --launch-skip and --launch-count select as Nsight Compute "
               "does); every launch is timed\n");
    printf("results: %s\n", d->final_path);
    say_not_replayed(&p);
    return 0;
}

int main(int argc, char **argv)
{
    struct cli c;
    struct results_dir d;
    char absolute[PATH_LEN];
    struct error e = {0};
    if (parse(argc, argv, &c, &e) == 0 && c.help) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (e.code == 0 && prepare(&c, &d, absolute, &e) == 0)
        profile(&c, &d, absolute, &e);
    if (e.code && created_root)
        rmdir(DEFAULT_RESULTS_ROOT); /* only where nothing is left in it: a kept .partial keeps it */
    if (e.code)
        fprintf(stderr, "memscope-profile: %s\n", e.message);
    return e.code;
}
