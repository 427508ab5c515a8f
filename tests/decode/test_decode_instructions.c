/*
 * memscope-decode --instructions: the committed source capture of tiled_transposed and tiled_transposed_padded at
 * W = 1024 (tests/fixtures/tiled_transposed-W1024.source), one instructions.csv row per instruction. Two rows are
 * checked against the capture's own text, read here field by field: the transposed tile's conflicting shared store
 * (offset 736) and a global load (offset 688), their metrics worked out by hand from the capture's raw counts
 * (an instruction's excess is its count beyond CUPTI's ideal; a store's wavefronts are store wavefronts).
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
#include "../../harness/results/schema.h"
#include "../../harness/source/source_metrics.h"
#include "../support/process_path.h"
#include "../support/run_shell.h"

#define FIXTURE "tests/fixtures/tiled_transposed-W1024.source"
static char decoded[64];
#define INSTRUCTIONS process_path(decoded, sizeof decoded, "memscope-test-instructions", "csv")
#define TRANSPOSED_MANGLED "_Z22transposed_tile_kernelILi0EEvPKfS1_Pfi"
#define TRANSPOSED_KERNEL "void transposed_tile_kernel<0>(float const*, float const*, float*, int)"
#define CAPTURE_COUNTS 9 /* the capture's metric records, in its order */

static struct csv_table table;

/* One inst record of the capture, as its text has it. */
struct capture_instruction {
    char opcode[32], file[256];
    int line;
    double counts[CAPTURE_COUNTS];
};

static const char *decode_bin(void)
{
    const char *bin = getenv("MEMSCOPE_DECODE_BIN");
    return bin ? bin : "build/memscope-decode";
}

static int decode_fixture(void **state)
{
    (void)state;
    static struct outcome o;
    struct error e = {0};
    shell(&o, "%s --instructions -o %s %s", decode_bin(), INSTRUCTIONS, FIXTURE);
    if (o.exit_code != 0 || csv_table_read(INSTRUCTIONS, &table, &e) != 0) {
        fprintf(stderr, "%s%s\n", o.output, e.message);
        return -1;
    }
    return 0;
}

static int free_table(void **state)
{
    (void)state;
    csv_table_free(&table);
    remove(INSTRUCTIONS);
    return 0;
}

/* The fixture's "inst <function> <pc> <opcode> <file> <line> <count>..." record of function at pc. */
static struct capture_instruction read_capture_instruction(const char *function, const char *pc)
{
    struct capture_instruction found = {0};
    char record[4096];
    FILE *f = fopen(FIXTURE, "r");
    assert_non_null(f);
    while (fgets(record, sizeof record, f)) {
        char *fields[6 + CAPTURE_COUNTS], *rest = record;
        int n = 0;
        for (char *field; n < 6 + CAPTURE_COUNTS && (field = strsep(&rest, "\t\n"));)
            fields[n++] = field;
        if (n < 6 + CAPTURE_COUNTS || strcmp(fields[0], "inst") || strcmp(fields[1], function) || strcmp(fields[2], pc))
            continue;
        snprintf(found.opcode, sizeof found.opcode, "%s", fields[3]);
        snprintf(found.file, sizeof found.file, "%s", fields[4]);
        found.line = atoi(fields[5]);
        for (int i = 0; i < CAPTURE_COUNTS; ++i)
            found.counts[i] = atof(fields[6 + i]);
    }
    fclose(f);
    if (!found.line)
        fail_msg("%s has no instruction %s at %s", FIXTURE, function, pc);
    return found;
}

static const char *cell(int row, const char *name)
{
    struct error e = {0};
    int column;
    if (csv_table_column(&table, name, &column, &e))
        fail_msg("%s", e.message);
    return csv_table_text(&table, row, column);
}

static double value(int row, const char *name)
{
    return atof(cell(row, name));
}

static int row_of(const char *variant, const char *offset)
{
    for (int row = 0; row < table.rows; ++row)
        if (!strcmp(cell(row, "variant"), variant) && !strcmp(cell(row, "offset"), offset))
            return row;
    fail_msg("%s has no row of %s at offset %s", INSTRUCTIONS, variant, offset);
    return -1;
}

