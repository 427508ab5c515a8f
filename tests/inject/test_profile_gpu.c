/*
 * memscope-profile on a GPU, end to end, over a CUDA program built here (program_increments.cu) whose kernels do
 * not give the same result twice: CUPTI's replay of every pass must be undone, the __device__ counter included,
 * which the program checks itself. increment (3 launches in the NVTX range "increments", 4,096 blocks of 256
 * threads over 2^20 ints) loads and stores each int once: 2^20 * 4 / 32 = 131,072 sectors and 2^20 / 32 = 32,768
 * warp-level instructions each way per launch. While another memscope run holds the GPU (this test, through the
 * lock memscope's runs take), the program waits --wait-gpu seconds at its first profiled launch, then runs on
 * unprofiled and memscope-profile exits 7. With the stalls group, one more run samples the launches on their
 * source lines. Nsight Compute, where it is installed, counts the same. Replays are undone in memory from every
 * allocator CUDA has (program_allocators.cu). Skipped, never passed, without a GPU.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "../../harness/gpu/gpu_lock.h"
#include "../support/build_dir.h"
#include "../support/gpu_present.h"
#include "../support/remove_tree.h"
#include "../support/run_shell.h"

#define SECTORS_PER_LAUNCH 131072
#define INSTRUCTIONS_PER_LAUNCH 32768

static char scratch[] = "/tmp/memscope-profile-gpu-XXXXXX";
static struct outcome o;
static char text[1 << 16];

static struct outcome sampled, counted, lined;

/* file of the profile in folder (under the scratch folder) into text. */
static void read_from(const char *folder, const char *file)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s/%s", scratch, folder, file);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("no %s: memscope-profile said:\n%s", path, o.output);
    size_t used = fread(text, 1, sizeof text - 1, f);
    text[used] = '\0';
    fclose(f);
}

static void read_result(const char *file)
{
    read_from("profile", file);
}

static void expect_in(const char *file, const char *expected)
{
    read_result(file);
    if (!strstr(text, expected))
        fail_msg("%s lacks \"%s\":\n%s", file, expected, text);
}

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(scratch))
        return -1;
    if (!gpu_present())
        return 0;
    shell(&o, "%s/memscope-profile --metric-groups global --launch-count-per-kernel 0 -o %s/profile -- "
              "%s/tests/inject/program_increments", build_dir(), scratch, build_dir());
    shell(&sampled, "%s/memscope-profile --metric-groups global,stalls --launch-count-per-kernel 0 -o %s/stalls -- "
                    "%s/tests/inject/program_increments", build_dir(), scratch, build_dir());
    shell(&counted, "%s/memscope-profile --metric-groups source --kernel increment --launch-skip 1 -o %s/counted -- "
                    "%s/tests/inject/program_increments", build_dir(), scratch, build_dir());
    shell(&lined, "%s/memscope-profile --metric-groups global,shared,sol,source -o %s/lines -- "
                  "%s/tests/inject/program_lines", build_dir(), scratch, build_dir());
    return 0;
}

static void skip_without_gpu(void)
{
    if (!gpu_present()) {
        print_message("no GPU: no program to profile\n");
        skip();
    }
}

static void the_program_ends_right_after_every_pass_was_replayed(void **state)
{
    (void)state;
    skip_without_gpu();
    if (o.exit_code != 0 || !strstr(o.output, "increments: correct"))
        fail_msg("exit %d:\n%s", o.exit_code, o.output);
    expect_in("environment.csv", "\nselected_launches,5\n");
    expect_in("environment.csv", "\nreplay_failures,0\n");
}

/* Memory from each of CUDA's other allocators (program_allocators.cu: a stream-ordered pool, driver-mapped virtual
 * memory, managed memory, mapped pinned host memory) incremented in place and every launch replayed over several
 * passes: each increment counts once. */
static void replays_are_undone_in_memory_from_every_allocator(void **state)
{
    (void)state;
    static struct outcome a;
    skip_without_gpu();
    shell(&a, "%s/memscope-profile --metric-groups global,dram,cache,sol --launch-count-per-kernel 0 -o %s/allocators "
              "-- %s/tests/inject/program_allocators && grep -E '^(replay_passes|replay_failures),' "
              "%s/allocators/environment.csv",
          build_dir(), scratch, build_dir(), scratch);
    if (a.exit_code != 0 || !strstr(a.output, "allocators: correct") || !strstr(a.output, "\nreplay_failures,0\n"))
        fail_msg("exit %d:\n%s", a.exit_code, a.output);
    const char *passes = strstr(a.output, "replay_passes,");
    if (!passes || atoi(passes + strlen("replay_passes,")) < 2)
        fail_msg("the launches were replayed in fewer than two passes: nothing to undo\n%s", a.output);
}

