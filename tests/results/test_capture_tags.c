/* The summed counts' tags of a batch's capture (harness/results/capture_tags.h): written, read back, and refused
 * where they are malformed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/results/capture_tags.h"

static const char *const names[] = {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                    "smsp__sass_inst_executed_op_shared_st.sum"};

static void summed_counts_come_back_in_their_order(void **state)
{
    (void)state;
    static struct prof_capture capture;
    const char *back[4];
    memset(&capture, 0, sizeof capture);
    assert_int_equal(capture_tags_write_summed(&capture, names, 2), 0);
    assert_string_equal(prof_capture_tag(&capture, "summed"), "2");
    assert_int_equal(capture_tags_summed(&capture, back, 4), 2);
    assert_string_equal(back[0], names[0]);
    assert_string_equal(back[1], names[1]);
    assert_int_equal(capture_tags_summed(&capture, back, 1), -1); /* more than the reader has room for */
}

static void a_run_that_summed_nothing_writes_no_tag(void **state)
{
    (void)state;
    static struct prof_capture capture;
    const char *back[4];
    memset(&capture, 0, sizeof capture);
    assert_int_equal(capture_tags_write_summed(&capture, names, 0), 0);
    assert_int_equal(capture.n_tags, 0);
    assert_int_equal(capture_tags_summed(&capture, back, 4), 0);
}

static void a_missing_or_empty_name_is_malformed(void **state)
{
    (void)state;
    static struct prof_capture capture;
    const char *back[4];
    memset(&capture, 0, sizeof capture);
    assert_int_equal(capture_tags_write_summed(&capture, names, 1), 0);
    snprintf(capture.tag_value[0], sizeof capture.tag_value[0], "2"); /* "summed" says 2, one is there */
    assert_int_equal(capture_tags_summed(&capture, back, 4), -1);
    snprintf(capture.tag_value[0], sizeof capture.tag_value[0], "1");
    capture.tag_value[1][0] = '\0';
    assert_int_equal(capture_tags_summed(&capture, back, 4), -1);
    snprintf(capture.tag_value[0], sizeof capture.tag_value[0], "one");
    assert_int_equal(capture_tags_summed(&capture, back, 4), -1);
}

static void a_full_capture_refuses_the_tags(void **state)
{
    (void)state;
    static struct prof_capture capture;
    memset(&capture, 0, sizeof capture);
    capture.n_tags = CAPTURE_MAX_TAGS - 2;
    assert_int_equal(capture_tags_write_summed(&capture, names, 2), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(summed_counts_come_back_in_their_order),
        cmocka_unit_test(a_run_that_summed_nothing_writes_no_tag),
        cmocka_unit_test(a_missing_or_empty_name_is_malformed),
        cmocka_unit_test(a_full_capture_refuses_the_tags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
