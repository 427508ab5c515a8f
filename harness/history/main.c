/*
 * memscope-history: records runs in a history database (SQLite, or PostgreSQL for a fleet), and reads it back:
 * runs, a job's series, the steps found and the counters that moved at them, the CSV export, a SQL dump, and
 * the data of its chart (drawn by scripts/history-render). The usage is help_text below.
 *
 * Exit codes: 0 done; 2 bad usage or input (a results folder or CSV that cannot be read, named with its line; not
 * a database or not a memscope history; a schema newer than this program's); 4 the database cannot be reached,
 * opened or written (no server, a refused login, a read-only file, a lock held past a minute), or an output
 * cannot be written; 5 memory ran out, or the database failed otherwise; 3 a PostgreSQL database named where
 * libpq is not installed.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/args.h"
#include "../results/partial_folder.h"
#include "../results/product_shape.h"
#include "history.h"
#include "steps.h"

#define DEFAULT_DATABASE "memscope-results/history.db"
/* The largest width, rows, cols or inner --width takes. */
#define MOST_EXTENT 1000000
/* As many arguments as the command line holds (add takes any number of folders). */
#define ANY INT_MAX

static const char help_text[] =
    "usage: memscope-history COMMAND [--db DATABASE] [options] [arguments]\n"
    "\n"
    "The history of memscope runs, in a database: DATABASE is a SQLite file, or a PostgreSQL connection\n"
    "string (postgresql://..., postgres://... or \"host=... dbname=...\"); a file ending in .sql is a dump,\n"
    "read only. Default: $MEMSCOPE_HISTORY_DB, else " DEFAULT_DATABASE ". An empty file (or database) is a\n"
    "new history to add and migrate, which read their input before they open it; the other commands refuse\n"
    "it and leave it as it is.\n"
    "\n"
    "  add RESULTS...        records the runs in the results folders, in one transaction (a SQLite file is\n"
    "                        created); a run recorded already is left as it is. A folder that cannot be read\n"
    "                        is refused and nothing is recorded. The database may also come first, as\n"
    "                        add DATABASE RESULTS... (a file, a connection string, or a name ending\n"
    "                        in .db, .sqlite, .sqlite3, .sql or .csv)\n"
    "  migrate HISTORY_CSV   records the runs of a history CSV (the history before it was a database)\n"
    "  runs                  lists the runs: start time, commit (* uncommitted changes), GPU, host, results\n"
    "  series VARIANT        the variant's median times across the runs, per size, with the fitted level\n"
    "                        and the steps\n"
    "  steps                 the steps found, in run order: commit, job, change with its 95 % interval, and\n"
    "                        the deterministic counts that changed at the same commit\n"
    "  noise                 the between-run noise of each job's median time\n"
    "  export                the history as a history CSV, on standard output\n"
    "  dump                  the history as SQL, on standard output (what --db FILE.sql reads)\n"
    "  chart-data [DATABASE] DATA_DIR\n"
    "                        writes history.tsv and variables.gp into DATA_DIR, an existing folder, for\n"
    "                        scripts/history-render\n"
    "\n"
    "  --db DATABASE         the history (every command)\n"
    "  --gpu NAME            the runs on this GPU (default: the latest run's)\n"
    "  --width SIZE          this size only: a width W, or a product's shape RxCxI (rows x cols x inner,\n"
    "                        as memscope -s takes it); chart-data: default the largest the latest run\n"
    "                        measured; one no run measured is refused, naming those recorded\n"
    "  --variant NAME        steps of this variant only\n"
    "  --floor PCT           the smallest step shown, in % (default: 2)\n"
    "  -h, --help            this text\n"
    "\n"
    "Exit codes: 0 done; 2 bad usage or input (a folder or CSV that cannot be read, named with its line; not a\n"
    "database or not a memscope history; a schema newer than this program knows); 4 the database cannot be\n"
    "reached, opened or written (no server, a refused login, a read-only file, a lock held past a minute), or\n"
    "an output cannot be written; 5 memory ran out, or the database failed otherwise; 3 a PostgreSQL database\n"
    "named where libpq is not installed (apt-get install libpq5).\n";

enum option_bit { OPT_DB = 1, OPT_GPU = 2, OPT_WIDTH = 4, OPT_VARIANT = 8, OPT_FLOOR = 16 };

struct invocation {
    const char *db;
    const char **args; /* room for every argument of the command line */
    int n;
    double floor_pct;
    const char *size; /* --width: a width or a shape */
    struct history_query q;
};

#define USAGE_LINE                                                                                              \
    "usage: memscope-history add|migrate|runs|series|steps|noise|export|dump|chart-data [--db DATABASE] "          \
    "[options] [arguments] (see --help)"

