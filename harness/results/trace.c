#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/paths.h"
#include "../csv/writer.h"
#include "schema.h"
#include "trace.h"

/* The host's ranges on a track per thread of one "process", each GPU stream on a track of another. */
enum { HOST_PID = 1, RANGES_TID = TRACE_RUN_TRACK, GPU_PID = 2 };

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* Microseconds from the origin, to the nanosecond. */
static double micro(const struct trace_header *h, uint64_t ns)
{
    return ns >= h->origin_ns ? (ns - h->origin_ns) / 1e3 : -((h->origin_ns - ns) / 1e3);
}

static void slice_begin(FILE *f, const struct trace_header *h, const char *category, const char *name, int pid,
                        unsigned tid, uint64_t start, uint64_t end)
{
    fputs(",\n{\"ph\":\"X\",\"cat\":", f);
    json_string(f, category);
    fputs(",\"name\":", f);
    json_string(f, name);
    fprintf(f, ",\"pid\":%d,\"tid\":%u,\"ts\":%.3f,\"dur\":%.3f,\"args\":{", pid, tid, micro(h, start),
            (end > start ? end - start : 0) / 1e3);
}

static void text_arg(FILE *f, const char *key, const char *value, int first)
{
    fprintf(f, "%s\"%s\":", first ? "" : ",", key);
    json_string(f, value);
}

static void write_range(FILE *f, const struct trace_header *h, const struct trace_range *r)
{
    slice_begin(f, h, "nvtx", r->name, HOST_PID, r->tid, r->start_ns, r->end_ns);
    text_arg(f, "job", r->job, 1);
    fprintf(f, ",\"width\":%d,\"depth\":%d}}", r->width, r->depth);
}

/* What the run measured of the kernel's job: only what it measured. */
static void fact_args(FILE *f, const struct trace_job_facts *j)
{
    if (!j)
        return;
    if (j->limiter[0])
        text_arg(f, "limiter", j->limiter, 0);
    if (!isnan(j->shared_conflicts_exact))
        fprintf(f, ",\"shared_conflicts_exact\":%.0f", j->shared_conflicts_exact);
    if (!isnan(j->global_load_efficiency_pct))
        fprintf(f, ",\"global_load_efficiency_pct\":%.2f", j->global_load_efficiency_pct);
    if (j->stall_top_reason[0])
        text_arg(f, "stall_top_reason", j->stall_top_reason, 0);
}

static void write_op(FILE *f, const struct trace_header *h, const struct trace_gpu_op *op)
{
    slice_begin(f, h, op->category, op->name, GPU_PID, op->stream, op->start_ns, op->end_ns);
    text_arg(f, "job", op->job, 1);
    text_arg(f, "phase", op->phase, 0);
    fprintf(f, ",\"correlation\":%u", op->correlation);
    if (strcmp(op->category, "kernel") == 0) {
        fprintf(f, ",\"grid\":[%d,%d,%d],\"block\":[%d,%d,%d],\"registers_per_thread\":%d,"
                   "\"static_shared_bytes\":%d,\"dynamic_shared_bytes\":%d",
                op->grid[0], op->grid[1], op->grid[2], op->block[0], op->block[1], op->block[2], op->registers,
                op->static_shared, op->dynamic_shared);
        fact_args(f, op->facts);
    } else {
        fprintf(f, ",\"bytes\":%llu", (unsigned long long)op->bytes);
    }
    fputs("}}", f);
}

static void name_track(FILE *f, const char *what, int pid, unsigned tid, const char *name)
{
    fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%u,\"args\":{\"name\":", what, pid, tid);
    json_string(f, name);
    fputs("}}", f);
}

/* A track for each stream the GPU's records name, once. */
static void name_streams(FILE *f, const struct trace_gpu_op *ops, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        size_t first = 0;
        while (ops[first].stream != ops[i].stream)
            ++first;
        if (first == i) {
            char name[32];
            snprintf(name, sizeof name, "stream %u", ops[i].stream);
            name_track(f, "thread_name", GPU_PID, ops[i].stream, name);
        }
    }
}

