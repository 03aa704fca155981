# seed001-fig8-energy.png: gnuplot draws it from the columns of seed001-fig8-energy.png.data.tsv (NaN: no value).
# Made by rft-plot from reproduction/batch/undervolt/figures/fig8-energy.tsv; edit it and rerun: gnuplot seed001-fig8-energy.png.gp
# The data and the figure are beside this script, wherever gnuplot starts.
dir = ARG0; while (strlen(dir) > 0 && dir[strlen(dir):] ne "/") { dir = dir[1:strlen(dir) - 1] }
if (strlen(dir) > 0) { cd dir }

# set terminal svg size 900,520 noenhanced font "sans,11" background rgb "white"; set output 'seed001-fig8-energy.svg'
set terminal pngcairo size 900,520 noenhanced font "sans,11"
set output 'seed001-fig8-energy.png'
# set terminal pdfcairo size 9.375in,5.4167in noenhanced font "sans,11" fontscale 0.75; set output 'seed001-fig8-energy.pdf'
data = 'seed001-fig8-energy.png.data.tsv'
set datafile separator tab
set datafile commentschars ""

set title 'seed 001 Fig. 8: energy, % of Conv''s'
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd'
set key outside center top horizontal
set label 100 'Assumed: energy: parameters: seed001-28nm.conf; runs: once (every note: the data file)' at screen 0.01, 0.0135 left font ",9"
set label 200 'Blac…cu01' at first 2, screen 0.0529 center
set label 201 'DCT' at first 8, screen 0.0529 center
set label 202 'Fast…form' at first 14, screen 0.0529 center
set label 203 'Matr…tion' at first 20, screen 0.0529 center
set label 204 'Matr…pose' at first 26, screen 0.0529 center
set label 205 'Quas…ence' at first 32, screen 0.0529 center
set label 206 'Reduction' at first 38, screen 0.0529 center
set label 207 'Sobe…lter' at first 44, screen 0.0529 center
set label 208 'mean' at first 50, screen 0.0529 center
set bmargin at screen 0.2409
set xrange [-0.5:52.5]
set xtics ( \
    'conv' 0, \
    'smooth' 1, \
    'common' 2, \
    'clustered' 3, \
    'dispersed' 4, \
    'conv' 6, \
    'smooth' 7, \
    'common' 8, \
    'clustered' 9, \
    'dispersed' 10, \
    'conv' 12, \
    'smooth' 13, \
    'common' 14, \
    'clustered' 15, \
    'dispersed' 16, \
    'conv' 18, \
    'smooth' 19, \
    'common' 20, \
    'clustered' 21, \
    'dispersed' 22, \
    'conv' 24, \
    'smooth' 25, \
    'common' 26, \
    'clustered' 27, \
    'dispersed' 28, \
    'conv' 30, \
    'smooth' 31, \
    'common' 32, \
    'clustered' 33, \
    'dispersed' 34, \
    'conv' 36, \
    'smooth' 37, \
    'common' 38, \
    'clustered' 39, \
    'dispersed' 40, \
    'conv' 42, \
    'smooth' 43, \
    'common' 44, \
    'clustered' 45, \
    'dispersed' 46, \
    'conv' 48, \
    'smooth' 49, \
    'common' 50, \
    'clustered' 51, \
    'dispersed' 52 \
)
set xtics rotate by 90 right font ",11"
set yrange [0:*]
set style data histograms
set style histogram rowstacked
set boxwidth 0.75 relative
set style fill solid 1.0 border rgb 'black'

# a style per series: its colour, then dash type and marker (lines)
set style line 1 lc rgb '#0072B2' lw 1.5
set style line 2 lc rgb '#D55E00' lw 1.5
set style line 3 lc rgb '#009E73' lw 1.5
set style line 4 lc rgb '#CC79A7' lw 1.5
set style line 5 lc rgb '#E69F00' lw 1.5
set style line 6 lc rgb '#56B4E9' lw 1.5

