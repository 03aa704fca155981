#!/usr/bin/env bats
# Issue 35: rft-split cuts a stream into the files of its N shards in one
# pass; a stage reading shard file K with --shard K/N writes byte for byte
# what it writes reading shard K/N of the whole stream.

load test_helper

setup_file() {
    # 3 CUs x 4 SIMDs: 12 slices, so that 7 shards hold one or two each
    rft-synth --writes 3000 --cus 3 --seed 1 -o "$BATS_FILE_TMPDIR/a.rft"
}

setup() {
    cd "$BATS_TEST_TMPDIR"
    A="$BATS_FILE_TMPDIR/a.rft"
}

# the pipelines of shard K/N BY over input IN, results into DIR/
pipelines() {
    local in=$1 d=$2
    P=("alloc --scheme rar $in | gate --scheme rc | duty -o $d/duty.rft"
        "alloc --scheme first-fit $in | gate --scheme wc | energy --scan -o $d/wc.scan"
        "energy --scan $in -o $d/e.scan"
        "alloc --scheme argo $in | duty -o $d/argo.rft")
}

@test "a shard from the split file is the shard of the whole, byte for byte (N = 1, 3, 7, by slice and by CU)" {
    local by n k f
    for by in slice cu; do
        for n in 1 3 7; do
            rft-split --shards $n --shard-by $by -o "sp$n$by" "$A"
            for ((k = 0; k < n; k++)); do
                mkdir -p w$k s$k
                pipelines "$A" w$k
                rft run --shard $k/$n --shard-by $by "${P[@]}"
                pipelines "sp$n$by.$k.rft" s$k
                rft run --shard $k/$n --shard-by $by "${P[@]}"
                for f in duty.rft wc.scan e.scan argo.rft; do
                    cmp w$k/$f s$k/$f || fail "$by $k/$n: $f differs"
                done
                # a program alone too, not only rft run
                rft-energy --scan --shard $k/$n --shard-by $by "sp$n$by.$k.rft" -o d.rft
                rft-energy --scan --shard $k/$n --shard-by $by "$A" -o dw.rft
                cmp d.rft dw.rft
            done
            rm -rf w? s?
        done
    done
}

@test "the shards hold every record of the whole once: rft-merge of their duty maps is the whole's" {
    local k
    rft-split --shards 3 -o "t{}.rft" "$A"
    rft run "alloc --scheme rar $A | duty -o whole.rft"
    for k in 0 1 2; do rft run --shard $k/3 "alloc --scheme rar t$k.rft | duty -o d$k.rft"; done
    rft-merge -o m.rft d0.rft d1.rft d2.rft
    cmp <(rft-view whole.rft) <(rft-view m.rft)
    # each shard's records: its own slices, and the kernels
    run rft run --shard 1/3 "view --format tsv t1.rft"
    assert_success
}

@test "bad input is refused with one line, and no shard file is left" {
    run rft-split --shards 0 -o x "$A"
    assert_failure 2
    assert_output --partial "--shards: 0 is out of range"
    [[ ${#lines[@]} -eq 1 ]]
    run rft-split --shards 65537 -o x "$A"
    assert_failure 2
    [[ ${#lines[@]} -eq 1 ]]
    run rft-split -o x "$A"
    assert_failure 2
    assert_output --partial "--shards N is required"
    run rft-split --shards 3 "$A"
    assert_failure 2
    assert_output --partial "-o PREFIX is required"
    run rft-split --shards 3 --shard-by wf -o x "$A"
    assert_failure 2
    [[ ${#lines[@]} -eq 1 ]]
    # truncated: the stream's end is missing
    local size
    size=$(stat -c %s "$A")
    head -c $((size / 2)) "$A" > cut.rft
    run rft-split --shards 3 -o x cut.rft
    assert_failure 1
    [[ ${#lines[@]} -eq 1 ]]
    assert_output --regexp "^rft-split: cut.rft: "
    [[ -z $(ls x.* 2>/dev/null) ]] || fail "shard files left: $(ls x.*)"
    run rft-split --shards 3 -o x /nonexistent.rft
    assert_failure 1
    [[ ${#lines[@]} -eq 1 ]]
}

@test "a split's shard read as another shard, or as a whole, is refused with one line" {
    rft-split --shards 3 --shard-by cu -o x "$A"
    run rft-duty x.1.rft -o d.rft
    assert_failure 1
    assert_output "rft-duty: x.1.rft: record 1: shard 1/3 of a split by cu: read it with --shard 1/3 --shard-by cu"
    run rft-duty --shard 1/3 x.1.rft -o d.rft
    assert_failure 1
    assert_output --partial "not shard 1/3 by slice"
    [[ ${#lines[@]} -eq 1 ]]
    run rft-duty --shard 2/3 --shard-by cu x.1.rft -o d.rft
    assert_failure 1
    [[ ${#lines[@]} -eq 1 ]]
    # a split of a split's shard: refused, not cut again
    run rft-split --shards 2 -o y x.1.rft
    assert_failure 1
    [[ ${#lines[@]} -eq 1 ]]
    # a truncated shard: the end record is checked as ever
    local size
    size=$(stat -c %s x.0.rft)
    head -c $((size - 20)) x.0.rft > cut.rft
    run rft-duty --shard 0/3 --shard-by cu cut.rft -o d.rft
    assert_failure 1
    [[ ${#lines[@]} -eq 1 ]]
}
