"""The PyTorch program memscope-profile is shown and measured on (reports/profile-torch-h100, docs/profile.md):
a matmul, a softmax and a layer norm, three times, each in an NVTX range. Seeded, so that every run, under any
tool, computes on the same numbers: a count that depends on the values (the softmax's predicated FFMAs) is then
the same in each."""
import torch

torch.manual_seed(0)
torch.cuda.nvtx.range_push("setup")
a = torch.randn(4096, 4096, device="cuda")
b = torch.randn(4096, 4096, device="cuda")
torch.cuda.nvtx.range_pop()
for i in range(3):
    torch.cuda.nvtx.range_push(f"step {i}")
    torch.cuda.nvtx.range_push("matmul")
    c = a @ b
    torch.cuda.nvtx.range_pop()
    torch.cuda.nvtx.range_push("softmax")
    s = torch.softmax(c, dim=1)
    torch.cuda.nvtx.range_pop()
    torch.cuda.nvtx.range_push("layer_norm")
    n = torch.nn.functional.layer_norm(s, (4096,))
    torch.cuda.nvtx.range_pop()
    torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
print("sum", float(n.sum()))
