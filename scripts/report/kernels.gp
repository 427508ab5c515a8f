# A program's profile: its jobs (a kernel at its NVTX path and ordinal) ranked by their share of the GPU time, with
# their launches, median duration and limiter, the limiter's evidence below it (harness/report/program_pages.c).
load scriptdir.'/common.gp'
page_title = sprintf("Kernels by GPU time (page %d of %d)", kernels_page, kernels_pages)
page_caption = sprintf("Share: a job's GPU time (its launches' mean duration x launches, over every run of the program) over all jobs' (%.4g ms).\n", kernels_total_ms).\
    "A job is one kernel at its NVTX path and ordinal among that kernel's launches there (launch); launches: over all runs. Kernel names are\n".\
    "shortened (no return type, parameters or namespaces; deep template arguments as …). The limiter of a profiled job applies the suite's rules\n".\
    "(harness/diagnose/) to its hardware metrics; a job only timed was not selected for them (memscope-profile --kernel, --launch-count).\n".\
    "tensor: the source type of most of a profiled job's tensor-core operations and their TFLOP/s over its median (2 per multiply-add).".\
    (kernels_rest_note eq "" ? "" : "\n".kernels_rest_note)
load scriptdir.'/page.gp'
table_rows = kernels_table_rows
table_file = datadir.sprintf('/kernels-%d.tsv', kernels_page)
table_x = "0.02 0.045 0.40 0.52 0.565 0.615 0.675 0.72 0.83"
table_first = 1
table_colour_column = 0
table_font_size = 9
load scriptdir.'/table.gp'
