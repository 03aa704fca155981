#!/usr/bin/env bats
# rft-decode for real simulators: Multi2Sim --si-debug-isa, gem5 GPUVRF/GPUExec,
# NVBit record_reg_vals and CSV/TSV through a column map (rft-decode(1),
# SIMULATOR LOGS).  Each fixture in fixtures/formats/ was written by hand to
# follow the simulator's print statements; its .expected file is the
# canonical text (rft-view) of what it must decode to.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    F="$FIX/formats"
}

M2S="--lanes 8 --block-lanes 4 --local-size 4,2 --cus 2 --simds 2 --kernel demo"
GEM5="--lanes 8 --block-lanes 4 --entries 64 --kernel vadd"
LANES4="--lanes 4 --block-lanes 4"
COLS="kind=0,cycle=1,cu=2,simd=3,wf=4,vreg=5,mask=6,v0=7,nregs=11,kernel=12"

# decodes FIXTURE EXPECTED OPTIONS...: the fixture decodes (auto-detected) to
# exactly the expected canonical text, counters record included
decodes() {
    local in=$1 exp=$2
    shift 2
    run -0 --separate-stderr bash -c 'rft-decode "$@" > s.rft' _ "$@" "$F/$in"
    rft-view s.rft > out.tsv
    diff -u "$F/$exp" out.tsv
}

# fails FILE LINE MESSAGE OPTIONS...: status 1 and exactly one message line
fails() {
    local in=$1 line=$2 msg=$3
    shift 3
    run -1 --separate-stderr bash -c 'rft-decode "$@" > part.rft' _ "$@" "$in"
    assert_equal "$stderr" "rft-decode: $in:$line: $msg"
}

# ---- the four formats, decoded to what their grammar says -----------------------

@test "m2s: a hand-written log decodes to the expected records" {
    decodes m2s-basic.txt m2s-basic.expected $M2S
    assert_equal "$stderr" "rft-decode: warning: $F/m2s-basic.txt: 20 lane values were printed as floats with 6 significant digits and cannot be recovered exactly: they hold the nearest float (of 20 float lanes)"
}

@test "gem5: a hand-written log decodes to gem5's own placement" {
    decodes gem5-basic.txt gem5-basic.expected $GEM5
    assert_equal "$stderr" ""
}

@test "nvbit: writes are recovered from the next instruction that shows them" {
    decodes nvbit-basic.txt nvbit-basic.expected
    assert_equal "$stderr" "rft-decode: warning: $F/nvbit-basic.txt: 4 register writes were never shown by a later instruction: their values are unknown and they are not in the stream"
}

@test "columns: a header row, one row per lane, hex and decimal values" {
    decodes columns-lanes.csv columns-lanes.expected $LANES4
}

@test "columns: --columns on a TSV without header, K/B/W/R/E rows, lanes in columns" {
    decodes columns-rows.tsv columns-rows.expected $LANES4 --columns $COLS
}

@test "an explicit --format gives the same records as detection" {
    rft-decode $M2S "$F/m2s-basic.txt" 2>/dev/null | rft-view > auto.tsv
    rft-decode --input-format m2s $M2S "$F/m2s-basic.txt" 2>/dev/null | rft-view > given.tsv
    cmp auto.tsv given.tsv
    rft-decode --input-format gem5 $GEM5 "$F/gem5-basic.txt" | rft-view > g.tsv
    cmp g.tsv "$F/gem5-basic.expected"
    rft-decode --input-format nvbit "$F/nvbit-basic.txt" 2>/dev/null | rft-view > n.tsv
    cmp n.tsv "$F/nvbit-basic.expected"
    rft-decode --input-format columns $LANES4 "$F/columns-lanes.csv" | rft-view > c.tsv
    cmp c.tsv "$F/columns-lanes.expected"
}

