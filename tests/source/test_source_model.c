/*
 * The source group's host side, with no GPU: an instruction's line metrics, the .source capture written and
 * read back (and refused when malformed), instructions summed per line and per kernel, and opcodes read from
 * a disassembler's listing (a stand-in script plays nvdisasm).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../harness/source/disassembly.h"
#include "../../harness/source/source_lines.h"

#define CAPTURE "/tmp/memscope-test.source"

static void set_instruction(struct source_instruction *in, const char *function, uint32_t pc, const char *opcode,
                            const char *file, int line)
{
    memset(in, 0, sizeof *in);
    snprintf(in->function, sizeof in->function, "%s", function);
    in->pc = pc;
    snprintf(in->opcode, sizeof in->opcode, "%s", opcode);
    snprintf(in->file, sizeof in->file, "%s", file);
    in->line = line;
}

/* A 32-way conflicting store (1024 instructions, 32 wavefronts each, ideal 1) and a broadcast load whose ideal
 * is above its wavefronts: per instruction the excess is 31,744 and 0; from the totals it would be 30,720. */
static void add_store_and_broadcast(struct source_call *call, const char *function)
{
    struct error e = {0};
    struct source_instruction *in = source_add_instruction(call, &e);
    set_instruction(in, function, 0x100, "STS", "k.cu", 32);
    in->values[SASS_INST_EXECUTED] = in->values[SASS_SHARED_ST_INST] = 1024;
    in->values[SASS_SHARED_WAVEFRONTS] = 32 * 1024;
    in->values[SASS_SHARED_WAVEFRONTS_IDEAL] = 1024;
    in = source_add_instruction(call, &e);
    set_instruction(in, function, 0x110, "LDS.128", "k.cu", 36);
    in->values[SASS_INST_EXECUTED] = in->values[SASS_SHARED_LD_INST] = 1024;
    in->values[SASS_SHARED_WAVEFRONTS] = 1024;
    in->values[SASS_SHARED_WAVEFRONTS_IDEAL] = 2048;
    assert_int_equal(e.code, 0);
}

static void an_instruction_keeps_its_excess_and_its_kind(void **state)
{
    (void)state;
    uint64_t sass[SASS_METRIC_COUNT] = {0};
    double out[LINE_METRIC_COUNT];
    sass[SASS_GLOBAL_LD_INST] = 10;
    sass[SASS_GLOBAL_SECTORS] = 165;
    sass[SASS_GLOBAL_SECTORS_IDEAL] = 40;
    sass[SASS_SHARED_ST_INST] = 4;
    sass[SASS_SHARED_WAVEFRONTS] = 3;
    sass[SASS_SHARED_WAVEFRONTS_IDEAL] = 4;
    line_metrics_of_instruction(sass, out);
    assert_true(out[LINE_GLOBAL_LD_SECTORS] == 165 && out[LINE_GLOBAL_ST_SECTORS] == 0);
    assert_true(out[LINE_GLOBAL_EXCESS_SECTORS] == 125);
    assert_true(out[LINE_SHARED_ST_WAVEFRONTS] == 3 && out[LINE_SHARED_LD_WAVEFRONTS] == 0);
    assert_true(out[LINE_SHARED_EXCESS_WAVEFRONTS] == 0); /* ideal above the count: no excess, never negative */
    assert_true(out[LINE_SHARED_INSTRUCTIONS] == 4);
}

static void a_kernel_sums_each_instructions_own_excess(void **state)
{
    (void)state;
    struct source_call call = {0};
    double totals[LINE_METRIC_COUNT];
    add_store_and_broadcast(&call, "_Z1kv");
    add_store_and_broadcast(&call, "_Z5otherv");
    source_function_totals(&call, "_Z1kv", totals);
    assert_true(totals[LINE_SHARED_EXCESS_WAVEFRONTS] == 31 * 1024);
    assert_true(totals[LINE_SHARED_WAVEFRONTS] - totals[LINE_SHARED_WAVEFRONTS_IDEAL] == 30 * 1024);
    assert_true(totals[LINE_INST_EXECUTED] == 2048);
    free(call.instructions);
}

