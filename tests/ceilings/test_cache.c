/*
 * The ceilings' cache (harness/ceilings/cache.c) and a profile's roofs (harness/launcher/roofs.c), with no GPU:
 * an entry is named by the GPU's UUID, the driver and the memscope commit, under $MEMSCOPE_CACHE_DIR, else
 * $XDG_CACHE_HOME/memscope, else $HOME/.cache/memscope; a build with uncommitted changes has none; what is stored
 * is found again under the same key only, and only its ceilings; a profile's environment (the committed fixture
 * tests/fixtures/profile-small) gets the ceilings measured on its GPU, never another GPU's.
 */
#define _XOPEN_SOURCE 700
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../harness/ceilings/cache.h"
#include "../../harness/launcher/roofs.h"
#include "../support/remove_tree.h"

#define UUID "GPU-0a1b2c3d-0000-1111-2222-333344445555"
static const struct ceiling_cache_key h100 = {UUID, "580.159.04", "0123456789abcdef", "0"};
static char folder[] = "/tmp/memscope-test-cache-XXXXXX";

static int make_folder(void **state)
{
    (void)state;
    if (!mkdtemp(folder))
        return -1;
    unsetenv("XDG_CACHE_HOME");
    return setenv("MEMSCOPE_CACHE_DIR", folder, 1);
}

static int remove_folder(void **state)
{
    (void)state;
    return remove_tree(folder);
}

static void entry_is(const struct ceiling_cache_key *k, const char *expected)
{
    char path[4096], why[160];
    const char *got = ceiling_cache_entry(k, path, sizeof path, why, sizeof why);
    if (!got || strcmp(got, expected) != 0)
        fail_msg("entry %s, expected %s (%s)", got ? got : "none", expected, got ? "" : why);
}

static void an_entry_is_named_by_gpu_driver_and_commit(void **state)
{
    (void)state;
    char expected[4096];
    snprintf(expected, sizeof expected, "%s/ceilings/" UUID "_driver-580.159.04_0123456789abcdef", folder);
    entry_is(&h100, expected);
    unsetenv("MEMSCOPE_CACHE_DIR");
    setenv("XDG_CACHE_HOME", "/x/cache", 1);
    entry_is(&h100, "/x/cache/memscope/ceilings/" UUID "_driver-580.159.04_0123456789abcdef");
    setenv("XDG_CACHE_HOME", "relative", 1); /* invalid by the XDG rule: ignored */
    setenv("HOME", "/home/someone", 1);
    entry_is(&h100, "/home/someone/.cache/memscope/ceilings/" UUID "_driver-580.159.04_0123456789abcdef");
    /* a driver's text with a character no file name should hold */
    struct ceiling_cache_key odd = h100;
    odd.driver = "13.0/x";
    entry_is(&odd, "/home/someone/.cache/memscope/ceilings/" UUID "_driver-13.0_x_0123456789abcdef");
    setenv("MEMSCOPE_CACHE_DIR", folder, 1);
    unsetenv("XDG_CACHE_HOME");
}

static void no_entry_for_a_dirty_or_unknown_build(void **state)
{
    (void)state;
    char path[4096], why[160];
    struct ceiling_cache_key k = h100;
    k.dirty = "1";
    assert_null(ceiling_cache_entry(&k, path, sizeof path, why, sizeof why));
    assert_non_null(strstr(why, "uncommitted changes"));
    k = h100;
    k.commit = "unknown";
    assert_null(ceiling_cache_entry(&k, path, sizeof path, why, sizeof why));
    assert_non_null(strstr(why, "unknown"));
    k = h100;
    k.gpu_uuid = NULL;
    assert_null(ceiling_cache_entry(&k, path, sizeof path, why, sizeof why));
}

/* What memscope --measure-ceilings collects: the GPU's entries and the ceilings. */
static void measured_environment(struct environment *env)
{
    *env = (struct environment){0};
    env_add(env, "gpu_name", "NVIDIA H100 80GB HBM3");
    env_add(env, "gpu_uuid", UUID);
    env_add(env, "sm_count", "132");
    env_add(env, "ceiling_dram_gbs", "2862.5");
    env_add(env, "ceiling_fp32_gflops", "64362.7");
    env_add(env, "ceiling_tensor_bf16_gflops", "912345.6");
}

static void what_is_stored_is_found_under_its_key_only(void **state)
{
    (void)state;
    static struct environment measured, found_env;
    bool stored, found;
    struct error e = {0};
    measured_environment(&measured);
    assert_int_equal(ceiling_cache_load(&h100, &found_env, &found, &e), 0);
    assert_false(found); /* nothing stored yet */
    assert_int_equal(ceiling_cache_store(&h100, &measured, &stored, &e), 0);
    assert_true(stored);
    assert_int_equal(ceiling_cache_load(&h100, &found_env, &found, &e), 0);
    assert_true(found);
    assert_string_equal(env_value(&found_env, "ceiling_tensor_bf16_gflops"), "912345.6");
    assert_string_equal(env_value(&found_env, "ceiling_dram_gbs"), "2862.5");
    assert_string_equal(env_value(&found_env, "driver"), "580.159.04");
    assert_null(env_value(&found_env, "sm_count")); /* the ceilings and the key, nothing else */
    /* another GPU, driver or build finds nothing */
    struct ceiling_cache_key other[3] = {h100, h100, h100};
    other[0].gpu_uuid = "GPU-ffffffff-0000-1111-2222-333344445555";
    other[1].driver = "580.200.01";
    other[2].commit = "fedcba9876543210";
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(ceiling_cache_load(&other[i], &found_env, &found, &e), 0);
        assert_false(found);
    }
    /* no .partial left behind */
    char partial[4096];
    snprintf(partial, sizeof partial, "%s/ceilings/" UUID "_driver-580.159.04_0123456789abcdef.partial", folder);
    assert_int_not_equal(access(partial, F_OK), 0);
}

