#!/usr/bin/env bats
# rft-plot's figures like the papers' (issue 26): stacked bars in clusters
# (seed 001 Figs. 3, 5, 8; seed 002 Figs. 12, 13, 16, 21), a panel per
# series (seed 002 Figs. 14-15, 17-18), category labels in at most a
# quarter of the figure, small bars beside large ones named, y labels and
# keys that say what a column means and its unit, a script per format.

load test_helper
load figure_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    export -f titles styles fig
    # rft-collect's long table: a row per trace and scheme
    printf '# runs: steady\ntrace\tscheme\tlongest_0%%\tlongest_0_cell_1%%\tlongest_0_cell_off%%\n' > long.tsv
    printf 'BlackS\tbase\t100\t0\t0\nBlackS\trc\t60\t10\t30\nDCT\tbase\t100\t0\t0\nDCT\trc\t40\t20\t40\nmean\tbase\t100\t0\t0\nmean\trc\t50\t15\t35\n' >> long.tsv
}

@test "--kind stack: a bar per row, the series stacked in it; the axis holds each stack" {
    rft-plot --no-render --kind stack -x scheme -y 'longest_0*' -o s.svg <(awk 'NR < 5' long.tsv)
    grep -qx 'set style histogram rowstacked' s.gp
    grep -qx 'set style data histograms' s.gp
    run -0 grep -c '^ *\(plot \)\{0,1\}data skip 2 using [2-4] ls [1-3] title ' s.gp
    assert_output 3
    # the y axis holds the stack (130), not its largest piece (100)
    printf 'x\ta\tb\nk1\t100\t30\nk2\t20\t20\n' > over.tsv
    run -0 --separate-stderr rft-plot --no-render --kind stack --ymax 100 -o over.svg over.tsv
    assert_equal "$stderr" 'rft-plot: warning: --ymax 100 is below the largest value (130): the y axis goes up to it'
    grep -qx 'set yrange \[0:\*\]' over.gp
    need_gnuplot
    rft-plot --kind stack -o over.svg over.tsv
    run -0 fig over.svg texts
    assert_line k1
    assert_line 120
}

@test "--group: a cluster of bars per trace, named under them; the column kept in the data" {
    rft-plot --no-render --kind stack --group trace -x scheme -o g.svg long.tsv
    run -0 grep -E '^(plot |     )(newhistogram|data)' g.gp
    assert_line --index 0 "plot newhistogram at 0, data skip 2 every ::0::1 using 2 ls 1 title 'longest ''0'' duty (%)', \\"
    assert_line --index 3 "     newhistogram at 3, data skip 2 every ::2::3 using 2 ls 1 notitle, \\"
    assert_line --index 6 "     newhistogram at 6, data skip 2 every ::4::5 using 2 ls 1 notitle, \\"
    # the bars at 0 1, 3 4, 6 7: a slot between clusters
    run -0 grep -E "^    '(base|rc)' [0-9]" g.gp
    assert_output "$(printf "    'base' %s, \\\\\n    'rc' %s, \\\\\n" 0 1 3 4 6 | sed '$d')
    'rc' 7 \\"
    run -0 grep -E '^set label 20[0-9] ' g.gp
    assert_line --index 0 --regexp "^set label 200 'BlackS' at first 0.5, screen 0\.[0-9]{4} center$"
    assert_line --index 2 --regexp "^set label 202 'mean' at first 6.5, screen 0\.[0-9]{4} center$"
    run -0 sed -n 2p g.data.tsv
    assert_output "$(printf 'scheme\tlongest_0%%\tlongest_0_cell_1%%\tlongest_0_cell_off%%\ttrace')"
    # the cluster column is never a series; not with lines; a column of the table
    printf 'n\tscheme\tv\n1\ta\t2\n2\ta\t3\n' > num.tsv
    rft-plot --no-render --group n -x scheme -o n.svg num.tsv
    run -0 titles n
    [ "$(grep -c ' title ' n.gp)" -eq 1 ]
    run -2 --separate-stderr rft-plot --no-render --group trace --kind line -o l.svg long.tsv
    [[ $stderr == "rft-plot: --group draws bars in clusters: not with --kind line (see rft-plot --help)" ]]
    run -2 --separate-stderr rft-plot --no-render --group trace --panels -o l.svg long.tsv
    [[ $stderr == "rft-plot: --group draws clusters on one axis: not with --panels (see rft-plot --help)" ]]
    run -2 --separate-stderr rft-plot --no-render --group nope -o l.svg long.tsv
    [[ $stderr == "rft-plot: --group: 'nope' is not a column of long.tsv (see rft-plot --help)" ]]
    need_gnuplot
    rft-plot --kind stack --group trace -x scheme -o g.svg long.tsv
    run -0 fig g.svg texts
    assert_line BlackS
    assert_line DCT
    assert_line scheme
}

