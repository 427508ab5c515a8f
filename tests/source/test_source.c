/*
 * harness/source/ without a GPU: an instruction's line metrics, the .source capture written, read back and
 * refused when malformed, instructions summed per line and per function, and opcodes read from a listing
 * printed by a stand-in for nvdisasm ($NVDISASM).
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

/* ---- helpers ---- */

struct temp {
    char path[64];
};

/* Setup: an empty temporary file whose path the test writes or hands on. */
static int make_temp(void **state)
{
    struct temp *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    snprintf(t->path, sizeof t->path, "/tmp/memscope-test-source-XXXXXX");
    int fd = mkstemp(t->path);
    if (fd < 0) {
        free(t);
        return -1;
    }
    close(fd);
    *state = t;
    return 0;
}

static int remove_temp(void **state)
{
    struct temp *t = *state;
    unsetenv("NVDISASM");
    unlink(t->path);
    free(t);
    return 0;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static struct source_instruction *add_instruction(struct source_call *call, const char *function, uint32_t pc,
                                                  const char *opcode, const char *file, int line)
{
    struct error e = {0};
    struct source_instruction *in = source_add_instruction(call, &e);
    if (!in)
        fail_msg("source_add_instruction: %s", e.message);
    snprintf(in->function, sizeof in->function, "%s", function);
    in->pc = pc;
    snprintf(in->opcode, sizeof in->opcode, "%s", opcode);
    snprintf(in->file, sizeof in->file, "%s", file);
    in->line = line;
    return in;
}

static void set_call(struct source_call *call, const char *variant, const char *precision, int width)
{
    snprintf(call->variant, sizeof call->variant, "%s", variant);
    snprintf(call->precision, sizeof call->precision, "%s", precision);
    call->shape = product_shape_square(width);
}

static void line_metrics(const uint64_t sass[SASS_METRIC_COUNT], double out[LINE_METRIC_COUNT])
{
    for (int m = 0; m < LINE_METRIC_COUNT; ++m)
        out[m] = -1.0; /* so that a metric left unset shows */
    line_metrics_of_instruction(sass, "?", out);
}

/* ---- line_metrics_of_instruction ---- */

/* The tensor ladder's ldmatrix rung at W = 4096 on the H100 (reference run at 9ca7d96): an LDSM line, 8,388,608
 * executions, 268,435,456 wavefronts against an ideal 33,554,432, and no op_shared_ld count: its wavefronts are a
 * load's (they were neither, and the findings saw none of its conflicts). A cp.async (LDGSTS) writes shared memory. */
static void ldmatrix_reads_and_cp_async_writes_shared_memory(void **state)
{
    (void)state;
    uint64_t sass[SASS_METRIC_COUNT] = {0};
    double out[LINE_METRIC_COUNT];
    sass[SASS_INST_EXECUTED] = 8388608;
    sass[SASS_SHARED_WAVEFRONTS] = 268435456;
    sass[SASS_SHARED_WAVEFRONTS_IDEAL] = 33554432;
    line_metrics_of_instruction(sass, "LDSM.16.M88.4", out);
    assert_float_equal(out[LINE_SHARED_LD_WAVEFRONTS], 268435456.0, 0.0);
    assert_float_equal(out[LINE_SHARED_ST_WAVEFRONTS], 0.0, 0.0);
    assert_float_equal(out[LINE_SHARED_EXCESS_WAVEFRONTS], 234881024.0, 0.0);
    line_metrics_of_instruction(sass, "LDGSTS.E.BYPASS.LTC128B.128", out);
    assert_float_equal(out[LINE_SHARED_LD_WAVEFRONTS], 0.0, 0.0);
    assert_float_equal(out[LINE_SHARED_ST_WAVEFRONTS], 268435456.0, 0.0);
    line_metrics_of_instruction(sass, "?", out); /* no disassembler: the side is not known */
    assert_float_equal(out[LINE_SHARED_LD_WAVEFRONTS] + out[LINE_SHARED_ST_WAVEFRONTS], 0.0, 0.0);
}

/* The corpus's modulo_reduction by construction: `if (tid % (2 * s) == 0)` made predication and, for the modulo,
 * I2F/F2I around a MUFU.RCP. A predicated FADD with 24 of its 32 active lanes' predicate true has 8 lanes issued for
 * nothing; an I2F.U32.RP on all 32 lanes is 32 conversions; a MUFU.RCP is no conversion. */
static void predicated_off_lanes_and_conversions_per_instruction(void **state)
{
    (void)state;
    uint64_t sass[SASS_METRIC_COUNT] = {0};
    double out[LINE_METRIC_COUNT];
    sass[SASS_INST_EXECUTED] = 1;
    sass[SASS_THREAD_INST_EXECUTED] = 32;
    sass[SASS_THREAD_INST_PRED_ON] = 24;
    line_metrics_of_instruction(sass, "FADD", out);
    assert_float_equal(out[LINE_THREAD_INST_EXECUTED], 32.0, 0.0);
    assert_float_equal(out[LINE_PREDICATED_OFF_LANES], 8.0, 0.0);
    assert_float_equal(out[LINE_CONVERSIONS], 0.0, 0.0);
    sass[SASS_THREAD_INST_PRED_ON] = 32;
    for (const char *const *op = (const char *const[]){"I2F.U32.RP", "F2I.FTZ.U32.TRUNC.NTZ", "I2FP.F32.S32",
                                                        "F2F.F64.F32", "I2I.U16.U32.SAT", "FRND.FLOOR", NULL};
         *op; ++op) {
        line_metrics_of_instruction(sass, *op, out);
        if (out[LINE_CONVERSIONS] != 32.0)
            fail_msg("%s: %g conversions, not 32", *op, out[LINE_CONVERSIONS]);
        assert_float_equal(out[LINE_PREDICATED_OFF_LANES], 0.0, 0.0);
    }
    for (const char *const *op = (const char *const[]){"MUFU.RCP", "IMAD.HI.U32", "FADD", "?", NULL}; *op; ++op) {
        line_metrics_of_instruction(sass, *op, out);
        if (out[LINE_CONVERSIONS] != 0.0)
            fail_msg("%s counted as a conversion", *op);
    }
}

static void shared_excess_is_wavefronts_beyond_the_ideal(void **state)
{
    (void)state;
    uint64_t sass[SASS_METRIC_COUNT] = {0};
    double out[LINE_METRIC_COUNT];
    sass[SASS_INST_EXECUTED] = sass[SASS_SHARED_LD_INST] = 64;
    sass[SASS_SHARED_WAVEFRONTS] = 64 * 32;
    sass[SASS_SHARED_WAVEFRONTS_IDEAL] = 64;
    line_metrics(sass, out);
    assert_true(out[LINE_SHARED_WAVEFRONTS] == 2048);
    assert_true(out[LINE_SHARED_WAVEFRONTS_IDEAL] == 64);
    assert_true(out[LINE_SHARED_EXCESS_WAVEFRONTS] == 2048 - 64);
}

static void an_ideal_above_the_count_gives_no_excess(void **state)
{
    (void)state;
    uint64_t sass[SASS_METRIC_COUNT] = {0};
    double out[LINE_METRIC_COUNT];
    sass[SASS_SHARED_LD_INST] = sass[SASS_GLOBAL_LD_INST] = 8;
    sass[SASS_SHARED_WAVEFRONTS] = 8;
    sass[SASS_SHARED_WAVEFRONTS_IDEAL] = 16;
    sass[SASS_GLOBAL_SECTORS] = 10;
    sass[SASS_GLOBAL_SECTORS_IDEAL] = 40;
    line_metrics(sass, out);
    assert_true(out[LINE_SHARED_EXCESS_WAVEFRONTS] == 0);
    assert_true(out[LINE_GLOBAL_EXCESS_SECTORS] == 0);
}

static void a_loads_wavefronts_count_as_load_wavefronts_only(void **state)
{
    (void)state;
    uint64_t sass[SASS_METRIC_COUNT] = {0};
    double out[LINE_METRIC_COUNT];
    sass[SASS_INST_EXECUTED] = sass[SASS_SHARED_LD_INST] = 5;
    sass[SASS_SHARED_WAVEFRONTS] = 20;
    line_metrics(sass, out);
    assert_true(out[LINE_INST_EXECUTED] == 5);
    assert_true(out[LINE_SHARED_INSTRUCTIONS] == 5);
    assert_true(out[LINE_SHARED_LD_WAVEFRONTS] == 20);
    assert_true(out[LINE_SHARED_ST_WAVEFRONTS] == 0);
}

static void a_stores_wavefronts_count_as_store_wavefronts_only(void **state)
{
    (void)state;
    uint64_t sass[SASS_METRIC_COUNT] = {0};
    double out[LINE_METRIC_COUNT];
    sass[SASS_INST_EXECUTED] = sass[SASS_SHARED_ST_INST] = 3;
    sass[SASS_SHARED_WAVEFRONTS] = 96;
    line_metrics(sass, out);
    assert_true(out[LINE_SHARED_INSTRUCTIONS] == 3);
    assert_true(out[LINE_SHARED_ST_WAVEFRONTS] == 96);
    assert_true(out[LINE_SHARED_LD_WAVEFRONTS] == 0);
}

/* LDSM or an atomic: shared wavefronts without a shared load or store count; they belong to the total only. */
static void other_shared_wavefronts_count_in_the_total_only(void **state)
{
    (void)state;
    uint64_t sass[SASS_METRIC_COUNT] = {0};
    double out[LINE_METRIC_COUNT];
    sass[SASS_INST_EXECUTED] = 4;
    sass[SASS_SHARED_WAVEFRONTS] = 16;
    line_metrics(sass, out);
    assert_true(out[LINE_SHARED_INSTRUCTIONS] == 0);
    assert_true(out[LINE_SHARED_LD_WAVEFRONTS] == 0 && out[LINE_SHARED_ST_WAVEFRONTS] == 0);
    assert_true(out[LINE_SHARED_WAVEFRONTS] == 16);
}

static void global_load_sectors_and_excess(void **state)
{
    (void)state;
    uint64_t sass[SASS_METRIC_COUNT] = {0};
    double out[LINE_METRIC_COUNT];
    sass[SASS_GLOBAL_LD_INST] = 10;
    sass[SASS_GLOBAL_SECTORS] = 165;
    sass[SASS_GLOBAL_SECTORS_IDEAL] = 40;
    line_metrics(sass, out);
    assert_true(out[LINE_GLOBAL_LD_REQUESTS] == 10 && out[LINE_GLOBAL_ST_REQUESTS] == 0);
    assert_true(out[LINE_GLOBAL_LD_SECTORS] == 165 && out[LINE_GLOBAL_ST_SECTORS] == 0);
    assert_true(out[LINE_GLOBAL_SECTORS] == 165);
    assert_true(out[LINE_GLOBAL_SECTORS_IDEAL] == 40);
    assert_true(out[LINE_GLOBAL_EXCESS_SECTORS] == 125);
}

static void global_store_sectors_and_excess(void **state)
{
    (void)state;
    uint64_t sass[SASS_METRIC_COUNT] = {0};
    double out[LINE_METRIC_COUNT];
    sass[SASS_GLOBAL_ST_INST] = 2;
    sass[SASS_GLOBAL_SECTORS] = 64;
    sass[SASS_GLOBAL_SECTORS_IDEAL] = 8;
    line_metrics(sass, out);
    assert_true(out[LINE_GLOBAL_ST_REQUESTS] == 2 && out[LINE_GLOBAL_LD_REQUESTS] == 0);
    assert_true(out[LINE_GLOBAL_ST_SECTORS] == 64 && out[LINE_GLOBAL_LD_SECTORS] == 0);
    assert_true(out[LINE_GLOBAL_EXCESS_SECTORS] == 56);
}

/* ---- source_capture_write and source_capture_read ---- */

static void assert_same_instruction(const struct source_instruction *got, const struct source_instruction *want)
{
    assert_string_equal(got->function, want->function);
    assert_int_equal(got->pc, want->pc);
    assert_string_equal(got->opcode, want->opcode);
    assert_string_equal(got->file, want->file);
    assert_int_equal(got->line, want->line);
    for (int m = 0; m < SASS_METRIC_COUNT; ++m)
        if (got->values[m] != want->values[m])
            fail_msg("%s at %u: %s is %llu, expected %llu", want->function, want->pc, sass_metric_name(m),
                     (unsigned long long)got->values[m], (unsigned long long)want->values[m]);
}

static void a_capture_reads_back_as_written(void **state)
{
    struct temp *t = *state;
    struct source_capture c = {0}, back;
    struct error e = {0};
    snprintf(c.chip, sizeof c.chip, "GH100");
    assert_non_null(source_add_call(&c, &e));
    assert_non_null(source_add_call(&c, &e));
    set_call(&c.calls[0], "tiled_transposed", "fp32", 1024);
    struct source_instruction *in = add_instruction(&c.calls[0], "_Z1kPf", 0x10, "LDS.128", "k.cu", 12);
    for (int m = 0; m < SASS_METRIC_COUNT; ++m)
        in->values[m] = 1000 + (uint64_t)m;
    in = add_instruction(&c.calls[0], "_Z1kPf", 0x20, "STS", "k.cu", 13);
    in->values[SASS_SHARED_WAVEFRONTS] = UINT64_MAX;
    add_instruction(&c.calls[0], "_Z1kPf", 0x30, "EXIT", "k.cu", 14);
    set_call(&c.calls[1], "cublas", "fp16", 33);
    c.calls[1].shape = (struct product_shape){8192, 3072, 1024}; /* a product of any shape keeps its three extents */
    snprintf(c.calls[1].kernel, sizeof c.calls[1].kernel, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64");
    in = add_instruction(&c.calls[1], "sm90_xmma_gemm", 0x40, "?", "", 0);
    in->values[SASS_INST_EXECUTED] = 7;
    assert_int_equal(source_add_text(&c, "k.cu", 12, "\tv = tile[tx][ty];\t// conflicts", &e), 0);
    assert_int_equal(source_add_text(&c, "k.cu", 13, "", &e), 0);

    assert_int_equal(source_capture_write(t->path, &c, &e), 0);
    if (source_capture_read(t->path, &back, &e) != 0)
        fail_msg("source_capture_read: %s", e.message);
    assert_string_equal(back.chip, "GH100");
    assert_int_equal(back.n_calls, 2);
    for (int k = 0; k < 2; ++k) {
        assert_string_equal(back.calls[k].variant, c.calls[k].variant);
        assert_string_equal(back.calls[k].precision, c.calls[k].precision);
        assert_true(product_shape_equal(back.calls[k].shape, c.calls[k].shape));
        assert_string_equal(back.calls[k].kernel, c.calls[k].kernel); /* named by the caller, or "" */
        assert_int_equal(back.calls[k].n, c.calls[k].n);
        for (size_t i = 0; i < c.calls[k].n; ++i)
            assert_same_instruction(&back.calls[k].instructions[i], &c.calls[k].instructions[i]);
    }
    assert_int_equal(back.n_texts, 2);
    assert_string_equal(source_find_text(&back, "k.cu", 12)->text, " v = tile[tx][ty]; // conflicts");
    assert_string_equal(source_find_text(&back, "k.cu", 13)->text, "");
    assert_null(source_find_text(&back, "k.cu", 14));
    source_capture_free(&c);
    source_capture_free(&back);
}

/* The first lines of a valid capture: magic, chip and every metric in order (lines 1 to 2 + SASS_METRIC_COUNT). */
static void capture_head(char *out, size_t len)
{
    size_t used = (size_t)snprintf(out, len, "memscope-source\t1\nchip\tGH100\n");
    for (int m = 0; m < SASS_METRIC_COUNT; ++m)
        used += (size_t)snprintf(out + used, len - used, "metric\t%s\n", sass_metric_name(m));
}

/* An instruction record with n_values metric values: every one 1 but the last, which is last_value. */
static void instruction_record(char *out, size_t len, int n_values, const char *last_value)
{
    size_t used = (size_t)snprintf(out, len, "inst\t_Z1kv\t16\tLDS\tk.cu\t5");
    for (int m = 0; m < n_values - 1; ++m)
        used += (size_t)snprintf(out + used, len - used, "\t1");
    snprintf(out + used, len - used, "\t%s\n", last_value);
}

#define FIRST_BODY_LINE (3 + SASS_METRIC_COUNT)

/* Writes text and expects the reader to refuse it, naming the file (and line, when line > 0) and why. */
static void expect_refused(const char *path, const char *text, int line, const char *why)
{
    struct source_capture c;
    struct error e = {0};
    char where[128];
    write_file(path, text);
    if (source_capture_read(path, &c, &e) == 0)
        fail_msg("accepted (expected \"%s\"):\n%s", why, text);
    assert_int_equal(e.code, EXIT_USAGE);
    assert_non_null(strstr(e.message, path));
    snprintf(where, sizeof where, "%s:%d:", path, line);
    if (line > 0 && !strstr(e.message, where))
        fail_msg("\"%s\" does not name line %d", e.message, line);
    if (!strstr(e.message, why))
        fail_msg("\"%s\" does not say \"%s\"", e.message, why);
    assert_int_equal(c.n_calls, 0); /* freed */
}

static void a_capture_with_a_bad_instruction(const char *path, const char *last_value, const char *why)
{
    char text[4096], inst[512];
    capture_head(text, sizeof text);
    instruction_record(inst, sizeof inst, SASS_METRIC_COUNT, last_value);
    strcat(text, "call\tv\tfp32\t64\n");
    strcat(text, inst);
    strcat(text, "end\n");
    expect_refused(path, text, FIRST_BODY_LINE + 1, why);
}

static void the_malformed_captures_base_is_valid(void **state)
{
    struct temp *t = *state;
    char text[4096], inst[512];
    struct source_capture c;
    struct error e = {0};
    capture_head(text, sizeof text);
    instruction_record(inst, sizeof inst, SASS_METRIC_COUNT, "9");
    strcat(text, "call\tv\tfp32\t64\n");
    strcat(text, inst);
    strcat(text, "text\tk.cu\t5\tx = s[i];\nend\n");
    write_file(t->path, text);
    if (source_capture_read(t->path, &c, &e) != 0)
        fail_msg("%s", e.message);
    assert_int_equal(c.calls[0].n, 1);
    assert_int_equal(c.calls[0].instructions[0].values[SASS_METRIC_COUNT - 1], 9);
    source_capture_free(&c);
}

/* A capture written before the thread counts were collected names the first SASS_METRICS_BEFORE_THREADS metrics and
 * holds that many values an instruction: it reads, its thread counts 0 and metrics_named saying they were not taken. */
static void a_capture_from_before_the_thread_counts_reads_without_them(void **state)
{
    struct temp *t = *state;
    char text[4096], inst[512];
    struct source_capture c;
    struct error e = {0};
    size_t used = (size_t)snprintf(text, sizeof text, "memscope-source\t1\nchip\tGH100\n");
    for (int m = 0; m < SASS_METRICS_BEFORE_THREADS; ++m)
        used += (size_t)snprintf(text + used, sizeof text - used, "metric\t%s\n", sass_metric_name(m));
    instruction_record(inst, sizeof inst, SASS_METRICS_BEFORE_THREADS, "7");
    strcat(text, "call\tv\tfp32\t64\n");
    strcat(text, inst);
    strcat(text, "end\n");
    write_file(t->path, text);
    if (source_capture_read(t->path, &c, &e) != 0)
        fail_msg("%s", e.message);
    assert_int_equal(c.metrics_named, SASS_METRICS_BEFORE_THREADS);
    assert_int_equal(c.calls[0].instructions[0].values[SASS_METRICS_BEFORE_THREADS - 1], 7);
    assert_int_equal(c.calls[0].instructions[0].values[SASS_THREAD_INST_EXECUTED], 0);
    source_capture_free(&c);
    /* with every metric named, the instruction must hold every value */
    capture_head(text, sizeof text);
    strcat(text, "call\tv\tfp32\t64\n");
    strcat(text, inst);
    strcat(text, "end\n");
    expect_refused(t->path, text, FIRST_BODY_LINE + 1, "every metric");
}

static void a_file_without_the_magic_header_is_refused(void **state)
{
    struct temp *t = *state;
    char text[4096];
    capture_head(text, sizeof text);
    strcat(text, "end\n");
    expect_refused(t->path, text + strlen("memscope-source\t1\n"), 0, "not a memscope source capture");
    expect_refused(t->path, "", 0, "not a memscope source capture");
    text[strlen("memscope-source\t")] = '2';
    expect_refused(t->path, text, 0, "not a memscope source capture");
}

static void a_missing_file_is_refused(void **state)
{
    struct temp *t = *state;
    struct source_capture c;
    struct error e = {0};
    unlink(t->path);
    assert_int_equal(source_capture_read(t->path, &c, &e), EXIT_USAGE);
    assert_non_null(strstr(e.message, t->path));
}

static void a_truncated_capture_is_refused(void **state)
{
    struct temp *t = *state;
    char text[4096], inst[512];
    capture_head(text, sizeof text);
    instruction_record(inst, sizeof inst, SASS_METRIC_COUNT, "1");
    strcat(text, "call\tv\tfp32\t64\n");
    strcat(text, inst);
    expect_refused(t->path, text, 0, "truncated");
}

static void an_instruction_before_any_call_is_refused(void **state)
{
    struct temp *t = *state;
    char text[4096], inst[512];
    capture_head(text, sizeof text);
    instruction_record(inst, sizeof inst, SASS_METRIC_COUNT, "1");
    strcat(text, inst);
    strcat(text, "end\n");
    expect_refused(t->path, text, FIRST_BODY_LINE, "before any call");
}

static void an_unexpected_metric_is_refused(void **state)
{
    struct temp *t = *state;
    const char *head = "memscope-source\t1\nchip\tGH100\n";
    char text[4096];
    snprintf(text, sizeof text, "%smetric\t%s\nmetric\tsmsp__sass_made_up\nend\n", head, sass_metric_name(0));
    expect_refused(t->path, text, 4, "unexpected metric");
    /* the first two swapped */
    snprintf(text, sizeof text, "%smetric\t%s\nmetric\t%s\nend\n", head, sass_metric_name(1), sass_metric_name(0));
    expect_refused(t->path, text, 3, "unexpected metric");
    /* one metric more than collected: the first named again */
    capture_head(text, sizeof text);
    snprintf(text + strlen(text), sizeof text - strlen(text), "metric\t%s\nend\n", sass_metric_name(0));
    expect_refused(t->path, text, FIRST_BODY_LINE, "unexpected metric");
}

static void a_negative_or_non_numeric_value_is_refused(void **state)
{
    struct temp *t = *state;
    a_capture_with_a_bad_instruction(t->path, "-5", "not a count");
    a_capture_with_a_bad_instruction(t->path, "x", "not a count");
    a_capture_with_a_bad_instruction(t->path, "5x", "not a count");
    a_capture_with_a_bad_instruction(t->path, "", "not a count");
    a_capture_with_a_bad_instruction(t->path, "18446744073709551616", "not a count"); /* 2^64 */
    /* strtoull skips spaces and takes a sign after them: " -5" once read back as 2^64 - 5 */
    a_capture_with_a_bad_instruction(t->path, " -5", "not a count");
    a_capture_with_a_bad_instruction(t->path, "+5", "not a count");
}

static void too_few_fields_are_refused(void **state)
{
    struct temp *t = *state;
    char text[4096], inst[512];
    capture_head(text, sizeof text);
    instruction_record(inst, sizeof inst, SASS_METRIC_COUNT - 1, "1");
    strcat(text, "call\tv\tfp32\t64\n");
    strcat(text, inst);
    strcat(text, "end\n");
    expect_refused(t->path, text, FIRST_BODY_LINE + 1, "every metric");

    capture_head(text, sizeof text);
    strcat(text, "call\tv\tfp32\nend\n");
    expect_refused(t->path, text, FIRST_BODY_LINE, "and a shape");
    capture_head(text, sizeof text);
    strcat(text, "call\tv\tfp32\t8192x3072\nend\n");
    expect_refused(t->path, text, FIRST_BODY_LINE, "and a shape");
}

/* ---- source_lines and source_function_totals ---- */

static void shared_access(struct source_instruction *in, enum sass_metric kind, uint64_t count, uint64_t wavefronts,
                          uint64_t ideal)
{
    in->values[SASS_INST_EXECUTED] = in->values[kind] = count;
    in->values[SASS_SHARED_WAVEFRONTS] = wavefronts;
    in->values[SASS_SHARED_WAVEFRONTS_IDEAL] = ideal;
}

/* _Z1kv: on k.cu:5 a 32-way conflicting load (excess 31 * 32), a conflict-free load, and a broadcast store
 * whose ideal is above its wavefronts; on k.cu:7 an add. _Z5otherv: a load on the same k.cu:5. */
static void two_functions(struct source_call *call)
{
    shared_access(add_instruction(call, "_Z1kv", 0x10, "LDS", "k.cu", 5), SASS_SHARED_LD_INST, 32, 32 * 32, 32);
    shared_access(add_instruction(call, "_Z1kv", 0x20, "LDS", "k.cu", 5), SASS_SHARED_LD_INST, 32, 32, 32);
    shared_access(add_instruction(call, "_Z1kv", 0x30, "STS", "k.cu", 5), SASS_SHARED_ST_INST, 32, 32, 128);
    add_instruction(call, "_Z1kv", 0x40, "IADD3", "k.cu", 7)->values[SASS_INST_EXECUTED] = 1;
    shared_access(add_instruction(call, "_Z5otherv", 0x10, "LDS", "k.cu", 5), SASS_SHARED_LD_INST, 4, 4, 4);
}

static void lines_sum_a_functions_instructions_per_file_and_line(void **state)
{
    (void)state;
    struct source_call call = {0};
    struct source_line *lines;
    size_t n;
    struct error e = {0};
    two_functions(&call);
    assert_int_equal(source_lines(&call, &lines, &n, &e), 0);
    assert_int_equal(n, 3);
    assert_string_equal(lines[0].function, "_Z1kv");
    assert_string_equal(lines[0].file, "k.cu");
    assert_int_equal(lines[0].line, 5);
    assert_true(lines[0].values[LINE_INST_EXECUTED] == 96);
    assert_true(lines[0].values[LINE_SHARED_INSTRUCTIONS] == 96);
    assert_true(lines[0].values[LINE_SHARED_LD_WAVEFRONTS] == 1024 + 32);
    assert_true(lines[0].values[LINE_SHARED_ST_WAVEFRONTS] == 32);
    assert_true(lines[0].values[LINE_SHARED_EXCESS_WAVEFRONTS] == 31 * 32);
    assert_string_equal(lines[1].function, "_Z1kv");
    assert_int_equal(lines[1].line, 7);
    assert_true(lines[1].values[LINE_INST_EXECUTED] == 1);
    free(lines);
    free(call.instructions);
}

static void a_lines_opcodes_are_listed_once_in_pc_order(void **state)
{
    (void)state;
    struct source_call call = {0};
    struct source_line *lines;
    size_t n;
    struct error e = {0};
    two_functions(&call);
    add_instruction(&call, "_Z5otherv", 0x20, "LDS.128", "k.cu", 5);
    add_instruction(&call, "_Z5otherv", 0x30, "LDS", "k.cu", 5);
    add_instruction(&call, "_Z5otherv", 0x40, "LD", "k.cu", 5);
    add_instruction(&call, "_Z5otherv", 0x50, "ULDC", "k.cu", 5);
    add_instruction(&call, "_Z5otherv", 0x60, "LDC", "k.cu", 5);
    assert_int_equal(source_lines(&call, &lines, &n, &e), 0);
    assert_int_equal(n, 3);
    assert_string_equal(lines[0].opcodes, "LDS STS");
    assert_string_equal(lines[1].opcodes, "IADD3");
    /* neither a prefix nor a suffix of an opcode listed ("LDS" of "LDS.128", "LD" of "LDS", "LDC" of "ULDC") is it */
    assert_string_equal(lines[2].opcodes, "LDS LDS.128 LD ULDC LDC");
    free(lines);
    free(call.instructions);
}

/* An instruction with no opcode once made source_lines loop forever (strstr finds "" at every step). */
static void an_empty_opcode_is_not_listed(void **state)
{
    (void)state;
    struct source_call call = {0};
    struct source_line *lines;
    size_t n;
    struct error e = {0};
    add_instruction(&call, "_Z1kv", 0x10, "LDS", "k.cu", 3);
    add_instruction(&call, "_Z1kv", 0x20, "", "k.cu", 3);
    assert_int_equal(source_lines(&call, &lines, &n, &e), 0);
    assert_int_equal(n, 1);
    assert_string_equal(lines[0].opcodes, "LDS");
    free(lines);
    free(call.instructions);
}

static void the_same_line_of_two_functions_stays_apart(void **state)
{
    (void)state;
    struct source_call call = {0};
    struct source_line *lines;
    size_t n;
    struct error e = {0};
    two_functions(&call);
    assert_int_equal(source_lines(&call, &lines, &n, &e), 0);
    assert_int_equal(n, 3);
    assert_string_equal(lines[2].function, "_Z5otherv");
    assert_string_equal(lines[2].file, "k.cu");
    assert_int_equal(lines[2].line, 5);
    assert_string_equal(lines[2].opcodes, "LDS");
    assert_true(lines[2].values[LINE_INST_EXECUTED] == 4);
    assert_true(lines[2].values[LINE_SHARED_LD_WAVEFRONTS] == 4);
    assert_true(lines[0].values[LINE_INST_EXECUTED] == 96); /* none of _Z5otherv's 4 */
    free(lines);
    free(call.instructions);
}

static void a_functions_totals_sum_its_instructions_own_excess(void **state)
{
    (void)state;
    struct source_call call = {0};
    double totals[LINE_METRIC_COUNT];
    two_functions(&call);
    source_function_totals(&call, "_Z1kv", totals);
    assert_true(totals[LINE_INST_EXECUTED] == 97);
    assert_true(totals[LINE_SHARED_WAVEFRONTS] == 1024 + 32 + 32);
    assert_true(totals[LINE_SHARED_WAVEFRONTS_IDEAL] == 32 + 32 + 128);
    assert_true(totals[LINE_SHARED_EXCESS_WAVEFRONTS] == 31 * 32);
    /* the store's ideal above its wavefronts would hide 96 of the conflicts from totals minus ideal */
    assert_true(totals[LINE_SHARED_WAVEFRONTS] - totals[LINE_SHARED_WAVEFRONTS_IDEAL] == 31 * 32 - 96);

    source_function_totals(&call, "_Z5otherv", totals);
    assert_true(totals[LINE_INST_EXECUTED] == 4);
    assert_true(totals[LINE_SHARED_EXCESS_WAVEFRONTS] == 0);
    source_function_totals(&call, "_Z7missingv", totals);
    for (int m = 0; m < LINE_METRIC_COUNT; ++m)
        assert_true(totals[m] == 0);
    free(call.instructions);
}

/* ---- disassemble ---- */

/* Makes the temporary file a stand-in for nvdisasm that prints listing whatever it is given, and exits status. */
static void fake_nvdisasm(const char *path, const char *listing, int status)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n");
    if (listing[0])
        fprintf(f, "cat <<'LISTING'\n%sLISTING\n", listing);
    fprintf(f, "exit %d\n", status);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, 0755), 0);
    setenv("NVDISASM", path, 1);
}