static int usage(struct error *e)
{
    return error_set(e, EXIT_USAGE, USAGE_LINE);
}

static const char *default_database(void)
{
    const char *named = getenv("MEMSCOPE_HISTORY_DB");
    return named && *named ? named : DEFAULT_DATABASE;
}

/* add DATABASE RESULTS...: the first argument is the database when it is a file (no folder), a connection
 * string, or a name ending as a database's (.csv: the history's name before it was a database, which older
 * scripts still give). A mistyped folder is none of those, and is refused as a folder. */
static int names_a_database(const char *path)
{
    static const char *const endings[] = {".db", ".sqlite", ".sqlite3", ".sql", ".csv"};
    struct stat st;
    if (stat(path, &st) == 0)
        return !S_ISDIR(st.st_mode);
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof endings / sizeof *endings; ++i)
        if (n > strlen(endings[i]) && !strcmp(path + n - strlen(endings[i]), endings[i]))
            return 1;
    return store_target_is_postgres(path);
}

static void report_added(const struct results_folder *run, int added, const struct store *s)
{
    if (added)
        printf("history: %s recorded in %s\n", run->dir, store_name(s));
    else
        printf("history: %s: the run of %s at %s on %s is recorded already; nothing added\n", run->dir,
               results_environment(run, "git_commit"), results_environment(run, "time_utc"),
               results_environment(run, "gpu_name"));
}

/* Every folder is read (and refused, if it must be) before the database is touched. */
static int add(struct invocation *in, struct error *e)
{
    int first = 0, opened = 0;
    struct store *s = NULL;
    if (!in->db && in->n >= 2 && names_a_database(in->args[0]))
        in->db = in->args[first++];
    if (!in->db)
        in->db = default_database();
    int n = in->n - first;
    struct results_folder *runs = calloc((size_t)n + 1, sizeof *runs);
    int *added = calloc((size_t)n + 1, sizeof *added);
    if (!runs || !added) {
        free(runs);
        free(added);
        return error_set(e, EXIT_RUNTIME, "out of memory");
    }
    /* opened counts the folders to close, one that history_check_run refused among them */
    while (opened < n && !results_folder_open(in->args[first + opened], &runs[opened], e) &&
           !history_check_run(&runs[opened++], e))
        ;
    if (!e->code && !history_open(in->db, 1, &s, e) && !history_add_runs(s, runs, n, added, e))
        for (int i = 0; i < n; ++i)
            report_added(&runs[i], added[i], s);
    store_close(s);
    for (int i = 0; i < opened; ++i)
        results_folder_close(&runs[i]);
    free(runs);
    free(added);
    return e->code;
}

/* The CSV is read and checked before the database is touched, as add reads its folders first. */
static int migrate(struct invocation *in, struct error *e)
{
    struct store *s;
    struct csv_table t;
    int added, present;
    if (history_read_csv(in->args[0], &t, e))
        return e->code;
    if (!history_open(in->db, 1, &s, e)) {
        if (!history_migrate_csv(s, &t, &added, &present, e))
            printf("history: %s: %d run%s recorded in %s, %d recorded already\n", in->args[0], added,
                   added == 1 ? "" : "s", store_name(s), present);
        store_close(s);
    }
    csv_table_free(&t);
    return e->code;
}

/* A command that reads: it prints to standard output. */
typedef int (*print_function)(struct store *, const struct history_query *, FILE *, struct error *);

static int read_only(struct invocation *in, print_function print, struct error *e)
{
    struct store *s;
    if (history_open(in->db, 0, &s, e))
        return e->code;
    print(s, &in->q, stdout, e);
    store_close(s);
    return e->code;
}

static int print_runs(struct store *s, const struct history_query *q, FILE *out, struct error *e)
{
    (void)q;
    return history_print_runs(s, out, e);
}

static int print_export(struct store *s, const struct history_query *q, FILE *out, struct error *e)
{
    (void)q;
    return history_export(s, out, e);
}

static int print_dump(struct store *s, const struct history_query *q, FILE *out, struct error *e)
{
    (void)q;
    return history_dump(s, out, e);
}

/* chart-data [DATABASE] DATA_DIR: the database as an argument is the form history-render used before --db. */
static int chart_data(struct invocation *in, struct error *e)
{
    const char *db = in->n == 2 ? in->args[0] : in->db;
    if (output_path_given("DATA_DIR", in->args[in->n - 1], e))
        return e->code;
    return history_chart_data(db, in->q.gpu, in->q.shape, in->q.floor, in->args[in->n - 1], e);
}

