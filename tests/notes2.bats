#!/usr/bin/env bats
# Every program table a paper would cite, and the study scripts' and
# rft-batch's undervolt and healing tables, say what they assumed in every
# format (issue 22; rft(1) "NOTES ON EVERY TABLE"): the runs, the dVth
# model's parameters, lifetime and temperature, the window, which run-time
# estimate a slowdown is, and why a figure differs from the seed's where the
# tool can see it.  (The cross-trace table of the aging study: notes.bats.)

load test_helper
load notes_helper

setup_file() {
    cd "$BATS_FILE_TMPDIR"
    rft-synth --writes 3000 --seed 1 -o a.rft
    rft-synth --arch evergreen --bundles 3000 --seed 1 -o e.rft
    rft-alloc --scheme first-fit --runs steady a.rft | rft-duty -o base.duty
    rft-alloc --scheme argo --runs steady a.rft | rft-duty -o argo.duty
    rft-alloc --scheme rar a.rft | rft-duty -o rar-once.duty
    rft-alloc --scheme first-fit --runs steady a.rft | rft-energy --scan -o base.scan
    rft-alloc --scheme first-fit --runs steady a.rft | rft-gate --scheme rc | rft-energy --scan -o rc.scan
    rft-faultmap --scenario common --seed 1 a.rft > fm.rft
}

setup() {
    cd "$BATS_TEST_TMPDIR"
    D=$BATS_FILE_TMPDIR
}

@test "rft-vth: the summary and the tables by year, bit and entry, in every format" {
    local fmt by
    for fmt in table tsv csv json; do
        rft-vth --format "$fmt" base="$D/base.duty" argo="$D/argo.duty" > s.$fmt
        has_notes "$fmt" s.$fmt 'parameters: built in' 'lifetime: 3 years' 'temperature: 300 K' \
            'runs: steady (the steady state' 'window: slice 0..'
        rft-vth --format "$fmt" --by year --years 5 "$D/argo.duty" > y.$fmt
        has_notes "$fmt" y.$fmt 'parameters: ' 'temperature: 300 K' 'runs: steady' 'window: slice 0..'
        for by in bit reg; do
            rft-vth --format "$fmt" --by $by "$D/base.duty" > $by.$fmt
            has_notes "$fmt" $by.$fmt 'runs: steady' 'window: slice 0..'
        done
    done
    # a note of some maps only names them
    rft-vth --format tsv base="$D/base.duty" once="$D/rar-once.duty" > m.tsv
    grep -qx '# runs: steady (the steady state of a kernel run again and again: rft-alloc --runs steady) \[maps: base\]' m.tsv
    grep -q '^# runs: once .* \[maps: once\]$' m.tsv
}

@test "rft-energy: parameters, estimates and runs in every format" {
    local fmt
    for fmt in table tsv csv json; do
        rft-energy --format "$fmt" base="$D/base.scan" rc="$D/rc.scan" > e.$fmt
        has_notes "$fmt" e.$fmt 'parameters: ' 'added_cycles and slice_slowdown_bound% are the replay'"'"'s upper bound' \
            'slice_slowdown_replay% are the replay' 'runs: steady'
    done
}

@test "rft-dcpatch --summary: every --report in every format" {
    local fmt rep
    for fmt in table tsv csv json; do
        for rep in perf occupancy events; do
            rft-dcpatch --summary=out.$fmt --report $rep --format "$fmt" -o /dev/null "$D/fm.rft"
            has_notes "$fmt" out.$fmt 'runs: once'
        done
        rft-dcpatch --summary=perf.$fmt --report perf --format "$fmt" -o /dev/null "$D/fm.rft"
        has_notes "$fmt" perf.$fmt 'estimate: slowdown_replay% is the replayed run time' 'cycles_upper: the upper bound'
    done
}

@test "rft-replay: the estimates and the runs in every format" {
    local fmt
    for fmt in table tsv csv json; do
        rft-replay --summary=r.$fmt --format "$fmt" -o /dev/null "$D/a.rft"
        has_notes "$fmt" r.$fmt 'estimate: slowdown_replay% is the replayed run time, the slowdown to cite; slowdown_bound% its upper bound' 'runs: once'
    done
}

@test "rft-heal: every --report in every format, the summary for people" {
    local fmt rep
    for fmt in table tsv csv json; do
        for rep in profile slices units groups cost series; do
            rft-heal --scheme sc --report $rep --format "$fmt" "$D/e.rft" > h.$fmt
            has_notes "$fmt" h.$fmt 'parameters: built in (seed 003' 'lifetime: 360 hours' \
                'temperature: 300 K' 'window: ' 'runs: once'
        done
        rft-heal --scheme pe --report units --format "$fmt" "$D/e.rft" > pe.$fmt
        has_notes "$fmt" pe.$fmt 'lifetime: 360 hours'
        rft-heal --scheme sc --report cost --format "$fmt" "$D/e.rft" > c.$fmt
        has_notes "$fmt" c.$fmt 'estimate: slowdown_replay% is the replayed run time'
    done
    rft-heal --scheme sc "$D/e.rft" > sum.txt
    has_notes table sum.txt 'lifetime: 360 hours' 'window: '
    # said once, at the end
    [ "$(grep -c '^lifetime: 360 hours' sum.txt)" = 1 ]
}