/* Without a selection option, the first launch of each of its two kernels is replayed (2 of 5), every launch timed,
 * and the profile is read by kernel: kernels.csv's two rows hold all five launches. */
static void the_default_selection_replays_each_kernels_first_launch(void **state)
{
    (void)state;
    static struct outcome d;
    skip_without_gpu();
    shell(&d, "%s/memscope-profile --metric-groups global -o %s/default -- %s/tests/inject/program_increments && "
              "grep -E '^(selected_launches|kernel_launches),' %s/default/environment.csv && "
              "python3 -c 'import csv, sys; print(\"selected\", *(r[\"selected\"] for r in csv.DictReader(open("
              "sys.argv[1])))); print(sum(int(r[\"launches\"]) for r in csv.DictReader(open(sys.argv[2]))))' "
              "%s/default/launches.csv %s/default/kernels.csv",
          build_dir(), scratch, build_dir(), scratch, scratch, scratch);
    if (d.exit_code != 0)
        fail_msg("exit %d:\n%s", d.exit_code, d.output);
    if (!strstr(d.output, "selected: the first launch of each kernel in each process") ||
        !strstr(d.output, "\nkernel_launches,5\nselected_launches,2\n") || !strstr(d.output, "selected 1 0 0 1 0\n5\n"))
        fail_msg("expected 2 of 5 launches selected, the first of each kernel, and 5 launches in kernels.csv:\n%s",
                 d.output);
}

static void each_launch_has_its_nvtx_path_grid_and_block(void **state)
{
    (void)state;
    skip_without_gpu();
    for (int k = 0; k < 3; ++k) {
        char row[160];
        snprintf(row, sizeof row, ",increments,%d,4096,1,1,256,1,1,0,", k);
        expect_in("launches.csv", row);
    }
    expect_in("launches.csv", ",count_blocks(),_Z12count_blocksv,,1,64,1,1,32,1,1,0,");
}

static void increments_counts_equal_their_closed_form(void **state)
{
    (void)state;
    skip_without_gpu();
    static const struct {
        const char *metric;
        int value;
    } expected[] = {
        {"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum", SECTORS_PER_LAUNCH},
        {"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum", SECTORS_PER_LAUNCH},
        {"smsp__sass_inst_executed_op_global_ld.sum", INSTRUCTIONS_PER_LAUNCH},
        {"smsp__sass_inst_executed_op_global_st.sum", INSTRUCTIONS_PER_LAUNCH},
    };
    for (int k = 0; k < 3; ++k)
        for (size_t m = 0; m < sizeof expected / sizeof expected[0]; ++m) {
            char row[256];
            snprintf(row, sizeof row, "\"increments/increment(int*, int) #%d\",program,0,\"increment(int*, int)\",%s,%d,",
                     k, expected[m].metric, expected[m].value);
            expect_in("metrics.csv", row);
        }
}

static void skip_without_gpu_or_ncu(void)
{
    static struct outcome found; /* too large for the stack */
    skip_without_gpu();
    shell(&found, "command -v ncu");
    if (found.exit_code != 0) {
        print_message("ncu is not installed: nothing to compare with\n");
        skip();
    }
}

/* The same program under Nsight Compute, with the profile's metrics (both in CUPTI's kernel replay): compare-ncu
 * pairs its five launches with ncu's and finds every instrumented count equal, 4 a launch. The durations and DRAM
 * bytes of kernels of a few microseconds are not asserted. Skipped where ncu is not installed. */
static void counts_equal_nsight_computes_for_the_same_program(void **state)
{
    (void)state;
    static struct outcome ncu;
    skip_without_gpu_or_ncu();
    shell(&ncu,
          "metrics=$(python3 -c 'import csv, sys; print(\",\".join(dict.fromkeys(r[\"metric\"] for r in "
          "csv.DictReader(open(sys.argv[1])) if \"__\" in r[\"metric\"])))' %s/profile/metrics.csv) && "
          "ncu --csv --print-units base --clock-control none --cache-control none --metrics \"$metrics\" "
          "%s/tests/inject/program_increments > %s/ncu.csv && scripts/compare-ncu %s/profile %s/ncu.csv",
          scratch, build_dir(), scratch, scratch, scratch);
    if (!strstr(ncu.output, "exact         20/20 agree\n") ||
        !strstr(ncu.output, "launches      5 of 5 of memscope's paired with ncu's (ncu profiled 5)\n"))
        fail_msg("expected 20 of 20 counts equal over 5 paired launches; got %d:\n%s", ncu.exit_code, ncu.output);
}

