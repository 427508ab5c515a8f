# Each variant's most stalled source line at the largest width, with its main stall reason.
load scriptdir.'/common.gp'
page_title = "Most stalled lines".at_width
page_caption = "From stalls.csv: the source line where PC sampling found the variant's warps most often, its share of all the variant's samples,\n".\
    "and the reason most of that line's samples gave. A library's kernels (cuBLAS) have no line information."
load scriptdir.'/page.gp'
table_rows = stall_rows + 1
table_file = datadir.'/stall-lines.tsv'
table_x = "0.02 0.17 0.42 0.68"
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