static const char listing[] = "\t.headerflags\t@\"EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n"
                              "//--------------------- .text._Z3fooPf --------------------------\n"
                              "\t.section\t.text._Z3fooPf,\"ax\",@progbits\n"
                              ".text._Z3fooPf:\n"
                              "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
                              "        /*0010*/              @!P0 STS [R5], R4 ;\n"
                              "        /*0020*/                   LDS.128 R8, [R2] ;\n"
                              ".L_x_0:\n"
                              "        /*0030*/                   EXIT ;\n"
                              ".text._Z3barv:\n"
                              "        /*0000*/                   BRA `(.L_x_1) ;\n";

static const uint8_t cubin[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0};

static void opcodes_are_found_by_function_and_pc(void **state)
{
    struct temp *t = *state;
    struct disassembly d;
    struct error e = {0};
    fake_nvdisasm(t->path, listing, 0);
    if (disassemble(cubin, sizeof cubin, &d, &e) != 0)
        fail_msg("disassemble: %s", e.message);
    assert_int_equal(d.n, 5);
    assert_string_equal(disassembly_opcode(&d, "_Z3fooPf", 0x00), "LDC");
    assert_string_equal(disassembly_opcode(&d, "_Z3fooPf", 0x10), "STS"); /* the predicate skipped */
    assert_string_equal(disassembly_opcode(&d, "_Z3fooPf", 0x20), "LDS.128");
    assert_string_equal(disassembly_opcode(&d, "_Z3fooPf", 0x30), "EXIT");
    assert_string_equal(disassembly_opcode(&d, "_Z3barv", 0x00), "BRA");
    assert_null(disassembly_opcode(&d, "_Z3fooPf", 0x40));
    assert_null(disassembly_opcode(&d, "_Z3fooPf", 0x08));
    assert_null(disassembly_opcode(&d, "_Z3barv", 0x10));
    assert_null(disassembly_opcode(&d, "_Z3bazv", 0x00));
    disassembly_free(&d);
    assert_int_equal(d.n, 0);
}

