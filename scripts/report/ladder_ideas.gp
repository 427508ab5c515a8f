# The idea each step of the ladder adds, as the registry describes it.
load scriptdir.'/common.gp'
page_title = "The FP32 ladder: one idea per step"
page_caption = "Each kernel's opening comment says which counters its idea should move, and in which direction; the page before shows\n".\
    "whether they did."
load scriptdir.'/page.gp'
table_rows = ladder_steps + 1
table_file = datadir.'/ladder-ideas.tsv'
table_x = "0.02 0.06 0.2"
table_font_size = 9
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
