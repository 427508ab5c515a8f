#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "capture_file.h"

#define MAGIC "memscope-capture 1"

int prof_capture_write(const char *path, const struct prof_capture *c, struct prof_error *e)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return prof_fail(e, PROF_FAILED, "cannot create %s: %s", path, strerror(errno));
    fprintf(f, "%s\nchip %s\n", MAGIC, c->config.chip);
    for (int i = 0; i < c->n_tags; ++i)
        fprintf(f, "tag %s %s\n", c->tag_key[i], c->tag_value[i]);
    for (int i = 0; i < c->config.n_metrics; ++i)
        fprintf(f, "metric %s\n", c->config.metrics[i]);
    fprintf(f, "passes %zu\nconfig_bytes %zu\ncounter_data_bytes %zu\nend\n", c->config.passes,
            c->config.image_size, c->counter_data_size);
    fwrite(c->config.image, 1, c->config.image_size, f);
    fwrite(c->counter_data, 1, c->counter_data_size, f);
    int failed = ferror(f);
    if (fclose(f) != 0 || failed)
        return prof_fail(e, PROF_FAILED, "writing %s failed: %s", path, strerror(errno));
    return PROF_OK;
}

static int bad(struct prof_error *e, const char *path, int line, const char *what)
{
    return prof_fail(e, PROF_BAD_CAPTURE, "%s:%d: %s", path, line, what);
}

static int add_metric(struct prof_capture *c, const char *name)
{
    if (c->config.n_metrics == PROF_MAX_METRICS)
        return -1;
    if (!c->config.metrics && !(c->config.metrics = calloc(PROF_MAX_METRICS, sizeof *c->config.metrics)))
        return -1;
    if (!(c->config.metrics[c->config.n_metrics] = strdup(name)))
        return -1;
    c->config.n_metrics++;
    return 0;
}

/* "<name> <n>\n" with n a whole decimal number that fits: 1 read, 0 a line of another name, -1 a bad number
 * (sscanf's %zu took "-1", "64junk" and numbers past SIZE_MAX, which then sized an allocation). */
static int size_line(const char *line, const char *name, size_t *value)
{
    size_t n = strlen(name);
    if (strncmp(line, name, n) != 0 || line[n] != ' ')
        return 0;
    const char *digits = line + n + 1;
    char *end;
    if (*digits < '0' || *digits > '9')
        return -1;
    errno = 0;
    unsigned long long parsed = strtoull(digits, &end, 10);
    if (errno || strcmp(end, "\n") != 0 || parsed > SIZE_MAX)
        return -1;
    *value = (size_t)parsed;
    return 1;
}

/* NULL, or what is wrong with the line. */
static const char *parse_header_line(struct prof_capture *c, const char *line)
{
    char name[256];
    int read;
    if (sscanf(line, "chip %31s", c->config.chip) == 1)
        return NULL;
    if (c->n_tags < CAPTURE_MAX_TAGS &&
        sscanf(line, "tag %31s %255[^\n]", c->tag_key[c->n_tags], c->tag_value[c->n_tags]) == 2) {
        c->n_tags++;
        return NULL;
    }
    if (sscanf(line, "metric %255s", name) == 1)
        return add_metric(c, name) ? "unrecognised header line" : NULL;
    if ((read = size_line(line, "passes", &c->config.passes)) ||
        (read = size_line(line, "config_bytes", &c->config.image_size)) ||
        (read = size_line(line, "counter_data_bytes", &c->counter_data_size)))
        return read > 0 ? NULL : "not a whole number";
    return "unrecognised header line";
}

static int read_images(FILE *f, struct prof_capture *c, const char *path, int line, struct prof_error *e)
{
    if (c->config.image_size == 0 || c->counter_data_size == 0 || c->config.n_metrics == 0 || !c->config.chip[0])
        return bad(e, path, line, "header lacks the chip, metrics or image sizes");
    /* The sizes come from the file: check them against what it holds before allocating anything. */
    struct stat st;
    long at = ftell(f);
    if (fstat(fileno(f), &st) != 0 || at < 0)
        return prof_fail(e, PROF_BAD_CAPTURE, "%s: cannot tell its size: %s", path, strerror(errno));
    size_t left = st.st_size > at ? (size_t)(st.st_size - at) : 0;
    if (c->config.image_size > left || c->counter_data_size > left - c->config.image_size)
        return prof_fail(e, PROF_BAD_CAPTURE,
                         "%s:%d: truncated: the header says %zu + %zu bytes of images, but %zu bytes follow it", path,
                         line, c->config.image_size, c->counter_data_size, left);
    c->config.image = malloc(c->config.image_size);
    c->counter_data = malloc(c->counter_data_size);
    if (!c->config.image || !c->counter_data)
        return prof_fail(e, PROF_FAILED, "out of memory reading %s", path);
    if (fread(c->config.image, 1, c->config.image_size, f) != c->config.image_size ||
        fread(c->counter_data, 1, c->counter_data_size, f) != c->counter_data_size)
        return bad(e, path, line, "truncated: the images are shorter than the header says");
    if (fgetc(f) != EOF)
        return bad(e, path, line, "trailing bytes after the images");
    return PROF_OK;
}

int prof_capture_read(const char *path, struct prof_capture *out, struct prof_error *e)
{
    char line[1024] = "";
    const char *wrong;
    int number = 0;
    *out = (struct prof_capture){0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return prof_fail(e, PROF_BAD_CAPTURE, "cannot open %s: %s", path, strerror(errno));
    while (!e->status && fgets(line, sizeof line, f)) {
        ++number;
        if (number == 1 && strncmp(line, MAGIC "\n", sizeof MAGIC) != 0)
            bad(e, path, number, "not a memscope capture (bad first line)");
        else if (strcmp(line, "end\n") == 0)
            break;
        else if (number > 1 && (wrong = parse_header_line(out, line)))
            bad(e, path, number, wrong);
    }
    if (!e->status && number == 0)
        prof_fail(e, PROF_BAD_CAPTURE, "%s: an empty file, not a memscope capture", path);
    else if (!e->status && strcmp(line, "end\n") != 0)
        bad(e, path, number, "header has no 'end' line");
    if (!e->status)
        read_images(f, out, path, number, e);
    fclose(f);
    if (e->status)
        prof_capture_free(out);
    return e->status;
}

const char *prof_capture_tag(const struct prof_capture *c, const char *key)
{
    for (int i = 0; i < c->n_tags; ++i)
        if (strcmp(c->tag_key[i], key) == 0)
            return c->tag_value[i];
    return NULL;
}

void prof_capture_free(struct prof_capture *c)
{
    prof_config_free(&c->config);
    free(c->counter_data);
    *c = (struct prof_capture){0};
}
