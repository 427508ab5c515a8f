# Achieved GFLOP/s against matrix width. Left: one line per variant off the FP32 ladder, with the ladder's ends
# (lesson_linetypes); right, when the run has the ladder: its steps in order, one line per width.
load scriptdir.'/common.gp'
page_title = "Performance versus matrix size"
with_ladder = ladder_steps > 0
with_fp64_cublas = strstrt(" ".variant_names." ", " cublas_fp64 ") > 0
page_caption = "GFLOP/s = 2 W^3 / median time; higher is better. ".\
    (with_ladder ? "Left: the variants off the FP32 ladder, with its first and last steps in\n".\
        "the run (naive and cuBLAS in the default suite). Right: the ladder's steps in order, one line per width ".\
        "(next to each other they\n".\
        "differ by a few per cent: against width their lines would lie on one another). " : "One line per variant.\n").\
    "Dashed: the peak FP32 rate, dotted: the peak FP64".(with_ladder ? "\n" : " ").\
    "rate of the CUDA cores (SMs x FLOP per clock x maximum clock)".\
    (with_fp64_cublas ? "; cuBLAS FP64 passes it: DGEMM runs on the FP64 tensor cores." : ".").\
    (performance_overlap_note eq "" ? "" : "\n".performance_overlap_note)
load scriptdir.'/page.gp'
peak_title(name, value) = missing(value) ? "" : sprintf("%s datasheet peak %.0f GFLOP/s", name, value)
# The left panel's key is two columns as wide as its longest title, between the panels: its peaks named short.
short_peak_title(name, value) = missing(value) ? "" : sprintf("%s peak %.0f", name, value)
set datafile columnheaders
set multiplot
set logscale x 2
set logscale y 10
set xlabel "matrix width W (log2 scale)"
set ylabel "GFLOP/s (log scale)"
left_panel_start = 0.07
left_panel_end = with_ladder ? 0.30 : 0.78
set lmargin at screen left_panel_start
set rmargin at screen left_panel_end
set key at screen (with_ladder ? 0.305 : 0.79), screen 0.90 left top Left reverse font ",10" samplen 2 spacing 1.6
set xtics (0)
do for [w in sizes] { set xtics add (w w+0) }
smallest_x = word(sizes, 1) / 1.3
largest_x = largest_width * 1.3
set xrange [smallest_x : largest_x]
# The widths stand upright where two neighbours' labels would touch on the log axis (four digits take about 0.02 of
# the page's width).
closest = 1e9
do for [i = 2:words(sizes)] {
    gap = log((word(sizes, i) + 0.0) / word(sizes, i - 1))
    closest = gap < closest ? gap : closest
}
if (closest / log(largest_x / smallest_x) * (left_panel_end - left_panel_start) < 0.025) { set xtics rotate by 90 right }
set format y "%.0f"
plot for [lt in lesson_linetypes] datadir.'/performance.tsv' index (lt - 1) using "width":"gflops" \
        with linespoints lt (lt + 0) lw (word(variant_names, lt + 0) eq "cublas" ? 4 : 2) title word(variant_names, lt + 0), \
     (missing(fp32_peak_gflops) ? 1/0 : fp32_peak_gflops) with lines dt 2 lw 2 lc rgb "black" \
        title short_peak_title("FP32", fp32_peak_gflops), \
     (missing(fp64_peak_gflops) ? 1/0 : fp64_peak_gflops) with lines dt 3 lw 2 lc rgb "#555555" \
        title short_peak_title("FP64", fp64_peak_gflops)
if (with_ladder) {
    # The page's title and caption are drawn once, by the first panel.
    unset label
    unset logscale
    set lmargin at screen 0.59
    set rmargin at screen 0.97
    set xrange [-0.5 : ladder_steps - 0.5]
    set xtics rotate by 40 right font ",10" nomirror
    set xlabel "the FP32 ladder, step by step"
    set ylabel "GFLOP/s"
    set yrange [0:*]
    # Room above the peak line for the key, which names it.
    if (!missing(fp32_peak_gflops)) { set yrange [0 : fp32_peak_gflops * 1.2] }
    set key inside left top Left reverse font ",10" samplen 3 spacing 1.2
    # The widths in grey to black, the largest (the other pages' width) solid and darkest.
    width_colour(i) = i == words(sizes) ? "#000000" : i == words(sizes) - 1 ? "#5a5a5a" : "#8c8c8c"
    width_dash(i) = words(sizes) - i + 1
    plot for [i=1:words(sizes)] datadir.'/performance-ladder.tsv' using "position":(column("gflops_".word(sizes, i))):xtic(strcol("variant")) \
            with linespoints lw 2 dt width_dash(i) pt (4 + 2 * (i % 3)) ps 1.3 lc rgb width_colour(i) \
            title sprintf("W = %s", word(sizes, i)), \
         (missing(fp32_peak_gflops) ? 1/0 : fp32_peak_gflops) with lines dt 2 lw 2 lc rgb "black" \
            title peak_title("FP32", fp32_peak_gflops)
}
unset multiplot
