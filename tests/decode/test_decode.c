/*
 * Offline decode: the capture of tiled_transposed at W=1024 (a batch of one
 * call: two L2-sweep ranges, then the kernel), taken on an NVIDIA H100 (GH100
 * chip) by memscope, is evaluated again here with no GPU, and compared with
 * what Nsight Compute 2025.3.1 measured for the same kernel on an H100
 * (tests/fixtures/ncu-tiled_transposed-W1024.csv, the
 * rows of `ncu --csv --print-units base --nvtx --clock-control none
 * --replay-mode application --metrics ...`).
 * Counts that do not depend on timing must be equal; DRAM bytes within 2 %
 * (or 64 KiB, for traffic that small); duration within 10 %.
 */
#include <math.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../harness/profile/profile.h"
#include "../../harness/results/capture_tags.h"
#include "../support/run_shell.h"

#define FIXTURES "tests/fixtures/"
#define NCU_COLUMNS 17
#define NCU_METRIC 14
#define NCU_VALUE 16

static struct profile profile;
static struct prof_capture capture;

/* The fixture is a batch of one call: the tag "call0" says which ranges are its kernels. */
static int decode_fixture(void **state)
{
    (void)state;
    struct prof_error pe = {0};
    struct prof_host *host = NULL;
    struct error e = {0};
    static struct tagged_call call;
    char tag[32];
    if (prof_capture_read(FIXTURES "tiled_transposed-W1024.capture", &capture, &pe) ||
        prof_host_open(capture.config.chip, &host, &pe)) {
        fprintf(stderr, "%s\n", pe.message);
        return -1;
    }
    if (capture_tags_call(&capture, 0, &call, tag, sizeof tag) != TAGGED_CALL_OK) {
        fprintf(stderr, "the fixture's tag %s is missing or malformed\n", tag);
        prof_host_close(host, &pe);
        return -1;
    }
    int rc = metrics_evaluate(host, capture.counter_data, capture.counter_data_size, call.first_range,
                              (int)call.ranges, call.kernels, &capture.config, &profile, &e);
    int closed = prof_host_close(host, &pe);
    if (rc)
        fprintf(stderr, "%s\n", e.message);
    if (closed)
        fprintf(stderr, "%s\n", pe.message);
    return rc || closed ? -1 : 0;
}

static int free_fixture(void **state)
{
    (void)state;
    prof_capture_free(&capture);
    return 0;
}

/* ncu quotes every field; none of the fields we read holds the "," sequence. */
static int split_ncu_row(char *line, char *fields[NCU_COLUMNS])
{
    int n = 0;
    char *p = line + 1;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *end; n < NCU_COLUMNS && (end = strstr(p, "\",\"")); p = end + 3) {
        *end = '\0';
        fields[n++] = p;
    }
    if (n == NCU_COLUMNS - 1) {
        p[strlen(p) - 1] = '\0';
        fields[n++] = p;
    }
    return n;
}

static double ncu_value(const char *metric)
{
    char line[8192], *fields[NCU_COLUMNS];
    FILE *f = fopen(FIXTURES "ncu-tiled_transposed-W1024.csv", "r");
    assert_non_null(f);
    double value = NAN;
    while (fgets(line, sizeof line, f))
        if (split_ncu_row(line, fields) == NCU_COLUMNS && strcmp(fields[NCU_METRIC], metric) == 0) {
            char digits[64], *d = digits;
            for (const char *c = fields[NCU_VALUE]; *c && d < digits + sizeof digits - 1; ++c)
                if (*c != ',')
                    *d++ = *c;
            *d = '\0';
            value = strtod(digits, NULL);
        }
    fclose(f);
    if (isnan(value))
        fail_msg("%s not in the ncu fixture", metric);
    return value;
}

static double decoded(const char *metric)
{
    double v = metric_lookup(profile.names, profile.kernels[0].values, profile.n_metrics, metric);
    if (isnan(v))
        fail_msg("%s not decoded", metric);
    return v;
}

static void the_kernel_keeps_its_name(void **state)
{
    (void)state;
    assert_int_equal(profile.n_kernels, 1);
    assert_string_equal(profile.kernels[0].kernel,
                        "void transposed_tile_kernel<0>(float const*, float const*, float*, int)");
}

static void every_metric_of_the_configuration_is_decoded(void **state)
{
    (void)state;
    /* The default set when the fixture was captured: 27 names, each decoded to a number. */
    assert_int_equal(profile.n_metrics, 27);
    for (int i = 0; i < profile.n_metrics; ++i)
        if (!isfinite(profile.kernels[0].values[i]))
            fail_msg("%s decoded to %g", profile.names[i], profile.kernels[0].values[i]);
}

