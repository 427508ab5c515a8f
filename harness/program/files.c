#include <math.h>

#include "../results/program_csv.h"
#include "collectives.h"
#include "files.h"
#include "kernels.h"

static int write_kernels(const struct results_folder *r, struct error *e)
{
    struct program_kernels k;
    struct csv c;
    if (program_kernels_build(r, GROUP_BY_KERNEL, &k, e))
        return e->code;
    if (kernels_csv_create(&c, r->dir, e) == 0) {
        for (size_t i = 0; i < k.n; ++i) {
            const struct program_kernel *x = &k.at[i];
            double none = x->launches ? 0 : NAN; /* a kernel only an autotuner launched has no statistics */
            kernels_csv_row(&c, &(struct kernel_row){
                                    x->kernel, x->nvtx_range, x->launches, x->share_pct, x->total_ms,
                                    x->mean_ms + none, x->median_ms + none, x->min_ms + none, x->max_ms + none,
                                    x->stdev_ms + none, x->processes,
                                    x->profiled_row >= 0 ? csv_table_text(&r->summary, x->profiled_row, r->col_variant)
                                                         : "",
                                    program_kernel_status(r, x), x->autotuning_launches, x->autotuning_ms});
        }
        csv_close(&c, e);
    }
    program_kernels_free(&k);
    return e->code;
}

/* Only a profile of several parts has collectives to split; one that has none writes none. */
static int write_collectives(const struct results_folder *r, struct error *e)
{
    struct program_collectives k;
    struct csv c;
    if (program_collectives_build(r, &k, e) || k.n == 0) {
        program_collectives_free(&k);
        return e->code;
    }
    if (collectives_csv_create(&c, r->dir, e) == 0) {
        for (size_t i = 0; i < k.n; ++i)
            for (size_t p = 0; p < k.n_parts; ++p) {
                const struct collective_arrival *a = collective_at(&k, i, p);
                collectives_csv_row(&c, &(struct collective_row){
                                            (long)i, k.kernel[i], k.part[p], (a->start_ns - k.first_start_ns) / 1e6,
                                            a->duration_ns / 1e6, a->wait_ns / 1e6, a->transfer_ns / 1e6,
                                            k.part[k.last[i]], a->replays_before});
            }
        csv_close(&c, e);
    }
    program_collectives_free(&k);
    return e->code;
}

int program_files_write(const char *dir, struct error *e)
{
    struct results_folder r;
    if (results_folder_open_being_written(dir, &r, e))
        return e->code;
    if (write_kernels(&r, e) == 0)
        write_collectives(&r, e);
    results_folder_close(&r);
    return e->code;
}
