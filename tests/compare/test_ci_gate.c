/*
 * The regression gate as CI meets it: the scripts docs/regressions.md's CI section
 * calls exit with memscope-compare's status (1 a regression, 2 a comparison
 * that could not be made, 3 no GPU to run revisions on), which make would
 * turn into its own 2; and the GitHub Actions workflow calls the script, not
 * make. Results folders are copies of tests/fixtures/report-run with a change
 * planted; the scripts find memscope-compare through MEMSCOPE_BUILD (set by
 * make test).
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "../support/build_dir.h"
#include "../support/gpu_present.h"
#include "../support/remove_tree.h"
#include "../support/run_shell.h"
#include "../support/slow_down.h"
#include "../support/users_folder.h"

#define FIXTURE "tests/fixtures/report-run"
#define WORKFLOW ".github/workflows/memscope-regression.yml"

static char workdir[] = "/tmp/memscope-ci-gate-XXXXXX";

static void expect(const struct outcome *o, int code, const char *text)
{
    if (o->exit_code != code || !strstr(o->output, text))
        fail_msg("expected exit %d and \"%s\"; got %d:\n%s", code, text, o->exit_code, o->output);
}

/* A copy of the fixture as workdir/name, returned as its path. */
static const char *copy(const char *name)
{
    static char path[4][256];
    static int next;
    static struct outcome o;
    char *dest = path[next++ % 4];
    snprintf(dest, sizeof path[0], "%s/%s", workdir, name);
    shell(&o, "cp -r %s %s", FIXTURE, dest);
    assert_int_equal(o.exit_code, 0);
    return dest;
}

/* A program called name in workdir/folder, put on PATH before the real one: it logs its call to
 * workdir/folder/calls, then runs body. Returns the folder's path. */
static const char *shim(const char *folder, const char *name, const char *body)
{
    static char dir[256];
    char path[512];
    snprintf(dir, sizeof dir, "%s/%s", workdir, folder);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    mkdir(dir, 0755);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\necho \"%s $*\" >>%s/calls\n%s\n", name, dir, body);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, 0755), 0);
    return dir;
}

/* A comparison that ended leaves no .partial folder behind. */
static void expect_no_partial(const char *out)
{
    static struct outcome o;
    shell(&o, "test ! -e %s.partial", out);
    assert_int_equal(o.exit_code, 0);
}

static void planted_regression_exits_one_with_the_verdict_in_out(void **state)
{
    (void)state;
    static struct outcome o;
    const char *base = copy("base"), *head = copy("ten-percent");
    slow_down(head, "naive", "1024", 1.10);
    char out[300];
    snprintf(out, sizeof out, "%s/ten-percent-compare", workdir);
    shell(&o, "scripts/compare-results --out %s %s %s", out, base, head);
    expect(&o, 1, "13 SAME, 1 SLOWER");
    shell(&o, "grep '^naive,fp32,1024,' %s/compare.csv", out);
    expect(&o, 0, "SLOWER");
    expect_no_partial(out);
}

/* The chart is a view of compare.csv: gnuplot failing must not turn a regression into 3 ("no GPU"). */
static void regression_exits_one_even_when_no_chart_can_be_drawn(void **state)
{
    (void)state;
    static struct outcome o;
    const char *base = copy("chartless-base"), *head = copy("chartless-head");
    slow_down(head, "naive", "1024", 1.10);
    const char *no_gnuplot = shim("no-gnuplot", "gnuplot", "exit 1");
    char out[300];
    snprintf(out, sizeof out, "%s/chartless-compare", workdir);
    shell(&o, "PATH=%s:$PATH scripts/compare-results --out %s %s %s", no_gnuplot, out, base, head);
    expect(&o, 1, "no chart drawn");
    shell(&o, "test -f %s/compare.csv", out);
    assert_int_equal(o.exit_code, 0);
}

