/*
 * memscope-history: records runs in a history CSV, and writes the data of its
 * chart (drawn by scripts/history-render).
 *
 *   memscope-history add HISTORY_CSV RESULTS_DIR
 *   memscope-history chart-data [--gpu NAME] [--width W] [--floor PCT] HISTORY_CSV DATA_DIR
 *
 * Exit codes: 0 done; 2 bad usage or unreadable input (the message names the
 * file and line), or a run recorded already; 4 a file cannot be written.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/args.h"
#include "history.h"

static const char help_text[] =
    "usage: memscope-history add HISTORY_CSV RESULTS_DIR\n"
    "       memscope-history chart-data [--gpu NAME] [--width W] [--floor PCT] HISTORY_CSV DATA_DIR\n"
    "\n"
    "Records runs in a history CSV, one block of rows per run, and writes the data of its chart\n"
    "across the runs, which scripts/history-render draws.\n"
    "\n"
    "  add                 appends the run in RESULTS_DIR (creates HISTORY_CSV with its header);\n"
    "                      a run recorded already is refused\n"
    "  chart-data          writes history.tsv and variables.gp into DATA_DIR, an existing folder:\n"
    "      --gpu NAME      the runs on this GPU (default: the last recorded run's)\n"
    "      --width W       at this width (default: the largest the last run measured); one that\n"
    "                      no run measured is refused, naming those recorded\n"
    "      --floor PCT     a step is a change of the median beyond PCT % whose interquartile\n"
    "                      ranges do not overlap (default: 2)\n"
    "  -h, --help          this text\n"
    "\n"
    "Exit codes: 0 done; 2 bad usage or unreadable input (the message names the file and line),\n"
    "or a run recorded already; 4 a file cannot be written.\n";

static int print_help(void)
{
    fputs(help_text, stdout);
    return 0;
}

static int usage(struct error *e)
{
    return error_set(e, EXIT_USAGE,
                     "usage: memscope-history add HISTORY_CSV RESULTS_DIR\n"
                     "       memscope-history chart-data [--gpu NAME] [--width W] [--floor PCT] HISTORY_CSV DATA_DIR\n"
                     "(see --help)");
}

static int add(int argc, char **argv, struct error *e)
{
    const char *paths[2];
    int n;
    bool help = false;
    struct results_folder run;
    const struct arg_option options[] = {{"help", 'h', ARG_FLAG, &help, 0, 0, NULL}};
    if (args_parse(argc - 1, argv + 1, options, 1, paths, 2, &n, e))
        return e->code;
    if (help)
        return print_help();
    if (n != 2)
        return usage(e);
    if (results_folder_open(paths[1], &run, e))
        return e->code;
    if (!history_add(paths[0], &run, e))
        printf("history: %s recorded in %s\n", run.dir, paths[0]);
    results_folder_close(&run);
    return e->code;
}

static int chart_data(int argc, char **argv, struct error *e)
{
    const char *gpu = NULL, *paths[2];
    long width = 0;
    double floor_pct = 2;
    int n;
    bool help = false;
    const struct arg_option options[] = {
        {"gpu", 0, ARG_TEXT, &gpu, 0, 0, NULL},
        {"width", 0, ARG_LONG, &width, 1, 1000000, NULL},
        {"floor", 0, ARG_REAL, &floor_pct, 0, 100, NULL},
        {"help", 'h', ARG_FLAG, &help, 0, 0, NULL},
    };
    if (args_parse(argc - 1, argv + 1, options, (int)(sizeof options / sizeof options[0]), paths, 2, &n, e))
        return e->code;
    if (help)
        return print_help();
    if (n != 2)
        return usage(e);
    return history_chart_data(paths[0], gpu, (int)width, floor_pct / 100, paths[1], e);
}

int main(int argc, char **argv)
{
    struct error e = {0};
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
        print_help();
    else if (argc >= 2 && !strcmp(argv[1], "add"))
        add(argc, argv, &e);
    else if (argc >= 2 && !strcmp(argv[1], "chart-data"))
        chart_data(argc, argv, &e);
    else
        usage(&e);
    if (e.code)
        fprintf(stderr, "memscope-history: %s\n", e.message);
    return e.code;
}