/* Field i of a CSV line (quoted fields may hold commas), as a number. */
static long field(const char *line, int i)
{
    int quoted = 0;
    for (; *line && *line != '\n' && i > 0; ++line)
        if (*line == '"')
            quoted = !quoted;
        else if (*line == ',' && !quoted)
            --i;
    return strtol(line, NULL, 10);
}

/* Registers come from the driver for a replayed launch, whose activity record is paused: CUDA 13's runtime
 * launches kernel handles, which only the kernel query answers for. */
static void every_replayed_launch_has_its_registers(void **state)
{
    (void)state;
    skip_without_gpu();
    read_result("launches.csv");
    int rows = 0;
    for (const char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        long registers = field(line + 1, 13), static_shared = field(line + 1, 12);
        if (registers <= 0 || static_shared < 0)
            fail_msg("a launch without its registers (%ld) or static shared memory (%ld):\n%s", registers,
                     static_shared, text);
        ++rows;
    }
    assert_int_equal(rows, 5);
}

/* The text of column name in the row of summary.csv (in text) whose job starts with job. */
static const char *summary_cell(const char *job, const char *name, char *cell, size_t len)
{
    int column = 0;
    const char *header_end = strchr(text, '\n'), *at = text;
    for (; at < header_end && strncmp(at, name, strlen(name)) != 0; ++at)
        column += *at == ',';
    const char *row = strstr(text, job);
    if (at >= header_end || !row)
        fail_msg("summary.csv has no column %s or no row %s:\n%s", name, job, text);
    for (int quoted = 0; column > 0 && *row && *row != '\n'; ++row)
        if (*row == '"')
            quoted = !quoted;
        else if (*row == ',' && !quoted)
            --column;
    snprintf(cell, len, "%.*s", (int)strcspn(row, ",\n"), row);
    return cell;
}

/* The stalls group, in a run of the program of its own: each increment launch's samples on its lines, the
 * program still right, and each launch's top reason in the summary. */
static void the_stalls_group_samples_each_selected_launch_on_its_lines(void **state)
{
    (void)state;
    char cell[64];
    skip_without_gpu();
    if (sampled.exit_code != 0 || !strstr(sampled.output, "increments: correct"))
        fail_msg("exit %d:\n%s", sampled.exit_code, sampled.output);
    read_from("stalls/stall-sampling", "environment.csv");
    if (!strstr(text, "\nsampling_failures,0\n") || !strstr(text, "\nselected_launches,5\n"))
        fail_msg("the stall sampling's run:\n%s", text);
    read_from("stalls", "stalls.csv");
    for (int k = 0; k < 3; ++k) {
        char row[160];
        snprintf(row, sizeof row, "\"increments/increment(int*, int) #%d\",program,0,\"increment(int*, int)\",", k);
        const char *at = strstr(text, row);
        if (!at || !strstr(at, "program_increments.cu,") || !strstr(at, ",x[i] += 1;,"))
            fail_msg("no samples of launch %d on increment's lines:\n%s", k, text);
    }
    read_from("stalls", "summary.csv");
    for (int k = 0; k < 3; ++k) {
        char job[64];
        snprintf(job, sizeof job, "\"increments/increment(int*, int) #%d\"", k);
        if (atol(summary_cell(job, "stall_samples", cell, sizeof cell)) <= 0 ||
            !summary_cell(job, "stall_top_reason", cell, sizeof cell)[0])
            fail_msg("%s has no stall samples or top reason in summary.csv:\n%s", job, text);
    }
}

/* Whether a row of the file in text holds start and ends with end (its newline included). */
static int has_row(const char *start, const char *end)
{
    for (const char *row = text; *row; row = strchr(row, '\n') + 1) {
        const char *next = strchr(row, '\n'), *at = strstr(row, start);
        size_t n = strlen(end);
        if (!next)
            return 0;
        if (at && at < next && (size_t)(next + 1 - row) >= n && strncmp(next + 1 - n, end, n) == 0)
            return 1;
    }
    return 0;
}

/* The source group, in a run of its own, over launches whose kernel ran unselected before them (#0): each selected
 * launch's own counts (#1 and #2), placed on increment's one line, equal their closed form; #0 and count_blocks
 * have none. */
/* A row's end: a program's job multiplies no matrices, its shape 0 x 0 x 0 (rows, cols, inner). */
#define NO_SHAPE ",0,0,0\n"

