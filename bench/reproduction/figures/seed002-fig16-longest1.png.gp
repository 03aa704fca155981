# seed002-fig16-longest1.png: gnuplot draws it from the columns of seed002-fig16-longest1.png.data.tsv (NaN: no value).
# Made by rft-plot from reproduction/batch/aging/figures/fig16-longest1.tsv; edit it and rerun: gnuplot seed002-fig16-longest1.png.gp
# The data and the figure are beside this script, wherever gnuplot starts.
dir = ARG0; while (strlen(dir) > 0 && dir[strlen(dir):] ne "/") { dir = dir[1:strlen(dir) - 1] }
if (strlen(dir) > 0) { cd dir }

# set terminal svg size 900,520 noenhanced font "sans,11" background rgb "white"; set output 'seed002-fig16-longest1.svg'
set terminal pngcairo size 900,520 noenhanced font "sans,11"
set output 'seed002-fig16-longest1.png'
# set terminal pdfcairo size 9.375in,5.4167in noenhanced font "sans,11" fontscale 0.75; set output 'seed002-fig16-longest1.pdf'
data = 'seed002-fig16-longest1.png.data.tsv'
set datafile separator tab
set datafile commentschars ""

set title 'seed 002 Fig. 16: longest ''1'' duty (%)'
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd'
set key outside center top horizontal
set label 100 'Assumed: runs: steady; vth: parameters: built in; vth: lifetime: 3 years; vth: temperature: 300 K' at screen 0.01, 0.0942 left font ",9"
set label 101 'vth: window: slice 4342..130326 [traces: BlackScholes-cu01]' at screen 0.01, 0.0673 left font ",9"
set label 102 'vth: differs from the seed: register demand fills the slice: first-fit [traces: BlackScholes-cu01]' at screen 0.01, 0.0404 left font ",9"
set label 103 'and 32 more (every note: the data file)' at screen 0.01, 0.0135 left font ",9"
set label 200 'Blac…cu01' at first 2.5, screen 0.1337 center
set label 201 'DCT' at first 9.5, screen 0.1337 center
set label 202 'Fast…form' at first 16.5, screen 0.1337 center
set label 203 'Matr…tion' at first 23.5, screen 0.1337 center
set label 204 'Matr…pose' at first 30.5, screen 0.1337 center
set label 205 'Quas…ence' at first 37.5, screen 0.1337 center
set label 206 'Reduction' at first 44.5, screen 0.1337 center
set label 207 'Sobe…lter' at first 51.5, screen 0.1337 center
set label 208 'mean' at first 58.5, screen 0.1337 center
set bmargin at screen 0.2510
set xrange [-0.5:61.5]
set xtics ( \
    'base' 0, \
    'rc' 1, \
    'rar' 2, \
    'rcrar' 3, \
    'wc' 4, \
    'argo' 5, \
    'base' 7, \
    'rc' 8, \
    'rar' 9, \
    'rcrar' 10, \
    'wc' 11, \
    'argo' 12, \
    'base' 14, \
    'rc' 15, \
    'rar' 16, \
    'rcrar' 17, \
    'wc' 18, \
    'argo' 19, \
    'base' 21, \
    'rc' 22, \
    'rar' 23, \
    'rcrar' 24, \
    'wc' 25, \
    'argo' 26, \
    'base' 28, \
    'rc' 29, \
    'rar' 30, \
    'rcrar' 31, \
    'wc' 32, \
    'argo' 33, \
    'base' 35, \
    'rc' 36, \
    'rar' 37, \
    'rcrar' 38, \
    'wc' 39, \
    'argo' 40, \
    'base' 42, \
    'rc' 43, \
    'rar' 44, \
    'rcrar' 45, \
    'wc' 46, \
    'argo' 47, \
    'base' 49, \
    'rc' 50, \
    'rar' 51, \
    'rcrar' 52, \
    'wc' 53, \
    'argo' 54, \
    'base' 56, \
    'rc' 57, \
    'rar' 58, \
    'rcrar' 59, \
    'wc' 60, \
    'argo' 61 \
)
set xtics rotate by 90 right font ",10"
set yrange [0:*]
set style data histograms
set style histogram rowstacked
set boxwidth 0.75 relative
set style fill solid 1.0 border rgb 'black'

# a style per series: its colour, then dash type and marker (lines)
set style line 1 lc rgb '#0072B2' lw 1.5
set style line 2 lc rgb '#D55E00' lw 1.5
set style line 3 lc rgb '#009E73' lw 1.5

plot newhistogram at 0, data skip 49 every ::0::5 using 2 ls 1 title 'longest ''1'' duty (%)', \
     data skip 49 every ::0::5 using 3 ls 2 title "'0' duty of the longest-'1' cell (%)", \
     data skip 49 every ::0::5 using 4 ls 3 title 'time off of the longest-''1'' cell (%)', \
     newhistogram at 7, data skip 49 every ::6::11 using 2 ls 1 notitle, \
     data skip 49 every ::6::11 using 3 ls 2 notitle, \
     data skip 49 every ::6::11 using 4 ls 3 notitle, \
     newhistogram at 14, data skip 49 every ::12::17 using 2 ls 1 notitle, \
     data skip 49 every ::12::17 using 3 ls 2 notitle, \
     data skip 49 every ::12::17 using 4 ls 3 notitle, \
     newhistogram at 21, data skip 49 every ::18::23 using 2 ls 1 notitle, \
     data skip 49 every ::18::23 using 3 ls 2 notitle, \
     data skip 49 every ::18::23 using 4 ls 3 notitle, \
     newhistogram at 28, data skip 49 every ::24::29 using 2 ls 1 notitle, \
     data skip 49 every ::24::29 using 3 ls 2 notitle, \
     data skip 49 every ::24::29 using 4 ls 3 notitle, \
     newhistogram at 35, data skip 49 every ::30::35 using 2 ls 1 notitle, \
     data skip 49 every ::30::35 using 3 ls 2 notitle, \
     data skip 49 every ::30::35 using 4 ls 3 notitle, \
     newhistogram at 42, data skip 49 every ::36::41 using 2 ls 1 notitle, \
     data skip 49 every ::36::41 using 3 ls 2 notitle, \
     data skip 49 every ::36::41 using 4 ls 3 notitle, \
     newhistogram at 49, data skip 49 every ::42::47 using 2 ls 1 notitle, \
     data skip 49 every ::42::47 using 3 ls 2 notitle, \
     data skip 49 every ::42::47 using 4 ls 3 notitle, \
     newhistogram at 56, data skip 49 every ::48::53 using 2 ls 1 notitle, \
     data skip 49 every ::48::53 using 3 ls 2 notitle, \
     data skip 49 every ::48::53 using 4 ls 3 notitle
