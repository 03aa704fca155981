#!/usr/bin/env bats
# rft-decode --cycles-from TRACE --cycles-at execute (the default): each instruction of a real
# Multi2Sim 4.2 detailed run (fixtures/m2s42/README) at the cycle of its unit's execute stage
# in the pipeline trace, records sorted by cycle in a window of --reorder records
# (rft-decode(1), MULTI2SIM).

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    F="$FIX/m2s42"
    zstd -q -dc "$F/fwt-det.trace.zst" > t.txt
}

FWT="--kernel fastWalshTransform --local-size 256"

# the cycles at which trace $1 prints a stage of the alternatives $2 (si.inst ... stg="mem-w")
stage_cycles() {
    awk -v s="stg=\"($2)\"" '/^c clk=/ { c = substr($2, 5) } $0 ~ s { print c }' "$1" | sort -u
}
# those of an execute stage (stg="simd-e" etc.)
exec_cycles() { stage_cycles "$1" 'simd-e|mem-m|lds-w|su-e|su-m|bu-e'; }

@test "execute stamping: every record at an execute stage's cycle, in cycle order, same values" {
    run -0 --separate-stderr bash -c "rft-decode $FWT --cycles-from t.txt '$F/fwt-det.isa.zst' > s.rft"
    exec_cycles t.txt > ex.txt
    # not one W or R record at a cycle where no execute stage ran (false of fetch stamping)
    run -0 pipe "rft-view s.rft | awk '\$1 == \"W\" || \$1 == \"R\" { print \$2 }' | sort -u | comm -23 - ex.txt | wc -l"
    assert_output 0
    run -0 pipe "rft-decode $FWT --cycles-at fetch --cycles-from t.txt '$F/fwt-det.isa.zst' 2>/dev/null | rft-view | awk '\$1 == \"W\" || \$1 == \"R\" { print \$2 }' | sort -u | comm -23 - ex.txt | wc -l"
    refute_output 0
    # the stream is in cycle order (rft(5)), though the execute stages are not in fetch order
    run -0 pipe "rft-view s.rft | awk '\$1 != \"#\" && \$2 < last { print \"back\", NR } \$1 != \"#\" { last = \$2 }'"
    assert_output ""
    # the same writes, values and slices as fetch stamping; only the time differs
    rft-decode $FWT --cycles-at fetch --cycles-from t.txt "$F/fwt-det.isa.zst" 2>/dev/null | rft-view | awk '$1 == "W" { $2 = ""; print }' | sort > fetch.txt
    rft-view s.rft | awk '$1 == "W" { $2 = ""; print }' | sort > exec.txt
    run -0 cmp fetch.txt exec.txt
    # a wavefront begins at its first instruction's execute stage, ends at its s_endpgm's
    # completion (si.end_inst 1622, 13 cycles after its su-e at 1609: 4.2's scalar unit holds
    # s_endpgm until the wavefront's stores are done, and its work-group's slot frees then)
    run -0 pipe "rft-view s.rft | grep '^[BE]' | head -3"
    assert_output "B	12	0	0	0	5	fastWalshTransform	0
B	13	0	1	4	5	fastWalshTransform	1
B	17	0	0	1	5	fastWalshTransform	0"
    run -0 pipe "rft-view s.rft | grep '^E' | tail -1"
    assert_output "E	1622	0	1	7"
    run -0 rft-view -H --format tsv s.rft
    assert_line --partial "the cycle of its unit's execute stage"
}

