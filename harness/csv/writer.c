#include <errno.h>
#include <math.h>
#include <string.h>

#include "writer.h"

int csv_create(struct csv *c, const char *dir, const char *name, const char *header, struct error *e)
{
    c->fields_in_row = 0;
    if ((size_t)snprintf(c->path, sizeof c->path, "%s/%s", dir, name) >= sizeof c->path)
        return error_set(e, EXIT_OUTPUT, "path too long: %s/%s", dir, name);
    c->file = fopen(c->path, "w");
    if (!c->file)
        return error_set(e, EXIT_OUTPUT, "cannot create %s: %s", c->path, strerror(errno));
    fprintf(c->file, "%s\n", header);
    return 0;
}

void csv_on_stream(struct csv *c, FILE *stream, const char *name, const char *header)
{
    c->fields_in_row = 0;
    c->file = stream;
    snprintf(c->path, sizeof c->path, "%s", name);
    if (header)
        fprintf(c->file, "%s\n", header);
}

static void separate(struct csv *c)
{
    if (c->fields_in_row++ > 0)
        fputc(',', c->file);
}

void csv_text(struct csv *c, const char *value)
{
    separate(c);
    if (!strpbrk(value, ",\"\r\n")) {
        fputs(value, c->file);
        return;
    }
    fputc('"', c->file);
    for (const char *p = value; *p; ++p) {
        if (*p == '"')
            fputc('"', c->file);
        fputc(*p, c->file);
    }
    fputc('"', c->file);
}

void csv_int(struct csv *c, long long value)
{
    separate(c);
    fprintf(c->file, "%lld", value);
}

void csv_uint(struct csv *c, unsigned long long value)
{
    separate(c);
    fprintf(c->file, "%llu", value);
}

/* Whole numbers (counter values) are written exactly; others with 10 significant digits. */
void csv_real(struct csv *c, double value)
{
    separate(c);
    if (!isfinite(value))
        return;
    if (value == floor(value) && fabs(value) < 1e15)
        fprintf(c->file, "%.0f", value);
    else
        fprintf(c->file, "%.10g", value);
}

void csv_empty(struct csv *c)
{
    separate(c);
}

void csv_end_row(struct csv *c)
{
    fputc('\n', c->file);
    c->fields_in_row = 0;
}

int csv_close(struct csv *c, struct error *e)
{
    int failed = ferror(c->file);
    if (fclose(c->file) != 0)
        failed = 1;
    c->file = NULL;
    if (failed)
        return error_set(e, EXIT_OUTPUT, "writing %s failed: %s", c->path, strerror(errno));
    return 0;
}
