# A multi-process program's profile: the same kernel in every rank's part, the slowest rank and by how much it
# exceeds the fastest, and the counters that differ between the two (harness/report/ranks_page.c).
load scriptdir.'/common.gp'
page_title = "Ranks compared: the same kernel in each process"
page_caption = sprintf("Each kernel that ran in two processes or more (collectives apart: the next page splits their wait from their transfer), its median launch\n".\
    "per rank over every run, of the launches that ran alone: one beside its rank's collective shares the SMs with the collective's wait (DDP's all-reduce\n".\
    "beside the backward pass) and is slower for it (beside a collective: such launches of the first run, per rank, of all). The kernels whose slowest rank\n".\
    "exceeds its fastest most come first (%d of %d shown). Counters that differ: the summary's figures (DRAM, occupancy, speed of light, registers...)\n".\
    "of the two ranks' first launches of it more than %g %% apart, three named.", ranks_rows - 1, ranks_kernels, ranks_counter_gap_pct)
load scriptdir.'/page.gp'
table_rows = ranks_rows + 1
table_keep_pitch = 1
table_file = datadir.'/ranks.tsv'
table_x = "0.02 0.36 0.58 0.64 0.72 0.81"
table_first = 1
table_colour_column = 0
table_font_size = 9
load scriptdir.'/table.gp'
