#!/usr/bin/env bats
# rft-faultmap: Table 1 maps of seed 001, CSV maps, the stream stage.

load test_helper

D="$FIX/dcpatch"

setup() {
    T="$BATS_TEST_TMPDIR"
}

# columns bits0..bits4+ of --stats for one scenario, seed and slice list
classes() {
    rft-faultmap --stats --format tsv --scenario "$1" --seed "$2" --slice "$3" |
        awk -F'\t' '!/^# / && h++ { print $1, $6, $7, $8, $9, $10 }'
}

@test "exact Table 1 shares on 256 entries, for every slice and seed" {
    # largest remainders: common 87.04 84.48 51.2 25.6 7.68 -> 87 84 51 26 8
    for seed in 1 7 123456789; do
        run classes common $seed '*,0:0,3:2,9:3'
        assert_output "$(printf '* 87 84 51 26 8\n0:0 87 84 51 26 8\n3:2 87 84 51 26 8\n9:3 87 84 51 26 8')"
        run classes clustered $seed '0:0,1:1'
        assert_output "$(printf '0:0 110 51 31 26 38\n1:1 110 51 31 26 38')"
        run classes dispersed $seed '0:0,1:1'
        assert_output "$(printf '0:0 66 90 59 31 10\n1:1 66 90 59 31 10')"
    done
    # faulty entries: 33, 37 and 39 % as seed 001 says
    run rft-faultmap --stats --format csv --scenario dispersed --seed 2 --slice 0:0
    no_notes
    assert_line --index 1 --regexp '^0:0,dispersed,2,256,4,66,90,59,31,10,100,39.06,251,'
}

@test "i faulty bits give i faulty blocks, all four from 4 on" {
    rft-faultmap --csv --scenario clustered --seed 5 --slice 2:1 > "$T/m.csv"
    # per entry: sum of bits, and blocks with a bit
    run awk -F, 'NR > 1 { s[$3] += $5; n[$3] += ($5 > 0) } END {
        for (e in s) { if (s[e] != n[e] || s[e] > 4) bad++; c[s[e]]++ }
        print bad + 0, c[0], c[1], c[2], c[3], c[4] }' "$T/m.csv"
    assert_output "0 110 51 31 26 38"
}

@test "same seed, same map; another seed or slice, another map" {
    rft-faultmap --csv --scenario common --seed 7 --slice 0:0 > "$T/a"
    rft-faultmap --csv --scenario common --seed 7 --slice 0:0 > "$T/b"
    rft-faultmap --csv --scenario common --seed 8 --slice 0:0 > "$T/c"
    rft-faultmap --csv --scenario common --seed 7 --slice 0:1 > "$T/d"
    cmp "$T/a" "$T/b"
    ! cmp -s <(cut -d, -f3- "$T/a") <(cut -d, -f3- "$T/c")
    ! cmp -s <(cut -d, -f3- "$T/a") <(cut -d, -f3- "$T/d")
    # the default seed is 1
    cmp <(rft-faultmap --csv --scenario common) <(rft-faultmap --csv --scenario common --seed 1)
}

@test "clustered maps are spatially correlated, dispersed ones are not" {
    slices=$(for i in $(seq 0 63); do printf '%d:0,' "$i"; done)
    mean() {
        rft-faultmap --stats --format tsv --scenario "$1" --seed 3 --slice "${slices%,}" |
            awk -F'\t' 'NR > 1 { t += $14; n++ } END { printf "%d\n", t / n }'
    }
    d=$(mean dispersed) m=$(mean common) c=$(mean clustered)
    echo "faulty_next%: dispersed $d common $m clustered $c"
    [ "$d" -ge 33 ] && [ "$d" -le 45 ]
    [ "$m" -gt $((d + 5)) ]
    [ "$c" -gt $((m + 10)) ]
}

@test "CSV round trip" {
    rft-faultmap --csv --scenario dispersed --seed 11 --slice '0:0,0:1,*' > "$T/a.csv"
    assert_equal "$(head -1 "$T/a.csv")" "cu,simd,entry,block,bits"
    assert_equal "$(wc -l < "$T/a.csv")" 3073
    rft-faultmap --csv --map "$T/a.csv" > "$T/b.csv"
    cmp "$T/a.csv" "$T/b.csv"
    # columns in another order, extra columns, zstd-compressed
    awk -F, -v OFS=, '{ print $5, $4, $3, $2, $1, "x" }' "$T/a.csv" | zstd -q > "$T/c.csv.zst"
    rft-faultmap --csv --map "$T/c.csv.zst" > "$T/c.csv"
    cmp "$T/a.csv" "$T/c.csv"
    # stats of the read map match the generated one
    diff <(rft-faultmap --stats --format tsv --map "$T/a.csv" | cut -f1,4-) \
         <(rft-faultmap --stats --format tsv --scenario dispersed --seed 11 --slice '0:0,0:1,*' | cut -f1,4-)
}

