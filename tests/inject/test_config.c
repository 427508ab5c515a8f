/*
 * What the injection library reads from the environment memscope-profile gives the program (no GPU): the stall
 * sampling's run takes the stalls group alone, and the durations of the launches the first run selected from that
 * run's launches.csv (a worker's from every part's); anything else the launcher would not have given is refused and
 * named.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../cupti/activity.h"
#include "../../harness/inject/config.h"
#include "../../harness/inject/protocol.h"
#include "../../harness/inject/rank.h"
#include "../support/remove_tree.h"

static char first_run[] = "/tmp/memscope-test-config-XXXXXX";
static struct inject_config c;
static struct error e;

#define LAUNCHES_HEADER                                                                                              \
    "ordinal,kernel,mangled,nvtx_path,kernel_ordinal,grid_x,grid_y,grid_z,block_x,block_y,block_z,"                   \
    "dynamic_smem_bytes,static_smem_bytes,registers_per_thread,duration_ns,selected,job,run\n"

static int write_launches(const char *part, const char *rows)
{
    char path[128];
    snprintf(path, sizeof path, "%s%s/launches.csv", first_run, part);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(LAUNCHES_HEADER, f);
    fputs(rows, f);
    return fclose(f);
}

/* A symbol of LONG_SYMBOL characters, 'x' after "_Z", as a launch calls it. */
#define LONG_SYMBOL 600
static const char *long_symbol(void)
{
    static char symbol[LONG_SYMBOL + 1];
    memset(symbol, 'x', LONG_SYMBOL);
    memcpy(symbol, "_Z", 2);
    return symbol;
}

/* A worker's launch of it, as launches.csv keeps it: its first PROF_OP_NAME_LEN - 1 characters (3 us). */
static int write_long_launch(void)
{
    char row[1024];
    snprintf(row, sizeof row, "0,long(),%.*s,,0,1,1,1,32,1,1,0,0,8,3000,1,long() #0,1\n", PROF_OP_NAME_LEN - 1,
             long_symbol());
    return write_launches("/process-78", row);
}

/* The first run's launches.csv: three launches, the first and third selected, the third unmeasured (0 ns); a
 * worker's part (process-77), whose kernel w ran at two grids; and rank 0's part, whose kernel r ran once. */
static int setup(void **state)
{
    (void)state;
    char worker[128], rank[128];
    if (!mkdtemp(first_run))
        return -1;
    char other[128];
    snprintf(worker, sizeof worker, "%s/process-77", first_run);
    snprintf(other, sizeof other, "%s/process-78", first_run);
    snprintf(rank, sizeof rank, "%s/rank-0", first_run);
    if (mkdir(worker, 0777) != 0 || mkdir(other, 0777) != 0 || mkdir(rank, 0777) != 0)
        return -1;
    return write_launches("", "0,k(),_Z1kv,,0,1,1,1,32,1,1,0,0,8,341000,1,k() #0,1\n"
                              "1,k(),_Z1kv,,1,1,1,1,32,1,1,0,0,8,2500000,0,k() #1,1\n"
                              "2,k(),_Z1kv,,2,1,1,1,32,1,1,0,0,8,0,1,k() #2,1\n") ||
           write_launches("/process-77", "0,w(),_Z1wv,,0,8,1,1,64,1,1,0,0,8,5000,1,w() #0,1\n"
                                         "1,w(),_Z1wv,,1,4,1,1,64,1,1,0,0,8,7000,1,w() #1,1\n") ||
           write_launches("/rank-0", "0,r(),_Z1rv,,0,2,1,1,32,1,1,0,0,8,9000,1,r() #0,1\n") || write_long_launch();
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(first_run);
}

/* As the process memscope-profile started (root) or as a worker it started (not root), with a launcher's rank
 * (RANK) or none. */
static int read_as(const char *groups, const char *folder, int root, const char *rank)
{
#define UNSET_RANK(name) unsetenv(name);
    RANK_VARIABLES(UNSET_RANK)
#undef UNSET_RANK
    if (rank)
        setenv("RANK", rank, 1);
    e = (struct error){0};
    char pid[32];
    snprintf(pid, sizeof pid, "%ld", root ? (long)getpid() : 1L);
    setenv(INJECT_ENV_ROOT_PID, pid, 1);
    setenv(INJECT_ENV_DIR, "/tmp/memscope-test-config", 1);
    setenv(INJECT_ENV_METRIC_GROUPS, groups, 1);
    if (folder)
        setenv(INJECT_ENV_FIRST_RUN, folder, 1);
    else
        unsetenv(INJECT_ENV_FIRST_RUN);
    return inject_config_read(&c, &e);
}

static int read_with(const char *groups, const char *folder)
{
    return read_as(groups, folder, 1, NULL);
}

static double taken_ms(const char *mangled, unsigned grid_x, unsigned block_x)
{
    const unsigned grid[3] = {grid_x, 1, 1}, block[3] = {block_x, 1, 1};
    return first_run_ms(&c.first_run, mangled, grid, block);
}

