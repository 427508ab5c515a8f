#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda.h>
#include <cupti_activity.h>

#include "../../cupti/stream_capture.h"
#include "../../cupti/subscriber.h"
#include "../common/grow.h"
#include "../gpu/gpu_lock.h"
#include "../gpu/peers.h"
#include "../profile/metric_catalog.h"
#include "../stalls/sampling_period.h"
#include "collectives.h"
#include "nvtx_hook.h"
#include "patching.h"
#include "protocol.h"
#include "replay.h"
#include "sampling.h"

#define MAX_CONTEXTS 16
#define MAX_GPUS 16
#define DURATION_METRIC "gpu__time_duration.sum"
/* How long a replay waits for the collectives running on this host to finish (gpu/peers.h); past it, and while
 * none has finished since, a selected launch is timed only. */
#define PEERS_WAIT_S 2.0

/* A range profiler per context the program launches on; one configuration for them all (one kind of GPU). */
struct context_session {
    CUcontext context;
    struct prof_session session;
    struct prof_counter_data data;
};

/* The launch being replayed or sampled: entered, not yet returned. */
struct in_flight {
    struct context_session *session;
    struct replayed_launch launch;
    uint32_t correlation;
    int sampling;    /* PC sampling started for it */
    int replay_turn; /* the GPU's replay turn held for it (a process that shares its GPU's lock); -1: none */
};

static struct {
    pthread_mutex_t lock; /* held from a selected launch's entry to its return: one replay at a time */
    const struct inject_config *config;
    struct first_run *first_run; /* the config's, which the stall sampling's run takes launches of */
    struct selection_count count;
    struct kernel_numbers kernels;  /* numbered as launched, for the count per kernel */
    struct kept_back *kept;         /* selected launches not replayed (collectives), in launch order */
    size_t n_kept;
    char gpu_keys[MAX_GPUS][64];    /* per device ordinal: its UUID (gpu_lock.h's key) once its turn is taken */
    char uuids[MAX_GPUS * 48];      /* the UUIDs of the GPUs launched on, in that order, ","-separated */
    const char *names[MAX_METRICS];
    int n_names;
    struct prof_host *host;
    struct prof_config prof_config;
    int configured;
    char chip[32];
    struct context_session contexts[MAX_CONTEXTS];
    int n_contexts;
    struct in_flight current;
    struct replayed_launch *done;
    size_t n_done;
    struct prof_error broken; /* a failure that stops all profiling (no permission, no configuration) */
    CUresult (*func_attribute)(int *, CUfunction_attribute, CUfunction);
    CUresult (*kernel_attribute)(int *, CUfunction_attribute, CUkernel, CUdevice);
    CUresult (*device_get)(CUdevice *, int);
    CUresult (*device_name)(char *, int, CUdevice);
    CUresult (*device_uuid)(CUuuid *, CUdevice);
    CUresult (*device_attribute)(int *, CUdevice_attribute, CUdevice);
    CUresult (*synchronize)(void);
    CUresult (*is_capturing)(CUstream, CUstreamCaptureStatus *);
    CUresult (*launch_host_func)(CUstream, CUhostFn, void *);
    size_t n_sampled; /* selected launches sampled so far: the index of the next one's duration in the first run */
    char gpu_name[128];
} replay = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* ---- the configuration, for the chip of the first selected launch's device ---- */

/* The device a context is on: CUPTI's ordinal and the driver's handle. */
static int device_of(CUcontext context, uint32_t *ordinal, CUdevice *handle, struct prof_error *e)
{
    if (prof_check(e, cuptiGetDeviceId(context, ordinal), "cuptiGetDeviceId"))
        return e->status;
    if (!replay.device_get || replay.device_get(handle, (int)*ordinal) != CUDA_SUCCESS)
        return prof_fail(e, PROF_FAILED, "cannot find CUDA device %u in the driver", *ordinal);
    return PROF_OK;
}

/* A process of a multi-process program: one the program started, or one its launcher gave a rank. */
static int shares_gpu(void)
{
    return replay.config->child || replay.config->rank.variable != NULL;
}

/* The GPU's turn, as memscope's runs take it (harness/gpu/gpu_lock.h), at the program's first kernel launch on each
 * GPU in every run, the runs of --repeat that only time included: another run's kernels would be counted and timed
 * with the program's, and the GPU's profiler serves one process at a time. Held until the program exits. A process
 * of a multi-process program (one the program started, or one a launcher gave a rank) shares it with the program's
 * other processes on that GPU, which take turns for each replay instead (take_replay_turn): a rank that waited for
 * another's exit could wait for ever, that one waiting in a collective for it. */
