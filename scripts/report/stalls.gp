# Warp stall reasons per variant at the largest width: each reason's share of the PC samples (stacked).
load scriptdir.'/common.gp'
page_title = sprintf("Warp stall reasons at W = %d: where the warps wait", stall_width)
page_caption = "From stalls.csv (the stalls group: CUPTI PC sampling, a sample per SM every 2^p cycles, p chosen per kernel for 25,000 to\n".\
    "200,000 samples, and at least 9). Each bar: the share of a variant's samples by the state of the sampled warp; \"selected\" is a warp issuing. The run's nine\n".\
    "most common reasons are named, the rest summed as other. long_scoreboard: waiting on global memory; lg_throttle: the load/store\n".\
    "queue for global memory full; mio_throttle and short_scoreboard: shared memory; barrier: __syncthreads; not_selected: ready, another issued."
load scriptdir.'/page.gp'
set datafile columnheaders
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7
set xtics rotate by 35 right font ",11" nomirror
set yrange [0:100]
set ylabel "share of the samples (%)"
set tmargin at screen 0.85
set key at screen 0.5, screen 0.925 center top horizontal maxrows 2 font ",11"
stalls_file = datadir.'/stalls.tsv'
# One colour per reason (the variants' colours would repeat within a bar); "other" is grey.
reason_colours = "#1f77b4 #d62728 #2ca02c #9467bd #ff7f0e #17becf #8c564b #e377c2 #bcbd22 #7f7f7f"
plot for [i=3:2 + stall_columns] stalls_file using i:xtic(2) title columnheader(i) lc rgb word(reason_colours, i - 2)