static void truncated_summary_exits_two_and_leaves_no_folder(void **state)
{
    (void)state;
    static struct outcome o;
    const char *head = copy("truncated");
    shell(&o, "head -c 2000 %s/summary.csv > %s/cut && mv %s/cut %s/summary.csv", head, head, head, head);
    assert_int_equal(o.exit_code, 0);
    char out[300];
    snprintf(out, sizeof out, "%s/truncated-compare", workdir);
    shell(&o, "scripts/compare-results --out %s %s %s", out, FIXTURE, head);
    expect(&o, 2, "summary.csv:");
    assert_non_null(strstr(o.output, "truncated"));
    shell(&o, "test ! -e %s", out);
    assert_int_equal(o.exit_code, 0);
    expect_no_partial(out);
}

/* Without a GPU both revisions would be built for nothing (a worktree and a build, 25 s or more): the
 * script refuses first. make and git are shims that log their calls; make fails, should it be called. */
static void revisions_without_a_gpu_exit_three_before_any_build(void **state)
{
    (void)state;
    if (gpu_present()) {
        print_message("a GPU is present: the refusal without one cannot be tested here, skipped\n");
        skip();
    }
    static struct outcome o;
    shell(&o, "command -v git");
    assert_int_equal(o.exit_code, 0);
    char real_git[512], exec_git[600];
    snprintf(real_git, sizeof real_git, "%.*s", (int)strcspn(o.output, "\n"), o.output);
    snprintf(exec_git, sizeof exec_git, "exec %s \"$@\"", real_git);
    shim("no-build", "git", exec_git);
    const char *no_build = shim("no-build", "make", "exit 1");
    char out[300];
    snprintf(out, sizeof out, "%s/revisions-compare", workdir);
    shell(&o, "PATH=%s:$PATH scripts/compare-revisions --out %s HEAD", no_build, out);
    expect(&o, 3, "no GPU");
    shell(&o, "cat %s/calls 2>/dev/null", no_build);
    if (strstr(o.output, "make") || strstr(o.output, "worktree"))
        fail_msg("built before refusing:\n%s", o.output);
    shell(&o, "test ! -e %s", out);
    assert_int_equal(o.exit_code, 0);
}

/* gate-trial runs the suite, so it refuses at once without a GPU, before it builds or writes anything; a plant that is
 * not there is named. */
static void gate_trial_refuses_without_a_gpu_before_building(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "scripts/gate-trial --plants time-5,nope");
    expect(&o, 2, "no plant nope: tests/fixtures/gate-plants/nope.patch is not there");
    if (gpu_present()) {
        print_message("a GPU is present: the refusal without one cannot be tested here, skipped\n");
        skip();
    }
    const char *no_build = shim("no-build-trial", "make", "exit 1");
    char out[300];
    snprintf(out, sizeof out, "%s/trial", workdir);
    shell(&o, "PATH=%s:$PATH scripts/gate-trial --out %s", no_build, out);
    expect(&o, 3, "no GPU");
    shell(&o, "test ! -e %s/calls && test ! -e %s && test ! -e %s.partial", no_build, out, out);
    assert_int_equal(o.exit_code, 0);
}

/* compare-results removes or replaces only what it wrote (docs/command-line.md, "What memscope writes"): a user's
 * DIR.partial is refused and kept; its own DIR is replaced by a new comparison, unless the user added a file. */
