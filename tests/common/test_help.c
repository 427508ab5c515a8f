/*
 * Every command the docs name answers --help and -h: its usage on standard output, nothing on standard error,
 * exit 0, whatever else it needs (no GPU, no results folder). The commands are read from docs/command-line.md, not
 * listed here: each program's section (## NAME, its --help pasted below in a ``` block whose first line is its
 * usage) and each row of the Scripts table (`NAME`, then its usage forms, `scripts/NAME ...`). What the command
 * prints must hold each usage form the docs give, spaces aside. A script of scripts/ named anywhere in docs/ or
 * README.md must have its row in that table, so that a new command cannot go unchecked. The programs are this
 * build's ($MEMSCOPE_BUILD, set by tests/run-all; default build/).
 */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../support/build_dir.h"
#include "../support/findings.h"
#include "../support/run_shell.h"

#define COMMAND_LINE_DOC "docs/command-line.md"
#define MAX_COMMANDS 64
#define MAX_FORMS 4

struct command {
    char name[64];
    char path[256];
    char forms[MAX_FORMS][256]; /* the usage forms the docs give */
    int n_forms;
};

static struct command commands[MAX_COMMANDS];
static int n_commands;

/* Runs of spaces and line breaks as one space, in place: the help may wrap a usage the table holds on one line. */
static void squeeze_spaces(char *text)
{
    char *to = text;
    for (const char *from = text; *from; ++from)
        if (!isspace((unsigned char)*from))
            *to++ = *from;
        else if (to > text && to[-1] != ' ')
            *to++ = ' ';
    *to = '\0';
}

static struct command *add_command(const char *name, const char *path_format, const char *prefix)
{
    if (n_commands == MAX_COMMANDS)
        fail_msg("more than %d commands in " COMMAND_LINE_DOC ": raise MAX_COMMANDS", MAX_COMMANDS);
    struct command *c = &commands[n_commands++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->path, sizeof c->path, path_format, prefix, name);
    return c;
}

/* A table row's cells: split at '|' not escaped as "\|". The second cell is the usage column. */
static const char *usage_cell(const char *row, char *cell, size_t len)
{
    int bars = 0;
    size_t used = 0;
    for (const char *at = row; *at; ++at) {
        if (*at == '|' && (at == row || at[-1] != '\\')) {
            if (++bars == 3)
                break;
            continue;
        }
        if (bars == 2 && used + 1 < len)
            cell[used++] = *at;
    }
    cell[used] = '\0';
    return cell;
}

/* Each `...` span of the usage cell is one form, its "\|" unescaped. */
static void read_forms(struct command *c, const char *cell)
{
    for (const char *at = strchr(cell, '`'); at && c->n_forms < MAX_FORMS; at = strchr(at + 1, '`')) {
        const char *end = strchr(at + 1, '`');
        if (!end)
            break;
        char *form = c->forms[c->n_forms++];
        size_t used = 0;
        for (const char *p = at + 1; p < end && used + 1 < sizeof c->forms[0]; ++p)
            if (!(*p == '\\' && p[1] == '|'))
                form[used++] = *p;
        form[used] = '\0';
        squeeze_spaces(form);
        at = end;
    }
}

/* The programs' sections, then the Scripts table's rows. */
static void read_commands(struct findings *found)
{
    FILE *f = fopen(COMMAND_LINE_DOC, "r");
    if (!f)
        fail_msg(COMMAND_LINE_DOC ": cannot be read");
    char line[2048], cell[1024];
    bool in_scripts = false, want_usage = false;
    struct command *program = NULL;
    n_commands = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!strncmp(line, "## ", 3)) {
            in_scripts = !strcmp(line + 3, "Scripts");
            /* a program's section is titled by its one-word name; "What memscope writes" is prose */
            bool named = !in_scripts && !strchr(line + 3, ' ');
            program = named ? add_command(line + 3, "%s/%s", build_dir()) : NULL;
        } else if (program && !strcmp(line, "```")) {
            want_usage = !program->n_forms;
        } else if (want_usage) {
            snprintf(program->forms[program->n_forms++], sizeof program->forms[0], "%.255s", line);
            squeeze_spaces(program->forms[program->n_forms - 1]);
            want_usage = false;
        } else if (in_scripts && !strncmp(line, "| `", 3)) {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(line + 3, "`"), line + 3);
            read_forms(add_command(name, "%s/%s", "scripts"), usage_cell(line, cell, sizeof cell));
        }
    }
    fclose(f);
    for (int i = 0; i < n_commands; ++i)
        if (!commands[i].n_forms)
            note(found, COMMAND_LINE_DOC ": %s has no usage (a program's --help in a ``` block, a script's "
                        "`scripts/NAME ...` in its row)", commands[i].name);
}

