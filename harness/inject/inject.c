/*
 * libmemscope-inject.so's CUDA entry point. The CUDA driver loads the library
 * named by CUDA_INJECTION64_PATH at start-up (cuInit) and calls
 * InitializeInjection; from then on CUPTI's Activity API records every kernel,
 * copy and set, and every runtime and driver call. At the process's exit the
 * records are placed in the NVTX ranges the hook kept (nvtx_hook.h) and the
 * process's part of the results is written (part.h). The library must not
 * break the program it is loaded into: whatever fails is said on stderr and in
 * the folder (protocol.h's error file), and the program runs on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../cupti/activity.h"
#include "../common/host_clock.h"
#include "../gpu/peers.h"
#include "config.h"
#include "nvtx_hook.h"
#include "part.h"
#include "protocol.h"
#include "replay.h"
#include "sampling.h"

#define EXPORTED __attribute__((visibility("default")))

static struct {
    struct inject_config config;
    pid_t pid; /* the process that started recording: a child forked without exec inherits the rest, not this */
} state;

/* Said on stderr and, where the folder lets it, in the error file the launcher reports from. */
static void report_failure(const struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    fprintf(stderr, "memscope-profile (in pid %ld): %s\n", (long)getpid(), e->message);
    if (!state.config.part[0] || (state.config.child && mkdir(state.config.part, 0777) != 0 && errno != EEXIST))
        return;
    snprintf(path, sizeof path, "%s/%s", state.config.part, INJECT_ERROR_FILE);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%d %s\n", e->code, e->message);
        fclose(f);
    }
}

static int stop_recording(struct error *e)
{
    struct prof_error pe = {0};
    if (prof_activity_stop_calls(&pe) || prof_activity_stop(&pe))
        return error_set(e, EXIT_PROFILER, "%s", pe.message);
    return 0;
}

static void finish(void)
{
    struct error e = {0}, profiling = {0}; /* a profiling failure still leaves what was recorded */
    struct part_records r = {0};
    if (getpid() != state.pid)
        return;
    uint64_t host_ns = host_realtime_ns();
    r.exit_ns = prof_activity_now();
    r.clock_offset_ns = (int64_t)host_ns - (int64_t)r.exit_ns;
    r.replayed = replay_stop(&r.n_replayed, &profiling);
    r.kept = replay_kept_back(&r.n_kept);
    struct peers_waits waited = peers_waited();
    r.replay_wait_ms = waited.replay_ms;
    r.collective_launch_wait_ms = waited.launch_ms;
    r.sampled = sampling_results(&r.n_sampled, &r.reasons);
    r.patched = patching_results(&r.n_patched, &r.texts);
    r.ranges = nvtx_hook_stop(&r.n_ranges, &r.ranges_lost);
    if (stop_recording(&e) == 0) {
        r.ops = prof_activity_ops(&r.n_ops);
        r.calls = prof_activity_calls(&r.n_calls);
        r.dropped = prof_activity_dropped();
        part_write(&state.config, &r, &e);
    }
    if (!e.code && profiling.code)
        e = profiling;
    if (e.code)
        report_failure(&e);
    prof_activity_free();
    replay_free();
    nvtx_hook_free();
    inject_config_free(&state.config);
}

static int start_recording(struct error *e)
{
    struct prof_error pe = {0};
    if (prof_activity_start(&pe) || prof_activity_record_calls(&pe)) {
        struct prof_error ignored = {0}; /* the first failure is the one to tell */
        prof_activity_stop_calls(&ignored);
        prof_activity_stop(&ignored);
        prof_activity_free();
        return error_set(e, EXIT_PROFILER, "cannot record the program's GPU activity: %s", pe.message);
    }
    if (atexit(finish) != 0)
        return error_set(e, EXIT_RUNTIME, "cannot register the library's work at the program's exit");
    return replay_start(&state.config, e);
}

/* CUDA calls it once per process; its answer is not the program's business: always 1, the program runs on. */
EXPORTED int InitializeInjection(void)
{
    struct error e = {0};
    if (state.pid)
        return 1;
    state.pid = getpid();
    if (inject_config_read(&state.config, &e) == 0 && inject_config_start_part(&state.config, &e) == 0)
        start_recording(&e);
    else if (e.code)
        inject_config_free(&state.config); /* no part to record into: the library stays inert, nothing of it kept */
    if (e.code)
        report_failure(&e);
    return 1;
}
