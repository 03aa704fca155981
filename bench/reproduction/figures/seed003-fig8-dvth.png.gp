# seed003-fig8-dvth.png: gnuplot draws it from the columns of seed003-fig8-dvth.png.data.tsv (NaN: no value).
# Made by rft-plot from fig8.tsv; edit it and rerun: gnuplot seed003-fig8-dvth.png.gp
# The data and the figure are beside this script, wherever gnuplot starts.
dir = ARG0; while (strlen(dir) > 0 && dir[strlen(dir):] ne "/") { dir = dir[1:strlen(dir) - 1] }
if (strlen(dir) > 0) { cd dir }

# set terminal svg size 900,520 noenhanced font "sans,11" background rgb "white"; set output 'seed003-fig8-dvth.svg'
set terminal pngcairo size 900,520 noenhanced font "sans,11"
set output 'seed003-fig8-dvth.png'
# set terminal pdfcairo size 9.375in,5.4167in noenhanced font "sans,11" fontscale 0.75; set output 'seed003-fig8-dvth.pdf'
data = 'seed003-fig8-dvth.png.data.tsv'
set datafile separator tab
set datafile commentschars ""

set title 'seed 003 Fig. 8: dVth of the degraded SC, 10 mV variation, naive kernel'
set ylabel 'dVth after 360 h (mV)'
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd'
set key outside right top
set label 100 'Assumed: healed kernel: not drawn, it is the 10 mV initial variation by construction' at screen 0.01, 0.0404 left font ",9"
set label 101 'variation: 10 mV of initial dVth on the degraded SC, as the row of Fig. 8 (every note: the data file)' at screen 0.01, 0.0135 left font ",9"
set label 90 'trace' at graph 0.5, screen 0.0837 center
set bmargin at screen 0.3570
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
set lmargin at screen 0.0791
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set style fill solid 1.0 border rgb 'black'

# a style per series: its colour, then dash type and marker (lines)
set style line 1 lc rgb '#0072B2' lw 1.5

plot data skip 3 using 2 ls 1 title 'naive kernel (mV)'
