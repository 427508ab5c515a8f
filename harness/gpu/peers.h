/*
 * The processes of one profiled program on this host, as far as their collectives go, so that a replay never runs
 * beside one. CUPTI's kernel replay saves the device memory of the replaying process before the kernel's first pass
 * and restores it before each later one. A collective running meanwhile on another GPU writes into that memory
 * (NCCL's kernels write their data and progress flags into the peer's buffers as soon as they run, before the peer's
 * own side has started); the restore undoes those writes, and both sides then wait for ever for what was undone.
 *
 * So the processes share a file of slots, one per process that launched a collective or replays: how many
 * collectives each has launched and how many of them have finished (a host function queued behind each on its
 * stream counts it). A replay runs only while every collective launched on this host has finished, and none starts
 * until it is done: it holds the file's lock alone, and a collective's launch takes it shared. Where another process
 * that launched more collectives than this one has one running, that one may wait for this process, so the replay
 * cannot wait for it: the launch is timed only. Peers on other hosts are not seen.
 *
 * Plain C and no CUDA: the injection library calls it with its run's file (inject/protocol.h: INJECT_PEERS_FILE).
 */
#ifndef MEMSCOPE_GPU_PEERS_H
#define MEMSCOPE_GPU_PEERS_H

#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"

#define PEERS_SLOTS 256

/* This process's place in the file at path (opened, mapped and a slot taken at the first call in each process). */
int peers_join(const char *path, struct error *e);

/* A collective's launch, at its entry: it waits while another process replays, then counts the launch (counted
 * even where the lock fails). Returns the counter its finish adds to (peers_collective_finished's argument), NULL
 * where this process has not joined. */
void *peers_collective_launching(void);
/* The collective has finished (a CUDA host function: it runs on the driver's thread). */
void peers_collective_finished(void *counter);

enum peers_answer {
    PEERS_CLEAR,       /* no collective is running on this host, and none starts until peers_replay_end */
    PEERS_PEER_AHEAD,  /* another process that launched more collectives has one running: it may wait for this one */
    PEERS_STILL_BUSY,  /* collectives were still running after the wait */
    PEERS_NO_LOCK,     /* the file could not be locked (errno says why) */
};
/* Before a replay: waits up to wait_s for every collective launched on this host to finish (not again while none
 * has finished since the last wait ran out: one of this process's may wait for a peer that waits, on the host, for
 * this process). CLEAR holds the lock until peers_replay_end; the others hold nothing. */
enum peers_answer peers_replay_begin(double wait_s);
void peers_replay_end(void);

/* What the protocol cost this process, in milliseconds: its replays' waits in peers_replay_begin (for the lock and
 * for collectives to finish), and its collectives' launches' waits for the lock (for a peer's replay to end). */
struct peers_waits {
    double replay_ms, launch_ms;
};
struct peers_waits peers_waited(void);

#endif
