"""A program that runs its work inside a CUDA graph, as torch.compile's "reduce-overhead" mode and inference servers
do: one eager warm-up on a side stream (PyTorch's recipe), then the work captured into a graph with one kernel more
(a sigmoid, launched only inside the graph), the graph replayed four times, its result checked."""
import torch

torch.manual_seed(0)
x = torch.randn(1024, 1024, device="cuda")
w = torch.randn(1024, 1024, device="cuda")


def step():
    return torch.tanh(torch.relu(x @ w)) * 2.0


side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    step()
torch.cuda.current_stream().wait_stream(side)
torch.cuda.synchronize()
graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph):
    z = torch.sigmoid(step())
for _ in range(4):
    graph.replay()
torch.cuda.synchronize()
expected = torch.sigmoid(step().cpu())
assert torch.allclose(z.cpu(), expected, atol=1e-6), "the graph's result differs from the eager one"
print("graph replayed 4 times, result right")
