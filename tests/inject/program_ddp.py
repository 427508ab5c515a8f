"""A two-rank DistributedDataParallel training loop over NCCL, for memscope-profile (issue 41).

    build/memscope-profile -o prof -- torchrun --nproc_per_node=2 tests/inject/program_ddp.py
    build/memscope-profile -o prof -- mpirun -np 2 python3 tests/inject/program_ddp.py   # Open MPI's ranks
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


def launcher_ranks():
    """(rank, local rank, world size) as torchrun (or the two-rank script) or Open MPI's mpirun tells them."""
    for rank, local, size in (("RANK", "LOCAL_RANK", "WORLD_SIZE"),
                              ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_SIZE")):
        if rank in os.environ:
            return int(os.environ[rank]), int(os.environ[local]), int(os.environ[size])
    raise SystemExit("no rank: start this program with torchrun, mpirun or tests/inject/program_ddp_ranks.sh")


def main():
    rank, local_rank, world_size = launcher_ranks()
    torch.cuda.set_device(local_rank)
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")  # mpirun says nothing of the rendezvous: one host here
    os.environ.setdefault("MASTER_PORT", "29534")
    dist.init_process_group("nccl", rank=rank, world_size=world_size)
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
    finish(loss, rank, STEPS)


def finish(loss, rank, steps):
    """The last loss summed over the ranks, said by rank 0 (the check a run was whole), and the process group ended."""
    torch.cuda.synchronize()
    total = loss.detach().clone()
    dist.all_reduce(total)
    if rank == 0:
        print(f"loss after {steps} steps, summed over {dist.get_world_size()} ranks: {total.item():.4f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
