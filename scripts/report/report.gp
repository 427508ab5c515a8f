# Every page, in order, into the output the caller has set (a multi-page PDF).
load scriptdir.'/title.gp'
do for [w in sizes] {
    summary_width = w + 0
    load scriptdir.'/summary.gp'
}
load scriptdir.'/performance.gp'
load scriptdir.'/efficiency.gp'
load scriptdir.'/conflicts.gp'
load scriptdir.'/dram.gp'
load scriptdir.'/roofline.gp'
load scriptdir.'/speedup.gp'
do for [validate_page = 1 : validate_pages] {
    load scriptdir.'/validate.gp'
}
if (exists("compare_file")) {
    load scriptdir.'/compare.gp'
}
