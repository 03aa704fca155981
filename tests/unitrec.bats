#!/usr/bin/env bats
# Unit records (rft(5) kind 0x07, a store's unit) follow their wavefront as a
# bundle does: rft-repeat shifts each copy's, the text format has a U line
# that rft-decode reads back (a malformed one refused with its line),
# rft-view's filters and shards treat them as the wavefront's records.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    F="$FIX/m2s42"
    zstd -q -dc "$F/fwt-det.trace.zst" > t.txt
    rft-decode --kernel fastWalshTransform --local-size 256 --cycles-from t.txt -o s.rft \
        "$F/fwt-det.isa.zst" 2>/dev/null
}

# the total row's cycles_naive and cycles_replayed
total() { awk -F'\t' '$1 == "total" { print $2, $3 }'; }

@test "rft-repeat -n 2: the second copy's unit records at its own cycles, in cycle order" {
    rft-repeat -n 2 s.rft -o r.rft
    rft-view s.rft | grep '^U' > u1.txt
    n=$(wc -l < u1.txt)
    # 16 stores, 32 waits, the 32 accesses' completions; the scalar unit's marks
    (( $(no_scalar_marks < u1.txt | wc -l) == 16 + 32 + 32 ))
    # copy 1 starts one period after copy 0: the kernel records give it
    p=$(rft-view --kind K r.rft | awk -F'\t' 'NR == 1 { a = $2 } NR == 2 { print $2 - a }')
    (( p > 0 ))
    rft-view r.rft | grep '^U' > u2.txt
    (( $(wc -l < u2.txt) == 2 * n ))
    run -0 pipe "head -n $n u2.txt | diff - u1.txt"
    run -0 pipe "tail -n $n u2.txt | awk -F'\t' -v OFS='\t' '{ \$2 -= $p; print }' | diff - u1.txt"
    # every record of the trace in cycle order (the reader checks it too)
    run -0 pipe "rft-view r.rft | awk -F'\t' '!/^#/ && \$2 < last { print NR \": \" \$0 } { if (!/^#/) last = \$2 }'"
    assert_output ""
}

@test "rft-repeat -n 2 then rft-replay: twice the instructions, twice the cycles added" {
    rft-repeat -n 2 s.rft -o r.rft
    # nothing added: every row exact
    run -0 pipe "rft-replay -f tsv r.rft | awk -F'\t' '!/^#/ && h++ && \$2 != \$3'"
    assert_output ""
    for o in "" "--add-latency 8 --hold --deps all"; do
        rft-replay -f tsv $o s.rft | awk -F'\t' '/^slice|^total/ { print $1 "\t" $2 "\t" $3 "\t" $7 }' > one.tsv
        rft-replay -f tsv $o r.rft | awk -F'\t' '/^slice|^total/ { print $1 "\t" $2 "\t" $3 "\t" $7 }' > two.tsv
        # per slice and in total: 2x the instructions, 2x the replayed cycles beyond the span
        run -0 pipe "paste one.tsv two.tsv | awk -F'\t' '\$8 != 2 * \$4 || \$7 - \$6 != 2 * (\$3 - \$2) { print }'"
        assert_output ""
    done
    read -r naive rep < <(rft-replay -f tsv --add-latency 8 --hold --deps all r.rft | total)
    (( rep > naive ))
}

@test "rft-view prints a unit record as a U line, which rft-decode reads back" {
    stores=$(zstd -q -dc "$F/fwt-det.isa.zst" | grep -c 'buffer_store')
    rft-view s.rft > v.txt
    run -0 pipe "grep -c '^U.*[sm]\$' v.txt"
    assert_output "$stores"
    run -0 grep -m1 '^U.*vmem$' v.txt
    assert_output "$(printf 'U\t1500\t0\t0\t0\tvmem')"
    # the first vector instruction after an s_waitcnt: a wait at its cycle, with its records
    run -0 grep -m1 '^U.*wait$' v.txt
    assert_output "$(printf 'U\t171\t0\t0\t0\twait')"
    run -0 pipe "awk -F'\t' '\$2 == 171 && \$5 == 0' v.txt | cut -f1 | sort -u | tr -d '\n'"
    assert_output "UW"
    run -1 grep '^# record kind' v.txt
    rft-decode v.txt -o s2.rft
    run -0 pipe "rft-view s2.rft | diff - <(grep -v '^#' v.txt)"
    # nothing lost: the replay of the round trip is the same, its held stores included
    run -0 pipe "rft-replay -f tsv --add-latency 8 --hold --deps all s.rft | grep -v '^#'"
    a=$output
    run -0 pipe "rft-replay -f tsv --add-latency 8 --hold --deps all s2.rft | grep -v '^#'"
    assert_equal "$output" "$a"
    # the CSV form too, and JSON
    rft-view -f csv s.rft > v.csv
    rft-decode v.csv -o s3.rft
    run -0 pipe "rft-view s3.rft | diff - <(grep -v '^#' v.txt)"
    run -0 pipe "rft-view -f json s.rft | awk '/\"U\"/ && /vmem/ && !n++'"
    assert_output '{"kind": "U", "cycle": 1500, "cu": 0, "simd": 0, "wf": 0, "unit": "vmem"}'
}

