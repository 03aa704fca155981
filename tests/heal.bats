#!/usr/bin/env bats
# rft-heal: stress profile, PE and SC healing, redundant work-items and the
# run-time replay, from hand-made traces and seed 003's own numbers; bad input.

load heal_helper

@test "busy cycles of every SC: lane i on SC i mod 16, over the whole window" {
    rft-heal --scheme sc --report profile --format tsv gcn1.rft > p.tsv
    run -0 cell SC_0 busy% < p.tsv
    assert_output '6.00'
    run -0 cell SC_1 busy% < p.tsv
    assert_output '5.00'
    run -0 cell SC_all busy% < p.tsv
    assert_output '5.06'
    run -0 cell SC_all busy_max% < p.tsv
    assert_output '6.00'
}

@test "SC healing: the most stressed SC rests by default, a healthy one takes its work" {
    rft-heal --scheme sc --report units --format tsv gcn1.rft > u.tsv
    run -0 cell 0:0:0 busy_healed% < u.tsv
    assert_output '0.00'
    run -0 cell 0:0:0 dvth_reduction% < u.tsv
    assert_output '100.00'
    # 5 % + SC 0's 6 % shared by 15 healthy SCs
    run -0 cell 0:0:1 busy_healed% < u.tsv
    assert_output '5.40'
    # a healthy SC ages faster: no negative "reduction"
    run -0 cell 0:0:1 dvth_reduction% < u.tsv
    assert_output ''
}

@test "SC healing with initial variation: the degraded SC keeps its initial shift" {
    rft-heal --scheme sc --report units --format tsv --variation 10 --degraded 0:3 gcn1.rft > u.tsv
    run -0 cell 0:0:3 dvth_healed_mV < u.tsv
    assert_output '10.00'
    run -0 cell 0:0:3 dvth0_mV < u.tsv
    assert_output '10.00'
}

@test "--degraded: those SCs rest, and only those" {
    run -0 rft-heal --scheme sc --report units --format tsv --degraded 0:3,0:0:5 gcn1.rft
    no_notes
    assert_equal "$(cut -f 1,2 <<< "$output" | tail -n +2)" "$(printf '0:0:0\thealthy-max\n0:0:3\tdegraded\n0:0:5\tdegraded\nSC_max\tworst')"
}

@test "--threshold picks every SC whose naive dVth reaches it" {
    run -0 --separate-stderr rft-heal --scheme sc --report units --format tsv --threshold 36.5 gcn1.rft
    assert_line --partial $'0:0:0\tdegraded'
    refute_line --partial $'0:0:1\tdegraded'
    # every SC passes a low threshold: nobody is left to redo their work
    run -1 --separate-stderr rft-heal --scheme sc --report units --format tsv --threshold 1 gcn1.rft
    assert_output ''
    # a threshold no SC reaches selects nothing: an error, not an empty table
    run -1 --separate-stderr rft-heal --scheme sc --report units --format tsv --threshold 100 gcn1.rft
    assert_output ''
    [[ $stderr == "rft-heal: gcn1.rft: --threshold 100 mV selects no SC: the most aged, 0:0:0, reaches "*" mV at the horizon" ]]
}

@test "extra wavefronts of a 256-work-item kernel: one for 1-7 degraded SCs, two from 8" {
    run -0 rft-heal --report groups --work-items 256 --format tsv
    no_notes
    assert_line --index 1 $'1\t256\t16\t2\t136\t4\t6\t1\t2'
    assert_line --index 7 $'7\t256\t112\t2\t184\t4\t6\t1\t2'
    assert_line --index 8 $'8\t256\t128\t2\t192\t4\t8\t2\t4'
    # the plain count: 128 + 64 fill three wavefronts exactly
    run -0 rft-heal --report groups --work-items 256 --wavefront-rule ceil --format tsv
    no_notes
    assert_line --index 8 $'8\t256\t128\t2\t192\t4\t6\t1\t2'
    # BinomialOptions, 127 work-items (Table I): no halving, 8 RWIs on SC 0
    run -0 rft-heal --report groups --work-items 127 --sweep 1 --format tsv
    no_notes
    assert_line --index 1 $'1\t127\t8\t1\t135\t2\t3\t1\t1'
}

