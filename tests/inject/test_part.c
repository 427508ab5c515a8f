/*
 * A process's part of a program profile as the injection library writes it at exit, from records made up here
 * (no GPU): launches.csv row by row, environment.csv's counts and selection, trace.json's threads, names and NVTX
 * paths, the completion mark written last, and the metrics, stall samples or lines of the launches collected.
 *
 * Thread 100 opens "train" [50, 1000); thread 200 opens "load" [10, 90). Calls: kernelA at 100 and 700 on thread
 * 100 (correlations 1 and 5), a memcpy at 60 on thread 200 (3). The selection takes one launch of kernelA.
 */
#define _XOPEN_SOURCE 700
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <cupti_activity.h>

#include "../../harness/inject/part.h"
#include "../../harness/inject/protocol.h"
#include "../support/remove_tree.h"

static char scratch[] = "/tmp/memscope-test-part-XXXXXX";
static char text[1 << 14];

static struct prof_gpu_op kernel_a(uint32_t correlation, uint64_t start)
{
    return (struct prof_gpu_op){PROF_OP_KERNEL, start, start + 40, 0, 7, correlation, {4, 1, 1}, {128, 1, 1},
                                32, 1024, 256, 0, 0, "_Z7kernelAPf", 0};
}

static void read_part_file(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s was not written", path);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
}

static void expect_text(const char *expected)
{
    if (!strstr(text, expected))
        fail_msg("expected \"%s\" in:\n%s", expected, text);
}

static void the_part_holds_launches_environment_trace_and_mark(void **state)
{
    (void)state;
    struct inject_config c = {.run = 1};
    struct error e = {0};
    const struct prof_gpu_op ops[] = {
        kernel_a(5, 720),
        {.kind = PROF_OP_MEMCPY, .start_ns = 70, .end_ns = 80, .stream = 7, .correlation = 3, .bytes = 4096,
         .copy_kind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD},
        kernel_a(1, 120),
    };
    const struct prof_api_call calls[] = {{100, 110, 1, 100, 1}, {60, 65, 3, 200, 2}, {700, 710, 5, 100, 1}};
    const struct kept_range ranges[] = {{"train", 100, 0, 50, 1000}, {"load", 200, 0, 10, 90}};
    /* the selected launch was timed only: a collective of the program was running (gpu/peers.h); a third, kept back
     * during a graph's capture (cupti/stream_capture.h), has no record here (its correlation none of the ops') but is
     * counted */
    const struct kept_back kept[] = {{5, NOT_REPLAYED_COLLECTIVE_RUNNING}, {9, NOT_REPLAYED_CAPTURING}};
    const struct part_records records = {.ops = ops, .n_ops = 3, .calls = calls, .n_calls = 3, .ranges = ranges,
                                         .n_ranges = 2, .kept = kept, .n_kept = 2, .exit_ns = 2000,
                                         .clock_offset_ns = -5, .replay_wait_ms = 1234.4,
                                         .collective_launch_wait_ms = 56.6};
    snprintf(c.part, sizeof c.part, "%s", scratch);
    assert_int_equal(regcomp(&c.kernel, "kernelA", REG_EXTENDED | REG_NOSUB), 0);
    c.kernel_pattern = "kernelA";
    c.selection = (struct selection){&c.kernel, NULL, 1, 1, 0};
    assert_int_equal(part_write(&c, &records, &e), 0);
    regfree(&c.kernel);

    read_part_file("launches.csv");
    assert_string_equal(text,
                        "ordinal,kernel,mangled,nvtx_path,kernel_ordinal,grid_x,grid_y,grid_z,block_x,block_y,"
                        "block_z,dynamic_smem_bytes,static_smem_bytes,registers_per_thread,duration_ns,selected,"
                        "job,run,not_replayed,start_ns,graph\n"
                        "0,kernelA(float*),_Z7kernelAPf,train,0,4,1,1,128,1,1,256,1024,32,40,0,"
                        "train/kernelA(float*) #0,1,,120,0\n"
                        "1,kernelA(float*),_Z7kernelAPf,train,1,4,1,1,128,1,1,256,1024,32,40,1,"
                        "train/kernelA(float*) #1,1,a collective running,720,0\n");
    read_part_file("environment.csv");
    expect_text("\nkernel_launches,2\n");
    expect_text("\nselected_launches,1\n");
    expect_text("\nkept_back_from_replay,0\nnot_replayed_collective_running,1\nnot_replayed_capturing,1\n");
    expect_text("\nreplay_wait_ms,1234\ncollective_launch_wait_ms,57\n");
    expect_text("\ngpu_records,3\n");
    expect_text("\nnvtx_ranges,2\n");
    expect_text("\nselection_kernel,kernelA\n");
    expect_text("\nselection_launch_skip,1\n");
    expect_text("\nselection_launch_count,1\n");
    expect_text("\npart,the program\n");
    expect_text("\nclock_offset_ns,-5\n"); /* a launch's start_ns plus it is on the host's clock */
    read_part_file("trace.json");
    expect_text("\"tid\":100,\"args\":{\"name\":\"thread 100\"}");
    expect_text("\"name\":\"load\",\"pid\":1,\"tid\":200,\"ts\":0.000,");
    expect_text("\"cat\":\"kernel\",\"name\":\"kernelA(float*)\"");
    expect_text("\"cat\":\"memcpy\",\"name\":\"memcpy HtoD\",\"pid\":2,\"tid\":7,\"ts\":0.060,\"dur\":0.010,"
                "\"args\":{\"job\":\"\",\"phase\":\"load\"");
    read_part_file(INJECT_COMPLETE_MARK);
    assert_string_equal(text, "launches 2 selected 1 timed_only 1 graph 0 capturing 1\n");
}

