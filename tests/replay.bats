#!/usr/bin/env bats
# rft-replay (issue 25): nothing added replays every slice, kernel and the
# total at its traced span exactly on synthetic streams; a wavefront alone
# pays every added cycle; more latency never replays shorter, nor above the
# upper bound; estimated cycles are not replayed; the stream and counters;
# rft run; bad input and usage.

load test_helper

setup() { cd "$BATS_TEST_TMPDIR"; }

# rows whose replayed cycles differ from the traced ones (TSV table on stdin)
differ() { awk -F'\t' '!/^#/ && h++ && $2 != $3 { n++; print } END { exit n > 0 }'; }
export -f differ

@test "nothing added: every row replays its traced span exactly (GCN and Evergreen, several seeds)" {
    local s
    for s in 1 2 3; do
        rft-synth --quiet --writes 20000 --seed $s -o g$s.rft
        run -0 pipe "rft-replay -f tsv g$s.rft | differ"
        run -0 pipe "rft-replay -f tsv g$s.rft | awk -F'\t' '!/^#/ && h++ && \$2 > 0 { n++ } END { print n }'"
        (( output >= 10 ))
        rft-synth --quiet --arch evergreen --bundles 20000 --seed $s -o e$s.rft
        run -0 pipe "rft-replay -f tsv e$s.rft | differ"
    done
    # the same with latency added, only when nothing is added
    run -1 pipe "rft-replay -f tsv --add-latency 1 g1.rft | differ"
}

@test "one wavefront alone pays every added cycle, held or not" {
    rft-decode "$FIX/replay/alone.txt" -o a.rft
    run -0 rft-replay -f tsv --add-latency 5 a.rft
    no_notes
    assert_line --index 1 "slice 0:0	20	35	75.00	35	75.00	3	15"
    assert_line --index 3 "total	20	35	75.00	35	75.00	3	15"
    run -0 rft-replay -f tsv --add-latency 5 --hold a.rft
    no_notes
    assert_line --index 3 "total	20	35	75.00	35	75.00	3	15"
    run -0 rft-replay -f tsv --deps all --add-latency 5 a.rft
    no_notes
    assert_line --index 3 "total	20	35	75.00	35	75.00	3	15"
}

@test "more latency never replays shorter, nor a slice or the total above its upper bound; --hold costs more" {
    rft-synth --quiet --writes 20000 --seed 7 -o s.rft
    local prev=0 n r
    for n in 0 1 2 4 8 16; do
        run -0 rft-replay -f tsv --add-latency $n s.rft
        r=$(awk -F'\t' '$1 == "total" { print $3 }' <<<"$output")
        (( r >= prev )) || fail "+$n: $r < $prev"
        prev=$r
        awk -F'\t' '!/^#/ && h++ && $1 !~ /^kernel/ && $3 > $5 { exit 1 }' <<<"$output" ||
            fail "+$n: a slice or the total above its upper bound"
    done
    local lat held
    lat=$(rft-replay -f tsv --add-latency 8 s.rft | awk -F'\t' '$1 == "total" { print $3 }')
    held=$(rft-replay -f tsv --add-latency 8 --hold s.rft | awk -F'\t' '$1 == "total" { print $3 }')
    (( held > lat ))
}

@test "estimated cycles (issue_model): the upper bound alone, with a note; --trust-cycles replays" {
    rft-decode --lanes 8 --block-lanes 4 --local-size 4,2 --cus 2 --simds 2 --kernel demo \
        "$FIX/formats/m2s-basic.txt" -o m.rft 2>/dev/null
    run -0 rft-view -H m.rft
    assert_output --partial issue_model
    run -0 rft-replay --add-latency 4 m.rft
    assert_output --partial "note: not replayed: the trace's cycles are estimated (issue_model: "
    run -0 rft-replay -f tsv --add-latency 4 m.rft
    no_notes
    refute_output --partial note
    run -0 awk -F'\t' '$1 == "total" { print ($3 == "" && $4 == "" && $5 > $2) }' <<<"$output"
    assert_output 1
    run -0 rft-replay -f tsv --trust-cycles --add-latency 4 m.rft
    run -0 awk -F'\t' '$1 == "total" { print ($3 > $2) }' <<<"$output"
    assert_output 1
}

@test "-o: the records passed on, then a counters record per row; rft run gives the same table" {
    rft-synth --quiet --writes 3000 --seed 3 -o s.rft
    rft-replay --add-latency 3 -o out.rft -s table.tsv -f tsv s.rft
    sed -i "/^#/d" table.tsv     # without its notes (tests/notes2.bats)
    run -0 pipe "rft-view out.rft | grep -vc '^# counters'"
    assert_output "$(rft-view s.rft | grep -vc '^# counters')"
    run -0 pipe "rft-view out.rft | grep -c '^# counters	stage=rft-replay'"
    assert_output "$(( $(wc -l < table.tsv) - 1 ))"
    run -0 pipe "rft-view out.rft | grep 'stage=rft-replay	scope=total'"
    assert_output --partial "cycles_replayed=$(awk -F'\t' '$1 == "total" { print $3 }' table.tsv)	"
    run -0 rft run "replay --add-latency 3 -f tsv s.rft"
    no_notes
    assert_output "$(cat table.tsv)"
    # the stream to standard output: the table only with --summary
    run -0 pipe "rft-replay -o - s.rft | rft-view | grep -c 'stage=rft-replay'"
}

@test "bad input and usage" {
    rft-synth --quiet --writes 3000 -o s.rft
    head -c 3000 s.rft > cut.rft
    run -1 --separate-stderr rft-replay cut.rft
    [[ $stderr == "rft-replay: cut.rft: "* ]] || fail "$stderr"
    assert_equal "${#stderr_lines[@]}" 1
    assert_output ""
    run -2 --separate-stderr rft-replay --hold s.rft
    assert_equal "$stderr" "rft-replay: --hold needs --add-latency (see rft-replay --help)"
    run -2 --separate-stderr rft-replay -o - --summary s.rft
    [[ $stderr == *"cannot both go to standard output"* ]]
    run -2 --separate-stderr rft-replay --deps some s.rft
    run -2 --separate-stderr rft-replay --add-latency 1000001 s.rft
}

@test "SC healing: the redundant wavefronts cost SIMD time, within the upper bound; none without degraded SCs" {
    rft-synth --quiet --writes 20000 --seed 5 -o s.rft
    local naive healed
    naive=$(rft-replay -f tsv s.rft | awk -F'\t' '$1 == "total" { print $3 }')
    run -0 rft-replay -f tsv --degraded-scs 1 s.rft
    healed=$(awk -F'\t' '$1 == "total" { print $3 }' <<<"$output")
    (( healed > naive ))
    awk -F'\t' '!/^#/ && h++ && $1 !~ /^kernel/ && $3 > $5 { exit 1 }' <<<"$output"
    run -2 rft-replay --degraded-scs 0 s.rft
}
