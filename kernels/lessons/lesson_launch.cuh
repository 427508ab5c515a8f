/* The launch every lesson kernel shares. The lessons are written as the seed notes teach them, for square products
 * of one width: any other shape is refused. */
#ifndef MEMSCOPE_LESSON_LAUNCH_CUH
#define MEMSCOPE_LESSON_LAUNCH_CUH

#include "../launch_status.cuh"
#include "../matmul.h"

template <class T>
static const char *launch_lesson(void (*kernel)(const T *, const T *, T *, int), const struct matmul_operands *o,
                                 dim3 grid, dim3 block)
{
    if (!matmul_is_square(o->shape))
        return MATMUL_REFUSED_NOT_SQUARE;
    kernel<<<grid, block, 0, o->stream>>>((const T *)o->m, (const T *)o->n, (T *)o->p, o->shape.rows);
    return launch_status();
}

#endif