/* A launch profiled by kernel replay has no activity record: the library made one from its call. Its metrics go
 * to metrics.csv under its job, it alone is selected (whatever the offline rule says), and it is placed, numbered
 * and traced like the others. The other, a CUDA graph's (its record's graph id), says which graph. */
static void a_replayed_launch_has_its_metrics_under_its_job(void **state)
{
    (void)state;
    struct inject_config c = {.run = 2, .metric_groups = "dram"};
    struct error e = {0};
    static struct replayed_launch replayed;
    struct prof_gpu_op ops[] = {kernel_a(1, 120)};
    ops[0].graph = 3;
    const struct prof_api_call calls[] = {{100, 110, 1, 100, 1}, {700, 710, 5, 100, 1}};
    replayed.op = kernel_a(5, 720);
    replayed.profile = (struct profile){.n_metrics = 2, .names = {"dram__bytes_read.sum", "gpu__time_duration.sum"},
                                        .units = {"byte", "nsecond"}, .n_kernels = 1};
    snprintf(replayed.profile.kernels[0].kernel, PROF_KERNEL_NAME_LEN, "_Z7kernelAPf");
    replayed.profile.kernels[0].values[0] = 4096;
    replayed.profile.kernels[0].values[1] = 40;
    const struct part_records records = {.ops = ops, .n_ops = 1, .calls = calls, .n_calls = 2, .exit_ns = 2000,
                                         .replayed = &replayed, .n_replayed = 1};
    snprintf(c.part, sizeof c.part, "%s", scratch);
    assert_int_equal(metric_set_build("dram", NULL, &c.metrics, &e), 0);
    c.selection = (struct selection){NULL, NULL, 0, -1, 0};
    assert_int_equal(part_write(&c, &records, &e), 0);

    read_part_file("launches.csv");
    expect_text("\n0,kernelA(float*),_Z7kernelAPf,,0,4,1,1,128,1,1,256,1024,32,40,0,kernelA(float*) #0,2,,120,3\n");
    expect_text("\n1,kernelA(float*),_Z7kernelAPf,,1,4,1,1,128,1,1,256,1024,32,40,1,kernelA(float*) #1,2,,720,0\n");
    read_part_file("environment.csv");
    expect_text("\ngraph_launches,1\n");
    read_part_file("metrics.csv");
    expect_text("\nkernelA(float*) #1,program,0,kernelA(float*),dram__bytes_read.sum,4096,byte,0,0,0\n");
    if (strstr(text, "kernelA(float*) #0"))
        fail_msg("the launch not profiled has metrics:\n%s", text);
    read_part_file("environment.csv");
    expect_text("\nkind,program\n");
    expect_text("\nselected_launches,1\n");
    expect_text("\nmetric_groups,dram\n");
    expect_text("\nreplay_failures,0\n");
}

