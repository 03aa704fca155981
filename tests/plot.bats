#!/usr/bin/env bats
# rft-plot: TSV tables to figures through gnuplot.  Series chosen by name,
# wildcard and default; text quoted and whole; gaps warned about; bad
# tables, bad options and failing output refused; the seeds' figures.
# The figure rules and the rendering are in figures.bats.

load test_helper
load figure_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    printf 'x\ty\n0\t25\n10\t75\n' > two.tsv
    export -f titles styles fig
}

@test "a two-point line: its data, its script and its figure side by side" {
    rft-plot --no-render --ymin 0 --ymax 100 -o out.svg two.tsv
    run -0 cat out.data.tsv
    assert_output "$(printf 'x\ty\n0\t25\n10\t75')"
    grep -qx 'set yrange \[0:100\]' out.gp
    grep -qx "plot data skip 1 using 1:2 with linespoints ls 1 title 'y'" out.gp
    [ ! -e out.svg ]
    need_gnuplot
    rft-plot --ymin 0 --ymax 100 -o out.svg two.tsv
    run -0 fig out.svg size
    assert_output 'svg 800 480'
    run -0 fig out.svg texts
    assert_line x
    assert_line y
    assert_line 100
}

@test "series names, title and labels are quoted for gnuplot and come back whole" {
    printf 'name\ta<b&"c'"'"'d\tplain_x^2{y}\nr1\t1\t2\nr"2\t2\t3\n50%%d\t3\t4\n' > esc.tsv
    rft-plot --no-render --title "Tom's <chart> & \\n \$HOME @x" --ylabel '"duty" (%)' -o esc.svg esc.tsv
    grep -qx "set title 'Tom''s <chart> & \\\\n \$HOME @x'" esc.gp
    grep -qx "set ylabel '\"duty\" (%)'" esc.gp
    grep -qx "    'r\"2' 1, \\\\" esc.gp
    grep -qx "    '50%%d' 2 \\\\" esc.gp        # a tick label is a format: % is %%
    run -0 titles esc
    assert_output "$(printf '%s\n' "a<b&\"c'd" 'plain_x^2{y}')"
    # gnuplot reads " in a data cell as a quote: ' in the data
    run -0 cut -f 1,2 esc.data.tsv
    assert_output "$(printf "name\ta<b&'c'd\nr1\t1\nr'2\t2\n50%%d\t3")"
    # bytes that are not UTF-8 and control characters: U+FFFD
    printf 'x\t\xff\x01bad\n1\t2\n' > bin.tsv
    rft-plot --no-render --title $'two\nlines' -o bin.svg bin.tsv
    run -0 titles bin
    assert_output "$(printf '\xef\xbf\xbd\xef\xbf\xbdbad')"
    grep -qx "set title 'two$(printf '\xef\xbf\xbd')lines'" bin.gp
    need_gnuplot
    rft-plot --title "Tom's <chart> & \\n \$HOME @x" --ylabel '"duty" (%)' esc.tsv > out.svg
    run -0 fig out.svg texts
    assert_line "Tom's <chart> & \\n \$HOME @x"
    assert_line '"duty" (%)'
    assert_line "a<b&\"c'd"
    assert_line 'plain_x^2{y}'
    assert_line 'r"2'
    assert_line '50%d'
    rft-plot bin.tsv > out.svg
    run -0 fig out.svg texts
    assert_line "$(printf '\xef\xbf\xbd\xef\xbf\xbdbad')"
}

@test "-y: names and wildcards, header order, each column once" {
    printf 'entry\tbase_longest_0%%\tbase_avg\targo_longest_0%%\targo_avg\n0\t100\t50\t30\t20\n1\t90\t40\t35\t25\n' > t.tsv
    rft-plot --no-render -y '*_longest_0%' -o out.svg t.tsv
    run -0 titles out
    assert_output "$(printf '%s\n' base_longest_0% argo_longest_0%)"
    run -0 head -1 out.data.tsv
    assert_output "$(printf 'entry\tbase_longest_0%%\targo_longest_0%%')"
    rft-plot --no-render -y 'argo_*,*longest*' -o out.svg t.tsv
    run -0 titles out
    assert_output "$(printf '%s\n' base_longest_0% argo_longest_0% argo_avg)"
    rft-plot --no-render --y argo_avg -y base_avg -o out.svg t.tsv
    run -0 titles out
    assert_output "$(printf '%s\n' base_avg argo_avg)"
    # a wildcard never picks the x column; its name does
    rft-plot --no-render -y '*' -o out.svg t.tsv
    run -0 pipe 'titles out | wc -l'
    assert_output 4
    rft-plot --no-render -x base_avg -y 'base_*,entry' -o out.svg t.tsv
    run -0 titles out
    assert_output "$(printf '%s\n' entry base_longest_0%)"
}

