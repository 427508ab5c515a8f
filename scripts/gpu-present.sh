# shellcheck shell=bash
# Sourced by the scripts that run the suite on this machine (compare-revisions, gate-trial), to refuse before they
# build anything. A GPU is there when the driver lists one, or when its device nodes are (a container given a GPU
# may lack nvidia-smi).
gpu_present() {
    { command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; } ||
        compgen -G '/dev/nvidia[0-9]*' >/dev/null
}