/* A track for each host thread the ranges name, once (memscope's own run has only the one the header names). */
static void name_threads(FILE *f, const struct trace_range *ranges, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        size_t first = 0;
        while (ranges[first].tid != ranges[i].tid)
            ++first;
        if (first == i && ranges[i].tid != RANGES_TID) {
            char name[32];
            snprintf(name, sizeof name, "thread %u", ranges[i].tid);
            name_track(f, "thread_name", HOST_PID, ranges[i].tid, name);
        }
    }
}

static void write_header(FILE *f, const struct trace_header *h)
{
    fputs("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"memscope_trace_version\":1,", f);
    text_arg(f, "clock", "CUPTI timestamps; ts and dur in microseconds from the run's first range", 1);
    text_arg(f, "gpu", h->gpu_name, 0);
    text_arg(f, "command_line", h->command_line, 0);
    fprintf(f, ",\"dropped_gpu_records\":%llu,\"lost_host_ranges\":%d},\n\"traceEvents\":[\n",
            (unsigned long long)h->dropped_records, h->ranges_lost);
    fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":", HOST_PID);
    json_string(f, h->host_name);
    fputs("}}", f);
    name_track(f, "thread_name", HOST_PID, RANGES_TID, "NVTX ranges");
    fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":", GPU_PID);
    json_string(f, h->gpu_name[0] ? h->gpu_name : "GPU"); /* a viewer reads an empty name as none */
    fputs("}}", f);
    if (h->dropped_records || h->ranges_lost) /* said where a viewer shows it, at the start of the timeline */
        fprintf(f, ",\n{\"ph\":\"i\",\"s\":\"g\",\"name\":\"incomplete: %llu GPU records dropped by CUPTI, %d host "
                   "ranges lost\",\"pid\":%d,\"tid\":%d,\"ts\":0}",
                (unsigned long long)h->dropped_records, h->ranges_lost, HOST_PID, RANGES_TID);
}

static int write_json(const char *dir, const struct trace_header *h, const struct trace_range *ranges,
                      size_t n_ranges, const struct trace_gpu_op *ops, size_t n_ops,
                      struct error *e)
{
    char path[PATH_IN_FOLDER_LEN];
    snprintf(path, sizeof path, "%s/trace.json", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return error_set(e, EXIT_OUTPUT, "cannot create %s: %s", path, strerror(errno));
    write_header(f, h);
    name_threads(f, ranges, n_ranges);
    name_streams(f, ops, n_ops);
    for (size_t i = 0; i < n_ranges; ++i)
        write_range(f, h, &ranges[i]);
    for (size_t i = 0; i < n_ops; ++i)
        write_op(f, h, &ops[i]);
    fputs("\n]}\n", f);
    int failed = ferror(f);
    if (fclose(f) != 0 || failed)
        return error_set(e, EXIT_OUTPUT, "cannot write %s", path);
    return 0;
}

static int write_timeline(const char *dir, const struct trace_header *h, const struct trace_range *ranges,
                          size_t n, struct error *e)
{
    struct csv c;
    if (schema_create(&c, dir, &timeline_csv, e))
        return e->code;
    for (size_t i = 0; i < n; ++i) {
        csv_text(&c, ranges[i].name);
        csv_text(&c, ranges[i].job);
        csv_int(&c, ranges[i].width);
        csv_int(&c, ranges[i].depth);
        csv_real(&c, micro(h, ranges[i].start_ns) / 1e3);
        csv_real(&c, (ranges[i].end_ns - ranges[i].start_ns) / 1e6);
        csv_end_row(&c);
    }
    return csv_close(&c, e);
}

int trace_write(const char *dir, const struct trace_header *h, const struct trace_range *ranges, size_t n_ranges,
                const struct trace_gpu_op *ops, size_t n_ops, struct error *e)
{
    if (write_json(dir, h, ranges, n_ranges, ops, n_ops, e) ||
        write_timeline(dir, h, ranges, n_ranges, e))
        return e->code;
    return 0;
}
