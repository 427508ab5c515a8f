"""A program that autotunes, for memscope-profile (harness/program/autotuning.h): a Triton kernel under
@triton.autotune (two configurations, timed by Triton's do_bench at its first call) and a torch.compile'd layer
norm and GELU and a cast (Inductor's kernels; the cast's timed by Inductor's benchmarker at its first call where its cache is
cold: point TORCHINDUCTOR_CACHE_DIR at an empty folder). CALLS calls of each, seeded; prints what they computed."""
import torch
import triton
import triton.language as tl

CALLS = 7


@triton.autotune(configs=[triton.Config({"BLOCK": 256}, num_warps=4), triton.Config({"BLOCK": 1024}, num_warps=8)],
                 key=["n"])
@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    tl.store(y_ptr + offsets, tl.load(x_ptr + offsets, mask=inside) * 2.0, mask=inside)


def scale(x):
    y = torch.empty_like(x)
    scale_kernel[lambda meta: (triton.cdiv(x.numel(), meta["BLOCK"]),)](x, y, x.numel())
    return y


@torch.compile
def norm_gelu(x, w):
    return torch.nn.functional.gelu(torch.nn.functional.layer_norm(x, (x.shape[-1],), w)) * 2.0


@torch.compile
def to_half(x):  # a cast, as autocast's of weights: Inductor times two candidates of it on a cold cache
    return (x * 0.5).to(torch.bfloat16)


torch.manual_seed(0)
x = torch.randn(4096, 1024, device="cuda")
w = torch.randn(1024, device="cuda")
for _ in range(CALLS):
    y = scale(x)
    z = norm_gelu(x, w)
    h = to_half(x)
torch.cuda.synchronize()
assert torch.equal(y, x * 2.0), "scale_kernel computed something else"
assert torch.equal(h, (x * 0.5).to(torch.bfloat16)), "to_half computed something else"
print(f"calls {CALLS} sum {float(z.sum()):.4f}")
