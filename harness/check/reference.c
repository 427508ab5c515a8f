#include <string.h>

#include "reference.h"

const char *reference_name(int width)
{
    return width <= CPU_REFERENCE_MAX_WIDTH ? "cpu_fp64" : "cublas_fp64";
}

size_t reference_device_bytes(int width)
{
    return width <= CPU_REFERENCE_MAX_WIDTH ? 0 : 3 * (size_t)width * width * sizeof(double);
}

void reference_cpu(const double *m, const double *n, double *p, int width)
{
    memset(p, 0, (size_t)width * width * sizeof *p);
    for (int i = 0; i < width; ++i)
        for (int k = 0; k < width; ++k) {
            double mik = m[(size_t)i * width + k];
            const double *n_row = n + (size_t)k * width;
            double *p_row = p + (size_t)i * width;
            for (int j = 0; j < width; ++j)
                p_row[j] += mik * n_row[j];
        }
}

static int dgemm_row_major(struct gpu *g, const double *dm, const double *dn, double *dp, int w, struct error *e)
{
    const double one = 1.0, zero = 0.0;
    /* Row-major P = M N is column-major P^T = N^T M^T: swap the operands. */
    CUBLAS_TRY(e, cublasDgemm(g->cublas, CUBLAS_OP_N, CUBLAS_OP_N, w, w, w, &one, dn, w, dm, w, &zero, dp, w));
    return 0;
}

static int reference_gpu(struct gpu *g, const double *m, const double *n, double *p, double *dev[3], int w,
                         struct error *e)
{
    size_t bytes = (size_t)w * w * sizeof(double);
    for (int i = 0; i < 3; ++i)
        CUDA_TRY(e, cudaMalloc((void **)&dev[i], bytes));
    CUDA_TRY(e, cudaMemcpyAsync(dev[0], m, bytes, cudaMemcpyHostToDevice, g->stream));
    CUDA_TRY(e, cudaMemcpyAsync(dev[1], n, bytes, cudaMemcpyHostToDevice, g->stream));
    if (dgemm_row_major(g, dev[0], dev[1], dev[2], w, e))
        return e->code;
    CUDA_TRY(e, cudaMemcpyAsync(p, dev[2], bytes, cudaMemcpyDeviceToHost, g->stream));
    CUDA_TRY(e, cudaStreamSynchronize(g->stream));
    return 0;
}

int reference_compute(struct gpu *g, const double *m, const double *n, double *p, int width, struct error *e)
{
    if (width <= CPU_REFERENCE_MAX_WIDTH) {
        reference_cpu(m, n, p, width);
        return 0;
    }
    double *dev[3] = {NULL, NULL, NULL};
    reference_gpu(g, m, n, p, dev, width, e);
    for (int i = 0; i < 3; ++i)
        if (dev[i])
            CUDA_RELEASE(e, cudaFree(dev[i]));
    return e->code;
}
