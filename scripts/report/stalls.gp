# Warp stall reasons per variant at the largest width: each reason's share of the PC samples (stacked).
load scriptdir.'/common.gp'
page_title = "Warp stall reasons".at_width.": where the warps wait"
# What each reason the chart names in colour waits on (stall_reasons, written with the run's data), in lines the
# caption's width holds (about 180 characters): a reason the chart does not name is not explained.
meaning(reason) = \
    reason eq "long_scoreboard" ? "global memory" : \
    reason eq "lg_throttle" ? "global memory's full queue" : \
    reason eq "mio_throttle" ? "shared memory's full queue" : \
    reason eq "short_scoreboard" ? "shared memory" : \
    reason eq "barrier" ? "__syncthreads" : \
    reason eq "not_selected" ? "another warp issuing" : \
    reason eq "no_instructions" ? "instructions to fetch" : \
    reason eq "warpgroup_arrive" ? "a wgmma's operands" : \
    reason eq "dispatch_stall" ? "the dispatcher" : \
    reason eq "math_pipe_throttle" ? "a busy math pipe" : \
    reason eq "wait" ? "a fixed latency" : \
    reason eq "membar" ? "a memory fence" : \
    reason eq "drain" ? "its stores at exit" : ""
reasons_said = ""
said_line = ""
said_lines = 0
do for [reason in stall_reasons] {
    if (meaning(reason) ne "") {
        said = reason.": ".meaning(reason)
        if (strlen(said_line) + strlen(said) > 172) {
            reasons_said = reasons_said.said_line.";\n"
            said_line = said
            said_lines = said_lines + 1
        } else {
            said_line = said_line eq "" ? "Waiting on: ".said : said_line."; ".said
        }
    }
}
reasons_said = said_line eq "" ? "" : "\n".reasons_said.said_line."."
said_lines = said_lines + (said_line eq "" ? 0 : 1)
page_caption = program_profile ? \
    "From stalls.csv (the stalls group: CUPTI PC sampling in a run of the program of its own, a sample per SM every 2^p cycles, p chosen per\n".\
    "launch from its duration in the first run for 25,000 to 200,000 samples, and at least 9). Each bar: a kernel's first sampled launch, the share\n".\
    "of its samples by the state of the sampled warp; \"selected\" is a warp issuing. Named in colour, as room allows: each one's largest reasons, then the most\n".\
    "common. \"other\" sums the rest.".reasons_said : \
    "From stalls.csv (the stalls group: CUPTI PC sampling, a sample per SM every 2^p cycles, p chosen per kernel for 25,000 to\n".\
    "200,000 samples, and at least 9). Each bar: the share of a variant's samples by the state of the sampled warp; \"selected\" is a warp issuing.\n".\
    "Named in colour, as room allows: each variant's largest reason, more of its reasons until the rest is smaller, the reason each step\n".\
    "of the FP32 ladder moved most, each variant's second, then the run's most common. \"other\" sums the rest.".reasons_said
load scriptdir.'/page.gp'
# A glossary of more than two lines lifts the caption a line each, so that its last line stays on the page.
if (said_lines > 2) { set label 91 at screen 0.09, screen 0.10 + 0.016 * (said_lines - 2) }
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
