#!/usr/bin/env bats
# bench/m2s-model/campaign: the runs of one GPU of a split, their status
# lines, and a stopped campaign resumed by running it again.  A stand-in
# for m2s writes what the script reads (no simulator here).

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    C=$TOP/bench/m2s-model/campaign
    mkdir -p bin samples/DCT samples/FFT data
    # the stand-in: a report with the config's name, the traced run's
    # log and gzip trace, "Passed" under -e; FAIL_ON=KNOB fails that run
    cat > bin/m2s <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do
    case $1 in
    --si-config) cfg=$2; shift;;
    --si-report) rep=$2; shift;;
    --si-debug-isa) isa=$2; shift;;
    --trace) tr=$2; shift;;
    -e) echo Passed!;;
    esac
    shift
done
case $cfg in *"${FAIL_ON:-none}.ini") exit 3;; esac
printf '[ Device ]\nCycles = %s\n' "$(basename "$cfg" .ini)" > "$rep"
[ -n "${isa:-}" ] && echo "isa of $(pwd)" > "$isa" && echo trace | gzip > "$tr"
exit 0
EOF
    chmod +x bin/m2s
    for k in DCT FFT; do printf '#!/bin/sh\n' > samples/$k/${k}_static; chmod +x samples/$k/${k}_static; done
    printf 'prose: no line of it begins with a half\ntest    DCT\ntuning  FFT\n' > split
    export M2S=$PWD/bin/m2s SAMPLES=$PWD/samples DATA=$PWD/data
}

@test "campaign: each kernel's traced base run and eight knob runs, in the split's order" {
    run "$C" -j 1 split g53 st
    assert_success
    [ "$(grep -c ' DONE ' st)" -eq 18 ]
    [ "$(awk '$2 == "DONE" { print $3, $5 }' st | head -2 | tr '\n' ,)" = "DCT base-traced,DCT rew+4," ]
    grep -q ' END g53$' st
    for k in DCT FFT; do
        d=data/$k/g53
        grep -q 'Cycles = g53-base' $d/base.report
        grep -q 'Cycles = g53-vmw64+20' $d/vmw64+20.report
        [ "$(ls $d/*+*.report | wc -l)" -eq 8 ]
        zstd -dc $d/$k.isa.zst | grep -q "isa of $SAMPLES/$k"
        [ "$(zstd -dc $d/$k.trace.zst)" = trace ]
        [ ! -e $d/$k.trace.gz ] && [ ! -e $d/$k.isa ]
    done
}

@test "campaign: a failed run is a FAILED line; run again, only what is not done runs" {
    FAIL_ON=g53-ldsw+4 run "$C" split g53 st
    assert_success
    [ "$(grep -c ' FAILED ' st)" -eq 2 ]
    grep -q 'FAILED DCT g53 ldsw+4 exit 3' st
    echo 'half written' > data/DCT/g53/ldsw+4.report
    run "$C" split g53 st
    assert_success
    grep -q 'NOTE resumed: 16 runs done kept' st
    grep -q 'START g53 2 jobs' st
    grep -q 'Cycles = g53-ldsw+4' data/DCT/g53/ldsw+4.report
    run "$C" split g53 st
    assert_success
    grep -q 'END g53 (nothing left)' st
}

@test "campaign: a traced base run without the host check's Passed fails" {
    printf '#!/bin/sh\n%s "$@" | grep -v Passed\nexit 0\n' "$M2S" > bin/m2s-nopass
    chmod +x bin/m2s-nopass
    M2S=$PWD/bin/m2s-nopass run "$C" split g53 st
    assert_success
    grep -q 'FAILED DCT g53 base-traced exit 0, no Passed' st
}

@test "campaign: impossible arguments are refused with one line, status 2" {
    run "$C" split g999 st
    assert_failure 2
    assert_output "campaign: no configs/g999-base.ini"
    run "$C" -j 0 split g53 st
    assert_failure 2
    assert_output --partial "not a positive number"
    run "$C" --until 2599 split g53 st
    assert_failure 2
    printf 'prose only\n' > empty
    run "$C" empty g53 st
    assert_failure 2
    assert_output --partial "lists no kernel"
    M2S=/nonexistent run "$C" split g53 st
    assert_failure 2
    [ ! -e st ]
}

@test "campaign: a missing host program fails its runs by name" {
    rm samples/FFT/FFT_static
    run "$C" split g53 st
    assert_success
    [ "$(grep -c 'FAILED FFT g53 .* no host program' st)" -eq 9 ]
    [ "$(grep -c ' DONE DCT ' st)" -eq 9 ]
}
