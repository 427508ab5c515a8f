# The x axis of a per-variant bar chart: one slot per variant, its name below.
set xrange [-0.7 : variant_count - 0.3]
set xtics rotate by bars_rotation(variant_count) right font xtics_font nomirror
set style fill solid 0.85 border -1
set boxwidth 0.7
set key top right
set datafile columnheaders
bars_file = datadir.'/bars.tsv'
