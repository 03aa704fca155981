#!/usr/bin/env bats
# One slowdown a reader cites (issue 33 item 7): in every table and format
# the replay's slowdown is the column named slowdown_replay% (rft-energy's,
# over the slices' cycles summed: slice_slowdown_replay%), its upper bound
# beside it named slowdown_bound% (slice_slowdown_bound%) and never below
# it; no column is the plain slowdown%, and the notes agree with the numbers.

load test_helper

setup_file() {
    export D="$BATS_FILE_TMPDIR"
    mkdir -p "$D/tr"
    rft-synth --writes 3000 --seed 3 -o "$D/tr/a.rft"
    rft-faultmap --scenario common --seed 1 "$D/tr/a.rft" | rft-dcpatch | rft-energy --scan -o "$D/dcp.scan"
    rft-batch --quiet -j 2 --study undervolt -o "$D/uv" "$D/tr"
    rft-batch --quiet -j 2 --study healing -o "$D/he" "$D/tr"
    rft-batch --quiet -j 2 --study aging -r once -o "$D/ag" "$D/tr"
}

setup() { cd "$BATS_TEST_TMPDIR"; }

# bound_ge_replay FILE REPLAY BOUND: every data row of the TSV FILE (# lines
# skipped) has BOUND >= REPLAY where both are given; prints the rows checked
bound_ge_replay() {
    awk -F '\t' -v r="$2" -v b="$3" '/^#/ { next }
        !h++ { for (i = 1; i <= NF; i++) c[$i] = i
               if (!(r in c) || !(b in c)) { print "no column " r " or " b; exit 1 }; next }
        $c[r] != "" && $c[b] != "" { n++; if ($c[b] + 0 < $c[r] - 1e-9) { print "bound below the replay: " $0; bad = 1 } }
        END { if (bad) exit 1; print n " rows" }' "$1"
}

@test "rft-energy: DC-Patch's bound counts the two extra stages, never below the replay" {
    rft-energy -f tsv "$D/dcp.scan" > e.tsv
    run -0 bound_ge_replay e.tsv slice_slowdown_replay% slice_slowdown_bound%
    # the replay adds cycles (the stages), and the bound more
    run -0 awk -F '\t' '!/^#/ && $1 == "dcpatch-common" { print ($14 > $16 && $16 > 0) ? "ok" : $0 }' e.tsv
    assert_output ok
    run -0 grep -v '^#' e.tsv
    refute_line --regexp '(^|	)(slowdown%|replayed_slowdown%|upper_slowdown%)(	|$)'
    # the notes say so, none that the stages add no cycles
    run -0 grep '^#' e.tsv
    assert_line --partial "added_cycles and slice_slowdown_bound% are the replay's upper bound, never below slice_slowdown_replay%: every misprediction stall, injected MOV, extra LDS load and the two extra pipeline stages of every result"
    refute_line --partial 'add no cycles'
    refute_line --partial 'wake-up'
}

@test "rft-dcpatch --report perf and rft-heal --report cost: slowdown_replay% beside slowdown_bound%" {
    rft-faultmap --scenario common --seed 1 "$D/tr/a.rft" | rft-dcpatch --summary=p.tsv --report perf --format tsv -o /dev/null
    run -0 bound_ge_replay p.tsv slowdown_replay% slowdown_bound%
    rft-heal --scheme sc --report cost --format tsv "$D/tr/a.rft" > c.tsv
    run -0 bound_ge_replay c.tsv slowdown_replay% slowdown_bound%
    refute_output '0 rows'
    local f
    for f in csv json; do
        rft-heal --scheme sc --report cost --format $f "$D/tr/a.rft" > c.$f
        grep -q 'slowdown_replay%' c.$f
        grep -q 'slowdown_bound%' c.$f
        ! grep -q '"slowdown%"\|,slowdown%,\|upper_slowdown%' c.$f
    done
}

@test "rft-batch: each study's cross-trace table cites the replay and its bound, in every format" {
    run -0 bound_ge_replay "$D/uv/table.tsv" slowdown_replay% slowdown_bound%
    refute_output '0 rows'
    run -0 bound_ge_replay "$D/he/table.tsv" slowdown_replay% slowdown_bound%
    refute_output '0 rows'
    run -0 bound_ge_replay "$D/ag/table.tsv" slice_slowdown_replay% slice_slowdown_bound%
    refute_output '0 rows'
    local s f
    for s in uv he ag; do
        for f in txt tsv csv json; do
            ! grep -q '[^_]slowdown%\|^slowdown%\|replayed_slowdown%\|upper_slowdown%' "$D/$s/table.$f" ||
                fail "$s/table.$f: a plain or old slowdown column"
        done
    done
    # the healing table gives the replay for every count of degraded SCs, not
    # the first-order estimate (0.00 flat on the real traces)
    run -0 awk -F '\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $1 != "mean" && $c["slowdown_replay%"] != "" { n++ } END { print n + 0 }' "$D/he/table.tsv"
    [ "$output" -ge 2 ]
    run -0 head -n 40 "$D/he/table.tsv"
    refute_line --regexp '^trace.*overhead%'
}

@test "the undervolt table's notes: no wake-ups for DC-Patch, the stages counted by the replay" {
    run -0 grep '^estimate: \|^energy: note: ' "$D/uv/table.txt"
    refute_line --partial 'wake-up'
    refute_line --partial 'add no cycles'
    assert_line --partial 'estimate: slowdown_replay% is the replayed run time'
    assert_line --partial 'estimate: slowdown_bound% is its upper bound'
    assert_line --partial 'the two extra pipeline stages of the Com/Dec units (seed 001 IV-E, V-A4) delay every result 2 cycles: the replay counts them'
}
