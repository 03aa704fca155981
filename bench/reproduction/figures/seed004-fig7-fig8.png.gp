# seed004-fig7-fig8.png: gnuplot draws it from the columns of seed004-fig7-fig8.png.data.tsv (NaN: no value).
# Made by rft-plot from a4.tsv; edit it and rerun: gnuplot seed004-fig7-fig8.png.gp
# The data and the figure are beside this script, wherever gnuplot starts.
dir = ARG0; while (strlen(dir) > 0 && dir[strlen(dir):] ne "/") { dir = dir[1:strlen(dir) - 1] }
if (strlen(dir) > 0) { cd dir }

# set terminal svg size 900,520 noenhanced font "sans,11" background rgb "white"; set output 'seed004-fig7-fig8.svg'
set terminal pngcairo size 900,520 noenhanced font "sans,11"
set output 'seed004-fig7-fig8.png'
# set terminal pdfcairo size 9.375in,5.4167in noenhanced font "sans,11" fontscale 0.75; set output 'seed004-fig7-fig8.pdf'
data = 'seed004-fig7-fig8.png.data.tsv'
set datafile separator tab
set datafile commentschars ""

set title 'seed 004 Figs. 7, 8: dVth and improvement, 5 years'
set ylabel '%'
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd'
set key outside right top
set label 100 'Assumed: by construction: the aging-oblivious dVth is the calibration of params/seed004-45nm.conf and seed004-65nm.conf' at screen 0.01, 0.0404 left font ",9"
set label 101 'lifetime: 5 years (every note: the data file)' at screen 0.01, 0.0135 left font ",9"
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
set lmargin at screen 0.0934
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

plot data skip 3 using 2 ls 1 title 'dVth, aging-oblivious, 45 nm (% of Vth0)', \
     data skip 3 using 3 ls 2 title 'dVth improvement of ARGO, 45 nm', \
     data skip 3 using 4 ls 3 title 'dVth, aging-oblivious, 65 nm (% of Vth0)', \
     data skip 3 using 5 ls 4 title 'dVth improvement of ARGO, 65 nm', \
     data skip 3 using 6 ls 5 title 'read SNM improvement of ARGO (Fig. 8)'
