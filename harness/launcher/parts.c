#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../common/paths.h"
#include "../inject/protocol.h"
#include "driver.h"
#include "merge.h"
#include "parts.h"

static FILE *open_in(const char *dir, const char *name)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return fopen(path, "r");
}

/* The mark's counts after the selected, in the order they were added; a mark written before one was added ends
 * before it (2026-11-30 added graph, then capturing), and the counts it lacks stay 0. */
static void read_later_counts(FILE *f, struct part *p)
{
    const char *const formats[] = {" timed_only %zu", " graph %zu", " capturing %zu"};
    size_t *const counts[] = {&p->timed_only, &p->graph, &p->capturing};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0] && fscanf(f, formats[i], counts[i]) == 1; ++i)
        continue;
}

void part_read(const char *dir, struct part *p)
{
    FILE *f;
    *p = (struct part){.state = PART_ABSENT};
    if ((f = open_in(dir, INJECT_ERROR_FILE))) {
        p->state = PART_FAILED;
        if (fscanf(f, "%d ", &p->code) != 1 || !fgets(p->message, sizeof p->message, f))
            snprintf(p->message, sizeof p->message, "its error file cannot be read");
        p->message[strcspn(p->message, "\n")] = '\0';
        p->code = p->code > 0 ? p->code : EXIT_RUNTIME;
        fclose(f);
        return;
    }
    if ((f = open_in(dir, INJECT_COMPLETE_MARK))) {
        if (fscanf(f, "launches %zu selected %zu", &p->launches, &p->selected) == 2) {
            p->state = PART_COMPLETE;
            read_later_counts(f, p);
        }
        fclose(f);
        if (p->state == PART_COMPLETE)
            return;
    }
    if ((f = open_in(dir, INJECT_STARTED_MARK))) {
        p->state = PART_STARTED;
        fclose(f);
    }
}

static bool has_children(const char *folder)
{
    static struct part_names names;
    struct error ignored = {0};
    return merge_list_children(folder, &names, &ignored) == 0 && names.n > 0;
}

/* Why a part is not complete, for a message that names it. */
static int part_error(const char *where, const struct part *p, struct error *e)
{
    if (p->state == PART_FAILED)
        return error_set(e, p->code, "%s: %s", where, p->message);
    return error_set(e, EXIT_RUNTIME,
                     "%s: recording started but nothing was written at the process's exit: it ended without "
                     "running its exit handlers (_exit, abort, exec), or was still running when the program ended",
                     where);
}

/* The parts of the processes the program started, each checked; *children counts them, *sum adds their launches. */
static int check_children(const char *folder, int *children, struct part *sum, struct error *e)
{
    static struct part_names names;
    char dir[PATH_IN_FOLDER_LEN + MERGE_PART_NAME_LEN + 2];
    struct part p;
    *children = 0;
    if (merge_list_children(folder, &names, e))
        return e->code;
    for (size_t i = 0; i < names.n && !e->code; ++i) {
        ++*children;
        snprintf(dir, sizeof dir, "%s/%s", folder, names.at[i].dir);
        part_read(dir, &p);
        if (p.state != PART_COMPLETE)
            part_error(dir, &p, e);
        sum->launches += p.launches;
        sum->selected += p.selected;
        sum->timed_only += p.timed_only;
        sum->graph += p.graph;
        sum->capturing += p.capturing;
    }
    return e->code;
}

static int no_kernel(const struct results_dir *d, struct error *e)
{
    if (rmdir(d->partial_path) != 0)
        return error_set(e, EXIT_NO_GPU, "the program launched no kernel: CUDA never started in it (%s is left)",
                         d->partial_path);
    char why[512];
    if (driver_finds_no_gpu(why, sizeof why))
        return error_set(e, EXIT_NO_GPU, "the program launched no kernel: CUDA never started in it, so nothing was "
                                         "profiled and no results folder is left; %s", why);
    return error_set(e, EXIT_NO_GPU, "the program launched no kernel: CUDA never started in it, so nothing was "
                                     "profiled and no results folder is left");
}

