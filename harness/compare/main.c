/*
 * memscope-compare: is HEAD slower than BASE? Each side is a results folder,
 * or a folder of them (the rounds of an interleaved run, pooled).
 *
 *   memscope-compare [options] BASE HEAD
 *
 * Exit codes: 0 no regression; 1 at least one SLOWER verdict, a variant that
 * fails its check in HEAD, a metric regression, or more bank conflicts or wasted
 * sectors on a source line (unless --ignore-metrics);
 * 2 the comparison could not be made (bad usage, unreadable or mismatched input);
 * 4 the output folder cannot be written, or exists already; 5 out of memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/args.h"
#include "../results/partial_folder.h"
#include "line_changes.h"
#include "output.h"

static const char usage_text[] =
    "usage: memscope-compare [options] BASE HEAD\n"
    "\n"
    "Compares the timing samples and hardware metrics of two results folders (or two\n"
    "folders of results folders, the rounds of an interleaved run, pooled per side).\n"
    "\n"
    "  --floor PCT           smallest change that counts (default: 2); with two rounds a side\n"
    "                        or more, a unit whose rounds' medians vary more needs the change\n"
    "                        its noise sets (a t-test on those medians at --alpha) to be\n"
    "                        SLOWER or FASTER\n"
    "  --alpha A             significance level of the rank tests over all units together\n"
    "                        (Holm's correction; default: 0.01)\n"
    "  --min-samples N       fewer samples on a side give UNSURE (default: 5)\n"
    "  --dram-tolerance PCT  DRAM GB/s changes reported beyond this (default: 10)\n"
    "  --ignore-metrics      metric regressions do not set the exit code\n"
    "  --force               compare different GPUs, drivers or clock settings anyway\n"
    "  --group-by HOW        a program's profiles compared by kernel (the default: every\n"
    "                        launch of a kernel a sample of it), nvtx (a kernel within its\n"
    "                        innermost NVTX range) or launch (each launch alone, over the runs)\n"
    "  -o, --out DIR         also write compare.csv, compare-metrics.csv and (when both runs\n"
    "                        have lines.csv) compare-lines.csv into DIR, a new folder (one\n"
    "                        that exists is refused): filled as DIR.partial, renamed when complete\n"
    "  -h, --help            this text\n"
    "\n"
    "A count the metric catalog calls deterministic is exact where it read the same in every\n"
    "collection of each side; one that moved between two collections of one side depends on\n"
    "the run's scheduling and is listed, never gated. Divergent branch targets, which a kernel's\n"
    "timing can steer, are held exact only where both sides have two collections or more.\n"
    "Two program profiles: a kernel launched over 1.5 times as often a run on one side gets\n"
    "no verdict (UNSURE: other work, as an autotuner's benchmarks), and a kernel profiled at\n"
    "launches of another block, grid or dynamic shared memory has its counts listed as\n"
    "launch_differs, not compared; a program's count that moved where a side has one collection\n"
    "(one profile) is listed as unconfirmed_inputs (the program's data can move it), not gated.\n"
    "\n"
    "Exit codes: 0 no regression; 1 a SLOWER verdict, a check failed in HEAD, a metric\n"
    "regression, or more bank conflicts or wasted sectors on a source line; 2 the comparison could not be made; 4 DIR cannot be written or exists; 5 out of memory.\n";

struct cli {
    struct compare_options options;
    const char *base, *head, *out;
    enum kernel_grouping grouping;
    bool help;
};

static int parse(int argc, char **argv, struct cli *c, struct error *e)
{
    double floor_pct = 2, dram_tolerance_pct = 10;
    long min_samples;
    const char *group_by = NULL;
    memset(c, 0, sizeof *c);
    c->options.rules = VERDICT_RULES_DEFAULT;
    min_samples = c->options.rules.min_samples;
    const struct arg_option options[] = {
        {"floor", 0, ARG_REAL, &floor_pct, 0, 100, NULL},
        {"alpha", 0, ARG_REAL, &c->options.rules.alpha, 1e-9, 0.5, NULL},
        {"min-samples", 0, ARG_LONG, &min_samples, 2, 1000000, NULL},
        {"dram-tolerance", 0, ARG_REAL, &dram_tolerance_pct, 0, 1000, NULL},
        {"ignore-metrics", 0, ARG_FLAG, &c->options.ignore_metrics, 0, 0, NULL},
        {"force", 0, ARG_FLAG, &c->options.force, 0, 0, NULL},
        {"out", 'o', ARG_TEXT, &c->out, 0, 0, NULL},
        {"group-by", 0, ARG_TEXT, &group_by, 0, 0, NULL},
        {"help", 'h', ARG_FLAG, &c->help, 0, 0, NULL},
    };
    const char *sides[2];
    int n_sides;
    if (args_parse(argc, argv, options, (int)(sizeof options / sizeof options[0]), sides, 2, &n_sides, e))
        return e->code;
    if (group_by && kernel_grouping_parse(group_by, &c->grouping, e))
        return e->code;
    c->options.rules.floor = floor_pct / 100;
    c->options.rules.min_samples = (int)min_samples;
    c->options.dram_tolerance = dram_tolerance_pct / 100;
    if (!c->help && n_sides != 2)
        return error_set(e, EXIT_USAGE, "needs BASE and HEAD (see --help)");
    c->base = n_sides > 0 ? sides[0] : NULL;
    c->head = n_sides > 1 ? sides[1] : NULL;
    return 0;
}

/* out: the -o folder's plan, or NULL without -o. Its files go to out's .partial, renamed once all are written. */
static int compare(const struct cli *c, const struct results_dir *out, const struct compare_side *base,
                   const struct compare_side *head, struct comparison *result, struct line_changes *lines,
                   struct error *e)
{
    if (compare_run(base, head, &c->options, result, e))
        return e->code;
    compare_print(stdout, result, &c->options);
    const char *dir = out ? out->partial_path : NULL;
    if (dir && (results_dir_create(out, e) || compare_write_csv(dir, result, e)))
        return e->code;
    /* The counts of a line do not vary between rounds: the first round of each side speaks for it. */
    if (compare_line_changes(base->round[0].dir, head->round[0].dir, stdout, dir, lines, e))
        return e->code;
    return out ? results_dir_commit(out, e) : 0;
}

static int run(const struct cli *c, struct error *e)
{
    static struct compare_side base, head;
    static struct comparison result;
    struct line_changes lines = {0};
    struct results_dir out;
    /* Refused before anything is compared: an existing folder, whose files the comparison's would mix with. */
    if (c->out && results_dir_plan(&out, c->out, e))
        return e->code;
    if (compare_side_open(c->base, c->grouping, &base, e))
        return e->code;
    if (!compare_side_open(c->head, c->grouping, &head, e)) {
        compare(c, c->out ? &out : NULL, &base, &head, &result, &lines, e);
        compare_side_close(&head);
    }
    compare_side_close(&base);
    int code = e->code ? e->code : comparison_exit_code(&result, &c->options);
    comparison_free(&result);
    return code ? code : lines.regressions > 0 && !c->options.ignore_metrics;
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
    if (e.code)
        fprintf(stderr, "memscope-compare: %s\n", e.message);
    return code;
}
