#!/usr/bin/env bats
# The program tables notes2.bats leaves out say what they assumed too, in
# every format (issue 22; rft(1) "NOTES ON EVERY TABLE"): rft-alloc --util
# and --recovery (seed 004 Tables 1, 3), the summaries of rft-classify
# (and its sweep), rft-gate and rft-duty, rft-faultmap --stats.  And the
# entries a kernel never allocates are no difference from the seeds.

load test_helper
load notes_helper

setup_file() {
    cd "$BATS_FILE_TMPDIR"
    rft-synth --writes 3000 --seed 1 -o a.rft
    rft-alloc a.rft -o ff.rft
    rft-repeat -n 3 a.rft -o a3.rft
}

setup() {
    cd "$BATS_TEST_TMPDIR"
    D=$BATS_FILE_TMPDIR
}

@test "rft-alloc --util and --recovery: runs, allocation, window, shares, banks, in every format" {
    local fmt c
    for fmt in table tsv csv json; do
        for c in "" --counts; do
            rft-alloc --scheme argo --util=u.$fmt --recovery=r.$fmt $c --format $fmt -o /dev/null "$D/a.rft"
            has_notes $fmt u.$fmt 'runs: once' 'allocation: scheme=argo granularity=wavefront wrap=ring' \
                'window: cycles 0..' 'the traced window, not a lifetime' 'unused_windows: ' \
                'differs from the seed: a short run' 'differs from the seed: run once: ARGO'
            has_notes $fmt r.$fmt 'runs: once' 'allocation: scheme=argo' 'window: cycles 0..' \
                'banks: 4, 8, 16, 32 entries' 'recovery: a bank is gated while'
        done
        has_notes $fmt u.$fmt 'counts: peak_entries of a slice'
        rft-alloc --util=u.$fmt --format $fmt -o /dev/null "$D/a.rft"
        has_notes $fmt u.$fmt 'shares: peak%: the most entries' 'allocation: scheme=first-fit'
    done
    # first-fit gates nothing; a repeated trace is no single run
    run -0 rft-alloc --recovery --format tsv -o /dev/null "$D/a3.rft"
    assert_line '# differs from the seed: first-fit gates nothing: every recovery is 0 (seed 004 Table 3 is of ARGO: --scheme argo)'
    assert_line '# runs: 3 (the kernel run 3 times in a row: rft-repeat)'
    run -0 rft-alloc --scheme argo --recovery --format tsv -o /dev/null "$D/a3.rft"
    refute_line --partial 'run once'
    refute_line --partial 'gates nothing'
    # the steady state places the maps that follow, these tables are of one pass
    run -0 rft-alloc --runs steady --util --format tsv -o /dev/null "$D/a.rft"
    assert_line --partial '; --runs steady shapes the duty maps that follow, not these tables'
}

@test "rft-classify: the summary and the sweep in every format" {
    local fmt
    for fmt in table tsv csv json; do
        rft-classify --summary=s.$fmt --format $fmt -o /dev/null "$D/a.rft"
        has_notes $fmt s.$fmt 'runs: once' 'window: the ' ' register writes of the stream' \
            'pattern: BS of the bs column, deltas 0 or powers of two up to 64' 'shares: every % column is of its row'"'"'s writes'
        rft-classify --summary=c.$fmt --counts --bs auto --deltas any --format $fmt -o /dev/null "$D/a.rft"
        has_notes $fmt c.$fmt 'pattern: BS per kernel (--bs auto: the bs column), any 32-bit delta' 'counts: the writes of each class'
        rft-classify --sweep --format $fmt "$D/a.rft" > w.$fmt
        has_notes $fmt w.$fmt 'runs: once' 'window: the ' 'pattern: every BS from 1 to 64' 'shares: pow2% and any%'
    done
}

@test "rft-gate and rft-duty: the summaries in every format" {
    local fmt
    for fmt in table tsv csv json; do
        rft-gate --summary=g.$fmt --format $fmt -o /dev/null "$D/ff.rft"
        has_notes $fmt g.$fmt 'runs: once' 'scheme: rc (seed 002 5.1); the writes rft-classify did not annotate: BS 8' \
            'window: every record of the stream, read once: '
        rft-gate --scheme wc --summary=w.$fmt --format $fmt -o /dev/null "$D/ff.rft"
        has_notes $fmt w.$fmt 'scheme: wc'
        rft-duty --summary=d.$fmt --format $fmt -o /dev/null "$D/ff.rft"
        has_notes $fmt d.$fmt 'runs: once' 'window: slice 0..' 'differs from the seed: a short run' \
            'shares: avg_0%, avg_1%, avg_off%' 'unused entries: '
    done
    # the steady state: no short run, whatever its window
    rft-alloc --runs steady "$D/a.rft" | rft-duty --summary=st.tsv --format tsv -o /dev/null
    has_notes tsv st.tsv 'runs: steady'
    run -1 grep -q 'short run' st.tsv
    rft-duty --unused on --counts --summary=on.tsv --format tsv -o /dev/null "$D/ff.rft"
    has_notes tsv on.tsv 'count as on, holding zeros (rft-duty --unused on' 'longest_0, longest_1: the most cycles'
}

@test "rft-faultmap --stats: the classes and the shares in every format" {
    local fmt
    for fmt in table tsv csv json; do
        rft-faultmap --stats --scenario common --seed 1 --format $fmt > f.$fmt
        has_notes $fmt f.$fmt 'classes: bits0 to bits4+' '(1 bit per entry)' 'shares: faulty%: the faulty entries, of the entries'
    done
    rft-faultmap --stats --counts --scenario dispersed --seed 2 --entries 128 --format tsv > c.tsv
    has_notes tsv c.tsv 'counts: faulty_next' "differs from the seed: slices of 128 entries x 4 blocks, not seed 001's GCN slice (256 x 4)"
    # from a stream too
    rft-faultmap --scenario common --seed 1 "$D/a.rft" | rft-faultmap --stats --format csv > s.csv
    has_notes csv s.csv 'classes: '
}

@test "entries never allocated: no idle slots, a note of their share; rft-heal's idle stream cores still are" {
    # a synthetic trace's slices are mostly unallocated, as the seeds' kernels
    # leave much of the register file (seed 004 Table 1: 54 % on average)
    rft-duty "$D/ff.rft" > ff.duty
    run -0 rft-vth --format tsv ff.duty
    refute_line --partial 'idle slots'
    assert_line --regexp '^# unused entries: 80\.0 % of the slices. entries are never allocated nor written in the window and count as off all the time \(rft-duty\(1\) rule 4, as in seed 002 6\.2; seed 004 Table 1: 54 % of the register file unused on average\)$'
    # every entry allocated: no such note
    printf 'K 0 k\nB 0 0 0 1 256 k 0\nE 100 0 0 1\n' | rft-decode | rft-alloc | rft-duty > full.duty
    run -0 rft-vth --format tsv full.duty
    refute_line --partial 'unused entries'
    rft-synth --arch evergreen --bundles 3000 --seed 1 -o e.rft
    run -0 rft-heal --scheme sc --report units --format tsv e.rft
    assert_line --regexp '^# differs from the seed: idle slots: the SCs are idle [0-9.]+ % of the window'
}
