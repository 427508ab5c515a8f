/* The counts a run with the source group sums from its instructions instead of patching for them in the metric
 * passes (harness/profile/summed_counts.h): which leave the set, and the sums each kernel gets. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/profile/summed_counts.h"

static const char *const summed_names[] = {
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
};
#define SUMMED_NAMES (int)(sizeof summed_names / sizeof summed_names[0])

static int index_of(const struct metric_set *s, const char *name)
{
    for (int i = 0; i < s->n; ++i)
        if (strcmp(s->names[i], name) == 0)
            return i;
    return -1;
}

static void build(const char *groups, const char *extra, struct metric_set *s)
{
    struct error e = {0};
    if (metric_set_build(groups, extra, s, &e))
        fail_msg("metric_set_build(%s): %s", groups, e.message);
}

static void the_source_group_takes_the_shared_counts_out_of_the_passes(void **state)
{
    (void)state;
    struct metric_set with, without;
    build("shared,source", NULL, &with);
    build("shared", NULL, &without);
    assert_int_equal(summed_counts_leave_out(&with), SUMMED_NAMES);
    assert_int_equal(with.n, without.n - SUMMED_NAMES);
    assert_int_equal(with.n_summed, SUMMED_NAMES);
    for (int i = 0; i < SUMMED_NAMES; ++i) {
        assert_int_equal(index_of(&with, summed_names[i]), -1);
        bool listed = false;
        for (int k = 0; k < with.n_summed; ++k)
            listed = listed || strcmp(with.summed[k], summed_names[i]) == 0;
        assert_true(listed);
    }
    /* the shared group's other metrics stay, in their order: bytes (distinct addresses), ldmatrix, the hardware's */
    int last = -1;
    for (int i = 0; i < without.n; ++i) {
        int at = index_of(&with, without.names[i]);
        bool summed = false;
        for (int k = 0; k < SUMMED_NAMES; ++k)
            summed = summed || strcmp(without.names[i], summed_names[k]) == 0;
        if (summed)
            continue;
        assert_true(at > last);
        last = at;
    }
    assert_true(index_of(&with, "smsp__sass_data_bytes_mem_shared_op_ld.sum") >= 0);
    assert_true(index_of(&with, "smsp__sass_inst_executed_op_ldsm.sum") >= 0);
}

static void without_the_source_group_or_another_metric_nothing_leaves(void **state)
{
    (void)state;
    struct metric_set s;
    build("shared", NULL, &s);
    int n = s.n;
    assert_int_equal(summed_counts_leave_out(&s), 0);
    assert_int_equal(s.n, n);
    build("source", "smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum", &s);
    assert_int_equal(summed_counts_leave_out(&s), 0); /* the source group needs a metric pass before it */
    assert_int_equal(s.n, 2);
    /* without the shared group nothing is left out, so nothing is summed in: no shared count, and no estimate of
     * conflicts from instruction counts without the shared bytes */
    build("global,source", NULL, &s);
    n = s.n;
    assert_int_equal(summed_counts_leave_out(&s), 0);
    assert_int_equal(s.n, n);
    assert_int_equal(s.n_summed, 0);
}

static struct source_instruction *add(struct source_call *call, const char *function, const char *opcode,
                                      uint64_t shared_ld, uint64_t shared_st, uint64_t wavefronts)
{
    struct error e = {0};
    struct source_instruction *in = source_add_instruction(call, &e);
    assert_non_null(in);
    snprintf(in->function, sizeof in->function, "%s", function);
    snprintf(in->opcode, sizeof in->opcode, "%s", opcode);
    in->values[SASS_INST_EXECUTED] = shared_ld + shared_st + 1;
    in->values[SASS_SHARED_LD_INST] = shared_ld;
    in->values[SASS_SHARED_ST_INST] = shared_st;
    in->values[SASS_SHARED_WAVEFRONTS] = wavefronts;
    return in;
}

static double value_of(const struct profile *p, int kernel, const char *name)
{
    for (int i = 0; i < p->n_metrics; ++i)
        if (strcmp(p->names[i], name) == 0)
            return p->kernels[kernel].values[i];
    fail_msg("%s not in the profile", name);
    return NAN;
}

/* Two kernels of one call, one of them run under the source group; an LDGSTS writes shared memory but is neither a
 * shared load nor a shared store to CUPTI (op_shared_st leaves it out), so its wavefronts count in neither. */
static void each_kernel_sums_its_own_instructions(void **state)
{
    (void)state;
    static struct profile p;
    static struct source_call call;
    struct error e = {0};
    p = (struct profile){.n_metrics = 1, .n_kernels = 2};
    p.names[0] = "gpu__time_duration.sum";
    snprintf(p.kernels[0].kernel, sizeof p.kernels[0].kernel, "tile(int)");
    snprintf(p.kernels[1].kernel, sizeof p.kernels[1].kernel, "epilogue(float*)");
    call = (struct source_call){0};
    add(&call, "_Z4tilei", "LDS", 40, 0, 40);
    add(&call, "_Z4tilei", "LDS.128", 10, 0, 40);
    add(&call, "_Z4tilei", "STS", 0, 8, 256);
    add(&call, "_Z4tilei", "LDGSTS.E.BYPASS.128", 0, 0, 64);
    add(&call, "_Z4tilei", "FFMA", 0, 0, 0);
    add(&call, "_Z5otheri", "LDS", 7, 0, 7); /* another kernel of the module, not this call's */
    assert_int_equal(summed_counts_add(&p, &call, summed_names, SUMMED_NAMES, &e), 0);
    assert_int_equal(p.n_metrics, 1 + SUMMED_NAMES);
    assert_true(value_of(&p, 0, summed_names[0]) == 80.0);
    assert_true(value_of(&p, 0, summed_names[1]) == 256.0);
    assert_true(value_of(&p, 0, summed_names[2]) == 50.0);
    assert_true(value_of(&p, 0, summed_names[3]) == 8.0);
    for (int i = 0; i < SUMMED_NAMES; ++i)
        assert_true(isnan(value_of(&p, 1, summed_names[i]))); /* no instruction of it: not counted, not 0 */
    assert_string_equal(p.units[1], "l1tex_wavefront");
    assert_string_equal(p.units[3], "instruction");
    free(call.instructions);
}

