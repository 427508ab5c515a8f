/* The tree as a newcomer's fresh clone has it, for tests of the quick start's make targets. */
#ifndef MEMSCOPE_FRESH_COPY_H
#define MEMSCOPE_FRESH_COPY_H

#include <stdlib.h>

#include "run_shell.h"

/* Skips the test when gnuplot, which the make target draws with, is missing. */
static void skip_without_gnuplot(const char *target)
{
    if (system("command -v gnuplot >/dev/null") != 0) {
        print_message("gnuplot missing: %s cannot draw, the fresh-copy test is skipped\n", target);
        skip();
    }
}

/* Copies the working tree's tracked and untracked-but-not-ignored files into copy, as a fresh clone has them
 * (no build/, no memscope-results/), and writes the tree's root into root: the tree under test, committed or
 * not. Skips the test outside a git checkout. */
static void fresh_copy(const char *copy, char *root, size_t root_len)
{
    static struct outcome o;
    shell(&o, "git rev-parse --show-toplevel");
    if (o.exit_code != 0) {
        print_message("not a git checkout: no fresh copy of the tree can be made, the test is skipped\n");
        skip();
    }
    snprintf(root, root_len, "%.*s", (int)strcspn(o.output, "\n"), o.output);
    shell(&o, "mkdir -p %s && cd %s && git ls-files -z -co --exclude-standard | "
              "xargs -0 -I{} sh -c 'test ! -e \"$1\" || cp -P --parents \"$1\" %s' sh {}",
          copy, root, copy);
    assert_int_equal(o.exit_code, 0);
}

#endif
