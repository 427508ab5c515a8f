# The ladder from the first lesson to cuBLAS at the largest width: each step's speed and the counters that explain it.
load scriptdir.'/common.gp'
page_title = sprintf("The FP32 ladder at W = %d", largest_width)
page_caption = "One idea per step (next page). % FP32 roof: GFLOP/s over the FP32 ceiling the run measured (ceiling_fp32_gflops; - without one).\n".\
    "x step before: speedup over the previous step. FFMA/LDG sector and FFMA/wavefront: thread-level FFMA over the sectors of global\n".\
    "loads (LDG) and over the wavefronts of LDS/STS: how much arithmetic each unit of traffic feeds (more reuse, more FFMA). excess wavefr.:\n".\
    "bank conflicts, each instruction's shared wavefronts beyond CUPTI's ideal, summed (the source group). Occupancy: theoretical / achieved.\n".\
    "issue %: issue slots used (instruction issue, the last steps' limiter). L2 hit %: the longest kernel's. DRAM MB: 10^6 bytes read and written.\n".\
    value(sprintf("no_ldg_note_%d", largest_width))
load scriptdir.'/page.gp'
# Six lines of caption: they start higher than page.gp puts them.
set label 91 at screen 0.09, screen 0.12
table_rows = ladder_steps + 1
table_keep_pitch = 1
table_file = datadir.'/ladder.tsv'
table_x = ladder_table_x
table_font_size = ladder_table_font_size
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
