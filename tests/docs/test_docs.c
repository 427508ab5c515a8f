/*
 * The documentation checked against the code, where a machine can check it (tests run from the repository root):
 *   - every column of every CSV file of a results folder (harness/results/schema.h) is named, in backticks, in that
 *     file's section of docs/results-folder.md;
 *   - every metric group memscope --list-metric-groups prints has a row in docs/metrics.md's table of groups;
 *   - every program's --help is pasted whole in docs/command-line.md;
 *   - README.md stays a five-minute read: at most README_MAX_LINES lines, every docs/ page it links exists, and it
 *     links every page of docs/.
 * Each failure names everything missing at once.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../harness/profile/metric_catalog.h"
#include "../../harness/results/schema.h"
#include "../support/findings.h"
#include "../support/run_shell.h"

#define README "README.md"
#define README_MAX_LINES 250
#define RESULTS_FOLDER_DOC "docs/results-folder.md"
#define METRICS_DOC "docs/metrics.md"
#define COMMAND_LINE_DOC "docs/command-line.md"

/* The files of a results folder (and instructions.csv, which memscope-decode writes from one): not the comparison's
 * or the history's, which are no results folder. */
static const struct csv_schema *const folder_files[] = {&summary_csv,     &samples_csv,  &variants_csv, &metrics_csv,
                                                         &lines_csv,       &stalls_csv,   &environment_csv,
                                                         &validate_csv,    &timeline_csv, &launches_csv,
                                                         &instructions_csv};

/* The programs and the variables tests/run-all sets to their paths. */
static const struct {
    const char *name, *variable;
} programs[] = {
    {"memscope", "MEMSCOPE_BIN"},
    {"memscope-decode", "MEMSCOPE_DECODE_BIN"},
    {"memscope-report-data", "MEMSCOPE_REPORT_DATA"},
    {"memscope-compare", "MEMSCOPE_COMPARE"},
    {"memscope-history", "MEMSCOPE_HISTORY"},
    {"memscope-profile", "MEMSCOPE_PROFILE"},
};

static char doc[1 << 18];

/* The whole of path into doc. */
static const char *read_doc(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s is missing", path);
    size_t used = fread(doc, 1, sizeof doc - 1, f);
    doc[used] = '\0';
    fclose(f);
    if (used == sizeof doc - 1)
        fail_msg("%s is longer than this test reads (%zu bytes)", path, sizeof doc - 1);
    return doc;
}

/* Whether the line (up to its end) holds name in backticks: `name`, or an item of a backticked comma-separated list,
 * the header as the file writes it (`variant,precision,width`). */
static bool line_names(const char *line, const char *name)
{
    size_t len = strlen(name);
    const char *end = line + strcspn(line, "\n");
    for (const char *open = memchr(line, '`', (size_t)(end - line)); open;) {
        const char *close = memchr(open + 1, '`', (size_t)(end - open - 1));
        if (!close)
            return false;
        for (const char *item = open + 1; item < close; item += strcspn(item, ",`") + 1) {
            item += strspn(item, " ");
            if (strncmp(item, name, len) == 0 && strchr(",` ", item[len]))
                return true;
        }
        open = close + 1 < end ? memchr(close + 1, '`', (size_t)(end - close - 1)) : NULL;
    }
    return false;
}

static bool is_heading(const char *line)
{
    return line[0] == '#' && line[strspn(line, "#")] == ' ';
}

/* Whether the section whose heading names `file` (the heading and the text up to the next heading) names the
 * column in backticks; *found tells whether there is such a section at all. */
static bool section_names(const char *text, const char *file, const char *column, bool *found)
{
    char heading[64];
    bool inside = false;
    snprintf(heading, sizeof heading, "`%s`", file);
    for (const char *line = text; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != '\0')) {
        if (is_heading(line)) {
            const char *end = line + strcspn(line, "\n");
            const char *at = strstr(line, heading);
            inside = at && at < end;
            *found = *found || inside;
        }
        if (inside && line_names(line, column))
            return true;
    }
    return false;
}

