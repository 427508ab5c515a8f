/*
 * Which rank of a multi-process job this process is, as its launcher said it: torchrun and accelerate set RANK
 * (and LOCAL_RANK), Open MPI OMPI_COMM_WORLD_RANK, MPICH and Intel MPI PMI_RANK, Slurm's srun SLURM_PROCID. A
 * global rank is preferred to LOCAL_RANK, which repeats on every node. A process's part is named by it
 * (protocol.h: INJECT_RANK_PART), and its jobs' keys carry it (results/job_name.h).
 */
#ifndef MEMSCOPE_INJECT_RANK_H
#define MEMSCOPE_INJECT_RANK_H

/* The variables read, in this order: the first that holds a whole number from 0 names the rank. */
#define RANK_VARIABLES(X) X("RANK") X("OMPI_COMM_WORLD_RANK") X("PMI_RANK") X("SLURM_PROCID") X("LOCAL_RANK")

struct process_rank {
    long rank;            /* -1: no launcher said one */
    const char *variable; /* the variable it came from; NULL where none */
};

/* From the environment; a variable whose value is not a whole number from 0 is passed over. */
void process_rank_read(struct process_rank *r);

#endif
