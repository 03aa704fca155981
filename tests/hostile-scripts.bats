#!/usr/bin/env bats
# The study scripts and rft-batch against unsafe names and folders (issue 31,
# items 14-18 and the broken file named like a trace).  Each test fails on
# the main before the fix.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    rft-synth --writes 1500 --seed 3 -o "$BATS_TEST_TMPDIR/good.rft"
}

@test "item 14: the scripts make their folders with mktemp, never a name another user can plant" {
    # was: $TMPDIR/rft-NAME.$$ with mkdir -p, and a fixed rft-demo-figures
    run grep -nE 'TMPDIR[^)]*(\$\$|rft-demo-figures"?$)' "$TOP"/examples/*.sh
    assert_output ''
    for s in aging undervolt demo; do
        grep -q 'mktemp -d' "$TOP/examples/$s.sh"
    done
    # a folder of their own, removed at the end: nothing left under TMPDIR
    mkdir tmp
    TMPDIR=$PWD/tmp run -0 sh "$TOP/examples/aging.sh" --quiet -r once -f tsv good.rft
    run -0 find tmp -mindepth 1
    assert_output ''
}

@test "item 15: traces in a folder named -tr are found (paths reach rft-view, basename and dirname after --)" {
    mkdir -- -tr
    cp good.rft -- -tr/t.rft
    printf 'K 0 k\nB 0 0 0 1 8 k 0\nE 5 0 0 1\n' > ./-tr/x.tsv
    run -0 --separate-stderr rft-batch --study aging -j 2 --quiet -o out -- -tr
    run -0 cut -f1 out/traces.tsv
    assert_output $'t\nx'
    # reproduce.sh hands its folders on after --
    grep -q -- '--output "$out/batch/$f" -- "$@"' "$TOP/examples/reproduce.sh"
}

@test "item 16: odd file names are labelled, said so, and the batch goes on" {
    mkdir suite
    cp good.rft "suite/a b.rft"
    cp good.rft "suite/é.rft"
    cp good.rft "suite/-x.rft"
    cp good.rft suite/a_b.rft
    run -0 --separate-stderr rft-batch --study aging -j 2 -o out suite
    run -0 cut -f1 out/traces.tsv
    assert_output $'x-x\na_b\na_b_2\n__'
    run -0 cat out/inputs.txt
    assert_line "rft-batch: suite/a b.rft: labelled a_b (a label is letters, digits and _.+-, not first . or -)"
    assert_line --partial "suite/é.rft: labelled __"
    [ -s out/table.tsv ]
    # the table's notes say which file each made label is, for that trace only
    run -0 cat out/table.txt
    assert_output --partial "label: a_b is the file suite/a b.rft (a label is letters, digits and _.+-, not first . or -) [traces: a_b]"
    assert_output --partial "label: x-x is the file suite/-x.rft (a label is"
    assert_output --partial "label: a_b_2 is the file suite/a_b.rft (the label a_b is another trace's) [traces: a_b_2]"
    refute_output --partial "label: mean"
    # inputs.txt says why too
    run -0 cat out/inputs.txt
    assert_line "rft-batch: suite/a_b.rft: labelled a_b_2 (the label a_b is another trace's)"
}

@test "item 17: reproduce.sh writes the report's paths and labels with printf, never echo" {
    run grep -nE '\becho\b[^|]*\$' "$TOP/examples/reproduce.sh"
    assert_output ''
}

@test "item 18: a batch stopped by TERM leaves no half-written *.part file" {
    mkdir suite
    # traces long enough that a result is still being written when a poll
    # of 10 ms sees its .part (the 4 took 0.4 s at 40,000 writes each here)
    for i in 1 2 3 4; do rft-synth --writes 300000 --seed $i -o suite/t$i.rft; done
    # TERM while a result is being written (a poll sees its .part); the
    # window is short, so a batch that ends before a poll sees one runs
    # again, and the sixth is stopped as soon as it has begun its output
    local try pid st=0 n
    for try in 1 2 3 4 5 6; do
        rm -rf out
        rft-batch --study undervolt -j 2 --quiet -o out suite &
        pid=$!
        for n in $(seq 1 3000); do
            kill -0 $pid 2>/dev/null || break
            [ $try = 6 ] && [ -d out ] && break
            [ -n "$(find out -name '*.part' 2>/dev/null)" ] && break
            sleep 0.01
        done
        kill -TERM $pid 2>/dev/null && break
        wait $pid || true       # it ended first: again
    done
    wait $pid || st=$?
    [ "$st" = 143 ]
    run -0 find out -name '*.part'
    assert_output ''
}

@test "a broken file named like a trace fails the batch, named, with a reason; the others complete" {
    mkdir suite
    cp good.rft suite/good.rft
    # binary from its first byte: random bytes could open with a newline or
    # a '#', a blank or comment line the text reader skips (then 'line 2')
    { printf '\211\001\377'; head -c 5000 /dev/urandom; } > suite/Broken.rft.tsv
    run --separate-stderr -1 rft-batch --study aging -j 2 --quiet -o out suite
    [[ $stderr == *"rft-batch: suite/Broken.rft.tsv: named as a trace, but not a trace (read as text: line 1: unknown record type '"*"')"* ]] || fail "$stderr"
    [[ $stderr != *"binary file matches"* ]] || fail "$stderr"
    [[ $output != *"binary file matches"* ]] || fail "$output"
    # the reason is printable text
    run -0 grep -a 'Broken' out/inputs.txt
    run -1 env LC_ALL=C grep '[^[:print:]]' <<< "$output"
    [ -s out/table.tsv ]
}
