/*
 * memscope-decode: evaluates saved captures again, offline, into the same metrics.csv a run writes (with the counts
 * the run summed from the same batch's source capture, profile/summed_counts.h), or with --lines the source group's
 * captures into the same lines.csv, or with --instructions into instructions.csv (their counts per SASS instruction,
 * which a run does not write). Needs CUPTI's host library, not a GPU.
 *
 *   memscope-decode [--lines|--instructions] [-o FILE] RESULTS_DIR|CAPTURE...
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
#include <unistd.h>

#include "../common/args.h"
#include "../common/paths.h"
#include "../profile/metric_rows.h"
#include "../profile/summed_counts.h"
#include "../results/capture_tags.h"
#include "../results/folder_reader.h"
#include "../results/instructions_csv.h"
#include "../results/lines_csv.h"
#include "../results/metrics_csv.h"
#include "../results/partial_folder.h"
#include "../source/source_rows.h"

#define MAX_CAPTURES 1024

static const char help_text[] =
    "usage: memscope-decode [--lines|--instructions] [-o FILE] RESULTS_DIR|CAPTURE...\n"
    "\n"
    "Evaluates a run's saved captures again, offline, into the rows of metrics.csv (a batch's\n"
    "shared counts summed from its source capture, as the run did); with --lines,\n"
    "the source group's captures into the rows of lines.csv. A results folder's captures are\n"
    "read from its captures/ folder, in the order they were taken. Needs CUPTI's host library,\n"
    "not a GPU.\n"
    "\n"
    "      --lines         the source group's captures (*.source) into lines.csv\n"
    "      --instructions  the source group's captures into instructions.csv: one row per SASS\n"
    "                      instruction, by its offset in the kernel, with its line metrics\n"
    "  -o, --out FILE      write FILE, as FILE.partial renamed once every capture is decoded;\n"
    "                      an existing FILE or FILE.partial is refused, never replaced\n"
    "                      (default: standard output, written only then)\n"
    "  -h, --help          this text\n"
    "\n"
    "Exit codes: 0 decoded; 2 bad usage, no capture, a file that is not a capture or is\n"
    "malformed, or a capture without the batch's .source its run summed counts from; 4 FILE\n"
    "(or FILE.partial) exists, or cannot be written; 5 out of memory or a CUPTI failure; 6 a\n"
    "chip CUPTI does not support.\n";

static int print_help(void)
{
    fputs(help_text, stdout);
    return 0;
}

static int usage(struct error *e)
{
    return error_set(e, EXIT_USAGE,
                     "usage: memscope-decode [--lines|--instructions] [-o FILE] RESULTS_DIR|CAPTURE... (see --help)");
}

/* The counts a batch's run summed from its source capture (the capture's "summed" tags), and that capture. */
struct summed_from {
    int n;
    const char *names[MAX_SUMMED];
    struct source_capture source;
};

/* The source capture's call at a metric capture's call's place, or NULL where it is another call. */
static const struct source_call *same_call(const struct source_capture *source, int call,
                                           const struct tagged_call *tagged)
{
    char a[PRODUCT_SHAPE_LEN], b[PRODUCT_SHAPE_LEN];
    if (call >= source->n_calls)
        return NULL;
    const struct source_call *s = &source->calls[call];
    bool same = strcmp(s->variant, tagged->variant) == 0 && strcmp(s->precision, tagged->precision) == 0 &&
                strcmp(product_shape_text(s->shape, a), product_shape_text(tagged->shape, b)) == 0;
    return same ? s : NULL;
}

/* One call of a batch, evaluated from the ranges its tags name, with the counts its run summed from the batch's
 * source capture (summed_counts.h). */
static int decode_call(struct prof_host *host, const struct prof_capture *c, const char *path, int call,
                       const struct summed_from *summed, struct csv *out, struct error *e)
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
    const struct source_call *from = summed->n ? same_call(&summed->source, call, &tagged) : NULL;
    if (summed->n && !from)
        return error_set(e, EXIT_USAGE, "%s: call %d (%s) is not the same batch's source call %d", path, call,
                         tagged.variant, call);
    if (metrics_evaluate(host, c->counter_data, c->counter_data_size, tagged.first_range, (int)tagged.ranges,
                         tagged.kernels, &c->config, &profile, e) == 0 &&
        summed_counts_add(&profile, from, summed->names, summed->n, e) == 0)
        profile_write_rows(out, tagged.variant, tagged.precision, tagged.shape, &profile);
    return e->code;
}

/* The counts the capture's run summed, and, where it summed any, the batch's source capture: the suite's batches
 * write NN-W<size>.capture and NN-W<size>.source beside it. Without it the rows would lack counts the run wrote. */
