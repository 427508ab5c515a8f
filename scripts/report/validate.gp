# One page of the ground-truth check. Expects validate_page.
load scriptdir.'/common.gp'
load datadir.'/validate.gp'
page_title = sprintf("Ground truth: %s (page %d of %d)", validate_result, validate_page, validate_pages)
page_caption = "memscope --validate runs kernels whose metrics are known in closed form (strided and offset copies, shared-memory strides, transposes\n".\
    "of a 16384 x 16384 matrix). Sectors per request, load efficiency, shared wavefronts per instruction and exact conflicts must equal the model.\n".\
    "DRAM bytes of the tiled transposes: reads within 2 % of the matrix, writes from the matrix less one L2 (writes may still sit in it) to 2 % above\n".\
    "it; the naive transpose has these lower bounds only (it writes 4 bytes of each 32-byte sector, and half-written sectors cost extra traffic).\n".\
    "Ceilings (expected: the datasheet's figure): each within 25 % of it, the L2, which has none, between the measured DRAM and L1/shared ceilings.\n".\
    validate_ceilings_note
load scriptdir.'/page.gp'
# Six lines of caption: they start higher than page.gp puts them.
set label 91 at screen 0.09, screen 0.14
table_rows = 31
table_file = sprintf("%s/validate-%d.tsv", datadir, validate_page)
table_x = "0.01 0.15 0.335 0.51 0.58 0.725 0.795 0.87"
table_first = 1
table_colour_column = 0
load scriptdir.'/table.gp'
