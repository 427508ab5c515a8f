#!/usr/bin/env python3
"""Writes what memscope's injection library leaves of a large multi-process program, without a GPU: PARTS ranks'
parts (rank-R/: launches.csv, environment.csv, metrics.csv and the completion mark) into DIR, LAUNCHES launches in
all of KERNELS kernels, every kernel in every rank, one in fifty an NCCL all-reduce that rank R reaches R x 10 us
after rank 0 (rank PARTS-1 is the straggler), the first launch of each kernel in each rank profiled with the 68
metrics of a real profiled launch (reports/profile-torch-h100's layer norm). memscope-profile runs it as its program
and merges the parts as it merges a real program's (tests/program/test_many_launches.c).

    make_profile_parts.py DIR PARTS LAUNCHES KERNELS
"""
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "..", "reports", "profile-torch-h100", "metrics.csv")
NCCL = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
LAUNCH_COLUMNS = ("ordinal,kernel,mangled,nvtx_path,kernel_ordinal,grid_x,grid_y,grid_z,block_x,block_y,block_z,"
                  "dynamic_smem_bytes,static_smem_bytes,registers_per_thread,duration_ns,selected,job,run,"
                  "not_replayed,start_ns").split(",")
HOST_CLOCK = 1_700_000_000_000_000_000  # the host's real-time clock at the first launch, in ns


def one_launchs_metrics():
    """[(metric, value, unit)] of one profiled launch of a real profile: its layer norm's first."""
    with open(SOURCE, newline="") as f:
        rows = [r for r in csv.DictReader(f) if "vectorized_layer_norm_kernel" in r["variant"]]
    first = rows[0]["variant"]
    return [(r["metric"], r["value"], r["unit"]) for r in rows if r["variant"] == first]


def kernel_name(k):
    return f"void fused::kernel_{k:04d}<float, {k % 7}>(float*, float const*, int)"


def write_part(folder, rank, parts, launches, kernels, metrics):
    part = os.path.join(folder, f"rank-{rank}")
    os.makedirs(part)
    cupti_zero = 5_000_000_000 * (rank + 1)  # each process's CUPTI clock has its own origin
    seen, kernels_seen, profiled, clock, collectives = {}, set(), 0, 0, 0
    with open(os.path.join(part, "launches.csv"), "w", newline="") as lf, \
            open(os.path.join(part, "metrics.csv"), "w", newline="") as mf:
        launch_rows, metric_rows = csv.writer(lf, lineterminator="\n"), csv.writer(mf, lineterminator="\n")
        launch_rows.writerow(LAUNCH_COLUMNS)
        metric_rows.writerow(["variant", "precision", "width", "kernel", "metric", "value", "unit"])
        for i in range(launches):
            path = f"step {i * 10 // launches}"
            if i % 50 == 49:
                kernel, duration = NCCL, 20_000 + (parts - 1 - rank) * 10_000
                clock = max(clock, collectives * 2_000_000 + rank * 10_000)
                collectives += 1
            else:
                kernel = kernel_name((i * 7 + rank) % kernels)
                duration = 2_000 + (i * 7 + rank) % kernels * 10 + i % 3  # each kernel its own duration
            ordinal = seen.get((path, kernel), 0)
            seen[(path, kernel)] = ordinal + 1
            first = kernel != NCCL and kernel not in kernels_seen
            kernels_seen.add(kernel)
            job = f"{path}/{kernel} #{ordinal}"
            launch_rows.writerow([i, kernel, "", path, ordinal, 128, 1, 1, 256, 1, 1, 0, 0, 32, duration,
                                  int(first or kernel == NCCL), job, 1, "NCCL kernel" if kernel == NCCL else "",
                                  cupti_zero + clock])
            clock += duration + 1_000
            if first:
                profiled += 1
                for metric, value, unit in metrics:
                    metric_rows.writerow([job, "program", 0, kernel, metric, value, unit])
    selected = profiled + collectives
    environment = [("profiler", "memscope-profile"), ("kind", "program"), ("command_line", "python3 train.py"),
                   ("part", "a process the program started"), ("rank", rank), ("rank_variable", "RANK"),
                   ("gpu_name", "NVIDIA H100 80GB HBM3"), ("kernel_launches", launches),
                   ("selected_launches", selected), ("metric_groups", "global,shared,dram,roofline,cache,sol"),
                   ("repeat", 1), ("clock_offset_ns", HOST_CLOCK - cupti_zero)]
    with open(os.path.join(part, "environment.csv"), "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([("key", "value")] + environment)
    with open(os.path.join(part, ".memscope-profile-complete"), "w") as f:
        f.write(f"launches {launches} selected {selected}\n")


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    folder, parts, launches, kernels = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    metrics = one_launchs_metrics()
    for rank in range(parts):
        write_part(folder, rank, parts, launches // parts, kernels, metrics)


main()
