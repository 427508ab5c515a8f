# A multi-process program's collectives split into each rank's wait for the last arrival and the transfer after it,
# per rank, then the collectives with the longest waits and the rank that arrived last (harness/report/ranks_page.c,
# harness/program/collectives.h).
load scriptdir.'/common.gp'
page_title = "Collectives: wait and transfer"
page_caption = sprintf("Collectives matched across %d processes by their place in each one's call order: %d%s. A collective ends on every rank once the last has\n", collectives_parts, collectives_matched,\
        collectives_unmatched eq "" ? "" : " (".collectives_unmatched.")").\
    "arrived: a rank's time in it is its wait for the last arrival (starts on the host's clock) plus the transfer after. The rank that arrived last is\n".\
    "the straggler, not the rank whose collective took longest. Where memscope replayed launches of the last arrival since its collective before (its\n".\
    "metric passes), that wait is memscope's, not the program's (wait from replays). Below: the collectives with the longest waits; each rank's\n".\
    "wait and transfer in every collective: collectives.csv".\
    (collectives_parts_shown < collectives_parts ? sprintf(" (the table shows %d of the %d parts)", collectives_parts_shown, collectives_parts) : "")."."
load scriptdir.'/page.gp'
set multiplot
row_height = 0.028
set tmargin at screen 0.90
set bmargin at screen 0.90 - row_height * (collectives_parts_shown + 1)
table_rows = collectives_parts_shown
table_file = datadir.'/collectives-parts.tsv'
table_x = "0.02 0.16 0.27 0.38 0.49 0.60 0.71 0.82"
table_first = 1
table_colour_column = 0
table_font_size = 9
load scriptdir.'/table.gp'
unset label 90
unset label 91
second_top = 0.86 - row_height * (collectives_parts_shown + 1)
set tmargin at screen second_top
set bmargin at screen second_top - row_height * (collectives_shown + 1)
table_rows = collectives_shown
table_file = datadir.'/collectives.tsv'
table_x = "0.02 0.05 0.40 0.56 0.70 0.80"
table_first = 1
table_colour_column = 0
table_font_size = 9
load scriptdir.'/table.gp'
unset multiplot
