# seed002-fig19-dvth-t0.png: gnuplot draws it from the columns of seed002-fig19-dvth-t0.png.data.tsv (NaN: no value).
# Made by rft-plot from reproduction/batch/aging/figures/fig19-dvth-t0.tsv; edit it and rerun: gnuplot seed002-fig19-dvth-t0.png.gp
# The data and the figure are beside this script, wherever gnuplot starts.
dir = ARG0; while (strlen(dir) > 0 && dir[strlen(dir):] ne "/") { dir = dir[1:strlen(dir) - 1] }
if (strlen(dir) > 0) { cd dir }

# set terminal svg size 900,520 noenhanced font "sans,11" background rgb "white"; set output 'seed002-fig19-dvth-t0.svg'
set terminal pngcairo size 900,520 noenhanced font "sans,11"
set output 'seed002-fig19-dvth-t0.png'
# set terminal pdfcairo size 9.375in,5.4167in noenhanced font "sans,11" fontscale 0.75; set output 'seed002-fig19-dvth-t0.pdf'
data = 'seed002-fig19-dvth-t0.png.data.tsv'
set datafile separator tab
set datafile commentschars ""

set title 'seed 002 Fig. 19: highest dVth of T0, normalised'
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd'
set key outside right top
set label 100 'Assumed: runs: steady; vth: parameters: built in; vth: lifetime: 3 years; vth: temperature: 300 K' at screen 0.01, 0.0942 left font ",9"
set label 101 'vth: window: slice 4342..130326 [traces: BlackScholes-cu01]' at screen 0.01, 0.0673 left font ",9"
set label 102 'vth: differs from the seed: register demand fills the slice: first-fit [traces: BlackScholes-cu01]' at screen 0.01, 0.0404 left font ",9"
set label 103 'and 32 more (every note: the data file)' at screen 0.01, 0.0135 left font ",9"
set bmargin at screen 0.3666
set xrange [-0.5:8.5]
set xtics ( \
    'BlackScholes-cu01' 0, \
    'DCT' 1, \
    'FastWalshTransform' 2, \
    'MatrixMul…plication' 3, \
    'MatrixTranspose' 4, \
    'QuasiRandomSequence' 5, \
    'Reduction' 6, \
    'SobelFilter' 7, \
    'mean' 8 \
)
set xtics rotate by 45 right font ",11"
set lmargin at screen 0.0789
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set style fill solid 1.0 border rgb 'black'

# a style per series: its colour, then dash type and marker (lines)
set style line 1 lc rgb '#0072B2' lw 1.5
set style line 2 lc rgb '#D55E00' lw 1.5
set style line 3 lc rgb '#009E73' lw 1.5
set style line 4 lc rgb '#CC79A7' lw 1.5
set style line 5 lc rgb '#E69F00' lw 1.5
set style line 6 lc rgb '#56B4E9' lw 1.5

plot data skip 49 using 2 ls 1 title 'base', \
     data skip 49 using 3 ls 2 title 'rc', \
     data skip 49 using 4 ls 3 title 'rar', \
     data skip 49 using 5 ls 4 title 'rcrar', \
     data skip 49 using 6 ls 5 title 'wc', \
     data skip 49 using 7 ls 6 title 'argo'
