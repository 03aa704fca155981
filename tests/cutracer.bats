#!/usr/bin/env bats
# NVIDIA inputs: rft-decode --input-format cutracer (CUTracer's reg_trace
# NDJSON, plain or zstd, with its kernel events file) and register files by
# name (--geometry) on rft-decode and rft-synth; the aging and undervolt
# studies on both.  The fixtures in fixtures/cutracer/ were written from
# CUTracer's documented schema (gen.py says how); each .expected file is
# the canonical text (rft-view) of what it must decode to.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    F="$FIX/cutracer"
}

# decodes EXPECTED ARGS...: rft-decode ARGS gives exactly the expected text
decodes() {
    local exp=$1
    shift
    run -0 --separate-stderr bash -c 'rft-decode "$@" > s.rft' _ "$@"
    rft-view s.rft > out.tsv
    diff -u "$F/$exp" out.tsv
}

UNSEEN="16 lane values were never recovered (the lane was inactive wherever the register was next seen): they keep what the cell held"
LOST="2 register writes were never shown by a later instruction: their values are unknown and they are not in the stream"

# ---- the fixtures ---------------------------------------------------------------

@test "cutracer: kernel_metadata, regs_indices and active_mask decode to the expected records" {
    decodes vadd.expected --input-format cutracer --kernel-events "$F/events.ndjson" "$F/vadd.ndjson"
    assert_equal "$stderr" "rft-decode: warning: $F/vadd.ndjson: $LOST"
    # a write is stamped at its instruction (IMAD at cycle 16), its value the one seen next
    run -0 grep -c $'^W\t16\t0\t0\t0\t0\tffffffff\t00000000\t00000001' out.tsv
    # the predicated store's inactive lanes come from the MOV R4, R2 after it (issue 34)
    assert_equal "$(awk -F '\t' '$1 == "W" && $2 == 36 { print $23, $24, $39 }' out.tsv)" "0000012f 00000130 0000013f"
}

@test "cutracer: .ndjson.zst, auto-detected, decodes to the same records" {
    zstd -q -c "$F/vadd.ndjson" > vadd.ndjson.zst
    decodes vadd.expected --kernel-events "$F/events.ndjson" vadd.ndjson.zst
    run -0 rft-view -H s.rft
    assert_line --regexp '^decoder +cutracer$'
    assert_line --regexp '^lanes +32$'
    assert_line --regexp '^entries +512$'
    assert_line --regexp '^block_lanes +8$'
}

@test "cutracer: without the events file, kernel_metadata names the kernel and a pre-scan sizes the window" {
    run -0 --separate-stderr bash -c 'rft-decode "$1" | rft-view' _ "$F/vadd.ndjson"
    assert_line --index 0 $'K\t0\tvadd'
    assert_line --index 1 $'B\t0\t0\t0\t0\t8\tvadd\t0'
}

@test "cutracer: the older form (inline sass, no active_mask, no regs_indices) through a pipe" {
    run -0 --separate-stderr bash -c 'set -o pipefail; cat "$1" | rft-decode --assume-all-lanes-active > s.rft' _ "$F/vadd-legacy.ndjson"
    rft-view s.rft | diff -u "$F/vadd-legacy.expected" -
    run -0 rft-view -H s.rft
    assert_line --regexp '^nvgprs +5$'
    assert_line --regexp '^predicate_writes +2$'
    assert_line --regexp '^uniform_register_values +2$'
}

@test "cutracer: what is lost is counted (unrecovered, unseen lanes, predicates, uniform registers)" {
    rft-decode --kernel-events "$F/events.ndjson" "$F/vadd.ndjson" 2>/dev/null | rft-view | tail -n 1 > c.txt
    run -0 cat c.txt
    assert_output --partial $'unrecovered_writes=2\t'
    assert_output --partial $'unseen_lanes=0\t'
    # R2's lanes inactive at warp 1's STG come from its MOV R4, R2; without it never
    grep -v '"opcode_id":6,.*"warp":1}' "$F/vadd.ndjson" > nomov.ndjson
    run -0 --separate-stderr bash -c 'rft-decode --kernel-events "$1" nomov.ndjson | rft-view | tail -n 1' _ "$F/events.ndjson"
    assert_output --partial $'unseen_lanes=16\t'
    assert_equal "${stderr%%$'\n'*}" "rft-decode: warning: nomov.ndjson: $UNSEEN"
    assert_output --partial $'predicate_writes=2\t'
    assert_output --partial $'late_stamped_writes=0\t'
    printf '%s\n' \
      '{"type":"reg_trace","cta":[0,0,0],"warp":0,"grid_launch_id":0,"sass":"ULDC UR4, c[0x0][0x160] ;","regs":[],"uregs":[7],"uregs_indices":[4]}' \
      '{"type":"reg_trace","cta":[0,0,0],"warp":0,"grid_launch_id":0,"sass":"EXIT ;","regs":[]}' > u.ndjson
    run -0 --separate-stderr bash -c 'rft-decode --assume-all-lanes-active --nvgprs 4 u.ndjson | rft-view | tail -n 1'
    assert_output --partial $'uniform_register_values=1\tuniform_register_writes=1\t'
    assert_output --partial $'records_without_active_mask=2\t'
}

