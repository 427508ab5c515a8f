#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/host_clock.h"
#include "../common/paths.h"
#include "gpu_lock.h"

#define POLL_MICROSECONDS 250000

#define MAX_HELD 16 /* GPUs one process holds the turn of */

/* The locks this process holds, one per GPU. */
static struct {
    char key[64];
    int fd;
    pid_t pid; /* a child forked from the holder inherits the table, not the turn */
} held[MAX_HELD];
static int n_held;

static bool holds(const char *key)
{
    for (int i = 0; i < n_held; ++i)
        if (strcmp(held[i].key, key) == 0 && held[i].pid == getpid())
            return true;
    return false;
}

void gpu_lock_key(const unsigned char uuid[16], char *key, size_t len)
{
    const unsigned char *b = uuid;
    snprintf(key, len, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
             b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

const char *gpu_lock_folder(void)
{
    const char *folder = getenv("MEMSCOPE_LOCK_DIR");
    return folder && *folder ? folder : "/tmp";
}

static int open_lock_file(const char *path, struct error *e)
{
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
        error_set(e, EXIT_OUTPUT, "cannot open the GPU's lock file %s: %s", path, strerror(errno));
        return -1;
    }
    /* Every user of a shared GPU takes turns through the same file, whoever made it: widen what the umask
     * narrowed. Only the file's owner may; for anyone else it was widened when it was made. */
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_uid == geteuid() && (st.st_mode & 0666) != 0666 && fchmod(fd, 0666) != 0)
        fprintf(stderr, "memscope: %s: other users cannot take turns on this GPU: %s\n", path, strerror(errno));
    return fd;
}

/* The holder wrote "pid N since HH:MM:SS UTC: command" when it took the lock. */
static void describe_holder(int fd, char *out, size_t len)
{
    ssize_t n = pread(fd, out, len - 1, 0);
    out[n > 0 ? n : 0] = '\0';
    out[strcspn(out, "\n")] = '\0';
    if (out[0] == '\0')
        snprintf(out, len, "a process that has not yet said who it is");
}

static void write_holder(int fd, const char *command)
{
    char text[1024];
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    int n = snprintf(text, sizeof text, "pid %ld since %02d:%02d:%02d UTC: %s\n", (long)getpid(), utc.tm_hour,
                     utc.tm_min, utc.tm_sec, command);
    n = n < (int)sizeof text ? n : (int)sizeof text - 1;
    /* A waiting run then names no holder: not worth failing this run for. */
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)n, 0) != n)
        fprintf(stderr, "memscope: cannot note this run in the GPU's lock file: %s\n", strerror(errno));
}

static int refuse(int fd, double wait_s, double waited_s, struct error *e)
{
    char holder[512];
    describe_holder(fd, holder, sizeof holder);
    close(fd);
    if (wait_s <= 0)
        return error_set(e, EXIT_BUSY, "the GPU is in use by another memscope run (%s); --wait-gpu 0 refuses at once",
                         holder);
    return error_set(e, EXIT_BUSY,
                     "the GPU is still in use by another memscope run (%s) after %.0f s of waiting; run again when it "
                     "has finished, or wait longer with --wait-gpu SECONDS",
                     holder, waited_s);
}

/* memscope run as the program memscope-profile profiles takes the lock, and the profiler in the same process then
 * asks for it again: the holder's line names this process. */
static bool held_by_this_process(int fd)
{
    char holder[512];
    long pid = 0;
    describe_holder(fd, holder, sizeof holder);
    return sscanf(holder, "pid %ld ", &pid) == 1 && pid == (long)getpid();
}

/* Waits for the flock (operation LOCK_EX or LOCK_SH) of the open file fd up to wait_s seconds; announces the wait
 * on log (NULL: silently). 0 when taken; 1 when this process holds it already under another descriptor; -1 with
 * EXIT_BUSY or EXIT_OUTPUT in e (fd closed). */
static int wait_for(int fd, const char *path, int operation, double wait_s, FILE *log, double *waited_s,
                    struct error *e)
{
    double start = host_seconds();
    bool announced = false;
    *waited_s = 0;
    while (flock(fd, operation | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK && errno != EINTR) {
            error_set(e, EXIT_OUTPUT, "cannot lock %s: %s", path, strerror(errno));
            close(fd);
            return -1;
        }
        *waited_s = host_seconds() - start;
        if (held_by_this_process(fd)) {
            close(fd);
            return 1;
        }
        if (*waited_s >= wait_s) {
            refuse(fd, wait_s, *waited_s, e);
            return -1;
        }
        if (!announced && log) {
            char holder[512];
            describe_holder(fd, holder, sizeof holder);
            fprintf(log, "memscope: the GPU is in use by another memscope run (%s); waiting up to %.0f s for it "
                         "(--wait-gpu SECONDS)\n", holder, wait_s);
            announced = true;
        }
        usleep(POLL_MICROSECONDS);
    }
    *waited_s = host_seconds() - start;
    if (announced)
        fprintf(log, "memscope: the GPU is free after %.1f s of waiting\n", *waited_s);
    return 0;
}

static int take(const char *folder, const char *key, const char *command, int operation, double wait_s, FILE *log,
                double *waited_s, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    *waited_s = 0;
    if (holds(key))
        return 0;
    if (n_held == MAX_HELD)
        return error_set(e, EXIT_OUTPUT, "more than %d GPUs in one process: their turns cannot be kept", MAX_HELD);
    snprintf(path, sizeof path, "%s/memscope-gpu-%s.lock", folder, key);
    int fd = open_lock_file(path, e);
    if (fd < 0)
        return e->code;
    int taken = wait_for(fd, path, operation, wait_s, log, waited_s, e);
    if (taken != 0)
        return taken < 0 ? e->code : 0;
    write_holder(fd, command);
    snprintf(held[n_held].key, sizeof held[n_held].key, "%s", key);
    held[n_held].pid = getpid();
    held[n_held++].fd = fd;
    return 0;
}

int gpu_lock_take(const char *folder, const char *key, const char *command, double wait_s, FILE *log,
                  double *waited_s, struct error *e)
{
    return take(folder, key, command, LOCK_EX, wait_s, log, waited_s, e);
}

int gpu_lock_take_shared(const char *folder, const char *key, const char *command, double wait_s, FILE *log,
                         double *waited_s, struct error *e)
{
    return take(folder, key, command, LOCK_SH, wait_s, log, waited_s, e);
}

int gpu_replay_turn_take(const char *folder, const char *key, double wait_s, int *fd, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    double waited_s;
    snprintf(path, sizeof path, "%s/memscope-gpu-%s.replay.lock", folder, key);
    *fd = open_lock_file(path, e);
    if (*fd < 0)
        return e->code;
    if (wait_for(*fd, path, LOCK_EX, wait_s, NULL, &waited_s, e) < 0) {
        *fd = -1;
        return e->code;
    }
    write_holder(*fd, "a rank's selected launch, replayed");
    return 0;
}

void gpu_replay_turn_give(int fd)
{
    if (fd >= 0)
        close(fd);
}

void gpu_lock_release(void)
{
    for (int i = 0; i < n_held; ++i)
        close(held[i].fd); /* closing the last descriptor releases the flock */
    n_held = 0;
}