static void counts_equal_nsight_compute(void **state)
{
    (void)state;
    static const char *const counts[] = {
        "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "smsp__sass_inst_executed_op_global_ld.sum",
        "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum",
        "smsp__sass_inst_executed_op_global_st.sum",
        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "smsp__sass_inst_executed_op_shared_ld.sum",
        "smsp__sass_inst_executed_op_shared_st.sum",
        "smsp__sass_data_bytes_mem_shared_op_ld.sum",
        "smsp__sass_data_bytes_mem_shared_op_st.sum",
        "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
        double mine = decoded(counts[i]), theirs = ncu_value(counts[i]);
        if (mine != theirs)
            fail_msg("%s: decoded %.0f, ncu %.0f", counts[i], mine, theirs);
    }
}

static void dram_bytes_within_two_percent_of_nsight_compute(void **state)
{
    (void)state;
    static const char *const dram[] = {"dram__bytes_read.sum", "dram__bytes_write.sum"};
    for (size_t i = 0; i < sizeof dram / sizeof dram[0]; ++i) {
        double mine = decoded(dram[i]), theirs = ncu_value(dram[i]);
        if (fabs(mine - theirs) > fmax(0.02 * theirs, 65536.0))
            fail_msg("%s: decoded %.0f, ncu %.0f", dram[i], mine, theirs);
    }
}

static void duration_within_ten_percent_of_nsight_compute(void **state)
{
    (void)state;
    double mine = decoded("gpu__time_duration.sum"), theirs = ncu_value("gpu__time_duration.sum");
    assert_true(fabs(mine - theirs) <= 0.10 * theirs);
}

/* The lesson of the kernel: the transposed store is a 32-way conflict on one of its two stores. */
static void the_transposed_store_conflict_is_visible(void **state)
{
    (void)state;
    double per_store = decoded("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum") /
                       decoded("smsp__sass_inst_executed_op_shared_st.sum");
    assert_true(per_store > 16.0 && per_store < 17.0); /* (32 + 1) / 2 = 16.5 */
}

static const char *decode_bin(void)
{
    const char *bin = getenv("MEMSCOPE_DECODE_BIN");
    return bin ? bin : "build/memscope-decode";
}

/* The command line gives the rows a run writes: one per metric, tagged with its call's variant, precision and
 * size (a capture from before shapes names its width: a square). */
static void the_command_writes_the_metric_rows(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s %stiled_transposed-W1024.capture", decode_bin(), FIXTURES);
    assert_int_equal(o.exit_code, 0);
    assert_non_null(strstr(o.output, "variant,precision,width,kernel,metric,value,unit,rows,cols,inner\n"));
    assert_non_null(strstr(o.output, "tiled_transposed,fp32,1024,\"void transposed_tile_kernel<0>"));
    assert_non_null(strstr(o.output, ",smsp__sass_inst_executed_op_shared_st.sum,2097152,instruction,1024,1024,"
                                     "1024\n"));
}

static void the_command_refuses_a_file_that_is_not_a_capture(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s -o /tmp/memscope-decode-refused.csv %sncu-tiled_transposed-W1024.csv", decode_bin(), FIXTURES);
    assert_int_equal(o.exit_code, 2);
    assert_non_null(strstr(o.output, "ncu-tiled_transposed-W1024.csv"));
    assert_int_not_equal(access("/tmp/memscope-decode-refused.csv", F_OK), 0);
}

/* Found by fuzz_capture (tests/fuzz/regressions/fuzz_capture/): an image size past SIZE_MAX went to malloc. */
static void the_command_refuses_image_sizes_it_cannot_read(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s tests/fuzz/regressions/fuzz_capture/counter-data-bytes-past-size-max", decode_bin());
    assert_int_equal(o.exit_code, 2);
    assert_non_null(strstr(o.output, "counter-data-bytes-past-size-max:10: not a whole number"));
}

#define EDITED "/tmp/memscope-decode-edited.capture"

/* One tag of an edited fixture: set to value (added if absent), or dropped if value is NULL. */
struct tag_edit {
    const char *key, *value;
};

static void drop_tag(struct prof_capture *c, const char *key)
{
    int kept = 0;
    for (int i = 0; i < c->n_tags; ++i)
        if (strcmp(c->tag_key[i], key) != 0) {
            memmove(c->tag_key[kept], c->tag_key[i], sizeof c->tag_key[0]);
            memmove(c->tag_value[kept++], c->tag_value[i], sizeof c->tag_value[0]);
        }
    c->n_tags = kept;
}

