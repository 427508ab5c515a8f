/*
 * memscope-report-data: reads a results folder and writes, into an existing
 * folder, the tables and variables the report's gnuplot scripts draw.
 * Run by scripts/report-render; needs no GPU.
 *
 *   memscope-report-data [--note TEXT] [--compare COMPARE_CSV] [--group-by HOW] RESULTS_DIR DATA_DIR
 *   memscope-report-data --compare COMPARE_CSV DATA_DIR
 *   memscope-report-data --check [--as FILE_NAME] RESULTS_DIR|FILE
 *
 * DATA_DIR receives the tables, variables.gp, pages.tsv (the PNG pages to
 * render: name, script, setup) and, with --compare, COMPARE_CSV checked, as
 * compare.tsv with compare-variables.gp; with --compare and no RESULTS_DIR, those two alone (compare-chart's).
 * TEXT, one line, is drawn on the title page exactly as given. HOW: how a program's launches make its kernels
 * (program/kernels.h: kernel, nvtx or launch; default kernel).
 * --check writes nothing: it refuses what the report would refuse, a folder or
 * one of its files, by the same words; the Python scripts that read a results
 * folder ask it, so that the limits of its values have one definition.
 *
 * Exit codes: 0 written; 2 bad usage (a TEXT with a line break among it) or a
 * results folder that cannot be read (the message names the file and line);
 * 4 DATA_DIR not writable.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/args.h"
#include "../results/folder_reader.h"
#include "../results/partial_folder.h"
#include "../results/schema.h"
#include "report_data.h"

static const char help_text[] =
    "usage: memscope-report-data [--note TEXT] [--compare COMPARE_CSV] [--group-by HOW] RESULTS_DIR DATA_DIR\n"
    "       memscope-report-data --compare COMPARE_CSV DATA_DIR\n"
    "       memscope-report-data --check [--as FILE_NAME] RESULTS_DIR|FILE\n"
    "\n"
    "Reads a results folder and writes into DATA_DIR, an existing folder, the tables, gnuplot\n"
    "variables and pages.tsv that scripts/report-render draws into the report. Needs no GPU.\n"
    "With --compare and no RESULTS_DIR it writes the comparison's table alone (compare.tsv and\n"
    "compare-variables.gp, never over either already there), which scripts/compare-chart draws.\n"
    "With --check it writes nothing: it checks a results folder, or one file of one (by its\n"
    "name, or as FILE_NAME: --as metrics.csv), as every reader of a results folder does.\n"
    "\n"
    "      --note TEXT            a line for the title page\n"
    "      --compare COMPARE_CSV  a compare.csv of memscope-compare -o, checked, for the\n"
    "                             comparison page\n"
    "      --group-by HOW         a program's profile read by kernel (the default: every\n"
    "                             launch of a kernel together), nvtx (a kernel within its\n"
    "                             innermost NVTX range) or launch (each launch alone)\n"
    "      --check                check RESULTS_DIR or FILE and write nothing\n"
    "      --as FILE_NAME         with --check, FILE is checked as the results folder's\n"
    "                             FILE_NAME (summary.csv, metrics.csv, stalls.csv, ...)\n"
    "  -h, --help                 this text\n"
    "\n"
    "Exit codes: 0 written (with --check: every value within its limit); 2 bad usage or a\n"
    "results folder that cannot be read (the message names the file, line, column, value and\n"
    "limit); 4 DATA_DIR not writable (or, with --compare alone, holding a compare.tsv or a\n"
    "compare-variables.gp).\n";

static int print_help(void)
{
    fputs(help_text, stdout);
    return 0;
}

static int usage(struct error *e)
{
    return error_set(e, EXIT_USAGE,
                     "usage: memscope-report-data [--note TEXT] [--compare COMPARE_CSV] [--group-by HOW] RESULTS_DIR "
                     "DATA_DIR, or memscope-report-data --compare COMPARE_CSV DATA_DIR, or "
                     "memscope-report-data --check [--as FILE_NAME] RESULTS_DIR|FILE (see --help)");
}

/* A folder is checked as every reader opens it; a file by the schema of its name (or of as). */
static int check(const char *path, const char *as, struct error *e)
{
    struct stat st;
    if (!as && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        struct results_folder results;
        if (results_folder_open(path, &results, e) == 0)
            results_folder_close(&results);
        return e->code;
    }
    const char *name = as ? as : strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const struct csv_schema *s = schema_of_results_file(name);
    if (!s)
        return error_set(e, EXIT_USAGE, "%s: not a file of a results folder by its name (--as names which it is: "
                                        "summary.csv, metrics.csv, stalls.csv, ...)", as ? as : path);
    return results_file_check(path, s, e);
}

/* The comparison's table alone, into a folder the caller names (compare-chart's scratch folder): a compare.tsv or
 * compare-variables.gp there already may be someone else's, and is never written over. */
static int compare_table(const char *compare, const char *dir, struct error *e)
{
    static const char *const written[] = {"compare.tsv", "compare-variables.gp"};
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    struct stat st;
    for (size_t i = 0; i < sizeof written / sizeof written[0]; ++i) {
        snprintf(path, sizeof path, "%s/%s", dir, written[i]);
        if (lstat(path, &st) == 0)
            return error_set(e, EXIT_OUTPUT, "%s already exists: it is not overwritten", path);
    }
    return report_compare_table(compare, dir, e);
}

static int run(int argc, char **argv, struct error *e)
{
    const char *note = "", *compare = NULL, *as = NULL, *group_by = NULL, *paths[2];
    enum kernel_grouping grouping = GROUP_BY_KERNEL;
    int n;
    bool help = false, checking = false;
    const struct arg_option options[] = {
        {"note", 0, ARG_TEXT, &note, 0, 0, NULL},
        {"compare", 0, ARG_TEXT, &compare, 0, 0, NULL},
        {"check", 0, ARG_FLAG, &checking, 0, 0, NULL},
        {"as", 0, ARG_TEXT, &as, 0, 0, NULL},
        {"group-by", 0, ARG_TEXT, &group_by, 0, 0, NULL},
        {"help", 'h', ARG_FLAG, &help, 0, 0, NULL},
    };
    if (args_parse(argc, argv, options, 6, paths, 2, &n, e))
        return e->code;
    if (help)
        return print_help();
    if (checking)
        return n != 1 || *note || compare || group_by ? usage(e) : check(paths[0], as, e);
    if (group_by && kernel_grouping_parse(group_by, &grouping, e))
        return e->code;
    if (n > 0 && !checking && output_path_given("DATA_DIR", paths[n - 1], e))
        return e->code;
    if (compare && n == 1 && !as && !*note && !group_by)
        return compare_table(compare, paths[0], e);
    if (as || n != 2)
        return usage(e);
    if (strpbrk(note, "\r\n"))
        return error_set(e, EXIT_USAGE, "--note: one line for the title page, without a line break");
    struct results_folder results;
    if (results_folder_open(paths[0], &results, e))
        return e->code;
    report_data_write(&results, paths[1], note, compare, grouping, e);
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