/* What the injection library writes into a part (part.c, protocol.h): all memscope removes of a part it drops. */
static const char *const part_files[] = {INJECT_STARTED_MARK, INJECT_COMPLETE_MARK, "environment.csv", "launches.csv",
                                         "metrics.csv", "stalls.csv", "trace.json", "timeline.csv", "lines.csv",
                                         "instructions.csv", INJECT_SOURCE_CAPTURE};

static void remove_part_files(const char *dir)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    for (size_t i = 0; i < sizeof part_files / sizeof *part_files; ++i) {
        snprintf(path, sizeof path, "%s/%s", dir, part_files[i]);
        unlink(path);
    }
}

static bool is_part_file(const char *name)
{
    for (size_t i = 0; i < sizeof part_files / sizeof *part_files; ++i)
        if (strcmp(part_files[i], name) == 0)
            return true;
    return false;
}

/* Whether a child's folder holds the library's files alone: one that holds another's is not memscope's to remove. */
static bool holds_only_part_files(const char *dir)
{
    DIR *d = opendir(dir);
    bool only = d != NULL;
    for (struct dirent *entry; only && (entry = readdir(d));)
        only = strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0 || is_part_file(entry->d_name);
    if (d)
        closedir(d);
    return only;
}

static bool launched_nothing(const char *dir)
{
    struct part p;
    part_read(dir, &p);
    return p.state == PART_COMPLETE && p.launches == 0;
}

void parts_drop_idle(const char *folder)
{
    static struct part_names names;
    char dir[PATH_IN_FOLDER_LEN + MERGE_PART_NAME_LEN + 2];
    struct error ignored = {0};
    size_t kept = 0;
    if (merge_list_children(folder, &names, &ignored) != 0)
        return;
    for (size_t i = 0; i < names.n; ++i) {
        snprintf(dir, sizeof dir, "%s/%s", folder, names.at[i].dir);
        if (!launched_nothing(dir) || !holds_only_part_files(dir)) {
            ++kept;
            continue;
        }
        remove_part_files(dir);
        rmdir(dir);
    }
    if (kept > 0 && launched_nothing(folder))
        remove_part_files(folder);
}

int parts_check_run(const char *folder, struct part *p, struct error *e)
{
    int children;
    struct part sum = {.state = PART_COMPLETE};
    part_read(folder, p);
    if (check_children(folder, &children, &sum, e))
        return e->code;
    if (p->state != PART_ABSENT && p->state != PART_COMPLETE)
        return part_error(folder, p, e);
    if (p->state == PART_ABSENT && children == 0)
        return error_set(e, EXIT_RUNTIME, "%s: no process of the program left a part", folder);
    p->state = PART_COMPLETE;
    p->launches += sum.launches;
    p->selected += sum.selected;
    p->timed_only += sum.timed_only;
    p->graph += sum.graph;
    p->capturing += sum.capturing;
    return 0;
}

int parts_check(const struct results_dir *d, struct part *p, struct error *e)
{
    part_read(d->partial_path, p);
    if (p->state == PART_ABSENT && !has_children(d->partial_path))
        return no_kernel(d, e);
    if (parts_check_run(d->partial_path, p, e))
        return e->code;
    if (p->launches == 0)
        return error_set(e, EXIT_NO_GPU, "no process of the program launched a kernel: what CUDA recorded (copies, "
                                         "sets, NVTX ranges) is in %s",
                         d->partial_path);
    return 0;
}

int parts_open_run(const char *dir, struct part_names *parts, struct part_pairing *pairing, struct error *e)
{
    parts_drop_idle(dir);
    if (merge_move_program_part(dir, e) || merge_list_parts(dir, parts, e))
        return e->code;
    return pairing ? part_pairing_run(pairing, dir, parts, e) : 0;
}
