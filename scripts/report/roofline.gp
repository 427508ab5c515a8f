# The hierarchical roofline at the largest width: each variant's achieved GFLOP/s (y, the same for its three points)
# against its FLOP per byte at L1/shared, L2 and DRAM (x), under the roofs of this GPU. Data: roofline.tsv and
# roofs.gp (memscope-report-data); the numbers beside the points are the key's (next page), placed by
# memscope-report-data where no two meet (roofline-labels.tsv), in the frame and with the markers roofs.gp gives.
load scriptdir.'/common.gp'
load datadir.'/roofs.gp'
page_title = "Hierarchical roofline".at_width
page_caption = "y: FLOP over the median time, counted from ".roofline_flop_source.".\n".\
    "x: the same FLOP per byte at each level: L1/shared data-stage wavefronts x 128 B, L2 bytes (lts__t_bytes), DRAM bytes. One marker per level;\n".\
    "one number per variant, in its colour, joined by a thin line to its point where it had to move away".(roofline_colour_note eq "" ? "" : " (".roofline_colour_note.")").".\n".\
    "The key (next page) lists the numbers and the points that lie on one another. A point on or near its own level's diagonal is held by that\n".\
    "level's bandwidth; the lowest roof at a variant's three points is its bound (a tensor kernel's compute roof: the measured roof of its type).\n".\
    caption_line(roofline_l2_note).roofs_note
load scriptdir.'/page.gp'
# Up to eight lines of caption: they start higher than page.gp puts them.
set label 91 at screen 0.09, screen 0.15
set logscale xy 10
set xrange [roofline_xmin:roofline_xmax]
set yrange [roofline_ymin:roofline_ymax]
set xlabel "arithmetic intensity (FLOP per byte at each level, log scale)"
set ylabel "achieved GFLOP/s (log scale)"
set format x "%g"
set format y "%.0f"
# roofs.gp's tensor_types: a roof line each in dark blue where the run measured one (roof_tensor_<type>_gflops).
# The frame the labels were placed in. The legend beside the chart: inside, it would hide points (a slow kernel
# sits bottom right).
set lmargin at screen roofline_frame_left
set rmargin at screen roofline_frame_right
set bmargin at screen roofline_frame_bottom
set tmargin at screen roofline_frame_top
set key at screen 0.745, screen 0.90 left top Left reverse box font ",9" spacing 1.7 samplen 3 width 1
set samples 1000
# A memory level's diagonal, up to the highest compute roof (a tensor type's where the run measured one).
diagonal(x, gbs) = (missing(roof_top_gflops) || x * gbs <= roof_top_gflops) ? x * gbs : 1/0
set datafile columnheaders
file = datadir.'/roofline.tsv'
labels_file = datadir.'/roofline-labels.tsv'
# One marker per level (L1/shared, L2, DRAM): circle, square, triangle.
level_marker(l) = l == 0 ? 7 : l == 1 ? 5 : 9
marker_size(l) = word(roofline_marker_sizes, l + 1) + 0
label_font = sprintf(",%g", roofline_label_font)
# A leader line from a point to its number where the number had to move away (leader = 1).
leader_dx(unused) = column("leader") != 0 ? column("label_x") - column("x") : 1/0
leader_dy(unused) = column("label_y") - column("y")
if (roofline_points == 0) {
    set label 1 "not collected: this run has no FLOP or byte counts" at graph 0.5, graph 0.5 center font ",14"
}
# A roof without a figure draws nothing and leaves the legend (roofs_note, in the caption, says why).
roof_title(value, title) = missing(value) ? "" : title
# Each diagonal named near where it enters the chart, a little above its line.
max(a, b) = a > b ? a : b
do for [roof in "l1_shared l2 dram"] {
    eval sprintf("gbs = roof_%s_gbs", roof)
    label_x = missing(gbs) ? 0 : max(roofline_xmin * 1.6, roofline_ymin * 2.0 / gbs)
    if (!missing(gbs) && label_x * gbs * 1.35 < roofline_ymax && label_x < roofline_xmax && \
        (missing(roof_top_gflops) || label_x * gbs < roof_top_gflops)) {
        set label (roof eq "l1_shared" ? "L1/shared" : roof eq "l2" ? "L2" : "DRAM") at label_x, label_x * gbs * 1.35 \
            left font ",9" tc rgb "#555555"
    }
}
plot (missing(roof_l1_shared_gbs) ? 1/0 : diagonal(x, roof_l1_shared_gbs)) \
        with lines lw 2 dt 1 lc rgb "#777777" title roof_title(roof_l1_shared_gbs, roof_l1_shared_title), \
     (missing(roof_l2_gbs) ? 1/0 : diagonal(x, roof_l2_gbs)) with lines lw 2 dt 4 lc rgb "#777777" \
        title roof_title(roof_l2_gbs, roof_l2_title), \
     (missing(roof_dram_gbs) ? 1/0 : diagonal(x, roof_dram_gbs)) with lines lw 2 dt 3 lc rgb "#777777" \
        title roof_title(roof_dram_gbs, roof_dram_title), \
     (missing(roof_fp32_gflops) ? 1/0 : roof_fp32_gflops) with lines lw 3 lc rgb "black" \
        title roof_title(roof_fp32_gflops, roof_fp32_title), \
     (missing(roof_fp64_gflops) ? 1/0 : roof_fp64_gflops) with lines lw 2 dt 2 lc rgb "black" \
        title roof_title(roof_fp64_gflops, roof_fp64_title), \
     for [t = 1:words(tensor_types)] (missing(value("roof_tensor_".word(tensor_types, t)."_gflops")) ? 1/0 : \
        value("roof_tensor_".word(tensor_types, t)."_gflops")) with lines lw 2 dt t+1 lc rgb "#1f4e9c" \
        title roof_title(value("roof_tensor_".word(tensor_types, t)."_gflops"), \
                         value("roof_tensor_".word(tensor_types, t)."_title")), \
     file using "flop_per_l1_shared_wavefront_byte":"gflops":"linetype" with points pt level_marker(0) ps marker_size(0) \
        lc variable notitle, \
     file using "flop_per_l2_byte":"gflops":"linetype" with points pt level_marker(1) ps marker_size(1) \
        lc variable notitle, \
     file using "flop_per_dram_byte":"gflops":"linetype" with points pt level_marker(2) ps marker_size(2) \
        lc variable notitle, \
     labels_file using "x":"y":(leader_dx(0)):(leader_dy(0)) with vectors nohead lw 0.5 lc rgb "#888888" notitle, \
     labels_file using "label_x":"label_y":(sprintf("%d", column("number"))) with labels center font label_font \
        notitle, \
     keyentry with points pt level_marker(0) ps marker_size(0) lc rgb "#444444" \
        title "at L1/shared: FLOP per wavefront byte", \
     keyentry with points pt level_marker(1) ps marker_size(1) lc rgb "#444444" title "at L2: FLOP per L2 byte", \
     keyentry with points pt level_marker(2) ps marker_size(2) lc rgb "#444444" title "at DRAM: FLOP per DRAM byte"
