/*
 * A program's source group against Nsight Compute, from an H200 (2026-11-28): memscope-profile --metric-groups
 * source over tests/inject/program_compiled.py (a torch.compile'd layer norm and GELU, one Triton kernel), its
 * source run's capture (tests/fixtures/program-triton.source: the Triton kernel's first launch, and a PyTorch
 * kernel's that ncu's page does not hold) and ncu's source page for the Triton kernel's first launch
 * (tests/fixtures/ncu-program-triton.csv: `ncu --section SourceCounters --kernel-id ::regex:triton:1`, then
 * `--page source --csv --print-source cuda,sass`). Every count on ncu's page is equal, its shared-memory columns,
 * which ncu leaves out for a kernel without a shared instruction, counting 0 on both sides; the kernel's lines are
 * those of the Python file Inductor generated, with their text, its loads of x (4096 x 1024 floats) on line 34:
 * 4096 * 1024 * 4 / 32 = 524,288 sectors.
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

#define CAPTURE "tests/fixtures/program-triton.source"
#define PAGE "tests/fixtures/ncu-program-triton.csv"
#define TRITON "triton_per_fused_gelu_mul_native_layer_norm_0"

static const char *decode_bin(void)
{
    const char *bin = getenv("MEMSCOPE_DECODE_BIN");
    return bin ? bin : "build/memscope-decode";
}

static void the_triton_kernels_counts_equal_nsight_computes(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "scripts/compare-ncu-lines " CAPTURE " " PAGE);
    if (o.exit_code != 0 || !strstr(o.output, "every compared value is equal\n") ||
        !strstr(o.output, TRITON " inst_executed             instructions  1294 differ    0  lines   20 differ   0  "
                          "kernel memscope     5,300,224 ncu     5,300,224  equal\n") ||
        !strstr(o.output, TRITON " shared_wavefronts         instructions     0 differ    0  lines    0 differ   0  "
                          "kernel memscope             0 ncu             0  equal (not on ncu's page: 0)\n"))
        fail_msg("expected exit 0, every value equal; got %d:\n%s", o.exit_code, o.output);
}

static void the_triton_kernels_lines_are_the_generated_files(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s --lines " CAPTURE " | grep -F '" TRITON " #0,program,0,' | grep -F ',34,' | grep ',global_ld_sectors,'",
          decode_bin());
    if (o.exit_code != 0 || !strstr(o.output, "/tmp/torchinductor_root/") ||
        !strstr(o.output, ".py,34,\"tmp0 = tl.load(in_ptr0 + (r0_1 + 1024*x0), None)\",") ||
        !strstr(o.output, ",global_ld_sectors,524288,0,0,0\n"))
        fail_msg("expected line 34 of Inductor's file, its text and 524,288 sectors; got %d:\n%s", o.exit_code,
                 o.output);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_triton_kernels_counts_equal_nsight_computes),
        cmocka_unit_test(the_triton_kernels_lines_are_the_generated_files),
    };
    return cmocka_run_group_tests_name("a program's Triton lines against ncu", tests, NULL, NULL);
}
