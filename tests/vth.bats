#!/usr/bin/env bats
# rft-vth: duty cycles and NBTI figures from hand-made duty maps; maps side by
# side; the parameter file; bad input.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    D="$FIX/duty"
    small() { rft-decode --lanes 1 --block-lanes 1 --entries "$1" "${2:--}"; }
    # entry 0 holds ffffffff 100..150 then 0 until 200: every bit 50 % '1'
    printf 'B\t100\t0\t0\t1\t1\tk\t0\nW\t100\t0\t0\t1\t0\t1\tffffffff\tphys=0\nW\t150\t0\t0\t1\t0\t1\t00000000\tphys=0\nE\t200\t0\t0\t1\n' > half.tsv
    # entry 0 holds 0 all the time, entry 1 ffffffff all the time
    printf 'B\t100\t0\t0\t1\t2\tk\t0\nW\t100\t0\t0\t1\t0\t1\t00000000\tphys=0\nW\t100\t0\t0\t1\t1\t1\tffffffff\tphys=1\nE\t200\t0\t0\t1\n' > full.tsv
}

# value of one metric (scope all) of a summary in TSV: field 3 on
metric() { awk -F '\t' -v m="$1" '$1 == "all" && $2 == m { $1 = $2 = ""; print substr($0, 3) }' OFS='\t'; }

@test "a cell at '0' all the time has the normalised dVth of T0 at 1, '1' all the time T1" {
    small 2 full.tsv | rft-duty > f.duty
    rft-vth --format tsv f.duty > out.tsv
    run -0 metric longest_0% < out.tsv
    assert_output '100.00'
    run -0 metric longest_0_cell < out.tsv
    assert_output '0:0 r0 b0'
    run -0 metric dvth_t0_norm < out.tsv
    assert_output '1.0000'
    run -0 metric dvth_t1_norm < out.tsv
    assert_output '1.0000'
    run -0 metric longest_1_cell < out.tsv
    assert_output '0:0 r1 b0'
    run -0 metric window < out.tsv
    assert_output 'slice 100..200'
}

@test "50 % duty: seed 002 Eq. 3 normalised, 0.5^0.25 (1 - sqrt(0.35) / 2)" {
    small 1 half.tsv | rft-duty > h.duty
    rft-vth --format tsv h.duty > out.tsv
    run -0 metric longest_0% < out.tsv
    assert_output '50.00'
    run -0 metric longest_0_cell_1% < out.tsv
    assert_output '50.00'
    run -0 metric dvth_t0_norm < out.tsv
    assert_output "$(awk 'BEGIN { printf "%.4f", 0.5 ^ 0.25 * (1 - sqrt(0.35) / 2) }')"
    run -0 metric avg_0% < out.tsv
    assert_output '50.00'
    # absolute dVth of Eq. 3 grows as the lifetime^0.25
    a=$(rft-vth --format tsv --years 1 h.duty | metric dvth_t0_eq3_mV)
    b=$(rft-vth --format tsv --years 16 h.duty | metric dvth_t0_eq3_mV)
    run awk -v a="$a" -v b="$b" 'BEGIN { r = b / a; exit !(r > 1.999 && r < 2.001) }'
    assert_success
}

@test "stress all the time for 3 years: both models give the calibrated 53 mV; delay and lifetime" {
    small 2 full.tsv | rft-duty > f.duty
    rft-vth --format tsv f.duty > out.tsv
    run -0 metric dvth_t0_eq3_mV < out.tsv
    assert_output '53.018'
    run -0 metric dvth_t0_rd_mV < out.tsv
    assert_output '53.017'
    # seed 003 Eq. 7: 1.3 * dVth / (1.2 - 0.365)
    run -0 metric delay_rd% < out.tsv
    assert_output "$(awk 'BEGIN { printf "%.3f", 100 * 1.3 * 0.053017 / 0.835 }')"
    run -0 metric snm_life_eq3_years < out.tsv
    assert_output --regexp '^[0-9]+\.[0-9]{3}$'
}

