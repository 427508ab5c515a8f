/*
 * The operand lists of a wgmma's accumulators in inline PTX: the instruction names its N / 2 FP32 accumulators
 * %0, %1, ... in its text, and the asm statement lists each as a "+f" register of the caller's array d. Each longer
 * list extends the shorter, so that every operand is written out once; the tensor ladder's wrappers
 * (tensor_ladder/tensor_hopper.cuh) and the tensor ceiling's kernel (ceilings/ceiling_tensor.cu) use them.
 */
#ifndef MEMSCOPE_WGMMA_OPERANDS_CUH
#define MEMSCOPE_WGMMA_OPERANDS_CUH

#define WG_TEXT_0_31 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                          \
                     "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define WG_TEXT_0_63                                                                                                   \
    WG_TEXT_0_31 ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "                  \
                 "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define WG_TEXT_0_71 WG_TEXT_0_63 ", %64, %65, %66, %67, %68, %69, %70, %71"
#define WG_TEXT_0_95                                                                                                   \
    WG_TEXT_0_71 ", %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, "                  \
                 "%88, %89, %90, %91, %92, %93, %94, %95"
#define WG_TEXT_0_127                                                                                                  \
    WG_TEXT_0_95 ", %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "      \
                 "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define WG_D8(i) "+f"(d[(i)]), "+f"(d[(i) + 1]), "+f"(d[(i) + 2]), "+f"(d[(i) + 3]), "+f"(d[(i) + 4]),                 \
                 "+f"(d[(i) + 5]), "+f"(d[(i) + 6]), "+f"(d[(i) + 7])
#define WG_D32(i) WG_D8(i), WG_D8((i) + 8), WG_D8((i) + 16), WG_D8((i) + 24)
#define WG_D_0_31 WG_D32(0)
#define WG_D_0_63 WG_D_0_31, WG_D32(32)
#define WG_D_0_71 WG_D_0_63, WG_D8(64)
#define WG_D_0_95 WG_D_0_71, WG_D8(72), WG_D8(80), WG_D8(88)
#define WG_D_0_127 WG_D_0_95, WG_D32(96)

#endif