static void the_source_group_counts_each_selected_launch_on_its_line(void **state)
{
    (void)state;
    skip_without_gpu();
    if (counted.exit_code != 0 || !strstr(counted.output, "increments: correct"))
        fail_msg("exit %d:\n%s", counted.exit_code, counted.output);
    read_from("counted/source-counting", "environment.csv");
    if (!strstr(text, "\npatching_failures,0\n") || !strstr(text, "\nselected_launches,2\n"))
        fail_msg("the source group's run:\n%s", text);
    read_from("counted", "lines.csv");
    for (int k = 1; k <= 2; ++k)
        for (int m = 0; m < 2; ++m) {
            char line[200], count[64];
            snprintf(line, sizeof line, "\"increments/increment(int*, int) #%d\",program,0,\"increment(int*, int)\","
                     "tests/inject/program_increments.cu,26,x[i] += 1;,", k);
            snprintf(count, sizeof count, ",global_%s_sectors,%d" NO_SHAPE, m ? "st" : "ld", SECTORS_PER_LAUNCH);
            if (!has_row(line, count))
                fail_msg("launch #%d lacks %s on increment's line:\n%s", k, count, text);
        }
    if (strstr(text, "#0\"") || strstr(text, "count_blocks"))
        fail_msg("a launch not selected has lines:\n%s", text);
}

/* The program as a worker of a shell, which never loads CUDA (a DataLoader's worker, a pool's): its part is
 * process-<pid>, another pid in each of the four runs (--repeat 2, the stall sampling's, the source group's). Each
 * later run reads it as the first run's worker: its launches are the first run's jobs' samples, its stall samples
 * (the sampling period from the first run's durations) and its lines land on them, nothing unmatched. */
static void a_workers_runs_are_samples_stalls_and_lines_of_the_first_runs_jobs(void **state)
{
    (void)state;
    static struct outcome w;
    skip_without_gpu();
    shell(&w, "%s/memscope-profile --metric-groups global,stalls,source --repeat 2 -o %s/workers -- "
              "sh -c '%s/tests/inject/program_increments; true'", build_dir(), scratch, build_dir());
    if (w.exit_code != 0 || !strstr(w.output, "increments: correct") || strstr(w.output, "first run did not make") ||
        strstr(w.output, "not made by the first run") || strstr(w.output, "could not count"))
        fail_msg("exit %d:\n%s", w.exit_code, w.output);
    const char *job = "]/increments/increment(int*, int) #0\",program,0,";
    read_from("workers", "samples.csv");
    const char *first = strstr(text, job), *second = first ? strstr(first + 1, job) : NULL;
    if (!first || !second || strncmp(second + strlen(job), "2,", 2) != 0)
        fail_msg("the worker's launch #0 lacks its second run's sample:\n%s", text);
    read_from("workers", "stalls.csv");
    if (!strstr(text, job) || !strstr(text, ",x[i] += 1;,"))
        fail_msg("no stall samples of the worker's launch #0 on its line:\n%s", text);
    read_from("workers", "lines.csv");
    char sectors[64];
    snprintf(sectors, sizeof sectors, ",global_ld_sectors,%d" NO_SHAPE, SECTORS_PER_LAUNCH);
    if (!strstr(text, job) || !has_row(job, sectors))
        fail_msg("the worker's launch #0 lacks its exact sectors on its line:\n%s", text);
}

/* A program's planted causes, counted exactly and named on their lines by the findings (program_lines.cu). */
static void a_programs_planted_causes_are_named_on_their_lines(void **state)
{
    (void)state;
    static const struct {
        const char *line, *count;
    } expected[] = {
        {"program_lines.cu,26,out[(i % TILE) * (ELEMENTS / TILE) + i / TILE] = in[i];,",
         ",global_st_sectors,16777216" NO_SHAPE},
        {"program_lines.cu,26,out[(i % TILE) * (ELEMENTS / TILE) + i / TILE] = in[i];,",
         ",global_excess_sectors,14680064" NO_SHAPE},
        {"program_lines.cu,26,out[(i % TILE) * (ELEMENTS / TILE) + i / TILE] = in[i];,",
         ",global_ld_sectors,2097152" NO_SHAPE},
        {"program_lines.cu,33,tile[threadIdx.x][threadIdx.y] = in[y * SIDE + x];,",
         ",shared_st_wavefronts,16777216" NO_SHAPE},
        {"program_lines.cu,33,tile[threadIdx.x][threadIdx.y] = in[y * SIDE + x];,",
         ",shared_excess_wavefronts,16252928" NO_SHAPE}};
    skip_without_gpu();
    if (lined.exit_code != 0 || !strstr(lined.output, "lines: correct"))
        fail_msg("exit %d:\n%s", lined.exit_code, lined.output);
    read_from("lines", "lines.csv");
    for (size_t i = 0; i < sizeof expected / sizeof *expected; ++i)
        if (!has_row(expected[i].line, expected[i].count))
            fail_msg("lines.csv lacks %s...%s:\n%s", expected[i].line, expected[i].count, text);
    read_from("lines", "findings.csv");
    if (!strstr(text, "uncoalesced_global_stores") || !strstr(text, "program_lines.cu:26") ||
        !strstr(text, "shared_store_conflicts") || !strstr(text, "program_lines.cu:33"))
        fail_msg("findings.csv does not name both planted lines:\n%s", text);
}

