# Shared-memory bank conflicts per variant: hardware counter beside the exact count.
load scriptdir.'/common.gp'
page_title = sprintf("Shared-memory bank conflicts at W = %d (log scale)", largest_width)
load datadir.'/conflicts_notes.gp'
page_caption = "Light bars: the hardware counter l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum. It counts shared loads and stores\n".\
    "(LDS, STS) and over-counts them. ".conflicts_overcount_note."\n".\
    "It leaves out cp.async copies into shared memory (LDGSTS, counted by ..._op_ldgsts), which the ladder from pipelined on and cuBLAS use.\n".\
    conflicts_missed_note."\n".\
    "Dark bars: exact, from the source group: each instruction's wavefronts beyond CUPTI's ideal for the same access, summed over the kernel\n".\
    "(\"not collected\" without the group). Padding tiled_transposed's float[32][32] to [32][33] removes its conflicts."
load scriptdir.'/page.gp'
# Six lines of caption below the rotated names: the chart ends higher than on the other pages.
set bmargin at screen 0.30
set label 91 at screen 0.09, screen 0.15
load scriptdir.'/bars.gp'
set logscale y 10
set yrange [0.5:*]
# Powers of ten with superscript exponents (10⁸): every text here is drawn noenhanced, where "10^{8}" would show
# as typed.
superscript(n) = n < 10 ? word("⁰ ¹ ² ³ ⁴ ⁵ ⁶ ⁷ ⁸ ⁹", n + 1) : superscript(int(n / 10)).superscript(n % 10)
set ytics ("10⁰" 1) font ",12"
do for [e=2:18:2] { set ytics add (sprintf("10%s", superscript(e)) 10.0**e) }
set ylabel "bank conflicts"
set boxwidth 0.38
positive(x) = (missing(x) || x <= 0) ? 1/0 : x
# "not collected" stands upright on its bar's place; a 0 lies flat, narrow enough beside its neighbour's at 38 variants.
uncollected_note(x) = missing(x) ? "not collected" : ""
zero_note(x) = !missing(x) && x == 0 ? "0" : ""
zero_font = crowded_bars ? ",8" : ",12"
plot bars_file using (column("position") - 0.2):(positive(column("conflicts_hw"))):"linetype":xtic(strcol("variant")) with boxes lc variable fs transparent solid 0.35 title "hardware counter", \
     bars_file using (column("position") + 0.2):(positive(column("conflicts_exact"))):"linetype" with boxes lc variable fs solid 0.9 title conflicts_label, \
     bars_file using (column("position") - 0.2):(0.8):(uncollected_note(column("conflicts_hw"))) with labels rotate by 90 left font ",12" notitle, \
     bars_file using (column("position") + 0.2):(0.8):(uncollected_note(column("conflicts_exact"))) with labels rotate by 90 left font ",12" notitle, \
     bars_file using (column("position") - 0.2):(1):(zero_note(column("conflicts_hw"))) with labels font zero_font notitle, \
     bars_file using (column("position") + 0.2):(1):(zero_note(column("conflicts_exact"))) with labels font zero_font notitle