/* The fixture again, with its tags edited, at EDITED. */
static void write_edited_fixture(const struct tag_edit *edits, int n)
{
    static struct prof_capture edited;
    struct prof_error pe = {0};
    edited = capture;
    for (int i = 0; i < n; ++i) {
        drop_tag(&edited, edits[i].key);
        if (edits[i].value) {
            snprintf(edited.tag_key[edited.n_tags], sizeof edited.tag_key[0], "%s", edits[i].key);
            snprintf(edited.tag_value[edited.n_tags++], sizeof edited.tag_value[0], "%s", edits[i].value);
        }
    }
    assert_int_equal(prof_capture_write(EDITED, &edited, &pe), 0);
}

static const struct tag_edit no_calls[] = {{"calls", NULL}};

static void expect_edited_refused(const char *what)
{
    static struct outcome o;
    shell(&o, "%s %s", decode_bin(), EDITED);
    remove(EDITED);
    assert_int_equal(o.exit_code, 2);
    if (!strstr(o.output, what))
        fail_msg("expected '%s' in: %s", what, o.output);
}

/* A capture written before batches (no "calls" tag) cannot say which ranges belong to which call. */
static void the_command_refuses_a_capture_without_its_calls(void **state)
{
    (void)state;
    write_edited_fixture(no_calls, 1);
    expect_edited_refused("no \"calls\" tag");
}

/* A range number that would wrap around, and a call that claims an L2 sweep's range (which has no name tag). */
static void the_command_refuses_calls_outside_their_ranges(void **state)
{
    (void)state;
    static const struct tag_edit wrapping[] = {{"call0", "fp32 1024 18446744073709551615 1 tiled_transposed"}};
    static const struct tag_edit sweep[] = {{"call0", "fp32 1024 0 1 tiled_transposed"}};
    write_edited_fixture(wrapping, 1);
    expect_edited_refused("tag call0 missing or malformed");
    write_edited_fixture(sweep, 1);
    expect_edited_refused("call 0 has no tag range0");
}

/* Two calls of one batch come out in their order, each under its own variant (here both read the same range). */
static void the_command_decodes_every_call_of_a_batch(void **state)
{
    (void)state;
    static struct outcome o;
    static const struct tag_edit two_calls[] = {{"calls", "2"}, {"call1", "fp64 2048 2 1 second call"}};
    write_edited_fixture(two_calls, 2);
    shell(&o, "%s %s", decode_bin(), EDITED);
    remove(EDITED);
    assert_int_equal(o.exit_code, 0);
    const char *first = strstr(o.output, "tiled_transposed,fp32,1024,"), *second = strstr(o.output, "second call,fp64,2048,");
    assert_non_null(first);
    assert_non_null(second);
    assert_true(first < second);
}

/* ---- the counts a run summed from its source group (harness/profile/summed_counts.h) ---- */

#define EDITED_SOURCE "/tmp/memscope-decode-edited.source"
#define SUMMED_NAME "smsp__sass_inst_executed_op_shared_ld.sum"

static const struct tag_edit summed_one[] = {{"summed", "1"}, {"summed0", SUMMED_NAME}};

static void decode_edited(struct outcome *o)
{
    shell(o, "%s %s", decode_bin(), EDITED);
}

/* A capture whose run summed a count needs the batch's .source beside it: without it the rows would lack a count
 * the run wrote, so it is refused by the file's name; a .source of another batch is refused by its call. */
static void a_summed_count_needs_the_batch_s_source_capture(void **state)
{
    (void)state;
    static struct outcome o;
    remove(EDITED_SOURCE);
    write_edited_fixture(summed_one, 2);
    expect_edited_refused("its run summed 1 count from " EDITED_SOURCE ", which cannot be read (No such file");
    shell(&o, "cp " FIXTURES "icache_fit-W256.source " EDITED_SOURCE);
    assert_int_equal(o.exit_code, 0);
    write_edited_fixture(summed_one, 2);
    expect_edited_refused("call 0 (tiled_transposed) is not the same batch's source call 0");
    static const struct tag_edit malformed[] = {{"summed", "2"}, {"summed0", SUMMED_NAME}};
    write_edited_fixture(malformed, 2);
    expect_edited_refused("tag summed or summed<i> missing or malformed");
    static const struct tag_edit unknown[] = {{"summed", "1"}, {"summed0", "dram__bytes_read.sum"}};
    write_edited_fixture(unknown, 2);
    expect_edited_refused(EDITED ": its tags name dram__bytes_read.sum, not a count the source group sums");
    remove(EDITED_SOURCE);
}

