#!/usr/bin/env bats
# rft-batch --slurm against a real Slurm: a one-node cluster on localhost
# (slurmctld, slurmd, munged) started here from a temporary configuration and
# stopped afterwards.  The array and the collecting job give the local run's
# results byte for byte; a failed task leaves the collecting job unrun and
# --status names the trace.  `make check-slurm` runs this file alone.

load test_helper

load slurm_helper

setup_file() {
    slurm_setup_file
    make_suite "$BATS_FILE_TMPDIR/traces"
}

teardown_file() {
    slurm_stop
}

setup() {
    cd "$BATS_TEST_TMPDIR"
    TR="$BATS_FILE_TMPDIR/traces"
}

@test "a Slurm job array and a collecting job: the local run's results byte for byte" {
    rft-batch -j 2 -o local "$TR"
    run -0 --separate-stderr rft-batch --quiet --slurm --partition debug --time 10 --mem 200 -o remote "$TR"
    [[ $output =~ ^[0-9]+\ [0-9]+$ ]]
    local array=${output% *} collect=${output#* }
    [[ $stderr == "rft-batch: array job $array (3 tasks), collecting job $collect; see rft-batch --status remote" ]]
    run -0 rft-batch --status remote
    assert_line --regexp '^a +(pending|running|done) '
    assert_line --regexp '^\(table\) +(pending|running|done) '
    wait_jobs $array $collect
    # three tasks and the collecting job ran, and wrote the results
    [ "$(ls remote/slurm/${array}_*.out | wc -l)" -eq 3 ]
    [ -e remote/slurm/collect.out ]
    local f
    for f in table.txt table.tsv table.csv table.json figures/fig13-longest0.svg \
        figures/fig21-energy.tsv traces/{a,b,c}/vth.tsv traces/{a,b,c}/energy.tsv traces/{a,b,c}/rcrar.rft; do
        cmp local/$f remote/$f
    done
    run -0 rft-batch --status remote
    assert_line --regexp '^c +done'
    assert_line --regexp '^\(table\) +done +remote/table.txt$'
    assert_line '3 traces: 3 done, 0 running, 0 failed, 0 waiting'
    # a task per shard of a trace's slices, the rest in the collecting job:
    # the same again
    run -0 --separate-stderr rft-batch --quiet --slurm --shards 2 -o sharded "$TR"
    [[ $stderr == "rft-batch: array job ${output% *} (6 tasks), collecting job ${output#* };"* ]]
    wait_jobs ${output% *} ${output#* }
    for f in table.txt table.tsv table.json traces/{a,b,c}/vth.tsv traces/{a,b,c}/energy.tsv; do
        cmp local/$f sharded/$f
    done
    run -0 cut -f2 sharded/slurm/tasks
    assert_line --index 0 "$(for m in base rc rar rcrar wc argo; do printf 'traces/a/s0/%s.rft traces/a/s0/%s.scan ' $m $m; done)"
    assert_line --index 1 --partial "traces/a/s1/argo.scan "
    assert_line --index 2 --partial "traces/b/s0/base.rft "
    refute_line --partial energy.tsv
    # the scripts it submitted, kept to read and resubmit
    grep -q -- "--partition='debug' --time='10' --mem='200'" remote/slurm/submit.sh
    grep -q 'make -k -s -j' remote/slurm/array.sh
}

@test "a failed array task: the collecting job never runs, --status names the trace" {
    mkdir d
    cp "$TR"/a.rft "$TR"/b.tsv d/
    printf 'B 0 0 0 0 8 k 0\nW 0 0 0 0 0 zz\n' > d/bad.tsv
    run -0 --separate-stderr rft-batch --slurm -o remote d
    local array=${output% *} collect=${output#* }
    wait_jobs $array $collect
    [ ! -e remote/slurm/collect.out ] && [ ! -e remote/table.tsv ]
    run -1 rft-batch --status remote
    assert_line --regexp '^a +done'
    assert_line --regexp "^bad +failed +rft-decode: traces/bad/input:2: W line has 7 fields, expected 71 \(64 lanes\)$"
    assert_line --regexp "^\(table\) +not run +a trace failed: job $collect cancelled$"
    assert_line '3 traces: 2 done, 0 running, 1 failed, 0 waiting'
    # sbatch refusing the job: its own message
    run -1 --separate-stderr rft-batch --quiet --slurm --partition nosuch -o other "$TR"/a.rft
    assert_equal "$stderr" "rft-batch: sbatch: error: Batch job submission failed: Invalid partition name specified"
}

@test "a batch folder named with make's and sh's special characters, sbatch options with quotes: the jobs run there, nothing else runs" {
    # (no % nor \, which Slurm reads in its output files' names: refused)
    local d=$'o $x #y :a =b *c \'q" `touch PWNED` $(touch PWNED) ;|&<>'
    run -0 --separate-stderr rft-batch --slurm --pipeline 'rft-alloc | rft-duty | rft-vth --format tsv' \
        --time "10" --sbatch-args "--comment='a b \$(touch PWNED)'" -o "$d" "$TR"/a.rft
    local array=${output% *} collect=${output#* }
    wait_jobs $array $collect
    [ -s "$d/traces/a/result.tsv" ] && [ -s "$d/table.tsv" ]
    run -0 rft-batch --status "$d"
    assert_line '1 traces: 1 done, 0 running, 0 failed, 0 waiting'
    [ -z "$(find . -name PWNED)" ]
}

@test "NVIDIA studies through Slurm (issue 34): aging, undervolt and healing of a Hopper suite, aging and undervolt of CUTracer traces, the local run's tables byte for byte" {
    mkdir nv
    local k s f
    for k in vecadd reduction; do
        rft-synth --geometry hopper --kernels $k --writes 3000 --seed 2 -o nv/$k.rft
    done
    for s in aging undervolt healing; do
        rft-batch --quiet --study $s -j 2 -o local-$s nv
        run -0 --separate-stderr rft-batch --quiet --study $s --slurm --time 10 -o remote-$s nv
        wait_jobs ${output% *} ${output#* }
        run -0 rft-batch --status remote-$s
        assert_line '2 traces: 2 done, 0 running, 0 failed, 0 waiting'
        for f in table.txt table.tsv table.json; do
            cmp local-$s/$f remote-$s/$f
        done
        # a table with its notes, of 32-lane streams (the NVIDIA parameter sets where energy is priced)
        run -0 grep -c '^# ' remote-$s/table.tsv
        [ "$output" -gt 0 ]
    done
    run -0 grep -l 'nvidia-' local-aging/table.tsv local-undervolt/table.tsv
    assert_line local-aging/table.tsv
    assert_line local-undervolt/table.tsv
    # a folder of CUTracer traces (two launches of the fixture), decoded in the tasks
    mkdir ct
    cp "$FIX/cutracer/vadd.ndjson" ct/vadd.ndjson
    sed 's/"grid_launch_id":3/"grid_launch_id":4/' "$FIX/cutracer/vadd.ndjson" > ct/vadd2.ndjson
    for s in aging undervolt; do
        rft-batch --quiet --study $s -j 2 -o ct-local-$s ct
        run -0 --separate-stderr rft-batch --quiet --study $s --slurm --time 10 -o ct-remote-$s ct
        wait_jobs ${output% *} ${output#* }
        run -0 rft-batch --status ct-remote-$s
        assert_line '2 traces: 2 done, 0 running, 0 failed, 0 waiting'
        for f in table.txt table.tsv table.json; do
            cmp ct-local-$s/$f ct-remote-$s/$f
        done
    done
}
