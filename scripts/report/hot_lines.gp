# One page of hot lines: the source lines that cost each variant the most. Expects hot_lines_page.
load scriptdir.'/common.gp'
page_title = sprintf("Hot lines: where each kernel spends (page %d of %d)", hot_lines_page, hot_line_pages)
page_caption = "From lines.csv (the source group: CUPTI's per-instruction counters, placed on source lines). Bank conflicts and wasted sectors\n".\
    "are exact: each instruction's wavefronts or sectors beyond CUPTI's ideal for the same access, summed over the line's instructions."
load scriptdir.'/page.gp'
table_rows = 29
table_file = sprintf("%s/hot-lines-%d.tsv", datadir, hot_lines_page)
table_x = "0.02 0.15 0.265 0.495 0.78"
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
