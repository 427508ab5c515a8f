/*
 * A program's profile with the source group (tests/fixtures/profile-lines-h200: memscope-profile --metric-groups
 * global,shared,source over tests/inject/program_lines.cu on an H200, 2026-11-28): the hot-lines page draws the
 * program's kernels, each by its counted launch, naming the line of each planted cause with its figure (the
 * scatter's line: 2,097,152 load and 16,777,216 store sectors over 524,288 requests each, 18.0 a request where 4.0
 * would do; the tile's store line: 32 wavefronts an instruction, 1 ideal), and the part's saved capture decodes
 * offline into the very rows the profile holds.
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

#define FIXTURE "tests/fixtures/profile-lines-h200"
#include "../support/page_data.h"

static void the_hot_lines_page_names_each_kernels_planted_line(void **state)
{
    (void)state;
    write_data(FIXTURE);
    expect_in(data_file("pages.tsv"), "\nhot-lines-1\thot_lines.gp\thot_lines_page=1\n");
    const char *page = data_file("hot-lines-1.tsv");
    expect_in(page, "\n0\tkernel\twhat\twhere\tsource\tmeasured on the line\n");
    expect_in(page, "\n1\tscatter_columns\tmost wasted sectors\ttests/inject/program_lines.cu:26\tout[(i % TILE)");
    expect_in(page, "\t18.0 sectors per request, ideal 4.0\n");
    expect_in(page, "\n2\ttranspose_tile\tmost bank conflicts\ttests/inject/program_lines.cu:33\ttile[threadIdx.x]");
    expect_in(page, "\t32.0 wavefronts per instr., ideal 1.0\n");
}

static void the_saved_capture_decodes_into_the_profiles_rows(void **state)
{
    (void)state;
    static struct outcome o;
    const char *decode = getenv("MEMSCOPE_DECODE_BIN");
    shell(&o, "%s --lines " FIXTURE "/source-counting/program.source | cmp - " FIXTURE "/source-counting/lines.csv",
          decode ? decode : "build/memscope-decode");
    if (o.exit_code != 0)
        fail_msg("the decoded capture differs from the source run's lines.csv:\n%s", o.output);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_hot_lines_page_names_each_kernels_planted_line),
        cmocka_unit_test(the_saved_capture_decodes_into_the_profiles_rows),
    };
    return cmocka_run_group_tests_name("a program's lines in the report", tests, setup, teardown);
}
