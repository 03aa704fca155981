#!/usr/bin/env bats
# rft-batch and the stages against hostile names and signals (issue 21, items
# 4-9): no user string runs as make or sh code, INT/TERM/HUP stop a batch
# within a second and --status says so, a signal leaves no temporary file, a
# failed run leaves an older side output as it was, a trace's label never
# collides with the batch's own files, and rft run refuses one -o for two
# pipelines.

load test_helper

setup_file() {
    make_suite "$BATS_FILE_TMPDIR/traces"
    # an allocated stream and its text (for stages fed through a fifo)
    rft-synth --writes 3000 --seed 4 | rft-alloc -o "$BATS_FILE_TMPDIR/al.rft"
    rft-view "$BATS_FILE_TMPDIR/al.rft" > "$BATS_FILE_TMPDIR/al.tsv"
}

setup() {
    cd "$BATS_TEST_TMPDIR"
    TR="$BATS_FILE_TMPDIR/traces"
    AL="$BATS_FILE_TMPDIR/al.rft"
    CHEAP='rft-alloc --scheme rar | rft-duty | rft-vth --format tsv'
}

# ---- item 4: no injection ---------------------------------------------------------

@test "a folder name with a newline is refused (exit 2) before anything is written; make never runs it" {
    run -2 --separate-stderr rft-batch -o $'x\n$(shell touch PWNED)\n#' "$TR"/a.rft
    assert_equal "$stderr" "rft-batch: -o: a control character (a newline, a tab, ...) is not allowed in 'x?\$(shell touch PWNED)?#' (see rft-batch --help)"
    [ ! -e PWNED ] && ! compgen -G 'x*' > /dev/null
    run -2 --separate-stderr rft-batch --status $'x\ny'
    [[ $stderr == "rft-batch: --status: a control character"* ]]
    run -2 --separate-stderr rft-batch --pipeline $'rft-view\r' -o out "$TR"/a.rft
    [[ $stderr == "rft-batch: --pipeline: a control character"* ]]
    run -2 --separate-stderr rft-batch --slurm --partition $'p\n#SBATCH --x' -o out "$TR"/a.rft
    [[ $stderr == "rft-batch: --partition: a control character"* ]]
    run -2 --separate-stderr rft-batch --slurm --time=$'1\t0' -o out "$TR"/a.rft
    [[ $stderr == "rft-batch: --time: a control character"* ]]
    run -2 --separate-stderr rft-batch --slurm --sbatch-args $'--x\n--y' -o out "$TR"/a.rft
    [[ $stderr == "rft-batch: --sbatch-args: a control character"* ]]
    run -2 --separate-stderr rft-batch --slurm --sbatch-args "--comment='open" -o out "$TR"/a.rft
    assert_equal "$stderr" "rft-batch: --sbatch-args: unmatched single quote (see rft-batch --help)"
    cp "$TR"/a.rft $'a\033b.rft'
    run -2 --separate-stderr rft-batch -o out $'a\033b.rft'
    [[ $stderr == "rft-batch: a trace: a control character"* ]]
    # in a manifest (data, status 1), with its line
    printf 'x.rft\tok\n%s\tbad\r\n' "$TR/a.rft" > list
    cp "$TR"/a.rft x.rft
    run -1 --separate-stderr rft-batch -m list -o out
    assert_equal "$stderr" "rft-batch: list: line 2: a control character (a carriage return, a second tab, ...) in a path or label"
    [ ! -e out ] && [ ! -e PWNED ]
}

# every character make or sh treats specially, and the commands they could run
HOSTILE=$'o $x #y %z :a =b *c \'q" \\e `touch PWNED` $(touch PWNED) $$(shell touch PWNED) ;|&<>'

