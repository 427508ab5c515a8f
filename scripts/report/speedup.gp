# Speedup over the naive kernel (top), and the share of cuBLAS (bottom), of the same precision. The panels share
# the x axis at the page's full width, one above the other: side by side, 22 bars had half the width each and
# their values ran together. The values stand upright, so that neighbours never meet.
load scriptdir.'/common.gp'
page_title = sprintf("Speedup over naive, and fraction of cuBLAS, at W = %d", largest_width)
page_caption = "Top: median time of the naive kernel of the same precision (naive, naive_fp64) over the variant's. Bottom: cuBLAS time\n".\
    "of the same precision over the variant's, in %. Each lesson's gain is the step between neighbouring bars."
load scriptdir.'/page.gp'
load scriptdir.'/bars.gp'
set multiplot
set lmargin at screen 0.07
set rmargin at screen 0.97
set tmargin at screen 0.90
set bmargin at screen 0.585
set logscale y 10
# A run without a naive kernel has no speedup to draw: the 1x line alone would make an empty range, and the panel
# says why it is empty.
stats bars_file using (strcol("speedup_over_naive") eq "NaN" ? 0 : 1) nooutput
if (STATS_sum == 0) {
    set yrange [0.5:2]
    set label "no naive kernel in this run: no speedup to draw" at graph 0.5, 0.75 center font ",11"
}
set format y "%gx"
set ylabel "speedup over naive (log scale)"
set xtics 1 format ""
# The 1x line first, under the values.
plot 1 with lines dt 2 lc rgb "black" notitle, \
     bars_file using "position":"speedup_over_naive":"linetype" with boxes lc variable notitle, \
     bars_file using "position":"speedup_over_naive":(missing(column("speedup_over_naive")) ? "n/a" : sprintf("%.2fx", column("speedup_over_naive"))) \
        with labels rotate by 90 left offset 0, 0.5 font ",9" notitle
# The page's title and caption are drawn once, by the first panel.
unset label
set tmargin at screen 0.555
set bmargin at screen 0.22
unset logscale y
set format y "%g"
set yrange [0:135]
set ytics 0, 20, 100
set ylabel "% of cuBLAS"
set xtics format "% h"
plot bars_file using "position":"pct_of_cublas":"linetype":xtic(strcol("variant")) with boxes lc variable notitle, \
     bars_file using "position":"pct_of_cublas":(missing(column("pct_of_cublas")) ? "n/a" : sprintf("%.1f", column("pct_of_cublas"))) \
        with labels rotate by 90 left offset 0, 0.5 font ",9" notitle
unset multiplot
