#!/usr/bin/env bats
# rft-decode --cycles-from on Multi2Sim 4.2 pipeline traces (issue 25): --cycles-mhz counts
# cycles in the GPU's clock, not esim's fastest one that the trace prints; a vector ALU
# instruction that reads and writes no vector register gives an empty bundle, so that
# rft-replay sees it hold the SIMD (rft-decode(1), rft(5) TIMING).

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    F="$FIX/m2s42"
}

V="--kernel k --local-size 64 --cycles-from"
FWT="--kernel fastWalshTransform --local-size 256"

@test "--cycles-mhz 925,1000: the trace's cycles of a 1000 MHz clock as cycles of the 925 MHz GPU" {
    run -0 pipe "rft-decode $V '$F/vcmp.trace' '$F/vcmp.isa' 2>/dev/null | rft-view | awk '\$1 ~ /^[BWAE]\$/ { print \$1, \$2 }' | uniq"
    assert_output $'B 12\nW 12\nA 26\nE 43'
    run -0 pipe "rft-decode $V '$F/vcmp.trace' --cycles-mhz 925,1000 '$F/vcmp.isa' 2>/dev/null | rft-view | awk '\$1 ~ /^[BWAE]\$/ { print \$1, \$2 }' | uniq"
    assert_output $'B 12\nW 12\nA 25\nE 40'
    run -0 pipe "rft-decode $V '$F/vcmp.trace' --cycles-mhz 925,1000 '$F/vcmp.isa' 2>/dev/null | rft-view --header | grep '^cycles'"
    assert_output --partial "in cycles of the GPU's 925 MHz clock (the trace counts 1000 MHz)"
    # equal clocks: the trace's cycles as they are
    run -0 pipe "rft-decode $V '$F/vcmp.trace' --cycles-mhz 1000,1000 '$F/vcmp.isa' 2>/dev/null | rft-view | awk '\$1 == \"A\" { print \$2 }'"
    assert_output 26
}

@test "--cycles-mhz on a real trace: every record at the GPU cycle of its trace cycle" {
    rft-decode $FWT --cycles-from <(zstd -dc "$F/fwt-det.trace.zst") "$F/fwt-det.isa.zst" 2>/dev/null |
        rft-view | awk '$1 ~ /^[BWRAE]$/ { c = $2 - 1; print int((c * 1000 + 1080) / 1081) + 1 }' | sort -n > want.txt
    rft-decode $FWT --cycles-mhz 925,1000 --cycles-from <(zstd -dc "$F/fwt-det.trace.zst") "$F/fwt-det.isa.zst" 2>/dev/null |
        rft-view | awk '$1 ~ /^[BWRAE]$/ { print $2 }' | sort -n > got.txt
    [ -s want.txt ]
    run -0 cmp want.txt got.txt
    # the cycles changed
    run -1 cmp -s <(rft-decode $FWT --cycles-from <(zstd -dc "$F/fwt-det.trace.zst") "$F/fwt-det.isa.zst" 2>/dev/null | rft-view | awk '$1 == "W" { print $2 }' | sort -n) got.txt
}

@test "--cycles-mhz: GPU,TRACE in MHz, the GPU no faster than the trace" {
    run -2 --separate-stderr rft-decode $V "$F/vcmp.trace" --cycles-mhz 1000,925 "$F/vcmp.isa"
    assert_equal "$stderr" "rft-decode: --cycles-mhz: the GPU's clock 1000 MHz is faster than the trace's 925 MHz (the trace counts the run's fastest clock) (see rft-decode --help)"
    run -2 --separate-stderr rft-decode $V "$F/vcmp.trace" --cycles-mhz 925 "$F/vcmp.isa"
    assert_equal "$stderr" "rft-decode: --cycles-mhz: '925' is not GPU,TRACE (see rft-decode --help)"
    run -2 --separate-stderr rft-decode $V "$F/vcmp.trace" --cycles-mhz 0,1000 "$F/vcmp.isa"
}

@test "a vector ALU instruction with no vector register read or written: an empty bundle at its cycle" {
    rft-decode $V "$F/vcmp.trace" -o s.rft "$F/vcmp.isa" 2>/dev/null
    # v_cmp_eq_i32 vcc, s8, 0 at its simd-e cycle, no slot, the lanes of its scalar results
    run -0 pipe "rft-view s.rft | awk '\$1 == \"A\"'"
    assert_output $'A\t26\t0\t0\t0\t-\t000000000000000f'
    run -0 pipe "rft-view s.rft | tail -1 | tr '\t' '\n' | grep '^issue_only_instructions='"
    assert_output issue_only_instructions=1
    # the replay counts it as an instruction (v_mov_b32 shares the begin's cycle: a preset)
    run -0 pipe "rft-replay -f tsv s.rft | awk '\$1 == \"total\" { print \$7 }'"
    assert_output 1
    # without the pipeline trace (cycles estimated) no bundle is made
    run -0 pipe "rft-decode --kernel k --local-size 64 '$F/vcmp.isa' 2>/dev/null | rft-view | grep -c '^A' || true"
    assert_output 0
}

