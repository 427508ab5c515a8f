/*
 * memscope-compare: is HEAD slower than BASE? Each side is a results folder,
 * or a folder of them (the rounds of an interleaved run, pooled).
 *
 *   memscope-compare [options] BASE HEAD
 *
 * Exit codes: 0 no regression; 1 at least one SLOWER verdict, a variant that
 * fails its check in HEAD, or a metric regression (unless --ignore-metrics);
 * 2 the comparison could not be made (bad usage, unreadable or mismatched input).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output.h"

static const char usage_text[] =
    "usage: memscope-compare [options] BASE HEAD\n"
    "\n"
    "Compares the timing samples and hardware metrics of two results folders (or two\n"
    "folders of results folders, the rounds of an interleaved run, pooled per side).\n"
    "\n"
    "  --floor PCT           smallest change that counts (default: 2)\n"
    "  --alpha A             significance level of the Mann-Whitney U test (default: 0.01)\n"
    "  --min-samples N       fewer samples on a side give UNSURE (default: 5)\n"
    "  --dram-tolerance PCT  DRAM GB/s changes reported beyond this (default: 10)\n"
    "  --ignore-metrics      metric regressions do not set the exit code\n"
    "  --force               compare different GPUs, drivers or clock settings anyway\n"
    "  -o, --out DIR         also write compare.csv and compare-metrics.csv into DIR\n"
    "  -h, --help            this text\n"
    "\n"
    "Exit codes: 0 no regression; 1 a SLOWER verdict, a check failed in HEAD, or a metric\n"
    "regression; 2 the comparison could not be made.\n";

struct cli {
    struct compare_options options;
    const char *base, *head, *out;
    int help;
};

static int parse_number(const char *flag, const char *text, double low, double high, double *value, struct error *e)
{
    char *end;
    errno = 0;
    *value = text ? strtod(text, &end) : 0;
    if (!text || end == text || *end || errno || *value < low || *value > high)
        return error_set(e, EXIT_USAGE, "%s needs a number from %g to %g, not '%s'", flag, low, high,
                         text ? text : "");
    return 0;
}

static int parse_option(struct cli *c, const char *flag, const char *value, int *used, struct error *e)
{
    double x;
    *used = 1;
    if (!strcmp(flag, "--floor") && !parse_number(flag, value, 0, 100, &x, e))
        c->options.rules.floor = x / 100;
    else if (!strcmp(flag, "--alpha") && !parse_number(flag, value, 1e-9, 0.5, &x, e))
        c->options.rules.alpha = x;
    else if (!strcmp(flag, "--min-samples") && !parse_number(flag, value, 2, 1e6, &x, e))
        c->options.rules.min_samples = (int)x;
    else if (!strcmp(flag, "--dram-tolerance") && !parse_number(flag, value, 0, 1000, &x, e))
        c->options.dram_tolerance = x / 100;
    else if (!strcmp(flag, "-o") || !strcmp(flag, "--out")) {
        if (!value)
            return error_set(e, EXIT_USAGE, "%s needs a folder", flag);
        c->out = value;
    } else if (e->code)
        return e->code;
    else {
        *used = 0;
        if (!strcmp(flag, "--force"))
            c->options.force = 1;
        else if (!strcmp(flag, "--ignore-metrics"))
            c->options.ignore_metrics = 1;
        else if (!strcmp(flag, "-h") || !strcmp(flag, "--help"))
            c->help = 1;
        else
            return error_set(e, EXIT_USAGE, "unknown option %s (see --help)", flag);
    }
    return 0;
}

static int parse(int argc, char **argv, struct cli *c, struct error *e)
{
    memset(c, 0, sizeof *c);
    c->options.rules = VERDICT_RULES_DEFAULT;
    c->options.dram_tolerance = 0.10;
    int positional = 0;
    for (int i = 1; i < argc && !e->code; ++i) {
        int used = 0;
        if (argv[i][0] == '-' && argv[i][1])
            parse_option(c, argv[i], i + 1 < argc ? argv[i + 1] : NULL, &used, e);
        else if (positional++ == 0)
            c->base = argv[i];
        else if (positional == 2)
            c->head = argv[i];
        else
            error_set(e, EXIT_USAGE, "one BASE and one HEAD, not '%s' as well", argv[i]);
        i += used;
    }
    if (!e->code && !c->help && !c->head)
        error_set(e, EXIT_USAGE, "needs BASE and HEAD (see --help)");
    return e->code;
}

static int run(const struct cli *c, struct error *e)
{
    static struct compare_side base, head;
    static struct comparison result;
    if (compare_side_open(c->base, &base, e))
        return e->code;
    if (!compare_side_open(c->head, &head, e)) {
        if (!compare_run(&base, &head, &c->options, &result, e)) {
            compare_print(stdout, &result, &c->options);
            if (c->out && mkdir(c->out, 0777) != 0 && errno != EEXIST)
                error_set(e, EXIT_USAGE, "cannot create %s: %s", c->out, strerror(errno));
            else if (c->out && compare_write_csv(c->out, &result, e))
                e->code = EXIT_USAGE;
        }
        compare_side_close(&head);
    }
    compare_side_close(&base);
    return e->code ? e->code : comparison_exit_code(&result, &c->options);
}

int main(int argc, char **argv)
{
    struct error e = {0};
    struct cli c;
    if (parse(argc, argv, &c, &e) == 0 && c.help) {
        fputs(usage_text, stdout);
        return 0;
    }
    int code = e.code ? e.code : run(&c, &e);
    if (e.code) {
        fprintf(stderr, "memscope-compare: %s\n", e.message);
        return EXIT_USAGE;
    }
    return code;
}
