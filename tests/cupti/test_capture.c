/* Saved captures: a hand-built capture survives a write and a read; damaged files are refused with a
 * message naming the file (and the line, where one is at fault). No GPU and no CUPTI call is needed. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "../support/remove_tree.h"
#include "../../cupti/capture_file.h"

#define CONFIG_BYTES 100
#define COUNTER_BYTES 300

struct fixture {
    char folder[64];
    char path[128]; /* folder/test.capture */
    char *metric_names[3];
    uint8_t config_image[CONFIG_BYTES];
    uint8_t counter_image[COUNTER_BYTES];
    struct prof_capture capture; /* hand-built: points at the arrays above, never given to prof_capture_free */
};

static int make_folder(void **state)
{
    static char m0[] = "dram__bytes_read.sum", m1[] = "gpu__time_duration.sum",
                m2[] = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
    struct fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    snprintf(f->folder, sizeof f->folder, "/tmp/memscope-test-capture-XXXXXX");
    if (!mkdtemp(f->folder))
        return -1;
    snprintf(f->path, sizeof f->path, "%s/test.capture", f->folder);
    /* Distinct patterns: the config image counts up from 0, the counter data image down from 255 in steps of 7,
     * so a swap, a shift or a short read shows. */
    for (int i = 0; i < CONFIG_BYTES; ++i)
        f->config_image[i] = (uint8_t)i;
    for (int i = 0; i < COUNTER_BYTES; ++i)
        f->counter_image[i] = (uint8_t)(255 - 7 * i);
    f->metric_names[0] = m0;
    f->metric_names[1] = m1;
    f->metric_names[2] = m2;
    struct prof_capture *c = &f->capture;
    snprintf(c->config.chip, sizeof c->config.chip, "GH100");
    c->config.n_metrics = 3;
    c->config.metrics = f->metric_names;
    c->config.image = f->config_image;
    c->config.image_size = CONFIG_BYTES;
    c->config.passes = 5;
    c->counter_data = f->counter_image;
    c->counter_data_size = COUNTER_BYTES;
    c->n_tags = 2;
    snprintf(c->tag_key[0], sizeof c->tag_key[0], "kernel");
    snprintf(c->tag_value[0], sizeof c->tag_value[0], "matmul_tiled");
    snprintf(c->tag_key[1], sizeof c->tag_key[1], "note");
    snprintf(c->tag_value[1], sizeof c->tag_value[1], "n=4096 fp32, second run");
    *state = f;
    return 0;
}

static int remove_folder(void **state)
{
    struct fixture *f = *state;
    int rc = remove_tree(f->folder) == 0 ? 0 : -1;
    free(f);
    return rc;
}

static void write_capture(struct fixture *f)
{
    struct prof_error e = {0};
    int rc = prof_capture_write(f->path, &f->capture, &e);
    if (rc != PROF_OK)
        fail_msg("prof_capture_write: %d %s", rc, e.message);
}

static void write_bytes(const char *path, const void *data, size_t size)
{
    FILE *file = fopen(path, "wb");
    assert_non_null(file);
    assert_int_equal(fwrite(data, 1, size, file), size);
    assert_int_equal(fclose(file), 0);
}

/* The whole file into a buffer the caller frees. */
static uint8_t *read_bytes(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    assert_non_null(file);
    uint8_t *data = malloc(1 << 16);
    assert_non_null(data);
    *size = fread(data, 1, 1 << 16, file);
    assert_true(*size > 0 && *size < (1 << 16));
    assert_int_equal(fclose(file), 0);
    return data;
}

/* A text header followed by the images of the fixture. */
static void write_header_and_images(struct fixture *f, const char *header)
{
    FILE *file = fopen(f->path, "wb");
    assert_non_null(file);
    assert_int_equal(fwrite(header, 1, strlen(header), file), strlen(header));
    assert_int_equal(fwrite(f->config_image, 1, CONFIG_BYTES, file), CONFIG_BYTES);
    assert_int_equal(fwrite(f->counter_image, 1, COUNTER_BYTES, file), COUNTER_BYTES);
    assert_int_equal(fclose(file), 0);
}

static void assert_capture_zeroed(const struct prof_capture *c)
{
    assert_int_equal(c->config.chip[0], '\0');
    assert_int_equal(c->config.n_metrics, 0);
    assert_null(c->config.metrics);
    assert_null(c->config.image);
    assert_int_equal(c->config.image_size, 0);
    assert_int_equal(c->config.passes, 0);
    assert_null(c->counter_data);
    assert_int_equal(c->counter_data_size, 0);
    assert_int_equal(c->n_tags, 0);
}

