#!/usr/bin/env bats
# Issue 16, messages: input a stream reader cannot use says what it is and
# what to run instead.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    rft-synth --writes 50 --seed 1 > s.rft
    rft-view s.rft > t.tsv
}

@test "gzip, xz, bzip2 and text given to a stream reader say what to run" {
    gzip -c t.tsv > t.gz
    run -1 --separate-stderr rft-view --stats t.gz
    assert_equal "$stderr" "rft-view: t.gz: gzip data, not an rft stream: decompress it first (zcat FILE | ...)"
    if command -v xz >/dev/null; then
        xz -c t.tsv > t.xz
        run -1 --separate-stderr rft-duty t.xz
        assert_equal "$stderr" "rft-duty: t.xz: xz data, not an rft stream: decompress it first (xzcat FILE | ...)"
    fi
    if command -v bzip2 >/dev/null; then
        bzip2 -c t.tsv > t.bz2
        run -1 --separate-stderr rft-gate t.bz2
        assert_equal "$stderr" "rft-gate: t.bz2: bzip2 data, not an rft stream: decompress it first (bzcat FILE | ...)"
    fi
    run -1 --separate-stderr rft-alloc t.tsv
    assert_equal "$stderr" "rft-alloc: t.tsv: text, not an rft stream: a trace is decoded first (rft-decode FILE | ...)"
    # a compressed text trace: zstd, but not a stream
    zstd -q t.tsv -o t.tsv.zst
    run -1 --separate-stderr rft-view t.tsv.zst
    assert_equal "$stderr" "rft-view: t.tsv.zst: not an rft stream (bad magic): text? a trace is decoded first (rft-decode FILE | ...)"
    # the same through a pipe
    run -1 --separate-stderr pipe 'gzip -c t.tsv | rft-view'
    assert_equal "$stderr" "rft-view: -: gzip data, not an rft stream: decompress it first (zcat FILE | ...)"
}