static void a_failing_disassembler_is_an_error(void **state)
{
    struct temp *t = *state;
    struct disassembly d;
    struct error e = {0};
    fake_nvdisasm(t->path, listing, 1);
    assert_int_not_equal(disassemble(cubin, sizeof cubin, &d, &e), 0);
    assert_int_not_equal(e.code, 0);
    assert_non_null(strstr(e.message, "failed"));
    assert_int_equal(d.n, 0); /* what it listed before failing is dropped */
    assert_null(d.opcodes);
}

static void a_disassembler_that_lists_nothing_is_an_error(void **state)
{
    struct temp *t = *state;
    struct disassembly d;
    struct error e = {0};
    fake_nvdisasm(t->path, "", 0);
    assert_int_not_equal(disassemble(cubin, sizeof cubin, &d, &e), 0);
    assert_int_not_equal(e.code, 0);
    assert_non_null(strstr(e.message, "listed no instruction"));
    assert_int_equal(d.n, 0);
}

/* The stand-in names its function after its arguments: "-c" then a temporary file holding the cubin. */
static void the_cubin_is_handed_over_in_a_temporary_file(void **state)
{
    struct temp *t = *state;
    struct disassembly d;
    struct error e = {0};
    FILE *f = fopen(t->path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n[ \"$1\" = -c ] && [ \"$(od -An -tx1 \"$2\" | tr -d ' \\n')\" = 7f454c4602010100 ] "
               "|| exit 9\nprintf '.text.%%s:\\n /*0000*/ EXIT ;\\n' \"$2\"\n");
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(t->path, 0755), 0);
    setenv("NVDISASM", t->path, 1);
    if (disassemble(cubin, sizeof cubin, &d, &e) != 0)
        fail_msg("disassemble: %s", e.message);
    assert_int_equal(d.n, 1);
    assert_int_equal(strncmp(d.opcodes[0].function, "/tmp/", 5), 0);
    assert_int_not_equal(access(d.opcodes[0].function, F_OK), 0); /* removed afterwards */
    assert_string_equal(d.opcodes[0].opcode, "EXIT");
    disassembly_free(&d);
}

