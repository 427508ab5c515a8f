#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "source_capture.h"

#define MAGIC "memscope-source"
#define VERSION 1
#define LINE_MAX_BYTES 4096

#define SASS_NAME(id, name) name,
static const char *const sass_names[] = {SASS_METRICS(SASS_NAME)};
#undef SASS_NAME

const char *sass_metric_name(enum sass_metric id)
{
    return sass_names[id];
}

struct source_call *source_add_call(struct source_capture *c, struct error *e)
{
    if (grow_for_one_more((void **)&c->calls, (size_t)c->n_calls, sizeof *c->calls)) {
        error_set(e, EXIT_RUNTIME, "out of host memory for %d calls", c->n_calls + 1);
        return NULL;
    }
    struct source_call *call = &c->calls[c->n_calls++];
    memset(call, 0, sizeof *call);
    return call;
}

struct source_instruction *source_add_instruction(struct source_call *call, struct error *e)
{
    if (grow_for_one_more((void **)&call->instructions, call->n, sizeof *call->instructions)) {
        error_set(e, EXIT_RUNTIME, "out of host memory for %zu instructions", call->n + 1);
        return NULL;
    }
    struct source_instruction *i = &call->instructions[call->n++];
    memset(i, 0, sizeof *i);
    return i;
}

const struct source_text *source_find_text(const struct source_capture *c, const char *file, int line)
{
    for (size_t i = 0; i < c->n_texts; ++i)
        if (c->texts[i].line == line && strcmp(c->texts[i].file, file) == 0)
            return &c->texts[i];
    return NULL;
}

/* Tabs and line ends would break the format; a source line keeps its look with spaces. */
static void copy_flat(char *to, size_t len, const char *from)
{
    size_t n = 0;
    for (; from[n] && n + 1 < len; ++n)
        to[n] = from[n] == '\t' || from[n] == '\n' || from[n] == '\r' ? ' ' : from[n];
    to[n] = '\0';
}

int source_add_text(struct source_capture *c, const char *file, int line, const char *text, struct error *e)
{
    if (source_find_text(c, file, line))
        return 0;
    if (grow_for_one_more((void **)&c->texts, c->n_texts, sizeof *c->texts))
        return error_set(e, EXIT_RUNTIME, "out of host memory for %zu source lines", c->n_texts + 1);
    struct source_text *t = &c->texts[c->n_texts++];
    copy_flat(t->file, sizeof t->file, file);
    t->line = line;
    copy_flat(t->text, sizeof t->text, text);
    return 0;
}

static void write_call(FILE *f, const struct source_call *call)
{
    char variant[sizeof call->variant];
    copy_flat(variant, sizeof variant, call->variant); /* a program's job: NVTX names may hold tabs */
    char shape[PRODUCT_SHAPE_LEN];
    fprintf(f, "call\t%s\t%s\t%s", variant, call->precision, product_shape_text(call->shape, shape));
    if (call->kernel[0]) {
        char kernel[sizeof call->kernel];
        copy_flat(kernel, sizeof kernel, call->kernel);
        fprintf(f, "\t%s", kernel);
    }
    fputc('\n', f);
    for (size_t i = 0; i < call->n; ++i) {
        const struct source_instruction *in = &call->instructions[i];
        fprintf(f, "inst\t%s\t%" PRIu32 "\t%s\t%s\t%d", in->function, in->pc, in->opcode, in->file, in->line);
        for (int m = 0; m < SASS_METRIC_COUNT; ++m)
            fprintf(f, "\t%" PRIu64, in->values[m]);
        fputc('\n', f);
    }
}

int source_capture_write(const char *path, const struct source_capture *c, struct error *e)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return error_set(e, EXIT_OUTPUT, "cannot create %s: %s", path, strerror(errno));
    fprintf(f, "%s\t%d\nchip\t%s\n", MAGIC, VERSION, c->chip);
    for (int m = 0; m < SASS_METRIC_COUNT; ++m)
        fprintf(f, "metric\t%s\n", sass_metric_name(m));
    for (int k = 0; k < c->n_calls; ++k)
        write_call(f, &c->calls[k]);
    for (size_t t = 0; t < c->n_texts; ++t)
        fprintf(f, "text\t%s\t%d\t%s\n", c->texts[t].file, c->texts[t].line, c->texts[t].text);
    fputs("end\n", f);
    if (ferror(f) | fclose(f))
        return error_set(e, EXIT_OUTPUT, "cannot write %s", path);
    return 0;
}

/* Splits a line at its tabs in place; returns the number of fields (at most max). */
static int split(char *line, char **fields, int max)
{
    int n = 0;
    line[strcspn(line, "\n")] = '\0';
    for (char *rest = line, *field; n < max && (field = strsep(&rest, "\t"));)
        fields[n++] = field;
    return n;
}

/* Digits only (a minus where min < 0): strtoll and strtoull would also take spaces and signs in front. */
static int parse_int(const char *text, long long min, long long max, long long *out)
{
    char *end;
    if (!(text[0] >= '0' && text[0] <= '9') && !(min < 0 && text[0] == '-'))
        return -1;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

static int parse_count(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    if (text[0] < '0' || text[0] > '9')
        return -1;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end)
        return -1;
    *out = v;
    return 0;
}

