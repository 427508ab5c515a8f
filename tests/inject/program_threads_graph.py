"""A program whose one thread replays a CUDA graph that adds 1 to a tensor, N times (argv[1], 300 by default), while
another thread launches kernels of its own on its own stream. Exits 0 when every element reads N, 3 otherwise."""
import sys
import threading

import torch

n_replays = int(sys.argv[1]) if len(sys.argv) > 1 else 300
v = torch.zeros(1 << 20, device="cuda")
side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    v.add_(1.0)
torch.cuda.current_stream().wait_stream(side)
torch.cuda.synchronize()
graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph):
    v.add_(1.0)
v.zero_()
torch.cuda.synchronize()


def replays():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        for _ in range(n_replays):
            graph.replay()
    s.synchronize()


def eager():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        t = torch.randn(2048, 2048, device="cuda")
        for _ in range(60):
            t = torch.cos(torch.sin(t))
    s.synchronize()


threads = [threading.Thread(target=replays), threading.Thread(target=eager)]
for t in threads:
    t.start()
for t in threads:
    t.join()
torch.cuda.synchronize()
low, high = v.min().item(), v.max().item()
print(f"graph replays added: min {low:.0f} max {high:.0f}, {n_replays} expected")
sys.exit(0 if low == high == n_replays else 3)
