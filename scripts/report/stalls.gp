# Warp stall reasons per variant at the largest width: each reason's share of the PC samples (stacked).
load scriptdir.'/common.gp'
page_title = "Warp stall reasons".at_width.": where the warps wait"
reasons_said = "long_scoreboard: waiting on global memory; lg_throttle: its load/store queue full; mio_throttle, short_scoreboard: shared memory;\n".\
    "barrier: __syncthreads; not_selected: ready, another issued; no_instructions: waiting for instructions; warpgroup_arrive: for a wgmma's operands."
page_caption = program_profile ? \
    "From stalls.csv (the stalls group: CUPTI PC sampling in a run of the program of its own, a sample per SM every 2^p cycles, p chosen per\n".\
    "launch from its duration in the first run for 25,000 to 200,000 samples, and at least 9). Each bar: a kernel's first sampled launch, the share\n".\
    "of its samples by the state of the sampled warp; \"selected\" is a warp issuing. Named in colour, as room allows: each one's largest reasons, then the most\n".\
    "common. \"other\" sums the rest. ".reasons_said : \
    "From stalls.csv (the stalls group: CUPTI PC sampling, a sample per SM every 2^p cycles, p chosen per kernel for 25,000 to\n".\
    "200,000 samples, and at least 9). Each bar: the share of a variant's samples by the state of the sampled warp; \"selected\" is a warp issuing.\n".\
    "Named in colour, as room allows: each variant's largest reason, more of its reasons until the rest is smaller, the reason each step\n".\
    "of the FP32 ladder moved most, each variant's second, then the run's most common. \"other\" sums the rest.\n".reasons_said
load scriptdir.'/page.gp'
set datafile columnheaders
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7
set xtics rotate by bars_rotation(variant_count) right font xtics_font nomirror
set yrange [0:100]
set ylabel "share of the samples (%)"
set tmargin at screen 0.85
# A program's kernels have long names: their labels need the room under the bars.
if (program_profile) set bmargin at screen 0.40; set lmargin at screen 0.24
set key at screen 0.5, screen 0.925 center top horizontal maxrows 2 font ",11"
stalls_file = datadir.'/stalls.tsv'
# The columns by name (stall_reasons), one colour per named reason from the palette (stall_colours); "other", the
# last, light grey.
reason_colour(i) = i < words(stall_reasons) ? word(stall_colours, i) : "#c8c8c8"
plot for [i=1:words(stall_reasons)] stalls_file using (column(word(stall_reasons, i))):xtic(strcol("variant")) \
        title word(stall_reasons, i) lc rgb reason_colour(i)
