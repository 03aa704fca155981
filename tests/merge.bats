#!/usr/bin/env bats
# rft-merge: shards of a trace run apart and merged give the bytes of one
# run; maps of runs add up; different geometry or window semantics refused.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    D="$FIX/duty"
    small() { rft-decode --lanes 1 --block-lanes 1 --entries "$1" "$2"; }
}

# the pipeline of one run: decoded text on stdin -> duty map on stdout
# (from stdin, so that every run's header names the same source)
run_pipeline() {
    rft-decode | rft-alloc --scheme "$1" | rft-gate --scheme rc | rft-duty --span "$2"
}

@test "sharding a trace by slice, running the pipeline per shard in parallel and merging gives the bytes of one run" {
    rft-synth --cus 3 --simds 2 --writes 4000 --seed 11 | rft-view > whole.tsv
    slices=$(awk -F '\t' '$1 ~ /^[BWRE]$/ { print $3 ":" $4 }' whole.tsv | sort -u)
    [ "$(echo "$slices" | wc -l)" -ge 4 ]
    for span in slice busy; do
        for scheme in argo rar; do
            n=0
            for s in $slices; do
                awk -F '\t' -v s="$s" '$1 ~ /^[BWRE]$/ && $3 ":" $4 == s' whole.tsv > "shard$n.tsv"
                (set -o pipefail; run_pipeline $scheme $span < "shard$n.tsv" > "shard$n.duty") &
                n=$((n + 1))
            done
            wait
            (set -o pipefail; run_pipeline $scheme $span < whole.tsv > whole.duty)
            for ((i = 0; i < n; i++)); do rft-view -H "shard$i.duty" > /dev/null; done
            rft-merge shard*.duty > merged.duty
            rft-merge whole.duty > one.duty
            # bit-identical streams: header, every record, the end record
            cmp <(zstd -dc merged.duty) <(zstd -dc one.duty)
            # and the same cells as the map of the single run itself, for
            # each span (once a span: an rft-vth --by cells of these maps is
            # 0.7 CPU-s, and the merged bytes are already those of one.duty)
            [ $scheme != argo ] || cmp <(rft-vth --by cells m=merged.duty) <(rft-vth --by cells m=whole.duty)
            rm shard*
        done
    done
}

@test "sharding with rft-view --slice and rft-decode gives the same map" {
    rft-synth --cus 2 --simds 2 --writes 2000 --seed 3 > s.rft
    pipe 'rft-alloc --scheme first-fit s.rft | rft-duty > whole.duty'
    n=0
    for s in 0:0 0:1 1:0 1:1; do
        pipe "rft-view --slice $s s.rft | rft-decode | rft-alloc --scheme first-fit | rft-duty > p$n.duty"
        n=$((n + 1))
    done
    rft-merge p*.duty > merged.duty
    cmp <(rft-vth --by cells m=merged.duty) <(rft-vth --by cells m=whole.duty)
    cmp <(rft-view --stats merged.duty) <(rft-view --stats whole.duty)
}

@test "maps of two runs add up: cycles, '1' and off time of each cell" {
    small 4 "$D/hand.tsv" | rft-duty > a.duty
    rft-merge a.duty a.duty > aa.duty
    run -0 rft-vth --by cells --format tsv m=aa.duty
    assert_line 'm	0:0	0	1	1	100	100	0	200	slice	100	200	used'
    assert_line 'm	0:0	1	0	31	120	0	80	200	slice	100	200	used'
    assert_line 'm	0:0	2	0	31	0	0	200	200	slice	100	200	unused'
}

@test "counters records of equal stage, scope and name are added" {
    rft-synth --cus 1 --simds 2 --writes 500 --seed 5 > s.rft
    pipe 'rft-alloc s.rft | rft-gate --scheme wc | rft-duty > a.duty'
    rft-merge a.duty a.duty a.duty > m.duty
    w1=$(rft-view a.duty | grep 'scope=total' | grep -o 'writes=[0-9]*' | head -1 | cut -d= -f2)
    run -0 bash -c "rft-view m.duty | grep 'scope=total' | grep -o '	writes=[0-9]*'"
    assert_output "	writes=$((3 * w1))"
}

@test "maps of a different geometry are refused, naming the file" {
    small 4 "$D/hand.tsv" | rft-duty > a.duty
    printf 'B\t100\t0\t0\t1\t1\tk\t0\nW\t100\t0\t0\t1\t0\t3\t00000001\t00000002\tphys=0\nE\t200\t0\t0\t1\n' |
        rft-decode --lanes 2 --block-lanes 1 --entries 4 | rft-duty > b.duty
    run -1 --separate-stderr rft-merge -o m.duty a.duty b.duty
    assert_equal "$stderr" "rft-merge: b.duty: different geometry (2 lanes x 4 entries) from a.duty (1 x 4)"
    [ ! -e m.duty ]
    small 8 "$D/hand.tsv" | rft-duty > c.duty
    run -1 --separate-stderr rft-merge a.duty c.duty
    assert_equal "$stderr" "rft-merge: c.duty: different geometry (1 lanes x 8 entries) from a.duty (1 x 4)"
}

@test "maps of different window semantics are refused, naming the file" {
    small 4 "$D/hand.tsv" > t.rft
    rft-duty t.rft > slice.duty
    rft-duty --span busy t.rft > busy.duty
    rft-duty --unused on t.rft > on.duty
    run -1 --separate-stderr rft-merge slice.duty busy.duty
    assert_equal "$stderr" "rft-merge: busy.duty: record 1: different window semantics (span busy, unused entries off) from slice.duty (span slice, unused entries off)"
    run -1 --separate-stderr rft-merge slice.duty on.duty
    assert_equal "$stderr" "rft-merge: on.duty: record 1: different window semantics (span slice, unused entries on) from slice.duty (span slice, unused entries off)"
}

@test "a trace is not a duty map; no input is a usage error" {
    small 4 "$D/hand.tsv" > t.rft
    run -1 --separate-stderr rft-merge t.rft
    assert_equal "$stderr" "rft-merge: t.rft: record 1: a trace, not a duty map: run rft-duty(1) first"
    run -2 rft-merge
    assert_line --index 0 'rft-merge: no input (see rft-merge --help)'
    run -2 rft-merge - -
}
