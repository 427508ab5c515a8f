/*
 * A program's profile with the source group (tests/fixtures/profile-lines-h200: memscope-profile --metric-groups
 * global,shared,source over tests/inject/program_lines.cu on an H200, 2026-11-28): the hot-lines page draws the
 * program's kernels, each by its counted launch, naming the line of each planted cause with its figure (the
 * scatter's line: 2,097,152 load and 16,777,216 store sectors over 524,288 requests each, 18.0 a request where 4.0
 * would do; the tile's store line: 32 wavefronts an instruction, 1 ideal), and the part's saved capture decodes
 * offline into the very rows the profile holds.
 *
 * A training script's (tests/fixtures/profile-train-lines-h200: the rows of rank 0's Triton and cuBLAS kernels of
 * memscope-profile --metric-groups global,shared,sol,source over torchrun --nproc_per_node=2
 * tests/inject/program_train_ddp.py on two H200s, 2026-11-28): Inductor's kernels run to 77 characters and its
 * generated files are named by a 52-character hash, which ran the page's columns into each other.
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

#define TRAIN "tests/fixtures/profile-train-lines-h200"

static void a_training_scripts_long_names_are_shortened_to_their_cells(void **state)
{
    (void)state;
    write_data(TRAIN);
    const char *page = data_file("hot-lines-1.tsv");
    /* lines.csv: /tmp/torchinductor_root/xt/cxtu6hie3ghdjkpfnyplpwl2xhvigaigus4ttdkazrrz4gzc7qcu.py, line 30 */
    expect_in(page, "\tcxtu6hie3ghdjkpfnyplpwl…z4gzc7qcu.py:30\ttmp6 = libdevice.erf(tmp5)\t");
    /* triton_red_fused__to_copy_native_layer_norm_native_layer_norm_backward_view_4, cut in its middle twice */
    expect_in(page, "\ttriton_red_fused__to_copy_native_la…kward_view_4\tmost bank conflicts\tstandard.py:293\t");
    /* cuBLAS's three nvjet kernels have no line information: counted in the caption, not drawn */
    file_holds("variables.gp", "hot_lines_unplaced = 3\n");
    file_lacks("hot-lines-1.tsv", "nvjet");
    file_lacks("hot-lines-2.tsv", "nvjet");
    /* by NVTX range, the range follows the kernel's label whole: a cut of the whole would have kept its end */
    write_data_by(TRAIN, GROUP_BY_NVTX);
    expect_in(data_file("hot-lines-1.tsv"),
              "\ttriton_per_fused__to_copy_native_layer_norm_0 (step 0)\tmost wasted sectors\tc5hsm5w7plqydfdjhz6fgog…");
}

/* Drawn by gnuplot, no cell of either hot-lines page runs into the next column (tests/support/png_columns.py reads
 * the page's pixels at the positions memscope-report-data laid out). */
static void a_training_scripts_hot_lines_do_not_run_into_each_other(void **state)
{
    (void)state;
    static struct outcome o;
    char rendered[192];
    if (system("command -v gnuplot >/dev/null") != 0)
        skip();
    snprintf(rendered, sizeof rendered, "%s/train", workdir);
    shell(&o, "scripts/report-render %s %s >/dev/null", TRAIN, rendered);
    assert_int_equal(o.exit_code, 0);
    expect_columns_apart(rendered, "hot_lines_1_table", "05-hot-lines-1.png");
    expect_columns_apart(rendered, "hot_lines_2_table", "06-hot-lines-2.png");
}

static void the_saved_capture_decodes_into_the_profiles_rows(void **state)
{
    (void)state;
    static struct outcome o;
    const char *decode = getenv("MEMSCOPE_DECODE_BIN");
    /* the recording predates the shape's three columns, which a program's job writes as zeros */
    shell(&o,
          "t=$(mktemp) && sed '1s/$/,rows,cols,inner/; 1!s/$/,0,0,0/' " FIXTURE "/source-counting/lines.csv >$t && "
          "%s --lines " FIXTURE "/source-counting/program.source | cmp - $t; rc=$?; rm -f $t; exit $rc",
          decode ? decode : "build/memscope-decode");
    if (o.exit_code != 0)
        fail_msg("the decoded capture differs from the source run's lines.csv:\n%s", o.output);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_hot_lines_page_names_each_kernels_planted_line),
        cmocka_unit_test(the_saved_capture_decodes_into_the_profiles_rows),
        cmocka_unit_test(a_training_scripts_long_names_are_shortened_to_their_cells),
        cmocka_unit_test(a_training_scripts_hot_lines_do_not_run_into_each_other),
    };
    return cmocka_run_group_tests_name("a program's lines in the report", tests, setup, teardown);
}
