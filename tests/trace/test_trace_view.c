/*
 * scripts/trace-view: the committed traced H100 run (reports/trace-h100) opened in speedscope, served from this
 * machine and loaded in headless Chromium, shows every track of its trace with the time the file gives it, and
 * leaves a screenshot; a page that shows nothing, or a trace the viewer reads otherwise than the file says, fails
 * the check. The viewer is installed by scripts/setup viewer, which trace-view calls first: where it cannot be
 * installed (exit 3), the tests are skipped. Each run of Chromium takes a few seconds.
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

#define RUN "reports/trace-h100"

static char workdir[] = "/tmp/memscope-trace-view-XXXXXX";

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

/* Exit 3 from scripts/setup viewer, or from trace-view, which calls it: Chromium or speedscope missing, and not
 * installable here. */
static void skip_where_no_viewer(const struct outcome *o)
{
    if (o->exit_code == 3) {
        print_message("the viewer cannot be installed here (scripts/setup viewer): skipped\n%s", o->output);
        skip();
    }
}

/* scripts/trace-view on a folder, with the environment given (may be ""), into workdir/view.png. */
static void trace_view(struct outcome *o, const char *environment, const char *folder)
{
    shell(o, "rm -f %s/view.png && %s scripts/trace-view %s %s/view.png", workdir, environment, folder, workdir);
    skip_where_no_viewer(o);
}

static void expect(const struct outcome *o, int exit_code, const char *text)
{
    if (o->exit_code != exit_code || !strstr(o->output, text))
        fail_msg("expected exit %d and \"%s\", got exit %d:\n%s", exit_code, text, o->exit_code, o->output);
}

/* The PNG's width and height, from its header. */
static void png_size(const char *path, unsigned *width, unsigned *height)
{
    unsigned char header[24];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(header, 1, sizeof header, f), sizeof header);
    fclose(f);
    assert_memory_equal(header, "\x89PNG\r\n\x1a\n", 8);
    *width = (unsigned)header[16] << 24 | header[17] << 16 | header[18] << 8 | header[19];
    *height = (unsigned)header[20] << 24 | header[21] << 16 | header[22] << 8 | header[23];
}

static void the_committed_trace_opens_in_speedscope(void **state)
{
    (void)state;
    static struct outcome o;
    char png[128];
    unsigned width, height;
    trace_view(&o, "", RUN);
    /* Each track's outermost slices summed, from trace.json (none of them holds another but the NVTX ranges, which
     * "memscope run" holds all): the run's 6713.577985 ms; stream 13's 654 kernels, copies and memsets,
     * 55.1564 ms; stream 6's 27 kernels, 2.1824 ms. */
    expect(&o, 0, "view.png: speedscope shows the 3 tracks of " RUN "/trace.json\n"
                  "  memscope (host) (pid 1), NVTX ranges (tid 1): 6713.58 ms of slices\n"
                  "  NVIDIA H100 80GB HBM3 (pid 2), stream 13 (tid 13): 55.16 ms of slices\n"
                  "  NVIDIA H100 80GB HBM3 (pid 2), stream 6 (tid 6): 2.18 ms of slices\n");
    snprintf(png, sizeof png, "%s/view.png", workdir);
    png_size(png, &width, &height);
    assert_int_equal(width, 1600); /* a speedscope for each of the 3 tracks, one above the other */
    assert_int_equal(height, 3 * 330);
}

/* A viewer whose program is empty loads no trace: each speedscope shows nothing, and the check says so. */
static void a_page_that_shows_nothing_fails_the_check(void **state)
{
    (void)state;
    static struct outcome o;
    static char environment[256];
    shell(&o, "scripts/setup viewer"); /* a viewer to copy */
    skip_where_no_viewer(&o);
    shell(&o, "mkdir -p %s/build && cp -r ${MEMSCOPE_BUILD:-build}/speedscope %s/build/ && "
              "for js in %s/build/speedscope/node_modules/speedscope/dist/release/speedscope-*.js; do : >\"$js\"; done",
          workdir, workdir, workdir);
    assert_int_equal(o.exit_code, 0);
    snprintf(environment, sizeof environment, "MEMSCOPE_BUILD=%s/build", workdir);
    trace_view(&o, environment, RUN);
    expect(&o, 1, "trace-view: speedscope 1 shows no track 1/3 of the trace; its page reads: (nothing)");
    expect(&o, 1, "view.png: speedscope does NOT show the 3 tracks");
}

