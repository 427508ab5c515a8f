/*
 * CUPTI's answers that mean "another process holds the GPU's profiler" become
 * PROF_BUSY with a message that says so, and memscope's exit code 7: the range
 * profiler's CUPTI_ERROR_HARDWARE_BUSY, and the CUPTI_ERROR_UNKNOWN that the PC
 * sampler's start and stop give when a second process samples the same GPU
 * (seen with two memscope runs on an H100). Needs no GPU.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <cupti_result.h>

#include "../../cupti/profiler_error.h"
#include "../../harness/profile/profile.h"

static void hardware_busy_is_busy_and_says_another_process(void **state)
{
    (void)state;
    struct prof_error pe = {0};
    assert_int_equal(prof_check(&pe, CUPTI_ERROR_HARDWARE_BUSY, "cuptiRangeProfilerStart"), PROF_BUSY);
    assert_non_null(strstr(pe.message, "cuptiRangeProfilerStart: CUPTI_ERROR_HARDWARE_BUSY"));
    assert_non_null(strstr(pe.message, "another process is using this GPU's profiler"));
}

static void the_samplers_unknown_error_is_busy_and_explained(void **state)
{
    (void)state;
    struct prof_error pe = {0};
    assert_int_equal(prof_check_sampler(&pe, CUPTI_ERROR_UNKNOWN, "cuptiPCSamplingStart"), PROF_BUSY);
    assert_non_null(strstr(pe.message, "cuptiPCSamplingStart: CUPTI_ERROR_UNKNOWN (CUPTI error 999)"));
    assert_non_null(strstr(pe.message, "another process samples the same GPU"));
}

static void the_samplers_other_errors_are_left_as_they_were(void **state)
{
    (void)state;
    struct prof_error sampler = {0}, plain = {0};
    assert_int_equal(prof_check_sampler(&sampler, CUPTI_ERROR_INVALID_PARAMETER, "call"), PROF_FAILED);
    prof_check(&plain, CUPTI_ERROR_INVALID_PARAMETER, "call");
    assert_string_equal(sampler.message, plain.message);
}

/* CUPTI takes one subscriber per process: a program already under another tool is refused with its name, exit 6. */
static void a_second_subscriber_names_the_other_tools(void **state)
{
    (void)state;
    struct prof_error pe = {0};
    struct error e = {0};
    assert_int_equal(prof_check(&pe, CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, "cuptiSubscribe"), PROF_TAKEN);
    assert_non_null(strstr(pe.message, "another tool already holds CUPTI in this process"));
    assert_int_equal(error_from_profiler(&e, &pe), EXIT_PROFILER);
}

static void a_busy_profiler_exits_seven(void **state)
{
    (void)state;
    struct prof_error pe = {0};
    struct error e = {0};
    prof_check(&pe, CUPTI_ERROR_HARDWARE_BUSY, "cuptiRangeProfilerStart");
    assert_int_equal(error_from_profiler(&e, &pe), EXIT_BUSY);
    assert_int_equal(EXIT_BUSY, 7);
    assert_string_equal(e.message, pe.message);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hardware_busy_is_busy_and_says_another_process),
        cmocka_unit_test(the_samplers_unknown_error_is_busy_and_explained),
        cmocka_unit_test(the_samplers_other_errors_are_left_as_they_were),
        cmocka_unit_test(a_busy_profiler_exits_seven),
        cmocka_unit_test(a_second_subscriber_names_the_other_tools),
    };
    return cmocka_run_group_tests_name("profiler_error", tests, NULL, NULL);
}
