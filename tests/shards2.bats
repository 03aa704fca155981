#!/usr/bin/env bats
# Issue 23: the undervolt and healing studies in shards.  DC-Patch's LDS
# and SC healing's work-groups are a compute unit's, so their shards are of
# whole compute units (--shard-by cu); each shard takes the span of the
# whole input; the energy scans add up in rft-merge and rft-batch makes the
# writes, cost and units tables from the shards' (tests/shards.bats: the
# aging study).  Shards 1, 3 and 7 give the tables and maps of no shards,
# here and through a one-node Slurm (tests/slurm_helper.bash).

load test_helper
load slurm_helper

setup_file() {
    # 3 CUs x 4 SIMDs: 12 slices, 3 compute units (7 shards: 4 empty ones)
    rft-synth --writes 12000 --cus 3 --seed 3 -o "$BATS_FILE_TMPDIR/a.rft"
    # slices c:s, s <= c, of 3 CUs (1, 2 and 3 SIMDs): 200 registers of
    # values no pattern compresses, so that DC-Patch spills to the LDS
    awk -f "$FIX/shards/spill3cu.awk" >"$BATS_FILE_TMPDIR/sp.tsv"
    rft-decode -o "$BATS_FILE_TMPDIR/sp.rft" "$BATS_FILE_TMPDIR/sp.tsv"
    # a Multi2Sim log without its pipeline trace: cycles estimated, not
    # replayed (empty cells, notes naming the streams), one CU
    rft-decode --kernel k --local-size 64 -o "$BATS_FILE_TMPDIR/est.rft" \
        "$FIX/m2s42/vcmp.isa" 2>/dev/null
    # the batches without shards of the two studies, that the sharded ones,
    # here and through Slurm, are compared with: made once for the file
    local s
    for s in undervolt healing; do
        rft-batch --quiet -j 2 --study $s -o "$BATS_FILE_TMPDIR/whole-$s" \
            "$BATS_FILE_TMPDIR/a.rft" "$BATS_FILE_TMPDIR/sp.rft" "$BATS_FILE_TMPDIR/est.rft"
    done
}

setup() {
    cd "$BATS_TEST_TMPDIR"
    A="$BATS_FILE_TMPDIR/a.rft"
    SP="$BATS_FILE_TMPDIR/sp.rft"
    EST="$BATS_FILE_TMPDIR/est.rft"
}

teardown() {
    slurm_stop
}

# the largest of column $1 of the total rows of the files after it
total_max() {
    local c=$1
    shift
    awk -F '\t' -v c="$c" '$1 == "total" && $c + 0 > m { m = $c + 0 } END { print m + 0 }' "$@"
}

@test "--shard-by cu: DC-Patch's scans of the shards, added by rft-merge, are the whole's; their total rows' largest run times too (N = 1, 3, 7)" {
    local t n k
    for t in "$A" "$SP"; do
        P="faultmap --shares 30/20/10/10/30 --seed 4 $t | dcpatch --summary=SUM --format tsv | energy --scan -o SCAN"
        rft run "$(sed 's/SUM/whole.tsv/; s/SCAN/whole.scan/' <<<"$P")"
        for n in 1 3 7; do
            for ((k = 0; k < n; k++)); do
                rft run --shard $k/$n --shard-by cu "$(sed "s/SUM/s$k.tsv/; s/SCAN/s$k.scan/" <<<"$P")"
            done
            rft-merge -o m.scan $(for ((k = 0; k < n; k++)); do echo s$k.scan; done)
            cmp <(rft-view whole.scan) <(rft-view m.scan)
            # cycles_naive, cycles_replayed, cycles_upper
            for c in 14 15 17; do
                [ "$(total_max $c whole.tsv)" = "$(total_max $c s*.tsv)" ]
            done
            rm -f s*.tsv s*.scan
        done
    done
    # the spilling trace spills, and its LDS peak is a compute unit's: shards
    # of slices split it, shards of compute units do not
    run -0 bash -c "rft-view whole.scan | tr '\t' '\n' | sed -n 's/^rft-dcpatch.lds_peak_bytes=//p'"
    local peak=$output
    [ "$peak" -gt 0 ]
    for by in cu slice; do
        for ((k = 0; k < 3; k++)); do
            rft run --shard $k/3 --shard-by $by "$(sed "s/SUM/s$k.tsv/; s/SCAN/s$k.scan/" <<<"$P")"
        done
        rft-merge -o $by.scan s0.scan s1.scan s2.scan
    done
    run -0 bash -c "rft-view cu.scan | tr '\t' '\n' | sed -n 's/^rft-dcpatch.lds_peak_bytes=//p'"
    assert_output "$peak"
    run -0 bash -c "rft-view slice.scan | tr '\t' '\n' | sed -n 's/^rft-dcpatch.lds_peak_bytes=//p'"
    [ "$output" -lt "$peak" ]
}