@test "maps side by side: the change against the first, as seed 002 reports it" {
    small 2 full.tsv | rft-duty > base.duty
    small 1 half.tsv | rft-duty > half.duty
    small 2 full.tsv > f.rft
    # the same trace with entry 0 switched off 150..200 (as RC would)
    printf 'B\t100\t0\t0\t1\t2\tk\t0\nW\t100\t0\t0\t1\t0\t1\t00000000\tphys=0\nW\t100\t0\t0\t1\t1\t1\tffffffff\tphys=1\nW\t150\t0\t0\t1\t0\t1\t00000000\tphys=0\ton=0\nE\t200\t0\t0\t1\n' |
        small 2 | rft-duty > rc.duty
    run -0 rft-vth --format tsv base=base.duty rc=rc.duty
    no_notes
    assert_line --index 0 "$(printf 'scope\tmetric\tbase\trc\trc_red%%\trc_increase%%')"
    assert_line "$(printf 'all\tlongest_0%%\t100.00\t50.00\t50.00\t')"
    assert_line "$(printf 'all\tlongest_0_cell_off%%\t0.00\t50.00\t\t')"
    assert_line "$(printf 'all\tdvth_t0_norm\t1.0000\t0.5922\t40.78\t')"
    assert_line "$(printf 'all\tlongest_1%%\t100.00\t100.00\t0.00\t')"
    run -0 rft-vth --format csv base=base.duty rc=rc.duty
    assert_line 'all,longest_0_cell,0:0 r0 b0,0:0 r0 b0,,'
    # maps of different geometry cannot be compared cell by cell
    run -1 --separate-stderr rft-vth base.duty half.duty
    assert_equal "$stderr" "rft-vth: half.duty: record 1: geometry 1 lanes x 1 entries differs from base.duty (1 x 2)"
}

@test "--per-slice, --slice, --by bit, --by reg, --by cells, --format json" {
    rft-decode --lanes 1 --block-lanes 1 --entries 2 "$D/span.tsv" | rft-duty > s.duty
    run -0 rft-vth --per-slice --format tsv s.duty
    assert_line "$(printf '0:0\twindow\tslice 100..400')"
    assert_line "$(printf '1:0\twindow\tslice 500..600')"
    assert_line "$(printf 'all\twindow\tslice 100..600')"
    run -0 rft-vth --slice 1:0 --format tsv s.duty
    assert_line "$(printf '1:0\tcycles\t100')"
    run -0 rft-vth --by bit --format tsv s.duty
    no_notes
    assert_equal "${#lines[@]}" 33
    assert_line --index 0 "$(printf 'bit\ts.duty_0%%\ts.duty_1%%\ts.duty_off%%\ts.duty_window')"
    assert_line --index 1 "$(printf '0\t25.00\t75.00\t0.00\tslice 100..600')"
    assert_line --index 2 "$(printf '1\t100.00\t0.00\t0.00\tslice 100..600')"
    run -0 rft-vth --by reg --format tsv s.duty
    no_notes
    assert_equal "${#lines[@]}" 2
    assert_line --index 1 "$(printf '0\t100.00\t0.00\t0.00\t100.00\t0.00\t0.00\tslice 100..600')"
    run -0 rft-vth --by reg --include-unused --format tsv s.duty
    no_notes
    assert_line --index 2 "$(printf '1\t0.00\t0.00\t100.00\t0.00\t0.00\t100.00\tslice 100..600')"
    run -0 rft-vth --format json s.duty
    assert_line '{"scope": "all", "metric": "cycles", "s.duty": 300}'
}

@test "the parameter file: shipped values are the defaults; missing and bad constants" {
    run -0 rft-vth --show-params --format tsv
    defaults=$output
    run -0 rft-vth --show-params --format tsv --params "$TOP/params/nbti.conf"
    assert_output "$defaults"
    grep -v '^rd_xi1' "$TOP/params/nbti.conf" > missing.conf
    small 2 full.tsv | rft-duty > f.duty
    run -1 --separate-stderr rft-vth --params missing.conf f.duty
    assert_equal "$stderr" "rft-vth: missing.conf: missing key 'rd_xi1'"
    sed 's/^vdd = 1.2 /vdd = 1,2 /' "$TOP/params/nbti.conf" > comma.conf
    run -1 --separate-stderr rft-vth --params comma.conf f.duty
    assert_equal "$stderr" "rft-vth: comma.conf: line 10: vdd: '1,2' is not a number"
    printf 'vddd = 1\n' > typo.conf
    run -1 --separate-stderr rft-vth --params typo.conf f.duty
    assert_equal "$stderr" "rft-vth: typo.conf: line 1: unknown constant 'vddd'"
    run -1 --separate-stderr rft-vth --params nowhere.conf f.duty
    assert_equal "$stderr" "rft-vth: nowhere.conf: No such file or directory"
    # a changed constant changes the figures; --set changes one
    sed 's/^temperature = 300 /temperature = 350 /' "$TOP/params/nbti.conf" > hot.conf
    a=$(rft-vth --format tsv f.duty | metric dvth_t0_rd_mV)
    b=$(rft-vth --format tsv --params hot.conf f.duty | metric dvth_t0_rd_mV)
    run awk -v a="$a" -v b="$b" 'BEGIN { exit !(b > a) }'
    assert_success
    run -0 rft-vth --format tsv --set temperature=350 f.duty
    assert_line "$(printf 'all\tdvth_t0_rd_mV\t%s' "$b")"
    run -0 rft-vth --show-params --format tsv --set eq3_eta=0.5 --params missing.conf --set rd_xi1=0.9
    assert_line "$(printf 'eq3_eta\t0.5')"
    run -2 --separate-stderr rft-vth --set eq3_eta=2 f.duty
    assert_equal "$stderr" "rft-vth: --set: eq3_eta: 2 is out of range 0..1 (see rft-vth --help)"
    run -2 --separate-stderr rft-vth --set nosuch=1 f.duty
    assert_equal "$stderr" "rft-vth: --set: unknown constant 'nosuch' (see rft-vth --help)"
    run -2 rft-vth --set eta f.duty
}

