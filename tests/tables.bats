#!/usr/bin/env bats
# Tables that cannot mislead (issue 16): a change only where it means
# something, named for its direction; no nan; averages over the same cells;
# the assumptions a table rests on printed with it.  Each program's tests
# are in a block of their own.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    T="$FIX/tables"
}

# ---- rft-vth --------------------------------------------------------------------------

# duty maps of the hand-made traces (tests/fixtures/tables/README)
map() { rft-decode --lanes 1 --block-lanes 1 --entries 2 "$T/$1.tsv" | rft-duty > "$1.duty"; }

@test "rft-vth: no reduction for the time off and a worst cell's other time; never nan (table: empty, JSON: null)" {
    map full
    map gated
    run -0 rft-vth --format tsv base=full.duty rc=gated.duty
    # the rest of each map's own worst cell is no figure of merit: a change
    # from 0 was nan, from 0.05 % to 5.88 % a "reduction" of -11225 %
    assert_line "$(printf 'all\tlongest_0_cell_off%%\t0.00\t50.00\t\t')"
    assert_line "$(printf 'all\tlongest_1_cell_0%%\t0.00\t0.00\t\t')"
    assert_line "$(printf 'all\tavg_off%%\t0.00\t50.00\t\t')"
    # stress shares and dVth keep their reduction
    assert_line "$(printf 'all\tlongest_0%%\t100.00\t50.00\t50.00\t')"
    assert_line "$(printf 'all\tdvth_t0_norm\t1.0000\t0.5922\t40.78\t')"
    refute_output --partial nan
    run -0 rft-vth base=full.duty rc=gated.duty
    refute_output --partial nan
    rft-vth --format json base=full.duty rc=gated.duty > t.json
    run -0 python3 -c '
import json
rows = {r["metric"]: r for r in map(json.loads, open("t.json")) if "notes" not in r}
print(rows["longest_0_cell_off%"]["rc_red%"], rows["window"]["rc_red%"], rows["longest_0%"]["rc_red%"])'
    assert_output 'None None 50.0'
}

@test "rft-vth: a lifetime's change is an increase, in a column named so" {
    map full
    map gated
    run -0 rft-vth --format tsv base=full.duty rc=gated.duty
    no_notes
    assert_line --index 0 "$(printf 'scope\tmetric\tbase\trc\trc_red%%\trc_increase%%')"
    # half the stress: the cell lives longer, not a reduction of -107 %
    assert_line "$(printf 'all\tsnm_life_rd_years\t35.442\t73.428\t\t107.18')"
    assert_line "$(printf 'all\tsnm_life_eq3_years\t15.552\t126.490\t\t713.31')"
    # rft-collect takes the increase as it takes the reduction
    mkdir -p b/t
    printf 't\t/nowhere/t.rft\n' > b/traces.tsv
    rft-vth --format tsv base=full.duty rc=gated.duty > b/t/vth.tsv
    run -0 rft-collect --format tsv --columns snm_life_rd_years,snm_life_rd_years_increase% b vth.tsv
    no_notes
    assert_output "$(printf '%s\n' 'trace	scheme	snm_life_rd_years	snm_life_rd_years_increase%' \
        't	base	35.442	' 't	rc	73.428	107.18' 'mean	base	35.442	' 'mean	rc	73.428	107.18')"
}

@test "rft-vth: every map's averages over the same cells, those of the entries any map uses" {
    map one
    map moved
    # base leaves entry 1 unused (off), rar uses it: both averages take it
    # (the seed's rule, unused entries left out, took 1 entry for base, 2
    # for rar: ARGO's 10,195 cells against the others' 4,400)
    run -0 rft-vth --format tsv base=one.duty rar=moved.duty
    assert_line "$(printf 'all\tentries_used\t1\t2\t\t')"
    assert_line "$(printf 'all\tentries_averaged\t2\t2\t\t')"
    assert_line "$(printf 'all\tavg_0%%\t50.00\t100.00\t-100.00\t')"
    assert_line "$(printf 'all\tavg_off%%\t50.00\t0.00\t\t')"
    run -0 rft-vth --per-slice --format tsv base=one.duty rar=moved.duty
    assert_line "$(printf '0:0\tavg_stress%%\t50.00\t100.00\t-100.00\t')"
    # (maps of zeros: rft-vth warns of idle registers on stderr)
    run -0 --separate-stderr rft-vth --by bit --format tsv base=one.duty rar=moved.duty
    no_notes
    assert_line --index 1 "$(printf '0\t50.00\t0.00\t50.00\tslice 100..200\t100.00\t0.00\t0.00\tslice 100..200')"
    # alone, a map averages the entries it uses, as the seed does
    run -0 rft-vth --format tsv one.duty
    assert_line "$(printf 'all\tentries_averaged\t1')"
    assert_line "$(printf 'all\tavg_0%%\t100.00')"
}

