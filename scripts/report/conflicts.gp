# Shared-memory bank conflicts per variant: hardware counter beside the exact count.
load scriptdir.'/common.gp'
page_title = sprintf("Shared-memory bank conflicts at W = %d (log scale)", largest_width)
page_caption = "Light bars: the hardware counter l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum, which over-counts (millions\n".\
    "for the padded kernel, which has none). Dark bars: exact, from the source group: each instruction's wavefronts beyond CUPTI's ideal\n".\
    "for the same access, summed over the kernel (\"not collected\" when the run left the group out). tiled_transposed stores its tile\n".\
    "down the columns of float[32][32], a 32-way conflict per store; padding to [32][33] removes them all."
load scriptdir.'/page.gp'
load scriptdir.'/bars.gp'
set logscale y 10
set yrange [0.5:*]
set format y "10^%T"
set ylabel "bank conflicts"
set boxwidth 0.38
positive(x) = (missing(x) || x <= 0) ? 1/0 : x
zero_note(x) = missing(x) ? "not collected" : x == 0 ? "0" : ""
plot bars_file using (column("position") - 0.2):(positive(column("conflicts_hw"))):"linetype":xtic(strcol("variant")) with boxes lc variable fs transparent solid 0.35 title "hardware counter", \
     bars_file using (column("position") + 0.2):(positive(column("conflicts_exact"))):"linetype" with boxes lc variable fs solid 0.9 title conflicts_label, \
     bars_file using (column("position") - 0.2):(0.8):(zero_note(column("conflicts_hw"))) with labels rotate by 90 left font ",9" notitle, \
     bars_file using (column("position") + 0.2):(0.8):(zero_note(column("conflicts_exact"))) with labels rotate by 90 left font ",9" notitle