static void lines_group_a_functions_instructions_and_keep_functions_apart(void **state)
{
    (void)state;
    struct source_call call = {0};
    struct source_line *lines;
    size_t n;
    struct error e = {0};
    add_store_and_broadcast(&call, "_Z1kv");
    struct source_instruction *in = source_add_instruction(&call, &e);
    set_instruction(in, "_Z1kv", 0x120, "STS", "k.cu", 32);
    in->values[SASS_INST_EXECUTED] = 1;
    in = source_add_instruction(&call, &e);
    set_instruction(in, "_Z1kv", 0x130, "IADD3", "k.cu", 32);
    in->values[SASS_INST_EXECUTED] = 1;
    add_store_and_broadcast(&call, "_Z5otherv");
    assert_int_equal(source_lines(&call, &lines, &n, &e), 0);
    assert_int_equal(n, 4); /* k.cu:32 and k.cu:36 of each function */
    assert_string_equal(lines[0].file, "k.cu");
    assert_int_equal(lines[0].line, 32);
    assert_string_equal(lines[0].opcodes, "STS IADD3");
    assert_true(lines[0].values[LINE_INST_EXECUTED] == 1026);
    assert_string_equal(lines[2].function, "_Z5otherv");
    free(lines);
    free(call.instructions);
}

static void a_capture_reads_back_as_written(void **state)
{
    (void)state;
    static struct source_capture c, back;
    struct error e = {0};
    snprintf(c.chip, sizeof c.chip, "GH100");
    c.n_calls = 2;
    snprintf(c.calls[0].variant, sizeof c.calls[0].variant, "tiled_transposed");
    snprintf(c.calls[0].precision, sizeof c.calls[0].precision, "fp32");
    c.calls[0].width = 1024;
    add_store_and_broadcast(&c.calls[0], "_Z1kv");
    snprintf(c.calls[1].variant, sizeof c.calls[1].variant, "cublas");
    snprintf(c.calls[1].precision, sizeof c.calls[1].precision, "fp32");
    c.calls[1].width = 33;
    struct source_instruction *in = source_add_instruction(&c.calls[1], &e);
    set_instruction(in, "sm80_xmma_gemm", 0x40, "?", "", 0);
    in->values[SASS_INST_EXECUTED] = 7;
    assert_int_equal(source_add_text(&c, "k.cu", 32, "MdsT[tx][ty]\t= v;", &e), 0);
    assert_int_equal(source_capture_write(CAPTURE, &c, &e), 0);
    assert_int_equal(source_capture_read(CAPTURE, &back, &e), 0);
    assert_string_equal(back.chip, "GH100");
    assert_int_equal(back.n_calls, 2);
    assert_int_equal(back.calls[0].n, 2);
    assert_memory_equal(back.calls[0].instructions, c.calls[0].instructions, 2 * sizeof *c.calls[0].instructions);
    assert_string_equal(back.calls[1].instructions[0].file, "");
    assert_string_equal(back.calls[1].instructions[0].opcode, "?");
    assert_int_equal(back.calls[1].width, 33);
    assert_string_equal(source_find_text(&back, "k.cu", 32)->text, "MdsT[tx][ty] = v;");
    source_capture_free(&c);
    source_capture_free(&back);
    remove(CAPTURE);
}

/* Writes the capture's header and metric lines, then body, and expects the reader to refuse it naming the file. */
static void expect_refused(const char *body, const char *why)
{
    static struct source_capture c;
    struct error e = {0};
    FILE *f = fopen(CAPTURE, "w");
    assert_non_null(f);
    fputs("memscope-source\t1\nchip\tGH100\n", f);
    for (int m = 0; m < SASS_METRIC_COUNT; ++m)
        fprintf(f, "metric\t%s\n", sass_metric_name(m));
    fputs(body, f);
    fclose(f);
    assert_int_equal(source_capture_read(CAPTURE, &c, &e), EXIT_USAGE);
    assert_non_null(strstr(e.message, CAPTURE));
    assert_non_null(strstr(e.message, why));
    remove(CAPTURE);
}

