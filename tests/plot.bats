#!/usr/bin/env bats
# rft-plot: TSV tables to SVG charts.  Coordinates against the layout of
# rft-plot(1); series chosen by name, wildcard and default; text escaped;
# gaps warned about; bad tables, bad options and failing output refused.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    printf 'x\ty\n0\t25\n10\t75\n' > two.tsv
    export -f svg
}

# What a chart holds, read with Python's XML parser (so it must parse):
#   svg FILE series        the series' names, one a line
#   svg FILE points NAME   the points of each polyline of series NAME
#   svg FILE bars NAME     how many bars series NAME has
#   svg FILE dots NAME     how many single points (circles) series NAME has
#   svg FILE texts         every text on the chart, one a line
svg() {
    python3 - "$@" <<'EOF'
import sys, xml.etree.ElementTree as E
f, what = sys.argv[1], sys.argv[2]
ns = "{http://www.w3.org/2000/svg}"
root = E.parse(f).getroot()
ser = [g for g in root.iter(ns + "g") if g.get("class") == "series"]
pick = lambda: [g for g in ser if g.get("data-name") == sys.argv[3]][0]
if what == "series":
    for g in ser: print(g.get("data-name"))
elif what == "points":
    for p in pick().iter(ns + "polyline"): print(p.get("points"))
elif what == "bars":
    print(len([r for r in pick().iter(ns + "rect") if r.get("class") == "bar"]))
elif what == "dots":
    print(len(list(pick().iter(ns + "circle"))))
elif what == "texts":
    for t in root.iter(ns + "text"): print(t.text)
EOF
}

@test "a two-point line where the documented layout puts it" {
    # plot area x 64..(523 - 16 - (36 + 7 * 1)) = 64..464, y 40..(488 - 48) = 40..440
    rft-plot --width 523 --height 488 --ymin 0 --ymax 100 -o out.svg two.tsv
    python3 -c 'import sys,xml.etree.ElementTree as E; E.parse(sys.argv[1])' out.svg
    run -0 head -2 out.svg
    assert_line --index 0 '<?xml version="1.0" encoding="UTF-8"?>'
    assert_line --index 1 --regexp '^<svg xmlns="http://www.w3.org/2000/svg" .*width="523" height="488" viewBox="0 0 523 488"'
    [ "$(grep -c 'class="series"' out.svg)" -eq 1 ]
    [ "$(grep -c '<polyline' out.svg)" -eq 1 ]
    run -0 svg out.svg points y
    assert_output '64.00,340.00 464.00,140.00'
    # y ticks 0..100 by 20, x ticks 0..10 by 2, the legend, the axis labels
    run -0 svg out.svg texts
    assert_output "$(printf '%s\n' 0 20 40 60 80 100 0 2 4 6 8 10 y x y)"
}

@test "nice ticks from the data: y from 0, steps of 1, 2 or 5 times a power of ten" {
    printf 'x\tv\n1\t0.25\n2\t7\n3\t3\n' > t.tsv
    rft-plot t.tsv > out.svg
    run -0 pipe 'svg out.svg texts | paste -sd " "'
    assert_output '0 1 2 3 4 5 6 7 1 1.5 2 2.5 3 v x v'
    printf 'x\tv\n0\t-30\n1\t45\n' > n.tsv
    rft-plot --ylabel '' --xlabel '' n.tsv > out.svg
    run -0 pipe 'svg out.svg texts | paste -sd " "'
    assert_output '-30 -20 -10 0 10 20 30 40 0 0.2 0.4 0.6 0.8 1 v'
}

@test "series names, title and labels are escaped and come back whole" {
    printf 'name\ta<b&"c"\tplain\nr1\t1\t2\nr2\t2\t3\n' > esc.tsv
    rft-plot --title "Tom's <chart> & more" --ylabel '"duty" (%)' esc.tsv > out.svg
    grep -q 'data-name="a&lt;b&amp;&quot;c&quot;"' out.svg
    run -0 svg out.svg series
    assert_output "$(printf '%s\n' 'a<b&"c"' plain)"
    run -0 svg out.svg texts
    assert_line "Tom's <chart> & more"
    assert_line '"duty" (%)'
    assert_line 'a<b&"c"'
    # bytes that are not UTF-8 still make a document that parses
    printf 'x\t\xff\x01bad\n1\t2\n' > bin.tsv
    rft-plot bin.tsv > out.svg
    run -0 svg out.svg series
    assert_output "$(printf '\xef\xbf\xbd\xef\xbf\xbdbad')"
}