@test "--panels: a panel per series with its own y axis, not six lines on one" {
    awk 'BEGIN { printf "entry"; for (s = 0; s < 6; s++) printf "\ts%d_longest_0%%", s; print ""
                 for (e = 0; e < 256; e++) { printf "%d", e
                     for (s = 0; s < 6; s++) printf "\t%d", (e * (s + 1)) % 101; print "" } }' > reg.tsv
    rft-plot --no-render --panels --ymin 0 --ymax 100 --title 'per register' -o p.svg reg.tsv
    run -0 grep -E '^set multiplot layout ' p.gp
    assert_output --regexp "^set multiplot layout 3,2 title 'per register' margins screen "
    [ "$(grep -c '^plot data skip 1 using 1:[2-7] with linespoints ls [1-6] notitle$' p.gp)" -eq 6 ]
    [ "$(grep -c '^set yrange \[0:100\]$' p.gp)" -eq 6 ]
    run -0 grep "^set title " p.gp
    assert_line --index 0 "set title 's0'"
    grep -qx 'unset key' p.gp
    grep -q '^set terminal svg size 800,610 ' p.gp
    # without --ymin/--ymax each panel its own range: 0.92 mW beside 191 mW
    printf 'trace\tleak_saved_mW\talloc_mW\nQRS\t191\t0.92\n' > mw.tsv
    run -0 --separate-stderr rft-plot --no-render --panels -o mw.svg mw.tsv
    assert_equal "$stderr" ''
    # over each panel what sets it apart, beside it what it holds
    run -0 grep -E '^set (yrange|title|ylabel)' mw.gp
    assert_output "set title 'leak_saved'
set ylabel 'leak_saved (mW)'
set yrange [0:*]
set title 'alloc'
set ylabel 'alloc (mW)'
set yrange [0:*]"
    grep -q '^set multiplot layout 1,2 ' mw.gp
    need_gnuplot
    rft-plot --panels --ymin 0 --ymax 100 -o p.png reg.tsv
    run -0 fig p.png size
    assert_output 'png 800 610'
}

@test "small bars beside large ones on one axis: a warning names them" {
    printf 'quantity\tmW\nleakage saved\t191\nARGO allocator\t0.92\nnet saving\t190.1\n' > q.tsv
    run -0 --separate-stderr rft-plot --no-render -x quantity -o q.svg q.tsv
    assert_equal "$stderr" "rft-plot: warning: q.tsv: 'mW' of 'ARGO allocator' (0.92) is under 1% of the y axis (191) and hardly shows: give it a column of its own and draw with --panels"
    # the foot of a ramp is no such bar
    seq 0 199 | awk 'BEGIN { print "r\tv" } { print "r" $1 "\t" $1 }' > ramp.tsv
    run -0 --separate-stderr rft-plot --no-render -o ramp.svg ramp.tsv
    assert_equal "$stderr" ''
}

