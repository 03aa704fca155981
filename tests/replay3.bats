#!/usr/bin/env bats
# The unit a write's result came from (rft(5): write flags 0x10 vector memory, 0x20 LDS, neither
# vector ALU): the Multi2Sim SI decoder marks it, the text format and rft-view carry it, and
# rft-replay --add-latency delays only the unit --latency-unit names (default alu), --hold
# holding the SIMD for a vector ALU instruction alone (issue 25).

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    # alone.txt: one wavefront, a chain of three instructions; the first marked a vector memory
    # load, the second an LDS load, the third left vector ALU
    awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "W" { n++; if (n == 1) $0 = $0 "\tflags=vmem";
        if (n == 2) $0 = $0 "\tflags=lds" } { print }' "$FIX/replay/alone.txt" > units.txt
}

# the total row of rft-replay -f tsv with the options given, on units.rft
total() { rft-replay -f tsv "$@" units.rft | awk -F'\t' '$1 == "total"'; }

@test "the Multi2Sim SI decoder marks vector memory loads, scalar loads write no vector register" {
    F="$FIX/m2s42"
    rft-decode --kernel fastWalshTransform --local-size 256 --cycles-from "$F/fwt-det.trace.zst" \
        "$F/fwt-det.isa.zst" -o s.rft
    # 16 tbuffer_load_format_x, one register each; no ds_ instruction in this kernel
    run -0 pipe "rft-view s.rft | grep '^W' | grep -c 'flags=vmem'"
    assert_output 16
    run -1 pipe "rft-view s.rft | grep '^W' | grep 'flags=lds'"
}

@test "text and JSON carry the unit; the other flags keep theirs" {
    sed 's/flags=vmem/flags=fb+vmem/' units.txt > fb.txt
    rft-decode fb.txt -o u.rft
    run -0 pipe "rft-view u.rft | grep -o 'flags=[a-z+]*'"
    assert_output $'flags=fb+vmem\nflags=lds'
    run -0 pipe "rft-view -f json u.rft | grep -o '\"unit\": \"[a-z]*\"'"
    assert_output $'"unit": "vmem"\n"unit": "lds"'
    run -0 pipe "rft-view -f json u.rft | grep -c '\"firstblock\": 1'"
    assert_output 1
}

@test "--latency-unit: only the named unit's results come later (default alu)" {
    rft-decode units.txt -o units.rft
    run -0 total --add-latency 5
    assert_output "total	20	25	25.00	25	25.00	3	5"
    run -0 total --add-latency 5 --hold
    assert_output "total	20	25	25.00	25	25.00	3	5"
    run -0 total --add-latency 5 --latency-unit vmem
    assert_output "total	20	25	25.00	25	25.00	3	5"
    run -0 total --add-latency 5 --latency-unit lds
    assert_output "total	20	25	25.00	25	25.00	3	5"
    run -0 total --add-latency 5 --latency-unit all
    assert_output "total	20	35	75.00	35	75.00	3	15"
    # unmarked, every instruction is vector ALU
    rft-decode "$FIX/replay/alone.txt" -o plain.rft
    run -0 pipe "rft-replay -f tsv --add-latency 5 plain.rft | awk -F'\t' '\$1 == \"total\"'"
    assert_output "total	20	35	75.00	35	75.00	3	15"
}

@test "--latency-unit: usage errors" {
    rft-decode units.txt -o units.rft
    run -2 --separate-stderr rft-replay --latency-unit vmem units.rft
    [[ "$stderr" == "rft-replay: --latency-unit needs --add-latency"* ]]
    run -2 --separate-stderr rft-replay --add-latency 4 --latency-unit simd units.rft
    [[ "$stderr" == *"--latency-unit"* ]]
}
