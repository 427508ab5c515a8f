# Global load efficiency per variant.
load scriptdir.'/common.gp'
page_title = sprintf("Global load efficiency at W = %d", largest_width)
page_caption = "Bytes the warp asked for per byte of the 32-byte sectors fetched (smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct).\n".\
    "naive reads N along rows (coalesced); naive_uncoalesced walks down the columns of M: 16.5 sectors per request, 12.5 %.\n".\
    value(sprintf("no_ldg_note_%d", largest_width))
load scriptdir.'/page.gp'
load scriptdir.'/bars.gp'
set ylabel "global load efficiency (%)"
set yrange [0:115]
set ytics 0, 20, 100
plot bars_file using "position":"load_eff_pct":"linetype":xtic(strcol("variant")) with boxes lc variable notitle, \
     bars_file using "position":(column("load_eff_pct") + 2):(sprintf("%.1f", column("load_eff_pct"))) with labels rotate by 90 left font ",9" notitle, \
     bars_file using "position":(4):(strcol("load_eff_note") eq "-" ? "" : strcol("load_eff_note")) with labels rotate by 90 left font ",10" notitle