@test "-v says which format was detected, and from which line" {
    local f opts
    for f in m2s-basic.txt:m2s:2 gem5-basic.txt:gem5:1 nvbit-basic.txt:nvbit:1 columns-lanes.csv:columns:2; do
        case $f in m2s*) opts=$M2S ;; gem5*) opts=$GEM5 ;; nvbit*) opts= ;; *) opts=$LANES4 ;; esac
        run -0 --separate-stderr bash -c "rft-decode -v $opts '$F/${f%%:*}' > /dev/null"
        assert_equal "${stderr_lines[0]}" "rft-decode: $F/${f%%:*}: format $(cut -d: -f2 <<< "$f") (detected at line ${f##*:})"
    done
    printf 'K\t1\tk\n' > k.tsv
    run -0 --separate-stderr bash -c 'rft-decode -v k.tsv > /dev/null'
    assert_equal "${stderr_lines[0]}" "rft-decode: k.tsv: format text (detected at line 1)"
    # and at the end what it decoded, as for the simulator logs
    [[ ${stderr_lines[1]} == "rft-decode: k.tsv: 1 lines, 1 records in "*" s ("*" MB/s of input)" ]]
    [ "${#stderr_lines[@]}" = 2 ]
    run -0 --separate-stderr bash -c 'rft-decode -v --input-format csv /dev/null > /dev/null'
    assert_equal "${stderr_lines[0]}" "rft-decode: /dev/null: format csv (given)"
    assert_equal "${stderr_lines[1]}" "rft-decode: warning: /dev/null: no records: the trace is empty"
}

# ---- Multi2Sim ---------------------------------------------------------------------

@test "m2s: the first instructions of the real MatrixMultiplication log" {
    rft-decode --kernel mmmKernel --local-size 8,8 "$F/m2s-matmul-head.txt" > s.rft
    run -0 rft-view --kind KBE s.rft
    assert_output $'K\t0\tmmmKernel\nB\t0\t0\t0\t0\t4\tmmmKernel\t0\nE\t48\t0\t0\t0'
    # v_mov_b32 v2, s1 (8 in every lane) and v_mov_b32 v3, s0, as the exact trace has them
    run -0 rft-view --kind W s.rft
    assert_line --index 3 "W	24	0	0	0	2	ffffffffffffffff$(printf '\t00000008%.0s' {1..64})"
    assert_line --index 4 "W	28	0	0	0	3	ffffffffffffffff$(printf '\t00000008%.0s' {1..64})"
    # the presets of an 8x8 work-group: v0 = x, v1 = y
    assert_line --index 0 "W	0	0	0	0	0	ffffffffffffffff$(for y in 0 1 2 3 4 5 6 7; do printf '\t%08x' 0 1 2 3 4 5 6 7; done)"
    assert_line --index 1 "W	0	0	0	0	1	ffffffffffffffff$(for y in 0 1 2 3 4 5 6 7; do printf '\t%08x' $y $y $y $y $y $y $y $y; done)"
    run -0 rft-view --kind R s.rft
    assert_line --index 0 $'R\t32\t0\t0\t0\t2'
}

@test "m2s: header metadata names the models, the windows and the float count" {
    rft-decode $M2S "$F/m2s-basic.txt" 2>/dev/null > s.rft
    run -0 rft-view -H --format tsv s.rft
    assert_line $'decoder\tm2s'
    assert_line $'issue_model\tone instruction every 4 cycles, in log order'
    assert_line $'slice_mapping\twork-group g on CU g mod 2, SIMD (g div 2) mod 2'
    assert_line $'local_size\t4,2,1'
    assert_line $'nvgprs\t12'
    assert_line $'float_lanes\t12'
    assert_line $'inexact_float_lanes\t20'
    assert_line $'skipped_lines\t0'
}

@test "m2s: --issue-cycles and the work-group mapping options" {
    rft-decode $M2S --issue-cycles 1 --cus 1 --simds 3 "$F/m2s-basic.txt" 2>/dev/null > s.rft
    run -0 rft-view --kind BE s.rft
    assert_output $'B\t0\t0\t0\t0\t12\tdemo\t0\nE\t15\t0\t0\t0\nB\t16\t0\t1\t1\t12\tdemo\t1\nE\t20\t0\t1\t1'
}

@test "m2s: without --local-size there are no v0-v2 presets and one wavefront per work-group" {
    rft-decode --lanes 8 --block-lanes 4 "$F/m2s-basic.txt" 2>/dev/null > s.rft
    run -0 rft-view --kind B s.rft
    assert_output $'B\t0\t0\t0\t0\t12\tndrange0\t0\nB\t64\t1\t0\t1\t12\tndrange0\t1'
    run -0 rft-view --stats --format tsv s.rft
    assert_line $'writes\t11'
}

