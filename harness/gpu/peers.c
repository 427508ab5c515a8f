#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/host_clock.h"
#include "peers.h"

#define POLL_NANOSECONDS 200000

/* One process's collectives; written by that process only (launched under the shared lock, finished by its host
 * functions), read by a replaying one under the lock alone. */
struct slot {
    int32_t pid; /* 0: free */
    int32_t unused;
    uint64_t launched;
    uint64_t finished;
};

static struct {
    pid_t pid; /* the process that joined: a child forked from it joins again, with a slot of its own */
    char path[4096];
    int fd;
    struct slot *slots;
    struct slot *mine;
    bool held; /* the lock, alone, for a replay */
    /* where the last wait ran out: while nothing has moved since, the next replay does not wait again */
    bool stalled;
    uint64_t stalled_launched, stalled_finished;
    uint64_t replay_wait_ns, launch_wait_ns; /* peers_waited's, added to by any thread */
} peers = {.fd = -1};

static void add_wait(uint64_t *total, double since_s)
{
    __atomic_add_fetch(total, (uint64_t)((host_seconds() - since_s) * 1e9), __ATOMIC_RELAXED);
}

static int lock(int operation)
{
    int r;
    while ((r = flock(peers.fd, operation)) != 0 && errno == EINTR)
        ;
    return r;
}

/* A process that exited, however, leaves its slot to be taken and its collectives out of the count. */
static bool alive(int32_t pid)
{
    return pid == getpid() || kill(pid, 0) == 0 || errno == EPERM;
}

static int map_file(const char *path, struct error *e)
{
    struct stat st;
    size_t size = PEERS_SLOTS * sizeof(struct slot);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
        return error_set(e, EXIT_OUTPUT, "cannot open %s, which the program's processes share: %s", path,
                         strerror(errno));
    /* every process grows it to the one size; the bytes it adds read 0, a free slot */
    if (fstat(fd, &st) != 0 || ((size_t)st.st_size < size && ftruncate(fd, (off_t)size) != 0)) {
        close(fd);
        return error_set(e, EXIT_OUTPUT, "cannot size %s: %s", path, strerror(errno));
    }
    void *slots = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (slots == MAP_FAILED) {
        close(fd);
        return error_set(e, EXIT_OUTPUT, "cannot map %s: %s", path, strerror(errno));
    }
    if (peers.fd >= 0) { /* another file's, or the parent's, inherited: its lock stays the parent's */
        munmap(peers.slots, size);
        close(peers.fd);
    }
    peers.fd = fd;
    peers.slots = slots;
    return 0;
}

static int take_slot(const char *path, struct error *e)
{
    if (lock(LOCK_EX) != 0)
        return error_set(e, EXIT_OUTPUT, "cannot lock %s: %s", path, strerror(errno));
    peers.mine = NULL;
    for (int i = 0; i < PEERS_SLOTS && !peers.mine; ++i) {
        struct slot *s = &peers.slots[i];
        int32_t pid = __atomic_load_n(&s->pid, __ATOMIC_ACQUIRE);
        if (pid == 0 || !alive(pid)) {
            __atomic_store_n(&s->launched, 0, __ATOMIC_RELAXED);
            __atomic_store_n(&s->finished, 0, __ATOMIC_RELAXED);
            __atomic_store_n(&s->pid, (int32_t)getpid(), __ATOMIC_RELEASE);
            peers.mine = s;
        }
    }
    lock(LOCK_UN);
    if (!peers.mine)
        return error_set(e, EXIT_RUNTIME, "more than %d processes of the program share %s", PEERS_SLOTS, path);
    return 0;
}

int peers_join(const char *path, struct error *e)
{
    if (peers.mine && peers.pid == getpid() && strcmp(peers.path, path) == 0)
        return 0;
    peers.mine = NULL;
    peers.replay_wait_ns = peers.launch_wait_ns = 0; /* a forked child's own, not its parent's */
    if (map_file(path, e) || take_slot(path, e))
        return e->code;
    peers.pid = getpid();
    snprintf(peers.path, sizeof peers.path, "%s", path);
    return 0;
}

