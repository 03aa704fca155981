#!/usr/bin/env bats
# Hostile and unlucky input, third round (issue 31), items 5-8, 10 and 11:
# one memory budget per process (rft run's stages together, the replay's
# wavefronts, rft-faultmap's output), a replay failure inside a stage is an
# error, the pipeline-trace and CUTracer decoders in linear time, rft-merge
# refusing a scan or shard twice.  The streams come from
# tests/unit/hostile_gen (`hostile_gen --list`).  Every command that main
# ran away with runs here under a CPU (ulimit -t) or memory (ulimit -v)
# limit, so that a regression fails instead of taking the machine.

load test_helper

GEN="$TOP/tests/unit/hostile_gen"

setup() {
    cd "$BATS_TEST_TMPDIR"
}

# limited SECONDS KIB COMMAND...: COMMAND under SECONDS of CPU time and KIB
# KiB of address space
# CPU seconds and address space (KiB), but no address-space limit under an
# ASan build (make check SAN=1): it reserves terabytes for its shadow and
# aborts under ulimit -v (the refusals tested here are the programs' own,
# made before allocating, so they hold without the limit)
ASAN=
ldd "$TOP/bin/rft-replay" 2>/dev/null | grep -q libasan && ASAN=1
if [ -n "$ASAN" ]; then
    limited() { (ulimit -t "$1" && shift 2 && exec "$@"); }
else
    limited() { (ulimit -t "$1" -v "$2" && shift 2 && exec "$@"); }
fi

# ---- item 5: one budget per process ------------------------------------------------

@test "item 5: rft run's stages share one --max-memory: the run is refused at 2048 MiB in all" {
    "$GEN" slices-many m.rft
    # main: each stage had 2048 MiB of its own (4.9 GB in one process)
    run --separate-stderr -1 limited 120 3000000 rft run 'alloc m.rft | gate | energy --scan'
    [[ $stderr == *"would bring the state of rft run to 204"*" MiB, over its limit of 2048 MiB (--max-memory MIB raises it)" ]] ||
        fail "$stderr"
    run --separate-stderr -1 limited 60 3000000 rft run --max-memory 16 'alloc m.rft | gate | energy --scan'
    [[ $stderr == "rft-"*": record "*": slice "*" would bring the state of rft run to 16."*" MiB, over its limit of 16 MiB"* ]] ||
        fail "$stderr"
    run --separate-stderr -1 limited 60 3000000 rft run --threads 2 --max-memory=16 'alloc m.rft | gate | duty'
    [[ $stderr == *"over its limit of 16 MiB"* ]] || fail "$stderr"
    # a stage's own --max-memory in rft run is a limit of its own besides
    run --separate-stderr -1 limited 60 3000000 rft run 'alloc m.rft | gate --max-memory 8 | energy --scan'
    [[ $stderr == "rft-gate: "*"would bring the state of rft-gate to 8."*" MiB, over its limit of 8 MiB"* ]] ||
        fail "$stderr"
    run -2 rft run --max-memory lots 'alloc m.rft'
    run -2 rft run --max-memory
}

@test "item 5: rft-replay and rft-heal take --max-memory (the process's budget)" {
    "$GEN" waves-many w.rft
    run --separate-stderr -1 limited 60 3000000 rft-replay --max-memory 32 w.rft
    [[ $stderr == "rft-replay: w.rft: record "*": wavefront "*" on slice 0:0 (65535 registers) would bring the state of rft-replay to 32."*" MiB, over its limit of 32 MiB (--max-memory MIB raises it)" ]] ||
        fail "$stderr"
    run --separate-stderr -1 limited 60 3000000 rft-heal --scheme sc --max-memory 32 w.rft
    [[ $stderr == *"over its limit of 32 MiB"* ]] || fail "$stderr"
    run -2 rft-replay --max-memory x w.rft
    rft-replay --help | grep -q -- '--max-memory MIB'
    rft-heal --help | grep -q -- '--max-memory MIB'
}

