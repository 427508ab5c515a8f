"""A program that launches a kernel eagerly on a second stream while it captures a CUDA graph in PyTorch's default
(global) mode, during which CUDA forbids every thread the calls that may synchronize: the exp runs then, and it is
the first launch of its kernel, which the default selection takes. The graph is replayed once; both results checked."""
import torch

x = torch.randn(1024, 1024, device="cuda")
a = torch.randn(4096, device="cuda")
y = torch.empty_like(a)


def step():
    return torch.tanh(x @ x)


side = torch.cuda.Stream()
other = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    step()
torch.cuda.current_stream().wait_stream(side)
torch.cuda.synchronize()
graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph):
    z = step()
    with torch.cuda.stream(other):
        torch.exp(a, out=y)
other.synchronize()
graph.replay()
torch.cuda.synchronize()
assert torch.allclose(y, torch.exp(a)), "the exp launched beside the capture is wrong"
assert torch.allclose(z, step(), atol=1e-5), "the graph's result differs from the eager one"
print("captured beside an eager launch, results right")