@test "a batch folder and trace files named with make's and sh's special characters: the batch runs, nothing is executed" {
    local d="$HOSTILE"
    mkdir t
    cp "$TR"/a.rft "t/$HOSTILE.rft"
    cp "$TR"/b.tsv "t/b.tsv"
    printf '%s\tfirst\nb.tsv\n' "$HOSTILE.rft" > t/list
    run -0 --separate-stderr rft-batch --quiet --pipeline "$CHEAP" -m t/list -o "$d"
    assert_equal "$stderr" ""
    [ -s "$d/table.tsv" ] && [ -s "$d/traces/first/result.tsv" ]
    rft-alloc --scheme rar "t/$HOSTILE.rft" | rft-duty | rft-vth --format tsv | cmp - "$d/traces/first/result.tsv"
    [ "$(readlink "$d/traces/first/input")" = "$PWD/t/$HOSTILE.rft" ]
    run -0 rft-batch --status "$d"
    assert_line '2 traces: 2 done, 0 running, 0 failed, 0 waiting'
    run -0 pipe "rft-collect --format tsv $(printf '%q' "$d") | grep -v '^#'"
    assert_line --index 1 --regexp '^first	'
    # a rerun, and the aging study (its figures) in such a folder
    run -0 rft-batch -o "$d"
    printf '%s\tfirst\n' "$HOSTILE.rft" > t/one
    rft-batch -o "$d.aging" -m t/one
    [ -s "$d.aging/figures/fig13-longest0.svg" ]
    # a pipeline with $, #, %, quotes and backslashes reaches the shell as written
    local pipe='rft-view | awk -v q="it'"'"'s" '"'"'$1 == "W" { n++ } END { printf "key\tn%%\n#x\t%d\n", n; if (q != "it\x27s") exit 1 }'"'"' | sed "s/#/%/; s/\\t/\t/"'
    rft-batch --pipeline "$pipe" -o "$d.pipe" -m t/one
    sh -c "$pipe" < "t/$HOSTILE.rft" | cmp - "$d.pipe/traces/first/result.tsv"
    [ -z "$(find . -name PWNED)" ]
}

