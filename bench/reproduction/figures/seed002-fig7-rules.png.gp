# seed002-fig7-rules.png: gnuplot draws it from the columns of seed002-fig7-rules.png.data.tsv (NaN: no value).
# Made by rft-plot from rules.tsv; edit it and rerun: gnuplot seed002-fig7-rules.png.gp
# The data and the figure are beside this script, wherever gnuplot starts.
dir = ARG0; while (strlen(dir) > 0 && dir[strlen(dir):] ne "/") { dir = dir[1:strlen(dir) - 1] }
if (strlen(dir) > 0) { cd dir }

# set terminal svg size 900,520 noenhanced font "sans,11" background rgb "white"; set output 'seed002-fig7-rules.svg'
set terminal pngcairo size 900,520 noenhanced font "sans,11"
set output 'seed002-fig7-rules.png'
# set terminal pdfcairo size 9.375in,5.4167in noenhanced font "sans,11" fontscale 0.75; set output 'seed002-fig7-rules.pdf'
data = 'seed002-fig7-rules.png.data.tsv'
set datafile separator tab
set datafile commentschars ""

set title 'seed 002 Fig. 7: patterns at BS 8, own BS (auto), any delta'
set ylabel '% of writes'
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd'
set key outside right top
set label 90 'trace' at graph 0.5, screen 0.0221 center
set bmargin at screen 0.2954
set xrange [-0.5:7.5]
set xtics ( \
    'BlackScholes-cu01' 0, \
    'DCT' 1, \
    'FastWalshTransform' 2, \
    'MatrixMul…plication' 3, \
    'MatrixTranspose' 4, \
    'QuasiRandomSequence' 5, \
    'Reduction' 6, \
    'SobelFilter' 7 \
)
set xtics rotate by 45 right font ",11"
set yrange [0:100]
set style data histograms
set style histogram clustered gap 1
set style fill solid 1.0 border rgb 'black'

# a style per series: its colour, then dash type and marker (lines)
set style line 1 lc rgb '#0072B2' lw 1.5
set style line 2 lc rgb '#D55E00' lw 1.5
set style line 3 lc rgb '#009E73' lw 1.5

plot data skip 1 using 2 ls 1 title 'pattern', \
     data skip 1 using 3 ls 2 title 'pattern_auto', \
     data skip 1 using 4 ls 3 title 'pattern_any'
