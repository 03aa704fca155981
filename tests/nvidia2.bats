#!/usr/bin/env bats
# NVIDIA end to end, the rest of issue 34: the energy of NVIDIA register
# files (params/nvidia-*.conf) so that every study runs on NVIDIA streams,
# and the instruction point of a CUTracer trace (--cutracer-ipoint).  The
# CUTracer fixtures are those of fixtures/cutracer/ (gen.py: vadd-after.ndjson
# holds the values after each instruction).

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    F="$FIX/cutracer"
}

# a Hopper suite of two synthetic kernels in $1
hopper_suite() {
    mkdir -p "$1"
    rft-synth --geometry hopper --kernels vecadd --writes 2000 -o "$1/vecadd.rft"
    rft-synth --geometry hopper --kernels reduction --writes 2000 -o "$1/reduction.rft"
}

# ---- energy of NVIDIA register files ---------------------------------------------

@test "nvidia energy: a 32-lane stream is priced with nvidia-gating-32nm, DC-Patch's with nvidia-undervolt-28nm, each value an estimate with its source" {
    rft-synth --geometry hopper --writes 2000 -o h.rft
    run -0 rft-energy --show-params --format tsv h.rft
    assert_line --regexp $'^geometry.lanes\t32\t.*/nvidia-gating-32nm\\.conf: line [0-9]+$'
    assert_line --regexp $'^slice.read_pj\t147.93\t'
    run -0 rft-energy --show-params --model undervolt --format tsv h.rft
    assert_line --regexp $'^slice.conv.read_pj\t123.69\t.*/nvidia-undervolt-28nm\\.conf: line [0-9]+$'
    # GCN keeps the seeds' sets
    rft-synth --writes 2000 -o g.rft
    run -0 rft-energy --show-params --format tsv g.rft
    assert_line --regexp $'^geometry.lanes\t64\t.*/seed002-32nm\\.conf: '
    # every number of the NVIDIA sets is sourced: ESTIMATE or ASSUMPTION on its line or in
    # the comment block just above it, or a seed's table named
    for f in "$TOP"/params/nvidia-*.conf; do
        run -0 awk '/^#/ { c = c $0; next } /^[a-z]/ && $1 !~ /^(note\.|model$)/ { if ($0 c !~ /ESTIMATE|ASSUMPTION|Table|seed|a warp|registers|blocks|Vdd/) print FILENAME ": " $1 } /^$/ { c = "" }' "$f"
        assert_output ""
    done
    # the table says what the numbers are
    rft-alloc --scheme rar h.rft | rft-energy --scan -o rar.scan
    rft-energy --scan -o base.scan h.rft
    run -0 rft-energy base=base.scan rar=rar.scan
    assert_line --regexp '^base +100\.00 '
    assert_line --partial "note: NVIDIA register file (nvidia-gating-32nm): every energy and power is an ESTIMATE"
}

# (healing on a Hopper suite: tests/nvidia.bats)
@test "nvidia energy: rft-batch --study aging and undervolt exit 0 on a synthetic Hopper suite, with the energy and its notes" {
    hopper_suite suite
    run -0 --separate-stderr rft-batch --study aging -o aging suite
    assert_equal "$(awk -F '\t' 'NR > 1 && $1 == "vecadd" { n++ } END { print n }' aging/table.tsv)" 6
    run -0 grep -c 'energy: note: NVIDIA register file (nvidia-gating-32nm)' aging/table.txt
    run -0 awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } $1 == "vecadd" && $2 == "argo" { print ($c["saving%"] > 0) }' aging/table.tsv
    assert_output 1
    run -0 --separate-stderr rft-batch --study undervolt -o undervolt suite
    run -0 awk -F '\t' '$1 == "vecadd" { print $2 }' undervolt/table.tsv
    assert_line conv
    assert_line common
    assert_line dispersed
    run -0 grep -c 'energy: note: NVIDIA register file (nvidia-undervolt-28nm)' undervolt/table.txt
}

@test "nvidia energy: rft-batch --study aging and undervolt and examples/argo.sh exit 0 on a folder of CUTracer traces" {
    mkdir ct
    cp "$F/vadd.ndjson" ct/vadd.ndjson
    sed 's/"grid_launch_id":3/"grid_launch_id":4/' "$F/vadd.ndjson" > ct/vadd2.ndjson
    for s in aging undervolt; do
        run -0 --separate-stderr rft-batch --study "$s" -o "$s" ct
        run -0 awk -F '\t' '$1 == "vadd2.ndjson" { n++ } END { print (n > 0) }' "$s/table.tsv"
        assert_output 1
    done
    run -0 grep -c 'nvidia-gating-32nm' aging/table.txt
    rft-decode --kernel-events "$F/events.ndjson" "$F/vadd.ndjson" -o v.rft 2>/dev/null
    run -0 --separate-stderr sh "$TOP/examples/argo.sh" --quiet v.rft
    assert_line --partial "leakage (seed 004 Fig. 11)"
}

