#!/usr/bin/env bats
# rft-decode on real Multi2Sim 4.2 Southern Islands output (fixtures/m2s42/README): the
# functional and the detailed ISA log, and the detailed run's pipeline trace read with
# --cycles-from (rft-decode(1), MULTI2SIM).

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    F="$FIX/m2s42"
}

FWT="--kernel fastWalshTransform --local-size 256"

# counter NAME: its value in the counters record of s.rft
counter() {
    rft-view s.rft | tail -1 | tr '\t' '\n' | sed -n "s/^$1=//p"
}

@test "4.2 functional log: v_cndmask's '(1, 1.4013e-45f)' and lane-numbered compares decode" {
    run -0 --separate-stderr bash -c "rft-decode $FWT '$F/fwt-func.isa.zst' > s.rft"
    assert_equal "$(counter wavefronts)" 4
    assert_equal "$(counter unattributed_instructions)" 0
    assert_equal "$(counter ended_without_end_instruction)" 0
    # the four wavefronts run the same code: the compares of wavefronts 1-3 ("t5: S[8:+1]<=",
    # N the lane) are theirs, not wavefront 0's
    run -0 pipe "rft-view s.rft | awk '\$1 == \"R\" || \$1 == \"W\" { n[\$1 \" \" \$5]++ } END { for (k in n) print k, n[k] }' | sort"
    assert_output $'R 0 52\nR 1 52\nR 2 52\nR 3 52\nW 0 37\nW 1 37\nW 2 37\nW 3 37'
    # v_cndmask_b32 v2 of wavefront 0 wrote 1 ("t0: V2<=(1, 1.4013e-45f)") in lane 0
    run -0 pipe "rft-view s.rft | awk '\$1 == \"W\" && \$5 == 0 && \$6 == 2 { print \$8 }'"
    assert_line 00000001
}

@test "4.2 functional log with --skip-bad: nothing is skipped, 4 wavefronts" {
    run -0 --separate-stderr bash -c "rft-decode --skip-bad $FWT '$F/fwt-func.isa.zst' > s.rft"
    assert_equal "$(counter skipped_lines)" 0
    assert_equal "$(counter wavefronts)" 4
}

@test "4.2 detailed log without its trace: each wavefront ends at its own s_endpgm" {
    # 8 wavefronts on one CU, printed in the fetch stage's order: an s_endpgm that names no
    # wavefront goes to the one whose next address it is, not to the next in round robin
    run -0 --separate-stderr bash -c "rft-decode $FWT '$F/fwt-det.isa.zst' > s.rft"
    assert_equal "$(counter wavefronts)" 8
    assert_equal "$(counter ended_without_end_instruction)" 0
    # three scalar instructions of wavefronts not named yet, with others running
    assert_equal "$(counter unattributed_instructions)" 3
    run -0 pipe "rft-view s.rft | grep -c '^E'"
    assert_output 8
}

@test "--cycles-from --cycles-at fetch: each instruction at its fetch cycle, on its CU and wavefront pool" {
    run -0 --separate-stderr bash -c "rft-decode $FWT --cycles-at fetch --cycles-from '$F/fwt-det.trace.zst' '$F/fwt-det.isa.zst' > s.rft"
    run -0 pipe "rft-view s.rft | grep -v '^[WRU#]'"
    assert_output "K	0	fastWalshTransform
B	1	0	0	0	5	fastWalshTransform	0
B	1	0	0	1	5	fastWalshTransform	0
B	1	0	0	2	5	fastWalshTransform	0
B	1	0	0	3	5	fastWalshTransform	0
B	1	0	1	4	5	fastWalshTransform	1
B	1	0	1	5	5	fastWalshTransform	1
B	1	0	1	6	5	fastWalshTransform	1
B	1	0	1	7	5	fastWalshTransform	1
E	1515	0	0	0
E	1516	0	1	4
E	1541	0	0	1
E	1542	0	1	5
E	1588	0	0	2
E	1589	0	1	6
E	1597	0	0	3
E	1598	0	1	7"
    # the same values as without the trace, only the time and the slices differ
    rft-decode $FWT "$F/fwt-det.isa.zst" 2>/dev/null | rft-view | awk '$1 == "W" { $2 = $3 = $4 = ""; print }' > plain.txt
    rft-view s.rft | awk '$1 == "W" { $2 = $3 = $4 = ""; print }' > traced.txt
    run -0 cmp plain.txt traced.txt
    run -0 rft-view -H --format tsv s.rft
    assert_line --partial $'cycles\tsimulated: Multi2Sim\'s pipeline trace (cycles_from)'
    assert_line $'cycles_from\t'"$F/fwt-det.trace.zst"
    assert_line $'slice_mapping\tthe pipeline trace\'s: compute unit, wavefront pool as SIMD'
    refute_line --partial issue_model
}

@test "--cycles-from: the trace's path in the header whole, however long (3,405 bytes here)" {
    cp "$F/fwt-det.trace.zst" t.zst
    p=$(printf './%.0s' {1..1700})t.zst
    run -0 --separate-stderr bash -c "rft-decode $FWT --cycles-from '$p' '$F/fwt-det.isa.zst' | rft-view -H --format tsv"
    assert_line $'cycles_from\t'"$p"
    assert_line $'source\t'"$F/fwt-det.isa.zst"
}

@test "--cycles-from: a trace of another run, one that ends early, a bad cycle" {
    zstd -q -dc "$F/fwt-det.trace.zst" > t.txt
    sed '0,/asm="s_buffer_load_dword /s//asm="s_nop /' t.txt > other.txt
    run -1 --separate-stderr rft-decode $FWT --cycles-from other.txt "$F/fwt-det.isa.zst"
    assert_equal "${stderr_lines[-1]}" "rft-decode: $F/fwt-det.isa.zst:39: instruction 1 is s_buffer_load_dword in the log but s_nop in the pipeline trace: not the same run"
    head -100 t.txt > short.txt
    run -1 --separate-stderr rft-decode $FWT --cycles-from short.txt "$F/fwt-det.isa.zst"
    assert_equal "${stderr_lines[-1]}" "rft-decode: $F/fwt-det.isa.zst:75: the pipeline trace ends before instruction 13 (s_buffer_load_dword)"
    sed '5s/.*/c clk=x/' t.txt > bad.txt
    run -1 --separate-stderr rft-decode $FWT --cycles-from bad.txt "$F/fwt-det.isa.zst"
    assert_equal "${stderr_lines[-1]}" "rft-decode: bad.txt:5: 'c clk=x' is not a cycle after 1"
    gzip -c t.txt > t.gz
    run -1 --separate-stderr rft-decode $FWT --cycles-from t.gz "$F/fwt-det.isa.zst"
    assert_equal "${stderr_lines[-1]}" "rft-decode: t.gz: gzip data, not plain or zstd-compressed text: decompress it first (zcat FILE | ...)"
}

@test "--cycles-from on another format is a usage error" {
    zstd -q -dc "$F/fwt-det.trace.zst" > t.txt
    printf 'B 0 0 0 0 4 k 0\n' > in.txt
    run -2 --separate-stderr rft-decode --cycles-from t.txt in.txt
    assert_equal "$stderr" "rft-decode: --cycles-from applies to the m2s format (Southern Islands ISA logs) (see rft-decode --help)"
}