plot newhistogram at 0, data skip 14 every ::0::4 using 2 ls 1 title 'static', \
     data skip 14 every ::0::4 using 3 ls 2 title 'read', \
     data skip 14 every ::0::4 using 4 ls 3 title 'write', \
     data skip 14 every ::0::4 using 5 ls 4 title 'comdec', \
     data skip 14 every ::0::4 using 6 ls 5 title 'patching', \
     data skip 14 every ::0::4 using 7 ls 6 title 'lds', \
     newhistogram at 6, data skip 14 every ::5::9 using 2 ls 1 notitle, \
     data skip 14 every ::5::9 using 3 ls 2 notitle, \
     data skip 14 every ::5::9 using 4 ls 3 notitle, \
     data skip 14 every ::5::9 using 5 ls 4 notitle, \
     data skip 14 every ::5::9 using 6 ls 5 notitle, \
     data skip 14 every ::5::9 using 7 ls 6 notitle, \
     newhistogram at 12, data skip 14 every ::10::14 using 2 ls 1 notitle, \
     data skip 14 every ::10::14 using 3 ls 2 notitle, \
     data skip 14 every ::10::14 using 4 ls 3 notitle, \
     data skip 14 every ::10::14 using 5 ls 4 notitle, \
     data skip 14 every ::10::14 using 6 ls 5 notitle, \
     data skip 14 every ::10::14 using 7 ls 6 notitle, \
     newhistogram at 18, data skip 14 every ::15::19 using 2 ls 1 notitle, \
     data skip 14 every ::15::19 using 3 ls 2 notitle, \
     data skip 14 every ::15::19 using 4 ls 3 notitle, \
     data skip 14 every ::15::19 using 5 ls 4 notitle, \
     data skip 14 every ::15::19 using 6 ls 5 notitle, \
     data skip 14 every ::15::19 using 7 ls 6 notitle, \
     newhistogram at 24, data skip 14 every ::20::24 using 2 ls 1 notitle, \
     data skip 14 every ::20::24 using 3 ls 2 notitle, \
     data skip 14 every ::20::24 using 4 ls 3 notitle, \
     data skip 14 every ::20::24 using 5 ls 4 notitle, \
     data skip 14 every ::20::24 using 6 ls 5 notitle, \
     data skip 14 every ::20::24 using 7 ls 6 notitle, \
     newhistogram at 30, data skip 14 every ::25::29 using 2 ls 1 notitle, \
     data skip 14 every ::25::29 using 3 ls 2 notitle, \
     data skip 14 every ::25::29 using 4 ls 3 notitle, \
     data skip 14 every ::25::29 using 5 ls 4 notitle, \
     data skip 14 every ::25::29 using 6 ls 5 notitle, \
     data skip 14 every ::25::29 using 7 ls 6 notitle, \
     newhistogram at 36, data skip 14 every ::30::34 using 2 ls 1 notitle, \
     data skip 14 every ::30::34 using 3 ls 2 notitle, \
     data skip 14 every ::30::34 using 4 ls 3 notitle, \
     data skip 14 every ::30::34 using 5 ls 4 notitle, \
     data skip 14 every ::30::34 using 6 ls 5 notitle, \
     data skip 14 every ::30::34 using 7 ls 6 notitle, \
     newhistogram at 42, data skip 14 every ::35::39 using 2 ls 1 notitle, \
     data skip 14 every ::35::39 using 3 ls 2 notitle, \
     data skip 14 every ::35::39 using 4 ls 3 notitle, \
     data skip 14 every ::35::39 using 5 ls 4 notitle, \
     data skip 14 every ::35::39 using 6 ls 5 notitle, \
     data skip 14 every ::35::39 using 7 ls 6 notitle, \
     newhistogram at 48, data skip 14 every ::40::44 using 2 ls 1 notitle, \
     data skip 14 every ::40::44 using 3 ls 2 notitle, \
     data skip 14 every ::40::44 using 4 ls 3 notitle, \
     data skip 14 every ::40::44 using 5 ls 4 notitle, \
     data skip 14 every ::40::44 using 6 ls 5 notitle, \
     data skip 14 every ::40::44 using 7 ls 6 notitle
