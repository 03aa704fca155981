#!/usr/bin/env bats
# Every cross-trace table of rft-batch / rft-collect and every figure's data
# says what it assumed (issue 22): the runs, the dVth model's lifetime and
# temperature, the parameter files, the window the duty cycles span, which
# run-time estimate a slowdown column is, and the per-trace tables' notes,
# each naming the traces it holds for where not all.

load test_helper

setup_file() {
    mkdir -p "$BATS_FILE_TMPDIR/tr"
    rft-synth --writes 2000 --seed 1 -o "$BATS_FILE_TMPDIR/tr/a.rft"
    rft-synth --writes 2500 --seed 2 -o "$BATS_FILE_TMPDIR/tr/b.rft"
    rft-batch -j 2 -o "$BATS_FILE_TMPDIR/out" "$BATS_FILE_TMPDIR/tr" 2>/dev/null
}

setup() {
    cd "$BATS_TEST_TMPDIR"
    OUT="$BATS_FILE_TMPDIR/out"
}

# the notes every table of the aging study carries, as they read in table.txt
want_notes() {
    grep -F 'runs: ' "$1"
    grep -F 'vth: lifetime: 3 years' "$1"
    grep -F 'vth: temperature: 300 K' "$1"
    grep -F 'vth: parameters: built in (the values of params/nbti.conf)' "$1"
    grep -F 'energy: parameters: ' "$1"
    grep -F 'vth: window: slice 0..' "$1"
    grep -F 'energy: note: added_cycles and slice_slowdown_bound% are the replay'"'"'s upper bound, never below slice_slowdown_replay%' "$1"
}

@test "table.txt: the notes under the table" {
    want_notes "$OUT/table.txt"
    grep -Fx 'estimate: slice_slowdown_replay% is the replay (rft-replay(1)) over the slices'"'"' cycles summed (rft-energy(1): what the leakage is priced over), the slowdown to cite' "$OUT/table.txt"
    grep -Fx 'estimate: slice_slowdown_bound% is its upper bound: every cycle the scheme adds delays its slice in full (never below slice_slowdown_replay%)' "$OUT/table.txt"
    # under it: the first note follows the last mean row and a blank line
    run -0 awk '/^runs: / { print prev2; exit } { prev2 = prev1; prev1 = $0 }' "$OUT/table.txt"
    assert_output --regexp '^mean +argo '
}

@test "table.tsv and table.csv: # lines before the header, read back by rft_reader.py" {
    local f
    for f in table.tsv table.csv; do
        want_notes "$OUT/$f"
        grep -q '^# estimate: slice_slowdown_bound% is its upper bound' "$OUT/$f"
        # every note is a # line, all of them before the header
        run -0 awk '!/^#/ { print NR ": " $0; exit }' "$OUT/$f"
        assert_output --regexp '^[0-9]+: trace.scheme.longest_0%'
        [ "$(grep -c '^#' "$OUT/$f")" -eq "$(( ${lines[0]%%:*} - 1 ))" ]
    done
    python3 -c 'import pandas' 2>/dev/null || skip "no pandas"
    run -0 python3 -c "
import sys; sys.path.insert(0, '$TOP/examples')
import rft_reader
for f in ('table.tsv', 'table.csv', 'table.json'):
    df = rft_reader.read_table('$OUT/' + f)
    assert list(df.columns[:2]) == ['trace', 'scheme'], (f, list(df.columns))
    assert any('vth: temperature: 300 K' in n for n in df.attrs['notes']), f
    print(f, len(df))"
    assert_output "$(printf 'table.tsv 18\ntable.csv 18\ntable.json 18')"
}

@test "table.json: a first object {\"notes\": [...]}, then a row a line" {
    run -0 python3 -c "
import json
lines = open('$OUT/table.json').read().splitlines()
head = json.loads(lines[0])
assert list(head) == ['notes'], head
rows = [json.loads(l) for l in lines[1:]]
assert all('trace' in r for r in rows)
print('\n'.join(head['notes']))"
    echo "$output" > notes
    want_notes notes
    assert_line --partial 'estimate: slice_slowdown_bound% is its upper bound'
}

@test "a note holding for some traces only names them; the runs of each trace" {
    grep -F ' [traces: a]' "$OUT/table.txt" | grep -F 'vth: window: slice 0..'
    grep -F ' [traces: b]' "$OUT/table.txt" | grep -F 'vth: window: slice 0..'
    # a trace whose steady state was taken beside one that fell back to 10 runs
    cp -r "$OUT" out
    local r
    r=$(cat out/traces/a/runs)
    [ "$r" = steady ] && echo 10 > out/traces/b/runs || echo steady > out/traces/b/runs
    run -0 rft-collect out
    assert_line --regexp '^runs: steady \(.*\) \[traces: (a|b)\]$'
    assert_line --regexp '^runs: 10 \(.*\); the steady state was asked for and refused .*\[traces: (a|b)\]$'
    # -r once: said so
    sed -i 's/^runs runs .*/runs runs once/' out/collect.conf
    echo once > out/traces/a/runs
    echo once > out/traces/b/runs
    run -0 rft-collect --format tsv out
    assert_line '# runs: once (the kernel run once)'
}

@test "the estimate of each slowdown column, the replayed one too" {
    run -0 rft-collect --format tsv --columns slice_slowdown_bound%,slice_slowdown_replay% "$OUT"
    assert_line --partial '# estimate: slice_slowdown_bound% is its upper bound'
    assert_line --partial '# estimate: slice_slowdown_replay% is the replay'
    refute_line --regexp '^# estimate: .*wake-up'
    run -0 rft-collect --format tsv --columns saving% "$OUT"
    refute_line --partial '# estimate:'
}

@test "figures: the data files keep the notes, the figure has a caption" {
    local f
    for f in "$OUT"/figures/*.data.tsv; do
        want_notes "$f"
        grep -q "^set label 100 'Assumed: runs: " "${f%.data.tsv}.gp"
        grep -q 'Assumed: runs: ' "${f%.data.tsv}.svg"
    done
    # the figure's own table, rft-collect --pivot, keeps them too
    want_notes "$OUT/figures/fig16-longest1.tsv"
    # gnuplot skips the notes: the bars are the table's values
    run -0 grep -c "data skip $(( $(grep -c '^#' "$OUT/figures/fig16-longest1.data.tsv") + 1 )) \(every [0-9:]* \)\{0,1\}using" \
        "$OUT/figures/fig16-longest1.gp"
}
