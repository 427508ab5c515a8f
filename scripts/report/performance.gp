# Achieved GFLOP/s against matrix width, one line per variant.
load scriptdir.'/common.gp'
page_title = "Performance versus matrix size"
page_caption = "GFLOP/s = 2 W^3 / median time. Higher is better. The dashed lines are the peak FP32 and FP64 rates of the CUDA cores\n".\
    "(SM count x FLOP per clock x maximum clock); cuBLAS FP64 passes its line because DGEMM runs on the FP64 tensor cores."
load scriptdir.'/page.gp'
set logscale x 2
set logscale y 10
set xlabel "matrix width W (log2 scale)"
set ylabel "GFLOP/s (log scale)"
set key outside right top
set rmargin at screen 0.78
set xtics (0)
do for [w in sizes] { set xtics add (w w+0) }
set xrange [word(sizes, 1) / 1.3 : word(sizes, words(sizes)) * 1.3]
set format y "%.0f"
peak_title(name, value) = missing(value) ? "" : sprintf("%s datasheet peak %.0f GFLOP/s", name, value)
set datafile columnheaders
plot for [i=0:variant_count-1] datadir.'/performance.tsv' index i using "width":"gflops" \
        with linespoints lt (i+1) lw (word(variant_names, i+1) eq "cublas" ? 4 : 2) title word(variant_names, i+1), \
     (missing(fp32_peak_gflops) ? 1/0 : fp32_peak_gflops) with lines dt 2 lw 2 lc rgb "black" title peak_title("FP32", fp32_peak_gflops), \
     (missing(fp64_peak_gflops) ? 1/0 : fp64_peak_gflops) with lines dt 3 lw 2 lc rgb "#555555" title peak_title("FP64", fp64_peak_gflops)