static int read_summed(const char *path, const struct prof_capture *c, struct summed_from *summed, struct error *e)
{
    static const char suffix[] = ".capture";
    char sibling[PATH_MAX];
    size_t len = strlen(path);
    summed->n = capture_tags_summed(c, summed->names, MAX_SUMMED);
    if (summed->n < 0)
        return error_set(e, EXIT_USAGE, "%s: tag summed or summed<i> missing or malformed", path);
    for (int i = 0; i < summed->n; ++i)
        if (!summed_counts_known(summed->names[i]))
            return error_set(e, EXIT_USAGE, "%s: its tags name %s, not a count the source group sums", path,
                             summed->names[i]);
    if (summed->n == 0)
        return 0;
    size_t stem = len - strlen(suffix);
    if (len <= strlen(suffix) || strcmp(path + stem, suffix) != 0 || len >= sizeof sibling)
        return error_set(e, EXIT_USAGE,
                         "%s: its run summed %d count%s from the batch's .source capture, which "
                         "lies beside a capture named NN-W<size>.capture",
                         path, summed->n, summed->n == 1 ? "" : "s");
    snprintf(sibling, sizeof sibling, "%.*s.source", (int)stem, path);
    if (access(sibling, R_OK) != 0)
        return error_set(e, EXIT_USAGE,
                         "%s: its run summed %d count%s from %s, which cannot be read (%s; copy the "
                         "run's captures/ whole)",
                         path, summed->n, summed->n == 1 ? "" : "s", sibling, strerror(errno));
    return source_capture_read(sibling, &summed->source, e);
}

static int decode_capture(const char *path, struct csv *out, struct error *e)
{
    static struct prof_capture capture;
    static struct summed_from summed;
    struct prof_error pe = {0};
    struct prof_host *host = NULL;
    if (prof_capture_read(path, &capture, &pe))
        return error_from_profiler(e, &pe);
    int calls = capture_tags_calls(&capture, MAX_BATCH);
    if (calls < 0)
        error_set(e, EXIT_USAGE, "%s: no \"calls\" tag from 1 to %d (a capture from memscope before 2026-11-21?)",
                  path, MAX_BATCH);
    else if (read_summed(path, &capture, &summed, e) == 0 && prof_host_open(capture.config.chip, &host, &pe))
        error_from_profiler(e, &pe);
    for (int i = 0; !e->code && i < calls; ++i)
        decode_call(host, &capture, path, i, &summed, out, e);
    if (prof_host_close(host, &pe))
        error_from_profiler(e, &pe);
    source_capture_free(&summed.source);
    prof_capture_free(&capture);
    return e->code;
}

typedef int source_rows(struct csv *out, const struct source_capture *capture, struct error *e);