static void malformed_captures_are_refused_with_file_and_reason(void **state)
{
    (void)state;
    expect_refused("call\tv\tfp32\t64\n", "truncated");
    expect_refused("inst\t_Z1kv\t0\tSTS\tk.cu\t1\t1\t0\t0\t0\t0\t0\t0\t0\t0\nend\n", "before any call");
    expect_refused("call\tv\tfp32\t64\ninst\t_Z1kv\t0\tSTS\tk.cu\t1\t1\t0\t0\t0\t0\t0\t0\t0\t-5\nend\n",
                   "not a count");
    expect_refused("call\tv\tfp32\t64\ninst\t_Z1kv\t0\tSTS\tk.cu\t1\t1\t0\nend\n", "every metric");
    expect_refused("metric\tsmsp__sass_inst_executed\nend\n", "unexpected metric");
    expect_refused("call\tv\tfp32\tmany\nend\n", "width");
    expect_refused("end\nend\n", "after the end");
}

/* A stand-in for nvdisasm: prints a fixed listing whatever it is given. */
static void fake_disassembler(const char *listing, int status)
{
    FILE *f = fopen("/tmp/memscope-fake-nvdisasm", "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\ncat <<'LISTING'\n%sLISTING\nexit %d\n", listing, status);
    fclose(f);
    chmod("/tmp/memscope-fake-nvdisasm", 0755);
    setenv("NVDISASM", "/tmp/memscope-fake-nvdisasm", 1);
}

static void opcodes_come_from_the_listing_by_function_and_pc(void **state)
{
    (void)state;
    struct disassembly d;
    struct error e = {0};
    const uint8_t cubin[4] = {1, 2, 3, 4};
    fake_disassembler("//--------------------- .text._Z3fooPf --------------------------\n"
                      "\t.section\t.text._Z3fooPf,\"ax\",@progbits\n"
                      ".text._Z3fooPf:\n"
                      "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
                      "        /*0010*/              @!P0 STS [R5], R4 ;\n"
                      "        /*0020*/                   LDS.128 R8, [R2] ;\n"
                      ".L_x_0:\n"
                      "        /*0030*/                   EXIT ;\n"
                      ".text._Z3barv:\n"
                      "        /*0000*/                   BRA `(.L_x_1) ;\n",
                      0);
    assert_int_equal(disassemble(cubin, sizeof cubin, &d, &e), 0);
    assert_string_equal(disassembly_opcode(&d, "_Z3fooPf", 0x0), "LDC");
    assert_string_equal(disassembly_opcode(&d, "_Z3fooPf", 0x10), "STS");
    assert_string_equal(disassembly_opcode(&d, "_Z3fooPf", 0x20), "LDS.128");
    assert_string_equal(disassembly_opcode(&d, "_Z3fooPf", 0x30), "EXIT");
    assert_string_equal(disassembly_opcode(&d, "_Z3barv", 0x0), "BRA");
    assert_null(disassembly_opcode(&d, "_Z3fooPf", 0x40));
    disassembly_free(&d);
    unsetenv("NVDISASM");
}

static void a_failing_or_silent_disassembler_is_an_error(void **state)
{
    (void)state;
    struct disassembly d;
    const uint8_t cubin[4] = {0};
    struct error failed = {0}, silent = {0};
    fake_disassembler(".text._Z3fooPf:\n        /*0000*/ EXIT ;\n", 1);
    assert_int_not_equal(disassemble(cubin, sizeof cubin, &d, &failed), 0);
    assert_non_null(strstr(failed.message, "failed"));
    fake_disassembler("", 0);
    assert_int_not_equal(disassemble(cubin, sizeof cubin, &d, &silent), 0);
    assert_non_null(strstr(silent.message, "no instruction"));
    unsetenv("NVDISASM");
    remove("/tmp/memscope-fake-nvdisasm");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_instruction_keeps_its_excess_and_its_kind),
        cmocka_unit_test(a_kernel_sums_each_instructions_own_excess),
        cmocka_unit_test(lines_group_a_functions_instructions_and_keep_functions_apart),
        cmocka_unit_test(a_capture_reads_back_as_written),
        cmocka_unit_test(malformed_captures_are_refused_with_file_and_reason),
        cmocka_unit_test(opcodes_come_from_the_listing_by_function_and_pc),
        cmocka_unit_test(a_failing_or_silent_disassembler_is_an_error),
    };
    return cmocka_run_group_tests_name("source", tests, NULL, NULL);
}