@test "default series: every numeric column but x (percentages first); gaps allowed" {
    printf 'x\ta\tlabel\tb\tsome\tgap\n1\t1\tfoo\t2\t3\t\n2\t2\tbar\t3\tn/a\t4\n' > t.tsv
    rft-plot --no-render -o out.svg t.tsv
    run -0 titles out
    assert_output "$(printf '%s\n' a b gap)"
    rft-plot --no-render -x a -o out.svg t.tsv
    run -0 titles out
    assert_output "$(printf '%s\n' x b gap)"
    printf 'x\tn\tp%%\n1\t10\t50\n2\t20\t60\n' > pct.tsv
    rft-plot --no-render -o out.svg pct.tsv
    run -0 titles out
    assert_output 'p%'
    grep -qx "set ylabel 'p (%)'" out.gp
}

@test "categories: grouped bars by default, lines on request; bars on a numeric x" {
    printf 'scheme\tlongest\tavg\nbase\t100\t78\nrar\t64\t40\nargo\t30\t16\n' > c.tsv
    rft-plot --no-render -o out.svg c.tsv
    grep -qx 'set style data histograms' out.gp
    grep -qx "     data skip 1 using 3 ls 2 title 'avg'" out.gp
    run -0 pipe "sed -n \"s/^    '\\(.*\\)' \\([0-9]\\).*/\\2 \\1/p\" out.gp"
    assert_output "$(printf '%s\n' '0 base' '1 rar' '2 argo')"
    rft-plot --no-render --kind line -o out.svg c.tsv
    run -1 grep histograms out.gp
    grep -qx "     data skip 1 using 0:3 with linespoints ls 2 title 'avg'" out.gp
    grep -qx 'set xrange \[-0.5:2.5\]' out.gp
    rft-plot --no-render --kind bar -o out.svg two.tsv
    grep -qx 'set style data histograms' out.gp
    grep -qx "    '10' 1 \\\\" out.gp
}

@test "cells that are not numbers: gaps, one warning a column of text, status 0" {
    printf 'x\ta\tb\tc\n1\t1\t\t1\n2\tnan\t3\t2\n3\t2\tx\t3\n4\t3\t5\t4\n5\t 4 \tinf\t5\n' > gap.tsv
    run -0 --separate-stderr rft-plot --no-render -y a,b -o out.svg gap.tsv
    assert_equal "$stderr" "rft-plot: warning: gap.tsv: column 'b': 2 cells are not numbers (left out)"
    run -0 cat out.data.tsv
    assert_output "$(printf 'x\ta\tb\n1\t1\tNaN\n2\tNaN\t3\n3\t2\tNaN\n4\t3\t5\n5\t4\tNaN')"
    # b has text in it: never a default series
    run -0 --separate-stderr rft-plot --no-render -o out.svg gap.tsv
    assert_equal "$stderr" ""
    run -0 titles out
    assert_output "$(printf '%s\n' a c)"
    printf 'x\ty\n1\tfoo\n2\tnan\n' > none.tsv
    run -1 --separate-stderr rft-plot -y y none.tsv
    assert_equal "$stderr" "rft-plot: none.tsv: column 'y': no cell is a number"
    run -1 --separate-stderr rft-plot none.tsv
    assert_equal "$stderr" "rft-plot: none.tsv: no column other than 'x' holds numbers: nothing to plot (see -y)"
}

@test "comments and blank lines are skipped, line numbers count them; notes before the header kept" {
    printf '# made by hand\n\nx\ty\n1\t2\n\n# between\n3\t4\n' > c.tsv
    rft-plot --no-render -o out.svg c.tsv
    run -0 cat out.data.tsv
    assert_output "$(printf '# made by hand\nx\ty\n1\t2\n3\t4')"
    run -0 grep -c 'skip 2 using' out.gp        # gnuplot skips the note and the header
    run -0 grep "^set label 100 'Assumed: made by hand (every note: the data file)'" out.gp
    printf 'a\tb\tc\td\te\tf\tg\n1\t2\t3\t4\t5\t6\t7\n# a comment\n\n1\t2\t3\t4\t5\n' > ragged.tsv
    run -1 --separate-stderr rft-plot ragged.tsv
    assert_equal "$stderr" "rft-plot: ragged.tsv: line 5: 5 fields, the header has 7"
    run -1 --separate-stderr rft-plot < ragged.tsv
    assert_equal "$stderr" "rft-plot: standard input: line 5: 5 fields, the header has 7"
}