@test "Slurm: the folder, --partition, --time, --mem and --sbatch-args reach sbatch as the words given, the scripts run in that folder" {
    # Slurm reads % and \ in its output files' names, which are in the folder
    run -2 --separate-stderr rft-batch --slurm -o "$HOSTILE" "$TR"/a.rft
    assert_equal "$stderr" "rft-batch: --slurm: the batch folder's path '$PWD/$HOSTILE' has a % or a \\, which Slurm reads in its output file names (see rft-batch --help)"
    [ ! -e "$HOSTILE" ]
    local d=${HOSTILE//[%\\]/}
    mkdir fake
    cat > fake/sbatch <<'EOF'
#!/bin/sh
n=$(cat "$SB_LOG.n" 2>/dev/null || echo 0); echo $((n + 1)) > "$SB_LOG.n"
{ printf 'call %d in %s\n' $((n + 1)) "$PWD"; printf '[%s]\n' "$@"; } >> "$SB_LOG"
echo "10$n"
EOF
    chmod +x fake/sbatch
    export SB_LOG="$PWD/sb.log"
    run -0 --separate-stderr env PATH="$PWD/fake:$PATH" rft-batch --slurm --pipeline "$CHEAP" \
        --partition "p \$(touch PWNED)" --time "1'0" --mem '`touch PWNED`' \
        --sbatch-args "--comment='a b' --x=\$(touch\\ PWNED) \"c;d\"" -o "$d" "$TR"/a.rft
    assert_output "100 101"
    local opts=$'[--partition=p $(touch PWNED)]\n[--time=1\'0]\n[--mem=`touch PWNED`]\n[--comment=a b]\n[--x=$(touch PWNED)]\n[c;d]'
    run -0 cat sb.log
    assert_output "$(printf 'call 1 in %s\n[--parsable]\n[--array=0-0]\n%s\n[slurm/array.sh]\ncall 2 in %s\n[--parsable]\n[--dependency=afterok:100]\n[--kill-on-invalid-dep=yes]\n%s\n[slurm/collect.sh]' \
        "$PWD/$d" "$opts" "$PWD/$d" "$opts")"
    [ ! -e PWNED ] && [ ! -e "$d/PWNED" ]
    # what the nodes would run: the task, then the collecting job, from anywhere
    (cd / && SLURM_ARRAY_TASK_ID=0 sh "$OLDPWD/$d/slurm/array.sh")
    (cd / && sh "$OLDPWD/$d/slurm/collect.sh")
    [ -s "$d/traces/a/result.tsv" ] && [ -s "$d/table.tsv" ]
    [ -z "$(find . -name PWNED)" ]
}

# ---- item 5: signals stop a local batch ---------------------------------------------

# rft-batch $@ in the background, as a shell with job control starts it (INT
# and HUP not ignored, even under nohup); pid: its pid, mk: make's, once it runs
batch_bg() {
    env $SIG_DEFAULTS rft-batch "$@" 2> err &
    pid=$!
    local i
    for ((i = 0; i < 200; i++)); do
        mk=$(pgrep -P $pid -x make || :)
        [ -n "$mk" ] && [ -n "$(pgrep -g "$mk" -x rft-view || :)" ] && return
        sleep 0.1
    done
    false
}

# the live processes of process group $1 (zombies left out)
live_in_group() { ps -eo pgid=,stat=,args= | awk -v g="$1" '$1 == g && $2 !~ /^Z/'; }

@test "INT, TERM, HUP stop a local batch and every stage within a second; --status says interrupted; a rerun resumes" {
    local sig st t0 t1 pid mk i
    # a study that would run for hours
    local slow='rft-repeat -n 1000000 | rft-view --stats'
    sig_note
    for sig in INT TERM HUP; do
        batch_bg --quiet -j 2 --pipeline "$slow" -o out$sig "$TR"/a.rft "$TR"/b.tsv
        sleep 0.3
        t0=$(date +%s%N)
        kill -$sig $pid
        st=0
        for ((i = 0; i < 50; i++)); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
        t1=$(date +%s%N)
        if kill -0 $pid 2>/dev/null; then       # still running: clean up, fail
            kill -KILL -$mk $pid 2>/dev/null || :
            wait_at_most 10 $pid || :
            echo "SIG$sig did not stop rft-batch within 5 s" >&2
            false
        fi
        wait_at_most 10 $pid || st=$?
        echo "SIG$sig: $(( (t1 - t0) / 1000000 )) ms, status $st" >&3
        [ $st -eq $((128 + $(kill -l $sig))) ]
        [ $(( (t1 - t0) / 1000000 )) -lt 2000 ]
        [ -z "$(live_in_group $mk)" ]
        run -0 cat err
        assert_output "rft-batch: stopped by SIG$sig: 0/2 traces done; a rerun resumes the others"
        run -1 rft-batch --status out$sig
        assert_output "$(printf '%s\n' \
            'trace    state     detail' \
            "a        interrupted  the run was stopped by SIG$sig; a rerun resumes it" \
            "b        interrupted  the run was stopped by SIG$sig; a rerun resumes it" \
            "(table)  not run   the run was stopped by SIG$sig" \
            '2 traces: 0 done, 0 running, 0 failed, 0 waiting, 2 interrupted')"
        [ ! -e out$sig/table.tsv ] && [ ! -e out$sig/traces/a/result.tsv ]
    done
    # the rerun (another pipeline cannot reuse the folder: a new one) completes
    sed -i "s/rft-repeat -n 1000000 | rft-view --stats/rft-view --stats/" outINT/Makefile
    run -0 --separate-stderr rft-batch -o outINT
    assert_equal "$stderr" ""
    run -0 rft-batch --status outINT
    assert_line '2 traces: 2 done, 0 running, 0 failed, 0 waiting'
    [ ! -e outINT/interrupted ]
}

# ---- item 6: no temporary file left by a signal -------------------------------------

# Run the command $2 (a shell word list, F2 for the stream input, F1 for a
# text one) with the stream $AL fed slowly through fifos, send it signal $1
# once its temporary output exists: it must die of the signal and leave no
# *.tmp* file.
signal_leaves_nothing() {
    local sig=$1 cmd=$2 st=0 i
    rm -f f1 f2 ./*.tmp*
    mkfifo f1 f2
    if [[ $cmd == *F2* ]]; then
        rft-decode --flush -o f2 f1 3>&- &
        dec=$!
    else
        dec=""
    fi
    local c=${cmd//F2/f2}
    env $SIG_DEFAULTS bash -c "exec ${c//F1/f1}" 3>&- &
    local pid=$!
    exec 4> f1
    cat "$BATS_FILE_TMPDIR/al.tsv" >&4
    for ((i = 0; i < 100; i++)); do
        compgen -G '*.tmp*' > /dev/null && break
        sleep 0.05
    done
    compgen -G '*.tmp*' > /dev/null       # it is writing
    kill -$sig $pid
    wait_at_most 30 $pid || st=$?
    exec 4>&-
    [ -z "$dec" ] || wait_at_most 30 $dec || :
    echo "$cmd: SIG$sig: status $st, left: $(ls | grep tmp | tr '\n' ' ')" >&3
    [ $st -eq $((128 + $(kill -l $sig))) ]
    [ -z "$(ls | grep '\.tmp')" ]
}

@test "INT, TERM, HUP: every stage and rft run remove their temporary -o and side outputs, and die of the signal" {
    local sig
    sig_note
    for sig in INT TERM HUP; do
        signal_leaves_nothing $sig 'rft-duty --summary=s.txt -o x.rft F2'
        signal_leaves_nothing $sig "rft run 'duty F2 -o y.rft' 'gate F2 | duty -o x.rft'"
        signal_leaves_nothing $sig 'rft-decode -o x.rft F1'
    done
    signal_leaves_nothing TERM 'rft-alloc --util=u.txt --recovery=r.txt -o x.rft F2'
    signal_leaves_nothing HUP 'rft-gate --summary=s.txt -o x.rft F2'
    signal_leaves_nothing INT 'rft-classify --summary=s.txt -o x.rft F2'
    signal_leaves_nothing TERM 'rft-repeat -n 2 -o x.rft F2'
    signal_leaves_nothing HUP 'rft-view -o x.txt F2'
    signal_leaves_nothing INT 'rft-energy --scan -o x.scan F2'
    signal_leaves_nothing TERM "rft run 'faultmap --scenario common F2 | dcpatch --log l.txt --summary=s.txt -o x.rft'"
    signal_leaves_nothing HUP 'rft-faultmap --scenario common -o x.rft F2'
}

@test "a rerun of rft-batch removes the temporaries a killed run left in the shards' folders" {
    rft-batch --shards 2 -o out "$TR"/a.rft
    local t=out/traces/a
    [ -d $t ] || t=out/a        # (the layout before; the test fails there as it should)
    echo half > $t/s0/base.rft.tmpAbC123
    echo half > $t/s1/rc.rft.part
    echo half > $t/vth.tsv.tmpXyZ789
    run -0 rft-batch -o out
    [ -z "$(find $t -name '*.tmp*' -o -name '*.part')" ]
}

# ---- item 7: a failed run leaves an older side output as it was ----------------------

@test "a failed run leaves --summary, --util, --recovery, --log of an earlier run as they were, and no temporary" {
    head -c $(($(stat -c %s "$AL") / 2)) "$AL" > cut.rft
    rft-faultmap --scenario common --seed 1 "$AL" -o fm.rft
    head -c $(($(stat -c %s fm.rft) / 2)) fm.rft > fmcut.rft
    local c good bad
    for c in 'rft-duty --summary=side -o x.rft IN' 'rft-gate --summary=side -o x.rft IN' \
        'rft-classify --summary=side -o x.rft IN' 'rft-alloc --util=side -o x.rft IN' \
        'rft-alloc --recovery=side -o x.rft IN' 'rft-dcpatch --log side -o x.rft FM' \
        'rft-dcpatch --summary=side -o x.rft FM' "rft run 'duty IN -o x.rft --summary=side'"; do
        rm -f side x.rft
        good=${c//IN/$AL} bad=${c//IN/cut.rft}
        good=${good//FM/fm.rft} bad=${bad//FM/fmcut.rft}
        bash -c "$good"
        [ -s side ] && cp side side.before && cp x.rft x.before
        run -1 bash -c "$bad"
        echo "$bad: side $(wc -c < side) bytes" >&3
        cmp side side.before
        cmp x.rft x.before
        [ -z "$(ls | grep '\.tmp')" ]
    done
}

# ---- item 8: labels that are the names of the batch's own files -----------------------

@test "traces labelled figures, table.txt, Makefile, make.log, traces.mk...: their folders stay apart, a rerun keeps them" {
    local l
    : > list
    # ten runs of the aging study: on a trace of two kernels and 300 writes
    # (the suite's are of six and 3,558), the names are what is tested
    rft-synth --kernels vecadd,reduction --writes 300 --seed 1 -o "$PWD/s.rft"
    for l in figures table.txt Makefile make.log traces.mk traces.tsv collect.conf slurm traces interrupted; do
        printf '%s\t%s\n' "$PWD/s.rft" "$l" >> list
    done
    run -0 --separate-stderr rft-batch --quiet -j 2 -m list -o out
    assert_equal "$stderr" ""
    for l in table.txt Makefile make.log traces.mk traces.tsv collect.conf slurm traces interrupted; do
        cmp out/traces/figures/vth.tsv out/traces/$l/vth.tsv
    done
    [ -d out/figures ] && [ -s out/table.txt ] && [ -f out/Makefile ]
    run -0 rft-collect --format tsv --columns saving% out
    [ "$(grep -vc '^#' <<< "$output")" -eq $((1 + 10 * 6 + 6)) ]
    stat -c '%i %Y %n' out/traces/*/vth.tsv > before
    sleep 1
    run -0 --separate-stderr rft-batch -o out
    assert_equal "$stderr" ""
    stat -c '%i %Y %n' out/traces/*/vth.tsv | cmp before -
    run -0 rft-batch --status out
    assert_line --regexp '^Makefile +done'
    assert_line '10 traces: 10 done, 0 running, 0 failed, 0 waiting'
}

@test "a batch folder of an earlier rft-batch (trace folders beside the Makefile): rerun, status and rft-collect still work" {
    rft-batch -o out "$TR"/a.rft
    # what an earlier rft-batch made
    mv out/traces/a out/a && rmdir out/traces
    sed -i -e '/^TRACE_DIR = traces$/d' -e 's#\$(TRACE_DIR)/##g' \
        -e 's#^LOG = .*#LOG = 2>>$(firstword $(subst /, ,$*))/log#' out/Makefile
    sed -i '/^folders /d' out/collect.conf
    cp out/table.tsv table.before
    run -0 rft-collect --format tsv out
    cmp - table.before <<< "$output"
    run -0 rft-batch --status out
    assert_line --regexp '^a +done'
    run -0 rft-batch -o out "$TR"/a.rft "$TR"/b.tsv
    [ -s out/b/vth.tsv ] && [ ! -e out/traces ]
    run -0 rft-batch --status out
    assert_line '2 traces: 2 done, 0 running, 0 failed, 0 waiting'
}

# ---- item 9: rft run, one -o for two pipelines ---------------------------------------

@test "rft run: two pipelines writing one -o file is a usage error (exit 2), the file left as it was" {
    echo old > x.rft
    run -2 --separate-stderr rft run "duty $AL -o x.rft" "gate $AL | duty -o x.rft"
    assert_equal "$stderr" "rft run: -o x.rft: more than one pipeline writes it (give each its own file) (see rft run --help)"
    mkdir d
    run -2 --separate-stderr rft run "duty $AL -o x.rft" "gate $AL | duty -o d/../x.rft"
    assert_equal "$stderr" "rft run: -o d/../x.rft: more than one pipeline writes it (give each its own file) (see rft run --help)"
    [ "$(cat x.rft)" = old ] && [ -z "$(ls | grep '\.tmp')" ]
    # one pipeline given twice is run once; a device may be written by both
    run -0 rft run "duty -o y.rft $AL" "duty -o y.rft $AL"
    rft-duty "$AL" | cmp - y.rft
    run -0 rft run "duty $AL -o /dev/null" "gate $AL | duty -o /dev/null"
}
