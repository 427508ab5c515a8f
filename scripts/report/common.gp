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
# share the width (38 bars 19 points apart on the PDF take 8 points), smaller still where more do (the reference
# run's timeline, 44 bars 16 points apart: 7), so that neighbours never meet.
bars_font(bars) = bars > 42 ? ",7" : bars > 28 ? ",8" : ",11"
# Past 42 bars, names at 35 degrees touch their neighbours' (46 bars of the timeline page): steeper.
bars_rotation(bars) = bars > 42 ? 45 : 35
xtics_font = bars_font(variant_count)
crowded_bars = xtics_font ne ",11"
