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