@test "rft-vth: the table ends with its parameter file and lifetime, as rft-energy's does" {
    map full
    run -0 rft-vth full.duty
    # the notes after the table and a blank line: the model's first (rft(1), "NOTES ON EVERY TABLE")
    local n
    n=$(awk '/^$/ { print NR; exit }' <<<"$output")
    run -0 pipe "rft-vth full.duty | sed -n '$((n + 1)),$((n + 3))p'"
    assert_line --index 0 'parameters: built in (the values of params/nbti.conf)'
    assert_line --index 1 'lifetime: 3 years (--years): the dVth, delay and SNM loss rows are at its end'
    assert_line --index 2 'temperature: 300 K (the parameters'"'"' temperature)'
    run -0 rft-vth --params "$TOP/params/seed004-45nm.conf" --set temperature=350 --years 5 full.duty
    assert_line "parameters: $TOP/params/seed004-45nm.conf, --set temperature=350"
    assert_line 'lifetime: 5 years (--years): the dVth, delay and SNM loss rows are at its end'
    assert_line 'temperature: 350 K (the parameters'"'"' temperature)'
    run -0 rft-vth --by year --years 1 full.duty
    assert_line 'parameters: built in (the values of params/nbti.conf)'
    assert_line 'temperature: 300 K (the parameters'"'"' temperature)'
    # machine-readable formats carry them before the header (tests/notes2.bats);
    # tables without NBTI figures have no parameters
    run -0 rft-vth --format tsv full.duty
    assert_line --index 0 '# parameters: built in (the values of params/nbti.conf)'
    run -0 rft-vth --by bit full.duty
    refute_output --partial 'parameters:'
}

# ---- rft-heal ----------------------------------------------------------------------------

@test "rft-heal: no overhead where the naive kernel takes no time (empty, JSON null, never nan)" {
    rft-decode "$T/idle.txt" -o idle.rft
    run -0 rft-heal --scheme sc --report cost --sweep 1 --format tsv idle.rft
    no_notes
    assert_output "$(printf 'degraded_scs\thealed_cus\tcycles_naive\tcycles_healthy\toverhead%%\tcycles_traced\tcycles_replayed\tslowdown_replay%%\tcycles_upper\tslowdown_bound%%\n1\tall\t0\t0\t\t0\t0\t\t0\t\n1\t1\t0\t0\t\t\t\t\t\t')"
    run -0 rft-heal --scheme sc --report cost --sweep 1 --format json idle.rft
    no_notes
    assert_line --index 0 '{"degraded_scs": 1, "healed_cus": "all", "cycles_naive": 0, "cycles_healthy": 0, "overhead%": null, "cycles_traced": 0, "cycles_replayed": 0, "slowdown_replay%": null, "cycles_upper": 0, "slowdown_bound%": null}'
    run -0 rft-heal --scheme sc idle.rft
    refute_output --partial nan
}

# ---- undervolt ---------------------------------------------------------------------------

@test "undervolt.sh: the patch columns say what they count; three equal rows come with why" {
    rft-synth --writes 3000 --seed 2 -o s.rft
    run -0 "$TOP/examples/undervolt.sh" -S 5 s.rft
    no_notes
    # of the writes: a new patch in a faulty entry's block, in a reliable entry
    assert_line --index 1 --regexp '^scenario +writes +normal% +patch_faulty% +patch_reliable% +lds% '
    # every fault map has room for this trace's registers: the same row three times
    assert_equal "$(sed -n 3,5p <<< "$output" | sed 's/^[a-z]* *//' | sort -u | wc -l)" 1
    assert_line --partial 'note: the three scenarios place every write alike: '
    assert_line --partial 'depends only on whether it compresses'
    # eight registers no pattern fits on 8 entries: the maps decide how many
    # stay in the slice, and no note
    rft-decode --entries 8 "$T/spill.tsv" -o spill.rft
    run -0 "$TOP/examples/undervolt.sh" -S 5 spill.rft --set geometry.entries=8
    assert_line --regexp '^common +24 +50\.00 +0\.00 +25\.00 +25\.00 '
    assert_line --regexp '^dispersed +24 +41\.67 +0\.00 +20\.83 +37\.50 '
    refute_output --partial 'note: the three scenarios'
}

