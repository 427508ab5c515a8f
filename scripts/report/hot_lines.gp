# One page of hot lines: the source lines that cost each variant the most. Expects hot_lines_page.
load scriptdir.'/common.gp'
page_title = sprintf("Hot lines: where each kernel spends (page %d of %d)", hot_lines_page, hot_line_pages)
page_caption = "From lines.csv (the source group: CUPTI's per-instruction counters, placed on source lines). Bank conflicts and wasted sectors\n".\
    "are exact: each instruction's wavefronts or sectors beyond CUPTI's ideal for the same access, summed over the line's instructions.\n".\
    "Long names are shortened (summary.csv and lines.csv hold them whole)".\
    (hot_lines_unplaced > 0 ? sprintf("; %d kernel%s without line information (built without -lineinfo: cuBLAS's, a framework's own) not drawn.", \
                                      hot_lines_unplaced, hot_lines_unplaced > 1 ? "s" : "") : ".")
load scriptdir.'/page.gp'
# The columns are laid out by memscope-report-data from the widths their cells take in DejaVu Sans: a program's
# kernel names and generated files' paths are long.
table_rows = 29
table_file = sprintf("%s/hot-lines-%d.tsv", datadir, hot_lines_page)
table_x = value(sprintf("hot_lines_%d_table_x", hot_lines_page))
table_font_size = value(sprintf("hot_lines_%d_table_font_size", hot_lines_page))
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
