#!/usr/bin/env bats
# bench/run and bench/traces (issue 16): traces come from the arguments or
# BENCH_TRACES, never from a folder of a particular machine, and a missing
# trace is said before any work.
load test_helper

setup() {
    export BENCH_OUT="$BATS_TEST_TMPDIR/out" BENCH_WRITES=3000 BENCH_RUNS=1
    unset BENCH_TRACES BENCH_NO_SYNTH BENCH_KEEP
    # a trace of 3558 writes, as canonical text
    rft-synth --writes 3000 --seed 1 -o "$BATS_TEST_TMPDIR/t.rft"
    rft-view "$BATS_TEST_TMPDIR/t.rft" | zstd -q -o "$BATS_TEST_TMPDIR/t.rft.tsv.zst"
}

@test "nothing in bench/ names a folder of a particular machine" {
    run -1 grep -rnE '/work/|shared/traces|\.\./\.\./' "$TOP/bench/run" "$TOP/bench/traces"
}

@test "bench/traces without traces says how to give them, before any work" {
    run -2 --separate-stderr "$TOP/bench/traces"
    [ "$stderr" = "bench/traces: no traces: give TRACE arguments or BENCH_TRACES=DIR (a folder of *.rft.tsv.zst)" ]
    mkdir "$BATS_TEST_TMPDIR/empty"
    BENCH_TRACES="$BATS_TEST_TMPDIR/empty" run -2 --separate-stderr "$TOP/bench/traces"
    [ "$stderr" = "bench/traces: BENCH_TRACES=$BATS_TEST_TMPDIR/empty: no *.rft.tsv.zst traces there" ]
    run -2 --separate-stderr "$TOP/bench/traces" "$BATS_TEST_TMPDIR/missing.tsv.zst"
    [ "$stderr" = "bench/traces: $BATS_TEST_TMPDIR/missing.tsv.zst: no such readable trace" ]
    [ ! -e "$BENCH_OUT" ]
}

@test "bench/traces measures the traces of BENCH_TRACES" {
    # its peak memory: GNU time (make check installs it as root; bench/run falls back to /proc)
    [ -x /usr/bin/time ] || skip "no /usr/bin/time (Debian package time: make bench-deps)"
    mkdir "$BATS_TEST_TMPDIR/traces"
    mv "$BATS_TEST_TMPDIR/t.rft.tsv.zst" "$BATS_TEST_TMPDIR/traces/"
    BENCH_TRACES="$BATS_TEST_TMPDIR/traces" run --separate-stderr "$TOP/bench/traces"
    [[ $status == 0 || $status == 1 ]]          # 1: a target missed on so little data
    run -0 cut -f 1-3 "$BENCH_OUT/traces.tsv"
    assert_output "$(printf 'trace\twrites\tslices\nt\t3558\t5')"
}

@test "bench/run takes its data from the traces given, and says where it comes from" {
    run -2 --separate-stderr "$TOP/bench/run" "$BATS_TEST_TMPDIR/missing.tsv.zst"
    [ "$stderr" = "bench/run: $BATS_TEST_TMPDIR/missing.tsv.zst: no such readable trace" ]
    mkdir "$BATS_TEST_TMPDIR/empty"
    BENCH_TRACES="$BATS_TEST_TMPDIR/empty" run -2 --separate-stderr "$TOP/bench/run"
    [ "$stderr" = "bench/run: BENCH_TRACES=$BATS_TEST_TMPDIR/empty: no *.tsv.zst traces there" ]

    # 3000 writes: the trace once; 12000: four times
    run --separate-stderr "$TOP/bench/run" "$BATS_TEST_TMPDIR/t.rft.tsv.zst"
    [[ $status == 0 || $status == 1 ]]
    [ "${stderr_lines[0]}" = "bench/run: data from 1 trace(s), repeated as needed" ]
    [[ $stderr == *"s: 3558 and 14232 writes"* ]]
}

@test "bench/run without traces says so and uses rft-synth" {
    BENCH_WRITES=1000 run --separate-stderr "$TOP/bench/run"
    [[ $status == 0 || $status == 1 ]]
    [ "${stderr_lines[0]}" = "bench/run: no traces given (arguments or BENCH_TRACES=DIR): synthetic data from rft-synth" ]
    [[ $stderr == *"making $BENCH_OUT/w1000.rft: rft-synth --writes 1010"* ]]
}