/* Two disassemblies started before either is read (as the source group starts them, side by side), read in the
 * other order: each listing is its own cubin's, and each temporary file is removed once read. */
static void disassemblies_started_together_are_read_in_any_order(void **state)
{
    struct temp *t = *state;
    struct disassembly_job first, second;
    struct disassembly a, b;
    struct error e = {0};
    FILE *f = fopen(t->path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\nprintf '.text.%%s:\\n /*0000*/ EXIT ;\\n' \"$2\"\n");
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(t->path, 0755), 0);
    setenv("NVDISASM", t->path, 1);
    assert_int_equal(disassembly_start(cubin, sizeof cubin, &first, &e), 0);
    assert_int_equal(disassembly_start(cubin, sizeof cubin, &second, &e), 0);
    assert_string_not_equal(first.path, second.path);
    assert_int_equal(disassembly_finish(&second, &b, &e), 0);
    assert_int_equal(disassembly_finish(&first, &a, &e), 0);
    assert_int_equal(a.n, 1);
    assert_int_equal(b.n, 1);
    assert_string_equal(a.opcodes[0].function, first.path);
    assert_string_equal(b.opcodes[0].function, second.path);
    assert_int_not_equal(access(first.path, F_OK), 0);
    assert_int_not_equal(access(second.path, F_OK), 0);
    disassembly_free(&a);
    disassembly_free(&b);
}