/* In the stall sampling's run both launches keep their activity records; each sampled launch's samples are found
 * by its call's correlation and written under its job, one row per line and reason sampled there; a launch whose
 * samples were lost has no rows and is counted, and both are the launches selected. */
static void a_sampled_launch_has_its_stalls_under_its_job(void **state)
{
    (void)state;
    struct inject_config c = {.run = 3, .metric_groups = "stalls"};
    struct error e = {0};
    static struct stall_line line = {.function = "_Z7kernelAPf", .file = "k.cu", .line = 3, .samples = {7, 0, 2}};
    static struct sampled_launch sampled[2];
    static const struct stall_reasons reasons = {3, {"long_scoreboard", "wait", "selected"}};
    const struct prof_gpu_op ops[] = {kernel_a(1, 120), kernel_a(5, 720)};
    const struct prof_api_call calls[] = {{100, 110, 1, 100, 1}, {700, 710, 5, 100, 1}};
    sampled[0] = (struct sampled_launch){.correlation = 1, .failure = "PC sampling dropped 3 of 9 samples"};
    sampled[1] = (struct sampled_launch){.correlation = 5, .call = {.lines = &line, .n = 1}};
    const struct part_records records = {.ops = ops, .n_ops = 2, .calls = calls, .n_calls = 2, .exit_ns = 2000,
                                         .sampled = sampled, .n_sampled = 2, .reasons = &reasons};
    snprintf(c.part, sizeof c.part, "%s", scratch);
    assert_int_equal(metric_set_build("stalls", NULL, &c.metrics, &e), 0);
    c.selection = (struct selection){NULL, NULL, 0, -1, 0};
    assert_int_equal(part_write(&c, &records, &e), 0);

    read_part_file("stalls.csv");
    assert_string_equal(text, "variant,precision,width,kernel,file,line,source,reason,samples,rows,cols,inner\n"
                              "kernelA(float*) #1,program,0,kernelA(float*),k.cu,3,,long_scoreboard,7,0,0,0\n"
                              "kernelA(float*) #1,program,0,kernelA(float*),k.cu,3,,selected,2,0,0,0\n");
    read_part_file("launches.csv");
    expect_text("\n0,kernelA(float*),_Z7kernelAPf,,0,4,1,1,128,1,1,256,1024,32,40,1,kernelA(float*) #0,3,,120,0\n");
    read_part_file("environment.csv");
    expect_text("\nselected_launches,2\n");
    expect_text("\nfirst_sampling_failure,PC sampling dropped 3 of 9 samples\n");
    expect_text("\nsampling_failures,1\n");
    expect_text("\nsampled_launches_without_samples,0\n");
}

/* In the source group's run each patched launch's instructions, placed as it ended, are written under its job: the
 * capture (memscope-decode reads it), lines.csv summed per line, instructions.csv one row per instruction; a launch
 * whose patching failed has none and is counted. */