@test "cutracer: --reorder: a write seen after its place left the window is stamped where seen" {
    decodes vadd.expected --kernel-events "$F/events.ndjson" --reorder 65536 "$F/vadd.ndjson"
    run -0 --separate-stderr bash -c 'rft-decode --reorder 1 --kernel-events "$1" "$2" | rft-view' _ \
        "$F/events.ndjson" "$F/vadd.ndjson"
    assert_line --partial $'late_stamped_writes=8\t'
    # the IMAD's write now at the ISETP that shows it, the records still in time order
    assert_line --partial $'W\t24\t0\t0\t0\t0\tffffffff\t00000000\t00000001'
    rft-decode --reorder 1 --kernel-events "$F/events.ndjson" "$F/vadd.ndjson" 2>/dev/null | rft-view |
        awk -F '\t' '$1 != "#" { if ($2 < last) exit 1; last = $2 }'
}

@test "cutracer: kernel_launch lines in the trace itself name the kernel" {
    cat "$F/events.ndjson" "$F/vadd-legacy.ndjson" > both.ndjson
    run -0 --separate-stderr bash -c 'rft-decode --assume-all-lanes-active both.ndjson | rft-view | head -n 2'
    assert_line --index 0 $'K\t0\tvadd'
    assert_line --index 1 $'B\t0\t0\t0\t0\t8\tvadd\t0'
}

# ---- hostile NDJSON: one line each, its message names line and column ----------------