@test "item 5: rft-faultmap refuses, before writing it, a map past --max-output (default 64M)" {
    "$GEN" slices-many m.rft
    # main: about 750 MB compressed in 5 CPU-minutes, no limit
    run --separate-stderr -1 limited 60 1000000 bash -c 'rft-faultmap --scenario common m.rft > fm.rft'
    [[ $stderr == "rft-faultmap: m.rft: record "*": the fault map of slice "*" (65535 entries of 4 blocks) would bring the maps written to 64."*" MiB, over the limit of 64 MiB (--max-output SIZE raises it)" ]] ||
        fail "$stderr"
    run -1 rft-view fm.rft          # no end record: refused downstream
    run --separate-stderr -1 limited 60 1000000 bash -c 'rft-faultmap --scenario common --max-output 1M m.rft > fm.rft'
    [[ $stderr == *"over the limit of 1 MiB"* ]] || fail "$stderr"
    # the maps it writes stay within the limit
    [ "$(zstd -dc fm.rft 2>/dev/null | wc -c)" -le $((1 << 20)) ] || fail "more than 1 MiB written"
    # 0: no limit; a small stream passes the default
    rft-synth --writes 200 -o s.rft
    run -0 bash -c 'rft-faultmap --scenario common --max-output 0 s.rft | rft-view --stats'
    run -0 bash -c 'rft-faultmap --scenario common s.rft | rft-view --stats'
    run -2 rft-faultmap --scenario common --max-output lots s.rft
    run -2 rft-faultmap --stats --max-output 1M s.rft
    rft-faultmap --help | grep -q -- '--max-output SIZE'
}

# ---- item 6: the replay's wavefronts ----------------------------------------------

@test "item 6: the replay's wavefronts count in the budget; rft-energy --scan refuses, exit 1" {
    "$GEN" waves-many w.rft
    [ "$(stat -c %s w.rft)" -lt 200000 ]
    # main: about 14 GB; under a 4 GB limit "not replayed" and exit 0
    run --separate-stderr -1 limited 60 4000000 rft-energy --scan --max-memory 64 w.rft
    [[ $stderr == "rft-energy: w.rft: record "*": replay: wavefront "*" on slice 0:0 (65535 registers) would bring the state of rft-replay to 64."*" MiB, over its limit of 64 MiB (--max-memory MIB raises it)" ]] ||
        fail "$stderr"
    # the default budget, 2048 MiB, ends it too
    run --separate-stderr -1 limited 120 4000000 rft-energy --scan w.rft
    [[ $stderr == *"replay: wavefront "*"over its limit of 2048 MiB"* ]] || fail "$stderr"
    run --separate-stderr -1 limited 120 4000000 rft run 'energy --scan w.rft'
    [[ $stderr == *"replay: wavefront "*"would bring the state of rft run to"* ]] || fail "$stderr"
}

@test "item 6: the compute-unit model's wavefronts count in the budget too (rft-replay --model cu)" {
    "$GEN" waves-many w.rft
    run --separate-stderr -1 rft-replay --model cu --max-memory 1 w.rft
    [[ $stderr == "rft-replay: w.rft: record "*": wavefront "*" on slice 0:0 (65535 registers) would bring the state of rft-replay to 1."*" MiB, over its limit of 1 MiB (--max-memory MIB raises it)" ]] ||
        fail "$stderr"
    [ -z "$output" ]
    run -0 rft-replay --model cu -f tsv w.rft
    assert_line --regexp '^total	39999	'
}

# ---- item 11: a replay failure inside a stage is an error ---------------------------

@test "item 11: a replay failure inside rft-energy or rft-dcpatch is an error (exit 1), never a warning" {
    "$GEN" unit-malformed u.rft
    run --separate-stderr -1 rft-energy --scan u.rft
    [ "$stderr" = "rft-energy: u.rft: record 4: replay: malformed unit record" ]
    run --separate-stderr -1 bash -c 'rft-dcpatch --scenario common --report perf --summary=s.txt u.rft > o.rft'
    [ "$stderr" = "rft-dcpatch: u.rft: record 4: replay: malformed unit record" ]
    run -1 rft-view o.rft
    run --separate-stderr -1 pipe "rft-alloc u.rft | rft-gate | rft-energy --params '$TOP/params/seed002-32nm.conf' -"
    [[ $stderr == *"rft-energy: -: record "*": replay: malformed unit record"* ]] || fail "$stderr"
    run --separate-stderr -1 rft run 'alloc u.rft | gate | energy --scan'
    [[ $stderr == "rft-energy: -: record "*": replay: malformed unit record" ]] || fail "$stderr"
}

# ---- item 7: rft-decode --cycles-from ----------------------------------------------

# pending_trace N M: a pipeline trace of N fetched instructions that never
# execute, then M execute lines of instructions never fetched
pending_trace() {
    awk -v n="$1" -v m="$2" 'BEGIN { print "si.init version=\"1.1\" num_compute_units=1"; print "c clk=1"
        for (i = 0; i < n; i++) printf "si.new_inst id=%d cu=0 ib=0 wg=0 wf=0 uop_id=0 stg=\"f\" asm=\"s_buffer_load_dword s0, s[12:15], 0x04\"\n", i
        print "c clk=2"
        for (i = 0; i < m; i++) printf "si.inst id=%d cu=0 wf=0 uop_id=0 stg=\"simd-e\"\n", n + i }'
}