/* Reads a file that must be refused: PROF_BAD_CAPTURE, the path in the message, and nothing left allocated. */
static void read_refused(struct fixture *f, const char *path, struct prof_error *e)
{
    struct prof_capture c;
    memset(&c, 0xA5, sizeof c); /* so that only prof_capture_read can have zeroed it */
    *e = (struct prof_error){0};
    int rc = prof_capture_read(path, &c, e);
    if (rc != PROF_BAD_CAPTURE)
        fail_msg("prof_capture_read(%s) gave %d, expected PROF_BAD_CAPTURE (%d): %s", path, rc, PROF_BAD_CAPTURE,
                 e->message);
    assert_int_equal(e->status, PROF_BAD_CAPTURE);
    if (!strstr(e->message, path))
        fail_msg("message does not name %s: %s", path, e->message);
    assert_capture_zeroed(&c);
    (void)f;
}

static void assert_message_has(const struct prof_error *e, const char *what)
{
    if (!strstr(e->message, what))
        fail_msg("message lacks \"%s\": %s", what, e->message);
}

/* ---- round trip ---- */

static void round_trip_keeps_every_field(void **state)
{
    struct fixture *f = *state;
    write_capture(f);
    struct prof_capture c;
    struct prof_error e = {0};
    int rc = prof_capture_read(f->path, &c, &e);
    if (rc != PROF_OK)
        fail_msg("prof_capture_read: %d %s", rc, e.message);
    assert_string_equal(c.config.chip, "GH100");
    assert_int_equal(c.config.n_metrics, 3);
    assert_non_null(c.config.metrics);
    for (int i = 0; i < 3; ++i)
        assert_string_equal(c.config.metrics[i], f->metric_names[i]);
    assert_int_equal(c.config.passes, 5);
    assert_int_equal(c.config.image_size, CONFIG_BYTES);
    assert_non_null(c.config.image);
    assert_memory_equal(c.config.image, f->config_image, CONFIG_BYTES);
    assert_int_equal(c.counter_data_size, COUNTER_BYTES);
    assert_non_null(c.counter_data);
    assert_memory_equal(c.counter_data, f->counter_image, COUNTER_BYTES);
    assert_int_equal(c.n_tags, 2);
    assert_string_equal(c.tag_key[0], "kernel");
    assert_string_equal(c.tag_value[0], "matmul_tiled");
    assert_string_equal(c.tag_key[1], "note");
    assert_string_equal(c.tag_value[1], "n=4096 fp32, second run");
    prof_capture_free(&c);
}

static void tags_found_by_key(void **state)
{
    struct fixture *f = *state;
    write_capture(f);
    struct prof_capture c;
    struct prof_error e = {0};
    assert_int_equal(prof_capture_read(f->path, &c, &e), PROF_OK);
    const char *kernel = prof_capture_tag(&c, "kernel"), *note = prof_capture_tag(&c, "note");
    assert_non_null(kernel);
    assert_string_equal(kernel, "matmul_tiled");
    assert_non_null(note);
    assert_string_equal(note, "n=4096 fp32, second run");
    assert_null(prof_capture_tag(&c, "absent"));
    assert_null(prof_capture_tag(&c, "kern")); /* a prefix of a key is not the key */
    prof_capture_free(&c);
}

static void free_zeroes_every_field(void **state)
{
    struct fixture *f = *state;
    write_capture(f);
    struct prof_capture c;
    struct prof_error e = {0};
    assert_int_equal(prof_capture_read(f->path, &c, &e), PROF_OK);
    prof_capture_free(&c);
    assert_capture_zeroed(&c);
    /* zeroed, so a second free frees nothing twice */
    prof_capture_free(&c);
    assert_capture_zeroed(&c);
}

/* ---- damaged files ---- */

static void truncated_images_refused(void **state)
{
    struct fixture *f = *state;
    write_capture(f);
    size_t size;
    uint8_t *data = read_bytes(f->path, &size);
    /* The images are the last 100 + 300 bytes; cutting 200 leaves the counter data image 100 bytes short. */
    write_bytes(f->path, data, size - 200);
    free(data);
    struct prof_error e;
    read_refused(f, f->path, &e);
    assert_message_has(&e, "truncated");
}

