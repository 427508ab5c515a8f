# One page of the ground-truth check. Expects validate_page.
load scriptdir.'/common.gp'
load datadir.'/validate.gp'
page_title = sprintf("Ground truth: %s (page %d of %d)", validate_result, validate_page, validate_pages)
page_caption = "memscope --validate runs kernels whose metrics are known in closed form (strided and offset copies; shared-memory strides, where\n".\
    "stride=0 is a broadcast: every lane reads one word; transposes of a 16384 x 16384 matrix). Sectors per request, load efficiency, shared\n".\
    "wavefronts per instruction and exact conflicts must equal the model. unit: as metrics.csv records it (none for a count).\n".\
    "DRAM bytes of the tiled transposes: reads within 2 % of the matrix, writes from the matrix less one L2 (writes may still sit in it) to 2 % above\n".\
    "it; the naive transpose has these lower bounds only (it writes 4 bytes of each 32-byte sector, and half-written sectors cost extra traffic).\n".\
    "Ceilings (expected: the datasheet's figure): each within 25 % of it, the L2, which has none, between the measured DRAM and L1/shared ceilings.\n".\
    validate_ceilings_note
load scriptdir.'/page.gp'
# Seven lines of caption: they start higher than page.gp puts them.
set label 91 at screen 0.09, screen 0.155
table_rows = 31
table_file = sprintf("%s/validate-%d.tsv", datadir, validate_page)
table_x = "0.01 0.145 0.32 0.485 0.605 0.665 0.80 0.86 0.93"
table_font_size = 10
table_first = 1
table_colour_column = 0
load scriptdir.'/table.gp'
