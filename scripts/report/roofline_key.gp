# The roofline's key: each number of the chart, its variant, speed, intensities and bound (roofline-key.tsv).
load scriptdir.'/common.gp'
load datadir.'/roofs.gp'
page_title = sprintf("Roofline key at W = %d: what bounds each kernel", roofline_width)
page_caption = "bound: the roof that gives the lowest attainable GFLOP/s at the variant's intensities (each level's bandwidth x its FLOP per byte,\n".\
    "and the compute roof of its precision); bound GFLOP/s: that attainable figure; % of bound: achieved over it. A level 'not collected'\n".\
    "holds the variant to nothing, so its bound is the lowest of the roofs that are known. * FLOP from the work model 2 W^3: counted\n".\
    "FLOP under half of it are tensor-core work, held to no compute roof here (or the FLOP were not collected). Over 100 %:\n".\
    "a ceiling kernel reaches close to its unit's peak, not the peak itself. Computed in harness/pages/roofline.c.\n".roofs_note
load scriptdir.'/page.gp'
table_rows = roofline_points + 1
table_file = datadir.'/roofline-key.tsv'
table_x = "0.02 0.05 0.25 0.34 0.45 0.54 0.64 0.76 0.88"
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
