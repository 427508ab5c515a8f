# Page 1: what the run found (its best ladder rung, each lesson's counter, its checks), then where and from
# which commit it was measured; for a program's profile, its busiest kernel, its kernel time and launches, then
# the program and its GPU. title_heading, the writer's, names which.
load scriptdir.'/common.gp'
table_rows = 17
set label 1 title_heading at screen 0.5, screen 0.86 center font ",22"
set label 2 gpu_name at screen 0.5, screen 0.79 center font ",16"
set label 3 source_note at screen 0.5, screen 0.73 center font ",13" tc rgb "#b22222"
set tmargin at screen 0.68
set bmargin at screen 0.10
table_file = datadir.'/title.tsv'
table_x = title_table_x
table_font_size = title_table_font_size
table_first = 1
table_colour_column = 0
load scriptdir.'/table.gp'
