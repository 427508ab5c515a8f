/*
 * The pathology corpus (kernels/pathology/pathology.h). Without a GPU: the case table is well formed (unique names,
 * every expected finding one of the diagnosis's cause names, every sibling a case of the table labelled otherwise).
 * On the GPU (skipped without one): every case enqueues and completes, and each output that can be checked is
 * right. Where cuobjdump is at hand (skipped where not): the SASS holds each planted pathology (local loads and
 * stores, FP64 and conversions, tensor instructions, the register count of the hog) and the siblings do not.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../kernels/pathology/pathology.h"
#include "../support/build_dir.h"
#include "../support/gpu_fixture.h"
#include "../support/run_shell.h"

/* The cause names of issue 40, exactly as the diagnosis rules spell them. */
static const char *const causes[] = {
    "uncoalesced_global_loads", "uncoalesced_global_stores", "strided_global_access", "misaligned_global_access",
    "shared_load_conflicts", "shared_store_conflicts", "local_memory_spills", "branch_divergence",
    "atomic_contention", "occupancy_registers", "occupancy_shared_memory", "occupancy_block_size", "too_few_blocks",
    "partial_last_wave", "launch_overhead", "fp64_in_fp32_kernel", "dram_bound", "l2_bound", "l1_bound",
    "issue_bound", "fma_bound", "tensor_bound", "latency_bound",
    /* issue 47's */
    "predicated_off_lanes", "type_conversions"};

static int find_case(const char *name)
{
    for (size_t i = 0; i < PATHOLOGY_CASE_COUNT; ++i)
        if (strcmp(pathology_cases[i].name, name) == 0)
            return (int)i;
    return -1;
}

static void the_case_table_is_well_formed(void **state)
{
    (void)state;
    assert_true(PATHOLOGY_CASE_COUNT >= 20);
    for (size_t i = 0; i < PATHOLOGY_CASE_COUNT; ++i) {
        const struct pathology_case *k = &pathology_cases[i];
        assert_int_equal(find_case(k->name), (int)i);
        size_t c = 0;
        while (c < sizeof causes / sizeof causes[0] && strcmp(causes[c], k->expected) != 0)
            ++c;
        if (c == sizeof causes / sizeof causes[0])
            fail_msg("%s expects \"%s\", which is no cause name", k->name, k->expected);
        if (k->sibling[0] == '\0')
            continue;
        int s = find_case(k->sibling);
        if (s < 0)
            fail_msg("%s names the sibling %s, which is no case", k->name, k->sibling);
        const struct pathology_case *fix = &pathology_cases[s];
        if (strcmp(fix->expected, k->expected) == 0 || fix->sibling[0] != '\0')
            fail_msg("%s's sibling %s is labelled %s and has a sibling \"%s\": a fix is a clean case", k->name,
                     fix->name, fix->expected, fix->sibling);
    }
}

/* ---- the GPU ---- */

static struct pathology_buffers buffers;

static int open_corpus(void **state)
{
    if (open_gpu(state) != 0)
        return -1;
    const char *why = have_gpu ? pathology_allocate(&buffers) : NULL;
    if (why != NULL)
        fprintf(stderr, "pathology_allocate: %s\n", why);
    return why == NULL ? 0 : -1;
}

static int close_corpus(void **state)
{
    const char *why = have_gpu ? pathology_release(&buffers) : NULL;
    if (why != NULL)
        fprintf(stderr, "pathology_release: %s\n", why);
    return close_gpu(state) != 0 || why != NULL ? -1 : 0;
}

/* Runs one case on a dst of NaNs (so that nothing an earlier case left can pass for its output) and waits. */
static void run_case(const char *name)
{
    int c = find_case(name);
    assert_true(c >= 0);
    assert_int_equal(cudaMemsetAsync(buffers.dst, 0xFF, PATHOLOGY_BUFFER_FLOATS * sizeof(float), gpu.stream),
                     cudaSuccess);
    const char *why = pathology_cases[c].launch(&buffers, gpu.stream);
    if (why != NULL)
        fail_msg("%s: %s", name, why);
    cudaError_t rc = cudaStreamSynchronize(gpu.stream);
    if (rc != cudaSuccess)
        fail_msg("%s: %s", name, cudaGetErrorString(rc));
}

