# The roofline's key: each number of the chart, its variant, speed, intensities and bound (roofline-key.tsv).
load scriptdir.'/common.gp'
load datadir.'/roofs.gp'
page_title = "Roofline key".at_width.": what bounds each kernel"
unit_name = program_profile ? "kernel" : "variant"
page_caption = "bound: the roof that gives the lowest attainable GFLOP/s at the ".unit_name."'s intensities (each level's bandwidth x its FLOP per byte,\n".\
    "and the compute roof of its precision); bound GFLOP/s: that figure; % of bound: achieved over it. A level 'not collected' holds the ".unit_name."\n".\
    "to nothing. FLOP/B L1/shared: per byte of L1/shared data-stage wavefronts (128 B each). * FLOP from the work model 2 W^3: counted FLOP\n".\
    "under half of it or not collected. A tensor kernel: its type and TFLOP/s, its bound the roof of its type (none without one). On one another with:\n".\
    "the numbers whose markers hide this one's, by level (centres a quarter of a marker apart or less; 34-41: 34 to 41). Computed in roofline.c.\n".\
    caption_line(roofline_tensor_note).caption_line(roofline_l2_note).caption_line(roofline_flop_note).roofs_note
load scriptdir.'/page.gp'
# Up to nine lines of caption: they start higher, and the table ends higher, than on the other pages.
set label 91 at screen 0.09, screen 0.175
set bmargin at screen 0.20
table_rows = roofline_points + 1
table_file = datadir.'/roofline-key.tsv'
# A program's jobs are named by kernel, ordinal and NVTX path, several times a variant's name: a wider first
# column in a smaller font (7 points, so that a tensor kernel's "bf16 687 TFLOP/s" and "bf16 tensor" fit beside it).
# A run of many variants (more than 24: 38 in the reference run) needs rows closer together and its tensor kernels'
# cells ("bf16 264 TFLOP/s", "none: no fp64 roof") and the last column's numbers more room: 8 points, columns
# re-laid.
many_points = !program_profile && roofline_points > 24
table_x = program_profile ? "0.02 0.04 0.40 0.48 0.56 0.605 0.66 0.715 0.78 0.83" : \
          many_points ? "0.02 0.04 0.175 0.27 0.36 0.415 0.48 0.58 0.655 0.715" : \
                        "0.02 0.045 0.215 0.29 0.385 0.46 0.535 0.655 0.745 0.81"
if (program_profile) table_font_size = 7
if (many_points) table_font_size = 8
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