@test "empty tables and unreadable input" {
    : > empty.tsv
    run -1 --separate-stderr rft-plot empty.tsv
    assert_equal "$stderr" "rft-plot: empty.tsv: empty input: no header line"
    printf '# nothing\n\n' > comments.tsv
    run -1 rft-plot comments.tsv
    printf 'x\ty\n' > header.tsv
    run -1 --separate-stderr rft-plot header.tsv
    assert_equal "$stderr" "rft-plot: header.tsv: no data rows after the header"
    run -1 --separate-stderr rft-plot missing.tsv
    assert_equal "$stderr" "rft-plot: missing.tsv: No such file or directory"
    printf 'x\ty\n1\t2\0\n' > nul.tsv
    run -1 --separate-stderr rft-plot nul.tsv
    assert_equal "$stderr" "rft-plot: nul.tsv: line 2: a NUL byte: not a text table"
    printf 'x\ty\n-1e308\t1\n1e308\t2\n' > wide.tsv
    run -1 --separate-stderr rft-plot --no-render -o w.svg wide.tsv
    assert_equal "$stderr" "rft-plot: wide.tsv: the x values span too wide a range to plot"
}

@test "usage errors: unknown columns, bad sizes, kinds, ranges and terminals" {
    run -2 --separate-stderr rft-plot -y y,nope two.tsv
    [[ ${stderr%%$'\n'*} == "rft-plot: -y: 'nope' matches no column of two.tsv (see rft-plot --help)" ]]
    run -2 --separate-stderr rft-plot -y 'z*' two.tsv
    [[ ${stderr%%$'\n'*} == "rft-plot: -y: 'z*' matches no column of two.tsv (see rft-plot --help)" ]]
    run -2 --separate-stderr rft-plot -x q two.tsv
    [[ ${stderr%%$'\n'*} == "rft-plot: -x: 'q' is not a column of two.tsv (see rft-plot --help)" ]]
    run -2 --separate-stderr rft-plot --width 199 two.tsv
    [[ ${stderr%%$'\n'*} == "rft-plot: --width: 199 is out of range 200..10000 (see rft-plot --help)" ]]
    run -2 rft-plot --height 10001 two.tsv
    run -2 rft-plot --width 12px two.tsv
    run -2 rft-plot --kind pie two.tsv
    run -2 rft-plot --ymin 5 --ymax 5 two.tsv
    run -2 rft-plot --ymax nan two.tsv
    run -2 rft-plot -y , two.tsv
    run -2 rft-plot two.tsv two.tsv
    run -2 rft-plot --colour red two.tsv
    run -2 rft-plot --terminal jpeg two.tsv
    run -2 rft-plot --terminal pdf -o f.png two.tsv
    run -2 rft-plot --no-render -o - two.tsv
    run -2 rft-plot --no-render -o /dev/null two.tsv
    [ ! -e f.png ] && [ ! -e f.gp ]
    run -0 rft-plot --help
    assert_line --index 0 --partial 'rft-plot [-o FILE] [-x COL]'
    assert_line --partial '[--terminal svg|png|pdf] [--no-render] [FILE]'
}

@test "-o: renamed into place when complete; nothing left on failure" {
    run -1 --separate-stderr rft-plot --no-render -o nodir/out.svg two.tsv
    assert_equal "$stderr" "rft-plot: nodir/out.svg: No such file or directory"
    [ ! -e nodir ]
    # a bad table leaves an older figure and script as they were, and no temporary
    mkdir out
    echo old > out/keep.svg
    echo old > out/keep.gp
    printf 'x\ty\n1\t2\t3\n' > bad.tsv
    run -1 rft-plot -o out/keep.svg bad.tsv
    [ "$(cat out/keep.svg)" = old ] && [ "$(cat out/keep.gp)" = old ]
    run -0 ls -A out
    assert_output "$(printf '%s\n' keep.gp keep.svg)"
    # an unwritable folder
    if [ "$(id -u)" != 0 ]; then
        chmod a-w out
        run -1 --separate-stderr rft-plot --no-render -o out/x.svg two.tsv
        assert_equal "$stderr" "rft-plot: out/x.svg: Permission denied"
        chmod u+w out
    fi
    # any name gnuplot takes in a string, none with a line break
    rft-plot --no-render -o "it's \$x.svg" two.tsv
    grep -qx "set output 'it''s \$x.svg'" "it's \$x.gp"
    grep -qx "data = 'it''s \$x.data.tsv'" "it's \$x.gp"
    run -1 --separate-stderr rft-plot --no-render -o $'a\tb.svg' two.tsv
    assert_equal "$stderr" "rft-plot: a	b.svg: a control character in the name: gnuplot cannot take it"
    need_gnuplot
    rft-plot -o "it's \$x.svg" two.tsv
    fig "it's \$x.svg" size
    rft-plot -o out/out.svg two.tsv
    rft-plot two.tsv | cmp - out/out.svg
    run -0 ls -A out
    assert_output "$(printf '%s\n' keep.gp keep.svg out.data.tsv out.gp out.svg)"
    # no temporary folder left beside the figure or in TMPDIR
    mkdir tmp
    TMPDIR=$PWD/tmp rft-plot two.tsv > /dev/null
    run -0 ls -A tmp
    assert_output ''
    # a full device
    run -1 --separate-stderr bash -c 'rft-plot two.tsv > /dev/full'
    assert_equal "$stderr" "rft-plot: standard output: No space left on device"
    run -1 --separate-stderr rft-plot -o /dev/full two.tsv
    assert_equal "$stderr" "rft-plot: /dev/full: No space left on device"
}