static void a_dirty_build_stores_nothing(void **state)
{
    (void)state;
    static struct environment measured, found_env;
    bool stored = true, found = true;
    struct error e = {0};
    struct ceiling_cache_key k = h100;
    k.dirty = "1";
    k.commit = "1111111111111111";
    measured_environment(&measured);
    assert_int_equal(ceiling_cache_store(&k, &measured, &stored, &e), 0);
    assert_false(stored);
    k.dirty = "0";
    assert_int_equal(ceiling_cache_load(&k, &found_env, &found, &e), 0);
    assert_false(found);
}

/* An entry whose own key entries do not match its name (copied or renamed by hand) is not trusted. */
static void an_entry_whose_contents_name_another_key_is_not_used(void **state)
{
    (void)state;
    static struct environment measured, found_env;
    bool stored, found;
    struct error e = {0};
    struct ceiling_cache_key k = h100;
    k.commit = "2222222222222222";
    measured_environment(&measured);
    assert_int_equal(ceiling_cache_store(&k, &measured, &stored, &e), 0);
    char command[8192];
    snprintf(command, sizeof command, "sed -i 's/^git_commit,.*/git_commit,3333333333333333/' '%s/ceilings/" UUID
             "_driver-580.159.04_2222222222222222/environment.csv'", folder);
    assert_int_equal(system(command), 0);
    assert_int_equal(ceiling_cache_load(&k, &found_env, &found, &e), 0);
    assert_false(found);
    /* and one that is no environment.csv is an error naming it */
    snprintf(command, sizeof command, "printf 'a,b,c\\n1,2,3\\n' > '%s/ceilings/" UUID
             "_driver-580.159.04_2222222222222222/environment.csv'", folder);
    assert_int_equal(system(command), 0);
    assert_int_not_equal(ceiling_cache_load(&k, &found_env, &found, &e), 0);
    assert_non_null(strstr(e.message, "not an environment.csv"));
}

/* The committed profile (memscope-profile on an H100, no ceilings) gets the ceilings measured on its GPU, and the SM
 * resources the findings' wave and occupancy rules read, so that the report can apply them again. */
static void a_profile_gets_the_ceilings_of_its_gpu(void **state)
{
    (void)state;
    static struct environment profile, measured;
    char why[256] = "";
    struct error e = {0};
    if (env_read("tests/fixtures/profile-small", &profile, &e))
        fail_msg("%s", e.message);
    assert_null(env_value(&profile, "ceiling_fp32_gflops"));
    int before = profile.count;
    measured_environment(&measured);
    env_add(&measured, "ceiling_cache", "reused /x/entry");
    env_add(&measured, "sm_max_blocks", "32");
    env_add(&measured, "sm_clock_mhz_start", "1755"); /* the ceilings run's clock, not the program's: not copied */
    assert_int_equal(roofs_merge(&measured, &profile, why, sizeof why), 4);
    assert_int_equal(profile.count, before + 4 + 2);
    assert_string_equal(env_value(&profile, "ceiling_fp32_gflops"), "64362.7");
    assert_string_equal(env_value(&profile, "ceiling_tensor_bf16_gflops"), "912345.6");
    assert_string_equal(env_value(&profile, "ceiling_cache"), "reused /x/entry");
    assert_string_equal(env_value(&profile, "sm_count"), "132");
    assert_string_equal(env_value(&profile, "sm_max_blocks"), "32");
    assert_null(env_value(&profile, "sm_clock_mhz_start"));
    assert_null(env_value(&profile, "sm_registers")); /* what the ceilings' run did not record stays unknown */
}

static void another_gpu_s_ceilings_are_not_copied(void **state)
{
    (void)state;
    static struct environment profile, measured;
    char why[256] = "";
    struct error e = {0};
    if (env_read("tests/fixtures/profile-small", &profile, &e))
        fail_msg("%s", e.message);
    int before = profile.count;
    measured_environment(&measured);
    snprintf(measured.entry[0].value, sizeof measured.entry[0].value, "NVIDIA H200");
    assert_int_equal(roofs_merge(&measured, &profile, why, sizeof why), 0);
    assert_int_equal(profile.count, before);
    assert_non_null(strstr(why, "measured on NVIDIA H200, the program ran on NVIDIA H100 80GB HBM3"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_entry_is_named_by_gpu_driver_and_commit),
        cmocka_unit_test(no_entry_for_a_dirty_or_unknown_build),
        cmocka_unit_test(what_is_stored_is_found_under_its_key_only),
        cmocka_unit_test(a_dirty_build_stores_nothing),
        cmocka_unit_test(an_entry_whose_contents_name_another_key_is_not_used),
        cmocka_unit_test(a_profile_gets_the_ceilings_of_its_gpu),
        cmocka_unit_test(another_gpu_s_ceilings_are_not_copied),
    };
    return cmocka_run_group_tests_name("ceiling_cache", tests, make_folder, remove_folder);
}
