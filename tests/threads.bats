#!/usr/bin/env bats
# rft run --threads N (issue 23): stages fed from threads of their own give
# the bytes, tables and messages of one thread, whatever N.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    rft-synth --writes 4000 --seed 7 -o s.rft
    rft-alloc --scheme rar s.rft > p.rft
}

# the aging study's shape: pipelines sharing their first stages, streams
# and tables to files
many() {
    rft run --threads "$1" \
        "alloc s.rft | duty -o $1.base.rft" \
        "alloc --scheme rar s.rft | gate --scheme rc | duty -s $1.rcrar.tsv -f tsv -o $1.rcrar.rft" \
        "alloc --scheme rar s.rft | gate --scheme wc | energy --scan -o $1.wc.scan" \
        "alloc --scheme rar s.rft | duty --span stream -o $1.rar.rft" \
        "alloc --scheme argo s.rft | classify | gate | duty -o $1.argo.rft" \
        "alloc --scheme argo s.rft | classify -o $1.cls.rft"
}

@test "rft run --threads 1, 2, 3, 8: the same streams and tables, those of the shell pipelines" {
    for t in 1 2 3 8; do many "$t"; done
    for t in 2 3 8; do
        for f in base.rft rcrar.rft rcrar.tsv wc.scan rar.rft argo.rft cls.rft; do
            cmp "1.$f" "$t.$f"
        done
    done
    pipe 'rft-alloc --scheme rar s.rft | rft-gate --scheme rc | rft-duty -s sh.tsv -f tsv' | cmp - 1.rcrar.rft
    cmp sh.tsv 1.rcrar.tsv
    pipe 'rft-alloc --scheme argo s.rft | rft-classify | rft-gate | rft-duty' | cmp - 1.argo.rft
    # RFT_THREADS is the default, --threads wins
    RFT_THREADS=5 rft run 'alloc --scheme rar s.rft | gate --scheme rc | duty -o e.rft'
    cmp e.rft 1.rcrar.rft
    RFT_THREADS=x rft run --threads 3 'alloc --scheme rar s.rft | gate --scheme rc | duty -o e.rft'
}

@test "rft run --threads: a source first (synth, decode --flush), a stream to standard output" {
    pipe 'rft-synth --writes 3000 --seed 4 | rft-classify | rft-alloc --scheme argo | rft-gate --scheme wc | rft-duty' > sh.rft
    rft run --threads 4 'synth --writes 3000 --seed 4 | classify | alloc --scheme argo | gate --scheme wc | duty' > run.rft
    cmp sh.rft run.rft
    rft-view s.rft > s.tsv
    rft run --threads 1 'decode --flush s.tsv | alloc | gate -o d1.rft' 'decode --flush s.tsv | alloc | duty -o d1.map'
    rft run --threads 4 'decode --flush s.tsv | alloc | gate -o d4.rft' 'decode --flush s.tsv | alloc | duty -o d4.map'
    cmp d1.rft d4.rft
    cmp d1.map d4.map
}

@test "rft run --threads: lines of two views in the order of one thread" {
    rft run --threads 1 'view --kind W p.rft' 'gate p.rft | view --kind W' > one.txt
    rft run --threads 6 'view --kind W p.rft' 'gate p.rft | view --kind W' > six.txt
    cmp one.txt six.txt
    [ "$(wc -l < six.txt)" -gt 8000 ]
}

@test "rft run --threads: a failing stage, a truncated input: the messages of one thread" {
    rft-synth --writes 2000 --seed 1 > raw.rft          # no physical entries
    head -c 200000 raw.rft > cut.rft                    # ends in record 2068
    for t in 2 4 8; do
        # two stages fail at record 3: the one fed first (duty, which only
        # reads records, before gate)
        run -1 --separate-stderr rft run --threads "$t" "gate raw.rft | duty -o out.rft" "duty raw.rft -o m.rft"
        assert_equal "$stderr" "rft-duty: raw.rft: record 3: no physical entries: run rft-alloc first"
        [ ! -e out.rft ] && [ ! -e m.rft ]
        # the stage fails before the record where the input ends: its message,
        # however far the reading went
        run -1 --separate-stderr rft run --threads "$t" "gate cut.rft | duty -o out.rft"
        assert_equal "$stderr" "rft-gate: cut.rft: record 3: no physical entries: run rft-alloc first"
        # and the input's end comes first where nothing fails before it
        head -c 2000 p.rft > cut2.rft
        run -1 --separate-stderr rft run --threads "$t" 'gate cut2.rft | duty -o a.rft' 'duty -o b.rft cut2.rft'
        assert_equal "$stderr" "$(rft-gate cut2.rft 2>&1 >/dev/null)"
        [ ! -e a.rft ] && [ ! -e b.rft ]
    done
    # on standard output the stream has no end record
    rft run --threads 4 "gate raw.rft | duty" > part.rft 2>/dev/null || :
    run -1 rft-view part.rft
}

@test "rft run --threads: usage errors" {
    run -2 --separate-stderr rft run --threads 0 'duty p.rft'
    [[ ${stderr_lines[0]} == "rft run: --threads: "* ]]
    run -2 --separate-stderr rft run --threads
    run -2 --separate-stderr rft run --threads=x 'duty p.rft'
    RFT_THREADS=0 run -2 --separate-stderr rft run 'duty p.rft'
    [[ ${stderr_lines[0]} == "rft run: RFT_THREADS: "* ]]
    run -0 rft run --help
    assert_output --partial '--threads N'
}

# The threads of a running `rft run` whose input waits in a FIFO (the
# stages started: every record read, the end of the file not yet), given
# environment $@.
threads_of_run() {
    mkfifo in.fifo
    (cat s.rft; exec sleep 30) > in.fifo 2>/dev/null &
    local feeder=$!
    env "$@" rft run 'alloc --scheme rar in.fifo | gate --scheme rc | duty -o f.rft' 2>/dev/null &
    local pid=$! n=0
    sleep 1                 # the stages started, the threads with them
    n=$(ls "/proc/$pid/task" 2>/dev/null | wc -l)
    kill "$pid" "$feeder" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    rm -f in.fifo
    echo "$n"
}

@test "rft run: the default is one thread below 4 processors, one a processor from there (issue 37)" {
    procs=$(getconf _NPROCESSORS_ONLN)
    one=$(threads_of_run RFT_THREADS=1)     # the main thread and the input's read-ahead
    n=$(threads_of_run -u RFT_THREADS)
    if [[ $procs -lt 4 ]]; then
        [[ $n -eq $one ]]
    else
        [[ $n -gt $one ]]
    fi
    # --threads and RFT_THREADS keep their meaning whatever the processors
    [[ $(threads_of_run RFT_THREADS=3) -gt $one ]]
    rft run --help | grep -q 'processors online where'
}
