/*
 * The committed traced H100 run (reports/trace-h100, memscope --trace) against the two checks of a trace:
 * tests/schemas/trace-event.schema.json (the Trace Event format as memscope writes it, checked by python3's
 * jsonschema through tests/schemas/validate) and scripts/trace-check (ranges nest, each kernel of a "timed runs"
 * range lies inside it, per variant x width the kernels number the samples plus the warm-up). Then copies of it,
 * each broken in one place, show that both checks bite. trace.json holds one event per line, so a change is a sed
 * on the first line that matches.
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

#include "../support/remove_tree.h"
#include "../support/run_shell.h"

#define RUN "reports/trace-h100"
#define SCHEMA "tests/schemas/trace-event.schema.json"
/* The first line of the copy's trace.json that matches a grep pattern: the variant's own kernels (not the L2 flush
 * that goes before each sample). */
#define FIRST_LINE "line() { grep -n \"$1\" $T | grep -v 'L2 flush' | head -1 | cut -d: -f1; }; "
#define TIMED_KERNEL "'\"cat\":\"kernel\".*\"phase\":\"timed runs\"'"

static char workdir[] = "/tmp/memscope-trace-XXXXXX";
static char copy[128];

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(workdir))
        return -1;
    snprintf(copy, sizeof copy, "%s/run", workdir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

/* A fresh copy of the committed run, changed by a shell command ($T names its trace.json). */
static void copy_run_and(const char *change)
{
    static struct outcome o;
    shell(&o, "rm -rf %s && cp -r %s %s && T=%s/trace.json && " FIRST_LINE "%s", copy, RUN, copy, copy, change);
    assert_int_equal(o.exit_code, 0);
}

static void expect(const struct outcome *o, int exit_code, const char *text)
{
    if (o->exit_code != exit_code || !strstr(o->output, text))
        fail_msg("expected exit %d and \"%s\", got exit %d:\n%s", exit_code, text, o->exit_code, o->output);
}

/* ---- the schema ---- */

/* The python3 that has the jsonschema module: the one on PATH, or Debian's, where scripts/setup installs
 * python3-jsonschema (a python3 of pyenv's or a virtual environment's would not see it), looked for once. Skips
 * the test where neither has it. */
static const char *python_with_jsonschema(void)
{
    static struct outcome o;
    static char python[256];
    if (python[0])
        return python;
    shell(&o, "for p in python3 /usr/bin/python3; do \"$p\" -c 'import jsonschema' 2>/dev/null && "
              "{ echo \"$p\"; exit 0; }; done; exit 1");
    if (o.exit_code != 0) {
        print_message("no python3 with the jsonschema module (scripts/setup test installs python3-jsonschema): "
                      "skipped\n");
        skip();
    }
    snprintf(python, sizeof python, "%.*s", (int)strcspn(o.output, "\n"), o.output);
    return python;
}

static void validate(struct outcome *o, const char *folder)
{
    shell(o, "%s tests/schemas/validate " SCHEMA " %s/trace.json", python_with_jsonschema(), folder);
}

static void the_committed_trace_matches_the_schema(void **state)
{
    (void)state;
    static struct outcome o;
    validate(&o, RUN);
    expect(&o, 0, "trace.json: 0 violation(s)");
}

/* Each change breaks one event of the copy (all in one copy: a run of python3 takes a second): the check names
 * every event and what is wrong with it. */
static void a_malformed_event_fails_the_schema(void **state)
{
    (void)state;
    static const struct {
        const char *change, *found;
    } broken[] = {
        {"n=$(line " TIMED_KERNEL ") && sed -i \"${n}s/\\\"dur\\\":[0-9.]*/\\\"dur\\\":-4.5/\" $T",
         "/dur (event 'void naive_kernel<float>(float const*, float const*, float*, int)'): -4.5 is less than the "
         "minimum of 0"},
        {"n=$(line " TIMED_KERNEL ") && sed -i \"${n}s/\\\"grid\\\":\\[[0-9,]*\\]/\\\"grid\\\":\\\"16x16\\\"/\" $T",
         "/args/grid (event 'void naive_kernel<float>(float const*, float const*, float*, int)'): '16x16' is not of "
         "type 'array'"},
        {"n=$(line " TIMED_KERNEL ") && sed -i \"${n}s/\\\"registers_per_thread\\\":[0-9]*/"
         "\\\"registers_per_thread\\\":\\\"32\\\"/\" $T",
         "/args/registers_per_thread (event 'void naive_kernel<float>(float const*, float const*, float*, int)'): "
         "'32' is not of type 'integer'"},
        {"n=$(line '\"cat\":\"nvtx\"') && sed -i \"${n}s/\\\"ph\\\":\\\"X\\\"/\\\"ph\\\":\\\"B\\\"/\" $T",
         "/ph (event 'allocate'): 'B' is not one of ['X', 'M', 'i']"},
        {"n=$(line '\"cat\":\"nvtx\"') && sed -i \"${n}s/\\\"pid\\\":1,//\" $T",
         "(event 'allocate'): 'pid' is a required property"},
        {"n=$(line '\"cat\":\"memcpy\"') && sed -i \"${n}s/\\\"ts\\\":[0-9.]*,//\" $T",
         "(event 'memcpy HtoD'): 'ts' is a required property"},
    };
    static struct outcome o;
    copy_run_and("true");
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; ++i) {
        shell(&o, "T=%s/trace.json && " FIRST_LINE "%s", copy, broken[i].change);
        assert_int_equal(o.exit_code, 0);
    }
    validate(&o, copy);
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; ++i)
        expect(&o, 1, broken[i].found);
}