static float *dst_copy(size_t floats)
{
    float *host = malloc(floats * sizeof(float));
    assert_non_null(host);
    assert_int_equal(cudaMemcpy(host, buffers.dst, floats * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    return host;
}

static void every_case_enqueues_and_completes(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    for (size_t i = 0; i < PATHOLOGY_CASE_COUNT; ++i)
        run_case(pathology_cases[i].name);
    assert_int_equal(cudaGetLastError(), cudaSuccess);
}

/* dst[i * store_stride] must be src[source(i)] for every i < PATHOLOGY_ELEMENTS: checked at 4099 places. */
static size_t source_identity(size_t i) { return i; }
static size_t source_uncoalesced(size_t i) { return i * PATHOLOGY_UNCOALESCED_STRIDE; }
static size_t source_strided(size_t i) { return i * PATHOLOGY_PARTIAL_STRIDE; }
static size_t source_aligned(size_t i) { return i / 32 * 64 + i % 32; }
static size_t source_misaligned(size_t i) { return i / 32 * 64 + 1 + i % 32; }

static void check_copy(const char *name, size_t (*source)(size_t), size_t store_stride)
{
    run_case(name);
    for (size_t k = 0; k < 4099; ++k) {
        size_t i = k < 4096 ? k * (PATHOLOGY_ELEMENTS / 4096) + k % 61 : PATHOLOGY_ELEMENTS - 1 - (k - 4096);
        float got;
        assert_int_equal(cudaMemcpy(&got, buffers.dst + i * store_stride, sizeof got, cudaMemcpyDeviceToHost),
                         cudaSuccess);
        if (got != PATHOLOGY_SOURCE_VALUE(source(i)))
            fail_msg("%s: element %zu is %g, not src[%zu] = %g", name, i, got, source(i),
                     PATHOLOGY_SOURCE_VALUE(source(i)));
    }
}

static void the_copies_copy_what_they_say(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    check_copy("coalesced_copy", source_identity, 1);
    check_copy("uncoalesced_loads", source_uncoalesced, 1);
    check_copy("uncoalesced_stores", source_identity, PATHOLOGY_UNCOALESCED_STRIDE);
    check_copy("strided_loads", source_strided, 1);
    check_copy("aligned_loads", source_aligned, 1);
    check_copy("misaligned_loads", source_misaligned, 1);
    check_copy("copy_loop", source_identity, 1);
    check_copy("register_hog_copy", source_identity, 1);
    check_copy("shared_hog_copy", source_identity, 1);
    check_copy("tiny_block_copy", source_identity, 1);
}

static void the_shared_and_local_cases_compute_their_values(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    static const char *const loads[] = {"shared_load_conflicts", "shared_load_padded"};
    static const char *const stores[] = {"shared_store_conflicts", "shared_store_padded"};
    for (int v = 0; v < 2; ++v) {
        run_case(loads[v]);
        float *out = dst_copy(PATHOLOGY_SHARED_THREADS);
        for (int t = 0; t < PATHOLOGY_SHARED_THREADS; ++t)
            if (out[t] != PATHOLOGY_SHARED_LOAD_ROUNDS * (1024.0f * (t % 32) + 496.0f))
                fail_msg("%s: thread %d read a sum of %g", loads[v], t, out[t]);
        free(out);
        run_case(stores[v]);
        out = dst_copy(PATHOLOGY_SHARED_THREADS);
        for (int t = 0; t < PATHOLOGY_SHARED_THREADS; ++t)
            if (out[t] != 4.0f * (PATHOLOGY_SHARED_STORE_ROUNDS - 1) + (float)(t % 4))
                fail_msg("%s: thread %d found %g", stores[v], t, out[t]);
        free(out);
    }
    float a[PATHOLOGY_LOCAL_WORDS];
    for (int j = 0; j < PATHOLOGY_LOCAL_WORDS; ++j)
        a[j] = (float)j;
    unsigned j = PATHOLOGY_LOCAL_SEED;
    for (int r = 0; r < PATHOLOGY_LOCAL_ROUNDS; ++r) {
        j = (j * 5u + 3u) % PATHOLOGY_LOCAL_WORDS;
        a[j] = a[j] * 0.5f + 1.0f; /* exact either way: a product by 0.5 never rounds */
    }
    run_case("local_array");
    float *out = dst_copy(PATHOLOGY_LOCAL_THREADS);
    for (int t = 0; t < PATHOLOGY_LOCAL_THREADS; ++t)
        if (out[t] != a[PATHOLOGY_LOCAL_SEED % PATHOLOGY_LOCAL_WORDS])
            fail_msg("local_array: thread %d ends on %g, not %g", t, out[t], a[PATHOLOGY_LOCAL_SEED % 64]);
    free(out);
}

/* What fma_body computes for a thread of group g (kernels/pathology/pathology_compute.cu), in FP32 or with the
 * double literal. */
static float fma_expected(int group, int iterations, int double_literal)
{
    float a = 0.999f - (float)group * 1e-4f, acc[8], sum = 0.0f;
    for (int k = 0; k < 8; ++k)
        acc[k] = (float)k * 0.125f;
    for (int i = 0; i < iterations; ++i)
        for (int k = 0; k < 8; ++k)
            acc[k] = double_literal ? (float)((double)(acc[k] * a) + 0.001) : fmaf(acc[k], a, 0.001f);
    for (int k = 0; k < 8; ++k)
        sum += acc[k];
    return sum;
}

static void check_fma(const char *name, int threads, int iterations, int double_literal)
{
    float expected[8];
    for (int g = 0; g < 8; ++g)
        expected[g] = fma_expected(g, iterations, double_literal);
    run_case(name);
    float *out = dst_copy((size_t)threads);
    for (int t = 0; t < threads; ++t)
        if (!(fabsf(out[t] - expected[t % 8]) <= 1e-4f * expected[t % 8]))
            fail_msg("%s: thread %d computed %.9g, not %.9g", name, t, out[t], expected[t % 8]);
    free(out);
}

static void the_arithmetic_cases_compute_their_values(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    int device, sms;
    assert_int_equal(cudaGetDevice(&device), cudaSuccess);
    assert_int_equal(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), cudaSuccess);
    check_fma("fma_chain", PATHOLOGY_FMA_THREADS, 512, 0);
    check_fma("divergent_fma", PATHOLOGY_FMA_THREADS, 512, 0);
    check_fma("double_literal", PATHOLOGY_FMA_THREADS, 512, 1);
    check_fma("eight_blocks", 8 * 256, 512 * 132, 0);
    check_fma("full_wave", 2 * sms * 1024, 1024, 0);
    check_fma("one_block_tail", (2 * sms + 1) * 1024, 1024, 0);
    run_case("mma_loop");
    float *out = dst_copy(132 * 8 * 256);
    for (int t = 0; t < 132 * 8 * 256; ++t)
        if (!isfinite(out[t]) || out[t] == 0.0f)
            fail_msg("mma_loop: thread %d summed %g", t, out[t]);
    free(out);
    run_case("l2_stream");
    out = dst_copy(132 * 8 * 256);
    for (int t = 0; t < 132 * 8 * 256; ++t)
        if (!isfinite(out[t]) || out[t] < 0.0f)
            fail_msg("l2_stream: thread %d summed %g", t, out[t]);
    free(out);
}

static void the_waiting_cases_compute_their_values(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    unsigned before, after;
    assert_int_equal(cudaMemcpy(&before, buffers.counter, sizeof before, cudaMemcpyDeviceToHost), cudaSuccess);
    run_case("atomic_one_address");
    assert_int_equal(cudaMemcpy(&after, buffers.counter, sizeof after, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(after - before, PATHOLOGY_ATOMIC_ADDS);

    run_case("tiny_kernel");
    float *out = dst_copy(32);
    for (int lane = 0; lane < 32; ++lane)
        assert_true(out[lane] == (float)lane);
    free(out);

    run_case("pointer_chase");
    out = dst_copy(32 * PATHOLOGY_CHASE_WARPS);
    for (int warp = 0; warp < PATHOLOGY_CHASE_WARPS; ++warp) {
        unsigned row = PATHOLOGY_CHASE_START(warp);
        for (int s = 0; s < PATHOLOGY_CHASE_STEPS; ++s)
            row = PATHOLOGY_CHASE_NEXT(row);
        for (int lane = 0; lane < 32; ++lane)
            if (out[32 * warp + lane] != (float)row)
                fail_msg("pointer_chase: warp %d lane %d ends on row %g, not %u", warp, lane, out[32 * warp + lane],
                         row);
    }
    free(out);
}

/* Both reductions sum each block of 256 source floats (integers below 2^24: exact in a double, within a float's
 * rounding of the order they were added in). */
static void check_reduction(const char *name)
{
    size_t blocks = PATHOLOGY_ELEMENTS / PATHOLOGY_REDUCE_THREADS;
    run_case(name);
    float *out = dst_copy(blocks);
    for (size_t b = 0; b < blocks; ++b) {
        double sum = 0.0;
        for (size_t i = b * PATHOLOGY_REDUCE_THREADS; i < (b + 1) * PATHOLOGY_REDUCE_THREADS; ++i)
            sum += PATHOLOGY_SOURCE_VALUE(i);
        if (!(fabs(out[b] - sum) <= 1e-6 * sum + 1e-3))
            fail_msg("%s: block %zu summed %.9g, not %.9g", name, b, out[b], sum);
    }
    free(out);
}

/* Row r of layernorm_rows, checked against its mean and variance worked out here in double (row 2055's values near
 * 8.4 million lost every digit of their variance to E[x^2] - mean^2 in float: the kernel takes two passes). */
static void check_row(const float *out, size_t r)
{
    double sum = 0.0, squares = 0.0;
    for (size_t i = r * PATHOLOGY_ROW_FLOATS; i < (r + 1) * PATHOLOGY_ROW_FLOATS; ++i) {
        sum += PATHOLOGY_SOURCE_VALUE(i);
        squares += (double)PATHOLOGY_SOURCE_VALUE(i) * PATHOLOGY_SOURCE_VALUE(i);
    }
    double mean = sum / PATHOLOGY_ROW_FLOATS, var = squares / PATHOLOGY_ROW_FLOATS - mean * mean;
    for (size_t i = r * PATHOLOGY_ROW_FLOATS; i < (r + 1) * PATHOLOGY_ROW_FLOATS; ++i) {
        double expected = (PATHOLOGY_SOURCE_VALUE(i) - mean) / sqrt(var + 1e-5);
        if (!(fabs(out[i] - expected) <= 2e-2))
            fail_msg("layernorm_rows: element %zu of row %zu is %.6g, not %.6g", i, r, out[i], expected);
    }
}

static void the_framework_cases_compute_their_values(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    check_reduction("modulo_reduction");
    check_reduction("sequential_reduction");

    run_case("one_element_fill");
    float *out = dst_copy(2);
    assert_true(out[0] == 1.0f && isnan(out[1])); /* one element, and not the next */
    free(out);

    int sms = 0;
    assert_int_equal(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    size_t n = PATHOLOGY_TAIL_FLOATS(sms);
    run_case("vector_tail");
    out = dst_copy(n + 1);
    for (size_t i = 0; i < n; i += 997)
        if (out[i] != 2.0f * PATHOLOGY_SOURCE_VALUE(i) + 1.0f)
            fail_msg("vector_tail: element %zu is %g, not 2 x %g + 1", i, out[i], PATHOLOGY_SOURCE_VALUE(i));
    assert_true(out[n - 1] == 2.0f * PATHOLOGY_SOURCE_VALUE(n - 1) + 1.0f && isnan(out[n]));
    free(out);

    run_case("layernorm_rows");
    out = dst_copy(PATHOLOGY_ELEMENTS);
    check_row(out, 0);
    check_row(out, PATHOLOGY_ELEMENTS / PATHOLOGY_ROW_FLOATS / 2 + 7);
    check_row(out, PATHOLOGY_ELEMENTS / PATHOLOGY_ROW_FLOATS - 1);
    free(out);
}

/* ---- the SASS ---- */

/* The SASS of one kernel (a part of its mangled name) in one object of build/kernels/pathology/: the object's
 * listing from the kernel's "Function :" line to the next one. */
static char *sass_of(const char *cuobjdump, const char *object, const char *kernel)
{
    static struct outcome o;
    shell(&o, "%s -sass %s/kernels/pathology/%s.o", cuobjdump, build_dir(), object);
    if (o.exit_code != 0)
        fail_msg("cuobjdump -sass %s.o exited %d:\n%.2000s", object, o.exit_code, o.output);
    for (char *f = o.output; (f = strstr(f, "Function : ")) != NULL; ++f) {
        size_t line = strcspn(f, "\n");
        char *name = strstr(f, kernel);
        if (name == NULL || name > f + line)
            continue;
        char *next = strstr(f + line, "Function : ");
        if (next != NULL)
            *next = '\0';
        return f;
    }
    fail_msg("cuobjdump -sass %s.o lists no %s", object, kernel);
    return NULL;
}

static int count_of(const char *text, const char *opcode)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, opcode)) != NULL; p += strlen(opcode))
        ++n;
    return n;
}