@test "an empty bundle does not make a GCN stream a VLIW one for rft-heal" {
    rft-decode $V "$F/vcmp.trace" -o s.rft "$F/vcmp.isa" 2>/dev/null
    # SC healing profiles the writes, not the bundles (sed reads the whole
    # table: with head, rft-heal may write its second block after head left,
    # and die of SIGPIPE, as it should: 141)
    run -0 pipe "rft-heal --scheme sc s.rft 2>/dev/null | sed -n 1p"
    assert_output --partial "busy from write records"
    run -1 --separate-stderr rft-heal --scheme pe s.rft
    assert_equal "$stderr" "rft-heal: s.rft: no bundle records: PE healing needs VLIW bundles (rft-decode --input-format evg, or a VLIW model of rft-synth), or --profile"
}

@test "--m2s-config: the clocks from the run's --si-config ini (issue 32), a changed Frequency followed" {
    # no Frequency: 4.2's 925 MHz GPU, the trace at the memory system's 1000: as --cycles-mhz 925,1000
    printf '[ Device ]\nNumComputeUnits = 4\n' > d.ini
    rft-decode $V "$F/vcmp.trace" --cycles-mhz 925,1000 -o want.rft "$F/vcmp.isa" 2>/dev/null
    rft-decode $V "$F/vcmp.trace" --m2s-config d.ini -o got.rft "$F/vcmp.isa" 2>/dev/null
    run -0 cmp want.rft got.rft
    # a GPU at 1200 MHz is the fastest clock: the trace counts it, cycles as they are
    printf '[ Device ]\nFrequency = 1200\n' > f.ini
    run -0 pipe "rft-decode $V '$F/vcmp.trace' --m2s-config f.ini '$F/vcmp.isa' 2>/dev/null | rft-view | awk '\$1 == \"A\" { print \$2 }'"
    assert_output 26
    # 500 MHz: the trace's 1000 MHz cycles halved
    printf '[ Device ]\nFrequency = 500\n' > h.ini
    run -0 pipe "rft-decode $V '$F/vcmp.trace' --m2s-config h.ini '$F/vcmp.isa' 2>/dev/null | rft-view --header | grep '^cycles'"
    assert_output --partial "in cycles of the GPU's 500 MHz clock (the trace counts 1000 MHz)"
    # one source of the clocks; a bad key named with its line; the trace needed
    run -2 --separate-stderr rft-decode $V "$F/vcmp.trace" --m2s-config d.ini --cycles-mhz 925,1000 "$F/vcmp.isa"
    assert_equal "$stderr" "rft-decode: --m2s-config and --cycles-mhz both give the clocks: give one (see rft-decode --help)"
    printf '[ Device ]\nFrequncy = 500\n' > bad.ini
    run -1 --separate-stderr rft-decode $V "$F/vcmp.trace" --m2s-config bad.ini "$F/vcmp.isa"
    assert_output ''
    [[ "$stderr" == *"bad.ini"*"line 2"*"Frequncy"* ]]
    run -2 --separate-stderr rft-decode --kernel k --local-size 64 --m2s-config d.ini "$F/vcmp.isa"
    assert_equal "$stderr" "rft-decode: --m2s-config gives the clocks of --cycles-from's trace: give the trace (see rft-decode --help)"
}

@test "v_med3_i32 names its work-items by lane (4.2 and 5.0 print 'tLANE: V[N]<=(v)'): placed in the wavefront the pipeline trace names" {
    # wavefront 1 (work-items 64-127) runs v_med3_i32 v2; its log line names lanes t0..t63
    run -0 pipe "rft-decode --kernel k --local-size 64 --cycles-from '$F/med3.trace' '$F/med3.isa' | rft-view | awk '\$1 == \"W\" && \$2 == 26 { print \$4, \$5, \$6, \$8, \$NF }'"
    assert_output "1 1 2 00000005 00000005"
    # without the pipeline trace the wavefront is unknown: refused, not put in wavefront 0
    run -1 --separate-stderr rft-decode --kernel k --local-size 64 "$F/med3.isa"
    assert_equal "$stderr" "rft-decode: $F/med3.isa:13: v_med3_i32 names its work-items by lane in Multi2Sim's log: its wavefront is known only from the pipeline trace (--cycles-from)"
}