@test "the same bytes every time, from a file or from standard input" {
    awk 'BEGIN { print "x\ta\tb"; for (i = 0; i < 300; i++) print i "\t" (i * 7) % 13 "\t" i / 3 }' > t.tsv
    rft-plot --no-render --title t -o a.svg t.tsv
    mkdir b && rft-plot --no-render --title t -o b/a.svg < t.tsv
    cmp a.data.tsv b/a.data.tsv
    diff a.gp b/a.gp | grep -c '^[<>]' | grep -qx 2      # the input's name only
    need_gnuplot
    rft-plot --title t t.tsv > a.svg
    rft-plot --title t t.tsv > b.svg
    cmp a.svg b.svg
    rft-plot --title t < t.tsv > c.svg
    cmp a.svg c.svg
    cat t.tsv | rft-plot --title t - > d.svg
    cmp a.svg d.svg
    LC_ALL=C.UTF-8 LC_NUMERIC=de_DE.UTF-8 rft-plot --title t t.tsv > e.svg
    cmp a.svg e.svg
}

@test "the reader of the output goes away: quiet end" {
    need_gnuplot
    awk 'BEGIN { print "x\ta\tb"; for (i = 0; i < 20000; i++) print i "\t" i % 97 "\t" i % 89 }' > big.tsv
    run --separate-stderr pipe 'rft-plot big.tsv | head -c 10 > /dev/null'
    assert_equal "$stderr" ""
    [[ $status -eq 0 || $status -eq 141 ]]
}

@test "the seeds' figures from rft-vth tables of a synthetic workload" {
    rft-synth --cus 1 --simds 2 --writes 5000 --seed 2 > v.rft
    rft-alloc v.rft | rft-duty -o base.duty
    rft-alloc --scheme argo v.rft | rft-duty -o argo.duty
    # Figs. 14-15 of seed 002: longest '0' duty per register, a line a scheme
    rft-vth --by reg --format tsv base=base.duty argo=argo.duty > reg.tsv
    run -0 --separate-stderr rft-plot --no-render -y '*_longest_0%' --ymax 100 --ylabel "longest '0' duty (%)" -o fig14.svg reg.tsv
    assert_equal "$stderr" ""
    run -0 titles fig14
    assert_output "$(printf '%s\n' base_longest_0% argo_longest_0%)"
    rows=$(($(wc -l < reg.tsv) - 1))
    [ "$rows" -gt 100 ]
    [ "$(($(wc -l < fig14.data.tsv) - 1))" -eq "$rows" ]
    grep -qx "set ylabel 'longest ''0'' duty (%)'" fig14.gp
    # the x label: gnuplot's, or placed above the caption of the notes
    grep -qxE "set xlabel 'entry'|set label [0-9]+ 'entry' at graph 0.5, screen [0-9.]+ center" fig14.gp
    # Fig. 12: average duty per bit position; the text columns are no series
    rft-vth --by bit --format tsv base=base.duty argo=argo.duty | rft-plot --no-render -o fig12.svg
    run -0 titles fig12
    assert_output "$(printf '%s\n' base_0% base_1% base_off% argo_0% argo_1% argo_off%)"
    need_gnuplot
    rft-plot -y '*_longest_0%' --ymax 100 -o fig14.svg reg.tsv
    run -0 fig fig14.svg texts
    assert_line base_longest_0%
    assert_line argo_longest_0%
    # through the front end, the same figure
    rft-vth --by bit --format tsv base=base.duty | rft-plot -y base_0% > a.svg
    run -0 pipe 'rft vth --by bit --format tsv base=base.duty | rft plot -y base_0% | cmp - a.svg'
}