static int take_turn(CUcontext context, struct prof_error *e)
{
    CUuuid id;
    CUdevice device;
    uint32_t ordinal;
    char key[64];
    struct error taken = {0};
    double waited_s;
    if (device_of(context, &ordinal, &device, e))
        return e->status;
    if (ordinal < MAX_GPUS && replay.gpu_keys[ordinal][0])
        return PROF_OK;
    if (!replay.device_uuid || replay.device_uuid(&id, device) != CUDA_SUCCESS)
        return prof_fail(e, PROF_FAILED, "cannot read the GPU's UUID, which names its turn");
    gpu_lock_key((const unsigned char *)id.bytes, key, sizeof key);
    int (*take)(const char *, const char *, const char *, double, FILE *, double *, struct error *) =
        shares_gpu() ? gpu_lock_take_shared : gpu_lock_take;
    if (take(gpu_lock_folder(), key, "a program memscope-profile profiles", (double)replay.config->wait_gpu_s, stderr,
             &waited_s, &taken))
        return prof_fail(e, taken.code == EXIT_BUSY ? PROF_BUSY : PROF_FAILED, "%s", taken.message);
    /* named here, at the first launch, not where a replay is configured: a part whose launches were all kept back
     * from replay (collectives) still says which GPU it ran on */
    if (!replay.gpu_name[0] && replay.device_name &&
        replay.device_name(replay.gpu_name, sizeof replay.gpu_name, device) != CUDA_SUCCESS)
        replay.gpu_name[0] = '\0';
    if (ordinal < MAX_GPUS) {
        snprintf(replay.gpu_keys[ordinal], sizeof replay.gpu_keys[ordinal], "%s", key);
        size_t used = strlen(replay.uuids);
        snprintf(replay.uuids + used, sizeof replay.uuids - used, "%s%s", used ? "," : "", key);
    }
    return PROF_OK;
}

/* The replay's turn on the launch's GPU, for a process that shares its GPU's lock; a wait past --wait-gpu leaves
 * this launch unprofiled, not the program's later ones. */
static int take_replay_turn(CUcontext context, int *fd, struct prof_error *e)
{
    uint32_t ordinal;
    CUdevice device;
    struct error taken = {0};
    *fd = -1;
    if (!shares_gpu())
        return PROF_OK;
    if (device_of(context, &ordinal, &device, e))
        return e->status;
    if (ordinal >= MAX_GPUS || !replay.gpu_keys[ordinal][0])
        return prof_fail(e, PROF_FAILED, "the GPU's turn was not taken before its replay");
    if (gpu_replay_turn_take(gpu_lock_folder(), replay.gpu_keys[ordinal], (double)replay.config->wait_gpu_s, fd,
                             &taken))
        return prof_fail(e, PROF_FAILED, "waiting for another process of the program to finish its replay on this "
                                         "GPU: %s", taken.message);
    return PROF_OK;
}

/* The configuration is begun in a thread of its own as the library starts: the program goes on starting (the rest
 * of cuInit, its context, its allocations) meanwhile, and its first selected launch finds it made. Made for device 0;
 * a launch on a GPU of another chip makes its own. */
static struct {
    pthread_t thread;
    pid_t pid; /* the process that started it: a child forked without exec has no such thread */
    int waited;
    char chip[32];
    struct prof_host *host;
    struct prof_config config;
    struct prof_error error;
} early;

static void *prepare(void *unused)
{
    (void)unused;
    if (prof_chip_name(0, early.chip, sizeof early.chip, &early.error) == PROF_OK &&
        prof_host_open(early.chip, &early.host, &early.error) == PROF_OK)
        prof_config_build(early.host, replay.names, replay.n_names, &early.config, &early.error);
    return NULL;
}

/* The thread blocks every signal: the program's handlers stay on the program's threads. */
static void prepare_early(void)
{
    sigset_t all, program;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &program);
    early.pid = getpid();
    if (pthread_create(&early.thread, NULL, prepare, NULL) != 0)
        early.pid = 0; /* the first selected launch makes it */
    pthread_sigmask(SIG_SETMASK, &program, NULL);
}

