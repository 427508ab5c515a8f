# A program's profile read by kernel: its kernels ranked by their launches' total GPU time, with their launches,
# share, median and range, and where a launch was profiled, its limiter, tensor rate, first finding and evidence below
# (harness/report/program_pages.c).
load scriptdir.'/common.gp'
page_title = sprintf("Kernels by GPU time (page %d of %d)", kernels_page, kernels_pages)
page_caption = sprintf("A kernel: every launch of it, over every process and run of the program%s. Share: its launches' total time over all kernels' (%.4g ms).\n",\
        kernels_grouping eq "nvtx" ? " within one NVTX range (the innermost open on the launching thread; autograd's backward runs in none)" :\
        kernels_grouping eq "launch" ? " (here each launch alone)" : "", kernels_total_ms).\
    "Names are shortened (no return type, parameters or namespaces; deep template arguments as …; kernels.csv has them whole); a line below a row\n".\
    "is cut at its end (summary.csv and findings.csv hold what the profile found, whole). The limiter, tensor rate and first finding (an\n".\
    "estimate of the time a fix would save) are of the kernel's first launch profiled with hardware metrics, by today's rules (harness/diagnose/)\n".\
    "on the counters the profile stored; a kernel only timed had no launch selected for them (memscope-profile selects each kernel's first).".\
    (kernels_rest_note eq "" ? "" : "\n".kernels_rest_note).\
    (kernels_unjudged_note eq "" ? "" : "\n".kernels_unjudged_note)
load scriptdir.'/page.gp'
# The rules the profile cannot judge take two lines more, which from 0.10 ran off the page's foot.
if (kernels_unjudged_note ne "") set label 91 at screen 0.09, screen 0.16 font ",11"
table_rows = kernels_table_rows
table_file = datadir.sprintf('/kernels-%d.tsv', kernels_page)
table_x = "0.02 0.045 0.40 0.46 0.525 0.575 0.635 0.72 0.84"
table_first = 1
table_colour_column = 0
table_font_size = 9
load scriptdir.'/table.gp'
