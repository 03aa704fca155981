# seed003-fig9-overhead.png: gnuplot draws it from the columns of seed003-fig9-overhead.png.data.tsv (NaN: no value).
# Made by rft-plot from fig9.tsv; edit it and rerun: gnuplot seed003-fig9-overhead.png.gp
# The data and the figure are beside this script, wherever gnuplot starts.
dir = ARG0; while (strlen(dir) > 0 && dir[strlen(dir):] ne "/") { dir = dir[1:strlen(dir) - 1] }
if (strlen(dir) > 0) { cd dir }

# set terminal svg size 900,520 noenhanced font "sans,11" background rgb "white"; set output 'seed003-fig9-overhead.svg'
set terminal pngcairo size 900,520 noenhanced font "sans,11"
set output 'seed003-fig9-overhead.png'
# set terminal pdfcairo size 9.375in,5.4167in noenhanced font "sans,11" fontscale 0.75; set output 'seed003-fig9-overhead.pdf'
data = 'seed003-fig9-overhead.png.data.tsv'
set datafile separator tab
set datafile commentschars ""

set title 'seed 003 Figs. 9, 16: SC healing slowdown (rft-replay), by degraded SCs'
set ylabel 'run-time slowdown, replayed (%)'
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd'
set key outside right top
set label 100 'Assumed: runs: once; cost: parameters: built in; cost: lifetime: 360 hours; cost: temperature: 300 K' at screen 0.01, 0.0942 left font ",9"
set label 101 'cost: window: 125985 cycles from cycle 4342 [traces: BlackScholes-cu01]' at screen 0.01, 0.0673 left font ",9"
set label 102 'cost: differs from the seed: not an Evergreen VLIW trace: the units are busy from write records, there are no bundles' at screen 0.01, 0.0404 left font ",9"
set label 103 'units: parameters: built in; units: lifetime: 360 hours; units: temperature: 300 K; 30 more (every note: the data file)' at screen 0.01, 0.0135 left font ",9"
set label 90 'trace' at graph 0.5, screen 0.1375 center
set bmargin at screen 0.4108
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
set style line 7 lc rgb '#000000' lw 1.5
set style line 8 lc rgb '#882255' lw 1.5

plot data skip 44 using 2 ls 1 title '1 SC', \
     data skip 44 using 3 ls 2 title '2 SCs', \
     data skip 44 using 4 ls 3 title '3 SCs', \
     data skip 44 using 5 ls 4 title '4 SCs', \
     data skip 44 using 6 ls 5 title '5 SCs', \
     data skip 44 using 7 ls 6 title '6 SCs', \
     data skip 44 using 8 ls 7 title '7 SCs', \
     data skip 44 using 9 ls 8 title '8 SCs'
