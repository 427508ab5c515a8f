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
    "first_finding: the diagnosis corpus (kernels/pathology), a planted cause a kernel; expected: that cause, measured: the first finding, with its\n".\
    "estimated gain and, where the corpus has the fixed kernel, the gain the fix measured. conversions_on_lines: a case's conversion instructions\n".\
    "summed over its source lines (the source group) must equal the kernel's counter, smsp__sass_thread_inst_executed_op_conversion_pred_on.sum.\n".\
    validate_ceilings_note
load scriptdir.'/page.gp'
# Ten lines of caption: they start higher than page.gp puts them.
set label 91 at screen 0.09, screen 0.205
table_rows = 31
table_file = sprintf("%s/validate-%d.tsv", datadir, validate_page)
# 7 points, so that the longest cells fit their columns, in the PDF and the PNG alike: CUPTI's ldmatrix wavefront
# metric (64 characters), the ceilings' "no datasheet: DRAM<L2<L1/shared", the corpus's causes
# (occupancy_shared_memory) and gains.
table_x = "0 0.098 0.225 0.467 0.546 0.647 0.739 0.840 0.933"
table_font_size = 7
table_first = 1
table_colour_column = 0
load scriptdir.'/table.gp'
