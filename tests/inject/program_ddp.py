"""A two-rank DistributedDataParallel training loop over NCCL, for memscope-profile (issue 41).

    build/memscope-profile -o prof -- torchrun --nproc_per_node=2 tests/inject/program_ddp.py
    tests/inject/program_ddp_ranks.sh build/memscope-profile -o prof2   # the same, two ranks started by a script

Seeded; each step in an NVTX range "step N" (forward, backward with its all-reduces, optimizer step); a small MLP,
a few steps, well under a minute on two H100s. Needs torch with CUDA and two GPUs; each rank takes the GPU of its
LOCAL_RANK. NVLink SHARP (NVLS) stays off: NCCL_NVLS_ENABLE=0, a rule of the GPU machines.
"""
import os

os.environ["NCCL_NVLS_ENABLE"] = "0"

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
from torch.nn.parallel import DistributedDataParallel  # noqa: E402

STEPS = 4
BATCH, WIDTH = 256, 1024


def main():
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")  # RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT from torchrun or the script
    rank = dist.get_rank()
    torch.manual_seed(0)  # the same weights in every rank, as DDP expects
    model = torch.nn.Sequential(torch.nn.Linear(WIDTH, WIDTH), torch.nn.GELU(), torch.nn.Linear(WIDTH, 10)).cuda()
    ddp = DistributedDataParallel(model, device_ids=[local_rank])
    optimizer = torch.optim.SGD(ddp.parameters(), lr=0.01)
    torch.manual_seed(1 + rank)  # each rank its own data
    inputs = torch.randn(BATCH, WIDTH, device="cuda")
    labels = torch.randint(0, 10, (BATCH,), device="cuda")
    for step in range(STEPS):
        torch.cuda.nvtx.range_push(f"step {step}")
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(ddp(inputs), labels)
        loss.backward()  # DDP's all-reduce of the gradients: NCCL kernels
        optimizer.step()
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()
    total = loss.detach().clone()
    dist.all_reduce(total)
    if rank == 0:
        print(f"loss after {STEPS} steps, summed over {dist.get_world_size()} ranks: {total.item():.4f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