static void a_patched_launch_has_its_lines_under_its_job(void **state)
{
    (void)state;
    struct inject_config c = {.run = 2, .metric_groups = "source"};
    struct error e = {0};
    /* their name as a SASS record holds it, cut short (sass_metrics.h): the rows name the launch's kernel whole */
    static struct source_instruction instructions[2] = {
        {.function = "_Z7kernelAP", .pc = 0x10, .opcode = "LDG.E", .file = "k.cu", .line = 3},
        {.function = "_Z7kernelAP", .pc = 0x20, .opcode = "STG.E", .file = "k.cu", .line = 3}};
    static struct source_text texts[1] = {{"k.cu", 3, "x[i * 32] = y[i];"}};
    static struct patched_launch patched[2];
    static struct replayed_launch recorded[2]; /* the activity paused: their records made from their calls */
    const struct source_capture captured = {.chip = "GH100", .metrics_named = SASS_METRIC_COUNT, .n_texts = 1,
                                            .texts = texts};
    const struct prof_api_call calls[] = {{100, 110, 1, 100, 1}, {700, 710, 5, 100, 1}};
    recorded[0].op = kernel_a(1, 120);
    recorded[1].op = kernel_a(5, 720);
    instructions[0].values[SASS_INST_EXECUTED] = instructions[0].values[SASS_GLOBAL_LD_INST] = 32;
    instructions[0].values[SASS_GLOBAL_SECTORS] = instructions[0].values[SASS_GLOBAL_SECTORS_IDEAL] = 128;
    instructions[1].values[SASS_INST_EXECUTED] = instructions[1].values[SASS_GLOBAL_ST_INST] = 32;
    instructions[1].values[SASS_GLOBAL_SECTORS] = 1024;
    instructions[1].values[SASS_GLOBAL_SECTORS_IDEAL] = 128;
    patched[0] = (struct patched_launch){.correlation = 1, .failure = "SASS patching follows one CUDA context"};
    patched[1] = (struct patched_launch){.correlation = 5, .call = {.n = 2, .instructions = instructions}};
    const struct part_records records = {.calls = calls, .n_calls = 2, .exit_ns = 2000, .replayed = recorded,
                                         .n_replayed = 2, .patched = patched, .n_patched = 2, .texts = &captured};
    snprintf(c.part, sizeof c.part, "%s", scratch);
    assert_int_equal(metric_set_build("source", NULL, &c.metrics, &e), 0);
    c.selection = (struct selection){NULL, NULL, 0, -1, 0};
    assert_int_equal(part_write(&c, &records, &e), 0);

    read_part_file("lines.csv");
    expect_text("\nkernelA(float*) #1,program,0,kernelA(float*),k.cu,3,x[i * 32] = y[i];,LDG.E STG.E,"
                "global_st_sectors,1024,0,0,0\n");
    expect_text("\nkernelA(float*) #1,program,0,kernelA(float*),k.cu,3,x[i * 32] = y[i];,LDG.E STG.E,"
                "global_excess_sectors,896,0,0,0\n");
    if (strstr(text, "#0"))
        fail_msg("the launch whose patching failed has lines:\n%s", text);
    read_part_file("instructions.csv");
    expect_text("\nkernelA(float*) #1,program,0,kernelA(float*),32,k.cu,3,STG.E,32,");
    read_part_file(INJECT_SOURCE_CAPTURE);
    expect_text("\ncall\tkernelA(float*) #1\tprogram\t0\tkernelA(float*)\ninst\t_Z7kernelAP\t16\tLDG.E\tk.cu\t3\t32\t");
    read_part_file("environment.csv");
    expect_text("\nselected_launches,2\n");
    expect_text("\nfirst_patching_failure,SASS patching follows one CUDA context\n");
    expect_text("\npatching_failures,1\n");
}

static int setup(void **state)
{
    (void)state;
    snprintf(scratch, sizeof scratch, "/tmp/memscope-test-part-XXXXXX");
    return mkdtemp(scratch) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(scratch);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(the_part_holds_launches_environment_trace_and_mark, setup, teardown),
        cmocka_unit_test_setup_teardown(a_replayed_launch_has_its_metrics_under_its_job, setup, teardown),
        cmocka_unit_test_setup_teardown(a_sampled_launch_has_its_stalls_under_its_job, setup, teardown),
        cmocka_unit_test_setup_teardown(a_patched_launch_has_its_lines_under_its_job, setup, teardown),
    };
    return cmocka_run_group_tests_name("part", tests, NULL, NULL);
}
