# One page per width: the summary table. Expects summary_width.
load scriptdir.'/common.gp'
page_title = sprintf("Summary at W = %d", summary_width)
page_caption = "Median of the timed runs (L2 emptied before each); % of cuBLAS against cuBLAS of the same precision. Load efficiency, bank\n".\
    "conflicts and DRAM GB/s come from CUPTI in a separate metric pass. 'conflicts (exact)': each shared instruction's wavefronts\n".\
    "beyond CUPTI's ideal for the same access, summed over the kernel (the source group; 'not collected' without it).\n".\
    "regs: registers per thread; occupancy: theoretical (from the kernel's registers, shared memory and block size) / achieved."
load scriptdir.'/page.gp'
table_rows = variant_count + 1
table_file = sprintf("%s/summary-%d.tsv", datadir, summary_width)
table_x = "0.03 0.20 0.26 0.33 0.40 0.47 0.55 0.66 0.73 0.78 0.91"
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
