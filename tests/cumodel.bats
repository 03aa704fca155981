#!/usr/bin/env bats
# rft-replay --model cu (issue 32): the compute-unit model at the traced
# configuration and at a what-if one read from Multi2Sim 4.2 ini files; the
# unit tests of every mechanism (tests/unit/test_cumodel.c); usage and bad
# configuration files.

bats_require_minimum_version 1.5.0
load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    rft-synth --quiet --writes 20000 --cus 4 -o s.rft
    printf '[ Device ]\nNumComputeUnits = 4\n' > base.ini
}

# column $1 of the total row (TSV on stdin)
col() { awk -F'\t' -v c="$1" '/^#/{next} !h{for(i=1;i<=NF;i++) if($i==c) k=i; h=1; next} $1=="total"{print $k}'; }
export -f col

@test "the unit tests of the model's mechanisms pass" {
    run -0 "$BATS_TEST_DIRNAME/unit/test_cumodel"
    [[ $output == *ok* ]]
}

@test "no what-if: the what-if cycles are the model's, slowdown 0" {
    run -0 pipe "rft-replay -f tsv --model cu --m2s-config base.ini s.rft | col slowdown_pct"
    [ "$output" = "0.00" ]
    run -0 pipe "rft-replay -f tsv --model cu s.rft | awk -F'\t' '!/^#/ && h++ && \$3 != \$4 { n++ } END { print n + 0 }'"
    [ "$output" = 0 ]
}

@test "a longer ReadExecWriteLatency never runs faster, and a larger one no faster than a smaller" {
    local prev=0 l c
    for l in 8 12 18 28; do
        printf '[ SIMDUnit ]\nReadExecWriteLatency = %s\n' $l > w.ini
        c=$(rft-replay -f tsv --model cu --m2s-config base.ini --m2s-what-if w.ini s.rft | col cycles_what_if)
        (( c >= prev ))
        prev=$c
    done
}

@test "a 1-entry write buffer costs at least as much as a 64-entry one" {
    printf '[ VectorMemUnit ]\nWriteLatency = 21\n' > w1.ini
    printf '[ VectorMemUnit ]\nWriteLatency = 21\nWriteBufferSize = 64\n' > w64.ini
    local a b
    a=$(rft-replay -f tsv --model cu --m2s-config base.ini --m2s-what-if w1.ini s.rft | col cycles_what_if)
    b=$(rft-replay -f tsv --model cu --m2s-config base.ini --m2s-what-if w64.ini s.rft | col cycles_what_if)
    (( a >= b ))
}

@test "an unknown key or section is named, status 1" {
    printf '[ SIMDUnit ]\nReadExecWriteLatncy = 9\n' > bad.ini
    run -1 rft-replay --model cu --m2s-config bad.ini s.rft
    [[ $output == *"bad.ini: line 2: unknown key ReadExecWriteLatncy in [ SIMDUnit ]"* ]]
    printf '[ Devise ]\n' > bad2.ini
    run -1 rft-replay --model cu --m2s-what-if bad2.ini s.rft
    [[ $output == *"Devise"* ]]
}

@test "usage: --m2s-config needs --model cu; --model cu takes no --add-latency nor -o" {
    run -2 rft-replay --m2s-config base.ini s.rft
    run -2 rft-replay --model cu --add-latency 4 s.rft
    run -2 rft-replay --model cu -o x.rft s.rft
    run -2 rft-replay --model gpu s.rft
}