/* A profile that has a count already (the metric passes collected it: --validate, runs before the source group
 * summed them) keeps it; one of no kernel (its metric passes failed) gets nothing. */
static void what_the_passes_collected_stays(void **state)
{
    (void)state;
    static struct profile p;
    static struct source_call call;
    struct error e = {0};
    p = (struct profile){.n_metrics = 1, .n_kernels = 1};
    p.names[0] = summed_names[2];
    p.kernels[0].values[0] = 12.0;
    snprintf(p.kernels[0].kernel, sizeof p.kernels[0].kernel, "tile(int)");
    call = (struct source_call){0};
    add(&call, "_Z4tilei", "LDS", 40, 0, 40);
    assert_int_equal(summed_counts_add(&p, &call, summed_names, SUMMED_NAMES, &e), 0);
    assert_int_equal(p.n_metrics, SUMMED_NAMES);
    assert_true(value_of(&p, 0, summed_names[2]) == 12.0);
    assert_true(value_of(&p, 0, summed_names[0]) == 40.0);
    p = (struct profile){0};
    assert_int_equal(summed_counts_add(&p, &call, summed_names, SUMMED_NAMES, &e), 0);
    assert_int_equal(p.n_metrics, 0);
    free(call.instructions);
}

/* Only the counts named are added (a run leaves out those its groups name; a capture's tags say which). */
static void only_the_counts_named_are_added(void **state)
{
    (void)state;
    static struct profile p;
    static struct source_call call;
    struct error e = {0};
    p = (struct profile){.n_metrics = 0, .n_kernels = 1};
    snprintf(p.kernels[0].kernel, sizeof p.kernels[0].kernel, "tile(int)");
    call = (struct source_call){0};
    add(&call, "_Z4tilei", "LDS", 40, 0, 40);
    assert_int_equal(summed_counts_add(&p, &call, summed_names + 2, 1, &e), 0);
    assert_int_equal(p.n_metrics, 1);
    assert_string_equal(p.names[0], summed_names[2]);
    assert_int_equal(summed_counts_add(&p, &call, summed_names, 0, &e), 0);
    assert_int_equal(p.n_metrics, 1);
    const char *unknown[] = {"dram__bytes_read.sum"};
    assert_int_equal(summed_counts_add(&p, &call, unknown, 1, &e), EXIT_USAGE);
    assert_non_null(strstr(e.message, "dram__bytes_read.sum"));
    free(call.instructions);
}

/* Two kernels of one call under one name (a library's kernel launched twice with other arguments): their
 * instructions cannot be told apart, so neither gets a sum rather than each the sum of both. */
static void kernels_of_one_name_are_not_counted(void **state)
{
    (void)state;
    static struct profile p;
    static struct source_call call;
    struct error e = {0};
    p = (struct profile){.n_metrics = 0, .n_kernels = 3};
    snprintf(p.kernels[0].kernel, sizeof p.kernels[0].kernel, "tile(int)");
    snprintf(p.kernels[1].kernel, sizeof p.kernels[1].kernel, "tile(int)");
    snprintf(p.kernels[2].kernel, sizeof p.kernels[2].kernel, "other(int)");
    call = (struct source_call){0};
    add(&call, "_Z4tilei", "LDS", 40, 0, 40);
    add(&call, "_Z5otheri", "LDS", 7, 0, 7);
    assert_int_equal(summed_counts_add(&p, &call, summed_names, SUMMED_NAMES, &e), 0);
    assert_true(isnan(value_of(&p, 0, summed_names[0])));
    assert_true(isnan(value_of(&p, 1, summed_names[0])));
    assert_true(value_of(&p, 2, summed_names[0]) == 7.0);
    free(call.instructions);
}

static void a_full_profile_is_refused_by_name(void **state)
{
    (void)state;
    static struct profile p;
    static struct source_call call;
    struct error e = {0};
    p = (struct profile){.n_metrics = MAX_METRICS, .n_kernels = 1};
    for (int i = 0; i < MAX_METRICS; ++i)
        p.names[i] = "dram__bytes_read.sum";
    call = (struct source_call){0};
    assert_int_equal(summed_counts_add(&p, &call, summed_names, SUMMED_NAMES, &e), EXIT_RUNTIME);
    assert_non_null(strstr(e.message, summed_names[0]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_source_group_takes_the_shared_counts_out_of_the_passes),
        cmocka_unit_test(without_the_source_group_or_another_metric_nothing_leaves),
        cmocka_unit_test(each_kernel_sums_its_own_instructions),
        cmocka_unit_test(what_the_passes_collected_stays),
        cmocka_unit_test(only_the_counts_named_are_added),
        cmocka_unit_test(kernels_of_one_name_are_not_counted),
        cmocka_unit_test(a_full_profile_is_refused_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
