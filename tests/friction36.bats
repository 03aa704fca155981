#!/usr/bin/env bats
# Everyday friction of issue 36: each test fails on the main before it
# (healing shares over 100 % are in tests/heal2.bats).

load test_helper
load figure_helper

setup() { cd "$BATS_TEST_TMPDIR"; }

@test "--arch evergreen and --geometry evergreen: the same models, their entries as documented" {
    rft-synth --arch evergreen --bundles 3000 -o a.rft
    rft-synth --geometry evergreen --bundles 3000 -o g.rft
    run -0 pipe "rft-view -H a.rft | awk '\$1 == \"entries\" { print \$2 }'"
    assert_output 256
    run -0 pipe "rft-view -H g.rft | awk '\$1 == \"entries\" { print \$2 }'"
    assert_output 1024
    # the same bundles: only the register file differs
    cmp <(rft-view a.rft | grep -v '^#') <(rft-view g.rft | grep -v '^#')
    # what --help and the man page say is what they do
    run -0 rft-synth --help
    assert_output --partial "--arch evergreen alone keeps 256"
    run -0 pipe "man -l '$TOP/man/rft-synth.1' 2>/dev/null | tr -s ' \n' ' '"
    assert_output --partial "alone keeps GCN's 256 entries a slice"
    run -2 rft-synth --arch evergreen --lanes 32
    assert_output --partial '--lanes: Evergreen wavefronts are 64 work-items wide'
}

@test "rft-heal on Evergreen's own register file: no note of a GCN SIMD" {
    rft-synth --geometry evergreen --bundles 3000 -o e.rft
    run -0 rft-heal e.rft
    refute_output --partial "GCN SIMD"
    run -0 rft-heal --scheme sc --report units --format tsv e.rft
    refute_output --partial "GCN SIMD"
    # the stages of seeds 001, 002 and 004 still say so
    run -0 pipe "rft-alloc e.rft | rft-duty --summary --format tsv"
    assert_output --partial "not the seeds' GCN SIMD (64 x 256)"
}

@test "the study scripts take -f as --format, before and after the trace" {
    rft-synth --writes 3000 -o s.rft
    for s in aging healing undervolt argo; do
        run -0 sh "$TOP/examples/$s.sh" --help
        assert_line --partial '  -f, --format F'
    done
    run -0 --separate-stderr sh "$TOP/examples/healing.sh" -f tsv --quiet s.rft
    long=$output
    run -0 --separate-stderr sh "$TOP/examples/healing.sh" --quiet s.rft -f tsv
    assert_equal "$output" "$long"
    run -0 --separate-stderr sh "$TOP/examples/healing.sh" --format tsv --quiet s.rft
    assert_equal "$output" "$long"
    run -2 sh "$TOP/examples/healing.sh" -f html s.rft
    assert_output --partial "--format: 'html' is not one of table tsv json"
}

@test "reproduce.sh --help: every option with what it does" {
    run -0 sh "$TOP/examples/reproduce.sh" --help
    for o in '-o, --output OUT' '-j, --jobs N' '-r, --repeat RUNS' '--also-runs LIST' '--values FILE' '--quiet' '-h, --help'; do
        assert_line --partial "$o"
    done
    [ "${#lines[@]}" -ge 9 ]
}

@test "rft-plot without -y: more than six lines in panels, a y label that fits its axis" {
    awk 'BEGIN { split("apples pears plums figs dates limes kiwis melons grapes", w)
                 printf "x"; for (i = 1; i <= 9; i++) printf "\t%s", w[i]; print ""
                 for (r = 0; r < 3; r++) { printf "%d", r; for (i = 1; i <= 9; i++) printf "\t%d", r * i; print "" } }' > n.tsv
    run -0 --separate-stderr rft-plot --no-render -o n.svg n.tsv
    [[ $stderr == *"warning: n.tsv: 9 series, more than 6 on one axis: each in a panel of its own"* ]]
    grep -q '^set multiplot' n.gp
    # -y draws them on one axis, as asked; the label then names them by the key
    rft-plot --no-render -y '*' -o one.svg n.tsv
    run -1 grep -q '^set multiplot' one.gp
    grep -qx "set ylabel 'value (the series in the key)'" one.gp
    # six lines stay on one axis (seed 004 Fig. 12: two schemes x three shares)
    cut -f 1-7 n.tsv > six.tsv
    rft-plot --no-render -o six.svg six.tsv
    run -1 grep -q '^set multiplot' six.gp
    # percentages whose names share nothing: a short label, not the list
    printf 'x\tavg_read_energy%%\tavg_write_energy%%\tstatic_leakage%%\n1\t1\t2\t3\n2\t2\t3\t4\n' > p.tsv
    rft-plot --no-render -o p.svg p.tsv
    grep -qx "set ylabel '% (the series in the key)'" p.gp
    run -0 pipe "grep '^set ylabel' n.gp one.gp six.gp p.gp | awk -F\"'\" 'length(\$2) > 40'"
    assert_output ''
}

@test "rft-plot captions: at most four lines, each note once, which traces it holds for, no machine path" {
    {
        printf '# runs: once (the stream states no runs) [traces: alpha, beta, gamma, delta, epsilon, zeta]\n'
        printf '# window: /home/someone/deep/folder/trace.rft 0..100 (the span)\n'
        printf '# runs: once (the stream states no runs) [traces: alpha, beta, gamma, delta, epsilon, zeta]\n'
        printf '# lifetime: 5 years [traces: alpha]\n'
        for i in $(seq 1 30); do printf '# differs from the seed: rule %d, said at length so that it needs a line (why)\n' "$i"; done
        printf 'x\ty\n1\t2\n2\t3\n'
    } > cap.tsv
    rft-plot --no-render -o cap.svg cap.tsv
    run -0 grep '^set label 1[0-9][0-9] ' cap.gp
    [ "${#lines[@]}" -eq 4 ]
    assert_line --index 0 --partial "'Assumed: runs: once [6 traces]; window: trace.rft 0..100; lifetime: 5 years [traces: alpha]"
    assert_line --index 3 --partial '; 27 more (every note: the data file)'
    refute_output --partial '/home/someone'
    [ "$(grep -c 'runs: once' cap.gp)" -eq 1 ]
    # every note stays in the data file
    [ "$(grep -c '^# ' cap.data.tsv)" -ge 33 ]
}

@test "rft-plot captions: the count of the notes left out fits the width, not past the figure's edge" {
    {
        for i in $(seq 1 6); do
            printf '# differs from the seed: rule %d is said at such length that its head alone nearly fills a caption line\n' "$i"
        done
        printf 'x\ty\n1\t2\n2\t3\n'
    } > long.tsv
    rft-plot --no-render -o long.svg long.tsv
    run -0 grep '^set label 1[0-9][0-9] ' long.gp
    [ "${#lines[@]}" -le 4 ]
    assert_output --partial 'more (every note: the data file)'
    # 800 pixels: about 114 characters a line (figure.c: width / 7)
    run -0 pipe "sed -n \"s/^set label 1[0-9][0-9] '\\(.*\\)' at .*/\\1/p\" long.gp | awk 'length(\$0) > 114'"
    assert_output ''
}
