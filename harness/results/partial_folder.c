#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/paths.h"
#include "partial_folder.h"

static int parent_is_writable(const char *path, struct error *e)
{
    char copy[PATH_LEN];
    snprintf(copy, sizeof copy, "%s", path);
    const char *parent = dirname(copy);
    struct stat st;
    if (stat(parent, &st) != 0)
        return error_set(e, EXIT_OUTPUT, "cannot write results to %s: folder %s: %s", path, parent, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return error_set(e, EXIT_OUTPUT, "cannot write results to %s: %s is not a folder", path, parent);
    if (access(parent, W_OK | X_OK) != 0)
        return error_set(e, EXIT_OUTPUT, "cannot write results to %s: folder %s: %s", path, parent, strerror(errno));
    return 0;
}

static int must_not_exist(const char *path, const char *why, struct error *e)
{
    struct stat st;
    if (lstat(path, &st) == 0)
        return error_set(e, EXIT_OUTPUT, "%s already exists%s", path, why);
    return 0;
}

static void default_path(char *buf, size_t len)
{
    char stamp[32];
    time_t now = time(NULL);
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime(&now));
    snprintf(buf, len, "%s/%s", DEFAULT_RESULTS_ROOT, stamp);
    struct stat st;
    for (int i = 2; stat(buf, &st) == 0; ++i)
        snprintf(buf, len, "%s/%s-%d", DEFAULT_RESULTS_ROOT, stamp, i);
}

int output_path_given(const char *what, const char *path, struct error *e)
{
    return *path ? 0 : error_set(e, EXIT_USAGE, "%s: empty path", what);
}

int results_dir_plan(struct results_dir *r, const char *requested, struct error *e)
{
    if (requested && output_path_given("--out", requested, e))
        return e->code;
    if (requested) {
        if (strlen(requested) >= sizeof r->final_path)
            return error_set(e, EXIT_OUTPUT, "--out: path too long");
        snprintf(r->final_path, sizeof r->final_path, "%s", requested);
        size_t len = strlen(r->final_path);
        while (len > 1 && r->final_path[len - 1] == '/')
            r->final_path[--len] = '\0';
        r->in_default_root = false;
    } else {
        default_path(r->final_path, sizeof r->final_path);
        r->in_default_root = true;
    }
    snprintf(r->partial_path, sizeof r->partial_path, "%s.partial", r->final_path);
    if (must_not_exist(r->final_path, " (choose a new --out folder)", e) ||
        must_not_exist(r->partial_path, " (left by an interrupted run: remove it)", e))
        return e->code;
    struct stat st;
    if (r->in_default_root && stat(DEFAULT_RESULTS_ROOT, &st) != 0)
        return parent_is_writable(DEFAULT_RESULTS_ROOT, e);
    return parent_is_writable(r->final_path, e);
}

int results_dir_create(const struct results_dir *r, struct error *e)
{
    if (r->in_default_root && mkdir(DEFAULT_RESULTS_ROOT, 0777) != 0 && errno != EEXIST)
        return error_set(e, EXIT_OUTPUT, "cannot create %s: %s", DEFAULT_RESULTS_ROOT, strerror(errno));
    if (mkdir(r->partial_path, 0777) != 0)
        return error_set(e, EXIT_OUTPUT, "cannot create %s: %s", r->partial_path, strerror(errno));
    return 0;
}

int results_dir_commit(const struct results_dir *r, struct error *e)
{
    if (rename(r->partial_path, r->final_path) != 0)
        return error_set(e, EXIT_OUTPUT, "cannot rename %s to %s: %s", r->partial_path, r->final_path, strerror(errno));
    return 0;
}

int partial_file_open(struct partial_file *f, const char *path, struct error *e)
{
    f->stream = NULL;
    if (output_path_given("--out", path, e))
        return e->code;
    if (snprintf(f->final_path, sizeof f->final_path, "%s", path) >= (int)sizeof f->final_path)
        return error_set(e, EXIT_OUTPUT, "%s: path too long", path);
    snprintf(f->partial_path, sizeof f->partial_path, "%s.partial", path);
    if (must_not_exist(f->final_path, ": memscope replaces no file (choose another name, or move it away yourself)", e) ||
        must_not_exist(f->partial_path, ": memscope did not leave it, or cannot tell (move it away yourself)", e))
        return e->code;
    int fd = open(f->partial_path, O_WRONLY | O_CREAT | O_EXCL, 0666); /* never one that appeared meanwhile */
    if (fd < 0)
        return error_set(e, EXIT_OUTPUT, "cannot create %s: %s", f->partial_path, strerror(errno));
    if (!(f->stream = fdopen(fd, "w"))) {
        error_set(e, EXIT_OUTPUT, "cannot write %s: %s", f->partial_path, strerror(errno));
        close(fd);
        remove(f->partial_path);
    }
    return e->code;
}

int partial_file_finish(const struct partial_file *f, struct error *e)
{
    /* link, unlike rename, refuses a final path that appeared meanwhile: it is never replaced */
    if (!e->code && link(f->partial_path, f->final_path) != 0)
        error_set(e, EXIT_OUTPUT, "cannot rename %s to %s: %s", f->partial_path, f->final_path, strerror(errno));
    remove(f->partial_path); /* renamed by now, or never to look complete */
    return e->code;
}
