#!/bin/sh
# tests/inject/program_ddp.py's two ranks started by this script rather than torchrun (issue 41: "a shell script
# starting two ranks" where the GPU machine has no MPI launcher), each told what torchrun would tell it.
#
#   tests/inject/program_ddp_ranks.sh build/memscope-profile -o prof2 [memscope-profile options]
#       profiles this script itself, which starts the two ranks: parts rank-0/ and rank-1/
#   tests/inject/program_ddp_ranks.sh            (no argument) runs the two ranks alone, for the wall time
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -gt 0 ]; then
    profiler=$1
    shift
    exec "$profiler" "$@" -- "$here/program_ddp_ranks.sh"
fi
export NCCL_NVLS_ENABLE=0 # a hard rule of the GPU machines
export WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=${MASTER_PORT:-29533}
python=${PYTHON:-python3}
RANK=0 LOCAL_RANK=0 "$python" "$here/program_ddp.py" &
first=$!
RANK=1 LOCAL_RANK=1 "$python" "$here/program_ddp.py" &
second=$!
status=0
wait "$first" || status=$?
wait "$second" || status=$?
exit "$status"
