#include <string.h>

#include "operands.h"
#include "parallel.h"
#include "reference.h"

static bool on_cpu(struct matmul_shape s)
{
    const double max = CPU_REFERENCE_MAX_WIDTH;
    return (double)s.rows * s.cols * s.inner <= max * max * max;
}

const char *reference_name(struct matmul_shape shape)
{
    return on_cpu(shape) ? "cpu_fp64" : "cublas_fp64";
}

size_t reference_device_bytes(struct matmul_shape shape)
{
    return on_cpu(shape) ? 0 : operands_total(shape) * sizeof(double);
}

void reference_cpu(const double *m, const double *n, double *p, struct matmul_shape s)
{
    memset(p, 0, (size_t)s.rows * s.cols * sizeof *p);
    for (int i = 0; i < s.rows; ++i)
        for (int k = 0; k < s.inner; ++k) {
            double mik = m[(size_t)i * s.inner + k];
            const double *n_row = n + (size_t)k * s.cols;
            double *p_row = p + (size_t)i * s.cols;
            for (int j = 0; j < s.cols; ++j)
                p_row[j] += mik * n_row[j];
        }
}

static int dgemm_row_major(struct gpu *g, const double *dm, const double *dn, double *dp, struct matmul_shape s,
                           struct error *e)
{
    const double one = 1.0, zero = 0.0;
    /* Row-major P = M N is column-major P^T = N^T M^T: swap the operands. */
    CUBLAS_TRY(e, cublasDgemm(g->cublas, CUBLAS_OP_N, CUBLAS_OP_N, s.cols, s.rows, s.inner, &one, dn, s.cols, dm,
                              s.inner, &zero, dp, s.cols));
    return 0;
}

static int reference_gpu(struct gpu *g, const double *m, const double *n, double *p, double *dev[3],
                         struct matmul_shape s, struct error *e)
{
    size_t bytes[3];
    for (int i = OPERAND_M; i <= OPERAND_P; ++i) {
        bytes[i] = operands_count(s, (enum operand)i) * sizeof(double);
        CUDA_TRY(e, cudaMalloc((void **)&dev[i], bytes[i]));
    }
    CUDA_TRY(e, cudaMemcpyAsync(dev[0], m, bytes[0], cudaMemcpyHostToDevice, g->stream));
    CUDA_TRY(e, cudaMemcpyAsync(dev[1], n, bytes[1], cudaMemcpyHostToDevice, g->stream));
    if (dgemm_row_major(g, dev[0], dev[1], dev[2], s, e))
        return e->code;
    parallel_zero(p, operands_count(s, OPERAND_P)); /* its pages in on several threads, not on the copy's one */
    CUDA_TRY(e, cudaMemcpyAsync(p, dev[2], bytes[2], cudaMemcpyDeviceToHost, g->stream));
    CUDA_TRY(e, cudaStreamSynchronize(g->stream));
    return 0;
}

int reference_compute(struct gpu *g, const double *m, const double *n, double *p, struct matmul_shape shape,
                      struct error *e)
{
    if (on_cpu(shape)) {
        reference_cpu(m, n, p, shape);
        return 0;
    }
    double *dev[3] = {NULL, NULL, NULL};
    reference_gpu(g, m, n, p, dev, shape, e);
    for (int i = 0; i < 3; ++i)
        if (dev[i])
            CUDA_RELEASE(e, cudaFree(dev[i]));
    return e->code;
}
