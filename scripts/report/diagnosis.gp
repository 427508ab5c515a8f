# Each variant's limiter at the largest width, with its evidence: harness/diagnose/'s rules applied to the run's figures.
load scriptdir.'/common.gp'
page_title = sprintf("Diagnosis at W = %d: what limits each kernel", largest_width)
page_caption = "The busiest unit of the speed-of-light figures (L1/shared, L2, DRAM, FMA, FP64 and tensor pipes, issue slots: the sol metric group),\n".\
    "when it is at 60 % of its peak or more, names the limiter; bank conflicts (a quarter of shared wavefronts or more beyond the ideal) and\n".\
    "uncoalesced loads (half of the fetched bytes or less used) refine an L1/shared limit. Below 60 % everywhere: latency. The top stall reason\n".\
    "is the warp state PC sampling found most often (stalls group; selected: issuing). The evidence quotes the pipe the kernel's arithmetic\n".\
    "runs on: tensor where it ran tensor operations, FP64 where more FP64 than FP32 ones, else FMA (a run before the split: one FP64/tensor pipe).\n".\
    "A tensor-bound kernel: its type, TFLOP/s and share of its type's measured roof; warpgroup_arrive: warps held at a wgmma. Rules: harness/diagnose/diagnosis.c.\n".\
    "First finding: the cause today's rules (harness/diagnose/findings.c) rank first on the run's stored counters, its gain an ESTIMATE by its rule's\n".\
    "formula; global: the unit it wastes bounds the kernel; 'none': no rule fired.".\
    (diagnosis_unjudged eq "" ? "" : "\nNot judged, what they read not collected by this run (docs/metrics.md names it):\n".diagnosis_unjudged.".")
load scriptdir.'/page.gp'
# Eight caption lines at 12 pt from 0.10 ran off the page's foot: the caption at 10 pt from just under the table.
# The columns are laid out by memscope-report-data from the widths their cells take in DejaVu Sans (fixed
# positions let "uncoalesced global loads" run into its first finding on a fresh Debian machine), at 7 pt, or
# smaller where the evidence would otherwise run off the page.
set label 91 at screen 0.09, screen 0.205 font ",10"
table_rows = diagnosis_rows + 1
table_keep_pitch = 1
table_file = datadir.'/diagnosis.tsv'
table_x = diagnosis_table_x
table_first = 2
table_colour_column = 1
table_font_size = diagnosis_table_font_size
load scriptdir.'/table.gp'
