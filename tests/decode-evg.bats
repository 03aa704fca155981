#!/usr/bin/env bats
# rft-decode --input-format evg: Multi2Sim 4.x Evergreen --evg-debug-isa logs.  The
# fixtures in fixtures/evg/ follow the print statements of Multi2Sim's
# src/arch/evergreen (ndrange.c, wavefront.c, isa.c, machine.c, asm/inst.c);
# each .expected file is the canonical text (rft-view) they must decode to.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    F="$FIX/evg"
}

EVG="--lanes 4 --block-lanes 4"

# evg LOG OPTIONS...: rft-decode --input-format evg LOG > s.rft ($status, $stderr)
evg() {
    local in=$1
    shift
    run --separate-stderr bash -c 'rft-decode --input-format evg "$@" > s.rft' _ "$@" "$in"
}

# same FIXTURE: s.rft holds exactly fixtures/evg/FIXTURE.expected
same() { rft-view s.rft | diff -u "$F/$1.expected" -; }

@test "evg: a hand-written log decodes to bundles, writes and wavefronts" {
    evg "$F/basic.txt" $EVG --cus 2 --kernel demo
    assert_success
    assert_equal "$stderr" ""
    same basic
    # slots and flags: MOV+RCP_e (trans), four DOT4 (vector), an integer
    # multiply on T (trans-only), a predicate, a clause under a partial mask
    run -0 pipe "rft-view --kind A --wf 0 s.rft | cut -f6- | paste -sd ' '"
    assert_output "XT	f	trans XYZW	f	vector XYT	f	trans X	f Z	5 Y	5"
    # the CUs run in parallel: in each round (8 cycles: two wavefronts a CU)
    # both issue at the same cycles
    run -0 pipe "rft-view --kind A s.rft | awk -F'\t' '{ c[\$3] = c[\$3] \" \" \$2 } END { print c[0]; print c[1] }'"
    assert_output " 8 12 16 20 24 28 56 60 72 76 80 84
 8 12 16 20 24 28 56 60 72 76 80 84"
}

@test "evg: unnamed instructions follow Multi2Sim's round robin, barriers reorder it" {
    evg "$F/barrier.txt" $EVG --kernel bar
    assert_success
    same barrier
    # wavefront 1 reached the barrier first: the groups no work-item ran
    # (nothing printed) go 1, 0, 2
    run -0 pipe "rft-view --kind A s.rft | awk -F'\t' '\$7 == \"0\" { print \$5 }' | paste -sd ' '"
    assert_output "1 0 2 1 0 2"
}

@test "evg: detected, CU by work-group, entries and windows from the log" {
    run -0 --separate-stderr bash -c "rft-decode -v $EVG '$F/basic.txt' > s.rft"
    assert_equal "${stderr_lines[0]}" "rft-decode: $F/basic.txt: format evg (detected at line 5)"
    run -0 rft-view -H --format tsv s.rft
    assert_line $'entries\t1024'
    assert_line $'decoder\tevg'
    assert_line $'slice_mapping\twork-group g on CU g mod 20, SIMD 0'
    assert_line $'wavefront_end\twith its ND-Range (the log does not show it)'
    assert_line $'nvgprs\t20'
    # work-group 1 on CU 1 of 20, kernel ndrange0; --nvgprs decodes in one pass
    run -0 pipe "rft-view --kind B s.rft | cut -f3,4,6,7,8 | sort -u | paste -sd ' '"
    assert_output "0	0	20	ndrange0	0 1	0	20	ndrange0	1"
    run -0 --separate-stderr bash -c "rft-decode -v --nvgprs 24 --cus 1 $EVG '$F/basic.txt' | rft-view --kind B | cut -f3,6 | sort -u"
    assert_output "0	24"
    [[ $stderr != *pre-scan* ]]
}

