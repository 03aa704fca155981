#!/usr/bin/env bats
# The study scripts' figures like the papers' (issue 26): aging.sh's duty
# cycles as stacked bars (seed 002 Figs. 12, 13, 16) and its per-register
# figures a panel per scheme (Figs. 14-15, 17-18); argo.sh's Fig. 11 a
# panel per quantity (0.92 mW beside 191 mW); healing.sh names only the
# figures it drew.

load test_helper
load figure_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
}

@test "aging.sh -p: a stacked bar per scheme in three clusters; a panel per scheme over the registers" {
    command -v gnuplot >/dev/null || skip "gnuplot is not installed (Debian: gnuplot-nox; make installs it as root)"
    rft-synth --cus 1 --simds 2 --writes 2000 --seed 2 > s.rft
    "$TOP/examples/aging.sh" -j 1 -p figs s.rft > /dev/null
    grep -qx 'set style histogram rowstacked' figs/duty.gp
    [ "$(grep -c 'newhistogram at ' figs/duty.gp)" -eq 3 ]
    run -0 grep -E '^set label 20[0-2] ' figs/duty.gp
    assert_line --index 0 --partial "'slice average'"
    assert_line --index 1 --partial "'cell of the longest ''0'''"
    assert_line --index 2 --partial "'cell of the longest ''1'''"
    run -0 pipe "grep -v '^#' figs/duty.data.tsv | head -1"
    assert_output "$(printf "scheme\tat '0' (%%)\tat '1' (%%)\toff (%%)\tcell")"
    # each bar is the whole window: '0' + '1' + off = 100 (rounded)
    run -0 awk -F '\t' '/^#/ { next } h++ { s = $2 + $3 + $4; if (s < 99.9 || s > 100.1) print NR ": " s }' figs/duty.data.tsv
    assert_output ''
    for v in 0 1; do
        grep -q '^set multiplot layout 3,2 ' "figs/longest$v-by-reg.gp"
        [ "$(grep -c '^plot data skip [0-9]* using 1:[2-7] with linespoints ls [1-6] notitle$' "figs/longest$v-by-reg.gp")" -eq 6 ]
        run -0 sed -n "s/^set title //p" "figs/longest$v-by-reg.gp"
        assert_output "$(printf "'%s'\n" base rc rar rcrar wc argo)"
    done
}

@test "argo.sh -p: Fig. 11 a panel per quantity, each its own axis; healing.sh -p names what it drew" {
    command -v gnuplot >/dev/null || skip "gnuplot is not installed (Debian: gnuplot-nox; make installs it as root)"
    rft-synth --cus 1 --simds 2 --writes 3000 --seed 2 > s.rft
    run -0 --separate-stderr "$TOP/examples/argo.sh" -p figs s.rft
    refute [ -n "$(printf '%s' "$stderr" | grep 'hardly shows')" ]
    grep -q '^set multiplot layout 1,3 ' figs/fig11.gp
    [ "$(grep -c '^set yrange \[0:\*\]$' figs/fig11.gp)" -eq 3 ]
    run -0 pipe "grep -v '^#' figs/fig11.data.tsv | head -1"
    assert_output "$(printf 'cu\tleakage saved (mW)\tARGO allocator overhead (mW)\tnet saving (mW)')"
    # a GCN trace has no VLIW bundles: no Figs. 4 and 7, and none named
    run -0 "$TOP/examples/healing.sh" -p hfigs s.rft
    assert_line "figures: hfigs/fig9.svg"
    [ -s hfigs/fig9.svg ] && [ ! -e hfigs/fig4.svg ] && [ ! -e hfigs/fig7.svg ]
}

@test "healing.sh -p: Fig. 9 draws the replayed slowdown beside its upper bound, not the first-order estimate" {
    need_gnuplot
    rft-synth --writes 1500 --seed 4 -o s.rft
    run -0 "$TOP/examples/healing.sh" -p h9 s.rft
    run -0 titles h9/fig9
    assert_output "$(printf '%s\n' 'replayed' 'upper bound')"
    grep -qx "set ylabel 'run-time slowdown (%)'" h9/fig9.gp
    ! grep -q 'overhead' h9/fig9.gp
}