/* ---- scripts/trace-check ---- */

static void trace_check(struct outcome *o, const char *folder)
{
    shell(o, "scripts/trace-check %s", folder);
}

static void the_committed_trace_passes_trace_check(void **state)
{
    (void)state;
    static struct outcome o;
    trace_check(&o, RUN);
    /* trace.json's "X" events: 81 of cat "nvtx" (timeline.csv's 81 rows), 612 of cat "kernel" */
    expect(&o, 0, "trace-check: 81 ranges, 612 kernels, 0 problems");
}

/* A product of another shape is found by its range's name ("naive 512x512x512", width 0 with rows, cols and inner in
 * the results' last columns): the committed run with naive's jobs at 512 named so passes as it is. */
static void a_rectangle_s_job_is_found_by_its_shape(void **state)
{
    (void)state;
    static struct outcome o;
    copy_run_and("sed -i 's/naive W=512/naive 512x512x512/g' $T && python3 -c \"import csv, sys\n"
                 "for name in ('summary.csv', 'samples.csv'):\n"
                 "    path = sys.argv[1] + '/' + name\n"
                 "    rows = list(csv.reader(open(path)))\n"
                 "    w = rows[0].index('width')\n"
                 "    out = [rows[0] + ['rows', 'cols', 'inner']]\n"
                 "    for r in rows[1:]:\n"
                 "        shape = [r[w]] * 3\n"
                 "        if r[0] == 'naive' and r[w] == '512':\n"
                 "            r[w] = '0'\n"
                 "        out.append(r + shape)\n"
                 "    csv.writer(open(path, 'w', newline=''), lineterminator='\\\\n').writerows(out)\n"
                 "\" $(dirname $T)");
    trace_check(&o, copy);
    expect(&o, 0, "trace-check: 81 ranges, 612 kernels, 0 problems");
}

static void a_kernel_moved_outside_its_timed_runs_fails_trace_check(void **state)
{
    (void)state;
    static struct outcome o;
    copy_run_and("n=$(line " TIMED_KERNEL ") && sed -i \"${n}s/\\\"ts\\\":[0-9.]*/\\\"ts\\\":9000000.000/\" $T");
    trace_check(&o, copy);
    expect(&o, 1, "kernel void naive_kernel<float>(float const*, float const*, float*, int) of naive W=512 at "
                  "9000000.0 us is not inside its timed runs");
}

/* naive W=512's release (at 503941.048 us, 2.896 us long) made to last a millisecond: it ends at 504941.048 us,
 * past its job's end (313396.052 + 190548.053 = 503944.105 us). */