static int decode_source_capture(const char *path, source_rows *rows, struct csv *out, struct error *e)
{
    static struct source_capture capture;
    if (source_capture_read(path, &capture, e) == 0 && capture.metrics_named < SASS_METRIC_COUNT)
        fprintf(stderr, "memscope-decode: %s was captured before the thread counts: its rows have no "
                        "thread_inst_executed, predicated_off_lanes or conversions\n", path);
    if (!e->code)
        rows(out, &capture, e);
    source_capture_free(&capture);
    return e->code;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The captures of one kind: what a run writes them for, and the CSV file that shows it collected that. */
struct capture_kind {
    const char *suffix, *collected, *csv, *how;
};
static const struct capture_kind metric_captures = {".capture", "hardware metrics", "metrics.csv",
                                                    "a run with --no-metrics or --metric-groups none"};
static const struct capture_kind source_captures = {".source", "the source group", "lines.csv",
                                                    "--metric-groups ...,source collects it"};

/* What is written, and from which captures: metrics.csv from the metric captures (rows NULL), lines.csv or
 * instructions.csv from the source captures. */
struct output {
    const struct capture_kind *kind;
    void (*on_stream)(struct csv *c, FILE *stream, const char *name);
    source_rows *rows;
};
static const struct output metrics_output = {&metric_captures, metrics_csv_on_stream, NULL};
static const struct output lines_output = {&source_captures, lines_csv_on_stream, source_write_rows};
static const struct output instructions_output = {&source_captures, instructions_csv_on_stream,
                                                  source_write_instruction_rows};

static int decode_one(const struct output *output, const char *path, struct csv *out, struct error *e)
{
    return output->rows ? decode_source_capture(path, output->rows, out, e) : decode_capture(path, out, e);
}

static bool has_file(const char *dir, const char *name)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Why a folder holds no captures of the kind, as the run recorded it: a run that did not collect them made none;
 * one that did wrote them into captures/, and this copy of its folder was made without them. */
static int explain_no_captures(const char *dir, const struct capture_kind *kind, struct error *e)
{
    struct results_folder run;
    struct error unreadable = {0};
    if (results_folder_open(dir, &run, &unreadable))
        return error_set(e, EXIT_USAGE, "%s: no captures/*%s, and %s", dir, kind->suffix, unreadable.message);
    const char *source_group = results_environment(&run, "source_group");
    bool source_on = kind == &source_captures && source_group && !strcmp(source_group, "on");
    results_folder_close(&run);
    char evidence[64];
    if (has_file(dir, kind->csv))
        snprintf(evidence, sizeof evidence, "its %s is here", kind->csv);
    else if (source_on)
        snprintf(evidence, sizeof evidence, "its environment.csv says source_group on");
    else
        return error_set(e, EXIT_USAGE, "%s: nothing to decode: the run did not collect %s (no %s: %s)", dir,
                         kind->collected, kind->csv, kind->how);
    return error_set(e, EXIT_USAGE,
                     "%s: nothing to decode: the run collected %s (%s), but its captures (captures/*%s, which every "
                     "such run writes) were not kept with the folder",
                     dir, kind->collected, evidence, kind->suffix);
}

static int list_folder(const char *dir, const struct capture_kind *kind, char **paths, int *n, struct error *e)
{
    size_t suffix_len = strlen(kind->suffix);
    char captures[PATH_IN_FOLDER_LEN];
    snprintf(captures, sizeof captures, "%s/captures", dir);
    DIR *d = opendir(captures);
    if (!d)
        return explain_no_captures(dir, kind, e);
    int first = *n;
    for (struct dirent *entry; !e->code && (entry = readdir(d));) {
        size_t len = strlen(entry->d_name);
        if (len <= suffix_len || strcmp(entry->d_name + len - suffix_len, kind->suffix) != 0)
            continue;
        if (*n == MAX_CAPTURES)
            error_set(e, EXIT_USAGE, "more than %d captures", MAX_CAPTURES);
        else if (!(paths[*n] = malloc(PATH_JOINED(PATH_IN_FOLDER_LEN))))
            error_set(e, EXIT_RUNTIME, "out of host memory");
        else
            snprintf(paths[(*n)++], PATH_JOINED(PATH_IN_FOLDER_LEN), "%s/%s", captures, entry->d_name);
    }
    closedir(d);
    if (!e->code && *n == first)
        return explain_no_captures(dir, kind, e);
    qsort(paths + first, (size_t)(*n - first), sizeof *paths, by_name);
    return e->code;
}

static int list_arguments(int argc, const char **argv, const struct capture_kind *kind, char **paths, int *n,
                          struct error *e)
{
    for (int i = 0; i < argc && !e->code; ++i) {
        struct stat st;
        if (stat(argv[i], &st) != 0)
            return error_set(e, EXIT_USAGE, "%s: no such file or folder", argv[i]);
        if (S_ISDIR(st.st_mode))
            list_folder(argv[i], kind, paths, n, e);
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

/* Standard output gets the rows held in memory only once every capture is decoded: a refusal leaves it empty,
 * never a header that looks like the start of a CSV. */
static int write_held(const char *held, size_t size, struct error *e)
{
    if (fwrite(held, 1, size, stdout) != size || fflush(stdout) != 0)
        return error_set(e, EXIT_OUTPUT, "writing standard output failed: %s", strerror(errno));
    return 0;
}

/* With -o, the rows go to FILE.partial, renamed FILE once every capture is decoded (harness/results/
 * partial_folder.h: an existing FILE or FILE.partial is refused, never replaced). Without it, to memory, then
 * standard output. */
static int decode_all(char **paths, int n, const char *out_path, const struct output *output, struct error *e)
{
    struct partial_file file;
    char *held = NULL;
    size_t held_size = 0;
    struct csv out;
    if (out_path && partial_file_open(&file, out_path, e))
        return e->code;
    FILE *stream = out_path ? file.stream : open_memstream(&held, &held_size);
    if (!stream)
        return error_set(e, EXIT_RUNTIME, "out of host memory");
    output->on_stream(&out, stream, out_path ? file.partial_path : "standard output");
    for (int i = 0; i < n && !e->code; ++i)
        decode_one(output, paths[i], &out, e);
    csv_close(&out, e);
    if (out_path)
        partial_file_finish(&file, e);
    else if (!e->code)
        write_held(held, held_size, e);
    free(held);
    return e->code;
}

static int run(int argc, char **argv, struct error *e)
{
    static char *paths[MAX_CAPTURES];
    static const char *arguments[MAX_CAPTURES];
    const char *out_path = NULL;
    bool lines = false, instructions = false, help = false;
    int n = 0, given;
    const struct arg_option options[] = {{"out", 'o', ARG_TEXT, &out_path, 0, 0, NULL},
                                         {"lines", 0, ARG_FLAG, &lines, 0, 0, NULL},
                                         {"instructions", 0, ARG_FLAG, &instructions, 0, 0, NULL},
                                         {"help", 'h', ARG_FLAG, &help, 0, 0, NULL}};
    if (args_parse(argc, argv, options, 4, arguments, MAX_CAPTURES, &given, e))
        return e->code;
    if (help)
        return print_help();
    if (lines && instructions)
        return error_set(e, EXIT_USAGE, "--lines and --instructions write different files: give one of them");
    if (given == 0)
        return usage(e);
    const struct output *output = lines ? &lines_output : instructions ? &instructions_output : &metrics_output;
    if (list_arguments(given, arguments, output->kind, paths, &n, e) == 0)
        decode_all(paths, n, out_path, output, e);
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
