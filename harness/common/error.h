/*
 * Errors travel as values up to the CLI, which prints the message once and
 * exits with the code. The exit codes are documented in docs/command-line.md.
 */
#ifndef MEMSCOPE_ERROR_H
#define MEMSCOPE_ERROR_H

enum exit_code {
    EXIT_OK = 0,
    EXIT_CHECK_FAILED = 1, /* the run completed, but a variant failed its correctness check */
    EXIT_USAGE = 2,        /* bad command line or a size that cannot fit */
    EXIT_NO_GPU = 3,       /* no CUDA driver, no GPU, or no such device index */
    EXIT_OUTPUT = 4,       /* the results folder cannot be created or written */
    EXIT_RUNTIME = 5,      /* a CUDA or cuBLAS call failed, or memory ran out, during the run */
    EXIT_PROFILER = 6,     /* hardware counters unavailable: no permission, or a chip CUPTI does not support */
    EXIT_BUSY = 7,         /* the GPU stayed in use by another run, or its profiler by another process, past the wait */
    /* memscope-profile only: the program profiled, not memscope, is at fault (its own status is said in words) */
    EXIT_PROGRAM_FAILED = 8,      /* it exited non-zero or was killed: what was collected stays in <dir>.partial */
    EXIT_PROGRAM_NOT_STARTED = 9, /* it could not be started: not found, not executable */
};

struct error {
    int code;
    char message[1024];
};

/* Records the first error only (later ones are usually consequences); returns its code. */
int error_set(struct error *e, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define CUDA_TRY(e, call)                                                                          \
    do {                                                                                           \
        cudaError_t cuda_rc_ = (call);                                                             \
        if (cuda_rc_ != cudaSuccess)                                                               \
            return error_set((e), EXIT_RUNTIME, "%s: %s (%s:%d)", #call, cudaGetErrorString(cuda_rc_), \
                             __FILE__, __LINE__);                                                  \
    } while (0)

#define CUBLAS_TRY(e, call)                                                                           \
    do {                                                                                              \
        cublasStatus_t cublas_rc_ = (call);                                                           \
        if (cublas_rc_ != CUBLAS_STATUS_SUCCESS)                                                      \
            return error_set((e), EXIT_RUNTIME, "%s: %s (%s:%d)", #call, cublasGetStatusString(cublas_rc_), \
                             __FILE__, __LINE__);                                                     \
    } while (0)

/* For release paths that must go on: records a failure without returning. */
#define CUDA_RELEASE(e, call)                                                                      \
    do {                                                                                           \
        cudaError_t cuda_rc_ = (call);                                                             \
        if (cuda_rc_ != cudaSuccess)                                                               \
            error_set((e), EXIT_RUNTIME, "%s: %s (%s:%d)", #call, cudaGetErrorString(cuda_rc_),       \
                      __FILE__, __LINE__);                                                         \
    } while (0)

#endif