static void wait_early(void)
{
    if (early.pid && early.pid == getpid() && !early.waited) {
        pthread_join(early.thread, NULL);
        early.waited = 1;
    }
}

static void free_early(void)
{
    if (early.host) {
        prof_config_free(&early.config);
        prof_host_close(early.host, &(struct prof_error){0});
    }
    early.host = NULL;
}

/* The early configuration for this chip, or its failure, which building it again would repeat; 0 when there is none
 * for this chip. */
static int take_early(struct prof_error *e)
{
    if (!early.waited || strcmp(early.chip, replay.chip) != 0) {
        free_early();
        return 0;
    }
    if (early.error.status) {
        *e = early.error;
        return 1;
    }
    replay.host = early.host;
    replay.prof_config = early.config;
    early.host = NULL;
    return 1;
}

static int configure(CUcontext context, struct prof_error *e)
{
    uint32_t device;
    CUdevice handle;
    if (replay.configured)
        return PROF_OK;
    wait_early(); /* CUPTI's profiler is initialised in one thread at a time */
    if (device_of(context, &device, &handle, e) || prof_chip_name((int)device, replay.chip, sizeof replay.chip, e))
        return e->status;
    if (take_early(e) ? e->status
                      : prof_host_open(replay.chip, &replay.host, e) ||
                            prof_config_build(replay.host, replay.names, replay.n_names, &replay.prof_config, e)) {
        if (replay.host) { /* a configuration that failed is not tried again: the program's profiling stops */
            prof_config_free(&replay.prof_config);
            prof_host_close(replay.host, &(struct prof_error){0});
            replay.host = NULL;
        }
        return e->status;
    }
    replay.configured = 1;
    return PROF_OK;
}

static struct context_session *session_of(CUcontext context, struct prof_error *e)
{
    for (int i = 0; i < replay.n_contexts; ++i)
        if (replay.contexts[i].context == context)
            return &replay.contexts[i];
    if (replay.n_contexts == MAX_CONTEXTS) {
        prof_fail(e, PROF_FAILED, "more than %d CUDA contexts: launches on the others are not profiled",
                  MAX_CONTEXTS);
        return NULL;
    }
    struct context_session *s = &replay.contexts[replay.n_contexts];
    s->context = context;
    if (prof_session_open(&s->session, context, 1, PROF_KERNEL_REPLAY, e) ||
        prof_counter_data_create(&s->session, &replay.prof_config, &s->data, e)) {
        prof_session_close(&s->session, &(struct prof_error){0});
        return NULL;
    }
    replay.n_contexts++;
    return s;
}

/* ---- one launch ---- */

/* The runtime may launch a library's kernel handle (CUkernel) as the function: the function query refuses it
 * (CUDA_ERROR_INVALID_HANDLE: CUDA 13's runtime launches such handles), the kernel query answers. */
static void attribute(CUfunction function, int device, CUfunction_attribute which, int *value)
{
    CUdevice handle;
    if (replay.func_attribute && replay.func_attribute(value, which, function) == CUDA_SUCCESS)
        return;
    if (!replay.kernel_attribute || !replay.device_get || replay.device_get(&handle, device) != CUDA_SUCCESS ||
        replay.kernel_attribute(value, which, (CUkernel)function, handle) != CUDA_SUCCESS)
        *value = -1;
}

/* The record CUPTI's kernel activity would have made, as far as the call tells it. */
static void record_call(const struct prof_launch *l, struct prof_gpu_op *op)
{
    *op = (struct prof_gpu_op){.kind = PROF_OP_KERNEL, .correlation = l->correlation,
                               .start_ns = prof_activity_now(), .dynamic_shared = (int)l->dynamic_shared};
    uint32_t device = 0;
    if (cuptiGetDeviceId(l->context, &device) == CUPTI_SUCCESS)
        op->device = device;
    for (int i = 0; i < 3; ++i) {
        op->grid[i] = (int)l->grid[i];
        op->block[i] = (int)l->block[i];
    }
    attribute(l->function, (int)op->device, CU_FUNC_ATTRIBUTE_NUM_REGS, &op->registers);
    attribute(l->function, (int)op->device, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &op->static_shared);
    snprintf(op->name, sizeof op->name, "%s", l->symbol);
}

/* Whether the launch is captured into a CUDA graph: it runs nothing now, and runs when the graph is launched, which
 * no callback of a kernel's launch sees. A replay of it would end the program's capture with an error; the selection
 * does not count it. CAPTURE_IMPLICIT: the legacy stream, queried while another stream captures. */
