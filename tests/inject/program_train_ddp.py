"""A training script as users write them, for memscope-profile on two GPUs (issue 48): DistributedDataParallel over
NCCL, the model compiled by torch.compile (Inductor's Triton kernels, and its compile-worker processes, which load
CUDA and launch no kernel), batches from a DataLoader with worker processes, bf16 autocast, an NVTX range per step.

    build/memscope-profile -o prof -- torchrun --nproc_per_node=2 tests/inject/program_train_ddp.py
    make report RESULTS=prof

Seeded; STEPS steps of a small transformer MLP block. Needs torch with CUDA and Triton, and two GPUs; each rank
takes the GPU of its LOCAL_RANK. NVLink SHARP (NVLS) stays off: NCCL_NVLS_ENABLE=0, a rule of the GPU machines.
"""
import os

os.environ["NCCL_NVLS_ENABLE"] = "0"

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
from torch.nn.parallel import DistributedDataParallel  # noqa: E402
from torch.utils.data import DataLoader, Dataset  # noqa: E402

from program_ddp import finish  # noqa: E402 (beside this file)

STEPS = 6
BATCH, TOKENS, WIDTH = 8, 512, 1024


class Tokens(Dataset):
    """Random token embeddings and targets, made on the CPU in the DataLoader's workers."""

    def __len__(self):
        return STEPS * BATCH

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        return torch.randn(TOKENS, WIDTH, generator=g), torch.randn(TOKENS, WIDTH, generator=g)


class Block(torch.nn.Module):
    """A transformer block's MLP half: layer norm, up projection, GELU, down projection, residual."""

    def __init__(self):
        super().__init__()
        self.norm = torch.nn.LayerNorm(WIDTH)
        self.up = torch.nn.Linear(WIDTH, 4 * WIDTH)
        self.down = torch.nn.Linear(4 * WIDTH, WIDTH)

    def forward(self, x):
        return x + self.down(torch.nn.functional.gelu(self.up(self.norm(x))))


def main():
    rank, local_rank = int(os.environ["RANK"]), int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")
    torch.manual_seed(0)  # the same weights in every rank, as DDP expects
    model = torch.nn.Sequential(Block(), Block()).cuda()
    ddp = DistributedDataParallel(model, device_ids=[local_rank])
    compiled = torch.compile(ddp)
    optimizer = torch.optim.AdamW(ddp.parameters(), lr=1e-3)
    data = DataLoader(Tokens(), batch_size=BATCH, num_workers=2, pin_memory=True)
    for step, (x, target) in enumerate(data):
        torch.cuda.nvtx.range_push(f"step {step}")
        x, target = x.cuda(non_blocking=True), target.cuda(non_blocking=True)
        optimizer.zero_grad()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = torch.nn.functional.mse_loss(compiled(x).float(), target)
        loss.backward()
        optimizer.step()
        torch.cuda.nvtx.range_pop()
    finish(loss, rank, STEPS)


if __name__ == "__main__":
    main()
