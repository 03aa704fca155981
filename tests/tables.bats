#!/usr/bin/env bats
# Tables and figures that cannot mislead (issue 16): a block per program,
# each test failing on the table as it was.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
}

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
    run rft-energy --set geometry.entries=4 -f tsv rc.rft
    assert_success
    assert_line --index 0 --regexp "	leak_saving%	.*	slowdown_leak$"
    assert_line --index 2 "rc	90.00	20.59	7.42	77.12	1.73	2.81	109.67	36.360	-9.67	10.00	40	40.000	0.560	7.586	7.586	11.20"
    run rft-energy --set geometry.entries=4 --absolute -f tsv rc.rft
    assert_line --index 2 "rc	90.00	6.827	2.459	25.568	0.575	0.932	36.360	36.360	-9.67	10.00	40	40.000	0.560	7.586	7.586	3.715"
    # the table says what the column holds
    run rft-energy --set geometry.entries=4 rc.rft
    assert_line "note: slowdown_leak is what the slice and its logic leak over those cycles (perf.added_static of them): not in the other columns, which price the trace's cycles (--with-slowdown counts it in)"
    # the upper bound counted in, as asked
    run rft-energy --set geometry.entries=4 --with-slowdown -f tsv rc.rft
    assert_line --index 2 "rc	90.00	28.83	10.38	77.12	1.73	2.81	120.88	40.075	-20.88	-26.00	40	40.000	0.560	-19.724	-19.724	11.20"
    run rft-energy --set geometry.entries=4 --with-slowdown rc.rft
    assert_line "note: slowdown_leak is what the slice and its logic leak over those cycles (perf.added_static of them): counted in leak_slice, leak_logic, the total and the savings (--with-slowdown)"
    run -2 rft-energy --params seed001-28nm --with-slowdown rc.rft
    assert_line --index 0 "rft-energy: --with-slowdown applies to the gating model (seed 002) only"
}
