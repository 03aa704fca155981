#!/usr/bin/env bats
# bench/scaling (issue 23): the aging study -j 1 against -j N --shards N on
# one trace repeated to a size, the outputs compared, one line.
load test_helper

setup() {
    export BENCH_OUT="$BATS_TEST_TMPDIR/out"
    S="$TOP/bench/scaling"
}

@test "bench/scaling: usage errors and a missing trace say so, status 2" {
    run -2 --separate-stderr "$S" -j 1
    [ "$stderr" = "bench/scaling: -j: 1: the second run needs 2 cores or more (--shards N is 2 or more)
usage: bench/scaling [-j N] [--writes W] [-r RUNS] [--split WHEN[,WHEN]...] [--keep] [TRACE]" ]
    run -2 --separate-stderr "$S" --writes 0
    [ "${stderr_lines[0]}" = "bench/scaling: --writes: '0' is not a positive number" ]
    run -2 --separate-stderr "$S" --split auto,maybe
    [ "${stderr_lines[0]}" = "bench/scaling: --split: 'maybe' is not auto, yes or no" ]
    run -2 --separate-stderr "$S" --frobnicate
    [ "${stderr_lines[0]}" = "bench/scaling: unknown option --frobnicate" ]
    run -2 --separate-stderr "$S" "$BATS_TEST_TMPDIR/missing.tsv"
    [ "$stderr" = "bench/scaling: $BATS_TEST_TMPDIR/missing.tsv: no such readable trace" ]
    run -0 "$S" --help
    [[ $output == *"usage: bench/scaling [-j N] [--writes W] [-r RUNS] [--split WHEN[,WHEN]...] [--keep] [TRACE]"* ]]
}

@test "bench/scaling: a text trace decoded, repeated to the size, both runs identical" {
    rft-synth --writes 1500 --seed 4 -o "$BATS_TEST_TMPDIR/t.rft"
    rft-view "$BATS_TEST_TMPDIR/t.rft" > "$BATS_TEST_TMPDIR/t.tsv"
    w=$(rft-view --stats --format tsv "$BATS_TEST_TMPDIR/t.rft" | awk -F '\t' '$1 == "writes" { print $2 }')
    n=$(( (3000 + w - 1) / w ))
    run -0 --separate-stderr "$S" -j 2 --writes 3000 "$BATS_TEST_TMPDIR/t.tsv"
    [[ $output =~ ^scaling:\ writes\ $((w * n))\ \ runs\ once\ \ N\ 2\ \ -j1\ [0-9.]+\ s\ \(cpu\ [0-9.]+\)\ \ -j2\ --shards\ 2\ --split\ auto\ \(no\)\ [0-9.]+\ s\ \(cpu\ [0-9.]+,\ [0-9.]+x\)\ \ speed-up\ [0-9.]+\ \ max\ RSS\ per\ task\ .+\ \ identical\ yes$ ]]
    [[ $stderr == *"bench/scaling: $w writes, repeated $n times"* ]]
    [ "$(cut -f 1,2,3,11 "$BENCH_OUT/scaling/scaling.tsv")" = "$((w * n))	2	auto (no)	yes" ]
    # the CPU of every process: both runs took some
    awk -F '\t' '{ exit !($5 > 0 && $7 > 0) }' "$BENCH_OUT/scaling/scaling.tsv"
    [ ! -e "$BENCH_OUT/scaling/work" ]          # removed without --keep
}

# a stand-in rft-batch whose sharded run writes other tables or maps
fake_batch() {
    mkdir -p "$BATS_TEST_TMPDIR/fake"
    rft-synth --writes 200 --seed 1 -o "$BATS_TEST_TMPDIR/m1.rft"
    rft-synth --writes 200 --seed 2 -o "$BATS_TEST_TMPDIR/m2.rft"
    cat > "$BATS_TEST_TMPDIR/fake/rft-batch" <<EOF
#!/bin/bash
o="" sharded=""
while [[ \$# -gt 0 ]]; do
    case \$1 in -o) o=\$2; shift ;; --shards) sharded=1 ;; esac
    shift
done
d=\$o/traces/trace
mkdir -p "\$d"
echo vth > "\$d/vth.tsv"
echo energy > "\$d/energy.tsv"
cp "$BATS_TEST_TMPDIR/m1.rft" "\$d/base.rft"
[[ -z \$sharded ]] || case "$1" in
    vth) echo other > "\$d/vth.tsv" ;;
    map) cp "$BATS_TEST_TMPDIR/m2.rft" "\$d/base.rft" ;;
esac
exit 0
EOF
    chmod +x "$BATS_TEST_TMPDIR/fake/rft-batch"
}

@test "bench/scaling: a table or a map that differs makes 'identical no', status 1" {
    fake_batch none
    PATH="$BATS_TEST_TMPDIR/fake:$PATH" run -0 --separate-stderr "$S" -j 3 --writes 100
    [[ $output == *"  N 3  "*"identical yes" ]]
    fake_batch vth
    PATH="$BATS_TEST_TMPDIR/fake:$PATH" run -1 --separate-stderr "$S" -j 3 --writes 100
    [[ $output == *"identical no" ]]
    [[ $stderr == *"bench/scaling: vth.tsv differs"* ]]
    fake_batch map
    PATH="$BATS_TEST_TMPDIR/fake:$PATH" run -1 --separate-stderr "$S" -j 3 --writes 100
    [[ $output == *"identical no" ]]
    [[ $stderr == *"bench/scaling: the duty maps base.rft differ"* ]]
}