static void expect_refused(const char *groups, const char *folder, int code, const char *text)
{
    if (read_with(groups, folder) != code || !strstr(e.message, text))
        fail_msg("%s with %s: expected exit %d and \"%s\"; got %d: %s", groups, folder ? folder : "(unset)", code,
                 text, e.code, e.message);
    inject_config_free(&c);
}

static void the_stall_run_reads_the_first_runs_selected_durations(void **state)
{
    (void)state;
    assert_int_equal(read_with("stalls", first_run), 0);
    assert_true(c.metrics.stalls);
    assert_int_equal(c.metrics.n, 0);
    assert_int_equal(c.first_run.launches.n, 2);
    /* each launch of k takes the next selected one's duration, in launch order */
    assert_true(taken_ms("_Z1kv", 1, 32) == 0.341);
    assert_true(taken_ms("_Z1kv", 1, 32) == 1e-6); /* unmeasured: 1 ns, the shortest period */
    assert_true(taken_ms("_Z1kv", 1, 32) == 0.341); /* a third, none left: the kernel's first stands in */
    assert_true(taken_ms("_Z1wv", 8, 64) == -1);    /* the program's own part has no worker's kernel */
    inject_config_free(&c);
}

/* A worker's part is named by its pid, another in each run: it takes the durations of its launches from every part
 * of the first run, by kernel, grid and block, else the kernel's first's. */
static void a_worker_takes_its_launches_durations_from_every_part(void **state)
{
    (void)state;
    assert_int_equal(read_as("stalls", first_run, 0, NULL), 0);
    assert_true(c.child);
    assert_int_equal(c.first_run.launches.n, 6);
    /* no launch of that block: the kernel's first (8 x 64, 5 us) stands in, and is left for a launch of its own */
    assert_true(taken_ms("_Z1wv", 4, 128) == 0.005);
    assert_true(taken_ms("_Z1wv", 8, 64) == 0.005);
    assert_true(taken_ms("_Z1wv", 4, 64) == 0.007);
    assert_true(taken_ms("_Z1wv", 4, 64) == 0.005); /* both taken: the kernel's first again */
    assert_true(taken_ms("_Z1kv", 1, 32) == 0.341);
    assert_true(taken_ms("_Z1qv", 1, 32) == -1); /* a kernel the first run never selected */
    assert_true(taken_ms("_Z1rv", 2, 32) == 0.009); /* a rank's */
    /* a symbol longer than launches.csv keeps: found by what it keeps */
    assert_true(taken_ms(long_symbol(), 1, 32) == 0.003);
    inject_config_free(&c);
}

/* A process with a rank reads its rank's part, and every worker's: a worker that inherited the rank (a compile or
 * DataLoader worker under torchrun) has a part of its own in the first run, process-<pid>. Not the program's own. */
static void a_rank_takes_its_launches_durations_from_its_part_and_the_workers(void **state)
{
    (void)state;
    assert_int_equal(read_as("stalls", first_run, 0, "0"), 0);
    assert_int_equal(c.first_run.launches.n, 4);
    assert_true(taken_ms("_Z1rv", 2, 32) == 0.009);
    assert_true(taken_ms("_Z1wv", 8, 64) == 0.005);
    assert_true(taken_ms("_Z1kv", 1, 32) == -1);
    inject_config_free(&c);
    unsetenv("RANK");
}

static void what_the_launcher_would_not_give_is_refused(void **state)
{
    (void)state;
    expect_refused("stalls", NULL, EXIT_USAGE, INJECT_ENV_FIRST_RUN " is not set");
    expect_refused("stalls", "/nonexistent/memscope", EXIT_USAGE, "cannot read /nonexistent/memscope/launches.csv");
    expect_refused("global,stalls", first_run, EXIT_USAGE, "the stalls group is sampled in a run of its own");
    expect_refused("global,source", NULL, EXIT_USAGE, "the source group is counted in a run of its own");
    expect_refused("source,stalls", first_run, EXIT_USAGE, "the source group is counted in a run of its own");
}

/* The source group's run counts instructions only: no metric, no stall, no first run needed. */
static void the_source_run_counts_instructions_alone(void **state)
{
    (void)state;
    assert_int_equal(read_with("source", NULL), 0);
    assert_true(c.metrics.source);
    assert_false(c.metrics.stalls);
    assert_int_equal(c.metrics.n, 0);
    inject_config_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_stall_run_reads_the_first_runs_selected_durations),
        cmocka_unit_test(a_worker_takes_its_launches_durations_from_every_part),
        cmocka_unit_test(a_rank_takes_its_launches_durations_from_its_part_and_the_workers),
        cmocka_unit_test(what_the_launcher_would_not_give_is_refused),
        cmocka_unit_test(the_source_run_counts_instructions_alone),
    };
    return cmocka_run_group_tests_name("inject config", tests, setup, teardown);
}
