# One page of the ground-truth check. Expects validate_page.
load scriptdir.'/common.gp'
load datadir.'/validate.gp'
page_title = sprintf("Ground truth: %s (page %d of %d)", validate_result, validate_page, validate_pages)
page_caption = "memscope --validate runs kernels whose metrics are known in closed form (strided and offset copies, shared-memory strides,\n".\
    "transposes of a 16384 x 16384 matrix) and compares each measured value with the model: counts exactly, DRAM bytes within 2 %.\n".\
    "Last, the roofline's ceilings measured on this GPU: each within 25 % of the datasheet; the L2, which has no datasheet figure, by order."
load scriptdir.'/page.gp'
table_rows = 31
table_file = sprintf("%s/validate-%d.tsv", datadir, validate_page)
table_x = "0.04 0.22 0.39 0.70 0.79 0.90"
table_first = 1
table_colour_column = 0
load scriptdir.'/table.gp'
