# Shared by every page: data layout, fonts, the colours of the variants.
# Expects datadir (memscope-report-data's output) and scriptdir (this folder).
reset
set datafile separator "\t"
# Tables whose first line names the columns (bars.tsv, roofline.tsv) are read by name: see bars.gp, roofline.gp.
set datafile nocolumnheaders
set termoption noenhanced
set encoding utf8
load datadir.'/variables.gp'
missing(x) = (x != x)
# A caption's line that the data may leave empty: nothing then, not an empty line.
caption_line(s) = s eq "" ? "" : s."\n"
# Room at the bottom of every page for the sentence that says what to read from it.
set tmargin at screen 0.90
set bmargin at screen 0.22
set lmargin at screen 0.09
set rmargin at screen 0.95
set grid ytics lc rgb "#dddddd"
set key top left
# The variants' names under a chart's bars, rotated, and the figures on the bars: in a smaller font where many
# share the width (38 in the reference run, 19 points apart on the PDF), so that neighbours never meet.
crowded_bars = variant_count > 28
xtics_font = crowded_bars ? ",8" : ",11"