static bool captured(const struct prof_launch *l)
{
    CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
    if (!replay.is_capturing)
        return false;
    CUresult r = replay.is_capturing(l->stream, &capture);
    return r == CUDA_ERROR_STREAM_CAPTURE_IMPLICIT || (r == CUDA_SUCCESS && capture != CU_STREAM_CAPTURE_STATUS_NONE);
}

static void keep_back(uint32_t correlation, const char *reason)
{
    if (grow_for_one_more((void **)&replay.kept, replay.n_kept, sizeof *replay.kept) == 0)
        replay.kept[replay.n_kept++] = (struct kept_back){correlation, reason};
}

/* Whether the selection takes the launch; a collective it takes is kept back: timed, never replayed. */
static int selected(const struct prof_launch *l, const char *kernel, const char *collective, struct prof_error *e)
{
    char path[1024];
    size_t number = 0;
    nvtx_hook_current_path(path, sizeof path);
    const struct selection *s = &replay.config->selection;
    int takes = s->per_kernel > 0 && kernel_number(&replay.kernels, kernel, &number) != 0
                    ? -1
                    : selection_takes(s, &replay.count, number, selection_name_matches(s, kernel), path);
    if (takes < 0)
        return prof_fail(e, PROF_FAILED, "out of host memory counting the launches of each kernel"), 0;
    if (!takes || !collective)
        return takes;
    keep_back(l->correlation, collective);
    return 0;
}

/* ---- the program's other processes (gpu/peers.h): no replay beside a collective ---- */

/* Replays restore the device memory (kernel replay); the stall and source runs never replay. */
static int guards_replays(void)
{
    const struct metric_set *m = &replay.config->metrics;
    return m->n && !m->stalls && !m->source;
}

static int join_peers(struct prof_error *e)
{
    char path[PATH_IN_FOLDER_LEN];
    struct error joined = {0};
    snprintf(path, sizeof path, "%s/%s", replay.config->folder, INJECT_PEERS_FILE);
    if (peers_join(path, &joined))
        return prof_fail(e, PROF_FAILED, "%s", joined.message);
    return PROF_OK;
}

/* A collective's launch, on entry, not captured: counted. Returns what its finish adds to, or NULL. */
static void *count_collective(struct prof_error *e)
{
    if (join_peers(e))
        return NULL;
    return peers_collective_launching();
}

/* On the collective's return: its finish is counted by a host function queued behind it on its stream; where none
 * can be queued it is counted finished at once, and a replay beside it is not prevented. */
static void queue_finish(const struct prof_launch *l, void *counter)
{
    if (!replay.launch_host_func ||
        replay.launch_host_func(l->stream, peers_collective_finished, counter) != CUDA_SUCCESS)
        peers_collective_finished(counter);
}

/* 1 when no graph's capture is in progress, and then none begins until the launch returns (prof_capture_release);
 * 0 while one is (stream_capture.h): a replay, or the synchronize around sampling or patching, would end the
 * program's capture with an error. Kept back. */
static int clear_of_captures(const struct prof_launch *l)
{
    if (prof_capture_hold())
        return 1;
    keep_back(l->correlation, NOT_REPLAYED_CAPTURING);
    return 0;
}

/* 1 when the selected launch may be replayed now; 0 when it is timed only (kept back, and why), or on failure. */
static int clear_to_replay(const struct prof_launch *l, struct prof_error *e)
{
    if (!guards_replays())
        return 1;
    if (join_peers(e))
        return 0;
    enum peers_answer answer = peers_replay_begin(PEERS_WAIT_S);
    if (answer == PEERS_NO_LOCK)
        return prof_fail(e, PROF_FAILED, "cannot lock %s/%s, through which the program's processes keep replays from "
                                         "their collectives: %s", replay.config->folder, INJECT_PEERS_FILE,
                         strerror(errno)), 0;
    if (answer == PEERS_CLEAR)
        return 1;
    keep_back(l->correlation, NOT_REPLAYED_COLLECTIVE_RUNNING);
    return 0;
}