@test "work-groups come from the trace: wavefronts' active lanes summed" {
    run -0 rft-heal --scheme sc --report groups --sweep 1 --format tsv gcn1.rft
    no_notes
    assert_line --index 1 $'1\t80\t5\t1\t85\t2\t2\t0\t0'
}

@test "run-time replay: extra wavefronts that do not fit the slice double its time" {
    run -0 --separate-stderr rft-heal --scheme sc --report cost --sweep 2 --format tsv gcn2.rft
    no_notes
    assert_line --index 0 $'degraded_scs\thealed_cus\tcycles_naive\tcycles_healthy\toverhead%\tcycles_traced\tcycles_replayed\tslowdown_replay%\tcycles_upper\tslowdown_bound%'
    # cycles counted as the window is, first and last both (200 + 1)
    assert_line --index 1 --partial $'1\tall\t201\t401\t99.50\t'
    # the same groups on a slice with room for every wavefront cost nothing more
    sed 's/^\(B [0-9]* 0 0 [0-9]*\) 64 /\1 8 /' "$H/gcn2.txt" | rft-decode -o roomy.rft
    run -0 --separate-stderr rft-heal --scheme sc --report cost --sweep 1 --format tsv roomy.rft
    no_notes
    assert_line --index 1 --partial $'1\tall\t201\t201\t0.00\t'
}

@test "Fig. 7(a): Reduction's profile, PE_X 435 mV after a year, 421 mV healed" {
    run -0 rft-heal --scheme pe --profile X=50.7,Y=16.3,Z=9,W=13,T=11 --years 1 \
        --report units --format tsv
    assert_line --partial $'PE_X\tpe\t76.05\t30.00\t0.00\t95.87\t81.87\t434.97\t420.97'
    assert_line --partial $'PE_max\tworst\t76.05\t30.00\t0.00\t95.87\t81.87\t434.97\t420.97\t14.60'
}

@test "the Reduction profile healed to equal shares, and the series for the figure" {
    rft-heal --scheme pe --profile X=50.7,Y=16.3,Z=9,W=13,T=11 --hours 360 --variation 10 \
        --report units --format json > u.json
    run -0 python3 -c '
import json, sys
rows = [r for r in map(json.loads, open("u.json")) if "notes" not in r]
pes = [r for r in rows if r["role"] == "pe"]
busy = [r["busy_healed%"] for r in pes]
assert max(busy) - min(busy) < 1, busy  # the initially worse PEs get a little less
assert abs(sum(busy) / 5 - 30) < 0.01, busy
assert pes[4]["dvth0_mV"] == 10.0 and pes[0]["dvth0_mV"] == 0.0
print(rows[-1]["dvth_reduction%"])'
    assert_output '14.49'
    run -0 rft-heal --scheme pe --profile X=50.7,Y=16.3,Z=9,W=13,T=11 --hours 10 --step 5 \
        --report series --format tsv
    no_notes
    assert_line --index 0 $'hours\tunit\tdvth_naive_mV\tdvth_healed_mV'
    assert_line --index 1 $'0.00\tPE_X\t0.000\t0.000'
    assert_equal "${#lines[@]}" 16
}

@test "parameters: the calibrated set is the default and can be replaced" {
    run -0 rft-heal --scheme pe --profile X=50.7,Y=16.3,Z=9,W=13,T=11 --years 1 \
        --params "$TOP/params/seed003-65nm.conf" --report units --format tsv
    assert_line --partial $'PE_max\tworst\t76.05\t30.00\t0.00\t95.87\t81.87\t434.97\t420.97'
    run -0 rft-heal --scheme pe --profile X=50.7,Y=16.3,Z=9,W=13,T=11 --years 1 \
        --set vth0=0.4 --report units --format tsv
    assert_line --partial $'PE_max\tworst\t76.05\t30.00\t0.00'
    refute_line --partial '434.97'
}

