/*
 * The variants' palette, read as gnuplot reads it (palette_write_linetypes' "set linetype" lines): every variant of
 * the suite looks different from every other (colour and marker, since a chart shows them all at once), and no
 * colour is too light for white paper: relative luminance at most 0.30, a contrast of at least 3:1 against white
 * (1.05 / (L + 0.05)), WCAG's bound for graphics. Luminance as WCAG 2 defines it (sRGB, Rec. 709 weights).
 */
#define _XOPEN_SOURCE 700
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/common/palette.h"
#include "../../kernels/matmul.h"

#define MAX_SERIES 64
#define LUMINANCE_BOUND 0.30

struct look {
    unsigned rgb;
    int marker;
};

/* The looks of count series, parsed back from the gnuplot lines. */
static void read_looks(int count, struct look *looks)
{
    char *text = NULL, *line, *save;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    palette_write_linetypes(f, count);
    fclose(f);
    int n = 0;
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), ++n) {
        int type;
        if (n == count || sscanf(line, "set linetype %d lc rgb \"#%x\" lw %*d pt %d", &type, &looks[n].rgb,
                                 &looks[n].marker) != 3 || type != n + 1)
            fail_msg("unexpected line %d: %s", n + 1, line);
    }
    free(text);
    assert_int_equal(n, count);
}

static double linear(unsigned channel)
{
    double c = channel / 255.0;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double luminance(unsigned rgb)
{
    return 0.2126 * linear(rgb >> 16 & 0xff) + 0.7152 * linear(rgb >> 8 & 0xff) + 0.0722 * linear(rgb & 0xff);
}

static void every_variant_of_the_suite_has_its_own_colour_and_marker(void **state)
{
    (void)state;
    size_t count;
    struct look looks[MAX_SERIES];
    matmul_variants(&count);
    assert_in_range(count, 2, MAX_SERIES);
    read_looks((int)count, looks);
    for (size_t i = 0; i < count; ++i)
        for (size_t j = i + 1; j < count; ++j)
            if (looks[i].rgb == looks[j].rgb && looks[i].marker == looks[j].marker)
                fail_msg("series %zu and %zu (of %zu variants) are both #%06x with marker %d", i + 1, j + 1, count,
                         looks[i].rgb, looks[i].marker);
}

static void no_colour_is_too_light_for_white_paper(void **state)
{
    (void)state;
    struct look looks[MAX_SERIES];
    read_looks(MAX_SERIES, looks);
    for (int i = 0; i < MAX_SERIES; ++i)
        if (luminance(looks[i].rgb) > LUMINANCE_BOUND)
            fail_msg("series %d: #%06x has luminance %.3f, over %.2f (contrast %.2f:1 against white)", i + 1,
                     looks[i].rgb, luminance(looks[i].rgb), LUMINANCE_BOUND, 1.05 / (luminance(looks[i].rgb) + 0.05));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_variant_of_the_suite_has_its_own_colour_and_marker),
        cmocka_unit_test(no_colour_is_too_light_for_white_paper),
    };
    return cmocka_run_group_tests_name("palette", tests, NULL, NULL);
}