@test "cutracer: hostile NDJSON is refused with the line and column" {
    local regs='"regs":[[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32]]'
    printf '{"type":"kernel_launch","kernel_launch_id":9,"kernel_name":"k","nregs":8}\n' > ev.ndjson
    while IFS='|' read -r json msg; do
        printf '{"type":"callstack_def"}\n%s\n' "$json" > h.ndjson
        run -1 --separate-stderr rft-decode --input-format cutracer --assume-all-lanes-active --kernel-events ev.ndjson h.ndjson
        assert_equal "$stderr" "rft-decode: h.ndjson:2: $msg"
    done <<EOF
{"type":"reg_trace",}|column 21: expected a string
{"type":"reg_trace"|column 20: expected ',' or '}'
{"type":"reg_trace"} x|column 22: text after the object
[1,2]|column 1: expected '{'
{"type":"reg_trace","warp":01}|column 29: expected ',' or '}'
{"type":"reg_trace","warp":1.5}|column 28: warp: '1.5' is not an integer 0 to 1099511627775
{"type":"reg_trace","warp":-1}|column 28: warp: '-1' is not an integer 0 to 1099511627775
{"type":"reg_trace","warp":1,"warp":2}|column 30: duplicate key 'warp'
{"type":"reg_trace","cta":[0,0]}|column 32: expected three numbers
{"type":"reg_trace","active_mask":"0x123456789"}|column 35: active_mask '0x123456789' is not a 32-bit hex number
{"type":"reg_trace","sass":"a\qb"}|column 30: bad escape in a string
{"type":"reg_trace","s":"\u12"}|column 26: bad \u escape in a string
{"type":"reg_trace","n":1e}|column 27: bad number
{"type":"reg_trace","n":tru}|column 25: expected a value
{"type":"reg_trace","x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}|column 56: nesting deeper than 32
{"type":"reg_trace","regs":[[1,2,3]]}|column 36: a register with fewer than 32 thread values
{"type":"reg_trace","regs_indices":[256]}|column 37: regs_indices: '256' is not an integer 0 to 255
{"warp":1}|column 1: a record without "type"
{"type":"reg_trace","cta":[0,0,0],"warp":0,"grid_launch_id":9,"sass":"MOV R1, R2 ;",$regs}|column 1: the instruction names 2 registers but regs holds 1
{"type":"reg_trace","cta":[0,0,0],"warp":0,"grid_launch_id":9,"sass":"MOV R1, R2 ;","regs":[],"active_mask":"0x0"}|column 1: active_mask 0x0: no lane active
{"type":"reg_trace","cta":[0,0,0],"warp":0,"grid_launch_id":9,"opcode_id":7,"regs":[]}|column 1: a reg_trace record without sass whose opcode_id is in no kernel_metadata instruction table before it
{"type":"reg_trace","cta":[0,0,0],"warp":0,"grid_launch_id":9,"sass":"MOV R9, R2 ;","regs":[],"regs_indices":[]}|register 'R9' outside the window of 8 registers of wavefront 0
{"type":"kernel_metadata","instructions":{"x":{"sass":"NOP ;"}}}|column 43: instruction key 'x' is not an opcode id 0 to 1048575
{"type":"kernel_metadata","instructions":{"1":{"sass":"NOP ;"},"1":{"sass":"NOP ;"}}}|column 64: opcode id 1 twice
EOF
}

@test "cutracer: overlong tokens are refused, never cut" {
    name=$(printf 'k%.0s' $(seq 4096))
    printf '{"type":"kernel_launch","kernel_launch_id":1,"kernel_name":"%s","nregs":8}\n' "$name" > long.ndjson
    run -1 --separate-stderr rft-decode --input-format cutracer long.ndjson
    assert_equal "$stderr" "rft-decode: long.ndjson:1: column 60: kernel name longer than 4095 bytes"
    digits=$(printf '1%.0s' $(seq 70))
    printf '{"type":"reg_trace","warp":%s}\n' "$digits" > num.ndjson
    run -1 --separate-stderr rft-decode --input-format cutracer num.ndjson
    assert_equal "$stderr" "rft-decode: num.ndjson:1: column 28: number longer than 64 characters"
}

@test "cutracer: a bad kernel events file is named with its line" {
    printf '{"type":"callstack_def"}\n{"type":"kernel_launch","kernel_launch_id":3}\n' > ev.ndjson
    run -1 --separate-stderr rft-decode --kernel-events ev.ndjson "$F/vadd.ndjson"
    assert_equal "$stderr" "rft-decode: $F/vadd.ndjson: ev.ndjson:2: column 1: a kernel_launch record without kernel_launch_id and kernel_name"
    run -1 --separate-stderr rft-decode --kernel-events missing.ndjson "$F/vadd.ndjson"
    [[ $stderr == "rft-decode: missing.ndjson: "* ]]
}

@test "cutracer: records of a launch after another launch's are refused" {
    { cat "$F/vadd-legacy.ndjson"; sed 's/"grid_launch_id":3/"grid_launch_id":4/' "$F/vadd-legacy.ndjson"
      head -n 1 "$F/vadd-legacy.ndjson"; } > two.ndjson
    run -1 --separate-stderr rft-decode --assume-all-lanes-active --nvgprs 8 two.ndjson
    assert_equal "$stderr" "rft-decode: two.ndjson:33: records of launch 3 after those of launch 4: a launch's records come together"
}

@test "cutracer: usage errors exit 2" {
    run -2 --separate-stderr rft-decode --input-format cutracer --lanes 64 "$F/vadd.ndjson"
    assert_equal "$stderr" "rft-decode: --lanes: a CUTracer warp has 32 lanes (see rft-decode --help)"
    run -2 --separate-stderr rft-decode --input-format cutracer --geometry gcn "$F/vadd.ndjson"
    assert_equal "$stderr" "rft-decode: --geometry: a CUTracer warp has 32 lanes (volta, ampere, hopper or blackwell) (see rft-decode --help)"
    run -2 --separate-stderr rft-decode --input-format nvbit --kernel-events "$F/events.ndjson" "$F/vadd.ndjson"
    assert_equal "$stderr" "rft-decode: --kernel-events applies to the cutracer format (see rft-decode --help)"
    run -2 --separate-stderr rft-decode --geometry fermi "$F/vadd.ndjson"
    assert_equal "$stderr" "rft-decode: --geometry: 'fermi' is not one of gcn|evergreen|volta|ampere|hopper|blackwell (see rft-decode --help)"
    run -2 --separate-stderr rft-decode --reorder 0 "$F/vadd.ndjson"
}

# ---- geometry by name ----------------------------------------------------------------

@test "--geometry: each name's lanes, entries and block lanes; explicit options win" {
    while read -r name lanes entries bl; do
        printf 'K 0 k\n' | rft-decode --geometry "$name" > g.rft
        run -0 rft-view -H g.rft
        assert_line --regexp "^lanes +$lanes\$"
        assert_line --regexp "^entries +$entries\$"
        assert_line --regexp "^block_lanes +$bl\$"
    done <<EOF
gcn 64 256 16
evergreen 64 1024 16
volta 32 512 8
ampere 32 512 8
hopper 32 512 8
EOF
    printf 'K 0 k\n' | rft-decode --geometry hopper --entries 256 > g.rft
    run -0 rft-view -H g.rft
    assert_line --regexp '^entries +256$'
    run -0 --separate-stderr bash -c 'rft-decode -v --kernel-events "$1" --geometry volta "$2" | rft-view -H' _ \
        "$F/events.ndjson" "$F/vadd.ndjson"
    assert_line --regexp '^slice_mapping +CTA c \(linear id\) on SM c mod 80, warp w of its CTA on sub-partition w mod 4$'
}

@test "rft-synth --geometry hopper: 32 lanes, 512 entries, 8-lane blocks, 4 slices an SM" {
    rft-synth --geometry hopper --writes 3000 -o h.rft
    run -0 rft-view -H h.rft
    assert_line --regexp '^lanes +32$'
    assert_line --regexp '^entries +512$'
    assert_line --regexp '^block_lanes +8$'
    assert_line --regexp '^simds +4$'
    assert_line --regexp '^cus +2$'
    rft-synth --geometry evergreen --bundles 2000 -o e.rft
    run -0 rft-view -H e.rft
    assert_line --regexp '^entries +1024$'
    assert_line --regexp '^arch +evergreen$'
    run -2 --separate-stderr rft-synth --geometry hopper --lanes 64
    assert_equal "$stderr" "rft-synth: --lanes 64: --geometry hopper has 32 lanes (see rft-synth --help)"
    run -2 --separate-stderr rft-synth --geometry volta --arch evergreen
}

@test "a 32-lane, 512-entry slice: windows, gating, DC-Patch blocks and SCs fit it" {
    rft-synth --geometry hopper --writes 20000 -o h.rft
    # allocation: every window inside the 512 entries, ARGO over the whole slice
    rft-alloc --scheme argo h.rft | rft-view --format json --kind W | grep -o '"phys": [0-9]*' |
        awk '{ if ($2 > max) max = $2 } END { print max }' > max.txt
    run -0 cat max.txt
    (( output >= 256 && output < 512 ))
    run -0 bash -c 'set -o pipefail; rft-alloc --scheme rar h.rft | rft-gate --scheme rc | rft-duty | rft-vth --format tsv'
    # DC-Patch: four blocks of 8 lanes an entry
    run -0 bash -c 'set -o pipefail; rft-faultmap --scenario common --seed 1 h.rft | rft-dcpatch --summary=sum.tsv --format tsv -o d.rft'
    run -0 awk -F '\t' '$1 == "total" { print $2 }' sum.tsv
    (( output > 0 ))
    # SC healing: the block's 8 lanes are the SCs; a wavefront is 32 work-items
    run -0 rft-heal --scheme sc --report groups h.rft
    assert_line --index 0 "# a work-group of 128 work-items, 8 SCs per slice, wavefronts of 32, at most 256 work-items a group, rule seed"
}

# ---- the studies ---------------------------------------------------------------------

@test "the aging and undervolt studies run on a CUTracer stream" {
    rft-decode --kernel-events "$F/events.ndjson" "$F/vadd.ndjson" -o v.rft 2>/dev/null
    run -0 --separate-stderr sh "$TOP/examples/aging.sh" --quiet v.rft
    assert_line --regexp '^all +avg_0% +[0-9.]+ +'
    # the energy of NVIDIA's register file: params/nvidia-gating-32nm.conf (issue 34)
    assert_line --regexp '^base +100\.00 '
    assert_line --regexp '^parameters: .*/nvidia-gating-32nm\.conf$'
    run -0 --separate-stderr sh "$TOP/examples/undervolt.sh" --quiet v.rft
    assert_line --regexp '^common +8 +'
    assert_line --regexp '^conv +800 '
    assert_line --regexp '^parameters: .*/nvidia-undervolt-28nm\.conf$'
    run -0 --separate-stderr sh "$TOP/examples/undervolt.sh" --quiet --format json v.rft
    assert_equal "$stderr" ""
}

@test "the aging and undervolt studies run on a synthetic NVIDIA workload (rft-synth --geometry hopper)" {
    rft-synth --geometry hopper --writes 20000 -o h.rft
    run -0 --separate-stderr sh "$TOP/examples/aging.sh" --quiet h.rft
    assert_line --regexp '^all +entries_used +[0-9]+ '
    assert_line --regexp '^all +dvth_t0_norm +1\.0000 '
    run -0 --separate-stderr sh "$TOP/examples/undervolt.sh" --quiet --format tsv h.rft
    assert_line --regexp $'^common\t[0-9]+\t'
    assert_line --regexp $'^dispersed\t[0-9]+\t'
}
