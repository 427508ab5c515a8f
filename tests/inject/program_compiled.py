"""A torch.compile program for memscope-profile's source group (docs/profile.md): Inductor fuses a layer norm and a
GELU into Triton kernels written to its cache as Python files, whose lines the profile's lines.csv names. Three
calls, seeded, so that every run, under any tool, computes on the same numbers."""
import torch

torch.manual_seed(0)


@torch.compile
def norm_gelu(x, w):
    y = torch.nn.functional.layer_norm(x, (x.shape[-1],), w)
    return torch.nn.functional.gelu(y) * 2.0


x = torch.randn(4096, 1024, device="cuda")
w = torch.randn(1024, device="cuda")
for _ in range(3):
    out = norm_gelu(x, w)
torch.cuda.synchronize()
print("sum", float(out.sum()))
