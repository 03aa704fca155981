#!/usr/bin/env bats
# examples/model-slowdowns.sh (issue 32): the seeds' run-time costs under the
# compute-unit model for one trace, each row the model's own tables (the
# schemes' streams re-timed by rft-replay --model cu).

bats_require_minimum_version 1.5.0
load test_helper

S=$TOP/examples/model-slowdowns.sh

setup() {
    cd "$BATS_TEST_TMPDIR"
    rft-synth --quiet --writes 4000 --cus 2 -o s.rft
    printf '[ Device ]\nNumComputeUnits = 2\n' > base.ini
}

# column $1 of the total row (TSV on stdin)
col() { awk -F'\t' -v c="$1" '/^#/{next} !h{for(i=1;i<=NF;i++) if($i==c) k=i; h=1; next} $1=="total"{print $k}'; }
# field $2 of row $1 of out.tsv
cell() { awk -F'\t' -v r="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next } $1 == r { print $k[c] }' out.tsv; }

@test "a row for the baseline and each scheme, each the model's own table" {
    run -0 "$S" --m2s-config base.ini -o out.tsv s.rft
    run -0 cut -f 1 out.tsv
    assert_equal "$(echo $output)" "scheme baseline dcpatch-common dcpatch-clustered dcpatch-dispersed rc rcrar wc argo sc1 sc4 sc8"
    # the baseline: rft-replay --model cu's unscaled (--calibrate none), against
    # the traced cycles: calibrated, the model comes within 1 % of most traces
    rft-replay -f tsv --model cu --calibrate none --m2s-config base.ini s.rft > t.tsv
    assert_equal "$(cell baseline cycles_model)" "$(col cycles_model < t.tsv)"
    assert_equal "$(cell baseline baseline_error_pct)" "$(col baseline_error_pct < t.tsv)"
    assert_equal "$(cell baseline slowdown_pct)" "0.00"
    # a scheme: its stream re-timed, the model's cycles with its events
    rft-replay -f tsv --model cu --m2s-config base.ini --degraded-scs 4 s.rft > t.tsv
    assert_equal "$(cell sc4 cycles_scheme)" "$(col cycles_scheme < t.tsv)"
    rft-alloc --scheme rar --runs steady s.rft | rft-gate --scheme rc | rft-replay -f tsv --model cu --m2s-config base.ini > t.tsv
    assert_equal "$(cell rcrar slowdown_pct)" "$(col slowdown_scheme_pct < t.tsv)"
    rft-faultmap --scenario dispersed --seed 1 s.rft | rft-dcpatch | rft-replay -f tsv --model cu --m2s-config base.ini > t.tsv
    assert_equal "$(cell dcpatch-dispersed cycles_scheme)" "$(col cycles_scheme < t.tsv)"
    # ARGO adds no event; every scheme costs cycles, never saves them (the
    # model is monotone in what it charges)
    assert_equal "$(cell argo slowdown_pct)" "0.00"
    run -0 awk -F'\t' 'NR > 1 && $6 < 0' out.tsv
    assert_output ""
    run -0 awk -F'\t' 'NR > 1 && $1 ~ /^sc/ && $6 <= 0' out.tsv
    assert_output ""
}

@test "-r once and -r N: the kernel run once, or N times in a row (rft-repeat) in every row" {
    run -0 "$S" --m2s-config base.ini -r once -o once.tsv s.rft
    rft-alloc --scheme first-fit s.rft | rft-gate --scheme wc | rft-replay -f tsv --model cu --m2s-config base.ini > t.tsv
    assert_equal "$(awk -F'\t' '$1 == "wc" { print $5 }' once.tsv)" "$(col cycles_scheme < t.tsv)"
    run -0 "$S" --m2s-config base.ini -r 2 -o two.tsv s.rft
    rft-repeat -n 2 s.rft | rft-replay -f tsv --model cu --m2s-config base.ini --degraded-scs 8 > t.tsv
    assert_equal "$(awk -F'\t' '$1 == "sc8" { print $5 }' two.tsv)" "$(col cycles_scheme < t.tsv)"
    # a text trace is decoded once, as the studies do
    rft-view s.rft > s.tsv
    run -0 "$S" --m2s-config base.ini -r once -o text.tsv s.tsv
    cmp text.tsv once.tsv
    run -2 "$S" --m2s-config base.ini -r x s.rft
    assert_line --index 0 --partial "model-slowdowns.sh: -r"
}

@test "bad input: one line naming the program and the input, status 1, no table" {
    run -1 "$S" --m2s-config nosuch.ini -o out.tsv s.rft
    assert_equal "${#lines[@]}" 1
    assert_output "model-slowdowns.sh: nosuch.ini: cannot be read"
    [ ! -e out.tsv ]
    head -c 3000 s.rft > cut.rft
    run -1 "$S" --m2s-config base.ini -o out.tsv cut.rft
    assert_equal "${#lines[@]}" 1
    assert_output --partial "cut.rft"
    [ ! -e out.tsv ]
    assert_output --partial "truncated"
}

@test "usage: --help lists every option; no --m2s-config, no trace: status 2" {
    run -0 "$S" --help
    for o in --m2s-config -r --repeat -o --output -h --help; do assert_output --partial -- "$o"; done
    run -2 "$S" s.rft
    assert_output --partial "no --m2s-config"
    run -2 "$S" --m2s-config base.ini
    run -2 "$S" --m2s-config base.ini --bogus s.rft
}