struct reader {
    const char *path;
    int line_no;
    int metrics_seen;
    int ended;
};

static int bad(const struct reader *r, struct error *e, const char *what)
{
    return error_set(e, EXIT_USAGE, "%s:%d: %s", r->path, r->line_no, what);
}

static int read_metric(struct reader *r, const struct source_capture *c, char **f, int n, struct error *e)
{
    if (c->n_calls)
        return bad(r, e, "a metric after a call (the metrics are named first)");
    if (n != 2 || r->metrics_seen == SASS_METRIC_COUNT || strcmp(f[1], sass_metric_name(r->metrics_seen)) != 0)
        return bad(r, e, "unexpected metric (this memscope reads the metrics it collects, in its order)");
    r->metrics_seen++;
    return 0;
}

/* Every metric, or those of a capture from before the thread counts. */
static int read_call(struct reader *r, struct source_capture *c, char **f, int n, struct error *e)
{
    if (r->metrics_seen != SASS_METRIC_COUNT && r->metrics_seen != SASS_METRICS_BEFORE_THREADS)
        return bad(r, e, "a call before every metric is named");
    struct product_shape shape;
    if ((n != 4 && n != 5) || product_shape_parse(f[3], 1 << 30, &shape))
        return bad(r, e, "a call needs a variant, a precision and a shape (and may name its kernel)");
    struct source_call *call = source_add_call(c, e);
    if (!call)
        return e->code;
    snprintf(call->variant, sizeof call->variant, "%s", f[1]);
    snprintf(call->precision, sizeof call->precision, "%s", f[2]);
    call->shape = shape;
    if (n == 5)
        snprintf(call->kernel, sizeof call->kernel, "%s", f[4]);
    return 0;
}

static int read_instruction(struct reader *r, struct source_capture *c, char **f, int n, struct error *e)
{
    long long pc, line;
    if (c->n_calls == 0)
        return bad(r, e, "an instruction before any call");
    if (n != 6 + r->metrics_seen || parse_int(f[2], 0, UINT32_MAX, &pc) || parse_int(f[5], 0, INT32_MAX, &line) ||
        !f[1][0] || !f[3][0])
        return bad(r, e, "an instruction needs a function, a PC, an opcode, a file, a line and every metric");
    struct source_instruction *in = source_add_instruction(&c->calls[c->n_calls - 1], e);
    if (!in)
        return e->code;
    snprintf(in->function, sizeof in->function, "%s", f[1]);
    in->pc = (uint32_t)pc;
    snprintf(in->opcode, sizeof in->opcode, "%s", f[3]);
    snprintf(in->file, sizeof in->file, "%s", f[4]);
    in->line = (int)line;
    for (int m = 0; m < r->metrics_seen; ++m)
        if (parse_count(f[6 + m], &in->values[m]))
            return bad(r, e, "a metric value is not a count");
    return 0;
}

static int read_record(struct reader *r, struct source_capture *c, char *text, struct error *e)
{
    char *f[8 + SASS_METRIC_COUNT];
    long long line;
    int n = split(text, f, (int)(sizeof f / sizeof *f));
    if (r->ended)
        return bad(r, e, "text after the end");
    if (strcmp(f[0], "chip") == 0 && n == 2 && r->line_no == 2)
        snprintf(c->chip, sizeof c->chip, "%s", f[1]);
    else if (strcmp(f[0], "metric") == 0)
        return read_metric(r, c, f, n, e);
    else if (strcmp(f[0], "call") == 0)
        return read_call(r, c, f, n, e);
    else if (strcmp(f[0], "inst") == 0)
        return read_instruction(r, c, f, n, e);
    else if (strcmp(f[0], "text") == 0 && n == 4 && parse_int(f[2], 0, INT32_MAX, &line) == 0)
        return source_add_text(c, f[1], (int)line, f[3], e);
    else if (strcmp(f[0], "end") == 0 && n == 1)
        r->ended = 1;
    else
        return bad(r, e, "not a record of a source capture");
    return 0;
}

int source_capture_read(const char *path, struct source_capture *c, struct error *e)
{
    char text[LINE_MAX_BYTES];
    struct reader r = {path, 0, 0, 0};
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "r");
    if (!f)
        return error_set(e, EXIT_USAGE, "%s: %s", path, strerror(errno));
    if (!fgets(text, sizeof text, f) || strncmp(text, MAGIC "\t", sizeof MAGIC) != 0 ||
        atoi(text + sizeof MAGIC) != VERSION)
        error_set(e, EXIT_USAGE, "%s: not a memscope source capture (version %d)", path, VERSION);
    for (r.line_no = 2; !e->code && fgets(text, sizeof text, f); ++r.line_no) {
        if (!strchr(text, '\n') && !feof(f))
            bad(&r, e, "line too long");
        else
            read_record(&r, c, text, e);
    }
    fclose(f);
    c->metrics_named = r.metrics_seen;
    if (!e->code && !r.ended)
        error_set(e, EXIT_USAGE, "%s: no end record: the capture is truncated", path);
    if (e->code)
        source_capture_free(c);
    return e->code;
}

void source_capture_free(struct source_capture *c)
{
    for (int k = 0; k < c->n_calls; ++k)
        free(c->calls[k].instructions);
    free(c->calls);
    free(c->texts);
    memset(c, 0, sizeof *c);
}
