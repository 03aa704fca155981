#!/usr/bin/env bats
# bench/m2s-model/campaign: the runs of one GPU of a split, their status
# lines, and a stopped campaign resumed by running it again.  A stand-in
# for m2s writes what the script reads (no simulator here).

load test_helper

# campaign times each run with GNU time (make check installs it as root)
need_time() { [ -x /usr/bin/time ] || skip "no /usr/bin/time (Debian package time: make bench-deps)"; }

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
    need_time
    # M2S relative to where it is started: the runs are made in the samples' folders
    M2S=bin/m2s run "$C" -j 1 split g53 st
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

@test "campaign: prose that begins with a half's name is not a kernel (SPLIT-v59's 'tuning data')" {
    need_time
    printf 'tuning data once test58 has run: what a change may\ntest half is run once\ntest    DCT\ntuning  FFT   a note\n' > split
    run -0 "$C" -j 1 split g53 st
    [ "$(grep -c ' DONE ' st)" -eq 18 ]
    refute grep -q FAILED st
    [ "$(awk '$2 == "RUN" { print $3 }' st | sort -u | tr '\n' ,)" = "DCT,FFT," ]
    # run takes the same kernels of a half: prose is neither a kernel nor a missing one
    (. "$TOP/bench/m2s-model/tables.sh" && split_kernels split test && split_kernels split test tuning) > k
    [ "$(tr '\n' , < k)" = "DCT,DCT,FFT," ]
}

@test "campaign: a failed run is a FAILED line; run again, only what is not done runs" {
    need_time
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

@test "campaign --base-only: the traced base runs alone, and run reads the knobs' cycles from the committed table" {
    need_time
    run "$C" --base-only split g53 st
    assert_success
    [ "$(grep -c ' DONE ' st)" -eq 2 ]
    [ "$(grep -c ' DONE .* base-traced$' st)" -eq 2 ]
    grep -q 'START g53 2 jobs' st
    [ ! -e data/DCT/g53/rew+4.report ]
    # run's cells where no knob report is on disk: the half's committed table's
    here=$TOP/bench/m2s-model
    printf 'kernel\tgpu\tknob\tlevel\tsim_base\tsim_cycles\n' > committed
    printf 'DCT\tg53\trew\t4\t1000\t1100\nFFT\tg53\trew\t4\t2000\t2000\n' >> committed
    printf 'Gone\tg53\tall\t-\tmissing\n' >> committed
    . "$here/tables.sh"
    [ "$(cells DCT g53 data/DCT/g53 committed)" = "rew 4 1000 1100" ]
    printf '[ Device ]\nCycles = 999\n' > data/DCT/g53/rew+4.report
    [ "$(cells DCT g53 data/DCT/g53 committed | cut -d' ' -f1-3)" = "rew 4 g53-base" ]
    [ -z "$(cells Gone g53 data/Gone/g53 committed)" ]
    [ -z "$(cells Nope g53 data/Nope/g53 no-such-table)" ]
}

@test "campaign: a traced base run without the host check's Passed fails" {
    need_time
    printf '#!/bin/sh\n%s "$@" | grep -v Passed\nexit 0\n' "$M2S" > bin/m2s-nopass
    chmod +x bin/m2s-nopass
    M2S=$PWD/bin/m2s-nopass run "$C" split g53 st
    assert_success
    grep -q 'FAILED DCT g53 base-traced exit 0, no Passed' st
}

@test "campaign: impossible arguments are refused with one line, status 2" {
    need_time
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
    M2S=no-such-m2s run "$C" split g53 st
    assert_failure 2
    assert_output "campaign: M2S (the m2s binary) is not set to an executable"
    [ ! -e st ]
}

@test "campaign: a missing host program, or a kernel without its input's row, fails its runs by name" {
    need_time
    rm samples/FFT/FFT_static
    mkdir samples/Nope && printf '#!/bin/sh\n' > samples/Nope/Nope_static && chmod +x samples/Nope/Nope_static
    printf 'test    Nope\n' >> split
    run "$C" split g53 st
    assert_success
    [ "$(grep -c 'FAILED FFT g53 .* no host program' st)" -eq 9 ]
    [ "$(grep -c 'FAILED Nope g53 .* no row in kernels.tsv or kernels4.tsv' st)" -eq 9 ]
    [ "$(grep -c ' DONE DCT ' st)" -eq 9 ]
    [ ! -e data/Nope/g53 ]
}

@test "check-runs: a whole campaign passes; a short report, a cut trace and a missing run are named" {
    need_time
    K=$TOP/bench/m2s-model/check-runs
    run "$C" split g53 st
    assert_success
    run "$K" g53 data
    assert_success
    assert_output "check-runs: g53: 2 kernels, 18 of 18 runs with a report, 0 problems"
    # a run stopped half way: a report shorter than the base's
    head -1 data/DCT/g53/rew+10.report > x && mv x data/DCT/g53/rew+10.report
    rm data/FFT/g53/ldsw+4.report
    f=data/FFT/g53/FFT.trace.zst
    head -c $(($(wc -c < $f) - 3)) $f > x && mv x $f
    run "$K" g53 data
    assert_failure 1
    assert_line "check-runs: g53: DCT: rew+10.report has 1 lines, base.report 2"
    assert_line "check-runs: g53: FFT: no ldsw+4.report"
    assert_line "check-runs: g53: FFT: FFT.trace.zst is not whole (zstd -t)"
    assert_line "check-runs: g53: 2 kernels, 17 of 18 runs with a report, 3 problems"
}

@test "check-runs: no kernel of that GPU, or no GPU, is an error" {
    run "$TOP/bench/m2s-model/check-runs" g99 data
    assert_failure 1
    assert_output "check-runs: g99: no kernel has a folder data/<Kernel>/g99"
    run "$TOP/bench/m2s-model/check-runs"
    assert_failure 2
}
