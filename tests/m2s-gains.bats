#!/usr/bin/env bats
# bench/m2s-model/gains: where a what-if run's cycles went, by the kind of
# gap before each event (issue 32), on hand-made streams.

load test_helper

setup() { cd "$BATS_TEST_TMPDIR"; }

# wavefront 0 (SIMD 0): an instruction at 10, a wait, an instruction at $1, the end at
# $2; wavefront 1 (SIMD 1): instructions at 12 and 14 (with $3, a third at 16), the end
# at 20 (wr: test_helper.bash)
two() {
    printf 'B\t0\t0\t0\t0\t4\tk\t0\nB\t0\t0\t1\t1\t4\tk\t0\n'
    { wr 10 0 1; printf 'U\t%s\t0\t0\t0\twait\n' "$1"; wr "$1" 0 1; wr 12 1 1; wr 14 1 1
      [ -n "${3:-}" ] && wr 16 1 1
      printf 'E\t%s\t0\t0\t0\nE\t20\t0\t1\t1\n' "$2"; } | sort -t $'\t' -k2,2n -s
}

@test "gains: each kind of gap's cycles, the end's, and a wavefront of other events left out, counted" {
    two 30 40 | rft-decode -o base.rft -
    two 50 65 x | rft-decode -o whatif.rft -
    run -0 "$TOP/bench/m2s-model/gains" base.rft whatif.rft
    assert_line --index 0 '# wavefronts compared 1 of 2 (1 with another number of events left out); span 40 against 65 cycles (+62.50 %)'
    assert_line --index 1 $'gap\tgaps\tcycles_gained\tper_gap'
    # the wait 20 cycles later, the end 5 more: 25, the wavefront's own 40 to 65
    assert_line --index 2 $'wait\t1\t20\t20.00'
    assert_line --index 3 $'end\t1\t5\t5.00'
    assert_line --index 4 $'-\t1\t0\t0.00'
    [ ${#lines[@]} -eq 5 ]
}

@test "gains: usage, a file it cannot read, and streams with no wavefront in common" {
    run -2 "$TOP/bench/m2s-model/gains" base.rft
    assert_output 'usage: gains BASE WHATIF'
    run -1 "$TOP/bench/m2s-model/gains" nothere.rft nothere.rft
    assert_output 'gains: nothere.rft: cannot read'
    two 30 40 | rft-decode -o base.rft -
    printf 'B\t0\t0\t0\t7\t4\tk\t0\nE\t9\t0\t0\t7\n' | rft-decode -o other.rft -
    run -1 --separate-stderr "$TOP/bench/m2s-model/gains" base.rft other.rft
    assert_equal "$output" ""
    assert_equal "$stderr" 'gains: no wavefront of base.rft compared with other.rft'
    # a wavefront id begun twice (another ND-range's): refused, not merged
    printf 'B\t0\t0\t0\t0\t4\tk\t0\nE\t9\t0\t0\t0\nB\t10\t0\t0\t0\t4\tk\t0\nE\t19\t0\t0\t0\n' | rft-decode -o twice.rft -
    run -1 --separate-stderr "$TOP/bench/m2s-model/gains" base.rft twice.rft
    assert_equal "$output" ""
    assert_equal "$stderr" 'gains: twice.rft: wavefront 0 begins twice'
    # a truncated stream: rft-view's message, then gains', no table
    head -c 100 base.rft > cut.rft
    run -1 --separate-stderr "$TOP/bench/m2s-model/gains" cut.rft base.rft
    assert_equal "$output" ""
    assert_equal "${stderr_lines[1]}" 'gains: cut.rft: not read (rft-view above)'
    [[ ${stderr_lines[0]} == rft-view:\ cut.rft:* ]]
}
