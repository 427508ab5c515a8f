# The idea each rung of the bf16 tensor-core ladder adds, as the registry describes it.
load scriptdir.'/common.gp'
page_title = "The bf16 tensor-core ladder: one idea per rung"
page_caption = sprintf("Each rung's idea in the registry's words, and below it what the run measured at W = %d against the rung before: the median\n", largest_width).\
    "time, and each of global load sectors, shared wavefronts (LDS and STS), ldmatrix wavefronts, exact bank conflicts and DRAM bytes that moved\n".\
    "by 5 % or more, and the tensor pipe's busy share where it did. An idea says what was tried, the measurement what happened; each\n".\
    "kernel's opening comment (kernels/tensor_ladder/) and docs/tensor-ladder.md say which counters its idea should move."
load scriptdir.'/page.gp'
table_rows = tensor_ladder_idea_rows + 1
table_keep_pitch = 1
table_file = datadir.'/tensor-ladder-ideas.tsv'
table_x = "0.02 0.06 0.19"
table_font_size = 11
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
