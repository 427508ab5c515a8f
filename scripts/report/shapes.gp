# The tensor ladder's top rung against cuBLAS bf16 at every size the run measured.
load scriptdir.'/common.gp'
page_title = "The top rung and cuBLAS bf16 across shapes"
page_caption = sprintf("At each size the run measured (M x N x K), the ladder's top rung, %s, and cuBLAS bf16 in TFLOP/s (2 M N K over the median time),\n", shapes_top_rung).\
    "the top rung's share of cuBLAS bf16's speed (cuBLAS's median time over the rung's), and the fastest hand-written rung there with its share.\n".\
    "refused: the rung cannot take the size (its reason in summary.csv's stop_reason); failed: its product did not match the reference."
load scriptdir.'/page.gp'
table_rows = shapes_rows + 1
table_keep_pitch = 1
table_file = datadir.'/shapes.tsv'
table_x = "0.04 0.22 0.36 0.51 0.65 0.82"
table_first = 2
table_colour_column = 0
load scriptdir.'/table.gp'
