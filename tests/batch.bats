#!/usr/bin/env bats
# rft-batch: a study over a folder of traces with make -j, results renamed
# when complete, a killed batch resumed, a bad trace named; rft-collect: the
# cross-trace table and its mean rows (exact values from hand-made results).

load test_helper

# The suite of make_suite (test_helper.bash): a.rft, b.tsv, c.tsv.zst
setup_file() {
    make_suite "$BATS_FILE_TMPDIR/traces"
    # the whole suite's batch, -j 2 (1.8 CPU-s): the first test checks it,
    # the killed batch's rerun is compared with it
    cd "$BATS_FILE_TMPDIR"
    local st=0
    rft-batch -j 2 -o whole "$BATS_FILE_TMPDIR/traces" 2> whole.err || st=$?
    echo "$st" > whole.status
    # a small suite of two (an rft stream, a text trace) for the tests of
    # the batch's mechanics, not of its results: two kernels, 300 writes (the
    # suite's six kernels and 3000 writes are 3,558; rft-synth gives each
    # of its default kernels a minimum, 2,656 writes at --writes 300)
    mkdir small
    rft-synth --kernels vecadd,reduction --writes 300 --seed 1 -o small/a.rft
    rft-synth --kernels vecadd,reduction --writes 300 --seed 2 | rft-view > small/b.tsv
}

setup() {
    cd "$BATS_TEST_TMPDIR"
    TR="$BATS_FILE_TMPDIR/traces"
    W="$BATS_FILE_TMPDIR/whole"     # rft-batch -j 2 -o whole "$TR" (setup_file)
    SM="$BATS_FILE_TMPDIR/small"
    C="$FIX/batch/collect"
}

# the value of column COL in the row of KEY (first column) of TSV FILE
cell() {
    awk -F '\t' -v k="$2" -v c="$3" '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) n[$i] = i; next }
        $1 == k { print $(n[c]) }' "$1"
}