@test "evg: 64-wide wavefronts by default, two ND-Ranges, T registers not placed" {
    {
        for k in 0 1; do
            printf 'local_size = 64 (64,1,1)\nglobal_size = 64 (64,1,1)\ngroup_count = 1 (1,1,1)\n'
            printf 'wavefront_count = 1\nwavefronts_per_work_group = 1\n'
            printf '\n\n00 ALU: ADDR(32) CNT(1) \n  wavefront[i0-i63]:pred=%s' "$(printf '1%.0s' {1..32})$(printf '0%.0s' {1..32})"
            printf '\n\n      0  x: MOV         R1.x,  R0.x      \n         t: SIN         T0.x,  R0.x      \n'
            for ((i = 0; i < 32; i++)); do printf '  i%d:PV.x,R1.x<=0x%x  i%d:PS,T0.x<=0f' $i $i $i; done
            printf '\n'
        done
    } > two.txt
    run -0 --separate-stderr bash -c 'rft-decode two.txt | rft-view'
    assert_output - <<'EOF'
K	0	ndrange0
B	0	0	0	0	8	ndrange0	0
A	4	0	0	0	XT	00000000ffffffff	trans
R	4	0	0	0	0
W	4	0	0	0	4	00000000ffffffff	00000000	00000001	00000002	00000003	00000004	00000005	00000006	00000007	00000008	00000009	0000000a	0000000b	0000000c	0000000d	0000000e	0000000f	00000010	00000011	00000012	00000013	00000014	00000015	00000016	00000017	00000018	00000019	0000001a	0000001b	0000001c	0000001d	0000001e	0000001f	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000
E	8	0	0	0
K	8	ndrange1
B	8	0	0	1	8	ndrange1	0
A	12	0	0	1	XT	00000000ffffffff	trans
R	12	0	0	1	0
W	12	0	0	1	4	00000000ffffffff	00000000	00000001	00000002	00000003	00000004	00000005	00000006	00000007	00000008	00000009	0000000a	0000000b	0000000c	0000000d	0000000e	0000000f	00000010	00000011	00000012	00000013	00000014	00000015	00000016	00000017	00000018	00000019	0000001a	0000001b	0000001c	0000001d	0000001e	0000001f	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000	00000000
E	16	0	0	1
# counters	stage=rft-decode	scope=total	lines=26	instructions=4	wavefronts=2	writes=2	reads=2	float_lanes=0	inexact_float_lanes=0	double_lanes=0	ignored_lines=10	unattributed_instructions=0	preset_writes=0	unrecovered_writes=0	untraced_changes=64	ended_without_end_instruction=2	unplaced_reads=0	skipped_lines=0
EOF
}

@test "evg: a stream decoded from a log goes through the aging pipeline" {
    run -0 pipe "rft-decode $EVG --entries 64 '$F/basic.txt' | rft-alloc | rft-duty --summary --format tsv | cut -f1,7"
    no_notes
    assert_output "slice	used
0:0	40
1:0	40
all	80"
}

