/*
 * Every saved fuzz input, replayed through its fuzz target compiled without
 * libFuzzer, as part of make test (and of make test SANITIZE=1, where a
 * sanitizer report fails the run): the inputs that once crashed a reader
 * (tests/fuzz/regressions/<target>/) and the seeds (tests/fuzz/corpus/<target>/).
 * A target returns 0 for any input it survives; the readers' refusals
 * themselves are checked by each reader's own tests.
 */
#include "fuzz_support.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#define LLVMFuzzerTestOneInput fuzz_csv_reader
#include "fuzz_csv_reader.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_results_folder
#include "fuzz_results_folder.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_history
#include "fuzz_history.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_capture
#include "fuzz_capture.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_cli
#include "fuzz_cli.c"
#undef LLVMFuzzerTestOneInput

typedef int (*fuzz_target)(const uint8_t *data, size_t size);

/* Feeds every file of folder to the target; returns how many there were (a missing folder has none). */
static int replay_folder(const char *folder, fuzz_target target)
{
    DIR *d = opendir(folder);
    int replayed = 0;
    if (!d)
        return 0;
    for (struct dirent *entry; (entry = readdir(d));) {
        char path[PATH_LEN];
        if (entry->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", folder, entry->d_name);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        static uint8_t data[1 << 20];
        size_t size = fread(data, 1, sizeof data, f);
        assert_true(feof(f));
        fclose(f);
        /* A copy of exactly the input's size, so that AddressSanitizer sees a read past its end. */
        uint8_t *input = malloc(size ? size : 1);
        assert_non_null(input);
        memcpy(input, data, size);
        if (target(input, size) != 0)
            fail_msg("%s: the target returned non-zero", path);
        free(input);
        ++replayed;
    }
    closedir(d);
    print_message("replayed %d inputs of %s\n", replayed, folder);
    return replayed;
}

static void replay(const char *name, fuzz_target target)
{
    char folder[PATH_LEN];
    snprintf(folder, sizeof folder, "tests/fuzz/corpus/%s", name);
    int seeds = replay_folder(folder, target);
    snprintf(folder, sizeof folder, "tests/fuzz/regressions/%s", name);
    replay_folder(folder, target);
    assert_true(seeds > 0); /* the seeds are committed: none found means the test runs in the wrong place */
}

static void csv_reader(void **state)
{
    (void)state;
    replay("fuzz_csv_reader", fuzz_csv_reader);
}

static void results_folder(void **state)
{
    (void)state;
    replay("fuzz_results_folder", fuzz_results_folder);
}

static void history(void **state)
{
    (void)state;
    replay("fuzz_history", fuzz_history);
}

static void capture(void **state)
{
    (void)state;
    replay("fuzz_capture", fuzz_capture);
}

static void cli(void **state)
{
    (void)state;
    replay("fuzz_cli", fuzz_cli);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_reader), cmocka_unit_test(results_folder), cmocka_unit_test(history),
        cmocka_unit_test(capture),    cmocka_unit_test(cli),
    };
    return cmocka_run_group_tests_name("fuzz regressions", tests, NULL, NULL);
}
