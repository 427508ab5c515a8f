# One page per width: the summary table. Expects summary_width.
load scriptdir.'/common.gp'
page_title = sprintf("Summary at W = %d", summary_width)
page_caption = "Median of the timed runs (L2 emptied before each); % of cuBLAS against cuBLAS of the same precision. Load efficiency, bank\n".\
    "conflicts and DRAM GB/s come from CUPTI in a separate metric pass. 'conflicts (exact)' is instrumented wavefronts minus the\n".\
    "ideal: exact for 32-bit, non-broadcast shared accesses (the lesson kernels); for vectorised or broadcast loads it is an estimate."
load scriptdir.'/page.gp'
table_rows = variant_count + 1
table_file = sprintf("%s/summary-%d.tsv", datadir, summary_width)
table_x = "0.04 0.24 0.32 0.41 0.49 0.58 0.67 0.80 0.89"
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
