# The frame of a chart page: page_title at the top, page_caption below the chart.
set label 90 page_title at screen 0.5, screen 0.955 center font ",18"
set label 91 page_caption at screen 0.09, screen 0.10 left font ",12"