@test "U lines by hand: lds and vmem round trip, a malformed one refused with its line" {
    printf 'B\t0\t0\t0\t0\t4\tk\nU\t3\t0\t0\t0\tarrive\nU\t5\t0\t0\t0\tlds\nU\t6\t0\t0\t0\tvmem\nU\t8\t0\t0\t0\tdone\nE\t9\t0\t0\t0\n' > a.txt
    rft-decode a.txt -o a.rft
    run -0 rft-view a.rft
    assert_output "$(cat a.txt)"
    bad() {
        printf "B\t0\t0\t0\t0\t4\tk\n$1\n" > b.txt
        run --separate-stderr -1 rft-decode b.txt -o b.rft
        assert_equal "$stderr" "rft-decode: b.txt:2: $2"
        [ ! -e b.rft ]
    }
    bad 'U\t5\t0\t0\t0\tvalu' "unknown unit 'valu' (vmem, lds, wait, barrier, done, arrive, sload, sdone, shold or srel)"
    bad 'U\t5\t0\t0\t0\tfb' "unknown unit 'fb' (vmem, lds, wait, barrier, done, arrive, sload, sdone, shold or srel)"
    bad 'U\t5\t0\t0\t0' "U line has 5 fields, expected 6"
    bad 'U\t5\t0\t0\t0\tlds\tvmem' "U line has 7 fields, expected 6"
    bad 'U\t5\t0\t0\t1\tlds' "U for wavefront 1 on slice (0,0), which has not begun"
    bad 'U\tx\t0\t0\t0\tlds' "bad cycle 'x'"
}

@test "rft-view's filters and shards keep a unit record with its wavefront's records" {
    # --wf, --slice, --kernel: the U lines of that wavefront, slice, kernel
    run -0 pipe "rft-view --wf 3 s.rft | grep '^U' | cut -f5 | sort -u"
    assert_output "3"
    run -0 pipe "rft-view --slice 0:1 s.rft | grep '^U' | cut -f3,4 | sort -u"
    assert_output "$(printf '0\t1')"
    run -0 pipe "rft-view --kernel fastWalshTransform s.rft | grep '^U' | no_scalar_marks | wc -l"
    assert_output "80"
    # --kind U alone; --cycles by its cycle
    run -0 pipe "rft-view --kind U s.rft | cut -c1 | sort -u"
    assert_output "U"
    run -0 pipe "rft-view --kind U s.rft | no_scalar_marks | wc -l"
    assert_output "80"
    run -0 pipe "rft-view --kind U --cycles 1501:1517 s.rft | no_scalar_marks | grep -v 'wait\|done' | cut -f2 | tr '\n' ' '"
    assert_output "1501 1517 "
    # two shards: each unit record in its slice's shard only
    for k in 0 1; do rft-view --shard $k/2 s.rft | grep '^U' > sh$k.txt; done
    run -0 pipe "cat sh0.txt sh1.txt | sort | diff - <(rft-view s.rft | grep '^U' | sort)"
    run -0 pipe "cut -f4 sh0.txt | sort -u; cut -f4 sh1.txt | sort -u"
    assert_output "$(printf '0\n1')"
}

@test "a duty map of a stream with unit records holds none (no wavefront for them to name): rft-vth reads it" {
    rft-alloc --scheme first-fit --runs steady s.rft | rft-duty -o d.rft
    run -0 pipe "rft-view d.rft | grep -c '^U' || true"
    assert_output 0
    run -0 rft-vth d.rft
    # the same map as of the stream without them
    rft-view s.rft | grep -v '^U' | rft-decode | rft-alloc --scheme first-fit --runs steady | rft-duty -o d2.rft
    run -0 pipe "rft-vth -f tsv map=d.rft > a.tsv && rft-vth -f tsv map=d2.rft > b.tsv && cmp a.tsv b.tsv"
}
