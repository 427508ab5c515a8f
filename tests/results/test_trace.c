/*
 * trace.json's host tracks: memscope's own run keeps its one track "NVTX ranges", byte for byte as before
 * (the expected text below is what trace.c wrote before ranges had a thread); a profiled program's ranges go on
 * a track per thread, under the program's name.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/results/trace.h"
#include "../support/remove_tree.h"

static char scratch[] = "/tmp/memscope-test-trace-XXXXXX";
static char json[1 << 14];

static const struct trace_gpu_op kernel = {"kernel", "naive(float*)", "naive W=32", "timed runs", 1200, 1300, 0, 7,
                                           12, {2, 2, 1}, {16, 16, 1}, 32, 0, 0, 0, NULL};

static void write_and_read(const struct trace_header *h, const struct trace_range *ranges, size_t n,
                           const struct trace_job_facts *facts, size_t n_facts)
{
    struct error e = {0};
    char path[128];
    struct trace_gpu_op measured = kernel;
    measured.facts = n_facts ? facts : NULL; /* the variant's own kernel, in its job's timed runs */
    assert_int_equal(trace_write(scratch, h, ranges, n, &measured, 1, &e), 0);
    snprintf(path, sizeof path, "%s/trace.json", scratch);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    json[fread(json, 1, sizeof json - 1, f)] = '\0';
    fclose(f);
}

static void the_suites_ranges_stay_on_their_one_track_as_before(void **state)
{
    (void)state;
    static const struct trace_header h = {"H100", "memscope -v naive", 1000, 0, 0, "memscope (host)"};
    static const struct trace_range ranges[] = {
        {"memscope run", "", 0, 0, 1000, 5000, TRACE_RUN_TRACK},
        {"naive W=32", "naive W=32", 1, 32, 1100, 4000, TRACE_RUN_TRACK},
    };
    static const struct trace_job_facts facts = {"naive W=32", "memory", "long_scoreboard", 0, 87.5};
    write_and_read(&h, ranges, 2, &facts, 1);
    assert_string_equal(
        json,
        "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"memscope_trace_version\":1,\"clock\":\"CUPTI timestamps; ts "
        "and dur in microseconds from the run's first range\",\"gpu\":\"H100\",\"command_line\":\"memscope -v "
        "naive\",\"dropped_gpu_records\":0,\"lost_host_ranges\":0},\n"
        "\"traceEvents\":[\n"
        "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"memscope (host)\"}},\n"
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"NVTX ranges\"}},\n"
        "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2,\"args\":{\"name\":\"H100\"}},\n"
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2,\"tid\":7,\"args\":{\"name\":\"stream 7\"}},\n"
        "{\"ph\":\"X\",\"cat\":\"nvtx\",\"name\":\"memscope "
        "run\",\"pid\":1,\"tid\":1,\"ts\":0.000,\"dur\":4.000,\"args\":{\"job\":\"\",\"width\":0,\"depth\":0}},\n"
        "{\"ph\":\"X\",\"cat\":\"nvtx\",\"name\":\"naive W=32\",\"pid\":1,\"tid\":1,\"ts\":0.100,\"dur\":2.900,"
        "\"args\":{\"job\":\"naive W=32\",\"width\":32,\"depth\":1}},\n"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"naive(float*)\",\"pid\":2,\"tid\":7,\"ts\":0.200,\"dur\":0.100,"
        "\"args\":{\"job\":\"naive W=32\",\"phase\":\"timed runs\",\"correlation\":12,\"grid\":[2,2,1],\"block\":[16,"
        "16,1],\"registers_per_thread\":32,\"static_shared_bytes\":0,\"dynamic_shared_bytes\":0,\"limiter\":"
        "\"memory\",\"shared_conflicts_exact\":0,\"global_load_efficiency_pct\":87.50,\"stall_top_reason\":\"long_"
        "scoreboard\"}}\n"
        "]}\n");
}

static void expect_text(const char *text)
{
    if (!strstr(json, text))
        fail_msg("expected %s in:\n%s", text, json);
}

static void a_programs_threads_get_a_track_each(void **state)
{
    (void)state;
    static const struct trace_header h = {"", "python3 train.py", 1000, 0, 0, "the program (pid 4242)"};
    static const struct trace_range ranges[] = {
        {"step", "", 0, 0, 1000, 5000, 4242},
        {"load", "", 0, 0, 1100, 4000, 4250},
        {"fwd", "", 1, 0, 1200, 1900, 4242},
    };
    write_and_read(&h, ranges, 3, NULL, 0);
    expect_text("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"the program (pid 4242)\"}}");
    expect_text("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":4242,\"args\":{\"name\":\"thread 4242\"}}");
    expect_text("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":4250,\"args\":{\"name\":\"thread 4250\"}}");
    expect_text("\"name\":\"step\",\"pid\":1,\"tid\":4242,");
    expect_text("\"name\":\"load\",\"pid\":1,\"tid\":4250,");
    expect_text("\"name\":\"fwd\",\"pid\":1,\"tid\":4242,");
    assert_null(strstr(strstr(json, "thread 4242") + 1, "thread 4242")); /* each track named once */
}

/* A profile whose GPU's name was not read still names the GPU's process: speedscope reads an empty name as none,
 * and titles the streams' tracks otherwise than a named process's. */
static void a_gpu_without_a_name_is_named_gpu(void **state)
{
    (void)state;
    static const struct trace_header h = {"", "python3 train.py", 1000, 0, 0, "the program (pid 4242)"};
    static const struct trace_range ranges[] = {{"step", "", 0, 0, 1000, 5000, 4242}};
    write_and_read(&h, ranges, 1, NULL, 0);
    expect_text("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2,\"args\":{\"name\":\"GPU\"}}");
}

static int setup(void **state)
{
    (void)state;
    snprintf(scratch, sizeof scratch, "/tmp/memscope-test-trace-XXXXXX");
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
        cmocka_unit_test_setup_teardown(the_suites_ranges_stay_on_their_one_track_as_before, setup, teardown),
        cmocka_unit_test_setup_teardown(a_programs_threads_get_a_track_each, setup, teardown),
        cmocka_unit_test_setup_teardown(a_gpu_without_a_name_is_named_gpu, setup, teardown),
    };
    return cmocka_run_group_tests_name("trace", tests, NULL, NULL);
}
