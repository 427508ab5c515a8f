#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../common/args.h"
#include "../common/numbers.h"
#include "../results/product_shape.h"
#include "cli.h"

#define DEFAULT_SIZES "1024,2048,4096"

void cli_print_help(FILE *f)
{
    fprintf(f, "usage: memscope [options]\n"
               "\n"
               "Checks every selected matrix-multiplication variant against a reference, times it\n"
               "and writes a results folder (summary.csv, samples.csv, environment.csv).\n"
               "\n"
               "  -v, --variants LIST     names or shell patterns, comma-separated (default: all);\n"
               "                          see --list\n"
               "  -s, --sizes LIST        sizes, comma-separated: a width W (a W x W x W product),\n"
               "                          a range of widths A:B (doubling), A:B:xF (times F)\n"
               "                          or A:B:+S (plus S), or a product's shape RxCxI: P (R x C)\n"
               "                          = M (R x I) x N (I x C), BLAS's M x N x K\n"
               "                          (default: " DEFAULT_SIZES ")\n"
               "  -p, --precision P       fp32, fp64, bf16, fp16, tf32 or all (default: all)\n"
               "  -d, --device N          CUDA device index (default: 0)\n"
               "  -o, --out DIR           results folder; must not exist yet\n"
               "                          (default: memscope-results/<UTC time>)\n"
               "      --warmup N          untimed launches before sampling (default: 3)\n"
               "      --min-samples N     timed samples always taken (default: 10)\n"
               "      --max-samples N     timed samples at most (default: 1000)\n"
               "      --target-spread PCT stop when the 95%% interval of the mean is within PCT %%\n"
               "                          of the mean (default: 0.5)\n"
               "      --budget SECONDS    time for the timed runs of one variant x size\n"
               "                          (default: 2)\n"
               "      --seed N            seed of the random inputs (default: 1)\n"
               "      --wait-gpu SECONDS  wait at most this long while another memscope run uses\n"
               "                          the GPU, then exit 7 (default: 600; 0 refuses at once)\n"
               "      --metric-groups LIST  hardware metric groups: global, shared, dram, roofline,\n"
               "                          cache, sol, tensor, causes, stalls, source, all or none\n"
               "                          (default: all but source, which roughly doubles the run\n"
               "                          and needs another group\n"
               "                          beside it; --validate: all but stalls)\n"
               "      --metrics LIST      further metric names (Nsight Compute / Perfworks names)\n"
               "      --no-metrics        time only; collect no hardware metrics\n"
               "      --keep-operands     keep every variant's device buffers until all variants\n"
               "                          of its width have run, as a run with metrics does, so\n"
               "                          that another profiler sees the same buffer placement\n"
               "      --trace             write the run's timeline: trace.json (Perfetto, chrome://tracing,\n"
               "                          speedscope) and timeline.csv, from CUPTI's activity records\n"
               "      --validate          check the metrics against ground-truth kernels instead\n"
               "                          (writes validate.csv; exit 1 when a check fails); with\n"
               "                          --no-metrics, only launches them, for another profiler;\n"
               "                          takes no --variants, --sizes or --precision\n"
               "      --measure-ceilings  measure the GPU's ceilings (the roofline's roofs) alone into\n"
               "                          DIR/environment.csv, or reuse the figures cached for this\n"
               "                          GPU, driver and memscope commit (memscope-profile runs it)\n"
               "      --list              list the variants and exit (needs no GPU)\n"
               "      --list-metric-groups  list the metric groups and exit (needs no GPU)\n"
               "  -h, --help              this text\n"
               "\n"
               "Exit codes: 0 all variants correct; 1 a variant failed its check; 2 bad usage;\n"
               "3 no GPU or driver; 4 results folder not writable; 5 CUDA or cuBLAS error;\n"
               "6 hardware counters unavailable (no permission, unsupported chip); 7 the GPU or its\n"
               "profiler stayed busy with another process past the wait.\n");
}

void cli_print_variants(FILE *f)
{
    size_t count;
    const struct matmul_variant *v = matmul_variants(&count);
    fprintf(f, "%-24s %-5s %-12s %-8s %s\n", "variant", "prec", "layout", "block", "description");
    for (size_t i = 0; i < count; ++i) {
        char block[16] = "library";
        if (v[i].block_x)
            snprintf(block, sizeof block, "%ux%u", v[i].block_x, v[i].block_y);
        fprintf(f, "%-24s %-5s %-12s %-8s %s\n", v[i].name, matmul_precision_name(v[i].precision),
                matmul_layout_name(v[i].layout), block, v[i].description);
    }
}

