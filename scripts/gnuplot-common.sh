# Sourced by the scripts that draw (report-render, compare-chart, history-render):
# one look for every page, and one check that gnuplot can draw it.

# A4 landscape for print; the PNG of a page the same shape, for issues and READMEs.
PDF_TERMINAL="pdfcairo size 29.7cm,21cm font 'Sans,9' linewidth 1.5"
PNG_TERMINAL="pngcairo size 1600,1130 font 'Sans,10' linewidth 1.5"

# Exits 3, saying what to install, when gnuplot or its cairo terminals are missing.
require_gnuplot() { # the calling script's name
    if ! command -v gnuplot >/dev/null; then
        echo "$1: gnuplot is not installed; on Debian or Ubuntu: apt-get install gnuplot-nox" >&2
        exit 3
    fi
    if ! gnuplot -e 'set terminal pdfcairo' 2>/dev/null; then
        echo "$1: this gnuplot has no pdfcairo terminal; on Debian or Ubuntu: apt-get install gnuplot-nox" >&2
        exit 3
    fi
}

# TEXT as a gnuplot string, for a path put into a -e command: in single quotes nothing is special (no
# escapes, no `command`) but the quote itself, which is written twice.
gnuplot_string() { # text
    local quote="'"
    printf "'%s'" "${1//$quote/$quote$quote}"
}

# Draws one gnuplot script as OUT_PREFIX.pdf and OUT_PREFIX.png.
draw_pdf_and_png() { # setup (gnuplot commands) script out_prefix
    gnuplot -e "$1; set terminal $PDF_TERMINAL; set output $(gnuplot_string "$3.pdf")" "$2" &&
        gnuplot -e "$1; set terminal $PNG_TERMINAL; set output $(gnuplot_string "$3.png")" "$2"
}