static double beyond(double count, double ideal)
{
    return count > ideal ? count - ideal : 0.0;
}

/* The row's place and every metric, against the record's counts: inst_executed, shared ld and st instructions,
 * shared wavefronts and their ideal, global ld and st instructions, global sectors and their ideal. */
static void expect_row_of_record(int row, const struct capture_instruction *in)
{
    const double *c = in->counts;
    assert_string_equal(cell(row, "kernel"), TRANSPOSED_KERNEL);
    assert_string_equal(cell(row, "file"), in->file);
    assert_int_equal(atoi(cell(row, "line")), in->line);
    assert_string_equal(cell(row, "opcode"), in->opcode);
    assert_true(value(row, "inst_executed") == c[0]);
    assert_true(value(row, "shared_instructions") == c[1] + c[2]);
    assert_true(value(row, "shared_ld_wavefronts") == (c[1] > 0 ? c[3] : 0));
    assert_true(value(row, "shared_st_wavefronts") == (c[2] > 0 ? c[3] : 0));
    assert_true(value(row, "shared_wavefronts") == c[3]);
    assert_true(value(row, "shared_wavefronts_ideal") == c[4]);
    assert_true(value(row, "shared_excess_wavefronts") == beyond(c[3], c[4]));
    assert_true(value(row, "global_ld_requests") == c[5]);
    assert_true(value(row, "global_st_requests") == c[6]);
    assert_true(value(row, "global_ld_sectors") == (c[5] > 0 ? c[7] : 0));
    assert_true(value(row, "global_st_sectors") == (c[6] > 0 ? c[7] : 0));
    assert_true(value(row, "global_sectors") == c[7]);
    assert_true(value(row, "global_sectors_ideal") == c[8]);
    assert_true(value(row, "global_excess_sectors") == beyond(c[7], c[8]));
}

static void the_conflicting_store_has_its_capture_counts(void **state)
{
    (void)state;
    struct capture_instruction store = read_capture_instruction(TRANSPOSED_MANGLED, "736");
    int row = row_of("tiled_transposed", "736");
    expect_row_of_record(row, &store);
    /* Nsight Compute's "L1 Wavefronts Shared Excessive" of the kernel, all on this store */
    assert_true(value(row, "shared_excess_wavefronts") == 32505856.0);
}

static void a_global_load_has_its_capture_counts(void **state)
{
    (void)state;
    struct capture_instruction load = read_capture_instruction(TRANSPOSED_MANGLED, "688");
    int row = row_of("tiled_transposed", "688");
    expect_row_of_record(row, &load);
    assert_true(value(row, "global_ld_sectors") == 4194304.0);
}

static void every_instruction_has_one_row(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "grep -c '^inst' %s", FIXTURE);
    assert_int_equal(table.rows, atoi(o.output));
}

/* The schema spells the metric columns out; they must be lines.csv's metric names, in their order. */
static void the_metric_columns_are_the_line_metrics(void **state)
{
    (void)state;
    assert_int_equal(INSTRUCTIONS_ROWS - INSTRUCTIONS_INST_EXECUTED, LINE_METRIC_COUNT); /* the shape follows them */
    for (int m = 0; m < LINE_METRIC_COUNT; ++m)
        assert_string_equal(table.header[INSTRUCTIONS_INST_EXECUTED + m], line_metric_name(m));
}

static void lines_and_instructions_together_are_refused(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s --lines --instructions %s", decode_bin(), FIXTURE);
    assert_int_equal(o.exit_code, 2);
    assert_non_null(strstr(o.output, "--lines and --instructions write different files"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_conflicting_store_has_its_capture_counts),
        cmocka_unit_test(a_global_load_has_its_capture_counts),
        cmocka_unit_test(every_instruction_has_one_row),
        cmocka_unit_test(the_metric_columns_are_the_line_metrics),
        cmocka_unit_test(lines_and_instructions_together_are_refused),
    };
    return cmocka_run_group_tests_name("decode --instructions", tests, decode_fixture, free_table);
}