static void compare_results_replaces_only_its_own_folder(void **state)
{
    (void)state;
    static struct outcome o;
    char out[300];
    snprintf(out, sizeof out, "%s/users-compare", workdir);
    const char *partial = users_folder(workdir, "users-compare.partial");
    shell(&o, "scripts/compare-results --out %s %s %s", out, FIXTURE, FIXTURE);
    expect(&o, 4, "users-compare.partial exists and compare-results did not write it");
    expect_notes_kept(partial);
    shell(&o, "rm -r %s && scripts/compare-results --out %s %s %s && scripts/compare-results --out %s %s %s", partial,
          out, FIXTURE, FIXTURE, out, FIXTURE, FIXTURE);
    expect(&o, 0, "14 SAME");
    shell(&o, "echo notes >%s/notes.txt && scripts/compare-results --out %s %s %s", out, out, FIXTURE, FIXTURE);
    expect(&o, 4, "users-compare/notes.txt: compare-results did not write it");
    expect_notes_kept(out);
    /* A folder of a compare-results from before the mark listed files: what is the user's cannot be told. */
    shell(&o, "echo compare-results >%s/.memscope-output && scripts/compare-results --out %s %s %s", out, out, FIXTURE,
          FIXTURE);
    expect(&o, 4, "users-compare was written by a compare-results from before its mark listed what it wrote");
    expect_notes_kept(out);
}

/* A folder of shims in which a GPU seems present (an nvidia-smi that lists one) and make fails, should it be called. */
static const char *seeming_gpu(const char *folder)
{
    shim(folder, "nvidia-smi", "echo 'GPU 0: a GPU the test made up'");
    return shim(folder, "make", "exit 1");
}

/* Whether make was called from the shims' folder. */
static void expect_nothing_built(const char *shims)
{
    static struct outcome o;
    shell(&o, "grep make %s/calls", shims);
    assert_int_not_equal(o.exit_code, 0);
}

/* The same for compare-revisions, which refuses before it builds anything. */
static void compare_revisions_keeps_a_users_partial_folder(void **state)
{
    (void)state;
    static struct outcome o;
    const char *shims = seeming_gpu("seeming-gpu");
    char out[300];
    snprintf(out, sizeof out, "%s/users-revisions", workdir);
    const char *partial = users_folder(workdir, "users-revisions.partial");
    shell(&o, "PATH=%s:$PATH scripts/compare-revisions --out %s HEAD", shims, out);
    expect(&o, 4, "users-revisions.partial exists and compare-revisions did not write it");
    expect_notes_kept(partial);
    expect_nothing_built(shims);
}

/* gate-trial writes its folder by the same rule: a user's DIR.partial, or a DIR it did not write, is refused and kept,
 * before anything is built. */
static void gate_trial_keeps_a_users_folders(void **state)
{
    (void)state;
    static struct outcome o;
    const char *shims = seeming_gpu("seeming-gpu-trial");
    char out[300];
    snprintf(out, sizeof out, "%s/users-trial", workdir);
    const char *partial = users_folder(workdir, "users-trial.partial");
    shell(&o, "PATH=%s:$PATH scripts/gate-trial --out %s", shims, out);
    expect(&o, 4, "users-trial.partial exists and gate-trial did not write it");
    expect_notes_kept(partial);
    const char *users = users_folder(workdir, "users-trial-2");
    shell(&o, "PATH=%s:$PATH scripts/gate-trial --out %s", shims, users);
    expect(&o, 4, "users-trial-2 exists and gate-trial did not write it");
    expect_notes_kept(users);
    expect_nothing_built(shims);
}

/* The default folder is named to the second: two comparisons started together get a folder each, each with its
 * own chart, never one inside the other. */
static void two_comparisons_in_one_second_get_two_folders(void **state)
{
    (void)state;
    static struct outcome o;
    char here[256], build[300], cwd[300];
    assert_non_null(getcwd(here, sizeof here));
    /* realpath's own allocation: a buffer of ours must hold PATH_MAX (glibc's fortified check aborts otherwise) */
    char *real = realpath(build_dir(), NULL);
    assert_non_null(real);
    snprintf(build, sizeof build, "%s", real);
    free(real);
    snprintf(cwd, sizeof cwd, "%s/together", workdir);
    assert_int_equal(mkdir(cwd, 0755), 0);
    shell(&o, "cd %s && for i in 1 2; do MEMSCOPE_BUILD=%s %s/scripts/compare-results %s/" FIXTURE " %s/" FIXTURE
              " >out-$i 2>&1 & done; wait; cat out-1 out-2 | grep -E 'compare chart:|no chart drawn' | sort | uniq | "
              "wc -l; "
              "find memscope-results -mindepth 2 -type d | wc -l; ls memscope-results | wc -l",
          cwd, build, here, here, here);
    assert_int_equal(o.exit_code, 0);
    /* two folders named (their charts, or where gnuplot is missing their verdicts), no folder in a folder, two folders */
    assert_string_equal(o.output, "2\n0\n2\n");
}