@test "nvidia energy: rft-energy --model chooses a model's default set, and is a usage error with --scan" {
    run -0 rft-energy --show-params --model gating --format tsv
    assert_line --regexp $'^model\tgating\t.*/seed002-32nm\\.conf: '
    run -2 --separate-stderr rft-energy --show-params --model idle
    [[ ${stderr_lines[0]} == rft-energy:*--model* ]]
    run -2 --separate-stderr rft-energy --scan --model gating /dev/null
    [[ ${stderr_lines[0]} == "rft-energy: --scan takes none of --params, --model,"* ]]
    run -0 bash -c 'rft-energy --help | grep -c -- "--model undervolt|gating"; man -l "$1/man/rft-energy.1" 2>/dev/null | grep -c "nvidia-gating-32nm"' _ "$TOP"
}

# ---- the instruction point of a CUTracer trace --------------------------------------

@test "nvidia ipoint: values recorded after the instruction are refused as before (the default), decoded with --cutracer-ipoint after" {
    run -1 --separate-stderr rft-decode --kernel-events "$F/events.ndjson" -o x.rft "$F/vadd-after.ndjson"
    assert_equal "$stderr" "rft-decode: $F/vadd-after.ndjson:17: values contradict --cutracer-ipoint before: not one of 6 writes seen again changed its register, each record shows what its instruction wrote: values taken after it (CUTRACER_INSTRUMENT_IPOINT=b); give --cutracer-ipoint after"
    [ ! -e x.rft ]
    # after: the same writes as the before trace, at the same cycles, and the write
    # never seen again (MOV R4) recovered from its own record
    rft-decode --cutracer-ipoint after --kernel-events "$F/events.ndjson" -o a.rft "$F/vadd-after.ndjson" 2>/dev/null
    rft-decode --kernel-events "$F/events.ndjson" -o b.rft "$F/vadd.ndjson" 2>/dev/null
    run -0 bash -c 'rft-view a.rft | grep "^W" | cut -f1-6 > a.w; rft-view b.rft | grep "^W" | cut -f1-6 > b.w; comm -13 a.w b.w'
    assert_output ""
    run -0 bash -c 'rft-view a.rft | grep -c "^W	.*	4	ffffffff"'
    assert_output 2
    run -0 bash -c 'rft-view -H a.rft | grep -c "values after the instruction: --cutracer-ipoint after"'
}

@test "nvidia ipoint: values recorded before the instruction are refused with --cutracer-ipoint after, at the first write seen changed" {
    run -1 --separate-stderr rft-decode --cutracer-ipoint after --kernel-events "$F/events.ndjson" -o x.rft "$F/vadd.ndjson"
    assert_equal "$stderr" "rft-decode: $F/vadd.ndjson:7: column 1: values contradict --cutracer-ipoint after: R3 of warp 1 changed since its writer's record showed it, with no write between: values taken before the instruction (--cutracer-ipoint before)"
    [ ! -e x.rft ]
    run -2 --separate-stderr rft-decode --cutracer-ipoint during "$F/vadd.ndjson"
    [[ ${stderr_lines[0]} == rft-decode:*--cutracer-ipoint* ]]
    run -0 bash -c 'rft-decode --help | grep -c -- "--cutracer-ipoint before|after"; man -l "$1/man/rft-decode.1" 2>/dev/null | grep -c "The instruction point"' _ "$TOP"
}

# ---- lanes inactive where a write is next read ---------------------------------------

