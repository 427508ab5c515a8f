"""A bf16 transformer block, the tensor-core program memscope-profile is shown and measured on
(reports/profile-torch-bf16-h100, docs/profile.md): layer norm, the QKV projection, scaled_dot_product_attention,
the output projection, and an MLP (up projection, GELU, down projection), twice, each step and each part in an NVTX
range. Every GEMM's shape is a multiple of 256, so that its tensor operations are 2*M*N*K exactly. Seeded, so that
every run, under any tool, computes on the same numbers."""
import torch

TOKENS, MODEL, HEADS, HIDDEN = 4096, 2048, 16, 8192
BATCH = 4

torch.manual_seed(0)
torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False


def weight(rows, cols):
    return (torch.randn(rows, cols, device="cuda") / rows ** 0.5).to(torch.bfloat16)


def ranged(name, fn, *args):
    torch.cuda.nvtx.range_push(name)
    out = fn(*args)
    torch.cuda.nvtx.range_pop()
    return out


def attention(qkv):
    seq = TOKENS // BATCH
    q, k, v = qkv.view(BATCH, seq, 3, HEADS, MODEL // HEADS).permute(2, 0, 3, 1, 4)
    out = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    return out.transpose(1, 2).reshape(TOKENS, MODEL)


torch.cuda.nvtx.range_push("setup")
x = torch.randn(TOKENS, MODEL, device="cuda", dtype=torch.bfloat16)
w_qkv, w_out = weight(MODEL, 3 * MODEL), weight(MODEL, MODEL)
w_up, w_down = weight(MODEL, HIDDEN), weight(HIDDEN, MODEL)
torch.cuda.nvtx.range_pop()
with torch.no_grad():
    for step in range(2):
        torch.cuda.nvtx.range_push(f"step {step}")
        h = ranged("layer_norm", torch.nn.functional.layer_norm, x, (MODEL,))
        qkv = ranged("qkv", torch.matmul, h, w_qkv)
        a = ranged("attention", attention, qkv)
        x = x + ranged("out_proj", torch.matmul, a, w_out)
        u = ranged("mlp_up", torch.matmul, x, w_up)
        g = ranged("gelu", torch.nn.functional.gelu, u)
        x = x + ranged("mlp_down", torch.matmul, g, w_down)
        torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
print("sum", float(x.float().sum()))