@test "-y: names and wildcards, header order, each column once" {
    printf 'entry\tbase_longest_0%%\tbase_avg\targo_longest_0%%\targo_avg\n0\t100\t50\t30\t20\n1\t90\t40\t35\t25\n' > t.tsv
    rft-plot -y '*_longest_0%' t.tsv > out.svg
    run -0 svg out.svg series
    assert_output "$(printf '%s\n' base_longest_0% argo_longest_0%)"
    rft-plot -y 'argo_*,*longest*' t.tsv > out.svg
    run -0 svg out.svg series
    assert_output "$(printf '%s\n' base_longest_0% argo_longest_0% argo_avg)"
    rft-plot --y argo_avg -y base_avg t.tsv > out.svg
    run -0 svg out.svg series
    assert_output "$(printf '%s\n' base_avg argo_avg)"
    # a wildcard never picks the x column; its name does
    rft-plot -y '*' t.tsv > out.svg
    run -0 pipe 'svg out.svg series | wc -l'
    assert_output 4
    rft-plot -x base_avg -y 'base_*,entry' t.tsv > out.svg
    run -0 svg out.svg series
    assert_output "$(printf '%s\n' entry base_longest_0%)"
}

@test "default series: every all-number column but x; a single one labels y" {
    printf 'x\ta\tlabel\tb\tsome\n1\t1\tfoo\t2\t3\n2\t2\tbar\t3\tn/a\n' > t.tsv
    rft-plot t.tsv > out.svg
    run -0 svg out.svg series
    assert_output "$(printf '%s\n' a b)"
    rft-plot -x a t.tsv > out.svg
    run -0 svg out.svg series
    assert_output "$(printf '%s\n' x b)"
    rft-plot -y b t.tsv > out.svg
    run -0 pipe 'svg out.svg texts | tail -3'
    assert_output "$(printf '%s\n' b x b)"
}

@test "categories: grouped bars by default, lines on request; bars on a numeric x" {
    printf 'scheme\tlongest\tavg\nbase\t100\t78\nrar\t64\t40\nargo\t30\t16\n' > c.tsv
    rft-plot c.tsv > out.svg
    [ "$(grep -c '<rect class="bar"' out.svg)" -eq 6 ]
    [ "$(grep -c '<polyline' out.svg)" -eq 0 ]
    run -0 svg out.svg bars avg
    assert_output 3
    run -0 pipe 'svg out.svg texts | sed -n "7,9p"'
    assert_output "$(printf '%s\n' base rar argo)"
    # slots of (800 - 16 - (36 + 7 * 7) - 64) / 3 = 211.67: bars 0.4 of it
    grep -q '<rect class="bar" x="85.17" y="40.00" width="84.67" height="392.00"/>' out.svg
    rft-plot --kind line c.tsv > out.svg
    [ "$(grep -c '<polyline' out.svg)" -eq 2 ]
    [ "$(grep -c '<rect class="bar"' out.svg)" -eq 0 ]
    rft-plot --kind bar two.tsv > out.svg
    run -0 svg out.svg bars y
    assert_output 2
    # many categories: every k-th labelled (k = 1, 2, 5, 10, ...): 20 at most,
    # and none closer than its width (7 px a character + 6)
    seq 0 99 | awk 'BEGIN { print "r\tv" } { print "r" $1 "\t" $1 }' > many.tsv
    rft-plot many.tsv > out.svg
    run -0 pipe 'svg out.svg texts | grep "^r." | paste -sd " "'
    assert_output "$(seq 0 5 95 | sed 's/^/r/' | paste -sd ' ')"
    rft-plot --width 400 many.tsv > out.svg
    run -0 pipe 'svg out.svg texts | grep "^r." | paste -sd " "'
    assert_output "$(seq 0 10 90 | sed 's/^/r/' | paste -sd ' ')"
}

@test "cells that are not numbers: gaps, one warning a column, status 0" {
    printf 'x\ta\tb\tc\n1\t1\t\t1\n2\tnan\t3\t2\n3\t2\tx\t3\n4\t3\t5\t4\n5\t 4 \tinf\t5\n' > gap.tsv
    run -0 --separate-stderr rft-plot -y a,b gap.tsv
    assert_equal "$stderr" "rft-plot: warning: gap.tsv: column 'a': 1 cell is not a number (left out)
rft-plot: warning: gap.tsv: column 'b': 3 cells are not numbers (left out)"
    printf '%s\n' "$output" > out.svg
    run -0 svg out.svg points a         # rows 3 to 5
    [ "${#lines[@]}" -eq 1 ] && [ "$(wc -w <<< "$output")" -eq 3 ]
    run -0 svg out.svg dots a
    assert_output 1
    run -0 svg out.svg dots b
    assert_output 2
    run -0 svg out.svg points b
    assert_output ''
    # the same as bars: no bar where there is no number
    run -0 --separate-stderr rft-plot --kind bar -y b gap.tsv
    printf '%s\n' "$output" > out.svg
    run -0 svg out.svg bars b
    assert_output 2
    # c has no gap, and a text column is never a default series
    run -0 --separate-stderr rft-plot gap.tsv
    assert_equal "$stderr" ""
    printf '%s\n' "$output" > out.svg
    run -0 svg out.svg series
    assert_output c
    printf 'x\ty\n1\tfoo\n2\tnan\n' > none.tsv
    run -1 --separate-stderr rft-plot -y y none.tsv
    assert_equal "$stderr" "rft-plot: none.tsv: column 'y': no cell is a number"
    run -1 --separate-stderr rft-plot none.tsv
    assert_equal "$stderr" "rft-plot: none.tsv: no column other than 'x' is all numbers: nothing to plot (see -y)"
}

