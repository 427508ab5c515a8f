"""What the Nsight Compute comparisons (scripts/compare-ncu, compare-ncu-lines, compare-ncu-stalls) share.

names    one key for a kernel's name, whichever tool wrote it (scripts/ncu/normalise prints it)
pages    Nsight Compute's CSV: its raw page (--csv --print-units base) and its source page (--page source --csv)
ours     memscope's side: the CSVs harness/results writes, instructions.csv from a capture through memscope-decode
command  how a comparison refuses: bad input (exit 2), a missing tool (exit 3)
"""
