# DRAM throughput per variant, as GB/s and as a share of the peak.
load scriptdir.'/common.gp'
page_title = sprintf("DRAM throughput at W = %d", largest_width)
page_caption = "DRAM bytes read and written in the metric pass over the kernel's duration; the label is the share of the peak bandwidth\n".\
    "(dram__throughput.avg.pct_of_peak_sustained_elapsed). A low figure on a slow kernel means its time goes elsewhere: to\n".\
    "sectors fetched but not used, to shared-memory replays, or to instruction latency."
load scriptdir.'/page.gp'
load scriptdir.'/bars.gp'
set ylabel "DRAM throughput (GB/s)"
set yrange [0:*]
peak_label = missing(dram_peak_gbs) ? "" : sprintf("datasheet peak %.0f GB/s", dram_peak_gbs)
plot bars_file using "position":"dram_gbs":"linetype":xtic(strcol("variant")) with boxes lc variable notitle, \
     bars_file using "position":(missing(column("dram_gbs")) ? 0 : column("dram_gbs")):(missing(column("dram_pct")) ? "not collected" : sprintf("%.1f %%", column("dram_pct"))) with labels rotate by 90 left offset 0, 0.5 font ",9" notitle, \
     (missing(dram_peak_gbs) ? 1/0 : dram_peak_gbs) with lines dt 2 lw 2 lc rgb "black" title peak_label