/* A missing HEAD folder is the error named, also where the output folder is there already. */
static void a_missing_input_is_named_before_the_output_folder(void **state)
{
    (void)state;
    static struct outcome o;
    const char *out = users_folder(workdir, "taken");
    shell(&o, "scripts/compare-results --out %s %s %s/no-such-head", out, FIXTURE, workdir);
    expect(&o, 2, "no-such-head: no such results folder");
    expect_notes_kept(out);
}

/* What the job needs: a GPU runner, a time limit, the previous commit, the script's status (make's is
 * always 2), and the comparison kept also when the step failed. PyYAML reads the key on as True: unused. */
static const char workflow_check[] =
    "import sys, yaml\n"
    "jobs = list(yaml.safe_load(open(sys.argv[1]))[\"jobs\"].values())\n"
    "assert len(jobs) == 1, \"one job, not %d\" % len(jobs)\n"
    "job, steps = jobs[0], jobs[0][\"steps\"]\n"
    "assert \"self-hosted\" in job[\"runs-on\"], \"runs-on: %s\" % job[\"runs-on\"]\n"
    "assert int(job[\"timeout-minutes\"]) > 0, \"no timeout-minutes\"\n"
    "runs = [s[\"run\"] for s in steps if \"run\" in s]\n"
    "assert any(\"scripts/compare-revisions\" in r for r in runs), \"no step runs scripts/compare-revisions\"\n"
    "assert not any(\"make compare\" in r for r in runs), \"a step runs make compare\"\n"
    "uses = lambda action: [s for s in steps if s.get(\"uses\", \"\").startswith(action)]\n"
    "depth = uses(\"actions/checkout\")[0].get(\"with\", {}).get(\"fetch-depth\", 1)\n"
    "assert depth == 0 or depth >= 2, \"fetch-depth %s holds no previous commit\" % depth\n"
    "upload = uses(\"actions/upload-artifact\")\n"
    "assert upload and \"always()\" in upload[0].get(\"if\", \"\"), \"no artifact kept when the step fails\"\n";

static void workflow_calls_the_script_and_keeps_the_comparison(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "python3 -c 'import yaml'");
    if (o.exit_code != 0) {
        print_message("python3 with its yaml module missing (scripts/setup test installs python3-yaml): skipped\n");
        skip();
    }
    shell(&o, "python3 -c '%s' " WORKFLOW, workflow_check);
    expect(&o, 0, "");
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
        cmocka_unit_test(planted_regression_exits_one_with_the_verdict_in_out),
        cmocka_unit_test(regression_exits_one_even_when_no_chart_can_be_drawn),
        cmocka_unit_test(truncated_summary_exits_two_and_leaves_no_folder),
        cmocka_unit_test(revisions_without_a_gpu_exit_three_before_any_build),
        cmocka_unit_test(workflow_calls_the_script_and_keeps_the_comparison),
        cmocka_unit_test(gate_trial_refuses_without_a_gpu_before_building),
        cmocka_unit_test(compare_results_replaces_only_its_own_folder),
        cmocka_unit_test(compare_revisions_keeps_a_users_partial_folder),
        cmocka_unit_test(gate_trial_keeps_a_users_folders),
        cmocka_unit_test(two_comparisons_in_one_second_get_two_folders),
        cmocka_unit_test(a_missing_input_is_named_before_the_output_folder),
    };
    return cmocka_run_group_tests_name("ci_gate", tests, setup, teardown);
}
