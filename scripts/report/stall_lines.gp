# Each variant's most stalled source line at the largest width, with its main stall reason.
load scriptdir.'/common.gp'
page_title = "Most stalled lines".at_width
page_caption = "From stalls.csv: the source line where PC sampling found the ".(program_profile ? "kernel's sampled launch" : "variant")."'s warps most often, its share of all its samples,\n".\
    "and the reason most of that line's samples gave".(program_profile ? " (the file's name alone, a long one by its start and end: stalls.csv has its path).\n" : ". ").\
    "A kernel built without line information (-lineinfo), as a library's, has none."
load scriptdir.'/page.gp'
table_rows = stall_rows + 1
table_keep_pitch = 1
table_file = datadir.'/stall-lines.tsv'
table_x = program_profile ? "0.02 0.34 0.50 0.72" : "0.02 0.17 0.42 0.68"
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