/* A command writes or draws (run), or reads (print: series' one argument is the variant). */
struct command {
    const char *name;
    int (*run)(struct invocation *, struct error *);
    print_function print;
    unsigned options;
    int least, most; /* arguments */
};

static const struct command commands[] = {
    {"add", add, NULL, OPT_DB, 1, ANY},
    {"migrate", migrate, NULL, OPT_DB, 1, 1},
    {"runs", NULL, print_runs, OPT_DB, 0, 0},
    {"series", NULL, history_print_series, OPT_DB | OPT_GPU | OPT_WIDTH | OPT_FLOOR, 1, 1},
    {"steps", NULL, history_print_steps, OPT_DB | OPT_GPU | OPT_WIDTH | OPT_VARIANT | OPT_FLOOR, 0, 0},
    {"noise", NULL, history_print_noise, OPT_DB | OPT_GPU | OPT_WIDTH, 0, 0},
    {"export", NULL, print_export, OPT_DB, 0, 0},
    {"dump", NULL, print_dump, OPT_DB, 0, 0},
    {"chart-data", chart_data, NULL, OPT_DB | OPT_GPU | OPT_WIDTH | OPT_FLOOR, 1, 2},
};

/* --width's size: a width W, refused as ever when it is no whole number from 1 to MOST_EXTENT, or a shape RxCxI
 * of such numbers. */
static int parse_size(const char *text, struct product_shape *shape, struct error *e)
{
    long width;
    if (!strchr(text, 'x')) {
        if (args_whole_number("--width", text, 1, MOST_EXTENT, NULL, &width, e))
            return e->code;
        *shape = product_shape_square((int)width);
        return 0;
    }
    if (product_shape_parse(text, MOST_EXTENT, shape) || !shape->rows || !shape->cols || !shape->inner)
        return error_set(e, EXIT_USAGE, "--width: '%s' is neither a width W nor a product's shape RxCxI (whole "
                                        "numbers from 1 to %d)", text, MOST_EXTENT);
    return 0;
}

/* The command's options, taken from one table so that each means the same in every command. */
static int parse(const struct command *c, int argc, char **argv, struct invocation *in, bool *help, struct error *e)
{
    const struct arg_option all[] = {
        {"db", 0, ARG_TEXT, &in->db, 0, 0, NULL},
        {"gpu", 0, ARG_TEXT, &in->q.gpu, 0, 0, NULL},
        {"width", 0, ARG_TEXT, &in->size, 0, 0, NULL},
        {"variant", 0, ARG_TEXT, &in->q.variant, 0, 0, NULL},
        {"floor", 0, ARG_REAL, &in->floor_pct, 0, 100, NULL},
    };
    struct arg_option options[sizeof all / sizeof *all + 1];
    int n = 0;
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        if (c->options & (1u << i))
            options[n++] = all[i];
    options[n++] = (struct arg_option){"help", 'h', ARG_FLAG, help, 0, 0, NULL};
    if (args_parse(argc - 1, argv + 1, options, n, in->args, c->most < argc ? c->most : argc, &in->n, e))
        return e->code;
    if (!*help && in->n < c->least)
        return usage(e);
    in->q.floor = in->floor_pct / 100;
    return in->size ? parse_size(in->size, &in->q.shape, e) : 0;
}

static int run_command(int argc, char **argv, struct error *e)
{
    const struct command *c = commands;
    while (c < commands + sizeof commands / sizeof *commands && strcmp(argv[1], c->name))
        ++c;
    if (c == commands + sizeof commands / sizeof *commands)
        return error_set(e, EXIT_USAGE, argv[1][0] == '-' ? "'%s': give the command first; " USAGE_LINE
                                                          : "unknown command '%s'; " USAGE_LINE, argv[1]);
    struct invocation in = {.args = calloc((size_t)argc, sizeof *in.args), .floor_pct = 100 * STEPS_DEFAULT_FLOOR};
    bool help = false;
    if (!in.args)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    if (!parse(c, argc, argv, &in, &help, e) && help)
        fputs(help_text, stdout);
    else if (!e->code) {
        /* add may name its database first, before the folders */
        if (!in.db && c->run != add)
            in.db = default_database();
        if (c->print && in.n)
            in.q.variant = in.args[0];
        if (c->print)
            read_only(&in, c->print, e);
        else
            c->run(&in, e);
    }
    free(in.args);
    return e->code;
}

int main(int argc, char **argv)
{
    struct error e = {0};
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
        fputs(help_text, stdout);
    else if (argc >= 2)
        run_command(argc, argv, &e);
    else
        usage(&e);
    if (e.code)
        fprintf(stderr, "memscope-history: %s\n", e.message);
    return e.code;
}
