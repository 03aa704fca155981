#!/usr/bin/env bats
# NVIDIA end to end (issue 34): register files by name (blackwell), NVIDIA's
# register allocation granularity in the window, rft-synth up to the largest
# GPU named, and the data-quality refusals of the cutracer decoder.  The
# CUTracer fixtures are those of fixtures/cutracer/ (written from CUTracer's
# reg_trace schema, src/trace_rapidjson.cpp), edited per test.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    F="$FIX/cutracer"
}

# ---- item 1: geometry ------------------------------------------------------------

@test "nvidia: --geometry blackwell is a B200: 148 SMs of four 512-entry sub-partitions" {
    run -0 bash -c 'set -o pipefail; rft-synth --geometry blackwell --cus 148 --writes 3000 > s.rft'
    run -0 rft-view -H s.rft
    assert_line --regexp '^lanes +32$'
    assert_line --regexp '^entries +512$'
    assert_line --regexp '^block_lanes +8$'
    assert_line --regexp '^cus +148$'
    run -0 --separate-stderr bash -c 'rft-decode --geometry blackwell --kernel-events "$1/events.ndjson" "$1/vadd.ndjson" | rft-view -H' _ "$F"
    assert_line --regexp '^entries +512$'
    run -0 bash -c 'man -l "$1/man/rft.5" 2>/dev/null | grep -c "blackwell"' _ "$TOP"
}

@test "nvidia: rft-synth --cus reaches the largest GPU named (148), a full Hopper is 132 SMs" {
    rft-synth --geometry hopper --cus 132 --writes 3000 > s.rft
    run -0 rft-view -H s.rft
    assert_line --regexp '^cus +132$'
    run -2 --separate-stderr rft-synth --cus 149
    assert_equal "$stderr" "rft-synth: --cus: 149 is out of range 1..148 (see rft-synth --help)"
}

@test "nvidia: a CUTracer kernel of 10 registers a thread has a window of 16 (256 a warp)" {
    sed 's/"nregs":8/"nregs":10/' "$F/events.ndjson" > ev.ndjson
    run -0 --separate-stderr bash -c 'set -o pipefail; rft-decode --kernel-events ev.ndjson "$1/vadd.ndjson" | rft-view | grep "^B"' _ "$F"
    assert_line --index 0 $'B\t0\t0\t0\t0\t16\tvadd\t0'
    # 255 a thread, the most, is 256 entries
    sed 's/"nregs":8/"nregs":255/' "$F/events.ndjson" > ev.ndjson
    run -0 --separate-stderr bash -c 'set -o pipefail; rft-decode --kernel-events ev.ndjson "$1/vadd.ndjson" | rft-view | grep "^B"' _ "$F"
    assert_line --index 0 $'B\t0\t0\t0\t0\t256\tvadd\t0'
}

@test "nvidia: rft-synth's NVIDIA kernels round a model's registers up to 8, GCN ones keep them" {
    rft-synth --geometry hopper --kernels reduction --writes 2000 > h.rft
    rft-synth --kernels reduction --writes 2000 > g.rft
    run -0 bash -c 'rft-view h.rft | grep "^B" | head -1'
    assert_output $'B\t0\t0\t0\t0\t16\treduction\t0'
    run -0 bash -c 'rft-view g.rft | grep "^B" | head -1'
    assert_output $'B\t0\t0\t0\t0\t13\treduction\t0'
}

# ---- item 2: loud data quality -----------------------------------------------------

@test "nvidia: a trace without active_mask is refused unless --assume-all-lanes-active, then a warning counts it" {
    run -1 --separate-stderr rft-decode -o x.rft "$F/vadd-legacy.ndjson"
    assert_equal "$stderr" "rft-decode: $F/vadd-legacy.ndjson:1: a reg_trace record without active_mask (CUTracer before June 2026): which lanes ran is unknown; --assume-all-lanes-active takes all 32"
    [ ! -e x.rft ]
    run -0 --separate-stderr rft-decode --assume-all-lanes-active -o x.rft "$F/vadd-legacy.ndjson"
    assert_equal "${stderr%%$'\n'*}" "rft-decode: warning: $F/vadd-legacy.ndjson: 16 records without active_mask were taken as all 32 lanes active (--assume-all-lanes-active): values of inactive lanes, if any, are in the stream as register contents"
    run -0 bash -c 'rft-decode --help | grep -c -- --assume-all-lanes-active; man -l "$1/man/rft-decode.1" 2>/dev/null | grep -c "assume-all-lanes-active"' _ "$TOP"
}

@test "nvidia: lane values never recovered are a warning with their count, not only a counter" {
    # warp 1's R2 is seen on 16 lanes (its STG) and never again without its MOV R4, R2
    grep -v '"opcode_id":6,.*"warp":1}' "$F/vadd.ndjson" > nomov.ndjson
    run -0 --separate-stderr rft-decode --kernel-events "$F/events.ndjson" -o x.rft nomov.ndjson
    assert_equal "${stderr%%$'\n'*}" "rft-decode: warning: nomov.ndjson: 16 lane values were never recovered (the lane was inactive wherever the register was next seen): they keep what the cell held"
}

# ---- item 3: names -----------------------------------------------------------------

@test "nvidia: a demangled templated kernel name loses its return type (void scale4<float4> -> scale4<float4>)" {
    sed 's/"kernel_name":"vadd(int\*)"/"kernel_name":"void scale4<float4>(float4*, int)"/' "$F/events.ndjson" > ev.ndjson
    run -0 --separate-stderr bash -c 'set -o pipefail; rft-decode --kernel-events ev.ndjson "$1/vadd.ndjson" | rft-view | head -n 2' _ "$F"
    assert_line --index 0 $'K\t0\tscale4<float4>'
    sed 's/"kernel_name":"vadd(int\*)"/"kernel_name":"void (anonymous namespace)::axpy<float, 4>(float*)"/' "$F/events.ndjson" > ev.ndjson
    run -0 --separate-stderr bash -c 'set -o pipefail; rft-decode --kernel-events ev.ndjson "$1/vadd.ndjson" | rft-view | head -n 1' _ "$F"
    assert_output $'K\t0\t(anonymous_namespace)::axpy<float__4>'
}

@test "nvidia: warp is NVBit's global warp id: CTA 1's warp 3 of 64-thread blocks is its warp 1, sub-partition 1" {
    printf '%s\n' '{"type":"kernel_launch","kernel_launch_id":0,"kernel_name":"k","grid":[2,1,1],"block":[64,1,1],"nregs":8}' > ev.ndjson
    printf '%s\n' '{"type":"reg_trace","active_mask":"0xffffffff","cta":[1,0,0],"warp":3,"grid_launch_id":0,"sass":"EXIT ;","regs":[]}' > w.ndjson
    run -0 --separate-stderr bash -c 'set -o pipefail; rft-decode --kernel-events ev.ndjson w.ndjson | rft-view | grep "^B"'
    assert_output $'B\t0\t1\t1\t0\t8\tk\t1'
}

# ---- item 4: studies on NVIDIA streams -------------------------------------------

@test "nvidia: rft-batch --study healing runs on a synthetic Hopper suite, the sweep sized to a slice of 8 SCs (1-7)" {
    rft-synth --geometry hopper --kernels vecadd --writes 2000 -o vecadd.rft
    rft-synth --geometry hopper --kernels reduction --writes 2000 -o reduction.rft
    run -0 --separate-stderr rft-batch --study healing -o out vecadd.rft reduction.rft
    run -0 awk -F '\t' 'NR > 1 && $1 == "vecadd" { print $2 }' out/table.tsv
    assert_output "$(seq 1 7)"
}
