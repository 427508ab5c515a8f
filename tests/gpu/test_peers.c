/*
 * The processes of one program take turns between replays and collectives (harness/gpu/peers.h): a replay waits
 * for a running collective and then runs, is kept back at once where a peer that launched more collectives has one
 * running (not where they finished), does not wait again while nothing moved, and a collective's launch waits for a
 * replay to end; each process adds up what it waited. The peers are child processes, as a program's ranks are; no
 * GPU is needed.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../harness/common/host_clock.h"
#include "../../harness/gpu/peers.h"
#include "../support/ready_child.h"
#include "../support/remove_tree.h"

static char folder[] = "/tmp/memscope-peers-XXXXXX";
static char path[sizeof folder + 32];

static int make_folder(void **state)
{
    static int test;
    (void)state;
    if (test == 0 && !mkdtemp(folder))
        return -1;
    snprintf(path, sizeof path, "%s/peers-%d", folder, ++test); /* a file of its own for each test */
    return 0;
}

static int remove_folder(void **state)
{
    (void)state;
    remove_tree(folder);
    return 0;
}

static void join(void)
{
    struct error e = {0};
    assert_int_equal(peers_join(path, &e), 0);
}

static void pause_ms(long ms)
{
    nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL);
}

struct peer {
    int collectives;
    long finish_ms, live_ms;
};

/* A peer: joins, launches its collectives, says so, then finishes them after finish_ms (-1: never), and exits after
 * live_ms. */
static void run_peer(int ready_fd, const void *arg)
{
    const struct peer *p = arg;
    struct error e = {0};
    void *counter = NULL;
    if (peers_join(path, &e) != 0)
        _exit(1);
    for (int i = 0; i < p->collectives; ++i)
        counter = peers_collective_launching();
    if (write(ready_fd, "y", 1) != 1)
        _exit(1);
    if (p->finish_ms >= 0) {
        pause_ms(p->finish_ms);
        for (int i = 0; i < p->collectives; ++i)
            peers_collective_finished(counter);
    }
    pause_ms(p->live_ms);
    _exit(0);
}

static pid_t start_peer(int collectives, long finish_ms, long live_ms)
{
    char said;
    struct peer p = {collectives, finish_ms, live_ms};
    return start_ready_child(run_peer, &p, &said);
}

/* This process launches n collectives, finished at once. */
static void launch_finished(int n)
{
    for (int i = 0; i < n; ++i) {
        void *counter = peers_collective_launching();
        assert_non_null(counter);
        peers_collective_finished(counter);
    }
}

static void a_replay_waits_for_a_running_collective_then_runs(void **state)
{
    (void)state;
    join();
    launch_finished(1);
    pid_t peer = start_peer(1, 300, 5000); /* level with this process, its collective running for 300 ms */
    double before_ms = peers_waited().replay_ms;
    double start = host_seconds();
    assert_int_equal(peers_replay_begin(5.0), PEERS_CLEAR);
    double waited = host_seconds() - start;
    peers_replay_end();
    double counted_ms = peers_waited().replay_ms - before_ms;
    stop_child(peer);
    assert_true(waited > 0.2);
    assert_true(waited < 4.0);
    assert_true(counted_ms > 200 && counted_ms <= waited * 1000);
}

static void a_peer_ahead_keeps_the_replay_back_at_once(void **state)
{
    (void)state;
    join();
    launch_finished(1);
    pid_t peer = start_peer(2, -1, 5000); /* its second collective waits for this process's */
    double start = host_seconds();
    assert_int_equal(peers_replay_begin(5.0), PEERS_PEER_AHEAD);
    double waited = host_seconds() - start;
    stop_child(peer);
    assert_true(waited < 1.0);
}

/* A collective that finished had every process it needed: one ahead of this process and finished bars nothing (a
 * pipeline's stages, a subgroup's collectives, launch unlike numbers for good). */
static void a_peer_ahead_whose_collectives_finished_bars_nothing(void **state)
{
    (void)state;
    join();
    launch_finished(1);
    pid_t peer = start_peer(3, 0, 5000);
    pause_ms(100); /* its three finished */
    double start = host_seconds();
    assert_int_equal(peers_replay_begin(5.0), PEERS_CLEAR);
    double waited = host_seconds() - start;
    peers_replay_end();
    stop_child(peer);
    assert_true(waited < 1.0);
}

static void a_wait_that_ran_out_is_not_repeated_while_nothing_moved(void **state)
{
    (void)state;
    join();
    void *mine = peers_collective_launching(); /* running: its peer has not joined it */
    assert_non_null(mine);
    double start = host_seconds();
    assert_int_equal(peers_replay_begin(0.3), PEERS_STILL_BUSY);
    double first = host_seconds() - start;
    start = host_seconds();
    assert_int_equal(peers_replay_begin(0.3), PEERS_STILL_BUSY);
    double second = host_seconds() - start;
    peers_collective_finished(mine);
    assert_int_equal(peers_replay_begin(0.3), PEERS_CLEAR);
    peers_replay_end();
    assert_true(first >= 0.3);
    assert_true(second < 0.1);
}

static void a_collective_waits_for_a_replay_to_end(void **state)
{
    (void)state;
    int go[2], done[2];
    join();
    assert_int_equal(pipe(go), 0);
    assert_int_equal(pipe(done), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { /* joined before the replay begins; launches once it has */
        struct error e = {0};
        char byte;
        if (peers_join(path, &e) != 0 || write(done[1], "j", 1) != 1 || read(go[0], &byte, 1) != 1)
            _exit(1);
        double start = host_seconds();
        peers_collective_launching();
        double waited[2] = {host_seconds() - start, peers_waited().launch_ms};
        _exit(write(done[1], waited, sizeof waited) == sizeof waited ? 0 : 1);
    }
    char joined = 0;
    assert_int_equal(read(done[0], &joined, 1), 1);
    assert_int_equal(peers_replay_begin(1.0), PEERS_CLEAR);
    assert_int_equal(write(go[1], "g", 1), 1);
    pause_ms(300);
    peers_replay_end();
    double waited[2] = {0}; /* as the child timed it, and as it counted it */
    assert_int_equal(read(done[0], waited, sizeof waited), sizeof waited);
    close(go[0]);
    close(go[1]);
    close(done[0]);
    close(done[1]);
    waitpid(pid, NULL, 0);
    assert_true(waited[0] > 0.2);
    assert_true(waited[1] > 200 && waited[1] <= waited[0] * 1000);
}

static void an_exited_process_leaves_its_collectives_out(void **state)
{
    (void)state;
    join();
    pid_t peer = start_peer(3, -1, 0); /* launches three, never finishes them, exits */
    waitpid(peer, NULL, 0);
    assert_int_equal(peers_replay_begin(1.0), PEERS_CLEAR);
    peers_replay_end();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(a_replay_waits_for_a_running_collective_then_runs, make_folder),
        cmocka_unit_test_setup(a_peer_ahead_keeps_the_replay_back_at_once, make_folder),
        cmocka_unit_test_setup(a_peer_ahead_whose_collectives_finished_bars_nothing, make_folder),
        cmocka_unit_test_setup(a_wait_that_ran_out_is_not_repeated_while_nothing_moved, make_folder),
        cmocka_unit_test_setup(a_collective_waits_for_a_replay_to_end, make_folder),
        cmocka_unit_test_setup(an_exited_process_leaves_its_collectives_out, make_folder),
    };
    return cmocka_run_group_tests(tests, NULL, remove_folder);
}