@test "differs from the seed: run once, a short run, another register file, demand filling the slice, idle slots, no bundles" {
    run -0 rft-vth --format tsv "$D/rar-once.duty"
    assert_line --regexp '^# differs from the seed: run once: rar rotates only across window reassignments'
    assert_line --regexp '^# differs from the seed: a short run: a window of [0-9]+ cycles \(under 100000\)'
    # the steady state is no short run, whatever its window
    run -0 rft-vth --format tsv "$D/base.duty"
    refute_line --partial 'a short run'
    # entries never allocated are off in the seeds too: said, as no difference
    refute_line --partial 'idle slots'
    assert_line --regexp '^# unused entries: [0-9.]+ % of the slices. entries are never allocated nor written in the window and count as off all the time'
    rft-synth --geometry hopper --writes 500 -o hop.rft
    run -0 pipe "rft-alloc --runs steady hop.rft | rft-duty | rft-vth --format csv"
    assert_line '# differs from the seed: a register file of 32 lanes x 512 entries, not the seeds'"'"' GCN SIMD (64 x 256): windows, rotation and energy scale with it'
    # one wavefront of 256 registers: first-fit fills the slice
    printf 'K 0 k\nB 0 0 0 1 256 k 0\nE 100 0 0 1\n' | rft-decode -o full.rft
    rft-alloc --runs steady full.rft | rft-duty -o full.duty
    run -0 rft-vth --format tsv base=full.duty 2>/dev/null
    assert_line --regexp '^# differs from the seed: register demand fills the slice: first-fit \(base\) allocates 100.0 % of the entries'
    # a GCN trace under rft-heal: no bundles
    run -0 rft-heal --scheme sc --report units --format tsv "$D/a.rft"
    assert_line --partial '# differs from the seed: not an Evergreen VLIW trace'
    assert_line --regexp '^# differs from the seed: idle slots: the SCs are idle [0-9.]+ % of the window'
    run -0 rft-heal --scheme sc --report units --format tsv "$D/e.rft"
    refute_line --partial 'not an Evergreen VLIW trace'
}

@test "the study scripts: aging.sh, undervolt.sh in every format, argo.sh and healing.sh for people" {
    local fmt
    for fmt in tsv json table; do
        "$TOP/examples/aging.sh" --quiet --format "$fmt" -r once "$D/a.rft" > ag.$fmt
        case $fmt in
        tsv) has_notes tsvs ag.tsv 'runs: once' 'temperature: 300 K' 'window: slice' ;;
        json) has_notes json ag.json 'runs: once' 'temperature: 300 K'
              grep -q '"table": "energy", "runs": ".*", "notes": \[.*"parameters: ' ag.json ;;
        table) grep -qx 'temperature: 300 K (the parameters'"'"' temperature)' ag.table
               grep -q '^runs: once' ag.table
               grep -q '^note: added_cycles and slice_slowdown_bound% are the replay'"'"'s upper bound' ag.table ;;
        esac
        "$TOP/examples/undervolt.sh" --quiet --format "$fmt" "$D/a.rft" > uv.$fmt
        case $fmt in
        tsv) has_notes tsvs uv.tsv 'runs: once' 'estimate: slowdown_replay% is the replayed run time' ;;
        json) has_notes json uv.json 'runs: once'
              grep -q '^{"table": "energy", "notes": \[.*"parameters: ' uv.json ;;
        table) grep -q '^runs: once' uv.table
               grep -q '^estimate: slowdown_replay% is the replayed run time' uv.table ;;
        esac
    done
    "$TOP/examples/argo.sh" "$D/a.rft" > argo.txt
    # the notes under each table, as the other scripts print them
    grep -q '^parameters: .*seed004-45nm.conf' argo.txt
    grep -q '^runs: steady' argo.txt
    grep -q '^note: added_cycles and slice_slowdown_bound% are the replay'"'"'s upper bound' argo.txt
    "$TOP/examples/healing.sh" "$D/e.rft" > heal.txt
    grep -q '^lifetime: 360 hours' heal.txt
}

@test "rft-batch: the undervolt and healing studies' tables carry the notes, in every format" {
    mkdir tr
    cp "$D/a.rft" tr/a.rft
    rft-synth --writes 2500 --seed 2 -o tr/b.rft
    rft-batch --quiet --study undervolt -o uv tr
    rft-batch --quiet --study healing -o he tr
    local fmt
    for fmt in table tsv csv json; do
        rft-collect --format "$fmt" uv > uv.$fmt
        has_notes "$fmt" uv.$fmt 'runs: once' 'writes: estimate: slowdown_replay% is the replayed run time' \
            'energy: parameters: '
        rft-collect --format "$fmt" he > he.$fmt
        has_notes "$fmt" he.$fmt 'runs: once' 'cost: lifetime: 360 hours' 'units: temperature: 300 K' \
            'differs from the seed: not an Evergreen VLIW trace'
    done
    # the per-trace tables keep them too, and still have their rows
    grep -q '^# runs: once' uv/traces/a/writes.tsv
    [ "$(grep -vc '^#' uv/traces/a/writes.tsv)" = 4 ]
    [ "$(grep -vc '^#' he/traces/a/units.tsv)" = 2 ]
    [ "$(grep -vc '^#' he/traces/a/cost.tsv)" = 9 ]
}