@test "a 'faulty' column: blocks unusable as they are" {
    printf 'entry,block,faulty\n' > "$T/f.csv"
    for e in 0 1; do for b in 0 1 2 3; do echo "$e,$b,$((e == 1 && b == 2))"; done; done >> "$T/f.csv"
    run rft-faultmap --show --entries 2 --map "$T/f.csv"
    assert_line --index 3 "0 ...."
    assert_line --index 4 "1 ..X."
}

@test "--show: a 256 x 4 picture" {
    run rft-faultmap --show --map "$D/map8.csv" --entries 8
    assert_success
    assert_line --index 0 "# slice *: csv:$D/map8.csv, 8 entries x 4 blocks, ECP repairs 1 bit per entry"
    assert_line --index 1 "# entries with 0/1/2/3/>=4 faulty bits: 5 1 1 0 1; faulty entries 2 (25.0%), faulty blocks 6"
    assert_line --index 3 "0 ...."
    assert_line --index 4 "1 X.X."
    assert_line --index 5 "2 ...+"
    assert_line --index 6 "3 XXXX"
    assert_line --index 10 "7 ...."
    assert_equal "${#lines[@]}" 11
    run rft-faultmap --show --scenario common --seed 7 --slice 0:0
    assert_success
    assert_equal "${#lines[@]}" 259
    assert_line --index 3 --regexp '^  0 [.+X]{4}$'
    assert_line --index 258 --regexp '^255 [.+X]{4}$'
    # as many X as faulty blocks, no X in a reliable entry
    assert_equal "$(printf '%s\n' "${lines[@]:3}" | tr -cd X | wc -c)" 212
    [ -z "$(printf '%s\n' "${lines[@]:3}" | grep -E ' [.+]*X?[.+]*$' | grep X)" ]
}

@test "stream stage: one map per slice before the slice's first record" {
    rft-decode --entries 8 -o "$T/two.rft" "$D/two.txt"
    rft-faultmap --scenario clustered --seed 4 -o "$T/m.rft" "$T/two.rft"
    run pipe "rft-view --format json '$T/m.rft' | cut -c1-60 | head -6"
    assert_line --index 0 --partial '"kind": "K"'
    assert_line --index 1 --partial '0x12'
    assert_line --index 2 --partial '"kind": "B", "cycle": 0, "cu": 0, "simd": 0'
    assert_line --index 3 --partial '0x12'
    assert_line --index 4 --partial '"kind": "B", "cycle": 0, "cu": 0, "simd": 1'
    # the records are those of the input
    diff <(rft-view "$T/two.rft") <(rft-view "$T/m.rft" | grep -v '^#')
    # the maps in the stream are those --csv prints for the slices
    diff <(rft-faultmap --csv "$T/m.rft") \
         <(rft-faultmap --csv --scenario clustered --seed 4 --entries 8 --slice 0:0,0:1)
    run rft-view -H "$T/m.rft"
    assert_line --regexp '^faultmap +clustered seed=4 per-slice$'
}

@test "stream stage: --same and CSV maps go right after the header" {
    rft-decode --entries 8 -o "$T/two.rft" "$D/two.txt"
    rft-faultmap --scenario common --same -o "$T/s.rft" "$T/two.rft"
    run pipe "rft-view --format json '$T/s.rft' | head -2 | cut -c1-30"
    assert_line --index 0 --partial '0x12'
    assert_line --index 1 --partial '"kind": "K"'
    # (the notes under the table left out)
    run pipe "rft-faultmap --stats '$T/s.rft' | sed '/^\$/,\$d'"
    assert_equal "${#lines[@]}" 2
    assert_line --index 1 --regexp '^\* +common'
    rft-faultmap --map "$D/map8.csv" -o "$T/c.rft" "$T/two.rft"
    diff <(rft-faultmap --csv "$T/c.rft") "$D/map8.csv"
    # a second stage replaces the maps of the first
    run rft-faultmap --scenario dispersed -o "$T/d.rft" "$T/c.rft"
    assert_success
    assert_output "rft-faultmap: warning: $T/c.rft: 1 fault map records of the input replaced"
}