@test "item 7: --cycles-from finds each execute line's fetch by hash (60000 x 60000 lines in well under a CPU-second)" {
    pending_trace 60000 60000 > p.trace
    # main compared every execute line with every pending fetch: 9.4 CPU-seconds
    # here (a 135 KB trace ran 25 minutes), now 0.06
    run --separate-stderr -1 limited 5 1000000 rft-decode --kernel fastWalshTransform --local-size 256 \
        --cycles-from p.trace "$FIX/m2s42/fwt-det.isa.zst"
    [[ $stderr == *"fwt-det.isa.zst:43: 'wf1:' names wavefront 1 in an instruction of wavefront 0" ]] ||
        fail "$stderr"
}

# ---- item 8: the CUTracer decoder's launches ---------------------------------------

@test "item 8: the CUTracer decoder keeps its launches in a map: 2*10^5 launches in a CPU-second" {
    awk -v n=200000 'BEGIN { for (i = 0; i < n; i++)
        printf "{\"type\":\"reg_trace\",\"cta\":[0,0,0],\"warp\":0,\"grid_launch_id\":%d,\"regs\":[],\"sass\":\"EXIT ;\"}\n", i }' |
        zstd -q > l.ndjson.zst
    # main searched every kernel before it at each launch: 480,000 launches
    # took 90 CPU-seconds, 2*10^5 about 16; now 1.2 and 0.5
    run -0 limited 8 1000000 rft-decode --input-format cutracer --assume-all-lanes-active -o l.rft l.ndjson.zst
    run -0 rft-view --stats l.rft
    assert_line --regexp '^kernels +200000$'
    # a launch's records after another's are still refused, by the map
    printf '%s\n' '{"type":"reg_trace","cta":[0,0,0],"warp":0,"grid_launch_id":1,"regs":[],"sass":"EXIT ;"}' \
        '{"type":"reg_trace","cta":[0,0,0],"warp":0,"grid_launch_id":2,"regs":[],"sass":"EXIT ;"}' \
        '{"type":"reg_trace","cta":[0,0,0],"warp":0,"grid_launch_id":1,"regs":[],"sass":"EXIT ;"}' > again.ndjson
    run --separate-stderr -1 rft-decode --input-format cutracer --assume-all-lanes-active -o a.rft again.ndjson
    [[ $stderr == *"again.ndjson:3: records of launch 1 after those of launch 2: a launch's records come together" ]] ||
        fail "$stderr"
    # launch id 2^64-1 is the maps' empty key (main: a segmentation fault):
    # refused as out of range
    printf '%s\n' '{"type":"reg_trace","cta":[0,0,0],"warp":0,"grid_launch_id":18446744073709551615,"regs":[],"sass":"EXIT ;"}' > max.ndjson
    run --separate-stderr -1 rft-decode --input-format cutracer -o m.rft max.ndjson
    [ "$stderr" = "rft-decode: max.ndjson:1: column 61: launch id: '18446744073709551615' is not an integer 0 to 18446744073709551614" ]
}

# ---- item 10: rft-merge and shards -------------------------------------------------

@test "item 10: shards say so in their header; rft-merge refuses a shard or a scan twice" {
    rft-synth --writes 20000 --seed 3 -o t.rft
    rft run "alloc t.rft | gate | energy --scan -o whole.scan"
    local k
    for k in 0 1 2; do rft run --shard $k/3 "alloc t.rft | gate | energy --scan -o s$k.scan"; done
    run -0 rft-view -H s1.scan
    assert_line --regexp '^shard +1/3$'
    assert_line --regexp '^shard_by +slice$'
    assert_line --regexp '^shard_stages +rft-alloc,rft-gate,rft-energy$'
    rft-merge -o m.scan s0.scan s1.scan s2.scan
    cmp <(rft-view whole.scan) <(rft-view m.scan)       # the header too: no shard keys
    # main added them again without a word (a doubled energy)
    run --separate-stderr -1 rft-merge -o x.scan s0.scan s1.scan s1.scan s2.scan
    [ "$stderr" = "rft-merge: s1.scan: shard 1/3 twice: s1.scan and s1.scan (rft-merge adds each shard once)" ]
    [ ! -e x.scan ]
    run --separate-stderr -1 rft-merge -o x.scan whole.scan whole.scan
    [ "$stderr" = "rft-merge: whole.scan: record 1: two energy scans of one stream, whole.scan and whole.scan, neither a shard: rft-merge adds the scans of its shards, each once (rft-energy --scan --shard K/N)" ]
    rft run --shard 1/2 "alloc t.rft | gate | energy --scan -o h1.scan"
    run --separate-stderr -1 rft-merge -o x.scan s0.scan h1.scan
    [ "$stderr" = "rft-merge: h1.scan: s0.scan is shard 0/3 by slice, h1.scan shard 1/2 by slice: not shards of one run (--shard K/N of one N and one --shard-by)" ]
}