@test "comments and blank lines are skipped, line numbers count them" {
    printf '# made by hand\n\nx\ty\n1\t2\n\n# between\n3\t4\n' > c.tsv
    run -0 pipe 'rft-plot c.tsv | grep -c "<polyline"'
    assert_output 1
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
}

@test "usage errors: unknown columns, bad sizes, kinds and ranges" {
    run -2 --separate-stderr rft-plot -y y,nope two.tsv
    [[ ${stderr%%$'\n'*} == "rft-plot: -y: 'nope' matches no column of two.tsv" ]]
    run -2 --separate-stderr rft-plot -y 'z*' two.tsv
    [[ ${stderr%%$'\n'*} == "rft-plot: -y: 'z*' matches no column of two.tsv" ]]
    run -2 --separate-stderr rft-plot -x q two.tsv
    [[ ${stderr%%$'\n'*} == "rft-plot: -x: 'q' is not a column of two.tsv" ]]
    run -2 --separate-stderr rft-plot --width 199 two.tsv
    [[ ${stderr%%$'\n'*} == "rft-plot: --width: 199 is out of range 200..10000" ]]
    run -2 rft-plot --height 10001 two.tsv
    run -2 rft-plot --width 12px two.tsv
    run -2 rft-plot --kind pie two.tsv
    run -2 rft-plot --ymin 5 --ymax 5 two.tsv
    run -2 rft-plot --ymax nan two.tsv
    run -2 rft-plot -y , two.tsv
    run -2 rft-plot two.tsv two.tsv
    run -2 rft-plot --colour red two.tsv
    run -0 rft-plot --help
    assert_line --index 0 --partial 'usage: rft-plot [-o FILE] [-x COL]'
}

@test "-o: renamed into place when complete; nothing left on failure" {
    rft-plot -o out.svg two.tsv
    rft-plot two.tsv | cmp - out.svg
    run -1 compgen -G '*tmp*'
    run -1 --separate-stderr rft-plot -o nodir/out.svg two.tsv
    assert_equal "$stderr" "rft-plot: nodir/out.svg: No such file or directory"
    [ ! -e nodir ]
    # a bad table leaves an older chart as it was, and no temporary
    echo old > keep.svg
    printf 'x\ty\n1\t2\t3\n' > bad.tsv
    run -1 rft-plot -o keep.svg bad.tsv
    [ "$(cat keep.svg)" = old ]
    run -1 compgen -G '*tmp*'
    # a full device
    run -1 --separate-stderr bash -c 'rft-plot two.tsv > /dev/full'
    assert_equal "$stderr" "rft-plot: standard output: No space left on device"
    run -1 rft-plot -o /dev/full two.tsv
}

@test "the same bytes every time, from a file or from standard input" {
    awk 'BEGIN { print "x\ta\tb"; for (i = 0; i < 300; i++) print i "\t" (i * 7) % 13 "\t" i / 3 }' > t.tsv
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
    run -0 --separate-stderr pipe "rft-plot -y '*_longest_0%' --ymax 100 --ylabel \"longest '0' duty (%)\" -o fig14.svg reg.tsv"
    assert_equal "$stderr" ""
    run -0 svg fig14.svg series
    assert_output "$(printf '%s\n' base_longest_0% argo_longest_0%)"
    rows=$(($(wc -l < reg.tsv) - 1))
    [ "$rows" -gt 100 ]
    run -0 pipe 'svg fig14.svg points argo_longest_0% | wc -w'
    assert_output "$rows"
    run -0 svg fig14.svg texts
    assert_line "longest '0' duty (%)"
    assert_line entry
    # Fig. 12: average duty per bit position; the text columns are no series
    run -0 pipe 'rft-vth --by bit --format tsv base=base.duty argo=argo.duty | rft-plot > fig12.svg'
    run -0 svg fig12.svg series
    assert_output "$(printf '%s\n' base_0% base_1% base_off% argo_0% argo_1% argo_off%)"
    # through the front end, the same chart
    rft-vth --by bit --format tsv base=base.duty | rft-plot -y base_0% > a.svg
    run -0 pipe 'rft vth --by bit --format tsv base=base.duty | rft plot -y base_0% | cmp - a.svg'
}
