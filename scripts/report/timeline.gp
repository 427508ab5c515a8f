# Where a traced run's wall time went (memscope --trace, timeline.csv): a bar per variant, one for the run's own
# phases and one for its time in no range, stacked by phase; together they make the run's wall time.
load scriptdir.'/common.gp'
load datadir.'/timeline-notes.gp'
page_title = timeline_title
page_caption = "From timeline.csv (memscope --trace), the run's NVTX ranges. A variant's bar sums its jobs at every size, by phase: setup,\n".\
    "the correctness check (with the reference product) and the timed runs with their warm-up. The run's own phases serve all the variants\n".\
    "at once: the metric passes, source counters and stall sampling of each size, the ceilings of the roofline. In no range: the time\n".\
    "between and around the ranges (the run's start, the collectors' set-up).\n".timeline_gaps
load scriptdir.'/page.gp'
set datafile columnheaders
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border lc rgb "white"
set boxwidth 0.7
timeline_bars = variant_count + 2 # a bar per variant, one of the run's phases, one of no range
timeline_xtics_font = bars_font(timeline_bars)
set xtics rotate by bars_rotation(timeline_bars) right font timeline_xtics_font nomirror
set yrange [0:timeline_highest_s * 1.3]
set ylabel "wall time (s)"
set tmargin at screen 0.85
set key at screen 0.5, screen 0.925 center top horizontal maxrows 2 font ",11"
timeline_file = datadir.'/timeline.tsv'
# Each segment by its column's name (timeline_segments) in its phase's colour (timeline_colours); over each bar,
# upright so that 21 bars' fit side by side, its time and its share of the run.
plot for [i=1:words(timeline_segments)] timeline_file using (column(word(timeline_segments, i))):xtic(strcol("bar")) \
         title word(timeline_segments, i) lc rgb word(timeline_colours, i), \
     timeline_file using 0:(column("total_s")):(strcol("label")) \
         with labels rotate by 90 left offset 0, 0.5 font ",10" notitle
