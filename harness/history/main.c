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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/args.h"
#include "history.h"

static int usage(struct error *e)
{
    return error_set(e, EXIT_USAGE,
                     "usage: memscope-history add HISTORY_CSV RESULTS_DIR\n"
                     "       memscope-history chart-data [--gpu NAME] [--width W] [--floor PCT] HISTORY_CSV DATA_DIR");
}

static int add(int argc, char **argv, struct error *e)
{
    const char *paths[2];
    int n;
    struct results_folder run;
    if (args_parse(argc - 1, argv + 1, NULL, 0, paths, 2, &n, e))
        return e->code;
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
    const struct arg_option options[] = {
        {"gpu", 0, ARG_TEXT, &gpu, 0, 0, NULL},
        {"width", 0, ARG_LONG, &width, 1, 1000000, NULL},
        {"floor", 0, ARG_REAL, &floor_pct, 0, 100, NULL},
    };
    if (args_parse(argc - 1, argv + 1, options, (int)(sizeof options / sizeof options[0]), paths, 2, &n, e))
        return e->code;
    if (n != 2)
        return usage(e);
    return history_chart_data(paths[0], gpu, (int)width, floor_pct / 100, paths[1], e);
}

int main(int argc, char **argv)
{
    struct error e = {0};
    if (argc >= 2 && !strcmp(argv[1], "add"))
        add(argc, argv, &e);
    else if (argc >= 2 && !strcmp(argv[1], "chart-data"))
        chart_data(argc, argv, &e);
    else
        usage(&e);
    if (e.code)
        fprintf(stderr, "memscope-history: %s\n", e.message);
    return e.code;
}