static int parse_width(const char *text, long *out, struct error *e)
{
    /* A whole number below 1 is no width at all, rather than one too small. */
    if (parse_long(text, LONG_MIN, LONG_MAX, out) == NUMBER_OK && *out < 1)
        return error_set(e, EXIT_USAGE, "--sizes: %ld is not a valid width (must be at least 1)", *out);
    return args_whole_number("--sizes", text, 1, MAX_WIDTH, "the largest width whose element count fits a 32-bit index",
                             out, e);
}

static int add_size(struct options *o, struct matmul_shape shape, struct error *e)
{
    for (int i = 0; i < o->n_sizes; ++i)
        if (o->sizes[i].rows == shape.rows && o->sizes[i].cols == shape.cols && o->sizes[i].inner == shape.inner)
            return 0;
    if (o->n_sizes == MAX_SIZES)
        return error_set(e, EXIT_USAGE, "--sizes: more than %d sizes", MAX_SIZES);
    o->sizes[o->n_sizes++] = shape;
    return 0;
}

/* RxCxI: each extent at least 1 (product_shape_whole: none or all 0), each matrix's elements a 32-bit index, as the
 * kernels index them. */
static int add_shape(struct options *o, const char *item, struct error *e)
{
    struct product_shape s;
    if (product_shape_parse(item, INT_MAX, &s) || s.rows < 1)
        return error_set(e, EXIT_USAGE, "--sizes: '%s' is not a size (a width W, a range A:B, or a product's shape "
                                        "RxCxI: three whole numbers of at least 1 joined by x)", item);
    const long long elements[] = {(long long)s.rows * s.inner, (long long)s.inner * s.cols, (long long)s.rows * s.cols};
    const char *const matrix[] = {"M (rows x inner)", "N (inner x cols)", "P (rows x cols)"};
    for (int i = 0; i < 3; ++i)
        if (elements[i] > MAX_ELEMENTS)
            return error_set(e, EXIT_USAGE, "--sizes: %s: %s has %lld elements, more than a 32-bit index reaches (%lld)",
                             item, matrix[i], elements[i], MAX_ELEMENTS);
    return add_size(o, (struct matmul_shape){s.rows, s.cols, s.inner}, e);
}

/* A:B, A:B:xF or A:B:+S, inclusive of A and of B when a step lands on it. */
static int add_size_range(struct options *o, char *item, struct error *e)
{
    char *first = strtok(item, ":"), *last = strtok(NULL, ":"), *step = strtok(NULL, ":");
    long a, b, by = 2;
    bool multiply = true;
    if (!first || !last || strtok(NULL, ":"))
        return error_set(e, EXIT_USAGE, "--sizes: a range is A:B, A:B:xF or A:B:+S");
    if (parse_width(first, &a, e) || parse_width(last, &b, e))
        return e->code;
    if (b < a)
        return error_set(e, EXIT_USAGE, "--sizes: range %ld:%ld runs backwards", a, b);
    if (step) {
        char option[64];
        multiply = step[0] == 'x';
        if (step[0] != 'x' && step[0] != '+')
            return error_set(e, EXIT_USAGE, "--sizes: step '%s' must be xF (F >= 2) or +S (S >= 1)", step);
        snprintf(option, sizeof option, "--sizes: step '%.32s'", step);
        if (args_whole_number(option, step + 1, multiply ? 2 : 1, MAX_WIDTH, NULL, &by, e))
            return e->code;
    }
    for (long w = a; w <= b; w = multiply ? w * by : w + by)
        if (add_size(o, matmul_square((int)w), e))
            return e->code;
    return 0;
}

static int parse_sizes(struct options *o, const char *text, struct error *e)
{
    char *copy = strdup(text), *save = NULL;
    if (!copy)
        return error_set(e, EXIT_RUNTIME, "--sizes: out of memory");
    o->n_sizes = 0;
    for (char *item = strtok_r(copy, ",", &save); item && !e->code; item = strtok_r(NULL, ",", &save)) {
        long width;
        if (strchr(item, ':'))
            add_size_range(o, item, e);
        else if (strchr(item, 'x'))
            add_shape(o, item, e);
        else if (parse_width(item, &width, e) == 0)
            add_size(o, matmul_square((int)width), e);
    }
    free(copy);
    if (!e->code && o->n_sizes == 0)
        error_set(e, EXIT_USAGE, "--sizes: no size given");
    return e->code;
}

