# One page per size: the summary table. Expects summary_size: a square's width (a number), or a product's shape
# ('8192x3072x1024', text); memscope-report-data names its title and footnotes after it.
load scriptdir.'/common.gp'
page_title = "Summary at ".value("size_title_".summary_size)
page_caption = "Median of the timed runs (L2 emptied before each); % of cuBLAS against cuBLAS of the same precision. Load efficiency, bank\n".\
    "conflicts and DRAM GB/s come from CUPTI in a separate metric pass. 'conflicts (exact)': each shared instruction's wavefronts\n".\
    "beyond CUPTI's ideal for the same access, summed over the kernel (the source group; 'not collected' without it).\n".\
    "regs: registers per thread; occupancy: theoretical (from the kernel's registers, shared memory and block size) / achieved.\n".\
    caption_line(value("no_ldg_note_".summary_size)).caption_line(value("l2_fit_note_".summary_size)).\
    caption_line(value("library_note_".summary_size))
load scriptdir.'/page.gp'
# Up to seven lines of caption: they start higher, and the table ends higher, than on the other pages; 11 pt, since
# the L2 footnote naming five precisions (bf16, fp16, tf32 since issue 39) ran off the right edge at 12.
set label 91 at screen 0.09, screen 0.15 font ",11"
set bmargin at screen 0.18
table_rows = variant_count + 1
table_file = datadir."/summary-".summary_size.".tsv"
table_x = "0.03 0.20 0.26 0.33 0.40 0.47 0.55 0.66 0.73 0.78 0.91"
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