/* Whether the command answered as it should; says how it did not otherwise. */
static bool answers_help(const struct command *c, const char *arguments, const char *flag, struct findings *found)
{
    static struct outcome o, err;
    char errors[64];
    snprintf(errors, sizeof errors, "/tmp/memscope-help-%d.err", (int)getpid());
    /* Standard output alone; a command that ignored the flag and set to work is stopped. */
    shell(&o, "(timeout 60 %s %s %s 2>%s </dev/null)", c->path, arguments, flag, errors);
    shell(&err, "cat %s && rm %s", errors, errors);
    squeeze_spaces(o.output);
    int missing = -1;
    for (int i = 0; i < c->n_forms && missing < 0; ++i)
        if (!strstr(o.output, c->forms[i]))
            missing = i;
    bool answered = o.exit_code == 0 && missing < 0 && !err.output[0];
    if (!answered)
        note(found, "%s %s%s%s: expected exit 0, the usage \"%s\" on standard output and nothing on standard "
                    "error; got %d:\n%.600s\nstandard error:\n%.600s",
             c->path, arguments, *arguments ? " " : "", flag, missing < 0 ? c->forms[0] : c->forms[missing],
             o.exit_code, o.output, err.output);
    return answered;
}

/* memscope-history's commands take --help too: "memscope-history add --help" is its usage, not a folder. */
static const char *const history_commands[] = {"add", "chart-data"};

static void every_command_in_the_docs_answers_help_on_standard_output(void **state)
{
    (void)state;
    static struct findings found;
    memset(&found, 0, sizeof found);
    read_commands(&found);
    if (n_commands < 2)
        fail_msg(COMMAND_LINE_DOC ": found %d commands; its layout changed?", n_commands);
    for (int i = 0; i < n_commands; ++i) {
        if (!commands[i].n_forms)
            continue;
        answers_help(&commands[i], "", "--help", &found);
        answers_help(&commands[i], "", "-h", &found);
        for (size_t h = 0; !strcmp(commands[i].name, "memscope-history") && h < sizeof history_commands /
                                                                                      sizeof *history_commands; ++h)
            answers_help(&commands[i], history_commands[h], "--help", &found);
    }
    expect_none(&found, "every command docs/command-line.md names answers --help and -h with its usage on standard "
                        "output, nothing on standard error, exit 0");
}

static bool in_the_table(const char *name)
{
    for (int i = 0; i < n_commands; ++i)
        if (!strcmp(commands[i].path, name))
            return true;
    return false;
}

/* Every executable scripts/NAME the text names is a row of the table. */
static void find_scripts_named(const char *doc, struct findings *found)
{
    FILE *f = fopen(doc, "r");
    if (!f)
        fail_msg("%s: cannot be read", doc);
    char line[4096];
    for (int number = 1; fgets(line, sizeof line, f); ++number)
        for (const char *at = strstr(line, "scripts/"); at; at = strstr(at + 1, "scripts/")) {
            char path[256];
            struct stat st;
            snprintf(path, sizeof path, "%.*s", (int)strspn(at, "abcdefghijklmnopqrstuvwxyz0123456789_-/."), at);
            while (path[strlen(path) - 1] == '.' || path[strlen(path) - 1] == '/')
                path[strlen(path) - 1] = '\0';
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0 && !in_the_table(path))
                note(found, "%s:%d names %s, which has no row in " COMMAND_LINE_DOC "'s Scripts table", doc, number,
                     path);
        }
    fclose(f);
}

static void every_script_the_docs_name_has_its_row_in_the_command_line_table(void **state)
{
    (void)state;
    static struct findings found;
    memset(&found, 0, sizeof found);
    read_commands(&found);
    find_scripts_named("README.md", &found);
    DIR *d = opendir("docs");
    assert_non_null(d);
    for (struct dirent *entry; (entry = readdir(d));) {
        char doc[300];
        size_t n = strlen(entry->d_name);
        if (n > 3 && !strcmp(entry->d_name + n - 3, ".md")) {
            snprintf(doc, sizeof doc, "docs/%s", entry->d_name);
            find_scripts_named(doc, &found);
        }
    }
    closedir(d);
    expect_none(&found, "a script the docs name is a command: give it a row (name, usage, exit codes) in "
                        COMMAND_LINE_DOC);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_command_in_the_docs_answers_help_on_standard_output),
        cmocka_unit_test(every_script_the_docs_name_has_its_row_in_the_command_line_table),
    };
    return cmocka_run_group_tests_name("help", tests, NULL, NULL);
}