static void every_results_folder_column_is_in_its_section_of_the_docs(void **state)
{
    (void)state;
    static struct findings found;
    const char *text = read_doc(RESULTS_FOLDER_DOC);
    for (size_t f = 0; f < sizeof folder_files / sizeof folder_files[0]; ++f) {
        const struct csv_schema *s = folder_files[f];
        bool has_section = false;
        for (int c = 0; c < s->n; ++c)
            if (!section_names(text, s->file, s->columns[c], &has_section) && has_section)
                note(&found, "%s: column `%s`", s->file, s->columns[c]);
        if (!has_section)
            note(&found, "%s: no section (a heading that names `%s`)", s->file, s->file);
    }
    expect_none(&found, RESULTS_FOLDER_DOC " must name every column of harness/results/schema.h, as `name`, in its "
                                          "file's section");
}

static void every_metric_group_has_a_row_in_the_docs(void **state)
{
    (void)state;
    static struct findings found;
    char row[64];
    int count;
    const struct metric_group *groups = metric_groups(&count);
    const char *text = read_doc(METRICS_DOC);
    for (int g = 0; g < count; ++g) {
        snprintf(row, sizeof row, "\n| `%s` |", groups[g].name);
        if (!strstr(text, row))
            note(&found, "group `%s` (%s)", groups[g].name, groups[g].what);
    }
    expect_none(&found, METRICS_DOC " must have a row \"| `group` | ...\" in its table for every metric group "
                                   "(harness/profile/metric_catalog.c)");
}

static void every_programs_help_is_pasted_whole_in_the_docs(void **state)
{
    (void)state;
    static struct findings found;
    static struct outcome o;
    static char block[sizeof o.output + 16];
    const char *text = read_doc(COMMAND_LINE_DOC);
    for (size_t p = 0; p < sizeof programs / sizeof programs[0]; ++p) {
        const char *path = getenv(programs[p].variable);
        char fallback[64];
        snprintf(fallback, sizeof fallback, "build/%s", programs[p].name);
        shell(&o, "%s --help", path ? path : fallback);
        assert_int_equal(o.exit_code, 0);
        snprintf(block, sizeof block, "```\n%s```\n", o.output);
        if (!strstr(text, block))
            note(&found, "%s --help (paste its output again, between ``` lines)", programs[p].name);
    }
    expect_none(&found, COMMAND_LINE_DOC " must hold each program's --help output as it prints it");
}

static void the_readme_is_at_most_250_lines(void **state)
{
    (void)state;
    int lines = 0;
    for (const char *c = read_doc(README); *c; ++c)
        lines += *c == '\n';
    if (lines > README_MAX_LINES)
        fail_msg(README " has %d lines, more than %d: move the reference into docs/", lines, README_MAX_LINES);
}

static void every_docs_link_of_the_readme_leads_to_a_page(void **state)
{
    (void)state;
    static const char link[] = "](docs/";
    static struct findings found;
    char path[256];
    const char *text = read_doc(README);
    for (const char *at = strstr(text, link); at; at = strstr(at + 1, link)) {
        const char *target = at + 2;
        size_t len = strcspn(target, ")#");
        snprintf(path, sizeof path, "%.*s", (int)len, target);
        if (access(path, R_OK) != 0)
            note(&found, "%s", path);
    }
    expect_none(&found, README " links docs/ pages that do not exist");
}

static void the_readme_links_every_page_of_docs(void **state)
{
    (void)state;
    static struct findings found;
    char link[300];
    const char *text = read_doc(README);
    DIR *d = opendir("docs");
    assert_non_null(d);
    for (struct dirent *entry = readdir(d); entry; entry = readdir(d)) {
        size_t n = strlen(entry->d_name);
        snprintf(link, sizeof link, "](docs/%s)", entry->d_name);
        if (n > 3 && strcmp(entry->d_name + n - 3, ".md") == 0 && !strstr(text, link))
            note(&found, "docs/%s", entry->d_name);
    }
    closedir(d);
    expect_none(&found, README "'s index of docs/ must link every page there");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_results_folder_column_is_in_its_section_of_the_docs),
        cmocka_unit_test(every_metric_group_has_a_row_in_the_docs),
        cmocka_unit_test(every_programs_help_is_pasted_whole_in_the_docs),
        cmocka_unit_test(the_readme_is_at_most_250_lines),
        cmocka_unit_test(every_docs_link_of_the_readme_leads_to_a_page),
        cmocka_unit_test(the_readme_links_every_page_of_docs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
