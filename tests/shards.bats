#!/usr/bin/env bats
# Issue 23: a shard reads the original stream and keeps its slices
# (--shard K/N, rft_reader_shard); the duty maps and energy scans of the
# shards, added by rft-merge, are the whole trace's byte for byte, and
# rft-batch --shards gives the tables and maps of a run without shards,
# here and through a one-node Slurm (tests/slurm_helper.bash).

load test_helper
load slurm_helper

setup_file() {
    # 3 CUs x 4 SIMDs: 12 slices, so that 7 shards hold one or two each
    rft-synth --writes 3000 --cus 3 --seed 1 -o "$BATS_FILE_TMPDIR/a.rft"
    rft-synth --writes 3000 --cus 3 --seed 2 -o "$BATS_FILE_TMPDIR/b.rft"
    # the batch without shards that the sharded ones, here and through
    # Slurm, are compared with: made once for the file
    rft-batch --quiet -j 2 -o "$BATS_FILE_TMPDIR/whole" "$BATS_FILE_TMPDIR/a.rft" "$BATS_FILE_TMPDIR/b.rft"
}

setup() {
    cd "$BATS_TEST_TMPDIR"
    A="$BATS_FILE_TMPDIR/a.rft"
    B="$BATS_FILE_TMPDIR/b.rft"
    W="$BATS_FILE_TMPDIR/whole"     # rft-batch --quiet -j 2 -o whole "$A" "$B"
}

teardown() {
    slurm_stop
}

# the six schemes of the aging study, maps and scans, into DIR/, as
# rft run's arguments in "${P[@]}"
schemes() {
    local d=$1 runs=$2 i=0 s
    P=()
    for s in "alloc --scheme first-fit" "alloc --scheme first-fit ALLOC| gate --scheme rc" \
        "alloc --scheme rar" "alloc --scheme rar ALLOC| gate --scheme rc" \
        "alloc --scheme first-fit ALLOC| gate --scheme wc" "alloc --scheme argo"; do
        s=${s/ALLOC/$runs $A }
        [[ $s == *"$A"* ]] || s="$s $runs $A"
        P+=("$s | duty -o $d/m$i.rft" "$s | energy --scan -o $d/m$i.scan")
        i=$((i + 1))
    done
}

@test "--shard K/N: the shards' maps and scans, added by rft-merge, are the whole's (N = 1, 3, 7)" {
    local runs n k i
    for runs in ""; do
        mkdir -p whole && schemes whole "$runs"
        rft run "${P[@]}"
        for n in 1 3 7; do
            for ((k = 0; k < n; k++)); do
                mkdir -p s$k && schemes s$k "$runs"
                rft run --shard $k/$n "${P[@]}"
            done
            for ((i = 0; i < 6; i++)); do
                rft-merge -o m.rft $(for ((k = 0; k < n; k++)); do echo s$k/m$i.rft; done)
                cmp <(rft-view whole/m$i.rft) <(rft-view m.rft)
                rft-merge -o m.scan $(for ((k = 0; k < n; k++)); do echo s$k/m$i.scan; done)
                cmp <(rft-view whole/m$i.scan) <(rft-view m.scan)
            done
            rm -rf s?
        done
        rm -rf whole
    done
    # runs from the whole stream's span: the steady state, the span stream
    for runs in "--runs steady" "--span stream"; do
        rft run "alloc ${runs/--span stream/} $A | duty ${runs/--runs steady/} -o whole.rft"
        for ((k = 0; k < 3; k++)); do
            rft run --shard $k/3 "alloc ${runs/--span stream/} $A | duty ${runs/--runs steady/} -o s$k.rft"
        done
        rft-merge -o m.rft s0.rft s1.rft s2.rft
        cmp <(rft-view whole.rft) <(rft-view m.rft)
    done
}

@test "--shard: a shard keeps its slices' records and those of no slice; messages name the whole stream's record" {
    local n k
    run -0 rft-view --stats "$A"
    local writes=$(awk '$1 == "writes" { print $2 }' <<<"$output")
    local kernels=$(awk '$1 == "kernels" { print $2 }' <<<"$output")
    n=0
    for k in 0 1 2 3 4; do
        run -0 rft-view --shard $k/5 --stats "$A"
        n=$((n + $(awk '$1 == "writes" { print $2 }' <<<"$output")))
        assert_line --regexp "^kernels +$kernels$"
    done
    [ $n -eq "$writes" ]
    # slice index CU x 4 + SIMD (the header's simds): shard 5 of 12 is slice 1:1
    run -0 bash -c "rft-view --shard 5/12 '$A' | awk -F '\t' '\$1 ~ /^[BWRE]\$/ { print \$3 \":\" \$4 }' | sort -u"
    assert_output "1:1"
    # a truncated stream: the same record named, whole or shard
    head -c $(($(wc -c <"$A") * 2 / 3)) "$A" >cut.rft
    run -1 --separate-stderr rft-view cut.rft
    local whole=$stderr
    [[ $whole == "rft-view: cut.rft: record "* ]]
    run -1 --separate-stderr rft-view --shard 2/3 cut.rft
    assert_equal "$stderr" "$whole"
}

