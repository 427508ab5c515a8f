# Draws table_file as a table: the first line its header, later lines its rows.
# table_x: left edge of each column (a word list, in screen fractions);
# table_first: the first column drawn; table_colour_column: a column holding each
# row's linetype (0: none), which colours the row's first drawn cell; table_font_size
# (points, default 11) for pages whose cells hold sentences; table_keep_pitch for pages whose
# rows are as many as the data has: a table of fewer than table_pitch_rows rows keeps the pitch
# of one of that many, at the top of the page, instead of spreading its few rows over the page.
# Both are forgotten after the table: the PDF draws every page in one gnuplot session, where
# they would pass to the pages after.
unset border
unset tics
unset key
unset grid
set xrange [0:1]
table_pitch_rows = 16
table_min_rows = exists("table_keep_pitch") ? table_pitch_rows : 0
set yrange [-(table_rows > table_min_rows ? table_rows : table_min_rows):1]
set lmargin at screen 0.04
set rmargin at screen 0.98
if (!exists("table_font_size")) table_font_size = 11
table_font = sprintf(",%d", table_font_size)
table_columns = words(table_x)
cell_x(c) = word(table_x, c - table_first + 1) + 0
plot for [c=table_first:table_first+table_columns-1] table_file every ::0::0 \
         using (cell_x(c)):(-$0):(stringcolumn(c)) with labels left font table_font tc rgb "#333333", \
     for [c=table_first+1:table_first+table_columns-1] table_file every ::1 \
         using (cell_x(c)):(-$0-1):(stringcolumn(c)) with labels left font table_font, \
     table_file every ::1 using (cell_x(table_first)):(-$0-1):(stringcolumn(table_first)):(table_colour_column ? column(table_colour_column) : 0) \
         with labels left font table_font tc variable
undefine table_font_size table_keep_pitch