/* An ELF64 image with a section-name table and one other section, named second: what cubin_has_lines reads. */
static size_t elf_with_section(uint8_t *image, size_t len, const char *second)
{
    char names[64];
    int names_len = snprintf(names, sizeof names, "%c.shstrtab%c%s", 0, 0, second) + 1;
    size_t sections = 64 + 64; /* the header, then the names (padded), then three section headers */
    size_t size = sections + 3 * 64;
    assert_true(size <= len && names_len <= 64);
    memset(image, 0, size);
    memcpy(image, "\x7f" "ELF\x02\x01\x01", 7);
    memcpy(image + 64, names, (size_t)names_len);
    const uint64_t shoff = sections;
    const uint16_t entry = 64, count = 3, names_index = 1;
    memcpy(image + 0x28, &shoff, 8); /* the tests run little-endian, as ELF's cubins are */
    memcpy(image + 0x3A, &entry, 2);
    memcpy(image + 0x3C, &count, 2);
    memcpy(image + 0x3E, &names_index, 2);
    const uint32_t shstrtab_name = 1, second_name = 11;
    const uint64_t names_at = 64, names_size = (uint64_t)names_len;
    memcpy(image + sections + 64, &shstrtab_name, 4);
    memcpy(image + sections + 64 + 0x18, &names_at, 8);
    memcpy(image + sections + 64 + 0x20, &names_size, 8);
    memcpy(image + sections + 128, &second_name, 4);
    return size;
}

