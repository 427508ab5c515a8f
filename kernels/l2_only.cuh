/*
 * 128-bit global loads and stores cached in the L2 and not in the L1 (PTX .cg), volatile: the compiler can neither
 * drop nor merge them across passes, so a pass over an L2-resident buffer is served by the L2, never by the L1.
 * For the kernels that drive the L2 on purpose: the copy ceilings (ceilings/) and the corpus's L2 stream
 * (pathology/).
 */
#ifndef MEMSCOPE_L2_ONLY_CUH
#define MEMSCOPE_L2_ONLY_CUH

static __device__ __forceinline__ float4 load_cg(const float4 *p)
{
    float4 v;
    asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
    return v;
}

static __device__ __forceinline__ void store_cg(float4 *p, float4 v)
{
    asm volatile("st.global.cg.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w)
                 : "memory");
}

#endif