/* With the batch's source capture beside it the capture decodes; a count its passes collected keeps the passes'
 * value (the fixture's run patched for every shared count), so the rows are the untagged capture's. A capture whose
 * run summed nothing never reads the .source beside it, whatever that file holds. */
static void the_source_capture_is_read_only_where_the_run_summed(void **state)
{
    (void)state;
    static struct outcome plain, summed;
    static struct tag_edit untouched[] = {{"none", NULL}};
    shell(&plain, "cp " FIXTURES "tiled_transposed-W1024.source " EDITED_SOURCE);
    assert_int_equal(plain.exit_code, 0);
    write_edited_fixture(untouched, 1);
    decode_edited(&plain);
    write_edited_fixture(summed_one, 2);
    decode_edited(&summed);
    assert_int_equal(plain.exit_code, 0);
    assert_int_equal(summed.exit_code, 0);
    assert_string_equal(summed.output, plain.output);
    assert_non_null(strstr(summed.output, "," SUMMED_NAME ","));
    shell(&summed, "echo 'not a source capture' > " EDITED_SOURCE);
    write_edited_fixture(untouched, 1);
    decode_edited(&summed);
    assert_int_equal(summed.exit_code, 0);
    assert_string_equal(summed.output, plain.output);
    remove(EDITED);
    remove(EDITED_SOURCE);
}

/* A capture whose passes left two counts out, as a run with the source group writes it (its configuration names
 * them no more, its tags do), decodes with them summed from the batch's .source: the fixture's own capture with the
 * two names taken out of its configuration's list (the counter data is CUPTI's and evaluates the others by name),
 * and the .source of the same kernel at the same width from another session. The sums equal what the fixture's
 * metric passes counted for them: 67,108,864 shared load instructions and 34,603,008 shared store wavefronts. */
static void the_counts_a_run_left_out_are_summed_back(void **state)
{
    (void)state;
    static struct prof_capture edited;
    static struct outcome o, plain;
    static const struct tag_edit none[] = {{"none", NULL}};
    static const char *const left_out[] = {SUMMED_NAME,
                                           "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"};
    struct prof_error pe = {0};
    write_edited_fixture(none, 1);
    decode_edited(&plain);
    edited = capture;
    char *kept[PROF_MAX_METRICS];
    int n = 0;
    for (int i = 0; i < capture.config.n_metrics; ++i)
        if (strcmp(capture.config.metrics[i], left_out[0]) != 0 && strcmp(capture.config.metrics[i], left_out[1]) != 0)
            kept[n++] = capture.config.metrics[i];
    assert_int_equal(n, capture.config.n_metrics - 2);
    edited.config.metrics = kept;
    edited.config.n_metrics = n;
    snprintf(edited.tag_key[edited.n_tags], sizeof edited.tag_key[0], "summed");
    snprintf(edited.tag_value[edited.n_tags++], sizeof edited.tag_value[0], "2");
    for (int i = 0; i < 2; ++i) {
        snprintf(edited.tag_key[edited.n_tags], sizeof edited.tag_key[0], "summed%d", i);
        snprintf(edited.tag_value[edited.n_tags++], sizeof edited.tag_value[0], "%s", left_out[i]);
    }
    assert_int_equal(prof_capture_write(EDITED, &edited, &pe), 0);
    shell(&o, "cp " FIXTURES "tiled_transposed-W1024.source " EDITED_SOURCE);
    assert_int_equal(o.exit_code, 0);
    decode_edited(&o);
    assert_int_equal(o.exit_code, 0);
    const char *row =
        "tiled_transposed,fp32,1024,\"void transposed_tile_kernel<0>(float const*, float const*, float*, int)\",";
    char wanted[2][512];
    snprintf(wanted[0], sizeof wanted[0], "%s%s,67108864,instruction,", row, left_out[0]);
    snprintf(wanted[1], sizeof wanted[1], "%s%s,34603008,l1tex_wavefront,", row, left_out[1]);
    for (int i = 0; i < 2; ++i) {
        if (!strstr(plain.output, wanted[i]))
            fail_msg("the metric passes' row is not %s", wanted[i]);
        if (!strstr(o.output, wanted[i]))
            fail_msg("no summed row %s in\n%s", wanted[i], o.output);
    }
    remove(EDITED);
    remove(EDITED_SOURCE);
}