static void the_sass_holds_each_planted_pathology(void **state)
{
    (void)state;
    static char cuobjdump[512];
    static struct outcome o;
    const char *cuda = getenv("CUDA");
    snprintf(cuobjdump, sizeof cuobjdump, "%s/bin/cuobjdump", cuda ? cuda : "/usr/local/cuda");
    shell(&o, "test -x %s || command -v cuobjdump", cuobjdump);
    if (o.exit_code != 0)
        skip();
    if (strchr(o.output, '/'))
        snprintf(cuobjdump, sizeof cuobjdump, "%.*s", (int)strcspn(o.output, "\n"), o.output);
    char *s = sass_of(cuobjdump, "pathology_shared", "local_array_kernel");
    assert_true(count_of(s, "LDL") >= 1 && count_of(s, "STL") >= 1);
    s = sass_of(cuobjdump, "pathology_compute", "double_literal_kernel");
    assert_true(count_of(s, "DADD") >= 8 && count_of(s, "F2F.F64.F32") >= 8);
    s = sass_of(cuobjdump, "pathology_compute", "fma_chain_kernel");
    assert_true(count_of(s, "FFMA") >= 32);
    assert_int_equal(count_of(s, "DADD") + count_of(s, "DFMA") + count_of(s, "F2F"), 0);
    s = sass_of(cuobjdump, "pathology_compute", "mma_loop_kernel");
    assert_true(count_of(s, "HMMA.16816.F32.BF16") >= 2);
    s = sass_of(cuobjdump, "pathology_shared", "shared_load_conflicts_kernel");
    assert_true(count_of(s, "LDS") >= 32);
    s = sass_of(cuobjdump, "pathology_shared", "shared_store_conflicts_kernel");
    assert_true(count_of(s, "STS") >= 4);
    s = sass_of(cuobjdump, "pathology_latency", "atomic_one_address_kernel");
    /* sm_90 names a global reduction REDG (RED before): the H100's cuobjdump showed no RED.E.ADD */
    assert_true(count_of(s, "REDG.E.ADD") + count_of(s, "RED.E.ADD") + count_of(s, "ATOMG.E.ADD") >= 1);
    assert_int_equal(count_of(s, "REDUX"), 0);
    /* the modulo by a variable: a reciprocal between two conversions; its fix has none */
    s = sass_of(cuobjdump, "pathology_framework", "modulo_reduction_kernel");
    assert_true(count_of(s, "I2F") >= 1 && count_of(s, "MUFU.RCP") >= 1 && count_of(s, "F2I") >= 1);
    s = sass_of(cuobjdump, "pathology_framework", "sequential_reduction_kernel");
    assert_int_equal(count_of(s, "I2F") + count_of(s, "MUFU") + count_of(s, "F2I"), 0);
    s = sass_of(cuobjdump, "pathology_global", "register_hog_copy_kernel");
    assert_int_equal(count_of(s, "LDL") + count_of(s, "STL"), 0);
    shell(&o, "%s -res-usage %s/kernels/pathology/pathology_global.o | grep -A1 register_hog_copy_kernel", cuobjdump,
          build_dir());
    const char *reg = strstr(o.output, "REG:");
    assert_non_null(reg);
    if (atoi(reg + 4) <= 128)
        fail_msg("register_hog_copy_kernel uses %d registers: two blocks would fit an SM", atoi(reg + 4));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_case_table_is_well_formed),
        cmocka_unit_test(every_case_enqueues_and_completes),
        cmocka_unit_test(the_copies_copy_what_they_say),
        cmocka_unit_test(the_shared_and_local_cases_compute_their_values),
        cmocka_unit_test(the_arithmetic_cases_compute_their_values),
        cmocka_unit_test(the_waiting_cases_compute_their_values),
        cmocka_unit_test(the_framework_cases_compute_their_values),
        cmocka_unit_test(the_sass_holds_each_planted_pathology),
    };
    return cmocka_run_group_tests_name("pathology_gpu", tests, open_corpus, close_corpus);
}
