#!/usr/bin/env bats
# rft-heal that says what it means (issue 26): what an independent
# re-implementation found ambiguous or wrong, each with a trace built here;
# and the help texts of rft-heal, rft-alloc and rft-plot, rft-decode -v.

load heal_helper

# a wavefront of 64 work-items on slice 0:0 with one bundle of slots $1 at
# cycle 0, then bundles of slots $2 at cycles 4, 8, ... 32 (a bundle keeps
# each SC busy 4 cycles), ending at cycle 39: a window of 40 cycles
bundles() {
    local c
    printf 'K\t0\tk\nB\t0\t0\t0\t1\t8\tk\t0\nA\t0\t0\t0\t1\t%s\tffffffffffffffff\n' "$1"
    for c in 4 8 12 16 20 24 28 32; do printf 'A\t%d\t0\t0\t1\t%s\tffffffffffffffff\n' $c "$2"; done
    printf 'E\t39\t0\t0\t1\n'
}

@test "--quiet is taken by rft-heal, rft-vth, rft-plot and rft-collect as by every program" {
    run -0 rft-heal --quiet --scheme sc --report profile --format tsv gcn1.rft
    assert_output "$(rft-heal --scheme sc --report profile --format tsv gcn1.rft)"
    rft-alloc gcn1.rft | rft-duty -o d.rft
    run -0 rft-vth --quiet --format tsv d.rft
    run -0 rft-plot --quiet --help
    printf 'a\tb\n1\t2\n' > t.tsv
    run -0 rft-plot --quiet --no-render -o f.svg t.tsv
    run -1 --separate-stderr rft-collect --quiet /nonexistent
    [[ $stderr != *quiet* ]]
}

@test "an empty bundle (no slot) keeps no SC busy" {
    bundles XYZ - | rft-decode -o e.rft
    rft-heal --report slices --format tsv e.rft > s.tsv
    # one bundle of 64 lanes: 4 busy cycles of each SC in a window of 40
    run -0 cell 0:0 sc_busy_max% < s.tsv
    assert_output '10.00'
    run -0 cell 0:0 bundles < s.tsv
    assert_output '9'
}

@test "an SC busier than the window: 100 % in every table and the dVth, the note names it" {
    # three full writes at cycle 0 and one at cycle 1: 16 busy cycles of
    # each SC in a window of 2
    {
        printf 'K 0 k\nB 0 0 0 1 8 k 0\n'
        for c in 0 0 0 1; do printf 'W %d 0 0 1 0 ffffffffffffffff%s\n' $c "$(printf ' 0%.0s' {1..64})"; done
        printf 'E 1 0 0 1\n'
    } | rft-decode -o o.rft
    run -0 rft-heal --scheme sc --degraded 0:3 o.rft
    assert_line --partial '# note: 16 SCs busy more than the window: 0:0:0 800.00 %, 0:0:1 800.00 %,'
    assert_line --partial ', ...; writes count memory results too'
    refute_output --partial '800.00  '
    rft-heal --scheme sc --report profile --format tsv o.rft > p.tsv
    run -0 cell SC_0 busy_max% < p.tsv
    assert_output '100.00'
    rft-heal --scheme sc --report slices --format tsv o.rft > s.tsv
    run -0 cell 0:0 sc_busy_mean% < s.tsv
    assert_output '100.00'
    # the healthy neighbours take 100 % of SC 3's work, not 800 %
    rft-heal --scheme sc --report units --format tsv --degraded 0:3 o.rft > u.tsv
    run -0 cell 0:0:0 busy_healed% < u.tsv
    assert_output '100.00'
    # what did not fit is said once, with the SC that would run the most
    run -0 rft-heal --scheme sc --report units --degraded 0:3 o.rft
    assert_line '# note: busy_healed% at most 100 %: the healthy SCs cannot take all of the resting SCs'"'"' work within the window; SC 0:0:0 the most: 6.67 % of the window more'
    refute_output --partial '106.67'
    run -0 cell 0:0:3 busy_naive% < u.tsv
    assert_output '100.00'
}

@test "the PE series every --step hours, not at the ends of adaptation periods" {
    rft-synth --arch evergreen --bundles 2000 -o e.rft
    run -0 pipe "rft-heal --report series --years 1 --format tsv e.rft | awk -F '\t' '\$2 == \"PE_X\" { print \$1 }'"
    assert_line --index 1 '243.50'
    assert_line --index 3 '730.50'
    assert_line --index 36 '8766.00'
    [ "${#lines[@]}" = 37 ]
    run -0 pipe "rft-heal --report series --adapt 24 --format tsv e.rft | awk -F '\t' '\$2 == \"PE_X\"' | wc -l"
    assert_output 37
}

@test "the healed-CU rows of the cost table: every CU up to 10" {
    rft-synth --arch evergreen --bundles 3000 --cus 3 -o e3.rft
    run -0 --separate-stderr rft-heal --scheme sc --report cost --sweep 1 --format tsv e3.rft
    no_notes
    assert_equal "$(cut -f 2 <<< "$output" | tail -n +2 | paste -s -d ' ')" "all 1 2 3"
    rft-synth --arch evergreen --bundles 20000 --cus 12 -o e12.rft
    [ "$(rft-heal --report slices --format tsv e12.rft | cut -f 1 | cut -d: -f1 | tail -n +2 | sort -u | wc -l)" -gt 10 ]
    run -0 --separate-stderr rft-heal --scheme sc --report cost --sweep 1 --format tsv e12.rft
    no_notes
    assert_equal "$(cut -f 2 <<< "$output" | tail -n +2 | paste -s -d ' ')" "all 1 2 3 4 5 6 7 8 9 10"
}