/* A file holding text, for -o to meet. */
static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void expect_text(const char *path, const char *text)
{
    static struct outcome o;
    shell(&o, "cat %s", path);
    assert_int_equal(o.exit_code, 0);
    assert_string_equal(o.output, text);
}

/* With -o, a capture that cannot be decoded leaves neither FILE nor FILE.partial. */
static void a_failed_decode_leaves_no_output(void **state)
{
    (void)state;
    static struct outcome o;
    const char *out = "/tmp/memscope-decode-failed.csv";
    remove(out);
    write_edited_fixture(no_calls, 1);
    shell(&o, "%s -o %s %stiled_transposed-W1024.capture %s", decode_bin(), out, FIXTURES, EDITED);
    remove(EDITED);
    assert_int_equal(o.exit_code, 2);
    assert_int_not_equal(access(out, F_OK), 0);
    assert_int_not_equal(access("/tmp/memscope-decode-failed.csv.partial", F_OK), 0);
}

/* memscope replaces no file it did not write (docs/command-line.md, "What memscope writes"): an existing FILE is
 * refused, exit 4, before anything is decoded, and kept as it was; so is a FILE.partial, even when decoding fails. */
static void an_existing_output_file_is_refused_and_kept(void **state)
{
    (void)state;
    static struct outcome o;
    char out[64], partial[80];
    snprintf(out, sizeof out, "/tmp/memscope-decode-users-%d.csv", (int)getpid());
    snprintf(partial, sizeof partial, "%s.partial", out);
    write_text(out, "the user's\n");
    shell(&o, "%s -o %s %stiled_transposed-W1024.capture", decode_bin(), out, FIXTURES);
    expect_text(out, "the user's\n");
    remove(out);
    assert_int_equal(o.exit_code, 4);
    assert_non_null(strstr(o.output, "already exists: memscope replaces no file"));
    assert_int_not_equal(access(partial, F_OK), 0);

    write_text(partial, "also the user's\n");
    write_edited_fixture(no_calls, 1);
    shell(&o, "%s -o %s %s", decode_bin(), out, EDITED);
    remove(EDITED);
    expect_text(partial, "also the user's\n");
    remove(partial);
    assert_int_equal(o.exit_code, 4);
    assert_non_null(strstr(o.output, ".partial already exists"));
    assert_int_not_equal(access(out, F_OK), 0);
}

/* -o naming a folder is refused at once, with the reason, and leaves no FILE.partial that looks complete. */
static void an_output_that_is_a_folder_is_refused(void **state)
{
    (void)state;
    static struct outcome o;
    char out[64], partial[80];
    snprintf(out, sizeof out, "/tmp/memscope-decode-folder-%d", (int)getpid());
    snprintf(partial, sizeof partial, "%s.partial", out);
    assert_int_equal(mkdir(out, 0755), 0);
    shell(&o, "%s -o %s %stiled_transposed-W1024.capture", decode_bin(), out, FIXTURES);
    rmdir(out);
    bool partial_left = access(partial, F_OK) == 0;
    remove(partial);
    assert_false(partial_left);
    assert_int_equal(o.exit_code, 4);
    assert_non_null(strstr(o.output, "already exists"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_kernel_keeps_its_name),
        cmocka_unit_test(every_metric_of_the_configuration_is_decoded),
        cmocka_unit_test(counts_equal_nsight_compute),
        cmocka_unit_test(dram_bytes_within_two_percent_of_nsight_compute),
        cmocka_unit_test(duration_within_ten_percent_of_nsight_compute),
        cmocka_unit_test(the_transposed_store_conflict_is_visible),
        cmocka_unit_test(the_command_writes_the_metric_rows),
        cmocka_unit_test(the_command_refuses_a_file_that_is_not_a_capture),
        cmocka_unit_test(the_command_refuses_image_sizes_it_cannot_read),
        cmocka_unit_test(the_command_refuses_a_capture_without_its_calls),
        cmocka_unit_test(the_command_refuses_calls_outside_their_ranges),
        cmocka_unit_test(the_command_decodes_every_call_of_a_batch),
        cmocka_unit_test(a_summed_count_needs_the_batch_s_source_capture),
        cmocka_unit_test(the_source_capture_is_read_only_where_the_run_summed),
        cmocka_unit_test(the_counts_a_run_left_out_are_summed_back),
        cmocka_unit_test(a_failed_decode_leaves_no_output),
        cmocka_unit_test(an_existing_output_file_is_refused_and_kept),
        cmocka_unit_test(an_output_that_is_a_folder_is_refused),
    };
    return cmocka_run_group_tests_name("decode", tests, decode_fixture, free_fixture);
}
