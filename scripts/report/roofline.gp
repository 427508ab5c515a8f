# The roofline: measured FLOP per measured DRAM byte against achieved GFLOP/s.
load scriptdir.'/common.gp'
page_title = "Roofline"
page_caption = "x: FLOP counted from executed instructions over DRAM bytes measured; y: those FLOP over the median time. One point per\n".\
    "variant and width (the label marks the largest). At small W the matrices stay in the 50 MB L2, so DRAM traffic is only the\n".\
    "compulsory one and the points sit far right. Open symbols: FLOP from the work model (2 W^3), as tensor-core FLOP are not counted."
load scriptdir.'/page.gp'
set logscale xy 10
set xlabel "arithmetic intensity (FLOP per DRAM byte, log scale)"
set ylabel "achieved GFLOP/s (log scale)"
set key bottom right
set format y "%.0f"
set format x "%g"
set xrange [1:3000]
set yrange [100:200000]
set samples 400
roof(x, peak) = (x * dram_peak_gbs < peak) ? x * dram_peak_gbs : peak
set datafile columnheaders
roofline_file = datadir.'/roofline.tsv'
if (roofline_points == 0) {
    set label 1 "not collected: this run has no FLOP or DRAM byte counts" at graph 0.5, graph 0.5 center font ",14"
}
plot (missing(fp32_peak_gflops) ? 1/0 : roof(x, fp32_peak_gflops)) with lines lw 3 lc rgb "black" \
        title sprintf("FP32 roof (%.0f GFLOP/s, %.0f GB/s)", fp32_peak_gflops, dram_peak_gbs), \
     (missing(fp64_peak_gflops) ? 1/0 : roof(x, fp64_peak_gflops)) with lines lw 2 dt 2 lc rgb "#555555" \
        title sprintf("FP64 roof (%.0f GFLOP/s)", fp64_peak_gflops), \
     roofline_file using "flop_per_dram_byte":(column("flop_from_work_model") != 0 ? 1/0 : column("gflops")):"linetype" with points lc variable pt 7 ps 1.4 notitle, \
     roofline_file using "flop_per_dram_byte":(column("flop_from_work_model") != 0 ? column("gflops") : 1/0):"linetype" with points lc variable pt 6 ps 1.6 lw 2 notitle, \
     roofline_file using "flop_per_dram_byte":"gflops":(strcol("label") eq "-" ? "" : strcol("label")) with labels left offset 1, 0 font ",9" notitle