/* The same launches' source page in Nsight Compute: every instruction's counts equal (compare-ncu-lines). Skipped
 * where ncu is not installed. */
static void the_programs_lines_equal_nsight_computes_source_page(void **state)
{
    (void)state;
    static struct outcome ncu;
    skip_without_gpu_or_ncu();
    shell(&ncu, "ncu --section SourceCounters --clock-control none -c 2 -o %s/lines-ncu %s/tests/inject/program_lines "
                "&& ncu -i %s/lines-ncu.ncu-rep --page source --csv --print-source cuda,sass > %s/lines-ncu.csv && "
                "scripts/compare-ncu-lines %s/lines/source-counting/program.source %s/lines-ncu.csv",
          scratch, build_dir(), scratch, scratch, scratch, scratch);
    if (ncu.exit_code != 0)
        fail_msg("compare-ncu-lines exit %d:\n%s", ncu.exit_code, ncu.output);
}

/* With metrics, and in a run that only records (as --repeat's later runs do), the turn is taken at the first
 * launch. */
static void a_gpu_another_run_holds_is_waited_for_then_refused_with_7(void **state)
{
    (void)state;
    static struct outcome busy;
    static const char *const groups[] = {"global", "none"};
    struct cudaDeviceProp prop;
    struct error e = {0};
    char key[64], launches[160];
    double waited;
    skip_without_gpu();
    assert_int_equal(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
    gpu_lock_key((const unsigned char *)prop.uuid.bytes, key, sizeof key);
    assert_int_equal(gpu_lock_take(gpu_lock_folder(), key, "test_profile_gpu holding the GPU", 600, stderr, &waited, &e),
                     0);
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; ++g) {
        shell(&busy, "%s/memscope-profile --metric-groups %s --wait-gpu 1 -o %s/busy-%s -- "
                     "%s/tests/inject/program_increments", build_dir(), groups[g], scratch, groups[g], build_dir());
        if (busy.exit_code != 7 || !strstr(busy.output, "test_profile_gpu holding the GPU") ||
            !strstr(busy.output, "increments: correct"))
            fail_msg("--metric-groups %s: expected exit 7 naming the holder, the program ending right; got %d:\n%s",
                     groups[g], busy.exit_code, busy.output);
        snprintf(launches, sizeof launches, "%s/busy-%s.partial/launches.csv", scratch, groups[g]);
        FILE *f = fopen(launches, "r");
        assert_non_null(f);
        int lines = 0;
        for (int c; (c = fgetc(f)) != EOF;)
            lines += c == '\n';
        fclose(f);
        assert_int_equal(lines, 1 + 5); /* the header and each launch once, the first (not profiled) included */
    }
    gpu_lock_release();
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(scratch);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_program_ends_right_after_every_pass_was_replayed),
        cmocka_unit_test(replays_are_undone_in_memory_from_every_allocator),
        cmocka_unit_test(the_default_selection_replays_each_kernels_first_launch),
        cmocka_unit_test(each_launch_has_its_nvtx_path_grid_and_block),
        cmocka_unit_test(increments_counts_equal_their_closed_form),
        cmocka_unit_test(counts_equal_nsight_computes_for_the_same_program),
        cmocka_unit_test(every_replayed_launch_has_its_registers),
        cmocka_unit_test(the_stalls_group_samples_each_selected_launch_on_its_lines),
        cmocka_unit_test(the_source_group_counts_each_selected_launch_on_its_line),
        cmocka_unit_test(a_workers_runs_are_samples_stalls_and_lines_of_the_first_runs_jobs),
        cmocka_unit_test(a_programs_planted_causes_are_named_on_their_lines),
        cmocka_unit_test(the_programs_lines_equal_nsight_computes_source_page),
        cmocka_unit_test(a_gpu_another_run_holds_is_waited_for_then_refused_with_7),
    };
    return cmocka_run_group_tests_name("memscope-profile on a GPU", tests, setup, teardown);
}
