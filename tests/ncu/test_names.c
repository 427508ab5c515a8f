/*
 * One key per kernel, whichever tool wrote its name (scripts/ncu/names.py, through scripts/ncu/normalise): the
 * forms of memscope's CSVs (the C++ runtime's demangler), CUPTI's capture ("(int)128", "(bool)1"), Nsight
 * Compute's CSV and source page, and mangled names (Activity API records) must give equal keys for the same
 * kernel and different keys for different instances of a template. The names are the suite's own (from
 * the CSVs of reports/reference/ and tests/fixtures/), cuBLAS's, and small templates for each kind of literal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../support/run_shell.h"

#define ICACHE_FIT "void pipelined_gemm_kernel<128, 256, 32, 64, 64, 16, 8, 4, 16, true, 8, true>(float const*, float const*, float*, int)"
#define ICACHE_FIT_CUPTI                                                                                               \
    "pipelined_gemm_kernel<(int)128, (int)256, (int)32, (int)64, (int)64, (int)16, (int)8, (int)4, (int)16, (bool)1, " \
    "(int)8, (bool)1>"
#define TRANSPOSED "void transposed_tile_kernel<0>(float const*, float const*, float*, int)"
#define CUTLASS "void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>(cutlass_80_simt_sgemm_256x128_8x4_nn_align1::Params)"
#define CUBLAS_256 "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize256x128x8_stage3_warpsize4x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas"
#define CUBLAS_128 "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x64x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas"

struct pair {
    const char *a, *b;
    bool same;
};

static const struct pair pairs[] = {
    /* icache_fit, as each tool names it */
    {ICACHE_FIT, ICACHE_FIT_CUPTI, true},
    {ICACHE_FIT, "pipelined_gemm_kernel<128,256,32,64,64,16,8,4,16,true,8,true>", true},
    /* Nsight Compute's CSV writes a bool argument as 0 or 1 */
    {ICACHE_FIT, "void pipelined_gemm_kernel<128, 256, 32, 64, 64, 16, 8, 4, 16, 1, 8, 1>(const float *, const float *, "
                 "float *, int)", true},
    {ICACHE_FIT, "_Z21pipelined_gemm_kernelILi128ELi256ELi32ELi64ELi64ELi16ELi8ELi4ELi16ELb1ELi8ELb1EEvPKfS1_Pfi", true},
    {ICACHE_FIT_CUPTI "(const float *, const float *, float *, int)",
     "pipelined_gemm_kernel<128,256,32,64,64,16,8,4,16,true,8,true>", true},
    {"void staged_gemm_kernel<128, 128, 16, 32, 64, 8, 8, 4, true, true>(float const*, float const*, float*, int)",
     "staged_gemm_kernel<(int)128, (int)128, (int)16, (int)32, (int)64, (int)8, (int)8, (int)4, (bool)1, (bool)1>", true},
    /* the lessons: ncu's CSV writes the parameters its own way */
    {TRANSPOSED, "void transposed_tile_kernel<0>(const float *, const float *, float *, int)", true},
    {"_Z22transposed_tile_kernelILi0EEvPKfS1_Pfi", "transposed_tile_kernel<(int)0>", true},
    {"void tiled_kernel<float, 32>(float const*, float const*, float*, int)",
     "void tiled_kernel<float, (int)32>(const T1 *, const T1 *, T1 *, int)", true},
    {"_Z12tiled_kernelIfLi32EEvPKT_S2_PS0_i", "tiled_kernel<float,32>", true},
    {"blocktiled_1d_kernel(float const*, float const*, float*, int)",
     "void blocktiled_1d_kernel(const float *, const float *, float *, int)", true},
    {"_Z20blocktiled_1d_kernelPKfS0_Pfi", "blocktiled_1d_kernel", true},
    /* libraries */
    {CUBLAS_256, CUBLAS_256, true},
    {CUTLASS, "_ZN7cutlass7Kernel2I43cutlass_80_simt_sgemm_256x128_8x4_nn_align1EEvNT_6ParamsE", true},
    {CUTLASS, "cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>", true},
    /* each kind of literal */
    {"void k<8u>(int)", "k<(unsigned int)8u>", true},
    {"k<(unsigned int)8>", "k<8>", true},
    {"_Z1kILj8EEvi", "k<8>", true},
    {"void k<3ul>(int)", "k<(unsigned long)3>", true},
    {"void k<(char)65>(int)", "k<'A'>", true},
    {"_Z1kILc65EEvi", "k<(char)65>", true},
    {"void k<-1>(int)", "k<(int)-1>", true},
    {"k<(int)(-1)>", "_Z1kILin1EEvi", true},
    {"k<(bool)0>", "void k<false>(int)", true},
    {"void outer<inner<float, 2> >(int)", "outer<inner<float,(int)2>>", true},
    {"(anonymous namespace)::k<1>(int)", "<unnamed>::k<(int)1>", true},
    /* different instances, different kernels */
    {ICACHE_FIT, "void pipelined_gemm_kernel<128, 256, 32, 64, 64, 16, 8, 4, 16, true, 0, true>(float const*, float const*, float*, int)", false},
    {"pipelined_gemm_kernel<(int)128, (int)256, (int)32, (int)64, (int)64, (int)16, (int)8, (int)4, (int)16, (bool)0, (int)0, (bool)1>",
     "pipelined_gemm_kernel<128,256,32,64,64,16,8,4,16,true,0,true>", false},
    {TRANSPOSED, "void transposed_tile_kernel<1>(float const*, float const*, float*, int)", false},
    {"void tiled_kernel<float, 16>(float const*, float const*, float*, int)", "tiled_kernel<float, (int)32>", false},
    {"_Z12tiled_kernelIdLi32EEvPKT_S2_PS0_i", "tiled_kernel<float,32>", false},
    {"void naive_kernel<float>(float const*, float const*, float*, int)",
     "void naive_kernel<double>(double const*, double const*, double*, int)", false},
    {"blocktiled_1d_kernel(float const*, float const*, float*, int)", "blocktiled_2d_kernel", false},
    {CUBLAS_256, CUBLAS_128, false},
    {"k<(int)-1>", "k<1>", false},
    {"k<(bool)1>", "k<false>", false},
};
#define N_PAIRS (sizeof pairs / sizeof *pairs)
#define NORMALISE "scripts/ncu/normalise"

