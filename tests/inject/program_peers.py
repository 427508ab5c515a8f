"""Two ranks, one collective racing a replay (tests/inject/test_peers_gpu.c). After each barrier rank 0 launches a
long matmul and a sine of it, each replayed at every launch under memscope-profile --launch-count-per-kernel 0, while
rank 1 sleeps for one of the delays given and then starts two all-reduces, whose NCCL kernels write into rank 0's
buffers as soon as they run. A replay that restored rank 0's memory over those writes would leave both ranks waiting
for ever (it did, before harness/gpu/peers.h)."""
import os
import sys
import time

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")  # a hard rule of the GPU machines
import torch
import torch.distributed as dist

rank, local = int(os.environ["RANK"]), int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local)
dist.init_process_group("nccl", device_id=torch.device("cuda", local))
small, big = torch.ones(4096, device="cuda"), torch.ones(1 << 22, device="cuda")
dist.all_reduce(small)
dist.all_reduce(big)
torch.cuda.synchronize()
a = torch.randn(8192, 8192, device="cuda")
for delay in [float(d) for d in sys.argv[1:]]:
    dist.barrier()
    torch.cuda.synchronize()
    if rank == 0:
        b = torch.sin(a @ a)
    else:
        time.sleep(delay)
    dist.all_reduce(small)
    dist.all_reduce(big)
    torch.cuda.synchronize()
expected = 2 ** (len(sys.argv) - 1 + 1)
print(f"rank {rank}: {'correct' if small[0].item() == expected else 'wrong'} after {len(sys.argv) - 1} delays",
      flush=True)
dist.destroy_process_group()