@test "m2s: --nvgprs decodes in one pass, counts only in the counters record" {
    rft-decode $M2S --nvgprs 16 "$F/m2s-basic.txt" 2>/dev/null > s.rft
    run -0 rft-view -H --format tsv s.rft
    assert_line $'nvgprs\t16'
    assert_line $'counts\tin the counters record at the end of the stream'
    refute_line --partial 'float_lanes'
    run -0 rft-view s.rft
    assert_line --partial $'inexact_float_lanes=20'
}

@test "m2s: standard input and a zstd-compressed file decode like the file" {
    rft-decode $M2S "$F/m2s-basic.txt" 2>/dev/null | rft-view > file.tsv
    run -0 pipe "cat '$F/m2s-basic.txt' | rft-decode $M2S 2>/dev/null | rft-view > stdin.tsv"
    cmp file.tsv stdin.tsv
    zstd -q -c "$F/m2s-basic.txt" > log.zst
    rft-decode $M2S log.zst 2>/dev/null | rft-view > zst.tsv
    cmp file.tsv zst.tsv
    run -0 ls -A "${TMPDIR:-/tmp}"
    refute_output --partial 'rft-decode.'
}

@test "m2s: a log repeated many times decodes as many ND-Ranges" {
    for i in 1 2 3 4 5 6 7 8 9 10; do cat "$F/m2s-basic.txt"; done > ten.txt
    rft-decode $M2S ten.txt 2>/dev/null > s.rft
    run -0 rft-view --stats --format tsv s.rft
    assert_line $'kernels\t10'
    assert_line $'wavefronts\t20'
    assert_line $'writes\t170'
}

# ---- gem5 ---------------------------------------------------------------------------

@test "gem5: the window wraps around the end of the register file" {
    rft-decode $GEM5 "$F/gem5-basic.txt" > s.rft
    run -0 rft-view --wf 1 --kind W s.rft
    assert_output --partial $'\tphys=1'
    assert_output --regexp $'^W\t2\t1\t0\t1\t3\t'
    run -0 rft-view -H --format tsv s.rft
    assert_line $'placement\tgem5\'s own: phys of every write and read is gem5\'s physical VGPR'
    assert_line $'cycles\tgem5 tick / 1000'
}

@test "gem5: --ticks-per-cycle" {
    rft-decode $GEM5 --ticks-per-cycle 500 "$F/gem5-basic.txt" > s.rft
    run -0 rft-view --kind E s.rft
    assert_output $'E\t12\t1\t0\t1\nE\t14\t0\t1\t0'
}

# ---- NVBit --------------------------------------------------------------------------

@test "nvbit: 32 lanes by default, the window from the kernel line's nregs" {
    rft-decode "$F/nvbit-basic.txt" 2>/dev/null > s.rft
    run -0 rft-view -H --format tsv s.rft
    assert_line $'lanes\t32'
    assert_line $'exec_masks\tnot in the log: every write is taken as full-warp'
    run -0 rft-view --kind KB s.rft
    assert_output $'K\t0\tvecAdd\nB\t0\t0\t0\t0\t10\tvecAdd\t0\nB\t8\t1\t2\t1\t10\tvecAdd\t1'
}

@test "nvbit: RZ operands with or without their own value line" {
    # the tool prints one line per register operand; a log without RZ's line decodes alike
    awk '/IADD3 R6, R0, 0x1, RZ/ {skip = 3} skip && /^\* Reg2_/ {skip = 0; next} {print}' \
        "$F/nvbit-basic.txt" > norz.txt
    [ "$(grep -c '^\* Reg2_' norz.txt)" -eq "$(( $(grep -c '^\* Reg2_' "$F/nvbit-basic.txt") - 1 ))" ]
    rft-decode norz.txt 2>/dev/null | rft-view > out.tsv
    diff -u "$F/nvbit-basic.expected" <(sed 's/lines=64/lines=65/' out.tsv)
}

# ---- columns -------------------------------------------------------------------------

@test "columns: --radix hex reads bare values as hex" {
    printf 'cycle,wf,vreg,lane,value\n1,0,0,0,10\n1,0,0,1,ff\n' > in.csv
    rft-decode $LANES4 --radix hex in.csv > s.rft
    run -0 rft-view --kind W s.rft
    assert_output $'W\t1\t0\t0\t0\t0\t3\t00000010\t000000ff\t00000000\t00000000'
    rft-decode $LANES4 in.csv > d.rft
    run -0 rft-view --kind W d.rft
    assert_output $'W\t1\t0\t0\t0\t0\t3\t0000000a\t000000ff\t00000000\t00000000'
}

