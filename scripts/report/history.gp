# The history of one GPU at one size (a width, or a shape): median time per variant across the
# recorded runs (top), load efficiency and exact bank conflicts (below).
# Circles mark the steps memscope-history found. Expects datadir.
reset
set datafile separator "\t"
set datafile columnheaders
set termoption noenhanced
load datadir.'/variables.gp'
file = datadir.'/history.tsv'
set label 90 sprintf("History on %s at %s", gpu_name, history_label) at screen 0.5, screen 0.965 center font ",18"
set label 91 "Runs in the order they started, labelled by commit (* uncommitted changes). A circle marks a step: the level of the median time\n".\
    "changed beyond the floor (a penalised piecewise-constant fit, PELT); steps.txt beside this file lists each step with its interval and the\n".\
    "deterministic counters that changed at the same commit. Bars: interquartile range." \
    at screen 0.07, screen 0.05 left font ",11"
set xrange [-0.5 : run_count - 0.5]
set key outside right top font ",9"
set grid ytics lc rgb "#dddddd"
set multiplot
set lmargin at screen 0.08
set rmargin at screen 0.80
set tmargin at screen 0.92
set bmargin at screen 0.45
set logscale y
set ylabel "median time (ms, log scale)"
set format x ""
plot for [i=0:series_count-1] file index i using "run":"median_ms":"q1_ms":"q3_ms" with yerrorlines lt (i+1) title word(series_names, i+1), \
     for [i=0:series_count-1] file index i using "run":(column("step") > 0 ? column("median_ms") : 1/0) with points pt 6 ps 3 lw 2 lc rgb "red" notitle, \
     for [i=0:series_count-1] file index i using "run":(column("step") > 0 ? column("median_ms") : 1/0):(strcol("step_label")) with labels offset 0, 1.6 font ",9" tc rgb "red" notitle
unset label
unset logscale y
set format x "%g"
set key off
set tmargin at screen 0.41
set bmargin at screen 0.27
set ylabel "load eff. (%)"
set yrange [0:110]
set format x ""
plot for [i=0:series_count-1] file index i using "run":"load_eff_pct" with linespoints lt (i+1) notitle
set tmargin at screen 0.24
set bmargin at screen 0.12
set yrange [*:*]
set logscale y
set ylabel "exact conflicts"
set format x
set xtics rotate by 30 right font ",9"
plot for [i=0:series_count-1] file index i using "run":(column("conflicts_exact") > 0 ? column("conflicts_exact") : 1/0) with linespoints lt (i+1) notitle
unset multiplot