@test "a folder of traces, -j 2: each trace's results are examples/aging.sh's, the table holds them and their mean" {
    # the batch of setup_file, run in its folder: status 0, on standard error
    # the traces found, nothing else
    ln -s "$W" out
    assert_equal "$(cat "$W.status")" 0
    assert_equal "$(cat "$W.err")" "$(cat out/inputs.txt)"
    run -0 cat out/traces.tsv
    assert_output "$(printf 'a\t%s/a.rft\nb\t%s/b.tsv\nc\t%s/c.tsv.zst' "$TR" "$TR" "$TR")"
    local t s
    for t in a b c; do
        # the example's two tables (--format tsv: a blank line between them)
        sh "$TOP/examples/aging.sh" "$TR"/$t.* --format tsv > $t.aging
        sed -n '1,/^$/p' $t.aging | sed '$d' > $t.vth
        cmp $t.vth out/traces/$t/vth.tsv
        sed '1,/^$/d' $t.aging > $t.energy
        cmp $t.energy out/traces/$t/energy.tsv
    done
    # the table: every trace's own figures, then their mean
    rft-collect --format tsv --columns longest_1%,longest_1_red%,saving% out > table.tsv
    [ "$(grep -vc '^#' table.tsv)" -eq 25 ] # header, 3 x 6 schemes, 6 means (and # notes)
    for s in base rc rar rcrar wc argo; do
        local sum=0 v want row
        for t in a b c; do
            v=$(awk -F '\t' -v s=$s '$2 == "metric" { for (i = 3; i <= NF; i++) n[$i] = i }
                $1 == "all" && $2 == "longest_1%" { print $(n[s]) }' out/traces/$t/vth.tsv)
            want="$t	$s	$v	"
            [ $s = base ] || want+=$(awk -F '\t' -v s=${s}_red% '$2 == "metric" { for (i = 3; i <= NF; i++) n[$i] = i }
                $1 == "all" && $2 == "longest_1%" { print $(n[s]) }' out/traces/$t/vth.tsv)
            want+="	$(cell out/traces/$t/energy.tsv $s saving%)"
            run -0 awk -F '\t' -v t=$t -v s=$s '$1 == t && $2 == s' table.tsv
            assert_output "$want"
        done
        row=$(awk -F '\t' -v s=$s '$1 == "mean" && $2 == s' table.tsv)
        want=$(awk -F '\t' -v s=$s '$1 != "mean" && $2 == s { l += $3; r += $4; e += $5; n++ }
            END { printf "mean\t%s\t%.2f\t%s\t%.2f", s, l / n, s == "base" ? "" : sprintf("%.2f", r / n), e / n }' table.tsv)
        assert_equal "$row" "$want"
    done
    # the charts of seed 002: a stacked bar per scheme and trace, and the mean
    run -0 grep -v '^#' out/figures/fig16-longest1.tsv     # after its notes (tests/notes.bats)
    assert_line --index 0 "$(printf 'trace\tscheme\tlongest_1%%\tlongest_1_cell_0%%\tlongest_1_cell_off%%')"
    assert_line --index 24 --regexp '^mean	argo	'
    grep -q '<svg' out/figures/fig16-longest1.svg
    # fig. 21 from its script and data: 4 clusters (3 traces, the mean) of 6
    # schemes, each bar its 5 components stacked
    run -0 pipe "grep -v '^#' out/figures/fig21-energy.data.tsv | cut -f 7 | uniq"
    assert_output "$(printf '%s\n' trace a b c mean)"
    local skip=$(( $(grep -c '^#' out/figures/fig21-energy.data.tsv) + 1 ))
    [ "$(grep -c "^ *\(plot \)\{0,1\}\(newhistogram at [0-9]*, \)\{0,1\}data skip $skip every ::[0-9]*::[0-9]* using [2-6] ls" out/figures/fig21-energy.gp)" -eq 20 ]
}

@test "-r N: the kernel run N times in a row, as aging.sh -r N" {
    rft-batch -r 3 -o rep "$SM"/b.tsv
    sh "$TOP/examples/aging.sh" -r 3 "$SM"/b.tsv --format tsv | sed -n '1,/^$/p' | sed '$d' > b.vth
    cmp b.vth rep/traces/b/vth.tsv
    run -1 --separate-stderr rft-batch -r 2 -o rep
    assert_equal "$stderr" "rft-batch: rep: holds a batch of kernels run 3 times, not 2 (use another folder)"
    run -2 --separate-stderr rft-batch -r 2 --study healing -o rep2 "$SM"/b.tsv
    [[ $stderr == "rft-batch: -r: only the aging study repeats a kernel"* ]]
}

@test "--shards N: the duty maps made in shards of the slices and merged, the same results byte for byte" {
    rft-batch -j 2 -r 2 -o whole "$TR"
    rft-batch -j 2 -r 2 --shards 3 -o shards "$TR"
    local t m
    for t in a b c; do
        cmp whole/traces/$t/vth.tsv shards/traces/$t/vth.tsv
        cmp whole/traces/$t/energy.tsv shards/traces/$t/energy.tsv
        for m in base rc rar rcrar wc argo; do
            cmp <(rft-view whole/traces/$t/$m.rft) <(rft-view shards/traces/$t/$m.rft)
        done
        # the three shards' maps share the entries out
        [ $(for m in shards/traces/$t/s?/base.rft; do rft-view $m; done | wc -l) -eq $(rft-view whole/traces/$t/base.rft | wc -l) ]
    done
    [ -d shards/traces/a/s2 ] && [ ! -d shards/traces/a/s3 ]
    cmp whole/table.tsv shards/table.tsv
    run -1 --separate-stderr rft-batch --shards 2 -o shards
    assert_equal "$stderr" "rft-batch: shards: holds a batch made in 3 shard(s), not 2 (use another folder)"
    run -2 --separate-stderr rft-batch --shards 2 --pipeline 'rft-view --stats' -o uv "$TR"
    [[ $stderr == "rft-batch: --shards: a pipeline of your own is not sharded"* ]]
    run -2 --separate-stderr rft-batch --shards 1 -o uv "$TR"
    [[ $stderr == "rft-batch: --shards: '1' is not a number of shards from 2"* ]]
}

@test "a rerun skips what is complete; --force redoes it" {
    rft-batch -j 2 -o out "$SM"/a.rft "$SM"/b.tsv
    stat -c '%i %Y %n' out/traces/[ab]/*.tsv out/traces/[ab]/*.rft > before
    cp out/table.tsv table1
    sleep 1
    run -0 --separate-stderr rft-batch -o out
    assert_equal "$stderr" ""
    stat -c '%i %Y %n' out/traces/[ab]/*.tsv out/traces/[ab]/*.rft > again
    cmp before again
    cmp table1 out/table.tsv
    run -0 rft-batch --force -o out
    stat -c '%i %n' out/traces/[ab]/vth.tsv > forced
    run -1 diff <(cut -d' ' -f1,3 before | grep vth.tsv) forced
    cmp table1 out/table.tsv
}

@test "a batch killed midway: the rerun keeps what is complete and redoes the rest" {
    # the tools of this tree, but an rft run that stops on trace c's duty
    # maps (part of one written) until it is killed
    mkdir tb
    ln -s "$TOP"/bin/rft-* tb/
    cat > tb/rft <<EOF
#!/bin/sh
case " \$* " in *c/runs.rft*duty*) echo half > traces/c/rc.rft.tmpAbC123; touch "$PWD/hung"; exec sleep 600 ;; esac
exec "$TOP/bin/rft" "\$@"
EOF
    chmod +x tb/rft
    tb/rft-batch -j 2 -o out "$TR" 2> err 3>&- &
    local pid=$! i st=0 ready=0
    # until a and b are done and c hangs: seconds on an idle machine, far
    # more on a loaded one or under make check SAN=1 (it waits for the
    # files, not for a time; 300 s at most)
    for ((i = 0; i < 3000; i++)); do
        [ -e hung ] && [ -e out/traces/a/energy.tsv ] && [ -e out/traces/a/vth.tsv ] &&
            [ -e out/traces/b/energy.tsv ] && [ -e out/traces/b/vth.tsv ] && { ready=1; break; }
        kill -0 $pid 2>/dev/null || break
        sleep 0.1
    done
    kill -TERM $pid
    wait_at_most 60 $pid || st=$?
    [ $ready = 1 ] || { echo "after $((i / 10)) s, a and b not done or c not hung" >&2; false; }
    [ $st -eq 143 ]
    # nothing that looks complete: no table, c not done, a and b whole
    [ ! -e out/table.tsv ] && [ ! -e out/table.txt ]
    [ ! -e out/traces/c/vth.tsv ] && [ ! -e out/traces/c/rc.rft ]
    run -1 rft-batch --status out
    assert_line 'c        interrupted  the run was stopped by SIGTERM; a rerun resumes it'
    assert_line '3 traces: 2 done, 0 running, 0 failed, 0 waiting, 1 interrupted'
    stat -c '%i %Y %n' out/traces/[ab]/*.tsv > before
    # what a harder kill leaves: half-written temporaries, never results
    echo half > out/traces/c/vth.tsv.part
    sleep 1
    run -0 --separate-stderr rft-batch -j 2 -o out
    assert_equal "$stderr" ""
    stat -c '%i %Y %n' out/traces/[ab]/*.tsv > after
    cmp before after
    [ -z "$(ls out/traces/c | grep -e '\.part$' -e '\.tmp')" ]
    # the same table as a batch never stopped (setup_file's)
    cmp "$W/table.tsv" out/table.tsv
    cmp "$W/table.json" out/table.json
    cmp "$W/traces/c/rc.rft" out/traces/c/rc.rft
}

@test "a corrupt trace among good ones: the others complete, it is named with its first error, status 1" {
    mkdir d
    cp "$SM"/a.rft "$SM"/b.tsv d/
    printf 'B 0 0 0 0 8 k 0\nW 0 0 0 0 0 zz\n' > d/bad.tsv
    run -1 --separate-stderr rft-batch --quiet -j 2 -o out d
    assert_output ""
    assert_equal "$stderr" "rft-batch: bad ($PWD/d/bad.tsv): rft-decode: traces/bad/input:2: W line has 7 fields, expected 71 (64 lanes)"
    [ -s out/traces/a/vth.tsv ] && [ -s out/traces/a/energy.tsv ] && [ -s out/traces/b/vth.tsv ] && [ -s out/traces/b/energy.tsv ]
    [ ! -e out/table.tsv ] && [ ! -e out/figures ]
    run -1 rft-batch --status out
    assert_output "$(printf '%s\n' \
        'trace    state     detail' \
        'a        done      ' \
        'b        done      ' \
        'bad      failed    rft-decode: traces/bad/input:2: W line has 7 fields, expected 71 (64 lanes)' \
        '(table)  not run   a trace failed' \
        '3 traces: 2 done, 0 running, 1 failed, 0 waiting')"
    # the collector refuses the incomplete batch unless told to leave it out
    run -1 --separate-stderr rft-collect out
    assert_equal "$stderr" "rft-collect: out/traces/bad: no vth.tsv: the trace is not done (rft-batch --status out)"
    run -0 --separate-stderr rft-collect --partial --format tsv --columns saving% out
    assert_equal "$stderr" "rft-collect: warning: out/traces/bad: no vth.tsv: left out"
    [ "$(grep -vc '^#' <<< "$output")" -eq 19 ]
    refute_output --regexp '\[traces: .*bad'   # the trace left out gives no note
}

@test "bad input: one line each, the status, and no result that looks complete" {
    mkdir empty
    touch empty/README.md
    run -1 --separate-stderr rft-batch -o out empty
    assert_equal "$stderr" "$(printf '%s\n' 'rft-batch: skipped empty/README.md: an empty file' \
        'rft-batch: empty: no traces (no file in it decodes as a trace)')"
    run -1 --separate-stderr rft-batch -o out nothere.tsv
    assert_equal "$stderr" "rft-batch: nothere.tsv: no such trace"
    run -2 --separate-stderr rft-batch --study ageing -o out "$TR"
    assert_equal "$stderr" "rft-batch: --study: 'ageing' is not one of aging, undervolt, healing (see rft-batch --help)"
    run -2 --separate-stderr rft-batch "$TR"
    [[ $stderr == "rft-batch: no output folder (-o DIR)"* ]]
    run -2 --separate-stderr rft-batch -j 0 -o out "$TR"
    [[ $stderr == "rft-batch: -j: '0' is not a number of jobs from 1"* ]]
    run -2 --separate-stderr rft-batch --partition p -o out "$TR"
    [[ $stderr == "rft-batch: --partition: only with --slurm"* ]]
    [ ! -e out ]
    # an output folder that cannot be made or written
    touch file
    run -1 --separate-stderr rft-batch -o file "$TR"
    assert_equal "$stderr" "rft-batch: file: not a folder"
    run -1 --separate-stderr rft-batch -o file/out "$TR"
    assert_equal "$stderr" "rft-batch: file/out: cannot create: Not a directory"
    # a folder of another study (the aging study's of setup_file), two traces of one label
    ln -s "$W" out
    run -1 --separate-stderr rft-batch --study healing -o out "$TR"/a.rft
    assert_equal "$stderr" "rft-batch: out: holds a batch of the aging study, not healing (use another folder)"
    mkdir d2
    cp "$TR"/b.tsv d2/a.tsv
    # two files of one name: the second labelled a_2, and said so (issue 31,
    # item 16; labels are the study's inputs: a pipeline of one chain will do)
    run -0 --separate-stderr rft-batch --pipeline 'rft-alloc --scheme rar | rft-duty | rft-vth --format tsv' -o out2 "$TR"/a.rft d2
    run -0 cut -f1 out2/traces.tsv
    assert_output $'a\na_2'
    run -0 grep -F 'd2/a.tsv: labelled a_2' out2/inputs.txt
}

@test "Slurm not installed, sbatch refusing the job: its own message, status 1, nothing submitted" {
    # a PATH with every command but Slurm's (the first of a name; one ln
    # for all: an ln a command took 20 CPU-s for /usr/bin's 1,900)
    mkdir nos
    local f
    local -a link=()
    local -A seen=()
    for f in /usr/bin/* /bin/*; do
        case ${f##*/} in s*batch | squeue | scancel | scontrol | srun | sinfo) continue ;; esac
        [ -z "${seen[${f##*/}]:-}" ] || continue
        seen[${f##*/}]=1
        link+=("$f")
    done
    ln -s "${link[@]}" nos/
    [ -e nos/sh ] && [ ! -e nos/sbatch ] && [ ! -e nos/sinfo ]
    run -1 --separate-stderr env PATH="$TOP/bin:$PWD/nos" rft-batch --slurm -o out "$TR"/a.rft
    assert_equal "$stderr" "rft-batch: --slurm: sbatch not found: Slurm's client is not installed (or run without --slurm)"
    mkdir fake
    printf '#!/bin/sh\necho "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2\nexit 1\n' > fake/sbatch
    chmod +x fake/sbatch
    run -1 --separate-stderr env PATH="$TOP/bin:$PWD/fake:$PWD/nos" rft-batch --quiet --slurm --partition nope -o out2 "$TR"/a.rft
    assert_equal "$stderr" "rft-batch: sbatch: error: Batch job submission failed: Invalid partition name specified"
    [ ! -e out2/slurm/jobs ] && [ ! -e out2/table.tsv ]
    # the scripts are kept, the options in them
    grep -q -- "--partition='nope'" out2/slurm/submit.sh
}

@test "a study given as a pipeline of stages; a manifest with labels" {
    printf '# label after a tab\n%s\tfirst\nb.tsv\n' "$TR/a.rft" > list
    cp "$TR"/b.tsv .
    run -0 rft-batch --pipeline 'rft-alloc --scheme rar | rft-duty | rft-vth --format tsv' --manifest list -o out
    run -0 cut -f1 out/traces.tsv
    assert_output "$(printf 'first\nb')"
    rft-alloc --scheme rar "$TR"/a.rft | rft-duty | rft-vth --format tsv > first.tsv
    cmp first.tsv out/traces/first/result.tsv
    run -0 pipe "rft-collect --format tsv --columns longest_0%,avg_0% out | grep -v '^#'"
    assert_line --index 1 "$(printf 'first\tmap\t%s\t%s' "$(awk -F '\t' '$1 == "all" && $2 == "longest_0%" { print $3 }' first.tsv)" \
        "$(awk -F '\t' '$1 == "all" && $2 == "avg_0%" { print $3 }' first.tsv)")"
    assert_line --index 3 --regexp '^mean	map	'
    grep -q -F 'rft-alloc --scheme rar | rft-duty | rft-vth --format tsv' out/Makefile
    printf 'x.tsv\tno/slash\n' > bad.list
    touch x.tsv
    run -1 --separate-stderr rft-batch --manifest bad.list -o out3
    assert_equal "$stderr" "rft-batch: ./x.tsv: label 'no/slash' is not letters, digits and _.+- (give one in a manifest)"
}

@test "undervolting and healing: the rows of rft-dcpatch, rft-energy and rft-heal for each trace" {
    rft-batch --study undervolt -o uv "$TR"/a.rft
    rft-faultmap --scenario dispersed --seed 1 "$TR"/a.rft | rft-dcpatch --summary=dis.tsv --format tsv -o dis.rft
    run -0 awk -F '\t' '$1 == "dispersed"' uv/traces/a/writes.tsv
    assert_output "dispersed	$(awk -F '\t' '$1 == "total"' dis.tsv | cut -f2-)"
    run -0 pipe "rft-collect --format tsv --key dispersed --columns vs_smooth%,lds% uv | grep -v '^#'"
    assert_output "$(printf 'trace\tvs_smooth%%\tlds%%\na\t%s\t%s\nmean\t%s\t%s' \
        "$(cell uv/traces/a/energy.tsv dispersed vs_smooth%)" "$(cell dis.tsv total lds%)" \
        "$(cell uv/traces/a/energy.tsv dispersed vs_smooth%)" "$(cell dis.tsv total lds%)")"
    rft-batch --study healing -o heal "$TR"/a.rft
    rft-heal --scheme sc --report units --format tsv "$TR"/a.rft > units.tsv
    run -0 pipe "rft-collect --format tsv --key 1 --columns dvth_naive_mV,dvth_reduction%,overhead% heal | grep -v '^#'"
    assert_line --index 1 "a	$(awk -F '\t' '$2 == "degraded" { print $6 "\t" $10 }' units.tsv)	0.00"
    [ -s heal/figures/fig9-overhead.svg ] && [ -s uv/figures/fig8-energy.svg ]
}

@test "progress on a terminal: traces done of all, elapsed time" {
    run -0 script -qec "rft-batch -j 2 -o out $SM/a.rft $SM/b.tsv" /dev/null
    # the elapsed time as M:SS, whatever the machine's speed (a sanitizer build
    # under load takes over 10 s)
    [[ $output =~ "rft-batch: 2/2 traces done, "[0-9]+:[0-5][0-9]" elapsed" ]]
    # --quiet: none, as the other programs and the study scripts
    run -0 script -qec "rft-batch --quiet -j 2 -o out2 $SM/a.rft $SM/b.tsv; echo status=\$?" /dev/null
    assert_output $'status=0\r'
    [ -s out2/table.txt ]
    run -0 rft batch --list
    assert_line --regexp '^aging +seed 002 section 6'
    assert_line --regexp '^healing +seed 003'
}

# ---- rft-collect on hand-made results -------------------------------------------

@test "rft-collect: a row per trace and scheme (rft-vth's maps turned to rows), the mean of each" {
    run -0 --separate-stderr rft-collect "$C"
    assert_equal "$stderr" ""
    assert_output "$(cat <<'EOF'
trace  scheme  longest_0%  longest_0_red%  saving%
k1     base        100.00                     0.00
k1     rc           60.00           40.00   26.281
k2     base         80.00                     0.00
k2     rc           20.00           75.00     30.5
k3     base          0.00                     0.00
k3     rc           10.00             nan      1e1
k3     argo                                   5.00
mean   base         60.00                     0.00
mean   rc           30.00             nan  22.2603
mean   argo                                   5.00
EOF
)"
    # every column; one of the same name in a later result gets its stem
    run -0 rft-collect --format tsv --columns all "$C"
    assert_line --index 0 "$(printf 'trace\tscheme\twindow\tlongest_0%%\tlongest_0_red%%\tcycles\tsaving%%\tenergy.cycles')"
    assert_line --index 1 "$(printf 'k1\tbase\tslice 0..100\t100.00\t\t100\t0.00\t10')"
    assert_line --index 8 "$(printf 'mean\tbase\t\t60.00\t\t52.67\t0.00\t20')"
    run -0 rft-collect --format csv --columns window,vth.cycles "$C" energy.tsv vth.tsv
    assert_line --index 0 'trace,scheme,window,vth.cycles'
    assert_line --index 1 'k1,base,slice 0..100,100'
    assert_line --index 3 'k2,base,slice 0..50,51'
    run -0 rft-collect --format json --columns longest_0_red%,saving% "$C"
    assert_line --index 5 '{"trace": "k3", "scheme": "rc", "longest_0_red%": null, "saving%": 1e1}'
    assert_line --index 7 '{"trace": "mean", "scheme": "base", "longest_0_red%": null, "saving%": 0.00}'
    run -0 rft-collect --format tsv --pivot longest_0% "$C"
    assert_output "$(printf 'trace\tbase\trc\nk1\t100.00\t60.00\nk2\t80.00\t20.00\nk3\t0.00\t10.00\nmean\t60.00\t30.00')"
    run -0 rft-collect --format tsv --key argo --columns saving% "$C"
    assert_output "$(printf 'trace\tsaving%%\nk3\t5.00\nmean\t5.00')"
}

@test "rft-collect: bad folders, results and options" {
    run -1 --separate-stderr rft-collect .
    assert_equal "$stderr" "rft-collect: .: not a batch folder: no traces.tsv (see rft-batch(1))"
    cp -r "$C" c
    rm c/k2/energy.tsv
    run -1 --separate-stderr rft-collect c
    assert_equal "$stderr" "rft-collect: c/k2: no energy.tsv: the trace is not done (rft-batch --status c)"
    printf 'scheme\tx\nbase\t1\t2\n' > c/k1/energy.tsv
    run -1 --separate-stderr rft-collect --partial c
    assert_equal "$stderr" "$(printf '%s\n' 'rft-collect: warning: c/k2: no energy.tsv: left out' \
        'rft-collect: c/k1/energy.tsv: line 2: 3 fields, the header has 2')"
    run -2 --separate-stderr rft-collect --columns nope "$C"
    [[ $stderr == "rft-collect: --columns: 'nope' is not a column of the results in $C"* ]]
    run -2 --separate-stderr rft-collect --key 1 --pivot x "$C"
    [[ $stderr == "rft-collect: --key and --pivot do not go together"* ]]
    run -1 --separate-stderr rft-collect -o /dev/full "$C"
    assert_equal "$stderr" "rft-collect: /dev/full: No space left on device"
    # -o: the table appears whole or not at all
    run -1 rft-collect -o c/t.txt c
    [ ! -e c/t.txt ] && [ -z "$(ls c | grep tmp)" ]
    rft-collect -o t.txt "$C"
    cmp t.txt <(rft-collect "$C")
}

@test "rft-collect --format json: every line is JSON, numbers only in JSON's own form" {
    mkdir -p j/k
    printf 'k\t/nowhere\n' > j/traces.tsv
    printf 'scheme\ta\tb\tc\td\te\nr\t0x10\t.5\t-0.25e+3\tinf\t+1\n' > j/k/r.tsv
    run -0 pipe "rft-collect --format json j r.tsv | python3 -c 'import sys, json; [print(json.loads(l)) for l in sys.stdin]'"
    assert_output "$(printf '%s\n' \
        "{'trace': 'k', 'scheme': 'r', 'a': '0x10', 'b': '.5', 'c': -250.0, 'd': None, 'e': '+1'}" \
        "{'trace': 'mean', 'scheme': 'r', 'a': 16, 'b': 0.5, 'c': -250, 'd': None, 'e': 1}")"
}
