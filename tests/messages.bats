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
        xz -0 -c t.tsv > t.xz        # -0: the format is tested (0.1 CPU-s, not 0.7)
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

@test "rft-decode: gzip or xz input says to decompress it" {
    gzip -c t.tsv > t.gz
    run -1 --separate-stderr rft-decode -o out.rft t.gz
    assert_equal "$stderr" "rft-decode: t.gz: gzip data, not plain or zstd-compressed text: decompress it first (zcat FILE | ...)"
    [[ ! -e out.rft ]]
    run -1 --separate-stderr pipe 'gzip -c t.tsv | rft-decode > /dev/null'
    assert_equal "$stderr" "rft-decode: -: gzip data, not plain or zstd-compressed text: decompress it first (zcat FILE | ...)"
    if command -v xz >/dev/null; then
        xz -0 -c t.tsv > t.xz        # -0: the format is tested (0.1 CPU-s, not 0.7)
        run -1 --separate-stderr rft-decode -o out.rft t.xz
        assert_equal "$stderr" "rft-decode: t.xz: xz data, not plain or zstd-compressed text: decompress it first (xzcat FILE | ...)"
    fi
    # zstd-compressed text is still read
    zstd -q t.tsv -o t.tsv.zst
    run -0 rft-decode -o out.rft t.tsv.zst
    cmp <(rft-view out.rft) t.tsv
}

@test "rft-decode: a CSV header without the wf or the cycle column names the missing one" {
    printf 'cycle,kernel,reg,value\n1,k,v0,5\n' > nowf.csv
    run -1 --separate-stderr rft-decode -o out.rft nowf.csv
    assert_equal "$stderr" "rft-decode: nowf.csv:1: a header row with a 'cycle' column but no 'wf' (or 'wavefront') column: name the wavefront column wf, or map the columns with --columns"
    [[ ! -e out.rft ]]
    printf '# a comment first\nwf\treg\tvalue\n1\tv0\t5\n' > nocycle.tsv
    run -1 --separate-stderr rft-decode -o out.rft nocycle.tsv
    assert_equal "$stderr" "rft-decode: nocycle.tsv:2: a header row with a 'wf' column but no 'cycle' column: name the cycle column cycle, or map the columns with --columns"
    # with both, auto mode reads it as a column map
    printf 'cycle,wf,vreg,lane,value\n1,0,0,0,5\n' > both.csv
    run -0 --separate-stderr rft-decode -v -o out.rft both.csv
    [[ $stderr == *"both.csv: format columns (detected at line 1)"* ]]
}

@test "rft-decode: an empty trace is a warning, and the stream says 0 records" {
    : > empty.txt
    run -0 --separate-stderr rft-decode -o e.rft empty.txt
    assert_equal "$stderr" "rft-decode: warning: empty.txt: no records: the trace is empty"
    run -0 rft-view --stats --format tsv e.rft
    assert_line $'records\t0'
    run -0 --separate-stderr pipe "printf '# only=metadata\n' | rft-decode -o m.rft"
    assert_equal "$stderr" "rft-decode: warning: -: no records: the trace is empty"
    # a trace with records says nothing
    run -0 --separate-stderr rft-decode -o out.rft t.tsv
    assert_equal "$stderr" ""
}

@test "--map rows for a slice the trace does not have are an error (rft-faultmap, rft-dcpatch)" {
    local D="$FIX/dcpatch"
    rft-decode --entries 8 -o two.rft "$D/two.txt"      # slices 0:0 and 0:1
    rows() { local s; head -1 "$D/map8.csv"; for s in "$@"; do tail -n +2 "$D/map8.csv" | sed "s/^\*,\*,/$s,/"; done; }
    rows 0,0 0,1 7,1 > extra.csv
    rows 0,0 0,1 > exact.csv
    run -1 --separate-stderr rft-faultmap --map extra.csv -o out.rft two.rft
    assert_equal "$stderr" "rft-faultmap: two.rft: record 16: extra.csv: rows for slice 7:1, which the trace does not have"
    [[ ! -e out.rft ]]
    run -1 --separate-stderr rft-faultmap --map extra.csv --scenario common -o out.rft two.rft
    assert_equal "$stderr" "rft-faultmap: two.rft: record 16: extra.csv: rows for slice 7:1, which the trace does not have"
    run -1 --separate-stderr rft-dcpatch --map extra.csv -o out.rft two.rft
    assert_equal "$stderr" "rft-dcpatch: two.rft: record 16: extra.csv: rows for slice 7:1, which the trace does not have"
    [[ ! -e out.rft ]]
    # rows for exactly the trace's slices, or for all ('*'), are fine
    run -0 rft-faultmap --map exact.csv -o out.rft two.rft
    run -0 rft-dcpatch --map exact.csv -o out.rft two.rft
    run -0 rft-dcpatch --map "$D/map8.csv" -o out.rft two.rft
}