# ---- bad input: input, line and token named; status 1 -----------------------------

@test "bad input: a line that fits no grammar" {
    sed '20s/.*/this line is garbage/' "$F/m2s-basic.txt" > m.txt
    fails m.txt 20 "line fits no grammar of a Multi2Sim log: 'this line is garbage'" $M2S
    sed '5s/.*/gem5 Simulator System./' "$F/gem5-basic.txt" > g.txt
    fails g.txt 5 "line fits no grammar of a gem5 log: 'gem5 Simulator System.'" $GEM5
    sed '7s/.*/Result = PASS/' "$F/nvbit-basic.txt" > n.txt
    fails n.txt 7 "line fits no grammar of an NVBit record_reg_vals log: 'Result = PASS'"
    printf 'cycle,wf,vreg,lane,value\n1,0,0,0,1\n1,"0,0,1,1\n' > c.csv
    fails c.csv 3 "bad CSV row: error parsing data while strict checking enabled" $LANES4
}

@test "bad input: a lane number beyond the geometry" {
    sed 's/v\[17\]\[3\] = 0x5/v[17][8] = 0x5/' "$F/gem5-basic.txt" > g.txt
    fails g.txt 7 "lane 8 of v[17] beyond the 8 lanes of the geometry" $GEM5
    fails "$F/nvbit-basic.txt" 8 "lane 'Reg0_T16' beyond the 16 lanes of the geometry" --lanes 16
    printf 'cycle,wf,vreg,lane,value\n1,0,0,4,1\n' > c.csv
    fails c.csv 2 "lane 4 beyond the 4 lanes of the geometry" $LANES4
}

@test "bad input: a register write for a wavefront never seen" {
    sed 's/WV\[0\] v\[18\]\[2\]/WV[9] v[18][2]/' "$F/gem5-basic.txt" > g.txt
    fails g.txt 34 "register write for wavefront WV[9] on CU 0, which was never seen executing (GPUExec lines missing?)" $GEM5
    sed 's/t8: V3<=(0x0)/t3: V3<=(0x0)/' "$F/m2s-basic.txt" > m.txt
    fails m.txt 69 "work-item 't3:' belongs to wavefront 0, which has ended" $M2S
    printf 'W\t6\t0\t0\t1\t2\t3\t1\t2\t3\t4\n' > c.tsv
    fails c.tsv 1 "W for wavefront 1 on slice (0,0), which has not begun" $LANES4 --columns $COLS
    sed '/^Kernel /d' "$F/nvbit-basic.txt" > n.txt
    fails n.txt 6 "instruction before any 'Kernel ...' line"
}

@test "bad input: a value that does not parse" {
    sed 's/t2: V4<=(6)/t2: V4<=(6x)/' "$F/m2s-basic.txt" > m.txt
    fails m.txt 19 "bad value '(6x)' of V4" $M2S
    sed 's/v\[18\]\[2\] = 0x7/v[18][2] = 0xzz/' "$F/gem5-basic.txt" > g.txt
    fails g.txt 34 "bad value '0xzz'" $GEM5
    sed '0,/Reg0_T5: 0x00000000/s//Reg0_T5: 0x0000zz00/' "$F/nvbit-basic.txt" > n.txt
    fails n.txt 8 "bad value '0x0000zz00' of 'Reg0_T5'"
    printf 'cycle,wf,vreg,lane,value\n1,0,0,0,1x\n' > c.csv
    fails c.csv 2 "bad value '1x'" $LANES4
}

@test "bad input: registers outside the window, instructions that do not add up" {
    fails "$F/m2s-basic.txt" 36 "register 'v8' outside the window of 8 registers of kernel demo" $M2S --nvgprs 8
    sed 's/nregs 10/nregs 6/' "$F/nvbit-basic.txt" > n.txt
    fails n.txt 55 "register 'R7' outside the window of 6 registers of wavefront 0"
    sed 's/FADD R7, R2, 1/FADD R7, R2, R9/' "$F/nvbit-basic.txt" > n2.txt
    fails n2.txt 55 "the instruction of line 52 ('FADD R7, R2, R9 ;') names 3 registers but 2 value lines follow"
    sed 's/Write v\[18\]/Write v[99]/' "$F/gem5-basic.txt" > g.txt
    fails g.txt 31 "physical register v[99] beyond the 64 entries of the geometry (give --entries as gem5's vector register file size)" $GEM5
    grep -v 'Executing inst: v_mov_b32' "$F/gem5-basic.txt" > g2.txt
    fails g2.txt 3 "register write for wavefront WV[0] on CU 0, which was never seen executing (GPUExec lines missing?)" $GEM5
}