@test "--cycles-from: the first vector instruction after an s_waitcnt and an s_barrier is marked (unit records wait, barrier at its cycle); s_endpgm at its completion" {
    run -0 pipe "rft-decode --kernel k --local-size 64 --cycles-from '$F/marks.trace' --cycles-mhz 1000,1000 '$F/marks.isa' | rft-view | awk '\$1 == \"U\" || \$1 == \"E\" { print \$1, \$2, \$6 }'"
    assert_output $'U 40 wait\nU 40 barrier\nE 55 '
    # without the pipeline trace nothing is marked
    run -0 pipe "rft-decode --kernel k --local-size 64 '$F/marks.isa' 2>/dev/null | rft-view | grep -c '^U' || true"
    assert_output 0
    # rft-replay's shift model ignores the marks: the same table as without them
    rft-decode --kernel k --local-size 64 --cycles-from "$F/marks.trace" --cycles-mhz 1000,1000 -o m.rft "$F/marks.isa"
    run -0 pipe "rft-view m.rft | grep -v '^U' | rft-decode -o n.rft - && rft-replay -f tsv --add-latency 4 m.rft | tail -1; rft-replay -f tsv --add-latency 4 n.rft | tail -1"
    [ "${lines[0]}" = "${lines[1]}" ]
}

@test "--cycles-from: an LDS access's arrival at its unit (its first lds-d) in an arrive mark, before its records at lds-w" {
    run -0 pipe "rft-decode --kernel k --local-size 64 --cycles-from '$F/lds.trace' --cycles-mhz 1000,1000 '$F/lds.isa' | rft-view | awk '\$1 != \"W\" && \$1 != \"K\" && \$1 != \"#\" { print \$1, \$2, \$6 }'"
    assert_output $'B 12 3\nU 21 arrive\nR 40 1\nE 55 '
    # the LDS load's result at its completion (lds-w, 40)
    run -0 pipe "rft-decode --kernel k --local-size 64 --cycles-from '$F/lds.trace' --cycles-mhz 1000,1000 '$F/lds.isa' | rft-view | awk '\$1 == \"W\" && \$2 == 40 { print \$6, \$8 }'"
    assert_output "2 40000000"
    # no lds-d line: no mark; an arrival before the wavefront's begin record: none either
    grep -v 'lds-d' "$F/lds.trace" > nod.trace
    run -0 pipe "rft-decode --kernel k --local-size 64 --cycles-from nod.trace --cycles-mhz 1000,1000 '$F/lds.isa' | rft-view | grep -c '^U' || true"
    assert_output 0
    # (the v_mov's execute stage moved to 22, after the LDS access arrived at 21)
    sed -e '/id=0 .*stg="simd-e"/d' -e '/end_inst id=0 /d' \
        -e '/^c clk=22$/a si.inst id=0 cu=0 wf=0 uop_id=0 stg="simd-e"\nsi.end_inst id=0 cu=0' "$F/lds.trace" > early.trace
    run -0 pipe "rft-decode --kernel k --local-size 64 --cycles-from early.trace --cycles-mhz 1000,1000 '$F/lds.isa' | rft-view | awk '\$1 == \"B\" { print \$2 }'"
    assert_output 22
    run -0 pipe "rft-decode --kernel k --local-size 64 --cycles-from early.trace --cycles-mhz 1000,1000 '$F/lds.isa' | rft-view | grep -c '^U' || true"
    assert_output 0
    # without the pipeline trace nothing is marked; the shifted replay ignores the mark
    run -0 pipe "rft-decode --kernel k --local-size 64 '$F/lds.isa' 2>/dev/null | rft-view | grep -c '^U' || true"
    assert_output 0
    rft-decode --kernel k --local-size 64 --cycles-from "$F/lds.trace" --cycles-mhz 1000,1000 -o m.rft "$F/lds.isa"
    run -0 pipe "rft-view m.rft | grep -v '^U' | rft-decode -o n.rft - && rft-replay -f tsv --add-latency 4 m.rft | tail -1; rft-replay -f tsv --add-latency 4 n.rft | tail -1"
    [ "${lines[0]}" = "${lines[1]}" ]
}

@test "v_movreld_b32's 'V[base+M0]' names register base + M0" {
    {
        printf '\n================ Initialization Summary ================\n\n========================================================\n\n'
        printf ' v_movreld_b32  v2, 5                                    // 00000000: 7E048405\n'
        for t in $(seq 0 63); do printf 't%d: V[2+1]<=(0x5) ' "$t"; done; printf '\n\n'
        printf ' s_endpgm                                                // 00000004: BF810000\n'
    } > movreld.isa
    run -0 pipe "rft-decode --kernel k --local-size 64 movreld.isa | rft-view | awk '\$1 == \"W\" && \$6 == 3 { print \$6, \$8, \$NF }'"
    assert_output "3 00000005 00000005"
}

@test "a pipeline trace that ends before an s_endpgm completed: that end at its execute stage, and a warning says so" {
    head -n -2 "$F/marks.trace" > cut.trace      # s_endpgm's si.end_inst left out
    run -0 --separate-stderr bash -c "rft-decode --kernel k --local-size 64 --cycles-from cut.trace --cycles-mhz 1000,1000 '$F/marks.isa' | rft-view | awk '\$1 == \"E\" { print \$2 }'"
    assert_output 48
    assert_equal "$stderr" "rft-decode: cut.trace: the trace ends before 1 s_endpgm completed: their wavefronts end at their execute stage, not after their stores"
}
