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

#include "history.h"

static int usage(struct error *e)
{
    return error_set(e, EXIT_USAGE,
                     "usage: memscope-history add HISTORY_CSV RESULTS_DIR\n"
                     "       memscope-history chart-data [--gpu NAME] [--width W] [--floor PCT] HISTORY_CSV DATA_DIR");
}

static int add(int argc, char **argv, struct error *e)
{
    struct results_folder run;
    if (argc != 4)
        return usage(e);
    if (results_folder_open(argv[3], &run, e))
        return e->code;
    if (!history_add(argv[2], &run, e))
        printf("history: %s recorded in %s\n", run.dir, argv[2]);
    results_folder_close(&run);
    return e->code;
}

static int chart_data(int argc, char **argv, struct error *e)
{
    const char *gpu = NULL;
    int width = 0, at = 2;
    double floor = 2;
    for (; at + 1 < argc && argv[at][0] == '-'; at += 2) {
        char *end;
        if (!strcmp(argv[at], "--gpu"))
            gpu = argv[at + 1];
        else if (!strcmp(argv[at], "--width") && (width = (int)strtol(argv[at + 1], &end, 10)) > 0 && !*end)
            continue;
        else if (!strcmp(argv[at], "--floor") && (floor = strtod(argv[at + 1], &end)) >= 0 && !*end)
            continue;
        else
            return error_set(e, EXIT_USAGE, "bad option %s %s", argv[at], argv[at + 1]);
    }
    if (argc - at != 2)
        return usage(e);
    return history_chart_data(argv[at], gpu, width, floor / 100, argv[at + 1], e);
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