/* Entered with the lock held; on success it stays held until the launch returns. */
static int begin_launch(const struct prof_launch *l, struct prof_error *e)
{
    struct in_flight *f = &replay.current;
    *f = (struct in_flight){0};
    f->replay_turn = -1;
    record_call(l, &f->launch.op);
    /* Paused first: the launch's record is this one even when profiling it fails, never this one and CUPTI's. */
    if (prof_activity_pause(e) || take_replay_turn(l->context, &f->replay_turn, e) || configure(l->context, e) || !(f->session = session_of(l->context, e)) ||
        prof_session_begin(&f->session->session, &f->session->data, e) || prof_pass_begin(&f->session->session, e))
        return e->status;
    return PROF_OK;
}

/* A resume that failed would leave every later launch unrecorded: profiling stops, and says why. */
static void resume_activity(void)
{
    struct prof_error resumed = {0};
    if (prof_activity_resume(&resumed) && !replay.broken.status)
        replay.broken = resumed;
}

static void end_launch(struct prof_error *e)
{
    struct in_flight *f = &replay.current;
    struct error evaluated = {0};
    bool all_passes = false;
    size_t ranges = 0;
    if (!e->status && f->session && prof_pass_end(&f->session->session, &all_passes, e) == 0 &&
        prof_session_end(&f->session->session, &f->session->data, &ranges, e) == 0 && !all_passes)
        prof_fail(e, PROF_FAILED, "CUPTI did not replay every pass inside the launch");
    if (!e->status && ranges != 1)
        prof_fail(e, PROF_FAILED, "%zu ranges for one launch", ranges);
    const char *kernel_names[1] = {f->launch.op.name};
    if (!e->status && metrics_evaluate(replay.host, f->session->data.image, f->session->data.size, 0, 1, kernel_names,
                                       &replay.prof_config, &f->launch.profile, &evaluated))
        prof_fail(e, PROF_FAILED, "%s", evaluated.message);
    double duration_ns = metric_lookup(f->launch.profile.names, f->launch.profile.kernels[0].values,
                                       f->launch.profile.n_metrics, DURATION_METRIC);
    f->launch.op.end_ns = f->launch.op.start_ns + (uint64_t)(duration_ns > 0 ? duration_ns : 0);
    resume_activity();
    gpu_replay_turn_give(f->replay_turn);
    peers_replay_end();
    if (e->status) {
        snprintf(f->launch.failure, sizeof f->launch.failure, "%.255s", e->message);
        f->launch.profile.n_metrics = 0;
    }
    if (grow_for_one_more((void **)&replay.done, replay.n_done, sizeof *replay.done) == 0)
        replay.done[replay.n_done++] = f->launch;
}

/* One sample per 2^p cycles per SM, p from the launch's duration in the first run (stalls/sampling_period.h). */
static int sampling_period(const struct prof_launch *l, unsigned *period_log2, struct prof_error *e)
{
    uint32_t ordinal;
    CUdevice device;
    int sms, khz;
    double ms = first_run_ms(replay.first_run, l->symbol, l->grid, l->block);
    if (ms < 0)
        return prof_fail(e, PROF_FAILED, "selected launch %zu (%s, grid %ux%ux%u, block %ux%ux%u) was not selected "
                         "in the first run: the program took another path", replay.n_sampled + 1, l->symbol,
                         l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2]);
    if (device_of(l->context, &ordinal, &device, e))
        return e->status;
    if (!replay.device_attribute ||
        replay.device_attribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device) != CUDA_SUCCESS ||
        replay.device_attribute(&khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, device) != CUDA_SUCCESS)
        return prof_fail(e, PROF_FAILED, "cannot read the GPU's SM count and clock, which set the sampling period");
    *period_log2 = stall_period_log2(ms, sms, khz / 1000.0);
    return PROF_OK;
}

static void begin_sampling(const struct prof_launch *l, struct prof_error *e)
{
    unsigned period_log2 = STALL_PERIOD_MIN;
    struct in_flight *f = &replay.current;
    *f = (struct in_flight){.correlation = l->correlation};
    if (take_replay_turn(l->context, &f->replay_turn, e) == PROF_OK &&
        sampling_period(l, &period_log2, e) == PROF_OK && sampling_begin(l->context, period_log2, e) == 0)
        f->sampling = 1;
    replay.n_sampled++;
}

static int synchronized(const char *what, struct prof_error *e)
{
    if (!replay.synchronize || replay.synchronize() != CUDA_SUCCESS)
        return prof_fail(e, PROF_FAILED, "cannot wait for %s to finish (cuCtxSynchronize)", what);
    return PROF_OK;
}