@test "--shard: usage errors, and programs that read no stream do not take it" {
    run -2 --separate-stderr rft-view --shard 3/3 "$A"
    [[ $stderr == "rft-view: --shard: "* ]]
    run -2 --separate-stderr rft-view --shard 1 "$A"
    [[ $stderr == "rft-view: --shard: '1' is not K/N"* ]]
    run -2 --separate-stderr rft run --shard 0/0 "view $A"
    [[ $stderr == "rft run: --shard: "* ]]
    run -2 --separate-stderr rft-decode --shard 0/2 "$A"
    [[ $stderr == "rft-decode: unknown option"* ]]
    run -2 --separate-stderr rft run --shard 0/2 "synth --writes 10"
    [[ $stderr == "rft-synth: --shard: rft-synth reads no rft stream"* ]]
    run -2 --separate-stderr rft-energy --shard 0/2 "$A"
    [[ $stderr == "rft-energy: --shard: with --scan only"* ]]
    # scans of two different streams are not shards of one
    rft run "alloc $A | energy --scan -o a.scan"
    rft run "alloc $B | energy --scan -o b.scan"
    run -1 --separate-stderr rft-merge a.scan b.scan -o ab.scan
    [[ $stderr == *"scans of different streams"* ]]
}

@test "rft-batch --shards 3 and 7: the tables and maps of the run without shards, byte for byte (steady runs; the shards reading the whole, and the split's files)" {
    ln -s "$W" whole        # rft-batch --quiet -j 2 -o whole "$A" "$B" (setup_file)
    local n t m
    # 3: --split no, every shard reads the whole trace; 7: --split auto,
    # 14 shards for 2 jobs, cut by rft-split
    for n in 3 7; do
        rft-batch --quiet -j 2 --shards $n $([ $n = 3 ] && echo --split no) -o s$n "$A" "$B"
        grep -q "^SHARDS = $n$" s$n/Makefile
        [ -d s$n/traces/a/s$((n - 1)) ] && [ ! -d s$n/traces/a/s$n ]
        for t in a b; do
            cmp whole/traces/$t/vth.tsv s$n/traces/$t/vth.tsv
            cmp whole/traces/$t/energy.tsv s$n/traces/$t/energy.tsv
            for m in base rc rar rcrar wc argo; do
                cmp <(rft-view whole/traces/$t/$m.rft) <(rft-view s$n/traces/$t/$m.rft)
                cmp <(rft-view whole/traces/$t/$m.scan) <(rft-view s$n/traces/$t/$m.scan)
            done
        done
        cmp whole/table.tsv s$n/table.tsv
    done
    # no file cut per shard: a shard's folder holds its maps and scans only
    run -0 ls s3/traces/a/s0
    refute_output --partial runs.rft
    grep -q '^SPLIT = no$' s3/Makefile && [ ! -e s3/traces/a/split ]
    grep -q '^SPLIT = yes$' s7/Makefile && [ -f s7/traces/a/split/runs.6.rft ]
}

@test "rft-batch --split auto: the shards read the whole when each has a job of its own, the split's files when they queue" {
    rft-batch --quiet -j 4 --shards 2 -o own "$A" "$B"
    grep -q '^SPLIT = no$' own/Makefile
    rft-batch --quiet -j 3 --shards 2 -o queue "$A" "$B"
    grep -q '^SPLIT = yes$' queue/Makefile
    cmp own/table.tsv queue/table.tsv
    # a folder keeps its choice
    run -0 rft-batch --quiet -j 4 --split auto -o queue "$A" "$B"
    run -1 --separate-stderr rft-batch --quiet --split no -o queue "$A" "$B"
    [[ $stderr == "rft-batch: queue: holds a batch made with --split yes, not no (use another folder)"* ]]
}

@test "rft-batch without --shards: no shards for small traces, whatever -j" {
    rft-batch --quiet -j 4 -o small "$A"
    ! grep -q '^SHARDS' small/Makefile
}

@test "rft-batch --slurm --shards 3: a task per shard, the tables and maps of the local run" {
    slurm_setup_file
    ln -s "$W" local        # rft-batch --quiet -j 2 -o local "$A" "$B" (setup_file)
    run -0 --separate-stderr rft-batch --quiet --slurm --shards 3 -o sharded "$A" "$B"
    [[ $stderr == "rft-batch: array job ${output% *} (6 tasks), collecting job ${output#* };"* ]]
    wait_jobs ${output% *} ${output#* }
    local t m
    for t in a b; do
        cmp local/traces/$t/vth.tsv sharded/traces/$t/vth.tsv
        cmp local/traces/$t/energy.tsv sharded/traces/$t/energy.tsv
        for m in base rc rar rcrar wc argo; do
            cmp <(rft-view local/traces/$t/$m.rft) <(rft-view sharded/traces/$t/$m.rft)
        done
    done
    cmp local/table.tsv sharded/table.tsv
}