static void only_a_cubin_with_a_debug_line_section_has_lines(void **state)
{
    (void)state;
    uint8_t image[512];
    assert_true(cubin_has_lines(image, elf_with_section(image, sizeof image, ".debug_line")));
    assert_false(cubin_has_lines(image, elf_with_section(image, sizeof image, ".debug_frame")));
    assert_false(cubin_has_lines(image, elf_with_section(image, sizeof image, ".debug_lin")));
    assert_false(cubin_has_lines(cubin, sizeof cubin)); /* too short to be an ELF64 image */
    size_t size = elf_with_section(image, sizeof image, ".debug_line");
    assert_false(cubin_has_lines(image, size - 3 * 64)); /* its section headers cut off */
}

#define WITH_TEMP(test) cmocka_unit_test_setup_teardown(test, make_temp, remove_temp)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ldmatrix_reads_and_cp_async_writes_shared_memory),
        cmocka_unit_test(predicated_off_lanes_and_conversions_per_instruction),
        cmocka_unit_test(shared_excess_is_wavefronts_beyond_the_ideal),
        cmocka_unit_test(an_ideal_above_the_count_gives_no_excess),
        cmocka_unit_test(a_loads_wavefronts_count_as_load_wavefronts_only),
        cmocka_unit_test(a_stores_wavefronts_count_as_store_wavefronts_only),
        cmocka_unit_test(other_shared_wavefronts_count_in_the_total_only),
        cmocka_unit_test(global_load_sectors_and_excess),
        cmocka_unit_test(global_store_sectors_and_excess),
        WITH_TEMP(a_capture_reads_back_as_written),
        WITH_TEMP(the_malformed_captures_base_is_valid),
        WITH_TEMP(a_capture_from_before_the_thread_counts_reads_without_them),
        WITH_TEMP(a_file_without_the_magic_header_is_refused),
        WITH_TEMP(a_missing_file_is_refused),
        WITH_TEMP(a_truncated_capture_is_refused),
        WITH_TEMP(an_instruction_before_any_call_is_refused),
        WITH_TEMP(an_unexpected_metric_is_refused),
        WITH_TEMP(a_negative_or_non_numeric_value_is_refused),
        WITH_TEMP(too_few_fields_are_refused),
        cmocka_unit_test(lines_sum_a_functions_instructions_per_file_and_line),
        cmocka_unit_test(a_lines_opcodes_are_listed_once_in_pc_order),
        cmocka_unit_test(an_empty_opcode_is_not_listed),
        cmocka_unit_test(the_same_line_of_two_functions_stays_apart),
        cmocka_unit_test(a_functions_totals_sum_its_instructions_own_excess),
        WITH_TEMP(opcodes_are_found_by_function_and_pc),
        WITH_TEMP(a_failing_disassembler_is_an_error),
        WITH_TEMP(a_disassembler_that_lists_nothing_is_an_error),
        WITH_TEMP(the_cubin_is_handed_over_in_a_temporary_file),
        WITH_TEMP(disassemblies_started_together_are_read_in_any_order),
        cmocka_unit_test(only_a_cubin_with_a_debug_line_section_has_lines),
    };
    return cmocka_run_group_tests_name("source", tests, NULL, NULL);
}
