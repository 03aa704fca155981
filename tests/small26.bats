#!/usr/bin/env bats
# Small items of issue 26 ("Healing that says what it means", "Also").  The
# other two items of "Also" (a trace without a write warned of by rft-vth, an
# empty trace through alloc | duty | vth named as such) are in vth-idle.bats.

load heal_helper      # setup (the test's folder) and cell

GEN="$TOP/tests/unit/hostile_gen"

@test "rft-heal: exec mask bits for lanes that do not exist count for nothing" {
    # 12 lanes in blocks of 4 (4 SCs); one wavefront, one write whose mask
    # holds lane 0 and the bits of lanes 12-15 (the mask's last byte)
    "$GEN" mask-beyond-lanes m.rft
    run -0 rft-view m.rft
    assert_line --regexp $'^W\t2\t0\t0\t0\t1\t001\t'
    # a group of 1 work-item (5 if the bits past the geometry counted)
    run -0 rft-heal --scheme sc --report groups --format tsv m.rft
    assert_line --index 1 $'1\t1\t1\t1\t2\t1\t1\t0\t0'
    # one SC busy one cycle (lane 0 on SC 0), the other three idle
    rft-heal --scheme sc --report slices --counts --format tsv m.rft > s.tsv
    run -0 cell 0:0 sc_busy_min_cycles < s.tsv
    assert_output 0
    run -0 cell 0:0 sc_busy_max_cycles < s.tsv
    assert_output 1
}
