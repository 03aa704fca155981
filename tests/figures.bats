#!/usr/bin/env bats
# rft-plot's figures (issue 16): drawn by gnuplot from a script and data
# written beside them, rendered to SVG, PNG or PDF, rerun alone; and the
# rules that keep a figure from misleading: missing data is a gap, series
# that overlap stay visible, no two series alike, every category labelled,
# axis labels by default, no bar past its axis, a summary's sensible
# columns by default.

load test_helper
load figure_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    export -f titles styles fig
    printf 'scheme\tbase_longest_0%%\targo_longest_0%%\nbase\t100\t30\nrar\t64\t\n' > s.tsv
}

@test "the script: terminal, data, labels, ranges, categories, a style and a title a series" {
    rft-plot --no-render --title "Longest '0'" -o s.svg s.tsv
    [ ! -e s.svg ]
    run -0 cat s.data.tsv
    assert_output "$(printf 'scheme\tbase_longest_0%%\targo_longest_0%%\nbase\t100\t30\nrar\t64\tNaN')"
    run -0 grep -v '^#' s.gp
    assert_line --index 0 'dir = ARG0; while (strlen(dir) > 0 && dir[strlen(dir):] ne "/") { dir = dir[1:strlen(dir) - 1] }'
    assert_line 'set terminal svg size 800,480 noenhanced font "sans,11" background rgb "white"'
    assert_line "set output 's.svg'"
    assert_line "data = 's.data.tsv'"
    assert_line "set title 'Longest ''0'''"
    # under categories the x label has a height of its own (see the layout tests)
    assert_line --regexp "^set label 90 'scheme' at graph 0.5, screen 0\.[0-9]{4} center\$"
    assert_line "set ylabel 'longest ''0'' duty (%)'"
    assert_line 'set xrange [-0.5:1.5]'
    assert_line 'set yrange [0:*]'
    assert_line "    'base' 0, \\"
    assert_line "    'rar' 1 \\"
    assert_line 'set style data histograms'
    assert_line "set style line 1 lc rgb '#0072B2' lw 1.5"
    assert_line "set style line 2 lc rgb '#D55E00' lw 1.5"
    assert_line "plot data skip 1 using 2 ls 1 title 'base_longest_0%', \\"
    assert_line "     data skip 1 using 3 ls 2 title 'argo_longest_0%'"
    # the other formats are a comment away
    grep -qx "# set terminal pngcairo size 800,480 noenhanced font \"sans,11\"; set output 's.png'" s.gp
    grep -qx "# set terminal pdfcairo size 8.3334in,5in noenhanced font \"sans,11\" fontscale 0.75; set output 's.pdf'" s.gp
    # lines over a numeric x: from the data's x, a marker and dash type each
    printf 'bit\tbase_0%%\targo_0%%\n0\t25.5\t10\n1\t75\t1e-3\n' > b.tsv
    rft-plot --no-render -o b.svg b.tsv
    run -0 grep -E '^(set autoscale|set yrange|set style line|plot|     data)' b.gp
    assert_output "set autoscale xfix
set yrange [0:*]
set style line 1 lc rgb '#0072B2' lw 1.5 dt 1 pt 1 ps 0.8 pi 1
set style line 2 lc rgb '#D55E00' lw 1.5 dt 2 pt 2 ps 0.8 pi 1
plot data skip 1 using 1:2 with linespoints ls 1 title 'base_0%', \\
     data skip 1 using 1:3 with linespoints ls 2 title 'argo_0%'"
    run -0 cat b.data.tsv
    assert_output "$(printf 'bit\tbase_0%%\targo_0%%\n0\t25.5\t10\n1\t75\t0.001')"
}

@test "gnuplot renders the script to SVG, PNG and PDF, by -o's ending or --terminal" {
    need_gnuplot
    rft-plot --title "Longest '0'" -o s.svg s.tsv
    run -0 fig s.svg size
    assert_output 'svg 800 480'
    run -0 fig s.svg texts
    for t in "Longest '0'" scheme "longest '0' duty (%)" base rar base_longest_0% argo_longest_0% 100; do
        assert_line "$t"
    done
    rft-plot --width 640 --height 400 -o s.png s.tsv
    run -0 fig s.png size
    assert_output 'png 640 400'
    grep -q "^set terminal pngcairo size 640,400 " s.png.gp
    rft-plot --width 960 --height 480 -o s.PDF s.tsv
    run -0 fig s.PDF size
    assert_output 'pdf 720 360'
    # --terminal for a name without an ending, and to standard output
    rft-plot --terminal png -o figure s.tsv
    run -0 fig figure size
    assert_output 'png 800 480'
    [ -e figure.gp ] && [ -e figure.data.tsv ]
    rft-plot --terminal pdf s.tsv > out.pdf
    run -0 fig out.pdf size
    assert_output 'pdf 600 360'
    run -2 --separate-stderr rft-plot --terminal png -o s.svg s.tsv
    [[ ${stderr%%$'\n'*} == "rft-plot: --terminal png does not match -o s.svg (see rft-plot --help)" ]]
    run -2 --separate-stderr rft-plot --terminal gif s.tsv
    [[ ${stderr%%$'\n'*} == "rft-plot: --terminal: 'gif' is not one of svg, png, pdf (see rft-plot --help)" ]]
}

