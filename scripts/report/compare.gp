# The changes of a comparison (compare.csv, as a TSV: gnuplot cuts a quoted CSV field at
# its first comma, and a program's kernels' names hold commas): each variant x shape's
# change of the median with its 95 % interval, coloured by verdict. Draws compare_file
# (compare-chart's), else datadir's compare.tsv, which memscope-report-data checked and wrote there.
reset
if (!exists("compare_file")) compare_file = datadir.'/compare.tsv'
# compare_units and compare_shown: of a comparison of many units, the file holds the bars worth drawing
if (!exists("compare_variables")) compare_variables = datadir.'/compare-variables.gp'
load compare_variables
set datafile separator "\t"
set datafile columnheaders
set termoption noenhanced
set encoding utf8
set label 90 "Head against base: change of the median time" at screen 0.5, screen 0.955 center font ",18"
shown_words = compare_shown < compare_units ? \
    sprintf("\n%d of the %d units drawn: every SLOWER, FASTER and FAILED one, then those of most time in the base with an interval.", \
            compare_shown, compare_units) : ""
set tmargin at screen 0.90
set bmargin at screen 0.30
set lmargin at screen 0.09
set rmargin at screen 0.95
set grid ytics lc rgb "#dddddd"
set ylabel "change of the median (%)"
set xtics rotate by 45 right font ",9" nomirror
set style fill solid 0.8 border -1
set boxwidth 0.7
set offsets 0.5, 0.5, 0, 0 # the first and last bars, and their verdicts, inside the frame
set xzeroaxis lt 1 lc rgb "black" # no change, across the frame
set key top left
verdict_colour(v) = v eq "SLOWER" ? 0xd62728 : v eq "FASTER" ? 0x2ca02c : v eq "SAME" ? 0x7f7f7f : v eq "FAILED" ? 0x000000 : 0xff7f0e
# A rectangle's bar (width 0, rows above 0) is named by its shape, from rows, cols and inner: compare.csv's last
# columns since rectangular products. A file written before them names every bar by its width, as a program's kernels
# (0 x 0 x 0) still are; has_shape, whether the header names rows, keeps column("rows") from being read there (gnuplot
# warns of a column the header lacks).
has_shape = 0
has_label = 0
program = 0
# The bars' range and the whiskers': the frame holds every bar, with room above and below, and cuts a whisker that
# reaches far past them (a collective's launches, whose time is mostly waiting, had one from -90 to +850 % among bars
# of a few %: it set a scale on which no other bar could be read).
bars_low = 0
bars_high = 0
whiskers_low = 0
whiskers_high = 0
lower(x, y) = x == x && x < y ? x : y
higher(x, y) = x == x && x > y ? x : y
stats compare_file using (has_shape = sum [i=1:64] (columnhead(i) eq "rows"), \
                          has_label = sum [i=1:64] (columnhead(i) eq "label"), \
                          program = strcol("precision") eq "program", \
                          bars_low = lower(column("change_pct"), bars_low), \
                          bars_high = higher(column("change_pct"), bars_high), \
                          whiskers_low = lower(column("interval_low_pct"), whiskers_low), \
                          whiskers_high = higher(column("interval_high_pct"), whiskers_high), 0) nooutput
room = (bars_high - bars_low) / 2 > 5 ? (bars_high - bars_low) / 2 : 5
y_low = whiskers_low > bars_low - room ? whiskers_low : bars_low - room
y_high = whiskers_high < bars_high + room ? whiskers_high : bars_high + room
y_low = y_low < -1 ? y_low : -1
y_high = y_high > 1 ? y_high : 1
set yrange [y_low - (y_high - y_low) * 0.03 : y_high + (y_high - y_low) * 0.08]
cut_words = whiskers_low < y_low || whiskers_high > y_high ? "\nA whisker that reaches the frame is cut there: its interval runs on past it (compare.csv has it whole)." : ""
set label 91 "Bars: change of the median time, head against base, in %; whiskers: bootstrap 95 % interval of the ratio of medians.\n".\
    "SLOWER and FASTER need a rank test significant at alpha over all units together (Holm), an interval that excludes zero,\n".\
    "and a change beyond the noise floor (--floor, or the unit's rounds' noise where larger) and beyond either side's spread.\n".\
    "Grey bars, unlabelled, are SAME: the whole interval lies within --floor (2 % unless set).".shown_words.cut_words \
    at screen 0.09, screen 0.10 left font ",12"
# A program's first name, 40 characters at 45 degrees, reaches further left than a variant's: a wider margin. Past 20
# bars the verdicts, side by side above the bars, run into one another ("UNSUREUNSURE"): upright, each above its bar.
if (program) set lmargin at screen 0.17
crowded = STATS_records > 20
verdict_angle = crowded ? 90 : 0
verdict_lift = crowded ? 2.5 : 0.8
# A verdict stands above its bar and its whisker: a bar without an interval (too few samples) has none to stand on.
top(change, high) = high == high && high > change ? high : change
verdict_y(change, high) = top(change, high) > 0 ? top(change, high) : 0
# A whisker cut by the frame runs up through where its verdict would stand: that verdict hangs from the frame's top
# beside it instead.
cut(high) = high == high && high > y_high
size(w) = w == 0 && has_shape && column("rows") > 0 ? \
    sprintf("%dx%dx%d", column("rows"), column("cols"), column("inner")) : sprintf("W=%d", w)
# A program's kernel (precision "program") has no size: its bar is named as the table names it (compare.csv's label,
# the report's shortened name, written since the label column), cut to label_chars characters.
label_chars = 40
short(s) = strlen(s) > label_chars ? s[1:label_chars - 1]."…" : s
label(v, w) = strcol("precision") eq "program" ? short(has_label ? strcol("label") : v) : sprintf("%s %s", v, size(w))
plot compare_file using 0:"change_pct":(verdict_colour(strcol("verdict"))):xtic(label(strcol("variant"), column("width"))) with boxes lc rgb variable notitle, \
     compare_file using 0:"change_pct":"interval_low_pct":"interval_high_pct" with yerrorbars lc rgb "black" pt -1 notitle, \
     compare_file using 0:(verdict_y(column("change_pct"), column("interval_high_pct"))):(strcol("verdict") eq "SAME" || cut(column("interval_high_pct")) ? "" : strcol("verdict")) with labels rotate by verdict_angle offset 0, verdict_lift font ",8" notitle, \
     compare_file using ($0 + 0.45):(y_high):(cut(column("interval_high_pct")) && strcol("verdict") ne "SAME" ? strcol("verdict") : "") with labels rotate by verdict_angle right font ",8" notitle