@test "pipeline: rft-decode | rft-faultmap | rft-dcpatch" {
    run pipe "rft-decode --entries 8 '$D/two.txt' | rft-faultmap --scenario common --seed 7 | rft-dcpatch | rft-view --stats --format csv"
    assert_success
    assert_line "writes,5"
    # 2 maps, a patch record per write, counters for 2 kernels, 2 slices, total
    assert_line "other_records,12"
}

@test "bad map files" {
    rft-decode --entries 8 -o "$T/two.rft" "$D/two.txt"
    run -1 rft-faultmap --map "$D/map8-entry.csv" "$T/two.rft"
    assert_output "rft-faultmap: $D/map8-entry.csv: line 34: entry 8 out of range 0..7"
    run -1 rft-faultmap --map "$D/map8-block.csv" "$T/two.rft"
    assert_output "rft-faultmap: $D/map8-block.csv: line 6: block 4 out of range 0..3"
    run -1 rft-faultmap --map "$D/map8-dup.csv" "$T/two.rft"
    assert_output "rft-faultmap: $D/map8-dup.csv: line 34: second row for all slices (*) entry 2 block 3 (first at line 13)"
    # the geometry of the stream
    rft-faultmap --csv --scenario common > "$T/256.csv"
    run -1 rft-faultmap --map "$T/256.csv" "$T/two.rft"
    assert_output "rft-faultmap: $T/256.csv: the map of all slices (*) is 256 entries x 4 blocks, not 8 x 4"
    run -1 rft-faultmap --show --map "$D/map8.csv"
    assert_output --partial "is 8 entries x 4 blocks, not 256 x 4"
    # a slice the map lacks, without --scenario to fill in
    sed 's/^\*,\*,/0,0,/' "$D/map8.csv" > "$T/s00.csv"
    run -1 rft-faultmap --map "$T/s00.csv" -o "$T/x.rft" "$T/two.rft"
    assert_output --partial "record 3: no fault map for slice 0:1"
    rft-faultmap --map "$T/s00.csv" --scenario common -o "$T/x.rft" "$T/two.rft"
    run -1 rft-faultmap --csv --map /nonexistent.csv
    printf 'entry,block,bits\n0,0,x\n' > "$T/bad.csv"
    run -1 rft-faultmap --csv --map "$T/bad.csv"
    assert_output "rft-faultmap: $T/bad.csv: line 2: bits 'x' is not a number"
}

@test "bad usage: unknown scenario, no map, bad shares, mixed modes" {
    run -2 rft-faultmap --scenario typical
    assert_line --index 0 "rft-faultmap: --scenario: unknown scenario 'typical' (common, clustered or dispersed) (see rft-faultmap --help)"
    run -2 rft-faultmap
    assert_line --index 0 "rft-faultmap: a map is needed: --scenario NAME (or --shares) or --map FILE.csv (see rft-faultmap --help)"
    run -2 rft-faultmap --shares 50/50/10/0/0
    assert_line --index 0 "rft-faultmap: --shares: shares '50/50/10/0/0' sum to 110, not 100 (see rft-faultmap --help)"
    run -2 rft-faultmap --csv --show --scenario common
    run -2 rft-faultmap --seed 3 --csv
    run -2 rft-faultmap --scenario common --slice 0:0
    run -2 rft-faultmap --csv --scenario common --slice 0-0
    # -o names the file of what --csv prints
    run -0 rft-faultmap --csv --scenario common -o "$T/x.csv"
    cmp "$T/x.csv" <(rft-faultmap --csv --scenario common)
}

@test "--shares: any distribution, still exact" {
    run rft-faultmap --stats --format tsv --shares 50/25/12.5/12.5/0 --entries 8 --slice 0:0
    no_notes
    assert_line --index 1 --regexp $'^0:0\tcustom\t1\t8\t4\t4\t2\t1\t1\t0\t2\t25.00\t'
}

@test "a full disk is an error" {
    run -1 bash -c "rft-faultmap --csv --scenario common > /dev/full"
    run -1 bash -c "rft-faultmap --show --scenario common > /dev/full"
}
