/* The rule of issue 47 for every text memscope prints under a finding or a limiter: no figure of a percentage above
 * 100 (a share of a unit's peak, of a roof, of a kernel's time: none can exceed the whole), and no estimated gain of
 * 100 % or more (no fix makes a kernel take no time). Include after <cmocka.h> and findings.h. */
#ifndef MEMSCOPE_PEAK_FIGURES_H
#define MEMSCOPE_PEAK_FIGURES_H

#include <stdlib.h>
#include <string.h>

#include "findings.h"

/* The first "N %" in text whose N is above 100, or NULL. A signed change ("+350 %") is not a share and is passed. */
static const char *figure_above_100(const char *text)
{
    for (const char *at = strstr(text, " %"); at; at = strstr(at + 1, " %")) {
        const char *digits = at;
        while (digits > text && (digits[-1] == '.' || (digits[-1] >= '0' && digits[-1] <= '9')))
            --digits;
        if (digits == at || (digits > text && (digits[-1] == '+' || digits[-1] == '-')))
            continue;
        if (atof(digits) > 100.0)
            return digits;
    }
    return NULL;
}

/* A violation into f for a text above 100 % or a gain of 100 % or more; where names the row. */
static void check_figures(struct findings *f, const char *where, const char *text, double gain_pct)
{
    const char *over = figure_above_100(text);
    if (over)
        note(f, "%s: \"%.16s...\" in: %s", where, over, text);
    if (gain_pct >= 100.0)
        note(f, "%s: an estimated gain of %g %%", where, gain_pct);
}

#endif
