/* A fixture copy's summary.csv gains the other_gpu_work column (the fixtures predate it), one row marked. */
#ifndef MEMSCOPE_MARK_DISTURBED_H
#define MEMSCOPE_MARK_DISTURBED_H

#include "run_shell.h"

/* Marks variant at width in dir/summary.csv with who (no double quote in it); the other rows stay empty. */
static void mark_disturbed(const char *dir, const char *variant, int width, const char *who)
{
    static struct outcome o;
    shell(&o, "cd %s && awk -F, 'NR == 1 { print $0 \",other_gpu_work\"; next } "
              "{ print $0 \",\" ($1 == \"%s\" && $4 == %d ? \"\\\"%s\\\"\" : \"\") }' summary.csv >summary.tmp && "
              "mv summary.tmp summary.csv",
          dir, variant, width, who);
    assert_int_equal(o.exit_code, 0);
}

#endif
