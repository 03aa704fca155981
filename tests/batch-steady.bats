#!/usr/bin/env bats
# rft-batch --study aging, runs steady (the default): the duty maps are the
# steady state (rft-alloc --runs steady), as the table's note says, in the
# batch folder's layout (each trace in traces/LABEL).

load test_helper

setup() { cd "$BATS_TEST_TMPDIR"; }

# the cells of a duty map: slice, entry, bits, t0, t1, toff, cycles, use
cells() { rft-vth --by cells --format tsv "m=$1" | cut -f 2-9,13 | sed 1d; }

@test "the aging study's maps of a trace the steady state takes are rft-alloc --runs steady's, not one run's" {
    mkdir tr
    rft-synth --kernels vecadd --writes 2000 --cus 1 --simds 2 --seed 7 -o tr/v.rft
    run -0 rft-batch --quiet -j 2 --study aging -o b tr
    assert_equal "$(cat b/traces/v/runs)" steady
    for a in argo rar first-fit; do
        rft-alloc --scheme $a --runs steady tr/v.rft | rft-duty -o $a-steady.duty
        rft-alloc --scheme $a tr/v.rft | rft-duty -o $a-once.duty
    done
    # the steady state differs from one run here (else the test tells nothing)
    ! cmp -s <(cells argo-steady.duty) <(cells argo-once.duty)
    run -0 cmp <(cells b/traces/v/argo.rft) <(cells argo-steady.duty)
    run -0 cmp <(cells b/traces/v/rar.rft) <(cells rar-steady.duty)
    run -0 cmp <(cells b/traces/v/base.rft) <(cells first-fit-steady.duty)
    run -0 grep -c '^# runs: steady' b/table.tsv
    assert_output 1
}
