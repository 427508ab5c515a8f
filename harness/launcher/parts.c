#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../inject/protocol.h"
#include "driver.h"
#include "parts.h"

static FILE *open_in(const char *dir, const char *name)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return fopen(path, "r");
}

void part_read(const char *dir, struct part *p)
{
    FILE *f;
    *p = (struct part){PART_ABSENT, 0, 0, 0, ""};
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
        if (fscanf(f, "launches %zu selected %zu", &p->launches, &p->selected) == 2)
            p->state = PART_COMPLETE;
        fclose(f);
        if (p->state == PART_COMPLETE)
            return;
    }
    if ((f = open_in(dir, INJECT_STARTED_MARK))) {
        p->state = PART_STARTED;
        fclose(f);
    }
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

/* The parts of the processes the program started, each checked; *children counts them. */
static int check_children(const char *folder, int *children, struct error *e)
{
    DIR *d = opendir(folder);
    long pid;
    char dir[PATH_IN_FOLDER_LEN + 32];
    struct part p;
    *children = 0;
    if (!d)
        return error_set(e, EXIT_OUTPUT, "cannot read %s: %s", folder, strerror(errno));
    for (struct dirent *entry; !e->code && (entry = readdir(d));) {
        if (sscanf(entry->d_name, INJECT_CHILD_PART, &pid) != 1)
            continue;
        ++*children;
        snprintf(dir, sizeof dir, "%s/%s", folder, entry->d_name);
        part_read(dir, &p);
        if (p.state != PART_COMPLETE)
            part_error(dir, &p, e);
    }
    closedir(d);
    return e->code;
}

static int no_kernel(const struct results_dir *d, int children, struct error *e)
{
    if (children)
        return error_set(e, EXIT_NO_GPU,
                         "the program launched no kernel itself; the %d process(es) it started left their parts in "
                         "%s/process-<pid>/ (run the program that uses CUDA directly, or exec it from a script)",
                         children, d->partial_path);
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

int parts_check(const struct results_dir *d, struct part *p, struct error *e)
{
    int children;
    part_read(d->partial_path, p);
    if (check_children(d->partial_path, &children, e))
        return e->code;
    if (p->state == PART_ABSENT)
        return no_kernel(d, children, e);
    if (p->state != PART_COMPLETE)
        return part_error(d->partial_path, p, e);
    if (p->launches == 0)
        return error_set(e, EXIT_NO_GPU, "the program launched no kernel: what CUDA recorded (copies, sets, NVTX "
                                         "ranges) is in %s",
                         d->partial_path);
    return 0;
}