# The pixels the longest tick label of STEM.gp takes under the axis, from
# its characters, font and angle as the script sets them (a character 0.75
# of the font wide, as cairo draws DejaVu Sans in mixed case to PNG), and
# the figure's height.
label_extent() {
    awk -F "'" '/^    .* [0-9.]+(, \\| \\)$/ { n = length($2); if (n > max) max = n }
        /^set xtics rotate by/ { rot = $0; sub(/^set xtics rotate by /, "", rot); rot += 0
                                 font = $0; sub(/.*font ",/, "", font); font += 0 }
        /^set terminal svg size/ { split($0, w, /[ ,]/); h = w[5] }
        END { pi = atan2(0, -1); if (!font) font = 11
              printf "%d %d %d\n", max * 0.75 * font * sin(rot * pi / 180), h, rot }' "$1.gp"
}

@test "category labels take at most a quarter of the figure: turned less, cut in the middle" {
    # trace names of 60 characters, upright, took 60 % of an 800x480 figure
    for i in 1 2 3 4 5 6 7 8; do
        printf 'A_trace_with_a_name_that_goes_on_and_on_and_on_number_%06d\t%d\n' "$i" "$i"
    done | sed '1i trace\tv' > long-names.tsv
    rft-plot --no-render -o ln.svg long-names.tsv
    run -0 label_extent ln
    read -r extent height rot <<<"$output"
    [ "$rot" -eq 45 ]
    [ "$extent" -le $((height / 4)) ]
    # cut in the middle, an ellipsis in the cut: both ends kept
    grep -q "^    'A_trace_.*….*000001' 0, \\\\$" ln.gp
    # and the figure's room under the axis follows: at most a quarter and the x label
    bm=$(sed -n 's/^set bmargin at screen //p' ln.gp)
    awk -v b="$bm" 'BEGIN { exit !(b <= 0.25 + 40 / 480) }'
    # short labels stay whole and across
    printf 'trace\tv\nBlackS\t1\nDCT\t2\n' > short.tsv
    rft-plot --no-render -o short.svg short.tsv
    run -1 grep rotate short.gp
    grep -q "^    'BlackS' 0, " short.gp
    need_gnuplot
    rft-plot -o ln.svg long-names.tsv
    run -0 fig ln.svg texts
    assert_line --regexp '^A_trace_.*….*000008$'
}

@test "the y label says what the columns mean: a shared '0%' is the '0' duty, not a number" {
    printf 'entry\tbase_avg_0%%\tbase_longest_0%%\n0\t1\t2\n' > z.tsv
    rft-plot --no-render -y '*_0%' -o z.svg z.tsv
    grep -qx "set ylabel \"'0' duty (%)\"" z.gp
    printf 'x\tnaive_7\thealed_7\n0\t1\t2\n' > n.tsv
    rft-plot --no-render -o n.svg n.tsv
    grep -qx "set ylabel 'naive_7, healed_7'" n.gp
    # keys carry the unit a column's name ends in
    printf 'hours\tdvth_naive_mV\tdvth_healed_mV\n0\t1\t2\n1\t2\t3\n' > mv.tsv
    rft-plot --no-render -o mv.svg mv.tsv
    run -0 titles mv
    assert_output "$(printf '%s\n' 'dvth_naive (mV)' 'dvth_healed (mV)')"
    grep -qx "set ylabel 'dvth (mV)'" mv.gp
    need_gnuplot
    # a text that starts with a quote comes back whole (gnuplot reads '' as empty)
    rft-plot -y '*_0%' --title "'0' \"duty\" \\ 50%" -o z.svg z.tsv
    run -0 fig z.svg texts
    assert_line "'0' duty (%)"
    assert_line "'0' \"duty\" \\ 50%"
}

@test "one name drawn as SVG, PNG and PDF keeps a script and data file each" {
    printf 'x\ty\nk1\t1\nk2\t2\n' > t.tsv
    rft-plot --no-render -o fig.svg t.tsv
    rft-plot --no-render -o fig.png t.tsv
    rft-plot --no-render -o fig.pdf t.tsv
    run -0 ls
    assert_output "$(printf '%s\n' fig.data.tsv fig.gp fig.pdf.data.tsv fig.pdf.gp fig.png.data.tsv fig.png.gp long.tsv t.tsv)"
    grep -qx "set output 'fig.svg'" fig.gp
    grep -qx "set output 'fig.png'" fig.png.gp
    grep -qx "data = 'fig.png.data.tsv'" fig.png.gp
    grep -qx "# set terminal svg size 800,480 noenhanced font \"sans,11\" background rgb \"white\"; set output 'fig.svg'" fig.png.gp
    need_gnuplot
    rft-plot -o fig.png t.tsv
    rft-plot -o fig.svg t.tsv
    [ -s fig.png ] && [ -s fig.svg ]
    grep -qx "set output 'fig.png'" fig.png.gp
}

@test "--group: 30 clusters widen the figure so that each trace's name keeps 6 characters; at a given --width a warning" {
    { printf 'trace\tscheme\tv\n'
      for i in $(seq 1 30); do printf 'TraceNumber%02d\tbase\t1\nTraceNumber%02d\trc\t2\n' $i $i; done; } > many.tsv
    # 30 clusters of two bars: at 800 pixels a name had 2 characters and ran into the next
    run -0 --separate-stderr rft-plot --no-render --group trace -x scheme -o m.svg many.tsv
    [ -z "$stderr" ]
    run -0 grep -oE '^set terminal svg size [0-9]+' m.gp
    [ "${output##* }" -gt 800 ]
    run -0 grep -E "^set label 200 " m.gp
    # (Tra…01: six characters, the start and the end of the name)
    [[ $output == "set label 200 'Tra"*"01' at"* ]] || fail "$output"
    run -0 --separate-stderr rft-plot --no-render --group trace -x scheme --width 800 -o w.svg many.tsv
    [[ $stderr == *"rft-plot: warning: the labels of 30 groups are cut to fewer than 6 characters at --width 800 ("*" would hold them)" ]] ||
        fail "$stderr"
}
