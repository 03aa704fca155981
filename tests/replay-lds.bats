#!/usr/bin/env bats
# rft-replay's LDS unit (issue 25): LDS loads (flags=lds) and stores (unit
# records, rft(5) kind 0x07) wait on their compute unit's LDS, whose queue
# hides a latency added before them; nothing added still replays every span;
# rft-decode --cycles-from writes a unit record for every store of a real
# Multi2Sim 4.2 run.

load test_helper

setup() { cd "$BATS_TEST_TMPDIR"; }

# A busy LDS: four wavefronts on the four SIMDs of compute unit 0, each a
# vector ALU instruction (v1) and, 124 cycles later, an LDS load reading v1
# (v2, flags=lds); the LDS completes a load every 32 cycles, back to back.
saturated() {
    awk 'BEGIN {
        OFS = "\t"; v = "ffffffffffffffff"; for (i = 0; i < 64; i++) v = v "\t00000001"
        for (w = 0; w < 4; w++) print 0, 0, "B", 0, 0, w, w, 4, "k", 0
        for (k = 0; k < 20; k++) for (w = 0; w < 4; w++) {
            c = 32 * (4 * k + w) + 160
            print c - 124, 1, "W", c - 124, 0, w, w, 1, v
            print c, 2, "R", c, 0, w, w, 1
            print c, 3, "W", c, 0, w, w, 2, v, "flags=lds"
        }
        for (w = 0; w < 4; w++) print 32 * (80 + w) + 164, 4, "E", 32 * (80 + w) + 164, 0, w, w
    }' | sort -t "$(printf '\t')" -k1,1n -k2,2n -s | cut -f3-
}

total() { awk -F'\t' '$1 == "total" { print $2, $3 }'; }
export -f total

@test "an ALU latency before an LDS load hides under its wait in the LDS's queue; without the unit it does not" {
    saturated > s.txt
    rft-decode s.txt -o s.rft
    run -0 pipe "rft-replay -f tsv s.rft | total"
    assert_output "2820 2820"
    # 20 cycles held on every ALU instruction: only the end waits for them
    run -0 pipe "rft-replay -f tsv --add-latency 20 --hold s.rft | total"
    assert_output "2820 2840"
    # in the traced order the first load's lateness passes down the busy LDS
    run -0 pipe "rft-replay -f tsv --add-latency 20 --hold --lds-order traced s.rft | total"
    assert_output "2820 2860"
    # no LDS unit: the loads are their SIMDs', each wavefront alone pays every round
    run -0 pipe "rft-replay -f tsv --add-latency 20 --hold --lds-issue 0 s.rft | total"
    read -r naive rep <<<"$output"
    (( rep >= naive + 20 * 20 ))
    # nothing added, any LDS: every row exact
    for n in 0 8 32 64; do
        run -0 pipe "rft-replay -f tsv --lds-issue $n s.rft | awk -F'\t' '!/^#/ && h++ && \$2 != \$3'"
        assert_output ""
    done
}

@test "rft-decode --cycles-from: a unit record for every store of a real run, none without the trace" {
    F="$FIX/m2s42"
    zstd -q -dc "$F/fwt-det.trace.zst" > t.txt
    stores=$(zstd -q -dc "$F/fwt-det.isa.zst" | grep -c 'buffer_store')
    (( stores > 0 ))
    rft-decode --kernel fastWalshTransform --local-size 256 --cycles-from t.txt -o s.rft "$F/fwt-det.isa.zst" 2>/dev/null
    run -0 pipe "rft-view s.rft | grep -c '^U.*vmem\$'"
    assert_output "$stores"
    rft-decode --kernel fastWalshTransform --local-size 256 --cycles-at fetch --cycles-from t.txt -o f.rft "$F/fwt-det.isa.zst" 2>/dev/null
    run -0 pipe "rft-view f.rft | grep -c '^U.*vmem\$'"
    assert_output "$stores"
    rft-decode --kernel fastWalshTransform --local-size 256 -o n.rft "$F/fwt-func.isa.zst" 2>/dev/null
    run -1 pipe "rft-view n.rft | grep '^U'"
    # the stages pass them on; the replay counts each store once, as before
    run -0 pipe "rft run 'alloc s.rft | gate -o - ' | rft-view | grep -c '^U.*vmem\$'"
    assert_output "$stores"
    run -0 pipe "rft-replay -f tsv s.rft | awk -F'\t' '!/^#/ && h++ && \$2 != \$3'"
    assert_output ""
}

@test "a store marked vector memory is not held by --hold: the ALU latency does not touch it" {
    F="$FIX/m2s42"
    zstd -q -dc "$F/fwt-det.trace.zst" > t.txt
    rft-decode --kernel fastWalshTransform --local-size 256 --cycles-from t.txt -o s.rft "$F/fwt-det.isa.zst" 2>/dev/null
    # the same stream without its unit records: the stores count as ALU and pay
    rft-view -f text s.rft | grep -v '^[U#]' > plain.txt
    rft-decode plain.txt -o p.rft
    a=$(rft-replay -f tsv --add-latency 8 --hold --deps all s.rft | awk -F'\t' '$1 == "total" { print $5 }')
    b=$(rft-replay -f tsv --add-latency 8 --hold --deps all p.rft | awk -F'\t' '$1 == "total" { print $5 }')
    (( b > a ))
}