@test "nvidia lanes: a write's lanes inactive at its next read take their values from a later read in the window; what leaves the window unseen is counted and warned" {
    # warp 1's IADD3 writes R2 on 32 lanes; its STG (@!P0) shows 16, its MOV R4, R2 the rest
    run -0 --separate-stderr bash -c 'set -o pipefail; rft-decode --kernel-events "$1" "$2" | rft-view' _ "$F/events.ndjson" "$F/vadd.ndjson"
    assert_line "W	36	1	0	1	2	ffffffff	$(printf '%08x\t' $(seq 288 319) | sed 's/\t$//')"
    assert_line --partial $'unseen_lanes=0\tlate_stamped_writes=0\t'
    [[ $stderr != *"never recovered"* ]]
    # a window of 6 records: the write's place leaves it before the MOV, its 16 other lanes
    # go out with what the cell held, at its own cycle, the stream still in time order
    run -0 --separate-stderr bash -c 'set -o pipefail; rft-decode --reorder 6 --kernel-events "$1" "$2" | rft-view' _ "$F/events.ndjson" "$F/vadd.ndjson"
    assert_line --partial $'unseen_lanes=16\tlate_stamped_writes=0\t'
    assert_line --regexp $'^W\t36\t1\t0\t1\t2\tffffffff\t00000120\t.*\t0000012f\t00000000\t'
    assert_equal "${stderr%%$'\n'*}" "rft-decode: warning: $F/vadd.ndjson: 16 lane values were never recovered (the lane was inactive wherever the register was next seen): they keep what the cell held"
    rft-decode --reorder 6 --kernel-events "$F/events.ndjson" "$F/vadd.ndjson" 2>/dev/null | rft-view |
        awk -F '\t' '$1 != "#" { if ($2 < last) exit 1; last = $2 }'
}

# ---- several launch files ------------------------------------------------------------

# launches 3, 4, 5 of kernels k3, k4, k5 in $1, files named against launch order,
# one compressed, one without its last newline, and their kernel events file
launch_files() {
    mkdir -p "$1"
    local id name
    for id in 3:kernel_c_iter0_k.ndjson 4:kernel_a_iter0_k.ndjson 5:kernel_b_iter0_k.ndjson; do
        name=${id#*:} id=${id%%:*}
        sed "s/\"grid_launch_id\":3/\"grid_launch_id\":$id/" "$F/vadd.ndjson" > "$1/$name"
    done
    zstd -q --rm "$1/kernel_b_iter0_k.ndjson"
    printf '%s' "$(cat "$1/kernel_a_iter0_k.ndjson")" > "$1/x" && mv "$1/x" "$1/kernel_a_iter0_k.ndjson"
    { head -n 1 "$F/events.ndjson"
      for id in 3 4 5; do
          sed -n 2p "$F/events.ndjson" | sed "s/\"kernel_launch_id\":3/\"kernel_launch_id\":$id/; s/\"kernel_name\":\"vadd(int\\*)\"/\"kernel_name\":\"k$id(int*)\"/"
      done; } > "$1/cutracer_kernel_events_1.ndjson"
}

@test "nvidia launches: a folder of CUTracer launch files is one trace in launch order, its events file found" {
    launch_files ct
    run -0 --separate-stderr bash -c 'set -o pipefail; rft-decode ct | rft-view | grep "^K"'
    assert_output $'K\t0\tk3\nK\t64\tk4\nK\t128\tk5'
    assert_equal "$stderr" "rft-decode: warning: ct: 6 register writes were never shown by a later instruction: their values are unknown and they are not in the stream"
    run -0 bash -c 'rft-decode ct 2>/dev/null | rft-view -H | grep "^source"'
    assert_output --regexp '^source +ct$'
    # files given one by one, in any order, the same stream
    rft-decode ct 2>/dev/null | rft-view > dir.txt
    rft-decode --kernel-events ct/cutracer_kernel_events_1.ndjson ct/kernel_b_iter0_k.ndjson.zst \
        ct/kernel_a_iter0_k.ndjson ct/kernel_c_iter0_k.ndjson 2>/dev/null | rft-view > files.txt
    run -0 diff dir.txt files.txt
    # an error names the file and its own line
    printf '%s\n' '{"type":"reg_trace","grid_launch_id":6,"cta":[0,0,0],"warp":0,"regs":[],"sass":"EXIT ;","active_mask":"0x0"}' > ct/kernel_d_iter0_k.ndjson
    run -1 --separate-stderr rft-decode -o x.rft ct
    assert_equal "$stderr" "rft-decode: ct/kernel_d_iter0_k.ndjson:1: column 1: active_mask 0x0: no lane active"
    [ ! -e x.rft ]
    run -2 --separate-stderr rft-decode ct -
    [[ $stderr == "rft-decode: several inputs: standard input is not one of them"* ]]
    mkdir empty
    run -2 --separate-stderr rft-decode empty
    [[ $stderr == "rft-decode: empty: no trace files (*.ndjson, *.ndjson.zst) in the folder"* ]]
    run -0 grep -c "in launch order" "$TOP/man/rft-decode.1"
}
