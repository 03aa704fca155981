#!/usr/bin/env bats
# The replay (issue 25) in the tables of rft-dcpatch --report perf and
# rft-heal --report cost: the replayed cycles beside the upper bound, never
# above it, the same figures as rft-replay of the same stream and settings,
# note lines saying which estimate each column is; a stream whose cycles are
# estimated (issue_model) gets the upper bound alone, with a note.

load test_helper

setup() { cd "$BATS_TEST_TMPDIR"; }

# "scope naive replayed slowdown upper upper_slowdown" of a TSV table on
# stdin: $1 the first of the five replay columns, $2 a prefix for the scope
rows() {
    awk -F'\t' -v c="$1" -v p="$2" '!/^#/ && h++ { print p $1, $c, $(c+1), $(c+2), $(c+3), $(c+4) }'
}
export -f rows

@test "rft-dcpatch --report perf: replayed beside the upper bound, never above it, as rft-replay gives it" {
    rft-synth --quiet --writes 20000 --seed 3 -o s.rft
    local sc by opts
    for sc in common clustered dispersed; do
        for opts in "" "--stages 3 --stall-cycles 7"; do
            rft-dcpatch --scenario $sc $opts -o p.rft s.rft
            # rft-replay takes --stages and --stall-cycles too (the stream says dcpatch)
            rft-replay -f tsv ${opts} p.rft | awk -F'\t' '!/^#/ && h++ { print $1, $2, $3, $4, $5, $6 }' > replay
            for by in kernel slice; do
                rft-dcpatch --scenario $sc $opts --by $by --summary -f tsv s.rft | grep -v "^#" > table
                run -0 head -1 table
                assert_output --partial $'stall_cycles\tcycles_naive\tcycles_replayed\tslowdown_replay%\tcycles_upper\tslowdown_bound%'
                if [[ $by == kernel ]]; then
                    rows 14 "kernel " < table | sed 's/^kernel total/total/' > mine
                else
                    rows 14 "slice " < table | sed 's/^slice total/total/' > mine
                fi
                (( $(wc -l < mine) >= 3 ))
                # every row is one of rft-replay's, figure for figure
                run -0 awk 'NR == FNR { in_replay[$0] = 1; next } !($0 in in_replay)' replay mine
                assert_output ""
                # and never above the upper bound, with something added
                run -0 awk '$(NF-3) > $(NF-1) || $(NF-1) <= $(NF-4) { print "bad:", $0 }' mine
                assert_output ""
            done
        done
    done
    # the replay is not a copy of the upper bound: it hides some latency
    run -0 awk '$1 == "total" && $(NF-3) < $(NF-1) { n++ } END { print n + 0 }' mine
    assert_output 1
}

@test "rft-dcpatch --report perf: note lines; an estimated stream gets the upper bound alone" {
    rft-synth --quiet --writes 3000 --seed 1 -o s.rft
    run -0 rft-dcpatch --scenario common --summary s.rft
    assert_output --partial "note: cycles_naive: the traced span; cycles_replayed: the replay (rft-replay(1)), 2 extra pipeline cycles per result; cycles_upper: the upper bound"
    refute_output --partial "not replayed"
    run -0 rft-dcpatch --scenario common --stages 5 --summary s.rft
    assert_output --partial "5 extra pipeline cycles per result"
    # the other tables have no replay
    run -0 rft-dcpatch --scenario common --summary --report occupancy s.rft
    refute_output --partial note
    rft-decode --lanes 8 --block-lanes 4 --local-size 4,2 --cus 2 --simds 2 --kernel demo \
        "$FIX/formats/m2s-basic.txt" -o m.rft 2>/dev/null
    run -0 rft-dcpatch --scenario common --summary m.rft
    assert_output --partial "note: not replayed: the trace's cycles are estimated (issue_model: "
    assert_output --partial "cycles_upper is the upper bound alone"
    run -0 rft-dcpatch --scenario common --summary -f tsv m.rft
    no_notes
    refute_output --partial note
    run -0 awk -F'\t' '$1 == "total" { print ($14 > 0 && $15 == "" && $16 == "" && $17 >= $14 && $18 != "") }' <<<"$output"
    assert_output 1
}

@test "rft-heal --report cost: the replay of d degraded SCs beside the upper bound, as rft-replay --degraded-scs d" {
    local s d
    for s in 2 5; do
        rft-synth --quiet --writes 20000 --seed $s -o s$s.rft
        rft-heal --scheme sc --report cost --sweep 4 -f tsv s$s.rft | grep -v "^#" > table
        run -0 head -1 table
        assert_output $'degraded_scs\thealed_cus\tcycles_naive\tcycles_healthy\toverhead%\tcycles_traced\tcycles_replayed\tslowdown_replay%\tcycles_upper\tslowdown_bound%'
        for d in 1 2 3 4; do
            run -0 pipe "rft-replay -f tsv --degraded-scs $d s$s.rft | awk -F'\t' '\$1 == \"total\" { print \$2, \$3, \$4, \$5, \$6 }'"
            local want=$output
            run -0 awk -F'\t' -v d=$d '$1 == d && $2 == "all" { print $6, $7, $8, $9, $10 }' table
            assert_output "$want"
            run -0 awk '{ print ($2 <= $4 && $2 >= $1) }' <<<"$output"
            assert_output 1
        done
        # the rows of 1..10 healed CUs: the replay heals every CU, no figure there
        run -0 awk -F'\t' '$2 != "all" && !/^#/ && h++ && $7 != "" { print }' table
        assert_output ""
    done
    # redundant wavefronts cost something, hidden in part
    run -0 awk -F'\t' '$1 == 1 && $2 == "all" { print ($7 > $6 && $7 < $9) }' table
    assert_output 1
}

@test "rft-heal --report cost: note lines; an estimated stream gets the upper bound alone" {
    rft-synth --quiet --writes 3000 --seed 1 -o s.rft
    run -0 rft-heal --scheme sc --report cost --sweep 2 s.rft
    assert_output --partial "note: cycles_naive, cycles_healthy, overhead%: the first-order estimate"
    assert_output --partial "note: cycles_traced: the traced span; cycles_replayed: the replay (rft-replay(1)), 0 extra pipeline cycles per result; cycles_upper: the upper bound"
    run -0 rft-heal --scheme sc s.rft
    assert_output --partial "note: cycles_traced: the traced span"
    run -0 rft-heal --scheme sc --report cost --sweep 2 -f csv s.rft
    no_notes
    refute_output --partial note
    rft-decode --lanes 8 --block-lanes 4 --local-size 4,2 --cus 2 --simds 2 --kernel demo \
        "$FIX/formats/m2s-basic.txt" -o m.rft 2>/dev/null
    run -0 rft-heal --scheme sc --report cost --sweep 2 m.rft
    assert_output --partial "note: not replayed: the trace's cycles are estimated (issue_model: "
    run -0 rft-heal --scheme sc --report cost --sweep 2 -f tsv m.rft
    run -0 awk -F'\t' '$1 == 1 && $2 == "all" { print ($6 > 0 && $7 == "" && $8 == "" && $9 >= $6 && $10 != "") }' <<<"$output"
    assert_output 1
}