@test "the first vector ALU write of wavefront 0 is at its simd-e cycle, not its fetch" {
    # wavefront 0's first v_ instruction in the trace: its id, fetch and simd-e cycles
    read -r id f e < <(awk '/^c clk=/ { c = substr($2, 5) }
        /^si.new_inst / && / cu=0 / && / wf=0 / && /asm="v_/ && !id { id = $2; f = c }
        id && /^si.inst / && $2 == id && / cu=0 / && /stg="simd-e"/ { print substr(id, 4), f, c; exit }' t.txt)
    [ "$e" -gt "$f" ]
    # (W records after its B only: the registers a wavefront starts with are written at its begin,
    # before its first
    # instruction)
    run -0 pipe "rft-decode $FWT --cycles-from t.txt '$F/fwt-det.isa.zst' 2>/dev/null | rft-view | awk '\$1 == \"B\" && \$5 == 0 { b = \$2 } \$1 == \"W\" && \$5 == 0 && \$2 > b && !n++ { print \$2 }'"
    assert_output "$e"
    run -0 pipe "rft-decode $FWT --cycles-at fetch --cycles-from t.txt '$F/fwt-det.isa.zst' 2>/dev/null | rft-view | awk '\$1 == \"B\" && \$5 == 0 { b = \$2 } \$1 == \"W\" && \$5 == 0 && \$2 > b && !n++ { print \$2 }'"
    assert_output "$f"
}

@test "execute stamping beyond the --reorder window is refused, within it accepted" {
    run -1 --separate-stderr rft-decode $FWT --reorder 8 --cycles-from t.txt -o out.rft "$F/fwt-det.isa.zst"
    assert_regex "${stderr_lines[-1]}" "^rft-decode: $F/fwt-det.isa.zst:[0-9]+: the pipeline trace's execute stages are more than 8 records out of fetch order \(cycle [0-9]+ after [0-9]+\): raise --reorder$"
    [ ! -e out.rft ]
    run -0 --separate-stderr rft-decode $FWT --reorder 24 --cycles-from t.txt -o out.rft "$F/fwt-det.isa.zst"
}

@test "an instruction without an execute stage keeps its fetch cycle, counted" {
    # the vector ALU's execute stages taken out: those instructions keep their fetch cycle
    grep -v 'stg="simd-e"' t.txt > nosimd.txt
    run -0 --separate-stderr bash -c "rft-decode $FWT --cycles-from nosimd.txt '$F/fwt-det.isa.zst' > s.rft"
    n=$(grep -c '^si.new_inst .*asm="v_' t.txt)
    all=$(grep -c '^si.new_inst ' t.txt)
    assert_equal "${stderr_lines[-1]}" "rft-decode: nosimd.txt: $n of $all instructions have no execute stage in the trace: stamped at their fetch"
    # with no execute stage at all, the stream is the fetch-stamped one
    grep -v '^si.inst ' t.txt > none.txt
    rft-decode $FWT --cycles-from none.txt "$F/fwt-det.isa.zst" 2>/dev/null | rft-view | grep -v '^#' > a.txt
    rft-decode $FWT --cycles-at fetch --cycles-from t.txt "$F/fwt-det.isa.zst" 2>/dev/null | rft-view | grep -v '^#' > b.txt
    run -0 cmp a.txt b.txt
}

@test "--cycles-at: fetch or execute, anything else a usage error" {
    run -2 --separate-stderr rft-decode $FWT --cycles-at issue --cycles-from t.txt "$F/fwt-det.isa.zst"
    assert_regex "$stderr" "--cycles-at"
}

@test "a vector memory access's completion (its mem-w stage) in a done mark, after its instruction" {
    run -0 --separate-stderr bash -c "rft-decode $FWT --cycles-from t.txt '$F/fwt-det.isa.zst' > s.rft"
    # one done mark an access: as many as mem-w lines in the trace
    n=$(grep -c 'stg="mem-w"' t.txt)
    (( n > 0 ))
    run -0 pipe "rft-view --kind U s.rft | awk '\$6 == \"done\"' | wc -l"
    assert_output "$n"
    # at cycles where the trace prints a mem-w stage
    stage_cycles t.txt mem-w > w.txt
    run -0 pipe "rft-view --kind U s.rft | awk '\$6 == \"done\" { print \$2 }' | sort -u | comm -23 - w.txt | wc -l"
    assert_output 0
    # each wavefront's k-th done after its k-th vector memory instruction (a load's write
    # flagged vmem, a store's unit record), and no more dones than accesses before it
    run -0 pipe "rft-view s.rft | awk '(\$1 == \"W\" && /flags=vmem/) || (\$1 == \"U\" && \$6 == \"vmem\") { k = \$5; if (\$2 != last[k]) i[k] = i[k] + 1; last[k] = \$2; at[k, i[k]] = \$2 }
        \$1 == \"U\" && \$6 == \"done\" { k = \$5; d[k]++; if (d[k] > i[k] || \$2 < at[k, d[k]]) bad++ } END { print bad + 0 }'"
    assert_output 0
    # the shifted replay takes a done mark for no instruction: its table as without them
    rft-view s.rft | awk '$6 != "done"' | rft-decode -o nodone.rft -
    run -0 cmp <(rft-replay -f tsv s.rft) <(rft-replay -f tsv nodone.rft)
}

@test "a trace without an access's write stage (mem-w): no done mark for it, and a warning counts them" {
    grep -v 'stg="mem-w"' t.txt > nomemw.txt
    run -0 --separate-stderr bash -c "rft-decode $FWT --cycles-from nomemw.txt '$F/fwt-det.isa.zst' | rft-view --kind U | awk '\$6 == \"done\"' | wc -l"
    assert_output 0
    assert_equal "${stderr_lines[-1]}" "rft-decode: nomemw.txt: 32 vector memory accesses have no write stage (mem-w) in the trace: no done mark for them (rft-replay --model cu takes them at their issue)"
    # the records otherwise as with the trace whole
    rft-decode $FWT --cycles-from t.txt "$F/fwt-det.isa.zst" 2>/dev/null | rft-view | awk '$6 != "done"' > whole.txt
    run -0 pipe "rft-decode $FWT --cycles-from nomemw.txt '$F/fwt-det.isa.zst' 2>/dev/null | rft-view | awk '\$6 != \"done\"' | diff - whole.txt"
}

@test "the scalar unit's marks: a load's issue (sload) and write (sdone), a wait behind loads (shold, srel)" {
    run -0 --separate-stderr bash -c "rft-decode $FWT --cycles-from t.txt '$F/fwt-det.isa.zst' > s.rft"
    rft-view --kind U s.rft > u.txt
    # one sload a scalar load (its su-m stage), one sdone each, at their su-m and su-w cycles
    n=$(grep -c 'stg="su-m"' t.txt)
    (( n > 0 ))
    run -0 pipe "awk '\$6 == \"sload\"' u.txt | wc -l"
    assert_output "$n"
    run -0 pipe "awk '\$6 == \"sdone\"' u.txt | wc -l"
    assert_output "$n"
    stage_cycles t.txt su-m > m.txt
    run -0 pipe "awk '\$6 == \"sload\" { print \$2 }' u.txt | sort -u | comm -23 - m.txt | wc -l"
    assert_output 0
    # a wait: as many srel as shold, each wavefront's after its shold, at a su-w cycle
    h=$(awk '$6 == "shold"' u.txt | wc -l)
    (( h > 0 ))
    run -0 pipe "awk '\$6 == \"srel\"' u.txt | wc -l"
    assert_output "$h"
    run -0 pipe "awk '\$6 == \"shold\" { at[\$5] = \$2 } \$6 == \"srel\" { if (!(\$5 in at) || \$2 < at[\$5]) bad++; delete at[\$5] } END { print bad + 0 }' u.txt"
    assert_output 0
    stage_cycles t.txt su-w > w.txt
    run -0 pipe "awk '\$6 == \"srel\" || \$6 == \"sdone\" { print \$2 }' u.txt | sort -u | comm -23 - w.txt | wc -l"
    assert_output 0
    # the shifted replay takes none of them for an instruction
    rft-view s.rft | no_scalar_marks | rft-decode -o nos.rft -
    run -0 cmp <(rft-replay -f tsv s.rft) <(rft-replay -f tsv nos.rft)
}