static void a_range_that_crosses_its_job_fails_trace_check(void **state)
{
    (void)state;
    static struct outcome o;
    copy_run_and("n=$(line '\"cat\":\"nvtx\",\"name\":\"release\"') && "
                 "sed -i \"${n}s/\\\"dur\\\":[0-9.]*/\\\"dur\\\":1000.000/\" $T");
    trace_check(&o, copy);
    expect(&o, 1, "range 'release' at 503941.048 us crosses 'naive W=512'");
}

/* naive W=512 took 17 samples (summary.csv, and its 17 rows in samples.csv) after environment.csv's 3 warm-up
 * launches: 20 kernels of its own in trace.json, one removed. */
static void a_missing_kernel_fails_trace_check(void **state)
{
    (void)state;
    static struct outcome o;
    copy_run_and("n=$(line " TIMED_KERNEL ") && sed -i \"${n}d\" $T");
    trace_check(&o, copy);
    expect(&o, 1, "naive W=512: 19 kernels in its warm-up and timed runs, expected 20 ((17 samples + 3 warm-up) x "
                  "1 kernel(s) a call)");
}

/* A word where samples.csv has a time: refused as bad input (2), naming the file, line and column, never a Python
 * traceback with exit 1, the code of a check that failed. Line 2 is the first sample's. */
static void a_time_that_is_not_a_number_is_refused(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "rm -rf %s && cp -r %s %s && sed -i '2s/,[^,]*$/,lots/' %s/samples.csv", copy, RUN, copy, copy);
    assert_int_equal(o.exit_code, 0);
    shell(&o, "scripts/trace-check %s --durations", copy);
    expect(&o, 2, "samples.csv:2: time_ms: not a number: 'lots'");
    assert_null(strstr(o.output, "Traceback"));
}

/* A program's profile (reports/profile-torch-h100, memscope-profile --trace): its trace is checked against its
 * launches.csv, for the folder's run and for each run-N/: 13 NVTX ranges (timeline.csv's rows) and 12 kernels,
 * the 12 launches of environment.csv's kernel_launches, with launches.csv's durations. */
static void a_programs_profile_passes_trace_check(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "scripts/trace-check reports/profile-torch-h100 --durations");
    expect(&o, 0, "trace-check: 13 ranges, 12 kernels, 0 problems");
    shell(&o, "scripts/trace-check reports/profile-torch-h100/run-4 --durations");
    expect(&o, 0, "trace-check: 13 ranges, 12 kernels, 0 problems");
}

/* The profile's third launch (the matmul, 2667.232 us) made a microsecond longer in a copy of its trace: the
 * check names it. */
static void a_profiles_kernel_of_another_duration_fails_trace_check(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "rm -rf %s && cp -r reports/profile-torch-h100 %s && sed -i 's/\"dur\":2667.232,/\"dur\":2668.232,/' "
              "%s/trace.json",
          copy, copy, copy);
    assert_int_equal(o.exit_code, 0);
    shell(&o, "scripts/trace-check %s --durations", copy);
    expect(&o, 1, "launch 2 (sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_stage3_warpsize4x2x1_ffma_"
                  "aligna4_alignc4_execute_kernel__5x_cublas): 2668.232 us in the trace, 2667.232 us in");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_time_that_is_not_a_number_is_refused),
        cmocka_unit_test(a_programs_profile_passes_trace_check),
        cmocka_unit_test(a_profiles_kernel_of_another_duration_fails_trace_check),
        cmocka_unit_test(the_committed_trace_matches_the_schema),
        cmocka_unit_test(a_malformed_event_fails_the_schema),
        cmocka_unit_test(the_committed_trace_passes_trace_check),
        cmocka_unit_test(a_rectangle_s_job_is_found_by_its_shape),
        cmocka_unit_test(a_kernel_moved_outside_its_timed_runs_fails_trace_check),
        cmocka_unit_test(a_range_that_crosses_its_job_fails_trace_check),
        cmocka_unit_test(a_missing_kernel_fails_trace_check),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
