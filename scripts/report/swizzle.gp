# The swizzle lesson: ldmatrix's bank conflicts unpadded, padded and swizzled, in the ladder's rungs and in the
# ground truth's closed form.
load scriptdir.'/common.gp'
page_title = sprintf("Bank conflicts on the tensor ladder: ldmatrix unpadded, padded, swizzled (W = %d)", largest_width)
page_caption = "An ldmatrix.x4 reads 4 matrices of 8 rows of 16 bytes; shared memory serves 128 bytes a wavefront, so 4 wavefronts an instruction at best.\n".\
    "The 8 rows of a matrix, a row pitch p apart, take gcd(p / 16, 8) wavefronts, 4 of them an LDSM: 32 an LDSM at p = 128 or 256 bytes\n".\
    "(ldmatrix), 4 at 144 or 272 (ldmatrix_padded: 16 bytes a row more), 4 when row r's 16-byte chunk c sits at c XOR (r mod 8) (ldmatrix_swizzled,\n".\
    "cp_async: no padding, no shared memory lost). Coloured rows: the run's kernels that ran ldmatrix (LDSM and wavefronts: the ..._op_ldsm\n".\
    "counters; excess: the source group's exact count). truth rows: memscope --validate's ldmatrix kernel against the closed form of its addresses."
load scriptdir.'/page.gp'
table_rows = swizzle_rows + 1
table_keep_pitch = 1
table_file = datadir.'/swizzle.tsv'
table_x = "0.02 0.2 0.3 0.41 0.5 0.58 0.65 0.75 0.83 0.91"
table_first = 2
table_colour_column = 1
load scriptdir.'/table.gp'