@test "a lifetime of 0 years or less is a usage error" {
    small 2 full.tsv | rft-duty > f.duty
    run -2 rft-vth --years 0 f.duty
    assert_line --index 0 'rft-vth: --years: the lifetime must be more than 0 years (see rft-vth --help)'
    run -2 rft-vth --years -3 f.duty
    assert_line --index 0 'rft-vth: --years: the lifetime must be more than 0 years (see rft-vth --help)'
    run -2 rft-vth --years three f.duty
    assert_line --index 0 "rft-vth: --years: 'three' is not a number (see rft-vth --help)"
}

@test "bad input: a trace, a stream with no map, a label without a file" {
    small 2 full.tsv > t.rft
    run -1 --separate-stderr rft-vth t.rft
    assert_equal "$stderr" "rft-vth: t.rft: record 1: a trace, not a duty map: run rft-duty(1) first"
    rft-duty t.rft > f.duty
    rft-view f.duty > /dev/null
    run -2 rft-vth base= f.duty
    run -2 rft-vth --by everything f.duty
}

@test "examples/aging.sh: six schemes of seed 002 side by side" {
    rft-synth --cus 1 --simds 2 --writes 3000 --seed 2 > s.rft
    run -0 "$TOP/examples/aging.sh" -k maps s.rft
    assert_line --index 0 "== s.rft (run 10 times: no steady state of RAR's rotation with windows of several sizes at a position): seed 002 section 6 (red% = reduction against the baseline, increase% = increase of a lifetime)"
    # --format tsv: the tables alone, the vth table first
    run -0 "$TOP/examples/aging.sh" s.rft --format tsv
    no_notes
    assert_line --index 0 "$(printf 'scope\tmetric\tbase%s' "$(printf '\t%s\t%s_red%%\t%s_increase%%' rc rc rc rar rar rar rcrar rcrar rcrar wc wc wc argo argo argo)")"
    assert_line --regexp '^all	longest_0%	[0-9.]+	'
    for m in base rc rar rcrar wc argo; do rft-view -H "maps/$m.rft" > /dev/null; done
    # RC switches compressed registers off: more off time than the baseline
    run -0 bash -c "rft-vth --format tsv maps/base.rft maps/rc.rft | awk -F '\t' '\$2 == \"avg_off%\" { print (\$4 > \$3) }'"
    assert_output 1
    run -2 "$TOP/examples/aging.sh"
}

@test "examples/aging.sh -p DIR: the seed's figures as SVG, with their gnuplot scripts" {
    command -v gnuplot >/dev/null || skip "gnuplot is not installed (Debian: gnuplot-nox; make installs it as root)"
    rft-synth --cus 1 --simds 2 --writes 2000 --seed 2 > s.rft
    run -0 "$TOP/examples/aging.sh" -p figs s.rft
    for f in duty longest0-by-reg longest1-by-reg; do
        python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "figs/$f.svg"
        [ -s "figs/$f.gp" ]
    done
    # six schemes: a stacked bar each in three clusters (tests/study-figures.bats)
    run -0 pipe "grep -v '^#' figs/duty.data.tsv | cut -f 1"
    assert_output "$(printf '%s\n' scheme base rc rar rcrar wc argo base rc rar rcrar wc argo base rc rar rcrar wc argo)"
    [ "$(grep -v '^#' figs/longest0-by-reg.data.tsv | head -1 | tr '\t' '\n' | grep -c '_longest_0%$')" -eq 6 ]
}

@test "examples/aging.sh -r N: the kernel run N times, the maps cover every run" {
    rft-synth --cus 1 --simds 1 --writes 1500 --seed 3 > s.rft
    run -0 "$TOP/examples/aging.sh" -r 3 -k maps s.rft
    assert_line --index 0 '== s.rft (run 3 times): seed 002 section 6 (red% = reduction against the baseline, increase% = increase of a lifetime)'
    # the window of the maps is three runs long
    f=$(rft-view --stats --format tsv s.rft | awk -F '\t' '$1 == "first_cycle" { print $2 }')
    l=$(rft-view --stats --format tsv s.rft | awk -F '\t' '$1 == "last_cycle" { print $2 }')
    run -0 bash -c "rft-vth --format tsv maps/base.rft | awk -F '\t' '\$2 == \"cycles\" { print \$3 }'"
    assert_output $((3 * (l - f + 1) - 1))
}