static void list_valid_names(char *buf, size_t len)
{
    size_t count, used = 0;
    const struct matmul_variant *v = matmul_variants(&count);
    buf[0] = '\0';
    for (size_t i = 0; i < count && used < len; ++i)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", v[i].name);
}

/* One of the variants' precisions (matmul.h), or "all". */
static bool precision_known(const char *precision)
{
    const enum matmul_precision known[] = {MATMUL_FP32, MATMUL_FP64, MATMUL_BF16, MATMUL_FP16, MATMUL_TF32};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; ++i)
        if (strcmp(precision, matmul_precision_name(known[i])) == 0)
            return true;
    return strcmp(precision, "all") == 0;
}

static bool precision_allowed(const char *precision, const struct matmul_variant *v)
{
    return strcmp(precision, "all") == 0 || strcmp(precision, matmul_precision_name(v->precision)) == 0;
}

static int select_variants(struct options *o, const char *patterns, const char *precision, struct error *e)
{
    size_t count;
    const struct matmul_variant *v = matmul_variants(&count);
    bool chosen[MAX_VARIANTS] = {false};
    char *copy = strdup(patterns), *save = NULL;
    if (!copy)
        return error_set(e, EXIT_RUNTIME, "--variants: out of memory");
    for (char *pat = strtok_r(copy, ",", &save); pat && !e->code; pat = strtok_r(NULL, ",", &save)) {
        bool matched = false;
        for (size_t i = 0; i < count; ++i)
            if (fnmatch(pat, v[i].name, 0) == 0)
                matched = chosen[i] = true;
        if (!matched) {
            char names[1024];
            list_valid_names(names, sizeof names);
            error_set(e, EXIT_USAGE, "--variants: unknown variant '%s'; valid variants: %s", pat, names);
        }
    }
    free(copy);
    if (e->code)
        return e->code;
    o->n_variants = 0;
    for (size_t i = 0; i < count; ++i)
        if (chosen[i] && precision_allowed(precision, &v[i]))
            o->variants[o->n_variants++] = &v[i];
    if (o->n_variants == 0)
        return error_set(e, EXIT_USAGE, "no variant matches --variants '%s' with --precision %s", patterns, precision);
    return 0;
}

/* What the command line said, before defaults fill the rest: options that cannot go together are refused. */
struct given {
    const char *patterns, *precision, *sizes, *metric_groups, *metrics, *out_dir;
    bool no_metrics;
    long device, warmup, min_samples, max_samples, seed;
    double target_spread_pct, budget_s, wait_gpu_s;
};

/* strtok would silently pass over the empty item of "a,,b" or "1024,". */
static int refuse_empty_item(const char *option, const char *item_name, const char *list, struct error *e)
{
    size_t n = strlen(list);
    if (n == 0)
        return error_set(e, EXIT_USAGE, "%s: no %s given", option, item_name);
    if (list[0] == ',' || list[n - 1] == ',' || strstr(list, ",,"))
        return error_set(e, EXIT_USAGE, "%s: '%s' has an empty item", option, list);
    return 0;
}

static int refuse_conflicts(const struct options *o, const struct given *g, struct error *e)
{
    if (g->no_metrics && (g->metrics || g->metric_groups))
        return error_set(e, EXIT_USAGE, "--no-metrics cannot go with --metrics or --metric-groups");
    if (o->validate && (g->patterns || g->sizes || g->precision))
        return error_set(e, EXIT_USAGE,
                         "--validate runs the ground-truth kernels, not the matrix products: it takes no "
                         "--variants, --sizes or --precision");
    if (o->measure_ceilings && (o->validate || o->trace || o->keep_operands || g->patterns || g->sizes ||
                                g->precision || g->metric_groups || g->metrics || g->no_metrics))
        return error_set(e, EXIT_USAGE, "--measure-ceilings measures the ceilings alone: it takes no other run option "
                                        "but --device, --out and --wait-gpu");
    if (o->trace && o->validate)
        return error_set(e, EXIT_USAGE, "--trace records the matrix products' run, not --validate's");
    if (o->keep_operands && o->validate)
        return error_set(e, EXIT_USAGE, "--keep-operands applies to the matrix products, not to --validate");
    if (o->timing.min_samples > o->timing.max_samples)
        return error_set(e, EXIT_USAGE, "--min-samples %d exceeds --max-samples %d", o->timing.min_samples,
                         o->timing.max_samples);
    return 0;
}