/* The kernel finishes before sampling stops: its samples are all in. */
static void end_sampling(struct prof_error *e)
{
    struct in_flight *f = &replay.current;
    if (!e->status)
        synchronized("the sampled kernel", e);
    sampling_end(f->correlation, f->sampling, e);
    gpu_replay_turn_give(f->replay_turn);
}

/* The range profiler enabled on the context and configured (its duration, never collected): with it, CUPTI
 * patches each selected launch's kernel again (patching.h). */
static int arm_patching(CUcontext context, struct prof_error *e)
{
    struct context_session *s;
    if (configure(context, e) || !(s = session_of(context, e)))
        return e->status;
    return prof_session_begin(&s->session, &s->data, e);
}

/* The kernel activity is paused (patching.h says why): the launch's record is made from its call, as a replayed
 * launch's is, and ends when the patched kernel has. */
static void begin_patched(const struct prof_launch *l, struct prof_error *e)
{
    struct in_flight *f = &replay.current;
    *f = (struct in_flight){.correlation = l->correlation};
    f->replay_turn = -1;
    record_call(l, &f->launch.op); /* its name the mangled symbol, as the kernel's SASS records carry it */
    if (prof_activity_pause(e) == PROF_OK && take_replay_turn(l->context, &f->replay_turn, e) == PROF_OK &&
        synchronized("the kernels launched before", e) == PROF_OK && arm_patching(l->context, e) == PROF_OK)
        patching_begin(l->context, e);
}

static void end_patched(struct prof_error *e)
{
    struct in_flight *f = &replay.current;
    if (!e->status)
        synchronized("the patched kernel", e);
    f->launch.op.end_ns = prof_activity_now();
    patching_end(f->correlation, f->launch.op.name, e);
    resume_activity();
    gpu_replay_turn_give(f->replay_turn);
    if (grow_for_one_more((void **)&replay.done, replay.n_done, sizeof *replay.done) == 0)
        replay.done[replay.n_done++] = f->launch; /* no metrics: its counts are patching's */
}

/* A failure that would fail every later launch too stops profiling; the program runs on regardless. */
static int breaks_everything(const struct prof_error *e)
{
    int ready = replay.config->metrics.stalls ? sampling_ready() : replay.configured;
    return e->status == PROF_NO_PERMISSION || e->status == PROF_UNKNOWN_METRIC ||
           e->status == PROF_UNSUPPORTED_CHIP || e->status == PROF_BUSY || !ready;
}

static void on_launch(void *context, const struct prof_launch *l)
{
    static _Thread_local struct prof_error failed;
    static _Thread_local int mine;          /* this thread holds the lock for a launch in flight */
    static _Thread_local void *finishing;   /* a collective's counter, for its finish (gpu/peers.h) */
    (void)context;
    if (l->entering) {
        char kernel[PROF_OP_NAME_LEN];
        pthread_mutex_lock(&replay.lock);
        failed = (struct prof_error){0};
        const struct metric_set *m = &replay.config->metrics;
        if (!replay.broken.status)
            take_turn(l->context, &replay.broken);
        if (!(m->n || m->stalls || m->source)) {
            pthread_mutex_unlock(&replay.lock);
            return;
        }
        prof_demangle(l->symbol, kernel, sizeof kernel);
        const char *collective = collective_reason(kernel, replay.config->user_collectives);
        bool in_graph = captured(l);
        if (collective && !in_graph && guards_replays()) /* where this process's profiling stopped too: its peers' */
            finishing = count_collective(&failed);
        int held = 0;
        if (in_graph || replay.broken.status || failed.status || !selected(l, kernel, collective, &failed) ||
            !(held = clear_of_captures(l)) || !clear_to_replay(l, &failed)) {
            if (held)
                prof_capture_release();
            if (failed.status && !replay.broken.status)
                replay.broken = failed;
            pthread_mutex_unlock(&replay.lock);
            return;
        }
        if (m->stalls)
            begin_sampling(l, &failed);
        else if (m->source)
            begin_patched(l, &failed);
        else
            begin_launch(l, &failed);
        mine = 1;
    } else if (finishing) {
        queue_finish(l, finishing);
        finishing = NULL;
    } else if (mine) {
        mine = 0;
        if (replay.config->metrics.stalls)
            end_sampling(&failed);
        else if (replay.config->metrics.source)
            end_patched(&failed);
        else
            end_launch(&failed);
        prof_capture_release();
        if (failed.status && breaks_everything(&failed))
            replay.broken = failed;
        pthread_mutex_unlock(&replay.lock);
    }
}

