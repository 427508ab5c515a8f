/*
 * Offline decode of the source group: the .source capture of tiled_transposed
 * and tiled_transposed_padded at W=1024, taken on an NVIDIA H100 by memscope,
 * is turned into lines.csv here with no GPU, and compared with what Nsight
 * Compute 2025.3.1's source page measured for the same kernels on an H100
 * (ncu --section SourceCounters, --page source --print-source cuda,sass; see
 * scripts/compare-ncu-lines): per kernel, instructions executed, shared
 * wavefronts and their excess, and global sectors must be equal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../harness/csv/reader.h"
#include "../support/build_dir.h"
#include "../support/process_path.h"
#include "../support/run_shell.h"

#define FIXTURE "tests/fixtures/tiled_transposed-W1024.source"
static char decoded[64];
#define LINES process_path(decoded, sizeof decoded, "memscope-test-lines", "csv")
#define STORE_FILE "kernels/lessons/matmul_transposed.cu"
#define STORE_LINE 32 /* MdsT[tx][ty] = ... */

static struct csv_table lines;

static const char *decode_bin(void)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/memscope-decode", build_dir());
    return path;
}

static int decode_fixture(void **state)
{
    (void)state;
    static struct outcome o;
    struct error e = {0};
    shell(&o, "%s --lines -o %s %s", decode_bin(), LINES, FIXTURE);
    if (o.exit_code != 0 || csv_table_read(LINES, &lines, &e) != 0) {
        fprintf(stderr, "%s%s\n", o.output, e.message);
        return -1;
    }
    return 0;
}

static int free_fixture(void **state)
{
    (void)state;
    csv_table_free(&lines);
    remove(LINES);
    return 0;
}

static int column(const char *name)
{
    struct error e = {0};
    int c;
    if (csv_table_column(&lines, name, &c, &e))
        fail_msg("%s", e.message);
    return c;
}

/* The sum of a metric over the rows of a variant, optionally of one line (line 0: every line). */
static double sum(const char *variant, const char *metric, int line)
{
    int v = column("variant"), m = column("metric"), l = column("line"), x = column("value");
    double total = 0.0;
    for (int row = 0; row < lines.rows; ++row)
        if (strcmp(csv_table_text(&lines, row, v), variant) == 0 &&
            strcmp(csv_table_text(&lines, row, m), metric) == 0 &&
            (line == 0 || atoi(csv_table_text(&lines, row, l)) == line))
            total += atof(csv_table_text(&lines, row, x));
    return total;
}

static void per_kernel_sums_equal_nsight_compute(void **state)
{
    (void)state;
    assert_true(sum("tiled_transposed", "inst_executed", 0) == 125173760.0);
    assert_true(sum("tiled_transposed_padded", "inst_executed", 0) == 126222336.0);
    assert_true(sum("tiled_transposed", "shared_wavefronts", 0) == 101711872.0);
    assert_true(sum("tiled_transposed", "shared_wavefronts_ideal", 0) == 69206016.0);
    assert_true(sum("tiled_transposed_padded", "shared_wavefronts", 0) == 69206016.0);
    assert_true(sum("tiled_transposed", "global_sectors", 0) == 8519680.0);
    assert_true(sum("tiled_transposed_padded", "global_sectors", 0) == 8519680.0);
}

/* ncu's "L1 Wavefronts Shared Excessive" for the kernel is 32,505,856, all of it on the transposed store. */
static void the_transposed_store_holds_every_conflict(void **state)
{
    (void)state;
    assert_true(sum("tiled_transposed", "shared_excess_wavefronts", 0) == 32505856.0);
    assert_true(sum("tiled_transposed", "shared_excess_wavefronts", STORE_LINE) == 32505856.0);
    int f = column("file"), l = column("line"), s = column("source"), o = column("opcodes"), m = column("metric");
    int found = 0;
    for (int row = 0; row < lines.rows; ++row)
        if (strcmp(csv_table_text(&lines, row, m), "shared_excess_wavefronts") == 0) {
            assert_string_equal(csv_table_text(&lines, row, f), STORE_FILE);
            assert_int_equal(atoi(csv_table_text(&lines, row, l)), STORE_LINE);
            assert_non_null(strstr(csv_table_text(&lines, row, s), "MdsT[tx][ty] ="));
            assert_non_null(strstr(csv_table_text(&lines, row, o), "STS"));
            ++found;
        }
    assert_int_equal(found, 1); /* and the padded tile has no conflicting line */
}

static void a_truncated_capture_is_refused_and_leaves_no_output(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "head -n -1 %s >/tmp/memscope-truncated.source && %s --lines -o /tmp/memscope-truncated.csv "
              "/tmp/memscope-truncated.source",
          FIXTURE, decode_bin());
    remove("/tmp/memscope-truncated.source");
    assert_int_equal(o.exit_code, 2);
    assert_non_null(strstr(o.output, "truncated"));
    assert_int_not_equal(access("/tmp/memscope-truncated.csv", F_OK), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(per_kernel_sums_equal_nsight_compute),
        cmocka_unit_test(the_transposed_store_holds_every_conflict),
        cmocka_unit_test(a_truncated_capture_is_refused_and_leaves_no_output),
    };
    return cmocka_run_group_tests_name("decode --lines", tests, decode_fixture, free_fixture);
}
