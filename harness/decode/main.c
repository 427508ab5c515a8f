/*
 * memscope-decode: evaluates saved captures again, offline, into the same
 * metrics.csv a run writes, or with --lines the source group's captures into
 * the same lines.csv. Needs CUPTI's host library, not a GPU.
 *
 *   memscope-decode [--lines] [-o FILE] RESULTS_DIR|CAPTURE...
 *
 * A results folder's captures are read in the order of their names, which
 * is the order they were taken in.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/paths.h"
#include "../common/args.h"
#include "../profile/capture_tags.h"
#include "../results/lines_csv.h"
#include "../results/metrics_csv.h"

#define MAX_CAPTURES 1024

static int usage(struct error *e)
{
    return error_set(e, EXIT_USAGE, "usage: memscope-decode [--lines] [-o FILE] RESULTS_DIR|CAPTURE...");
}

/* One call of a batch, evaluated from the ranges its tags name. */
static int decode_call(struct prof_host *host, const struct prof_capture *c, const char *path, int call,
                       struct csv *out, struct error *e)
{
    static struct profile profile;
    static struct tagged_call tagged;
    char tag[32];
    switch (capture_tags_call(c, call, &tagged, tag, sizeof tag)) {
    case TAGGED_CALL_MALFORMED:
        return error_set(e, EXIT_USAGE, "%s: tag %s missing or malformed", path, tag);
    case TAGGED_CALL_NO_RANGE:
        return error_set(e, EXIT_USAGE, "%s: call %d has no tag %s", path, call, tag);
    case TAGGED_CALL_OK:
        break;
    }
    if (metrics_evaluate(host, c->counter_data, c->counter_data_size, tagged.first_range, (int)tagged.ranges,
                         tagged.kernels, &c->config, &profile, e) == 0)
        metrics_csv_rows(out, tagged.variant, tagged.precision, tagged.width, &profile);
    return e->code;
}

static int decode_capture(const char *path, struct csv *out, struct error *e)
{
    static struct prof_capture capture;
    struct prof_error pe = {0};
    struct prof_host *host = NULL;
    if (prof_capture_read(path, &capture, &pe))
        return error_from_profiler(e, &pe);
    int calls = capture_tags_calls(&capture, MAX_BATCH);
    if (calls < 0)
        error_set(e, EXIT_USAGE, "%s: no \"calls\" tag from 1 to %d (a capture from memscope before 2026-11-21?)",
                  path, MAX_BATCH);
    else if (prof_host_open(capture.config.chip, &host, &pe))
        error_from_profiler(e, &pe);
    for (int i = 0; !e->code && i < calls; ++i)
        decode_call(host, &capture, path, i, out, e);
    if (prof_host_close(host, &pe))
        error_from_profiler(e, &pe);
    prof_capture_free(&capture);
    return e->code;
}

static int decode_source_capture(const char *path, struct csv *out, struct error *e)
{
    static struct source_capture capture;
    if (source_capture_read(path, &capture, e) == 0)
        lines_csv_rows(out, &capture, e);
    source_capture_free(&capture);
    return e->code;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int list_folder(const char *dir, const char *suffix, char **paths, int *n, struct error *e)
{
    size_t suffix_len = strlen(suffix);
    char captures[PATH_IN_FOLDER_LEN];
    snprintf(captures, sizeof captures, "%s/captures", dir);
    DIR *d = opendir(captures);
    if (!d)
        return error_set(e, EXIT_USAGE, "%s: no captures folder (was the run made with --no-metrics?)", dir);
    int first = *n;
    for (struct dirent *entry; !e->code && (entry = readdir(d));) {
        size_t len = strlen(entry->d_name);
        if (len <= suffix_len || strcmp(entry->d_name + len - suffix_len, suffix) != 0)
            continue;
        if (*n == MAX_CAPTURES)
            error_set(e, EXIT_USAGE, "more than %d captures", MAX_CAPTURES);
        else if (!(paths[*n] = malloc(PATH_JOINED(PATH_IN_FOLDER_LEN))))
            error_set(e, EXIT_RUNTIME, "out of host memory");
        else
            snprintf(paths[(*n)++], PATH_JOINED(PATH_IN_FOLDER_LEN), "%s/%s", captures, entry->d_name);
    }
    closedir(d);
    qsort(paths + first, (size_t)(*n - first), sizeof *paths, by_name);
    return e->code;
}

static int list_arguments(int argc, const char **argv, const char *suffix, char **paths, int *n, struct error *e)
{
    for (int i = 0; i < argc && !e->code; ++i) {
        struct stat st;
        if (stat(argv[i], &st) != 0)
            return error_set(e, EXIT_USAGE, "%s: no such file or folder", argv[i]);
        if (S_ISDIR(st.st_mode))
            list_folder(argv[i], suffix, paths, n, e);
        else if (*n == MAX_CAPTURES)
            error_set(e, EXIT_USAGE, "more than %d captures", MAX_CAPTURES);
        else if ((paths[*n] = strdup(argv[i])))
            ++*n;
        else
            error_set(e, EXIT_RUNTIME, "out of host memory");
    }
    if (!e->code && *n == 0)
        error_set(e, EXIT_USAGE, "no capture found");
    return e->code;
}

/* With -o, the rows go to FILE.partial, renamed FILE once every capture is decoded: a capture that cannot be
 * decoded leaves FILE as it was. */
static int decode_all(char **paths, int n, const char *out_path, bool lines, struct error *e)
{
    char partial[PATH_IN_FOLDER_LEN];
    struct csv out;
    if (out_path && snprintf(partial, sizeof partial, "%s.partial", out_path) >= (int)sizeof partial)
        return error_set(e, EXIT_USAGE, "%s: path too long", out_path);
    FILE *stream = out_path ? fopen(partial, "w") : stdout;
    if (!stream)
        return error_set(e, EXIT_OUTPUT, "cannot create %s", partial);
    (lines ? lines_csv_on_stream : metrics_csv_on_stream)(&out, stream, out_path ? partial : "standard output");
    for (int i = 0; i < n && !e->code; ++i)
        (lines ? decode_source_capture : decode_capture)(paths[i], &out, e);
    csv_close(&out, e);
    if (out_path && e->code)
        remove(partial); /* never leave a CSV that looks complete but is not */
    else if (out_path && rename(partial, out_path) != 0)
        error_set(e, EXIT_OUTPUT, "cannot rename %s to %s", partial, out_path);
    return e->code;
}

static int run(int argc, char **argv, struct error *e)
{
    static char *paths[MAX_CAPTURES];
    static const char *arguments[MAX_CAPTURES];
    const char *out_path = NULL;
    bool lines = false;
    int n = 0, given;
    const struct arg_option options[] = {{"out", 'o', ARG_TEXT, &out_path, 0, 0, NULL},
                                         {"lines", 0, ARG_FLAG, &lines, 0, 0, NULL}};
    if (args_parse(argc, argv, options, 2, arguments, MAX_CAPTURES, &given, e))
        return e->code;
    if (given == 0)
        return usage(e);
    if (list_arguments(given, arguments, lines ? ".source" : ".capture", paths, &n, e) == 0)
        decode_all(paths, n, out_path, lines, e);
    for (int i = 0; i < n; ++i)
        free(paths[i]);
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
