# Speedup over the naive kernel, and the share of cuBLAS, of the same precision.
load scriptdir.'/common.gp'
page_title = sprintf("Speedup over naive, and fraction of cuBLAS, at W = %d", largest_width)
page_caption = "Left: median time of the naive kernel of the same precision (naive, naive_fp64) over the variant's. Right: cuBLAS time\n".\
    "of the same precision over the variant's, in %. Each lesson's gain is the step between neighbouring bars."
load scriptdir.'/page.gp'
load scriptdir.'/bars.gp'
set multiplot layout 1, 2
set lmargin at screen 0.07
set rmargin at screen 0.48
set logscale y 10
set format y "%gx"
set ylabel "speedup over naive (log scale)"
plot bars_file using "position":"speedup_over_naive":"linetype":xtic(strcol("variant")) with boxes lc variable notitle, \
     bars_file using "position":"speedup_over_naive":(missing(column("speedup_over_naive")) ? "n/a" : sprintf("%.2fx", column("speedup_over_naive"))) with labels offset 0, 0.8 font ",9" notitle, \
     1 with lines dt 2 lc rgb "black" notitle
unset label
set lmargin at screen 0.56
set rmargin at screen 0.97
unset logscale y
set format y "%g"
set yrange [0:115]
set ylabel "% of cuBLAS"
plot bars_file using "position":"pct_of_cublas":"linetype":xtic(strcol("variant")) with boxes lc variable notitle, \
     bars_file using "position":"pct_of_cublas":(missing(column("pct_of_cublas")) ? "n/a" : sprintf("%.1f", column("pct_of_cublas"))) with labels offset 0, 0.8 font ",9" notitle
unset multiplot