@test "the script alone, from anywhere, makes the same figure; an edited label or range shows" {
    need_gnuplot
    mkdir figs
    rft-plot --ymin 0 --ymax 100 -o figs/s.svg s.tsv
    mv figs/s.svg first.svg
    (cd / && gnuplot "$BATS_TEST_TMPDIR/figs/s.gp")
    cmp first.svg figs/s.svg
    (cd figs && gnuplot s.gp)
    cmp first.svg figs/s.svg
    # an author's edits: another y label and range, a PDF
    sed -i -e "s/^set ylabel .*/set ylabel 'longest ''0'' duty (%)'/" -e 's/^set yrange .*/set yrange [0:160]/' \
        -e 's/^set terminal svg/# &/' -e "s/^set output 's.svg'/# &/" -e 's/^# \(set terminal pdfcairo\)/\1/' figs/s.gp
    gnuplot figs/s.gp
    run -0 fig figs/s.pdf size
    assert_output 'pdf 600 360'
    sed -i -e 's/^set terminal pdfcairo/# &/' -e 's/^# \(set terminal svg\)/\1/' -e "s/^# \(set output 's.svg'\)/\1/" figs/s.gp
    gnuplot figs/s.gp
    run -0 fig figs/s.svg texts
    assert_line "longest '0' duty (%)"
    assert_line 160
    refute_line 'longest_0%'
}

@test "missing data is a gap, not 0: a scheme's unused entries, empty and nan cells" {
    # rft-vth --by reg: the entries only ARGO uses are empty in the baseline's columns
    rft-synth --cus 1 --simds 2 --writes 5000 --seed 2 > v.rft
    rft-alloc v.rft | rft-duty -o base.duty
    rft-alloc --scheme argo v.rft | rft-duty -o argo.duty
    rft-vth --by reg --format tsv base=base.duty argo=argo.duty > reg.tsv
    unused=$(awk -F '\t' '!/^#/ && h++ && $2 == ""' reg.tsv | wc -l)
    [ "$unused" -gt 50 ]
    run -0 awk -F '\t' '!/^#/ && h++ && $2 == "" { print $2 $3 $4 $5 $6 $7 "|" $8 "|" ($9 != "") }' reg.tsv
    assert_equal "$(sort -u <<< "$output")" '|slice 0..31396|1'
    # drawn as gaps, by name and by default
    rft-plot --no-render -y '*_longest_0%' -o reg.svg reg.tsv
    run -0 awk -F '\t' '!/^#/ && h++ && $2 == "NaN"' reg.data.tsv
    assert_equal "${#lines[@]}" "$unused"
    run -0 awk -F '\t' '!/^#/ && h++ && $2 == "0"' reg.data.tsv
    assert_output ''
    rft-plot --no-render -y '*%' -o all.svg reg.tsv   # one axis, asked for
    run -0 titles all
    assert_line base_longest_0%
    assert_line argo_1_cell_off%
    # --include-unused: the baseline's unused entries counted as off all the time
    run -0 pipe 'rft-vth --by reg --include-unused --format tsv base=base.duty | awk -F "\t" "!/^#/ && \$2 == \"\"" | wc -l'
    assert_output 0
    # a line broken at each gap, no bar for a gap
    printf 'x\ta\tb\n1\t1\t2\n2\t\t3\n3\t2\tnan\n4\t3\t5\n5\t4\tNaN\n6\t5\t6\n' > gap.tsv
    run -0 --separate-stderr rft-plot --no-render -o gap.svg gap.tsv
    assert_equal "$stderr" ''
    run -0 cut -f 2,3 gap.data.tsv
    assert_output "$(printf 'a\tb\n1\t2\nNaN\t3\n2\tNaN\n3\t5\n4\tNaN\n5\t6')"
    grep -q '^set style line 2 .* pi 1$' gap.gp     # b's 5 alone between gaps: a marker on every point
    need_gnuplot
    rft-plot -o gap.svg gap.tsv
    run -0 fig gap.svg breaks 1
    assert_output 2
    run -0 fig gap.svg breaks 2
    assert_output 3
}