/* ---- start and stop ---- */

static int add_name(const char *name)
{
    for (int i = 0; i < replay.n_names; ++i)
        if (strcmp(replay.names[i], name) == 0)
            return 0;
    if (replay.n_names == MAX_METRICS)
        return -1;
    replay.names[replay.n_names++] = name;
    return 0;
}

/* The driver the program already loaded, for what a call does not say (a kernel's registers). */
static void find_driver(void)
{
    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!driver)
        return;
    *(void **)&replay.func_attribute = dlsym(driver, "cuFuncGetAttribute");
    *(void **)&replay.kernel_attribute = dlsym(driver, "cuKernelGetAttribute");
    *(void **)&replay.device_get = dlsym(driver, "cuDeviceGet");
    *(void **)&replay.device_name = dlsym(driver, "cuDeviceGetName");
    *(void **)&replay.device_uuid = dlsym(driver, "cuDeviceGetUuid_v2");
    *(void **)&replay.device_attribute = dlsym(driver, "cuDeviceGetAttribute");
    *(void **)&replay.synchronize = dlsym(driver, "cuCtxSynchronize");
    *(void **)&replay.is_capturing = dlsym(driver, "cuStreamIsCapturing");
    *(void **)&replay.launch_host_func = dlsym(driver, "cuLaunchHostFunc");
}

int replay_start(struct inject_config *c, struct error *e)
{
    struct prof_error pe = {0};
    replay.config = c;
    replay.first_run = &c->first_run;
    for (int i = 0; i < c->metrics.n; ++i)
        if (add_name(c->metrics.names[i]) != 0)
            return error_set(e, EXIT_USAGE, "more than %d metrics", MAX_METRICS);
    if ((c->metrics.n || c->metrics.source) && add_name(DURATION_METRIC) != 0) /* the source run arms with it */
        return error_set(e, EXIT_USAGE, "more than %d metrics", MAX_METRICS);
    find_driver();
    /* the stall samples and the patched instructions are placed on source lines from the modules' cubins */
    if (prof_subscriber_start(c->metrics.stalls || c->metrics.source, &pe) || prof_subscriber_listen(on_launch, NULL, &pe))
        return error_from_profiler(e, &pe);
    if ((c->metrics.n || c->metrics.source) && !c->metrics.stalls)
        prepare_early();
    return 0;
}

const struct replayed_launch *replay_stop(size_t *count, struct error *e)
{
    struct prof_error pe = {0};
    *count = 0;
    if (!replay.config)
        return NULL;
    pthread_mutex_lock(&replay.lock);
    prof_subscriber_listen(NULL, NULL, &pe);
    for (int i = 0; i < replay.n_contexts; ++i) {
        prof_counter_data_free(&replay.contexts[i].data);
        prof_session_close(&replay.contexts[i].session, &pe);
    }
    replay.n_contexts = 0;
    sampling_stop(&pe);
    patching_stop(&pe);
    prof_subscriber_stop(&pe);
    if (replay.broken.status)
        error_from_profiler(e, &replay.broken);
    *count = replay.n_done;
    pthread_mutex_unlock(&replay.lock);
    return replay.done;
}

const struct kept_back *replay_kept_back(size_t *count)
{
    *count = replay.n_kept;
    return replay.kept;
}

const char *replay_gpu_uuids(void)
{
    return replay.uuids;
}

const char *replay_gpu_name(void)
{
    return replay.gpu_name;
}

const char *replay_chip(void)
{
    return replay.chip;
}

size_t replay_passes(void)
{
    return replay.configured ? replay.prof_config.passes : 0;
}

void replay_free(void)
{
    wait_early();
    free_early();
    if (replay.configured) {
        prof_config_free(&replay.prof_config);
        prof_host_close(replay.host, &(struct prof_error){0});
    }
    free(replay.done);
    replay.done = NULL;
    free(replay.kept);
    replay.kept = NULL;
    replay.n_kept = 0;
    kernel_numbers_free(&replay.kernels);
    selection_count_free(&replay.count);
    replay.n_done = 0;
    replay.n_sampled = 0;
    sampling_free();
    patching_free();
    replay.configured = 0;
}
