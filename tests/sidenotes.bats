#!/usr/bin/env bats
# The notes of a summary table are gathered only where there is a table:
# rft-dcpatch with --log alone and rft-replay writing its stream with no
# --summary (-o -: the stream on standard output, no table) gathered them from the header and never freed them (a leak that
# `make check SAN=1` reports: LeakSanitizer makes the program fail).  Under a
# plain build these pass either way; under SAN=1 they failed before the fix.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    rft-synth --writes 2000 --seed 1 | rft-alloc -o al.rft
}

@test "rft-replay -o - with no --summary: the stream alone, status 0, nothing on stderr" {
    rft-replay -o - al.rft > out.rft 2> err
    [ ! -s err ]
    rft-view --stats out.rft > /dev/null
}

@test "rft-dcpatch --log with no --summary: the stream and the log, status 0" {
    rft-faultmap --scenario common --seed 1 -o fm.rft al.rft
    run -0 rft-dcpatch --log log.txt -o out.rft fm.rft
    [ -s log.txt ] && [ -s out.rft ]
    run -0 rft run 'dcpatch --log log2.txt -o out2.rft fm.rft'
    cmp out.rft out2.rft
}
