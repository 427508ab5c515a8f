# The idea each step of the ladder adds, as the registry describes it.
load scriptdir.'/common.gp'
page_title = "The FP32 ladder: one idea per step"
page_caption = sprintf("Each step's idea in the registry's words, and below it what the run measured at W = %d against the step before: the median\n", largest_width).\
    "time, and each of global load sectors, shared wavefronts (LDS and STS), exact bank conflicts and DRAM bytes that moved by 5 % or more.\n".\
    "An idea says what was tried, the measurement what happened: a predicted effect can fail to show. Each kernel's opening comment\n".\
    "says which counters its idea should move; the page before has the figures."
load scriptdir.'/page.gp'
table_rows = ladder_idea_rows + 1
table_keep_pitch = 1
table_file = datadir.'/ladder-ideas.tsv'
table_x = "0.02 0.06 0.19"
table_font_size = 11
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
