#!/usr/bin/env bats
# rft run: pipelines of stages in one process give exactly the bytes and
# tables of the same programs joined by shell pipes; errors as the failing
# program reports them; pipelines that do not parse are usage errors.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    rft-synth --writes 4000 --seed 7 | rft-alloc --scheme rar > p.rft
}

@test "gate | duty in one process: the same stream and summary as the shell pipeline" {
    pipe 'rft-gate --scheme rc p.rft | rft-duty -s sh.tsv -f tsv > sh.rft'
    rft run 'gate --scheme rc p.rft | duty -s run.tsv -f tsv' > run.rft
    cmp sh.rft run.rft
    cmp sh.tsv run.tsv
    # the stream really is a gated duty map
    run rft-view -H run.rft
    assert_output --regexp 'gate +scheme=rc'
    assert_output --regexp 'producer +rft-duty'
}

@test "pipelines that begin alike share their first stages and each gets its own output" {
    rft run 'gate --scheme wc p.rft | duty -o wc.rft' 'gate --scheme wc p.rft | duty --span stream -o wcs.rft' \
        'gate --scheme rc p.rft -o rc.rft' 'duty -o base.rft p.rft'
    pipe 'rft-gate --scheme wc p.rft | rft-duty' | cmp - wc.rft
    pipe 'rft-gate --scheme wc p.rft | rft-duty --span stream' | cmp - wcs.rft
    rft-gate --scheme rc p.rft | cmp - rc.rft
    rft-duty p.rft | cmp - base.rft
}

@test "a stage's summary to standard output, the stream to a file" {
    rft run 'gate p.rft | duty --summary -o m.rft' > run.txt
    pipe 'rft-gate p.rft | rft-duty --summary -o m0.rft' > sh.txt
    cmp run.txt sh.txt
    cmp m.rft m0.rft
    grep -q '^all ' run.txt
}

@test "a failing stage: the program's message with its input and record, no end record" {
    rft-synth --writes 200 --seed 1 > raw.rft          # no physical entries
    run -1 --separate-stderr rft run "gate raw.rft | duty -o out.rft"
    [ "$stderr" = "$(rft-gate raw.rft 2>&1 >/dev/null)" ]
    assert_equal "$stderr" "rft-gate: raw.rft: record 3: no physical entries: run rft-alloc first"
    [ ! -e out.rft ]
    # a later stage names its input "-", as in a shell pipeline
    run -1 --separate-stderr rft run "gate p.rft | duty | duty -o out.rft"
    assert_equal "$stderr" "$(pipe 'rft-gate p.rft | rft-duty | rft-duty -o out.rft' 2>&1)"
    assert_equal "$stderr" "rft-duty: -: record 1: the input is a duty map already (rft-merge(1) adds maps)"
    [ ! -e out.rft ]
    # and on standard output the stream has no end record
    rft run "gate raw.rft | duty" > part.rft || :
    run -1 rft-view part.rft
}

@test "a truncated input: the first stage's message, every output left without its end record" {
    head -c 2000 p.rft > cut.rft
    run -1 --separate-stderr rft run 'gate cut.rft | duty -o a.rft' 'duty -o b.rft cut.rft'
    assert_equal "$stderr" "$(rft-gate cut.rft 2>&1 >/dev/null)"
    [ ! -e a.rft ] && [ ! -e b.rft ]
}

@test "pipelines that do not parse are usage errors (exit 2)" {
    run -2 --separate-stderr rft run 'gate p.rft | frobnicate'
    assert_equal "${stderr%%$'\n'*}" "rft run: 'frobnicate' is not a stage (rft(1) lists them) (see rft run --help)"
    run -2 --separate-stderr rft run "gate 'p.rft | duty"
    assert_equal "${stderr%%$'\n'*}" "rft run: 'gate 'p.rft | duty': a ' without its end (see rft run --help)"
    run -2 rft run 'gate p.rft |'
    run -2 rft run '| duty'
    run -2 rft run 'gate p.rft || duty'
    run -2 rft run
    run -2 --separate-stderr rft run 'gate p.rft | duty q.rft'
    assert_equal "${stderr%%$'\n'*}" "rft-duty: in a pipeline only the first stage reads a file (see rft-duty --help)"
    run -2 rft run 'gate -o x.rft p.rft | duty'
    run -2 rft run 'gate --scheme xx p.rft | duty'
    run -2 rft run 'gate p.rft | duty' 'duty q.rft'
    run -2 rft run 'gate p.rft' 'duty p.rft'
}

@test "quoting as in sh; a stage's --help" {
    cp p.rft 'a b.rft'
    rft run "duty \"a b.rft\" -o 'm 1.rft'" "duty a\\ b.rft --span stream -o m2.rft"
    rft-duty p.rft | cmp - 'm 1.rft'
    rft-duty --span stream p.rft | cmp - m2.rft
    run -0 rft run 'gate --help'
    assert_output "$(rft-gate --help)"
    run -0 rft help
    assert_output --partial 'run        Pipelines of stages in one process'
}

@test "examples/gate-inline.c: a gate stage inline, records made in C, no files" {
    run -0 "$TOP/examples/gate-inline"
    assert_output - <<'EOF2'
write 1: v0 in entry 0, 0 bits powered
write 2: v0 in entry 0, 2048 bits powered (woken up)
write 3: v0 in entry 0, 0 bits powered
switch-offs 2, wake-ups 1, compression-table writes 2
EOF2
}

@test "alloc, classify, dcpatch, faultmap, synth and energy --scan in rft run, as in shell pipes" {
    pipe 'rft-synth --writes 3000 --seed 4 | rft-classify | rft-alloc --scheme argo | rft-gate --scheme wc | rft-duty' > sh.rft
    rft run 'synth --writes 3000 --seed 4 | classify | alloc --scheme argo | gate --scheme wc | duty' > run.rft
    cmp sh.rft run.rft
    pipe 'rft-faultmap --scenario clustered --seed 3 p.rft | rft-dcpatch --summary=sh.tsv' > sh.rft
    rft run 'faultmap --scenario clustered --seed 3 p.rft | dcpatch --summary=run.tsv' > run.rft
    cmp sh.rft run.rft
    cmp sh.tsv run.tsv
    # energy prices a scan as it prices the stream scanned
    rft run 'gate --scheme rc p.rft | energy --scan -o g.scan' 'gate --scheme rc p.rft -o g.rft'
    rft-energy rar=p.rft rcrar=g.rft > sh.txt
    rft-energy rar=p.rft rcrar=g.scan > run.txt
    cmp sh.txt run.txt
    run -2 --separate-stderr rft run 'energy p.rft'
    run -2 --separate-stderr rft run 'gate p.rft | classify --bs auto'
    assert_equal "${stderr%%$'\n'*}" "rft run: classify --bs auto reads its input twice: only as the first stage (see rft run --help)"
}

@test "classify --bs auto as a first stage: each kernel's block size, as the program alone" {
    rft run 'classify --bs auto -s run.tsv -f tsv p.rft | duty -o run.rft' 'classify p.rft -o fixed.rft'
    pipe 'rft-classify --bs auto -s sh.tsv -f tsv p.rft | rft-duty' | cmp - run.rft
    cmp sh.tsv run.tsv
    rft-classify p.rft | cmp - fixed.rft
    # reduction's writes fit blocks of 1 best, vecadd's the default 8
    run cut -f1,2 run.tsv
    assert_line "reduction	1"
    assert_line "vecadd	8"
}
