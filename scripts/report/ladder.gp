# The ladder from the first lesson to cuBLAS at the largest width: each step's speed and the counters that explain it.
load scriptdir.'/common.gp'
page_title = sprintf("The FP32 ladder at W = %d", word(sizes, words(sizes)) + 0)
page_caption = "One idea per step (next page). x step before: speedup over the previous step. FFMA/LDG sector and FFMA/wavefront: thread-level\n".\
    "FFMA over the sectors of global loads (LDG) and over the wavefronts of LDS/STS: how much arithmetic each unit of traffic feeds (more\n".\
    "reuse, more FFMA); cp.async loads are not LDG (no LDG). excess wavefr.: bank conflicts, each instruction's shared wavefronts beyond\n".\
    "CUPTI's ideal, summed (the source group). Occupancy: theoretical / achieved. issue %: issue slots used (instruction issue, the last\n".\
    "steps' limiter). L2 hit %: the longest kernel's."
load scriptdir.'/page.gp'
table_rows = ladder_steps + 1
table_file = datadir.'/ladder.tsv'
table_x = "0.02 0.06 0.21 0.265 0.325 0.405 0.495 0.58 0.66 0.70 0.785 0.845 0.91"
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
