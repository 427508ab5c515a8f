# The bf16 tensor-core ladder from mma.sync to cuBLAS bf16 at the largest width: each rung's speed and the counters
# that explain it.
load scriptdir.'/common.gp'
page_title = sprintf("The bf16 tensor-core ladder at W = %d", largest_width)
page_caption = "One idea per rung (next page). % bf16 roof: TFLOP/s (2 W^3 over the median time) over the bf16 tensor ceiling the run measured\n".\
    "(ceiling_tensor_bf16_gflops; - without one). x step before: speedup over the previous rung. tensor pipe %: the tensor pipe's busy share of\n".\
    "active cycles. wavefr./LDSM: shared wavefronts per ldmatrix.x4, 4 without bank conflicts (the swizzle page: the closed form; no LDSM where\n".\
    "wgmma reads shared memory itself). excess wavefr.: bank conflicts, each instruction's wavefronts beyond CUPTI's ideal, summed (the source\n".\
    "group). Occupancy: theoretical / achieved. issue %: issue slots used. L2 hit %: the longest kernel's. DRAM MB: 10^6 bytes read and written."
load scriptdir.'/page.gp'
set label 91 at screen 0.09, screen 0.12
table_rows = tensor_ladder_steps + 1
table_keep_pitch = 1
table_file = datadir.'/tensor-ladder.tsv'
table_x = tensor_ladder_table_x
table_font_size = tensor_ladder_table_font_size
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
