#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../common/paths.h"
#include "cells.h"
#include "pages.h"

struct report_page {
    const char *name, *script;
    report_page_writer *write;
};

#define REPORT_PAGE_ROW(name, script, writer) {name, script, writer},
static const struct report_page run_pages[] = {REPORT_PAGES(REPORT_PAGE_ROW)},
                                program_pages[] = {PROGRAM_PAGES(REPORT_PAGE_ROW)};
#undef REPORT_PAGE_ROW

#define MAX_PAGES (sizeof run_pages / sizeof run_pages[0])
_Static_assert(sizeof program_pages / sizeof program_pages[0] <= MAX_PAGES, "MAX_PAGES holds the longer list");

int report_draws_shared_data(const struct report_model *m, struct page_output *out, struct error *e)
{
    (void)m;
    (void)out;
    (void)e;
    return 0;
}

int report_page_numbered(struct page_output *out, const char *variable, int copies, struct error *e)
{
    if (copies > REPORT_MAX_COPIES)
        return error_set(e, EXIT_USAGE, "%s: %d pages, more than the report's %d", variable, copies,
                         REPORT_MAX_COPIES);
    out->copies = copies;
    out->numbered_by = variable;
    for (int i = 0; i < copies; ++i)
        snprintf(out->number[i], sizeof out->number[i], "%d", i + 1);
    return 0;
}

/* One page in both lists: pages.tsv (name, script, setup), from which report-render draws a PNG each, and
 * pages.gp, which report.gp loads to draw them all into the PDF. setup is gnuplot assignments, or "". */
static void list_page(FILE *tsv, FILE *gp, const char *name, const char *script, const char *setup)
{
    fprintf(tsv, "%s\t%s.gp\t%s\n", name, script, setup);
    fprintf(gp, "%s%sload scriptdir.'/%s.gp'\n", setup, *setup ? "; " : "", script);
}

/* Each copy of a page the writer drew; a number that is not a whole one is given to gnuplot as text. */
static void list_copies(FILE *tsv, FILE *gp, const struct report_page *p, const struct page_output *out)
{
    char name[96], setup[128];
    for (int i = 0; i < out->copies; ++i) {
        if (!out->numbered_by) {
            list_page(tsv, gp, p->name, p->script, "");
            continue;
        }
        const char *number = out->number[i];
        bool whole = number[strspn(number, "0123456789")] == '\0';
        snprintf(name, sizeof name, "%s-%s", p->name, number);
        snprintf(setup, sizeof setup, whole ? "%s=%s" : "%s='%s'", out->numbered_by, number);
        list_page(tsv, gp, name, p->script, setup);
    }
}

/* A run of no square product (memscope -s 8192x3072x1024) has no largest width: only these pages draw it. */
static bool drawn_without_a_square(const struct report_page *p)
{
    static const char *const pages[] = {"title", "summary", "shapes", "timeline", "validate", "compare"};
    for (size_t i = 0; i < sizeof pages / sizeof *pages; ++i)
        if (strcmp(p->name, pages[i]) == 0)
            return true;
    return false;
}

int report_write_pages(const struct report_model *m, const char *dir, FILE *variables, struct error *e)
{
    const struct report_page *pages = m->program ? program_pages : run_pages;
    const size_t count = m->program ? sizeof program_pages / sizeof program_pages[0] : MAX_PAGES;
    struct page_output drawn[MAX_PAGES];
    char tsv_path[PATH_IN_FOLDER_LEN], gp_path[PATH_IN_FOLDER_LEN];
    for (size_t i = 0; i < count; ++i) {
        bool drawn_here = m->program || m->widths > 0 || drawn_without_a_square(&pages[i]);
        drawn[i] = (struct page_output){.dir = dir, .variables = variables, .copies = drawn_here};
        if (drawn_here && pages[i].write(m, &drawn[i], e))
            return e->code;
    }
    FILE *tsv = report_open(dir, "pages.tsv", tsv_path, sizeof tsv_path, e);
    FILE *gp = tsv ? report_open(dir, "pages.gp", gp_path, sizeof gp_path, e) : NULL;
    for (size_t i = 0; gp && i < count; ++i)
        list_copies(tsv, gp, &pages[i], &drawn[i]);
    if (tsv)
        report_close(tsv, tsv_path, e);
    if (gp)
        report_close(gp, gp_path, e);
    return e->code;
}