@test "item 10: shard scans of a stream gated by a separate rft-gate merge byte for byte like the whole (rft-gate's counters once)" {
    rft-synth --writes 20000 --seed 3 -o t.rft
    rft-alloc t.rft | rft-gate > g.rft
    rft-energy --scan g.rft > whole.scan
    local k
    for k in 0 1 2; do rft-energy --scan --shard $k/3 g.rft > s$k.scan; done
    run -0 rft-view -H s0.scan
    assert_line --regexp '^shard_stages +rft-energy$'
    # main added rft-gate's counters (every shard's, whole) three times
    rft-merge -o m.scan s0.scan s1.scan s2.scan
    cmp <(rft-view whole.scan) <(rft-view m.scan)
    # and the energy priced from them is the whole's
    cmp <(rft-energy whole.scan) <(rft-energy m.scan)
    # the same with --shard-by cu, in rft run
    for k in 0 1; do rft run --shard $k/2 --shard-by cu "energy --scan g.rft -o c$k.scan"; done
    rft-merge -o mc.scan c0.scan c1.scan
    cmp <(rft-view whole.scan) <(rft-view mc.scan)
}

# ---- item 5: what the header's geometry says is refused before any record -------------

@test "item 5: a slice or a map over the limit by the header's geometry alone is refused before any record" {
    "$GEN" geom-max g.rft
    run --separate-stderr -1 bash -c "rft-duty g.rft > o.rft"
    [ "$stderr" = "rft-duty: g.rft: header: one slice (65535 entries of 1024 lanes) would bring the state of rft-duty to 6408.5 MiB, over its limit of 2048 MiB (--max-memory MIB raises it)" ]
    run --separate-stderr -1 rft run 'alloc g.rft | duty -o o.rft'
    [ "$stderr" = "rft-duty: -: header: one slice (65535 entries of 1024 lanes) would bring the state of rft run to 6408.5 MiB, over its limit of 2048 MiB (--max-memory MIB raises it)" ]
    "$GEN" slices-many m.rft
    run --separate-stderr -1 bash -c "rft-faultmap --scenario common --max-output 100K m.rft > o.rft"
    [ "$stderr" = "rft-faultmap: m.rft: header: one fault map (65535 entries of 4 blocks) would bring the maps written to 0.3 MiB, over the limit of 102400 bytes (--max-output SIZE raises it)" ]
    run -1 rft-view o.rft
}

@test "item 5: refused without paying for it: the stages touch none of the state they reserve before use" {
    "$GEN" slices-many m.rft
    # main: 4.9 GB and 24 s for the run; each stage alone 1 to 2 GB; now the
    # same refusal at the same budget in well under 256 MB of address space
    # more than the programs' own
    run --separate-stderr -1 limited 20 3000000 rft run 'alloc m.rft | gate | energy --scan'
    [[ $stderr == *"over its limit of 2048 MiB"* ]] || fail "$stderr"
    local s
    for s in "rft-alloc" "rft-gate" "rft-energy --scan"; do
        run --separate-stderr -1 /usr/bin/time -f '%M' $s m.rft
        [[ ${stderr_lines[0]} == *"over its limit of 2048 MiB"* ]] || fail "$s: $stderr"
        # (ASan's allocator writes the shadow of what is reserved: no peak to check there)
        [ -n "$ASAN" ] || [ "${stderr_lines[-1]}" -lt 262144 ] || fail "$s: peak ${stderr_lines[-1]} KiB"
    done
    "$GEN" waves-many w.rft
    run --separate-stderr -1 /usr/bin/time -f '%M' rft-energy --scan w.rft
    [[ ${stderr_lines[0]} == *"replay: wavefront "*"over its limit of 2048 MiB"* ]] || fail "$stderr"
    [ -n "$ASAN" ] || [ "${stderr_lines[-1]}" -lt 262144 ] || fail "peak ${stderr_lines[-1]} KiB"
}
