#!/usr/bin/env bats
# rft-vth on maps that say nothing of a kernel's registers: a trace without a
# register write (every cell at '0' all the time) is warned of, and an empty
# trace through alloc | duty | vth is named as such, not as a missing stage.

load test_helper

setup() { cd "$BATS_TEST_TMPDIR"; }

@test "a trace with begin and end records but no write: the 100 % '0' is warned of" {
    printf 'K 0 k\nB 0 0 0 1 8 k 0\nE 100 0 0 1\n' | rft-decode -o nw.rft
    rft-alloc nw.rft | rft-duty -o nw.duty
    run -0 --separate-stderr rft-vth --format tsv nw.duty
    assert_line $'all\tlongest_0%\t100.00'
    assert_equal "$stderr" "rft-vth: warning: nw.duty: no cell ever held '1' or was switched off: every used entry held '0' the whole window (a trace without register writes?); longest_0% is 100 % and the lifetime is that of idle registers"
    # a trace with writes: no warning
    rft-synth --writes 2000 -o s.rft
    rft-alloc s.rft | rft-duty -o s.duty
    run -0 --separate-stderr rft-vth s.duty
    assert_equal "$stderr" ''
}

@test "an empty trace through alloc | duty | vth: an empty duty map, not 'run rft-duty first'" {
    printf '# gpu=gcn\n' | rft-decode -o empty.rft 2>/dev/null
    run -1 --separate-stderr pipe "rft-alloc empty.rft | rft-duty | rft-vth"
    assert_equal "$stderr" "rft-vth: -: an empty duty map: rft-duty(1) saw no slice (a trace without begin, write or end records)"
    # a trace where a duty map belongs still says which stage is missing
    rft-synth --writes 100 -o s.rft
    run -1 --separate-stderr rft-vth s.rft
    [[ $stderr == *"a trace, not a duty map: run rft-duty(1) first" ]]
}