@test "evg: lines and tokens that fit no grammar: file, line, token, status 1" {
    # after the header and a clause start (22 lines): the lines, the line
    # number of the error, its message
    local -a cases=(
        'hello world' 23 "line fits no grammar of a Multi2Sim Evergreen log: 'hello world'"
        '      0  x: MOV  R1.x,  R0.x\n  i0:XYZ<=1' 24 "'i0:XYZ<=1' fits no grammar of a result"
        '      0  x: MOV  R1.x,  R0.x\n  i99:PV.x,R1.x<=0x1' 24 "work-item 'i99:' is outside the ND-Range of 12 work-items"
        '      0  x: MOV  R1.x,  R0.x\n  i0:PV.x,R1.x<=0x1  i4:PV.x,R1.x<=0x1' 24 "'i4:' is in wavefront 1, not in wavefront 0 of the same instruction"
        '      0  x: MOV  R1.x,  R0.x\n         x: MOV  R1.y,  R0.x' 24 "slot 'x' twice in one ALU group"
        '  wavefront[i0-i3]:pred=11' 23 "'wavefront[i0-i3]:pred=11': a mask of 2 work-items for a wavefront of 4"
        '  wavefront[i1-i4]:act=1111' 23 "'wavefront[i1-i4]' is not a wavefront of this ND-Range"
        '      0  x: MOV  R1.x,  R0.x\n  i0:PV.x,R1.x<=zz' 24 "bad value 'zz'"
    )
    local c bad=0
    head -18 "$F/basic.txt" > h.txt
    printf '\n\n00 ALU: ADDR(32) CNT(4) KCACHE0(CB0:0-15) \n  wavefront[i0-i3]:pred=1111\n' >> h.txt
    for ((c = 0; c < ${#cases[@]}; c += 3)); do
        { cat h.txt; printf "${cases[c]}\n"; } > t.txt
        evg t.txt $EVG
        if [[ $status != 1 || $stderr != "rft-decode: t.txt:${cases[c + 1]}: ${cases[c + 2]}" ]]; then
            echo "${cases[c]}: status $status: $stderr"
            bad=1
        fi
    done
    [[ $bad == 0 ]]
    # before and around the ND-Range header
    printf '00 ALU: ADDR(32) CNT(4) \n' > t9.txt
    evg t9.txt $EVG
    assert_equal "$status $stderr" "1 rft-decode: t9.txt:1: an instruction before the ND-Range header (local_size = ...): 'ALU: ADDR(32) CNT(4) '"
    { head -5 "$F/basic.txt"; printf '  i0:PV.x,R1.x<=0x1\n'; } > t10.txt
    evg t10.txt $EVG
    assert_equal "$status $stderr" "1 rft-decode: t10.txt:6: 'i0:PV.x,R1.x<=0x1' without an instruction before it"
    sed 's/^wavefronts_per_work_group = 2$/wavefronts_per_work_group = 3/' "$F/basic.txt" > t11.txt
    evg t11.txt $EVG
    assert_equal "$status $stderr" "1 rft-decode: t11.txt:5: wavefronts_per_work_group = 3 does not fit local_size 6 and wavefronts of 4 work-items (--lanes)"
    evg "$F/basic.txt" $EVG --nvgprs 4
    assert_equal "$status $stderr" "1 rft-decode: $F/basic.txt:33: register 'R1' outside the window of 4 registers of kernel ndrange0"
    evg "$F/basic.txt"
    assert_equal "$status $stderr" "1 rft-decode: $F/basic.txt:5: wavefronts_per_work_group = 2 does not fit local_size 6 and wavefronts of 64 work-items (--lanes)"
}

@test "evg: --skip-bad leaves out a bad line with a warning" {
    awk 'NR == 40 { print "garbage here" } { print }' "$F/basic.txt" > skip.txt
    run -0 --separate-stderr bash -c "rft-decode --skip-bad $EVG --cus 2 --kernel demo skip.txt > s.rft"
    assert_equal "${stderr_lines[0]}" "rft-decode: warning: skip.txt:40: line fits no grammar of a Multi2Sim Evergreen log: 'garbage here' (line skipped)"
    rft-view s.rft | grep -v '^#' > got.tsv
    diff <(grep -v '^#' "$F/basic.expected") got.tsv
}

@test "evg: options that do not apply are usage errors" {
    run -2 --separate-stderr rft-decode --input-format evg --simds 4 "$F/basic.txt"
    assert_equal "${stderr_lines[0]}" "rft-decode: --simds: an Evergreen compute unit is one SIMD engine (SIMD 0) (see rft-decode --help)"
    run -2 --separate-stderr rft-decode --input-format evg --local-size 6 "$F/basic.txt"
    assert_equal "${stderr_lines[0]}" "rft-decode: --local-size applies to the m2s format (an Evergreen log gives it) (see rft-decode --help)"
    run -2 --separate-stderr rft-decode --input-format vliw "$F/basic.txt"
    assert_equal "${stderr_lines[0]}" "rft-decode: --input-format: 'vliw' is not one of auto, text, csv, m2s, evg, gem5, nvbit, cutracer, columns (see rft-decode --help)"
}

@test "evg: reads from the source operands; R123 a clause temporary outside the window" {
    # a kernel holding R0-R1 whose compiler writes R123 (an OP3 result read
    # through PV) and stores R1 at the address R0.x
    {
        printf 'local_size = 4 (4,1,1)\nglobal_size = 4 (4,1,1)\ngroup_count = 1 (1,1,1)\n'
        printf 'wavefront_count = 1\nwavefronts_per_work_group = 1\n\n'
        printf '00 ALU: ADDR(32) CNT(2) \n  wavefront[i0-i3]:pred=1111\n\n'
        printf '      0  x: MULADD      R123.x,  R0.x,  R0.y,  -R0.z      \n'
        for i in 0 1 2 3; do printf '  i%d:PV.x,R123.x<=0x%x' $i $i; done
        printf '\n\n      1  y: ADD         R1.y,  PV.x,  |R0.w|      \n'
        for i in 0 1 2 3; do printf '  i%d:PV.y,R1.y<=0x%x' $i $i; done
        printf '\n\n01 MEM_RAT_CACHELESS_STORE_RAW: RAT(11)[R0].x___, R1, ARRAY_SIZE(4)  MARK  VPM\n'
    } > tmp.txt
    evg tmp.txt $EVG --kernel k
    assert_success
    # the window: R0-R1 (8 entries), not 124 registers
    run -0 pipe "rft-view --kind B s.rft | cut -f6"
    assert_output 8
    # reads: R0.x R0.y R0.z, then R0.w, then the store's R0.x and R1's four channels
    run -0 pipe "rft-view --kind R s.rft | cut -f2,6 | paste -sd ' '"
    assert_output "$(printf '4\t0 4\t1 4\t2 8\t3 12\t0 12\t4 12\t5 12\t6 12\t7')"
    # only R1.y is written; R123's four lanes are counted, not placed
    run -0 pipe "rft-view --kind W s.rft | cut -f6"
    assert_output 5
    run -0 pipe "rft-view s.rft | grep -o 'untraced_changes=[0-9]*'"
    assert_output untraced_changes=4
    run -0 pipe "rft-view -H --format tsv s.rft | grep clause_temporaries | cut -f2"
    assert_output "R123-R123 and T0-T3 live within an ALU clause: not in the window, not written (untraced_changes), not read (unplaced_reads)"
    # --clause-temps 124: R123 is one of the kernel's registers
    evg tmp.txt $EVG --kernel k --clause-temps 124
    assert_success
    run -0 pipe "rft-view --kind B s.rft | cut -f6"
    assert_output 496
    run -0 pipe "rft-view --kind W s.rft | cut -f6 | paste -sd ' '"
    assert_output "492 5"
}
