/* Host loops run by several threads (harness/check/parallel.h): every unit done once, whatever the sizes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/check/parallel.h"

#define MOST_UNITS (3u << 20)
static unsigned char visits[MOST_UNITS];
static double values[MOST_UNITS];

static void visit(void *context, size_t begin, size_t end)
{
    (void)context;
    for (size_t i = begin; i < end; ++i)
        visits[i]++;
}

/* Below the threshold (one thread), at it, above it, and 3 units of many elements (fewer units than threads where
 * the machine has more than 3 cores). */
static void every_unit_is_done_once(void **state)
{
    (void)state;
    const size_t units[] = {0, 1, 7, PARALLEL_MIN_ELEMENTS - 1, PARALLEL_MIN_ELEMENTS, MOST_UNITS, 3};
    const size_t unit_elements[] = {1, 1, 1, 1, 1, 1, PARALLEL_MIN_ELEMENTS};
    for (size_t k = 0; k < sizeof units / sizeof *units; ++k) {
        memset(visits, 0, sizeof visits);
        parallel_spans(units[k], unit_elements[k], visit, NULL);
        for (size_t i = 0; i < MOST_UNITS; ++i)
            if (visits[i] != (i < units[k]))
                fail_msg("%zu units of %zu elements: unit %zu done %d times", units[k], unit_elements[k], i,
                         visits[i]);
    }
}

static void zero_reaches_every_element(void **state)
{
    (void)state;
    for (size_t i = 0; i < MOST_UNITS; ++i)
        values[i] = 1.0;
    parallel_zero(values, MOST_UNITS - 1);
    for (size_t i = 0; i + 1 < MOST_UNITS; ++i)
        if (values[i] != 0.0)
            fail_msg("element %zu not zeroed", i);
    assert_true(values[MOST_UNITS - 1] == 1.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_unit_is_done_once),
        cmocka_unit_test(zero_reaches_every_element),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