/* Two kernels of stream 13 made to overlap without one holding the other: speedscope draws the first as lasting
 * to the end of its track, and the check finds the track's time far from the file's. Here the 6th (an L2 flush at
 * 499360.170 us, 19.905 us long) is stretched to the middle of the 7th (at 499383.179 us, 48.801 us long): 47.410 us.
 * The 7th, starting inside it, is no longer an outermost slice, so the file's slices (55156.354 us before) take
 * 55156.354 - 19.905 - 48.801 + 47.410 = 55135.058 us. speedscope draws the 6th to the track's end, 6115503.858 us,
 * after 325.670 us of slices before it: 6115503.858 - 499360.170 + 325.670 us = 5.616 s. */
static void a_trace_the_viewer_misreads_fails_the_check(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "mkdir -p %s/crossed && python3 -c 'import json, sys\n"
              "t = json.load(open(sys.argv[1]))\n"
              "k = [e for e in t[\"traceEvents\"] if e.get(\"cat\") == \"kernel\" and e[\"tid\"] == 13]\n"
              "k[5][\"dur\"] = k[6][\"ts\"] - k[5][\"ts\"] + k[6][\"dur\"] / 2\n"
              "json.dump(t, open(sys.argv[2], \"w\"))' " RUN "/trace.json %s/crossed/trace.json",
          workdir, workdir);
    assert_int_equal(o.exit_code, 0);
    char folder[128];
    snprintf(folder, sizeof folder, "%s/crossed", workdir);
    trace_view(&o, "", folder);
    expect(&o, 1, "trace-view: NVIDIA H100 80GB HBM3 (pid 2), stream 13 (tid 13): speedscope shows 5.62s, the "
                  "trace's slices take 55.14 ms");
}

/* A program profile's trace (memscope-profile --trace) names its GPU process "" where the GPU's name was not read
 * (the committed one does): speedscope then titles the streams "stream 0 (pid 2, tid 0)", and trace-view must expect
 * that title. Its slices, from trace.json: the program's thread 4538.33 ms, stream 0's 12 kernels 8.60 ms, stream 7's
 * copy and set 0.00 ms (4.22 us). */
static void a_programs_profile_opens_in_speedscope(void **state)
{
    (void)state;
    static struct outcome o;
    trace_view(&o, "", "reports/profile-torch-h100");
    expect(&o, 0, "view.png: speedscope shows the 3 tracks of reports/profile-torch-h100/trace.json\n"
                  "  the program (pid 2725) (pid 1), thread 2725 (tid 2725): 4538.33 ms of slices\n");
    expect(&o, 0, "  stream 0 (pid 2, tid 0): 8.60 ms of slices\n");
}

/* OUT.png is replaced by nothing: an existing file of that name (or its .partial) is refused at once, and kept. */
static void an_existing_picture_is_refused_and_kept(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "echo mine >%s/users.png && scripts/trace-view %s %s/users.png", workdir, RUN, workdir);
    expect(&o, 4, "users.png already exists: memscope replaces no file");
    shell(&o, "(cat %s/users.png && echo mine too >%s/other.png.partial && scripts/trace-view %s %s/other.png; "
              "echo \"exit $?\"; cat %s/other.png.partial; test ! -e %s/other.png)",
          workdir, workdir, RUN, workdir, workdir, workdir);
    expect(&o, 0, "mine\n");
    expect(&o, 0, "other.png.partial already exists");
    expect(&o, 0, "exit 4\nmine too\n");
}

static void a_folder_without_a_trace_is_refused(void **state)
{
    (void)state;
    static struct outcome o;
    trace_view(&o, "", "tests/fixtures");
    expect(&o, 2, "trace-view: tests/fixtures has no trace.json (a run with memscope --trace writes it)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_committed_trace_opens_in_speedscope),
        cmocka_unit_test(a_page_that_shows_nothing_fails_the_check),
        cmocka_unit_test(a_trace_the_viewer_misreads_fails_the_check),
        cmocka_unit_test(a_programs_profile_opens_in_speedscope),
        cmocka_unit_test(an_existing_picture_is_refused_and_kept),
        cmocka_unit_test(a_folder_without_a_trace_is_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
