#!/usr/bin/env bats
# Issue 16, one convention across programs.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
}

@test "output names up to NAME_MAX: the temporary suffix does not push them over" {
    local n
    n=$(printf 'x%.0s' $(seq 251))                  # 251 + ".rft" = 255 bytes
    rft-synth --writes 100 --seed 1 -o "$n.rft"
    rft-view --stats "$n.rft" > /dev/null
    rft-alloc -o "$n.rft" "$n.rft"                  # in place: read, then renamed over
    rft-view -H "$n.rft" | grep -q '^alloc '
    # a text output (-o of rft-collect goes through the same temporary name)
    make_suite suite
    rft-batch -j 2 -o out suite > /dev/null 2>&1
    rft-collect -o "$n.tsv" out
    [ -s "$n.tsv" ]
    [ -z "$(ls | grep tmp)" ]
}

@test "a stream is never written to a terminal: an error that says to use -o or a pipe" {
    command -v script >/dev/null || skip "script(1) (bsdutils) is missing"
    rft-synth --writes 100 --seed 1 > s.rft
    for p in "rft-alloc s.rft" "rft run 'duty s.rft'" "rft-duty s.rft"; do
        run -0 script -qec "$p; echo status=\$?" /dev/null
        assert_output --partial "standard output is a terminal: an rft stream is binary (use -o FILE or a pipe)"
        assert_output --partial "status=1"
    done
    # a table to the terminal is fine
    run -0 script -qec "rft-alloc s.rft | rft-duty --summary; echo status=\$?" /dev/null
    assert_output --partial "status=0"
}

@test "progress on stderr when it is a terminal, off with --quiet and when not a terminal" {
    command -v script >/dev/null || skip "script(1) (bsdutils) is missing"
    rft-synth --writes 60000 --seed 1 | rft-alloc > p.rft
    export RFT_PROGRESS_SECONDS=0           # a line every 65536 records
    run -0 script -qec "rft-gate -o /dev/null p.rft" /dev/null
    assert_output --regexp $'^\rrft-gate: 0\\.1M records, [0-9.]+M/s, [0-9]+%, [0-9]+ s left'
    run -0 script -qec "rft-gate --quiet -o /dev/null p.rft" /dev/null
    assert_output ""
    run -0 script -qec "rft run --quiet 'gate p.rft | duty -o /dev/null'" /dev/null
    assert_output ""
    run -0 --separate-stderr rft-gate -o /dev/null p.rft
    assert_equal "$stderr" ""
}
