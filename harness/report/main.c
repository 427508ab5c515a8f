/*
 * memscope-report-data: reads a results folder and writes, into an existing
 * folder, the tables and variables the report's gnuplot scripts draw.
 * Run by scripts/report-render; needs no GPU.
 *
 *   memscope-report-data [--note TEXT] [--compare COMPARE_CSV] RESULTS_DIR DATA_DIR
 *
 * DATA_DIR receives the tables, variables.gp, pages.tsv (the PNG pages to
 * render: name, script, setup) and, with --compare, a checked copy of
 * COMPARE_CSV. TEXT, one line, is drawn on the title page exactly as given.
 *
 * Exit codes: 0 written; 2 bad usage (a TEXT with a line break among it) or a
 * results folder that cannot be read (the message names the file and line);
 * 4 DATA_DIR not writable.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../common/args.h"
#include "report_data.h"

static const char help_text[] =
    "usage: memscope-report-data [--note TEXT] [--compare COMPARE_CSV] RESULTS_DIR DATA_DIR\n"
    "\n"
    "Reads a results folder and writes into DATA_DIR, an existing folder, the tables, gnuplot\n"
    "variables and pages.tsv that scripts/report-render draws into the report. Needs no GPU.\n"
    "\n"
    "      --note TEXT            a line for the title page\n"
    "      --compare COMPARE_CSV  a compare.csv of memscope-compare -o, checked, for the\n"
    "                             comparison page\n"
    "  -h, --help                 this text\n"
    "\n"
    "Exit codes: 0 written; 2 bad usage or a results folder that cannot be read (the message\n"
    "names the file, line and column); 4 DATA_DIR not writable.\n";

static int print_help(void)
{
    fputs(help_text, stdout);
    return 0;
}

static int usage(struct error *e)
{
    return error_set(e, EXIT_USAGE,
                     "usage: memscope-report-data [--note TEXT] [--compare COMPARE_CSV] RESULTS_DIR DATA_DIR "
                     "(see --help)");
}

static int run(int argc, char **argv, struct error *e)
{
    const char *note = "", *compare = NULL, *paths[2];
    int n;
    bool help = false;
    const struct arg_option options[] = {
        {"note", 0, ARG_TEXT, &note, 0, 0, NULL},
        {"compare", 0, ARG_TEXT, &compare, 0, 0, NULL},
        {"help", 'h', ARG_FLAG, &help, 0, 0, NULL},
    };
    if (args_parse(argc, argv, options, 3, paths, 2, &n, e))
        return e->code;
    if (help)
        return print_help();
    if (n != 2)
        return usage(e);
    if (strpbrk(note, "\r\n"))
        return error_set(e, EXIT_USAGE, "--note: one line for the title page, without a line break");
    struct results_folder results;
    if (results_folder_open(paths[0], &results, e))
        return e->code;
    report_data_write(&results, paths[1], note, compare, e);
    results_folder_close(&results);
    return e->code;
}

int main(int argc, char **argv)
{
    struct error e = {0};
    if (run(argc, argv, &e))
        fprintf(stderr, "memscope-report-data: %s\n", e.message);
    return e.code;
}
