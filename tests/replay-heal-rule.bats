#!/usr/bin/env bats
# SC healing in the replay follows rft-heal's group rule: --max-wg and --wavefront-rule reach
# the redundant wavefronts that rft-replay --degraded-scs and rft-heal --report cost replay.

load test_helper

setup() { cd "$BATS_TEST_TMPDIR"; }

total() { awk -F'\t' '$1 == "total" { print $3 }'; }

@test "rft-replay --degraded-scs: --max-wg and --wavefront-rule change the redundant wavefronts" {
    rft-synth --quiet --writes 20000 --seed 5 -o s.rft
    local def wg rule
    def=$(rft-replay -f tsv --degraded-scs 1 s.rft | total)
    # the defaults spelled out
    run -0 pipe "rft-replay -f tsv --degraded-scs 1 --max-wg 256 --wavefront-rule seed s.rft | awk -F'\t' '\$1 == \"total\" { print \$3 }'"
    assert_output "$def"
    wg=$(rft-replay -f tsv --degraded-scs 1 --max-wg 64 s.rft | total)
    rule=$(rft-replay -f tsv --degraded-scs 1 --wavefront-rule ceil s.rft | total)
    [ "$wg" != "$def" ] || [ "$rule" != "$def" ]
    run -2 --separate-stderr rft-replay --max-wg 64 s.rft
    assert_equal "$stderr" "rft-replay: --max-wg and --wavefront-rule need --degraded-scs (see rft-replay --help)"
    run -2 --separate-stderr rft-replay --degraded-scs 1 --wavefront-rule some s.rft
}

@test "rft-heal --report cost replays with its own --max-wg and --wavefront-rule" {
    rft-synth --quiet --writes 20000 --seed 5 -o s.rft
    local opts d
    for opts in "--max-wg 64" "--wavefront-rule ceil" "--max-wg 128 --wavefront-rule ceil"; do
        rft-heal --scheme sc --report cost --sweep 2 -f tsv $opts s.rft > table
        for d in 1 2; do
            run -0 pipe "rft-replay -f tsv --degraded-scs $d $opts s.rft | awk -F'\t' '\$1 == \"total\" { print \$2, \$3, \$4, \$5, \$6 }'"
            local want=$output
            run -0 awk -F'\t' -v d=$d '$1 == d && $2 == "all" { print $6, $7, $8, $9, $10 }' table
            assert_output "$want"
        done
    done
    # the replay's column moves with the rule, as the first-order one does
    run -0 pipe "rft-heal --scheme sc --report cost --sweep 1 -f tsv s.rft | awk -F'\t' '\$2 == \"all\" { print \$4, \$7 }'"
    local base=$output
    run -0 pipe "rft-heal --scheme sc --report cost --sweep 1 -f tsv --max-wg 64 s.rft | awk -F'\t' '\$2 == \"all\" { print \$4, \$7 }'"
    [ "${output% *}" != "${base% *}" ] && [ "${output#* }" != "${base#* }" ]
    run -0 pipe "rft-heal --scheme sc --report cost --sweep 1 --max-wg 128 --wavefront-rule ceil s.rft | grep '^note: cycles_naive'"
    assert_output --partial "work-groups of at most 128 work-items, the ceil wavefront rule"
}