static void wrong_first_line_refused(void **state)
{
    struct fixture *f = *state;
    write_header_and_images(f, "memscope-capture 2\nchip GH100\nmetric a.sum\nconfig_bytes 100\n"
                               "counter_data_bytes 300\nend\n");
    struct prof_error e;
    read_refused(f, f->path, &e);
    assert_message_has(&e, "not a memscope capture");
    assert_message_has(&e, ":1:");
}

static void header_without_end_refused(void **state)
{
    struct fixture *f = *state;
    static const char header[] = "memscope-capture 1\nchip GH100\nmetric a.sum\nconfig_bytes 100\n"
                                 "counter_data_bytes 300\n";
    write_bytes(f->path, header, strlen(header));
    struct prof_error e;
    read_refused(f, f->path, &e);
    assert_message_has(&e, "end");
}

static void unknown_header_line_refused_with_its_number(void **state)
{
    struct fixture *f = *state;
    /* line 1 magic, 2 chip, 3 metric, 4 the unknown one */
    write_header_and_images(f, "memscope-capture 1\nchip GH100\nmetric a.sum\ncolour blue\nconfig_bytes 100\n"
                               "counter_data_bytes 300\nend\n");
    struct prof_error e;
    read_refused(f, f->path, &e);
    assert_message_has(&e, ":4:");
}

static void trailing_bytes_refused(void **state)
{
    struct fixture *f = *state;
    write_capture(f);
    FILE *file = fopen(f->path, "ab");
    assert_non_null(file);
    assert_int_equal(fputc('X', file), 'X');
    assert_int_equal(fclose(file), 0);
    struct prof_error e;
    read_refused(f, f->path, &e);
    assert_message_has(&e, "trailing");
}

/* Found by fuzz_capture: a size past SIZE_MAX was read as SIZE_MAX and handed to malloc (AddressSanitizer:
 * allocation-size-too-big; without it, "out of memory", exit 5). Sizes are now whole numbers checked against the
 * bytes that follow the header before anything is allocated. */
static void image_sizes_beyond_the_file_refused(void **state)
{
    struct fixture *f = *state;
    /* line 6 "end": the header's sizes are weighed against the 400 bytes after it */
    static const char *const too_big[] = {"18446744073709551615", "1000000000000", "301"};
    for (size_t i = 0; i < sizeof too_big / sizeof too_big[0]; ++i) {
        char header[256];
        snprintf(header, sizeof header,
                 "memscope-capture 1\nchip GH100\nmetric a.sum\nconfig_bytes 100\ncounter_data_bytes %s\nend\n",
                 too_big[i]);
        write_header_and_images(f, header);
        struct prof_error e;
        read_refused(f, f->path, &e);
        assert_message_has(&e, ":6: truncated");
        assert_message_has(&e, too_big[i]);
        assert_message_has(&e, "400 bytes follow");
    }
}

static void size_that_is_not_a_whole_number_refused_with_its_line(void **state)
{
    struct fixture *f = *state;
    static const char *const bad[] = {"646666666666666666666", "-1", "64junk", "", " 64", "0x40"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char header[256];
        snprintf(header, sizeof header,
                 "memscope-capture 1\nchip GH100\nmetric a.sum\nconfig_bytes %s\ncounter_data_bytes 300\nend\n",
                 bad[i]);
        write_header_and_images(f, header);
        struct prof_error e;
        read_refused(f, f->path, &e);
        assert_message_has(&e, ":4: not a whole number");
    }
}

static void empty_file_refused(void **state)
{
    struct fixture *f = *state;
    write_bytes(f->path, "", 0);
    struct prof_error e;
    read_refused(f, f->path, &e);
    /* said to be empty: it read "header has no 'end' line", as if a header had begun (issue 38) */
    assert_message_has(&e, "an empty file, not a memscope capture");
}

static void missing_file_refused(void **state)
{
    struct fixture *f = *state;
    char path[192];
    snprintf(path, sizeof path, "%s/absent.capture", f->folder);
    struct prof_error e;
    read_refused(f, path, &e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(round_trip_keeps_every_field, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(tags_found_by_key, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(free_zeroes_every_field, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(truncated_images_refused, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(wrong_first_line_refused, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(header_without_end_refused, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(unknown_header_line_refused_with_its_number, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(trailing_bytes_refused, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(image_sizes_beyond_the_file_refused, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(size_that_is_not_a_whole_number_refused_with_its_line, make_folder,
                                        remove_folder),
        cmocka_unit_test_setup_teardown(empty_file_refused, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(missing_file_refused, make_folder, remove_folder),
    };
    return cmocka_run_group_tests_name("capture", tests, NULL, NULL);
}