@test "bad input: one line, non-zero status" {
    run -1 --separate-stderr rft-heal --scheme pe gcn1.rft
    assert_equal "$stderr" "rft-heal: gcn1.rft: no bundle records: PE healing needs VLIW bundles (rft-decode --input-format evg, or a VLIW model of rft-synth), or --profile"
    run -1 --separate-stderr rft-heal --scheme sc --degraded 0:16 gcn1.rft
    assert_equal "$stderr" "rft-heal: --degraded: SC 16 of 0:16 is beyond the 16 stream cores of a slice"
    run -1 --separate-stderr rft-heal --scheme sc --degraded 3:1 gcn1.rft
    assert_equal "$stderr" "rft-heal: --degraded: 3:1: gcn1.rft has no slice 3:0"
    all=$(seq -s, -f '0:%g' 0 15)
    run -1 --separate-stderr rft-heal --scheme sc --degraded "$all" gcn1.rft
    assert_equal "$stderr" "rft-heal: gcn1.rft: every SC of slice 0:0 is degraded: no healthy SC can take their work"
    run -2 --separate-stderr rft-heal --scheme pe --profile X=50,Y=20,Z=9,W=12,T=8
    [[ "$stderr" == "rft-heal: --profile: the shares sum to 99.00 %, not 100 %"* ]]
    run -2 --separate-stderr rft-heal --scheme pe --profile X=50,Q=50
    [[ "$stderr" == "rft-heal: --profile: 'Q=50' is not PE=PERCENT"* ]]
    run -2 --separate-stderr rft-heal --scheme sc --profile X=100
    run -2 --separate-stderr rft-heal --format tsv gcn1.rft
    head -c 100 gcn1.rft > cut.rft
    run -1 --separate-stderr rft-heal --scheme sc cut.rft
    assert_output ''
    [[ "$stderr" == "rft-heal: cut.rft: "* ]]
}

@test "bundles: PE busy per slot and SC, shares of ALU instructions; a trans op stays on T" {
    # XZT (trans) on 16 lanes, XY (vector) on 4, X on 16, in a window of 100 cycles
    rft-decode "$H/evg1.txt" -o evg1.rft
    rft-heal --report profile --format tsv evg1.rft > p.tsv
    run -0 cell PE_X instr_share% < p.tsv
    assert_output '50.00'
    run -0 cell PE_X busy% < p.tsv
    assert_output '2.25'
    run -0 cell PE_X busy_max% < p.tsv
    assert_output '3.00'
    run -0 cell SC_0 busy% < p.tsv
    assert_output '3.00'
    run -0 cell SC_4 busy% < p.tsv
    assert_output '2.00'
    rft-heal --years 1 --report units --format tsv evg1.rft > u.tsv
    # T keeps its transcendental work; X, Y, Z and W share the rest: 56 / 4 lane-cycles each
    run -0 cell PE_T busy_healed% < u.tsv
    assert_output '1.00'
    run -0 cell PE_W busy_healed% < u.tsv
    assert_output '0.87'
    run -0 cell PE_max dvth_reduction% < u.tsv
    assert_output '12.65'
    # bundles decide the SCs' busy cycles unless told to count writes (none here)
    rft-heal --source writes --scheme sc --report profile --format tsv evg1.rft > w.tsv
    run -0 cell SC_0 busy% < w.tsv
    assert_output '0.00'
}

@test "an Evergreen log through rft-decode --input-format evg: PE shares, a narrow slice's sweep" {
    rft-decode --input-format evg --lanes 4 --block-lanes 4 "$FIX/evg/basic.txt" -o evg.rft
    rft-heal --report profile --format tsv evg.rft > p.tsv
    run -0 cell PE_X instr_share% < p.tsv
    assert_output '33.33'
    run -0 cell PE_W instr_share% < p.tsv
    assert_output '8.33'
    # four SCs a slice: the sweep of degraded SCs stops at three
    run -0 rft-heal --scheme sc --report cost --format tsv evg.rft
    no_notes
    assert_equal "$(cut -f1 <<< "$output" | tail -n +2 | sort -u | tr '\n' ' ')" "1 2 3 "
}
