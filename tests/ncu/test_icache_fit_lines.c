/*
 * A cp.async rung of the FP32 ladder against Nsight Compute, from an H100: icache_fit at W = 256, its source
 * group's capture (tests/fixtures/icache_fit-W256.source) and ncu's source page for the same launch
 * (tests/fixtures/ncu-icache_fit-W256.csv, `ncu --section SourceCounters ... --page source --csv --print-source
 * cuda,sass`, as scripts/compare-ncu-lines says). The capture names the kernel by its mangled name, which
 * memscope-decode demangles into "<..., true, 8, true>", and ncu as "<(int)128, ..., (bool)1>"; the page holds
 * lines of inline asm whose quotes ncu does not escape (ladder_common.cuh:125 and 131, the cp.async). Every kernel
 * must be matched and every instruction's count equal, and those lines read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../support/run_shell.h"

#define CAPTURE "tests/fixtures/icache_fit-W256.source"
#define PAGE "tests/fixtures/ncu-icache_fit-W256.csv"
#define ICACHE_FIT_KEY "pipelined_gemm_kernel<128,256,32,64,64,16,8,4,16,1,8,1>"

static void every_kernel_of_the_page_is_in_the_capture(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "scripts/compare-ncu-lines " CAPTURE " " PAGE);
    if (strstr(o.output, " not in " CAPTURE) || !strstr(o.output, ICACHE_FIT_KEY " inst_executed "))
        fail_msg("a kernel was not matched (exit %d):\n%s", o.exit_code, o.output);
}

static void every_count_equals_nsight_computes(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "scripts/compare-ncu-lines " CAPTURE " " PAGE);
    if (o.exit_code != 0 || !strstr(o.output, "every compared value is equal\n"))
        fail_msg("expected exit 0, every value equal; got %d:\n%s", o.exit_code, o.output);
}

/* The page's samples on the cp.async line (3 of the kernel's 101): a reader that splits its row wherever a quote
 * stands loses the line, and them. */
static void a_line_of_inline_asm_is_read_whole(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "printf 'variant,precision,width,kernel,file,line,source,reason,samples\\n"
              "icache_fit,fp32,256,\"void " ICACHE_FIT_KEY "(float const*, float const*, float*, int)\","
              "kernels/ladder/ladder_common.cuh,125,asm,mio_throttle,10\\n' | "
              "scripts/compare-ncu-stalls /dev/stdin " PAGE);
    if (o.exit_code != 0 || !strstr(o.output, ICACHE_FIT_KEY " (W = 256): memscope 10 samples, ncu 101\n") ||
        !strstr(o.output, "  ladder_common.cuh:125    100.0 % mio_throttle         3.0 % "))
        fail_msg("expected ncu's 101 samples, 3 on ladder_common.cuh:125; got %d:\n%s", o.exit_code, o.output);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_kernel_of_the_page_is_in_the_capture),
        cmocka_unit_test(every_count_equals_nsight_computes),
        cmocka_unit_test(a_line_of_inline_asm_is_read_whole),
    };
    return cmocka_run_group_tests_name("compare-ncu-lines, icache_fit from the GPU", tests, NULL, NULL);
}