@test "series over one another stay visible: each its own dash type and marker" {
    printf 'x\tbase\trar\trcrar\n0\t1\t1\t1\n1\t2\t2\t2\n2\t3\t3\t3\n' > same.tsv
    rft-plot --no-render -o same.svg same.tsv
    run -0 styles same
    assert_output "lc rgb '#0072B2' lw 1.5 dt 1 pt 1 ps 0.8 pi 1
lc rgb '#D55E00' lw 1.5 dt 2 pt 2 ps 0.8 pi 1
lc rgb '#009E73' lw 1.5 dt 3 pt 6 ps 0.8 pi 1"
    # markers on about 25 points of a long line
    seq 0 299 | awk 'BEGIN { print "x\ta\tb" } { print $1 "\t" $1 % 7 "\t" $1 % 7 }' > long.tsv
    rft-plot --no-render -o long.svg long.tsv
    run -0 pipe 'styles long | grep -o "pi [0-9]*" | sort -u'
    assert_output 'pi 12'
}

@test "no two series alike: twelve colours, then dash types (lines) or hatching (bars)" {
    awk 'BEGIN { printf "x"; for (i = 1; i <= 30; i++) printf "\ts%d", i; print ""
                 for (r = 0; r < 3; r++) { printf "%d", r; for (i = 1; i <= 30; i++) printf "\t%d", r + i; print "" } }' > w.tsv
    rft-plot --no-render -y '*' -o w.svg w.tsv
    run -0 pipe "styles w | head -12 | cut -d' ' -f3 | sort -u | wc -l"
    assert_output 12
    run -0 pipe 'styles w | sort -u | wc -l'
    assert_output 30
    run -0 pipe "styles w | sed -n 13p"
    assert_output "lc rgb '#0072B2' lw 1.5 dt 3 pt 11 ps 0.8 pi 1"
    rft-plot --no-render --kind bar -o wb.svg w.tsv
    run -0 pipe "styles wb | head -12 | sort -u | wc -l"
    assert_output 12
    run -0 pipe "grep -c ' ls [0-9]* title' wb.gp"
    assert_output 12
    run -0 pipe "grep -o 'ls [0-9]* fill pattern [0-9]*' wb.gp | sed -n '1p;13p;18p'"
    assert_output "ls 13 fill pattern 1
ls 25 fill pattern 2
ls 30 fill pattern 2"
}