# ---- rft-energy ------------------------------------------------------------------------
# rft-energy
# slowdown.txt: an RC slice of 4 entries 90 % powered over cycles 0-100,
# whose 4 wake-ups add 40 cycles (the upper bound of the slowdown).  With
# params/seed002-32nm.conf, 1 ns cycles: the baseline leaks 75.86 mW x 100
# ns = 7586 pJ of 33153.56 (dynamic 8 reads x 4 x 295.86 + 11 writes x 4 x
# 365.91).  RC leaks 75.86 x 0.9 x 100 = 6827.40 over the trace: 10 % less;
# priced over the 140 cycles with the slowdown, 9558.36: 26 % more, a
# negative saving for a scheme that switches cells off.  Its logic leaks
# 24.59 mW; the slowdown's leakage is (68.274 + 24.59) x 40 = 3714.56 pJ,
# 11.20 % of the baseline's total.
@test "rft-energy: a 90 % powered RC saves 10 % of the leakage; the slowdown's leakage is a column" {
    rft-decode --entries 4 "$FIX/energy/slowdown.txt" | rft-alloc | rft-gate --scheme rc -o rc.rft
    run rft-energy --leak-over trace --set geometry.entries=4 -f tsv rc.rft
    no_notes
    assert_success
    assert_line --index 0 --regexp "	leak_saving%	.*	slowdown_leak	replayed_cycles	slice_slowdown_replay%$"
    assert_line --index 2 "rc	90.00	20.59	7.42	77.12	1.73	2.81	109.67	36.360	-9.67	10.00	40	40.000	0.560	7.586	7.586	11.20	10	10.000"
    run rft-energy --leak-over trace --set geometry.entries=4 --absolute -f tsv rc.rft
    no_notes
    assert_line --index 2 "rc	90.00	6.827	2.459	25.568	0.575	0.932	36.360	36.360	-9.67	10.00	40	40.000	0.560	7.586	7.586	3.715	10	10.000"
    # by default the leakage over the replayed cycles: the 4 wake-ups of the
    # upper bound's 40 cycles replay as 10 (issue 25), 110 cycles:
    # leak_slice 20.59 x 1.1 = 22.65
    run rft-energy --set geometry.entries=4 -f tsv rc.rft
    no_notes
    assert_line --index 2 "rc	90.00	22.65	8.16	77.12	1.73	2.81	112.47	37.289	-12.47	1.00	40	40.000	0.560	0.759	0.759	11.20	10	10.000"
    # the table says what the column holds
    run rft-energy --set geometry.entries=4 rc.rft
    assert_line "note: slowdown_leak is what the slice and its logic leak over those cycles (perf.added_static of them): not in the other columns, which price the trace's cycles (--with-slowdown counts it in)"
    # the upper bound counted in, as asked
    run rft-energy --set geometry.entries=4 --with-slowdown -f tsv rc.rft
    no_notes
    assert_line --index 2 "rc	90.00	28.83	10.38	77.12	1.73	2.81	120.88	40.075	-20.88	-26.00	40	40.000	0.560	-19.724	-19.724	11.20	10	10.000"
    run rft-energy --set geometry.entries=4 --with-slowdown rc.rft
    assert_line "note: slowdown_leak is what the slice and its logic leak over those cycles (perf.added_static of them): counted in leak_slice, leak_logic, the total and the savings (--with-slowdown)"
    run -2 rft-energy --params seed001-28nm --with-slowdown rc.rft
    assert_line --index 0 "rft-energy: --with-slowdown applies to the gating model (seed 002) only (see rft-energy --help)"
}