static bool joined(void)
{
    return peers.mine && peers.pid == getpid();
}

void *peers_collective_launching(void)
{
    if (!joined())
        return NULL;
    double since = host_seconds();
    int locked = lock(LOCK_SH) == 0; /* without the lock, counted all the same: a replay then sees it */
    add_wait(&peers.launch_wait_ns, since);
    __atomic_add_fetch(&peers.mine->launched, 1, __ATOMIC_RELEASE);
    if (locked)
        lock(LOCK_UN);
    return &peers.mine->finished;
}

void peers_collective_finished(void *counter)
{
    __atomic_add_fetch((uint64_t *)counter, 1, __ATOMIC_RELEASE);
}

enum state { QUIET, RUNNING, AHEAD };

struct survey {
    enum state state;
    uint64_t launched, finished; /* this process's launches, and every live process's finished collectives */
};

/* Under the lock alone: whether a collective still runs, and whether another process that launched more than this
 * one has one running (a finished one had every process it needed). */
static struct survey survey(void)
{
    struct survey s = {QUIET, __atomic_load_n(&peers.mine->launched, __ATOMIC_ACQUIRE), 0};
    for (int i = 0; i < PEERS_SLOTS && s.state != AHEAD; ++i) {
        struct slot *slot = &peers.slots[i];
        int32_t pid = __atomic_load_n(&slot->pid, __ATOMIC_ACQUIRE);
        if (pid == 0 || !alive(pid))
            continue;
        uint64_t launched = __atomic_load_n(&slot->launched, __ATOMIC_ACQUIRE);
        uint64_t finished = __atomic_load_n(&slot->finished, __ATOMIC_ACQUIRE);
        bool running = finished < launched;
        s.finished += finished;
        if (slot != peers.mine && running && launched > s.launched)
            s.state = AHEAD; /* one of its collectives may be one this process has not launched yet */
        else if (running)
            s.state = RUNNING;
    }
    return s;
}

static bool still_stalled(const struct survey *s)
{
    return peers.stalled && s->launched == peers.stalled_launched && s->finished == peers.stalled_finished;
}

static enum peers_answer replay_begin(double wait_s)
{
    double deadline = host_seconds() + wait_s;
    for (;;) {
        if (lock(LOCK_EX) != 0)
            return PEERS_NO_LOCK;
        struct survey s = survey();
        if (s.state == QUIET) {
            peers.held = true;
            peers.stalled = false;
            return PEERS_CLEAR;
        }
        lock(LOCK_UN);
        if (s.state == AHEAD)
            return PEERS_PEER_AHEAD;
        if (still_stalled(&s) || host_seconds() >= deadline) {
            /* a collective of this process may wait for a peer that waits, on the host, for this process */
            peers.stalled = true;
            peers.stalled_launched = s.launched;
            peers.stalled_finished = s.finished;
            return PEERS_STILL_BUSY;
        }
        nanosleep(&(struct timespec){0, POLL_NANOSECONDS}, NULL);
    }
}

enum peers_answer peers_replay_begin(double wait_s)
{
    if (!joined())
        return PEERS_CLEAR;
    double since = host_seconds();
    enum peers_answer answer = replay_begin(wait_s);
    add_wait(&peers.replay_wait_ns, since);
    return answer;
}

struct peers_waits peers_waited(void)
{
    if (peers.pid != getpid()) /* a forked child that never joined: its parent's waits are not its own */
        return (struct peers_waits){0, 0};
    return (struct peers_waits){__atomic_load_n(&peers.replay_wait_ns, __ATOMIC_RELAXED) / 1e6,
                                __atomic_load_n(&peers.launch_wait_ns, __ATOMIC_RELAXED) / 1e6};
}

void peers_replay_end(void)
{
    if (peers.held && joined())
        lock(LOCK_UN);
    peers.held = false;
}