@test "every category is labelled: across, upright in a smaller font, the figure widened" {
    rft-plot --no-render -o s.svg s.tsv
    run -1 grep rotate s.gp
    # 40 labels of 12 characters: upright, in the figure's font
    seq 0 39 | awk 'BEGIN { print "kernel\tv" } { printf "kernel_%05d\t%d\n", $1, $1 }' > k40.tsv
    rft-plot --no-render -o k40.svg k40.tsv
    grep -qx 'set xtics rotate by 90 right font ",11"' k40.gp
    [ "$(grep -c "^    'kernel_" k40.gp)" -eq 40 ]
    # 200: a smaller font, down to 7, then a wider figure
    seq 0 199 | awk 'BEGIN { print "r\tv" } { print "r" $1 "\t" $1 }' > k200.tsv
    rft-plot --no-render -o k200.svg k200.tsv
    grep -qx 'set xtics rotate by 90 right font ",7"' k200.gp
    grep -q '^set terminal svg size 1899,480 ' k200.gp
    run -0 --separate-stderr rft-plot --no-render --width 800 -o k200w.svg k200.tsv
    assert_equal "$stderr" 'rft-plot: warning: 200 category labels overlap at --width 800 (1899 would hold them)'
    need_gnuplot
    rft-plot -o k200.svg k200.tsv
    run -0 pipe 'fig k200.svg texts | grep -cE "^r[0-9]+$"'
    assert_output 200
}

@test "axis labels by default, from the column names" {
    printf 'entry\tbase_longest_0%%\targo_longest_0%%\tcount\n0\t1\t2\t3\n' > t.tsv
    for case in "-y base_longest_0%|base: longest ''0'' duty (%)" "-y *_longest_0%|longest ''0'' duty (%)" \
                "-y argo_longest_0%,count|argo_longest_0%, count"; do
        rft-plot --no-render ${case%|*} -o t.svg t.tsv
        run -0 grep -E '^set (x|y)label' t.gp
        assert_output "set xlabel 'entry'
set ylabel '${case#*|}'"
    done
    printf 'entry\tbase_a_b\tbase_a_c\n0\t1\t2\n' > p.tsv
    rft-plot --no-render -o p.svg p.tsv
    grep -qx "set ylabel 'base_a'" p.gp
    rft-plot --no-render --xlabel '' --ylabel 'duty (%)' -o t.svg t.tsv
    run -0 grep -E '^set (x|y)label' t.gp
    assert_output "set ylabel 'duty (%)'"
}

@test "a bar never runs past its axis: the y axis holds every value and 0" {
    printf 'x\ty\n1\t150\n2\t20\n' > over.tsv
    run -0 --separate-stderr rft-plot --no-render --kind bar --ymin 10 --ymax 100 -o over.svg over.tsv
    assert_equal "$stderr" "rft-plot: warning: --ymin 10 is above a bar's end (0): the y axis goes down to it
rft-plot: warning: --ymax 100 is below the largest value (150): the y axis goes up to it"
    grep -qx 'set yrange \[0:\*\]' over.gp
    # ends outside the data are kept; lines may start above 0
    rft-plot --no-render --ymax 200 -o over.svg over.tsv
    grep -qx 'set yrange \[0:200\]' over.gp
    run -0 --separate-stderr rft-plot --no-render --kind line --ymin 10 -o over.svg over.tsv
    assert_equal "$stderr" ''
    grep -qx 'set yrange \[10:\*\]' over.gp
    printf 'x\ty\n1\t-30\n2\t45\n' > neg.tsv
    rft-plot --no-render -o neg.svg neg.tsv
    grep -qx 'set yrange \[\*:\*\]' neg.gp
    printf 'x\ty\n1\t-30\n2\t-45\n' > neg.tsv
    rft-plot --no-render --kind bar -o neg.svg neg.tsv
    grep -qx 'set yrange \[\*:0\]' neg.gp
    need_gnuplot
    rft-plot --kind bar --ymax 100 -o over.svg over.tsv 2>/dev/null
    run -0 fig over.svg texts
    assert_line 160
}

@test "a summary's sensible columns by default: its percentages, not counts beside them" {
    rft-synth --cus 1 --simds 2 --writes 3000 --seed 4 | rft-alloc | rft-duty --summary --format tsv -o /dev/null > sum.tsv
    rft-plot --no-render -o sum.svg sum.tsv
    run -0 pipe "grep -v '^# ' sum.data.tsv | head -1"
    assert_output "$(printf 'slice\tavg_0%%\tavg_1%%\tavg_off%%\tlongest_0%%\tlongest_1%%')"
    grep -q '^set style data histograms$' sum.gp
    # without percentages, every numeric column
    printf 'kernel\twrites\tcycles\tname\nk1\t10\t20\ta\nk2\t11\t\tb\n' > counts.tsv
    rft-plot --no-render -o counts.svg counts.tsv
    run -0 titles counts
    assert_output "$(printf '%s\n' writes cycles)"
}

@test "gnuplot missing or failing: a clear error and no figure, script or data left" {
    mkdir out fake
    run -1 --separate-stderr env PATH=/nonexistent "$RFT_BIN/rft-plot" -o out/s.svg s.tsv
    assert_equal "$stderr" "rft-plot: gnuplot: not found: install it (Debian: apt-get install gnuplot-nox), or write the script alone with --no-render"
    run -0 ls -A out
    assert_output ''
    env PATH=/nonexistent "$RFT_BIN/rft-plot" --no-render -o out/s.svg s.tsv
    run -0 ls -A out
    assert_output "$(printf '%s\n' s.data.tsv s.gp)"
    rm out/*
    printf '#!/bin/sh\necho "gnuplot: line 3: boom" >&2\nexit 1\n' > fake/gnuplot
    chmod +x fake/gnuplot
    echo old > out/s.svg
    run -1 --separate-stderr env PATH="$PWD/fake:$PATH" rft-plot -o out/s.svg s.tsv
    assert_equal "$stderr" "gnuplot: line 3: boom
rft-plot: out/s.gp: gnuplot failed (exit status 1)"
    run -0 ls -A out
    assert_output s.svg
    [ "$(cat out/s.svg)" = old ]
    # a gnuplot that writes nothing
    printf '#!/bin/sh\nexit 0\n' > fake/gnuplot
    run -1 --separate-stderr env PATH="$PWD/fake:$PATH" rft-plot s.tsv
    assert_equal "$stderr" "rft-plot: standard output: gnuplot wrote no figure"
    run -2 --separate-stderr rft-plot --no-render s.tsv
    [[ ${stderr%%$'\n'*} == "rft-plot: --no-render writes the script and data beside -o FILE: name a file (see rft-plot --help)" ]]
}
