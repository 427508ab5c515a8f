# The ladder from the first lesson to cuBLAS at the largest width: each step's speed and the counters that explain it.
load scriptdir.'/common.gp'
page_title = sprintf("The FP32 ladder at W = %d", largest_width)
page_caption = "One idea per step (next page). x step before: speedup over the previous step. FFMA/LDG sector and FFMA/wavefront: thread-level\n".\
    "FFMA over the sectors of global loads (LDG) and over the wavefronts of LDS/STS: how much arithmetic each unit of traffic feeds (more\n".\
    "reuse, more FFMA). excess wavefr.: bank conflicts, each instruction's shared wavefronts beyond CUPTI's ideal, summed (the source\n".\
    "group). Occupancy: theoretical / achieved. issue %: issue slots used (instruction issue, the last steps' limiter). L2 hit %: the longest\n".\
    "kernel's. DRAM MB: 10^6 bytes read and written.\n".\
    value(sprintf("no_ldg_note_%d", largest_width))
load scriptdir.'/page.gp'
# Six lines of caption: they start higher than page.gp puts them.
set label 91 at screen 0.09, screen 0.12
table_rows = ladder_steps + 1
table_file = datadir.'/ladder.tsv'
table_x = "0.02 0.06 0.21 0.265 0.325 0.405 0.495 0.58 0.66 0.70 0.785 0.845 0.91"
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
