/*
 * scripts/setup, as make test calls it: whatever it installs is announced on standard error with its reason, as
 * the README promises, speedscope (the trace viewer's, from npm) included. Nothing is installed for real: npm,
 * apt-get and sudo are stand-ins on PATH, npm one that unpacks a speedscope of the pinned version, apt-get and sudo
 * ones that fail, so that a machine that lacks anything else skips the test rather than install it.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../support/remove_tree.h"
#include "../support/run_shell.h"

static char workdir[] = "/tmp/memscope-setup-XXXXXX";

/* npm install --prefix DIR speedscope@VERSION: what the package holds that scripts/setup looks for. */
static const char fake_npm[] =
    "#!/bin/sh\n"
    "while [ $# -gt 0 ]; do case $1 in --prefix) dir=$2; shift ;; speedscope@*) version=${1#speedscope@} ;; esac; "
    "shift; done\n"
    "mkdir -p \"$dir/node_modules/speedscope/dist/release\" && : >\"$dir/node_modules/speedscope/dist/release/index.html\" "
    "&& printf '{\\n  \"version\": \"%s\"\\n}\\n' \"$version\" >\"$dir/node_modules/speedscope/package.json\"\n";

static void write_program(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/bin/%s", workdir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    static struct outcome o;
    shell(&o, "chmod +x %s", path);
    assert_int_equal(o.exit_code, 0);
}

static void make_tests_setup_installs_speedscope_and_says_so(void **state)
{
    (void)state;
    static struct outcome o, err;
    shell(&o, "mkdir -p %s/bin %s/build", workdir, workdir);
    write_program("npm", fake_npm);
    write_program("apt-get", "#!/bin/sh\necho 'apt-get: a stand-in, installs nothing' >&2\nexit 1\n");
    write_program("sudo", "#!/bin/sh\nexit 1\n");
    /* Standard output alone; standard error apart: that is where the announcement must be. */
    shell(&o, "(PATH=%s/bin:$PATH MEMSCOPE_BUILD=%s/build scripts/setup test 2>%s/stderr)", workdir, workdir, workdir);
    shell(&err, "cat %s/stderr", workdir);
    if (o.exit_code == 3) {
        print_message("this machine lacks more than speedscope for make test, and nothing is installed here: "
                      "skipped\n%s", err.output);
        skip();
    }
    if (o.exit_code != 0 || !strstr(err.output, "setup: installing speedscope 1.25.0 from the npm registry into ") ||
        !strstr(err.output, "/build/speedscope (the trace viewer scripts/trace-view opens)"))
        fail_msg("expected exit 0 and speedscope's install announced on standard error; got %d:\n%s\nstandard "
                 "error:\n%s", o.exit_code, o.output, err.output);
    shell(&o, "test -f %s/build/speedscope/node_modules/speedscope/dist/release/index.html", workdir);
    assert_int_equal(o.exit_code, 0);
    /* Once it is there, nothing is installed and nothing is said. */
    shell(&o, "PATH=%s/bin:$PATH MEMSCOPE_BUILD=%s/build scripts/setup test", workdir, workdir);
    assert_int_equal(o.exit_code, 0);
    assert_string_equal(o.output, "");
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(workdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(make_tests_setup_installs_speedscope_and_says_so),
    };
    return cmocka_run_group_tests_name("setup", tests, setup, teardown);
}