@test "run time and window: one measure of a span, first and last cycle both counted" {
    run -0 --separate-stderr rft-heal --scheme sc --report profile --counts --format tsv gcn2.rft
    window=$(cell SC_all window_cycles <<< "$output")
    run -0 --separate-stderr rft-heal --scheme sc --report cost --sweep 1 --format tsv gcn2.rft
    [ "$(cell 1 cycles_naive <<< "$output" | head -1)" = "$window" ]
    [ "$window" = 201 ]
}

@test "SC healing of one SC among equals: a warning, and SC_max shows the chip's worst dVth grow" {
    run -0 --separate-stderr rft-heal --scheme sc --report units --format tsv gcn2.rft
    [[ $stderr == "rft-heal: warning: gcn2.rft: 16 SCs tie as the most stressed (busy 15.92 %): 0:0:0 rests, the first of them, and its work makes the others older (the SC_max row); choose with --degraded" ]]
    echo "$output" > u.tsv
    run -0 cell SC_max role < u.tsv
    assert_output worst
    # the table's 100 % for SC 0 and the chip, which ages more with healing
    run -0 cell 0:0:0 dvth_reduction% < u.tsv
    assert_output '100.00'
    run -0 cell SC_max dvth_reduction% < u.tsv
    assert_output '-1.09'
    # naive: the worst of all SCs; healed: the healthy SC that took the work
    [ "$(cell SC_max dvth_healed_mV < u.tsv)" = "$(cell 0:0:1 dvth_healed_mV < u.tsv)" ]
    # no warning where the SC is chosen by hand, nor for the tables it does not change
    run -0 --separate-stderr rft-heal --scheme sc --report units --degraded 0:1 gcn2.rft
    assert_equal "$stderr" ''
    run -0 --separate-stderr rft-heal --scheme sc --report profile gcn2.rft
    assert_equal "$stderr" ''
}

@test "--variation 0: the 100 % reduction of a resting SC is said to be so by construction" {
    run -0 --separate-stderr rft-heal --scheme sc --report units gcn1.rft
    assert_line --index 0 --partial "# note: with --rest-duty 0 and --variation 0 a resting SC does not age at all"
    run -0 --separate-stderr rft-heal --scheme sc --report units --variation 5 gcn1.rft
    refute_output --partial '# note: with --rest-duty 0'
}

@test "PE healing names the single busiest PE, which the slot averages hide" {
    bundles XYZWT X | rft-decode -o e.rft
    # every PE_X busy 9 x 4 of 40 cycles; the PE rows say the same here (one slice)
    run -0 rft-heal --report units e.rft
    assert_line --index 0 "# note: the PE rows average each slot over all 1 x 16 SCs; the busiest single PE, which limits the lifetime, is PE_X of SC 0:0:0: busy 90.00 %, naive dVth $(rft-heal --report units --format tsv e.rft | cell PE_X dvth_naive_mV) mV"
    # on a trace of many slices, the busiest PE is busier than its slot's average
    rft-synth --arch evergreen --bundles 3000 -o s.rft
    run -0 rft-heal --report units s.rft
    busy=$(sed -n '1s/.* busy \([0-9.]*\) %.*/\1/p' <<< "$output")
    [ "$busy" = "$(rft-heal --report profile --format tsv s.rft | cell PE_X busy_max%)" ]
    awk -v b="$busy" -v a="$(rft-heal --report units --format tsv s.rft | cell PE_X busy_naive%)" 'BEGIN { exit !(b > 2 * a) }'
}

@test "options that contradict each other are refused" {
    run -2 --separate-stderr rft-heal --years 1 --hours 5 gcn1.rft
    assert_equal "$stderr" "rft-heal: --hours and --years: give one of them (see rft-heal --help)"
    run -2 --separate-stderr rft-heal --profile X=50,Y=20,Z=10,W=10,T=10 --policy young
    [[ $stderr == "rft-heal: --policy young: a profile given by hand has no bundles to reassign"* ]]
    run -0 rft-heal --profile X=50,Y=20,Z=10,W=10,T=10 --policy permute
    run -0 rft-heal --profile X=50,Y=20,Z=10,W=10,T=10
}

@test "help texts: one description per option, nothing refers to an 'above' that is not there" {
    run -0 rft-heal --help
    packing=$(grep -e '--packing' <<< "$output"); issue=$(grep -e '--issue' <<< "$output")
    [ "${packing#*R  }" != "${issue#*F  }" ]
    wg=$(grep -e '--max-wg' <<< "$output"); wf=$(grep -e '--max-wf' <<< "$output")
    [ "${wg#*N  }" != "${wf#*N  }" ]
    hours=$(grep -e '--hours' <<< "$output"); years=$(grep -e '--years' <<< "$output")
    [ "${hours#*H  }" != "${years#*Y  }" ]
    run -0 rft-alloc --help
    refute_output --partial '(above'
    run -0 rft-plot --help
    run -0 grep -e '--ylabel' <<< "$output"
    [ "$(tr -cd '(' <<< "$output" | wc -c)" = "$(tr -cd ')' <<< "$output" | wc -c)" ]
    # the error for a trace without bundles names the option that exists
    run -1 --separate-stderr rft-heal gcn1.rft
    [[ $stderr == *"rft-decode --input-format evg"* ]]
}

@test "rft-decode -v ends a text trace with what it decoded" {
    run -0 --separate-stderr rft-decode -v -o x.rft "$H/gcn1.txt"
    assert_equal "$(sed -n 2p <<< "$stderr" | sed 's/ in [0-9.]* s (.*//')" \
        "rft-decode: $H/gcn1.txt: 8 lines, 8 records"
}