@test "bad input: a pre-scanned format writes nothing, a streamed one is rejected downstream" {
    sed 's/t2: V4<=(6)/t2: V4<=(6x)/' "$F/m2s-basic.txt" > m.txt
    run -1 --separate-stderr bash -c "rft-decode $M2S m.txt > part.rft"
    run -0 stat -c %s part.rft
    assert_output 0
    sed '0,/Reg0_T5: 0x00000000/s//Reg0_T5: 0x0000zz00/' "$F/nvbit-basic.txt" > n.txt
    run -1 --separate-stderr pipe 'rft-decode n.txt | rft-view > out.tsv'
    assert_equal "${stderr_lines[0]}" "rft-decode: n.txt:8: bad value '0x0000zz00' of 'Reg0_T5'"
    [[ "${stderr_lines[1]}" == "rft-view: -: "* ]]
}

@test "--skip-bad: skipped lines are named, counted, and kept in the metadata" {
    sed -e '22s/.*/this line is garbage/' -e 's/t8: V3<=(0x0)/t8: V3<=(0xq)/' "$F/m2s-basic.txt" > m.txt
    run -0 --separate-stderr bash -c "rft-decode $M2S --skip-bad m.txt > s.rft"
    assert_equal "${stderr_lines[0]}" "rft-decode: warning: m.txt:22: line fits no grammar of a Multi2Sim log: 'this line is garbage' (line skipped)"
    assert_equal "${stderr_lines[1]}" "rft-decode: warning: m.txt:69: bad value '(0xq)' of V3 (line skipped)"
    assert_equal "${stderr_lines[3]}" "rft-decode: warning: m.txt: 2 lines fit no grammar and were skipped (--skip-bad)"
    run -0 rft-view -H --format tsv s.rft
    assert_line $'skipped_lines\t2'
    run -0 rft-view s.rft
    assert_line --partial $'skipped_lines=2'
    # the rest decoded: the v5 write (line 22) and the second v3 write are missing
    run -0 rft-view --stats --format tsv s.rft
    assert_line $'writes\t15'
}

@test "--skip-bad on a streamed format: the count is in the counters record" {
    sed '7i Result = PASS' "$F/nvbit-basic.txt" > n.txt
    run -0 --separate-stderr bash -c 'rft-decode --skip-bad n.txt > s.rft'
    assert_equal "${stderr_lines[0]}" "rft-decode: warning: n.txt:7: line fits no grammar of an NVBit record_reg_vals log: 'Result = PASS' (line skipped)"
    assert_equal "${stderr_lines[2]}" "rft-decode: warning: n.txt: 1 line fit no grammar and was skipped (--skip-bad)"
    run -0 rft-view s.rft
    assert_line --partial $'skipped_lines=1'
}

# ---- usage ---------------------------------------------------------------------------

@test "usage errors exit 2" {
    local a
    for a in "--format xml" "--local-size 0" "--local-size 1,2,3,4" "--radix oct" "--cus 0" \
             "--simds x" "--issue-cycles 0" "--nvgprs 0" "--ticks-per-cycle 0" "--kernel a,b"; do
        run -2 --separate-stderr rft-decode $a "$F/m2s-basic.txt"
        [[ "$stderr" == "rft-decode: "* ]]
        assert_output ""
    done
    run -2 --separate-stderr rft-decode --columns cycle=1,foo=2 "$F/columns-lanes.csv"
    assert_equal "${stderr_lines[0]}" "rft-decode: --columns: 'foo=2' is not NAME=COLUMN (0-based) with a field name of rft-decode(1) (see rft-decode --help)"
    run -2 --separate-stderr rft-decode --skip-bad "$FIX/decode/basic.tsv"
    assert_equal "${stderr_lines[0]}" "rft-decode: --skip-bad applies to the m2s, gem5, nvbit and columns formats (see rft-decode --help)"
}