/* The keys of every name of the table, a then b of each pair, in one run of the normaliser. */
static void keys_of_the_table(char keys[2 * N_PAIRS][512])
{
    static struct outcome o;
    char names[] = "/tmp/memscope-names-XXXXXX";
    int fd = mkstemp(names);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    for (size_t i = 0; i < N_PAIRS; ++i)
        fprintf(f, "%s\n%s\n", pairs[i].a, pairs[i].b);
    fclose(f);
    shell(&o, NORMALISE " < %s", names);
    remove(names);
    if (o.exit_code != 0)
        fail_msg(NORMALISE " exited %d:\n%s", o.exit_code, o.output);
    char *line = o.output;
    for (size_t k = 0; k < 2 * N_PAIRS; ++k) {
        size_t len = strcspn(line, "\n");
        if (!line[len])
            fail_msg("%zu keys for %zu names:\n%s", k, 2 * N_PAIRS, o.output);
        snprintf(keys[k], 512, "%.*s", (int)len, line);
        line += len + 1;
    }
}

static void every_form_of_a_kernel_gives_one_key_and_instances_differ(void **state)
{
    (void)state;
    static char keys[2 * N_PAIRS][512];
    keys_of_the_table(keys);
    int wrong = 0;
    for (size_t i = 0; i < N_PAIRS; ++i) {
        bool same = strcmp(keys[2 * i], keys[2 * i + 1]) == 0;
        if (same != pairs[i].same) {
            print_message("%s\n  -> %s\n%s\n  -> %s\nshould %s\n", pairs[i].a, keys[2 * i], pairs[i].b, keys[2 * i + 1],
                          pairs[i].same ? "match" : "differ");
            ++wrong;
        }
    }
    assert_int_equal(wrong, 0);
}

/* The key keeps what tells instances apart, written plainly: the report shows it. */
static void a_key_is_the_name_and_its_template_arguments(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, NORMALISE " '" ICACHE_FIT_CUPTI "'");
    assert_int_equal(o.exit_code, 0);
    assert_string_equal(o.output, "pipelined_gemm_kernel<128,256,32,64,64,16,8,4,16,1,8,1>\n");
}

/* Without c++filt a mangled name cannot be read: refused as a missing tool, not compared as it stands. */
static void a_mangled_name_without_cpp_filt_is_refused(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "python=$(python3 -c 'import sys; print(sys.executable)') && PATH=/nonexistent $python %s _Z1kILj8EEvi", NORMALISE);
    assert_int_equal(o.exit_code, 3);
    assert_non_null(strstr(o.output, "c++filt"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_form_of_a_kernel_gives_one_key_and_instances_differ),
        cmocka_unit_test(a_key_is_the_name_and_its_template_arguments),
        cmocka_unit_test(a_mangled_name_without_cpp_filt_is_refused),
    };
    return cmocka_run_group_tests_name("ncu kernel names", tests, NULL, NULL);
}