@test "rft-heal --shard --shard-by cu: each shard over the whole window; the largest of their cost rows is the whole's (N = 1, 3, 7)" {
    local n k c
    rft-heal --scheme sc --report cost --format tsv "$A" | grep -v '^#' | awk '$2 == "all"' >whole.tsv
    for n in 1 3 7; do
        for ((k = 0; k < n; k++)); do
            rft-heal --shard $k/$n --shard-by cu --scheme sc --report cost --format tsv "$A" |
                grep -v '^#' | awk '$2 == "all"' >s$k.tsv
            # the window of the whole trace in every shard
            run -0 rft-heal --shard $k/$n --shard-by cu --scheme sc --report cost --format tsv "$A"
            assert_line --partial "# window: $(rft-heal --scheme sc --report cost --format tsv "$A" |
                sed -n 's/^# window: //p')"
        done
        for c in 3 4 6 7 9; do
            run -0 bash -c "paste s*.tsv | awk -F '\t' -v c=$c -v n=$n '{ m = 0; for (k = 0; k < n; k++) if (\$(c + 10 * k) + 0 > m) m = \$(c + 10 * k) + 0; print m }'"
            assert_output "$(cut -f$c whole.tsv)"
        done
        rm -f s*.tsv
    done
}

# the tables of the undervolt and healing studies, and the cross-trace table,
# of batch folders $1 and $2
same_tables() {
    local t f
    for t in a sp est; do
        for f in writes energy cost units; do
            [ ! -e "$1/traces/$t/$f.tsv" ] || cmp "$1/traces/$t/$f.tsv" "$2/traces/$t/$f.tsv"
        done
    done
    cmp "$1/table.tsv" "$2/table.tsv"
}

@test "rft-batch --shards 3 and 7, undervolt and healing: the tables of the run without shards, byte for byte" {
    local s n
    for s in undervolt healing; do
        ln -s "$BATS_FILE_TMPDIR/whole-$s" whole-$s     # rft-batch --quiet -j 2 --study $s -o whole-$s "$A" "$SP" "$EST" (setup_file)
        # 3: every shard reads the whole; 7: the split's files (auto: 21
        # shards for 2 jobs), cut by compute unit
        for n in 3 7; do
            rft-batch --quiet -j 2 --study $s --shards $n $([ $n = 3 ] && echo --split no) -o $s$n "$A" "$SP" "$EST"
            grep -q "^SHARDS = $n$" $s$n/Makefile
            grep -q "^SPLIT = $([ $n = 3 ] && echo no || echo yes)$" $s$n/Makefile
            [ -d $s$n/traces/a/s$((n - 1)) ] && [ ! -d $s$n/traces/a/s$n ]
            same_tables whole-$s $s$n
        done
    done
    # the spilling trace spills in the study's scenarios too
    run -0 awk -F '\t' '$1 == "common" { print $11 }' whole-undervolt/traces/sp/writes.tsv
    [ "$output" -gt 0 ]
    # the shards' tables are kept, for rft-batch --status
    run -0 ls undervolt3/traces/sp/s1 healing3/traces/sp/s1
    assert_line common.rft
    assert_line slices.tsv
    run -0 rft-batch --status healing3
    assert_line --regexp '^sp +done'
}

@test "rft-batch --shards: a pipeline of one's own is not sharded; --shard-by: usage errors" {
    run -2 --separate-stderr rft-batch --quiet --pipeline 'rft-view --stats' --shards 2 -o p "$A"
    [[ $stderr == "rft-batch: --shards: a pipeline of your own is not sharded"* ]]
    run -2 --separate-stderr rft-batch --quiet --study undervolt --shards 2 --split maybe -o p "$A"
    [[ $stderr == "rft-batch: --split: 'maybe' is not auto, yes or no"* ]]
    run -2 --separate-stderr rft-batch --quiet --study undervolt --split yes -j 1 -o p "$A"
    [[ $stderr == "rft-batch: --split: without shards (--shards N) there is nothing to split"* ]]
    run -2 --separate-stderr rft-batch --quiet --study undervolt --slurm --shards 2 --split yes -o p "$A"
    [[ $stderr == "rft-batch: --split yes: not with --slurm"* ]]
    run -2 --separate-stderr rft-view --shard 0/2 --shard-by simd "$A"
    [[ $stderr == "rft-view: --shard-by: 'simd' is not cu or slice"* ]]
    run -2 --separate-stderr rft-view --shard-by cu "$A"
    [[ $stderr == "rft-view: --shard-by: without --shard K/N"* ]]
    run -2 --separate-stderr rft run --shard-by cu "view $A"
    [[ $stderr == "rft run: --shard-by: without --shard K/N"* ]]
    # a shard of compute units keeps every SIMD of its CUs
    run -0 bash -c "rft-view --shard 1/3 --shard-by cu '$A' | awk -F '\t' '\$1 == \"W\" { print \$3 }' | sort -u"
    assert_output 1
    run -0 bash -c "rft-view --shard 1/3 --shard-by cu '$A' | awk -F '\t' '\$1 == \"W\" { print \$4 }' | sort -u | wc -l"
    assert_output 4
}

@test "rft-batch --slurm --shards 3, undervolt and healing: a task per shard, the tables of the local run" {
    slurm_setup_file
    local s
    for s in undervolt healing; do
        ln -s "$BATS_FILE_TMPDIR/whole-$s" local-$s     # the same batch (setup_file)
        run -0 --separate-stderr rft-batch --quiet --slurm --study $s --shards 3 -o sharded-$s "$A" "$SP" "$EST"
        [[ $stderr == "rft-batch: array job ${output% *} (9 tasks), collecting job ${output#* };"* ]]
        wait_jobs ${output% *} ${output#* }
        same_tables local-$s sharded-$s
    done
}
