# Every page, in order, into the output the caller has set (a multi-page PDF): the list
# memscope-report-data wrote (pages.gp), the same list report-render draws as PNGs.
load datadir.'/pages.gp'