static int read_command_line(int argc, char **argv, struct options *o, struct given *g, struct error *e)
{
    const struct arg_option options[] = {
        {"variants", 'v', ARG_TEXT, &g->patterns, 0, 0, NULL},
        {"sizes", 's', ARG_TEXT, &g->sizes, 0, 0, NULL},
        {"precision", 'p', ARG_TEXT, &g->precision, 0, 0, NULL},
        {"device", 'd', ARG_LONG, &g->device, 0, 1023, NULL},
        {"out", 'o', ARG_TEXT, &g->out_dir, 0, 0, NULL},
        {"warmup", 0, ARG_LONG, &g->warmup, 0, 1000, NULL},
        {"min-samples", 0, ARG_LONG, &g->min_samples, 1, 1000000, NULL},
        {"max-samples", 0, ARG_LONG, &g->max_samples, 1, 1000000, NULL},
        {"target-spread", 0, ARG_REAL, &g->target_spread_pct, 1e-300, 1e9, "a positive number"},
        {"budget", 0, ARG_REAL, &g->budget_s, 1e-300, 1e9, "a positive number"},
        {"seed", 0, ARG_LONG, &g->seed, 0, (double)LONG_MAX, NULL},
        {"wait-gpu", 0, ARG_REAL, &g->wait_gpu_s, 0, 86400, NULL},
        {"list", 0, ARG_FLAG, &o->list, 0, 0, NULL},
        {"metric-groups", 0, ARG_TEXT, &g->metric_groups, 0, 0, NULL},
        {"metrics", 0, ARG_TEXT, &g->metrics, 0, 0, NULL},
        {"no-metrics", 0, ARG_FLAG, &g->no_metrics, 0, 0, NULL},
        {"list-metric-groups", 0, ARG_FLAG, &o->list_metric_groups, 0, 0, NULL},
        {"validate", 0, ARG_FLAG, &o->validate, 0, 0, NULL},
        {"measure-ceilings", 0, ARG_FLAG, &o->measure_ceilings, 0, 0, NULL},
        {"keep-operands", 0, ARG_FLAG, &o->keep_operands, 0, 0, NULL},
        {"trace", 0, ARG_FLAG, &o->trace, 0, 0, NULL},
        {"help", 'h', ARG_FLAG, &o->help, 0, 0, NULL},
    };
    int none;
    if (args_parse(argc, argv, options, (int)(sizeof options / sizeof options[0]), NULL, 0, &none, e))
        return e->code;
    if ((g->patterns && refuse_empty_item("--variants", "variant", g->patterns, e)) ||
        (g->sizes && refuse_empty_item("--sizes", "size", g->sizes, e)) ||
        (g->metric_groups && refuse_empty_item("--metric-groups", "metric group", g->metric_groups, e)) ||
        (g->metrics && refuse_empty_item("--metrics", "metric", g->metrics, e)))
        return e->code;
    o->device = (int)g->device;
    o->timing = (struct timing_policy){(int)g->warmup, (int)g->min_samples, (int)g->max_samples,
                                       g->target_spread_pct / 100.0, g->budget_s};
    o->seed = (unsigned long long)g->seed;
    o->wait_gpu_s = g->wait_gpu_s;
    o->out_dir = g->out_dir;
    o->metrics = g->metrics;
    /* The source group patches every kernel and runs it once more, instrumented: about 90 s more for the default
     * suite on an H100, so a run asks for it; the ground-truth kernels are small and always get it. */
    o->metric_groups = g->no_metrics      ? "none"
                       : g->metric_groups ? g->metric_groups
                       : o->validate      ? "all"
                                          : "global,shared,dram,roofline,cache,sol,tensor,causes,stalls";
    return 0;
}

int cli_parse(int argc, char **argv, struct options *o, struct error *e)
{
    struct given g = {.warmup = 3, .min_samples = 10, .max_samples = 1000, .target_spread_pct = 0.5,
                      .budget_s = 2.0, .seed = 1, .wait_gpu_s = 600};
    memset(o, 0, sizeof *o);
    if (read_command_line(argc, argv, o, &g, e))
        return e->code;
    if (o->help || o->list || o->list_metric_groups)
        return 0;
    const char *precision = g.precision ? g.precision : "all";
    if (!precision_known(precision))
        return error_set(e, EXIT_USAGE, "--precision: '%s' is not fp32, fp64, bf16, fp16, tf32 or all", precision);
    if (refuse_conflicts(o, &g, e))
        return e->code;
    if (o->out_dir && o->out_dir[0] == '\0')
        return error_set(e, EXIT_USAGE, "--out: empty folder name");
    if (select_variants(o, g.patterns ? g.patterns : "*", precision, e) ||
        parse_sizes(o, g.sizes ? g.sizes : DEFAULT_SIZES, e))
        return e->code;
    return 0;
}
