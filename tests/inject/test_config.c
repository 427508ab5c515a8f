/*
 * What the injection library reads from the environment memscope-profile gives the program (no GPU): the stall
 * sampling's run takes the stalls group alone, with the first run's durations of its selected launches; anything
 * else the launcher would not have given is refused with exit 2 and named.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/inject/config.h"
#include "../../harness/inject/protocol.h"

static struct inject_config c;
static struct error e;

static int read_with(const char *groups, const char *stall_ms)
{
    e = (struct error){0};
    setenv(INJECT_ENV_DIR, "/tmp/memscope-test-config", 1);
    setenv(INJECT_ENV_METRIC_GROUPS, groups, 1);
    if (stall_ms)
        setenv(INJECT_ENV_STALL_MS, stall_ms, 1);
    else
        unsetenv(INJECT_ENV_STALL_MS);
    int rc = inject_config_read(&c, &e);
    inject_config_free(&c);
    return rc;
}

static void expect_refused(const char *groups, const char *stall_ms, const char *text)
{
    if (read_with(groups, stall_ms) != EXIT_USAGE || !strstr(e.message, text))
        fail_msg("%s with %s: expected exit 2 and \"%s\"; got %d: %s", groups, stall_ms ? stall_ms : "(unset)", text,
                 e.code, e.message);
}

static void the_stall_run_reads_each_selected_launchs_duration(void **state)
{
    (void)state;
    e = (struct error){0};
    setenv(INJECT_ENV_DIR, "/tmp/memscope-test-config", 1);
    setenv(INJECT_ENV_METRIC_GROUPS, "stalls", 1);
    setenv(INJECT_ENV_STALL_MS, "0.341,2.5,0.000001", 1);
    assert_int_equal(inject_config_read(&c, &e), 0);
    assert_true(c.metrics.stalls);
    assert_int_equal(c.metrics.n, 0);
    assert_int_equal(c.n_stall_ms, 3);
    assert_true(c.stall_ms[0] == 0.341 && c.stall_ms[1] == 2.5 && c.stall_ms[2] == 0.000001);
    inject_config_free(&c);
}

static void what_the_launcher_would_not_give_is_refused(void **state)
{
    (void)state;
    expect_refused("stalls", NULL, INJECT_ENV_STALL_MS " is not set");
    expect_refused("stalls", "", INJECT_ENV_STALL_MS " is not set");
    expect_refused("stalls", "0.5,x", "'x' is not a duration in milliseconds above 0");
    expect_refused("stalls", "0.5,0", "'0' is not a duration in milliseconds above 0");
    expect_refused("stalls", "0.5,,1", "'' is not a duration");
    expect_refused("global,stalls", "1", "the stalls group is sampled in a run of its own");
    expect_refused("global,source", NULL, "the source group is not collected in a program");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_stall_run_reads_each_selected_launchs_duration),
        cmocka_unit_test(what_the_launcher_would_not_give_is_refused),
    };
    return cmocka_run_group_tests_name("inject config", tests, NULL, NULL);
}
