/*
 * memscope-decode: evaluates saved captures again, offline, into the same
 * metrics.csv a run writes. Needs CUPTI's host library, not a GPU.
 *
 *   memscope-decode [-o FILE] RESULTS_DIR|CAPTURE...
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "metrics_csv.h"

#define MAX_CAPTURES 1024

struct loaded {
    struct prof_capture capture;
    long job;
};

static int usage(struct error *e)
{
    return error_set(e, EXIT_USAGE, "usage: memscope-decode [-o FILE] RESULTS_DIR|CAPTURE...");
}

static int load(const char *path, struct loaded *list, int *n, struct error *e)
{
    struct prof_error pe = {0};
    if (*n == MAX_CAPTURES)
        return error_set(e, EXIT_USAGE, "more than %d captures", MAX_CAPTURES);
    if (prof_capture_read(path, &list[*n].capture, &pe))
        return error_from_profiler(e, &pe);
    const char *job = prof_capture_tag(&list[*n].capture, "job");
    list[(*n)++].job = job ? atol(job) : 0;
    return 0;
}

static int load_folder(const char *dir, struct loaded *list, int *n, struct error *e)
{
    char captures[4096];
    snprintf(captures, sizeof captures, "%s/captures", dir);
    DIR *d = opendir(captures);
    if (!d)
        return error_set(e, EXIT_USAGE, "%s: no captures folder (was the run made with --no-metrics?)", dir);
    struct dirent *entry;
    while (!e->code && (entry = readdir(d))) {
        size_t len = strlen(entry->d_name);
        char path[4400];
        if (len > 8 && strcmp(entry->d_name + len - 8, ".capture") == 0) {
            snprintf(path, sizeof path, "%s/%s", captures, entry->d_name);
            load(path, list, n, e);
        }
    }
    closedir(d);
    return e->code;
}

/* Run order. */
static int by_job(const void *a, const void *b)
{
    const struct loaded *x = a, *y = b;
    return (x->job > y->job) - (x->job < y->job);
}

static int decode_capture(const struct prof_capture *c, struct csv *out, struct error *e)
{
    static struct profile profile;
    struct prof_error pe = {0};
    struct prof_host *host = NULL;
    const char *kernel_names[MAX_PROFILED_KERNELS];
    const char *variant = prof_capture_tag(c, "variant"), *precision = prof_capture_tag(c, "precision");
    const char *width = prof_capture_tag(c, "width");
    if (!variant || !precision || !width)
        return error_set(e, EXIT_USAGE, "a capture lacks its variant, precision or width tag");
    for (size_t r = 0; r < MAX_PROFILED_KERNELS; ++r) {
        char key[32];
        metrics_kernel_tag(key, sizeof key, r);
        kernel_names[r] = prof_capture_tag(c, key);
    }
    if (prof_host_open(c->config.chip, &host, &pe))
        error_from_profiler(e, &pe);
    else if (metrics_evaluate(host, c->counter_data, c->counter_data_size, kernel_names, &c->config, &profile, e) == 0)
        metrics_csv_rows(out, variant, precision, atoi(width), &profile);
    prof_host_close(host);
    return e->code;
}

static int run(int argc, char **argv, struct error *e)
{
    static struct loaded list[MAX_CAPTURES];
    const char *out_path = NULL;
    int n = 0, first = 1;
    if (argc > 2 && strcmp(argv[1], "-o") == 0) {
        out_path = argv[2];
        first = 3;
    }
    if (first >= argc)
        return usage(e);
    for (int i = first; i < argc && !e->code; ++i) {
        struct stat st;
        if (stat(argv[i], &st) != 0)
            return error_set(e, EXIT_USAGE, "%s: no such file or folder", argv[i]);
        S_ISDIR(st.st_mode) ? load_folder(argv[i], list, &n, e) : load(argv[i], list, &n, e);
    }
    if (!e->code && n == 0)
        error_set(e, EXIT_USAGE, "no capture found");
    qsort(list, (size_t)n, sizeof list[0], by_job);
    struct csv out;
    if (!e->code) {
        FILE *stream = out_path ? fopen(out_path, "w") : stdout;
        if (!stream)
            return error_set(e, EXIT_OUTPUT, "cannot create %s", out_path);
        metrics_csv_on_stream(&out, stream, out_path ? out_path : "standard output");
        for (int i = 0; i < n && !e->code; ++i)
            decode_capture(&list[i].capture, &out, e);
        csv_close(&out, e);
        if (e->code && out_path)
            remove(out_path); /* never leave a CSV that looks complete but is not */
    }
    for (int i = 0; i < n; ++i)
        prof_capture_free(&list[i].capture);
    return e->code;
}

int main(int argc, char **argv)
{
    struct error e = {0};
    int code = run(argc, argv, &e);
    if (code != EXIT_OK)
        fprintf(stderr, "memscope-decode: %s\n", e.message);
    return code;
}
