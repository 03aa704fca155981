#!/usr/bin/env bats
# rft-dcpatch: the DC-Patch mechanism on hand-made 8-entry slices where every
# decision is written next to its record (fixtures/dcpatch/*.txt).

load test_helper

D="$FIX/dcpatch"

setup() {
    T="$BATS_TEST_TMPDIR"
    for f in basic misp two; do
        rft-decode --entries 8 -o "$T/$f.rft" "$D/$f.txt"
    done
}

# the log of a fixture under map8.csv (extra options after the name)
log() {
    local f=$1
    shift
    rft-dcpatch --map "$D/map8.csv" --log - -o /dev/null "$@" "$T/$f.rft"
}

# one column of the log line of a record: field NAME of record N
field() { awk -F'\t' -v n="$2" -v c="$3" '$1 == n { print $c }' "$1"; }

@test "walk-through: every decision as worked out by hand" {
    run log basic --check
    assert_success
    diff <(printf '%s\n' "$output") "$D/basic.log"
}

@test "a compressed register goes to a reliable block of a faulty entry" {
    log basic > "$T/log"
    # v0 and v1: blocks 1 and 3 of entry 1 (blocks 0 and 2 are faulty)
    run awk -F'\t' '$5 == "v0" || $5 == "v1"' "$T/log"
    assert_line --index 0 "$(printf '3\t1\t0:0\t0\tv0\tpatch-faulty\tc\t1.1\tfirst')"
    assert_line --index 1 "$(printf '4\t2\t0:0\t0\tv1\tpatch-faulty\tc\t1.3\tfirst')"
}

@test "four compressed registers share one reliable entry" {
    log basic > "$T/log"
    run awk -F'\t' '$1 >= 5 && $1 <= 8 { print $5, $6, $8 }' "$T/log"
    assert_output "$(printf 'v2 patch-reliable 0.0\nv3 patch-reliable 0.1\nv4 patch-reliable 0.2\nv5 patch-reliable 0.3')"
}

@test "an uncompressed register spills when no reliable entry is free" {
    log basic > "$T/log"
    run awk -F'\t' '$1 == 17 || $1 == 18 { print $5, $6, $8, $9 }' "$T/log"
    assert_output "$(printf 'v4 lds lds change,spill\nv4 read-lds lds -')"
}

@test "a state change releases the old patch and takes a new one" {
    log basic > "$T/log"
    # v0 leaves 1.1 for entry 5; later v7 (entry 4) turns compressed and gets 1.1
    [ "$(field "$T/log" 13 8)" = 5 ]
    [ "$(field "$T/log" 13 9)" = change ]
    [ "$(field "$T/log" 21 5)" = v7 ]
    [ "$(field "$T/log" 21 8)" = 1.1 ]
    # alone in its reliable entry, v5 keeps entry 0 when it turns uncompressed
    [ "$(field "$T/log" 19 8)" = 0 ]
}

@test "a spilled register comes back into the slice when a place frees" {
    log basic > "$T/log"
    [ "$(field "$T/log" 20 6)" = lds ]       # nothing free yet: stays in the LDS
    [ "$(field "$T/log" 22 6)" = patch-reliable ]
    [ "$(field "$T/log" 22 8)" = 4 ]
    [ "$(field "$T/log" 22 9)" = back ]
}

@test "the end of a wavefront releases all its patches" {
    log basic > "$T/log"
    [ "$(field "$T/log" 24 8)" = "released 8" ]
    # the next wavefront finds the first faulty block and entry 0 free
    [ "$(field "$T/log" 26 8)" = 1.1 ]
    [ "$(field "$T/log" 27 8)" = 0 ]
    [ "$(field "$T/log" 28 6)" = read-unwritten ]
}

@test "mispredictions, divergent writes, MOVs and rft-classify annotations" {
    run log misp --check
    assert_success
    diff <(printf '%s\n' "$output") "$D/misp.log"
    run rft-dcpatch --map "$D/map8.csv" --summary --report events --format tsv "$T/misp.rft"
    assert_success
    assert_line "$(printf 'total\twrites_mispredicted\t2')"
    assert_line "$(printf 'total\tstall_cycles\t8')"
    assert_line "$(printf 'total\tmov_injected\t2')"
    assert_line "$(printf 'total\twrites_divergent\t3')"
    assert_line "$(printf 'total\tblock_writes_mispredicted\t2')"
    assert_line "$(printf 'total\tcom_unit\t5')"
}

@test "event counts of the walk-through" {
    run rft-dcpatch --map "$D/map8.csv" --summary --report events --format csv "$T/basic.rft"
    assert_success
    for kv in writes,20 writes_normal,2 writes_patch_faulty,4 writes_patch_reliable,12 \
              writes_lds,2 spills,1 writes_back_from_lds,1 reads_lds,1 lds_loads,1 \
              block_writes_compressed,9 block_writes_uncompressed,36 block_reads_compressed,1 \
              dec_unit_blocks,4 psu_patches,16 psu_releases,16 lds_peak_bytes,256 \
              lds_spill_byte_cycles,1280 entry_cycles,208; do
        assert_line "total,$kv"
    done
}

@test "--stall-cycles prices a misprediction" {
    run rft-dcpatch --map "$D/map8.csv" --stall-cycles 7 --summary --counts --format csv "$T/misp.rft"
    no_notes
    assert_success
    # the stall in the replay too: the same figures as rft-replay --stall-cycles 7 of the stream
    assert_line --index 2 "total,8,1,3,4,0,2,2,2,0,0,0.0,14,10,34,240.00,50,400.00"
}

@test "options: --pick high, --share-reliable no, --repatch release-first" {
    run log basic --pick high --check
    assert_success
    [ "$(printf '%s\n' "$output" | field /dev/stdin 3 8)" = 1.3 ]
    [ "$(printf '%s\n' "$output" | field /dev/stdin 5 8)" = 7.3 ]
    run log basic --share-reliable no --check
    assert_success
    # v2..v5 compressed: each holds a whole reliable entry
    [ "$(printf '%s\n' "$output" | awk -F'\t' '$1 >= 5 && $1 <= 8 { printf "%s ", $8 }')" = "0.0 2.0 4.0 5.0 " ]
    run log basic --repatch release-first --check
    assert_success
    run rft-dcpatch --map "$D/map8.csv" --pick middle "$T/basic.rft"
    assert_failure 2
}

@test "--check holds for every option on every fixture" {
    for f in basic misp two; do
        for o in "--pick low" "--pick high" "--share-reliable no" "--repatch release-first" \
                 "--pick high --share-reliable no --repatch release-first"; do
            run rft-dcpatch --map "$D/map8.csv" $o --check --summary "$T/$f.rft"
            assert_success
        done
    done
}

@test "--check: a broken invariant names the record and exits 1" {
    RFT_TEST_DCPATCH_CORRUPT=8 run -1 rft-dcpatch --map "$D/map8.csv" --check --summary "$T/basic.rft"
    assert_output --partial "rft-dcpatch: $T/basic.rft: record 8: slice 0:0: invariant violated: v0 of wavefront 0 and v1 of wavefront 0 share block 1 of entry 1"
}

@test "rows per kernel and per slice" {
    run rft-dcpatch --map "$D/map8.csv" --summary --counts --format tsv "$T/two.rft"
    no_notes
    assert_success
    assert_line --index 1 "$(printf 'alpha\t3\t0\t1\t2\t0\t0\t0\t1\t0\t0\t0.0\t0\t6\t8\t33.33\t12\t100.00')"
    assert_line --index 2 "$(printf 'beta\t2\t0\t1\t1\t0\t0\t0\t0\t0\t0\t0.0\t0\t3\t5\t66.67\t7\t133.33')"
    assert_line --index 3 --regexp '^total'
    run rft-dcpatch --map "$D/map8.csv" --summary --by slice --report occupancy --format csv "$T/two.rft"
    no_notes
    assert_success
    assert_line --index 0 "slice,conv_rel_comp%,conv_rel_unc%,conv_flt_comp%,conv_flt_unc%,conv_unwritten%,conv_unalloc%,dcp_rel_unc%,dcp_rel_comp%,dcp_flt_comp%,dcp_unused%"
    assert_line --index 1 "0:0,5.00,3.75,0.00,0.00,36.25,55.00,3.75,0.00,5.00,91.25"
    run rft-dcpatch --map "$D/map8.csv" --summary --format json "$T/two.rft"
    no_notes
    assert_line --index 2 --partial '{"kernel": "total", "writes": 5, "normal%": 0.00, "patch_faulty%": 40.00'
}

@test "as a stream stage: maps from rft-faultmap, counters before the end record" {
    run pipe "rft-decode --entries 8 '$D/basic.txt' | rft-faultmap --map '$D/map8.csv' | rft-dcpatch > '$T/out.rft'"
    assert_success
    # the records pass through, writes and reads annotated with their entry
    diff <(rft-view "$T/basic.rft" | grep -v '^#') \
        <(rft-view "$T/out.rft" | grep -v '^#' | sed 's/\tphys=[0-9]*$//')
    # one map record, a patch record per write (20), then counters: kernel
    # k, slice 0:0, total
    run rft-view --stats --format csv "$T/out.rft"
    assert_line "other_records,24"
    run pipe "rft-view --format json '$T/out.rft' | grep -c '\"stage\": \"rft-dcpatch\"'"
    assert_output 3
    # the same decisions as with --map
    rft-dcpatch --log "$T/a.log" --summary "$T/out.rft" > /dev/null
    diff <(cut -f2- "$T/a.log") <(cut -f2- "$D/basic.log")
    run rft-view -H "$T/out.rft"
    assert_line --regexp '^dcpatch +pick=low share-reliable=yes repatch=preventive stall-cycles=4$'
}

@test "--scenario generates the maps inside rft-dcpatch as rft-faultmap would" {
    pipe "rft-decode --entries 8 '$D/two.txt' | rft-faultmap --scenario dispersed --seed 9 | rft-dcpatch --summary --report events --format tsv > '$T/a'"
    rft-dcpatch --scenario dispersed --seed 9 --summary --report events --format tsv "$T/two.rft" > "$T/b"
    diff "$T/a" "$T/b"
}

@test "--summary alone prints the table and no stream; -o adds the stream" {
    run rft-dcpatch --map "$D/map8.csv" --summary "$T/two.rft"
    assert_success
    assert_line --index 0 --regexp '^kernel +writes +normal%'
    rft-dcpatch --map "$D/map8.csv" --summary -o "$T/o.rft" "$T/two.rft" > "$T/table"
    rft-view --stats "$T/o.rft" > /dev/null
    grep -q '^total' "$T/table"
    rft-dcpatch --map "$D/map8.csv" --summary="$T/table2" "$T/two.rft" > "$T/o2.rft"
    rft-view --stats "$T/o2.rft" > /dev/null
    cmp "$T/table" "$T/table2"
    run -2 rft-dcpatch --map "$D/map8.csv" --summary -o - "$T/two.rft"
    assert_output --partial "cannot both go to standard output"
    run -2 rft-dcpatch --map "$D/map8.csv" --format csv "$T/two.rft"
}

@test "bad map: entry or block out of range, duplicate row, geometry of the stream" {
    run -1 rft-dcpatch --map "$D/map8-entry.csv" --summary "$T/basic.rft"
    assert_output "rft-dcpatch: $D/map8-entry.csv: line 34: entry 8 out of range 0..7"
    run -1 rft-dcpatch --map "$D/map8-block.csv" --summary "$T/basic.rft"
    assert_output "rft-dcpatch: $D/map8-block.csv: line 6: block 4 out of range 0..3"
    run -1 rft-dcpatch --map "$D/map8-dup.csv" --summary "$T/basic.rft"
    assert_output "rft-dcpatch: $D/map8-dup.csv: line 34: second row for all slices (*) entry 2 block 3 (first at line 13)"
    rft-decode -o "$T/big.rft" "$D/basic.txt"
    run -1 rft-dcpatch --map "$D/map8.csv" --summary "$T/big.rft"
    assert_output "rft-dcpatch: $D/map8.csv: the map of all slices (*) is 8 entries x 4 blocks, not 256 x 4"
    # a map record of another geometry in the stream: an 8-entry stream
    # whose header is patched to 256 entries (u32 at offset 0x10)
    rft-faultmap --map "$D/map8.csv" -o "$T/m8.rft" "$T/basic.rft"
    zstd -q -dc "$T/m8.rft" > "$T/raw"
    printf '\000\001' | dd of="$T/raw" bs=1 seek=16 count=2 conv=notrunc 2>/dev/null
    zstd -q -c "$T/raw" > "$T/m256.rft"
    run -1 rft-dcpatch --summary "$T/m256.rft"
    assert_output "rft-dcpatch: $T/m256.rft: record 1: the fault map of all slices is 8 entries x 4 blocks, the stream's slices are 256 x 4"
}

@test "no map: a stream without one and no --scenario or --map" {
    run -1 rft-dcpatch --summary "$T/basic.rft"
    assert_output "rft-dcpatch: $T/basic.rft: record 2: no fault map for slice 0:0: the stream carries none (add --scenario NAME or --map FILE.csv, or run rft-faultmap first)"
    # and the failed stream carries no end record
    run pipe "rft-dcpatch < '$T/basic.rft' > '$T/failed.rft'"
    assert_failure 1
    run -1 rft-view "$T/failed.rft"
    assert_output --partial "truncated"
}

@test "bad usage: unknown scenario, bad numbers, missing values" {
    run -2 rft-dcpatch --scenario typical "$T/basic.rft"
    assert_line --index 0 "rft-dcpatch: --scenario: unknown scenario 'typical' (common, clustered or dispersed) (see rft-dcpatch --help)"
    run -2 rft-dcpatch --seed 7 "$T/basic.rft"
    run -2 rft-dcpatch --scenario common --stall-cycles x "$T/basic.rft"
    run -2 rft-dcpatch --scenario common --share-reliable maybe "$T/basic.rft"
    run -2 rft-dcpatch --shares 50/50/0/0/1 "$T/basic.rft"
    run -2 rft-dcpatch --scenario common a b
}

@test "bad data: window does not fit, truncated input, missing file" {
    run -1 pipe "rft-decode --entries 8 '$D/nofit.txt' | rft-dcpatch --map '$D/map8.csv' --summary"
    assert_output "rft-dcpatch: -: record 3: window of 5 registers of wavefront 1 does not fit in slice 0:0 (5 of 8 rows in use, first fit)"
    head -c $(( $(wc -c < "$T/basic.rft") / 2 )) "$T/basic.rft" > "$T/cut.rft"
    run -1 rft-dcpatch --map "$D/map8.csv" --summary "$T/cut.rft"
    assert_output --partial "rft-dcpatch: $T/cut.rft: "
    run -1 rft-dcpatch --map "$D/map8.csv" --summary "$T/nonexistent.rft"
}

@test "a full disk is an error" {
    run -1 bash -c "rft-dcpatch --map '$D/map8.csv' --summary '$T/basic.rft' > /dev/full"
    run -1 bash -c "rft-dcpatch --map '$D/map8.csv' '$T/basic.rft' > /dev/full"
}

@test "aging: a compressed register holds one block, the others keep theirs; a spilled one no cell" {
    pipe "rft-faultmap --map '$D/map8.csv' '$T/basic.rft' | rft-dcpatch | rft-duty > '$T/d.duty'"
    run -0 pipe "rft-vth --by cells --format tsv '$T/d.duty' | cut -f 3-9,13"
    # entry 1 (faulty, blocks 1 and 3 usable): v0's code from cycle 1 in
    # lane 17 (block 1), v1's from 2 in lane 49 (block 3): C0 = 0, log2 De
    # = 0, log2 Db = 3, valid: bits 3, 4 and 6; blocks 0 and 2 hold zeros
    assert_line $'1\t0\t546\t26\t0\t0\t26\tused'
    assert_line $'1\t547\t548\t1\t25\t0\t26\tused'
    assert_line $'1\t550\t550\t1\t25\t0\t26\tused'
    assert_line $'1\t1571\t1572\t2\t24\t0\t26\tused'
    assert_line $'1\t1575\t2047\t26\t0\t0\t26\tused'
    # entry 3 (every block faulty) is never written: off, as unused entries are
    assert_line $'3\t0\t2047\t0\t0\t26\t26\tunused'
    # entry 0, block 2: v4's code from 5; v4 spills at 14 (its block keeps
    # the code, the LDS holds it) until v5 takes the whole entry at 16
    # (lane 33 = 3 x 33 = 0x63: bits 0, 1, 5, 6)
    assert_line $'0\t1059\t1060\t15\t11\t0\t26\tused'
    assert_line $'0\t1062\t1062\t5\t21\t0\t26\tused'
    # the placement as rft-view shows it
    run -1 pipe "rft-view '$T/d.duty' | grep -c '^# patch'"
    assert_output 0
    run -0 pipe "rft-dcpatch --map '$D/map8.csv' '$T/basic.rft' | rft-view | grep '^# patch' | sed -n '1p;14p'"
    assert_line --index 0 $'# patch\tcycle=1\tslice=0:0\twf=0\tvreg=0\tplace=block\tentry=1\tblock=1\tc0=00000000\tcode=58'
    assert_line --index 1 $'# patch\tcycle=14\tslice=0:0\twf=0\tvreg=4\tplace=lds\tentry=-\tblock=-\tc0=00000000\tcode=00'
}

@test "aging: DC-Patch against the baseline allocator on the same cells, by fault class" {
    pipe "rft-faultmap --map '$D/map8.csv' '$T/basic.rft' | rft-dcpatch | rft-duty > '$T/d.duty'"
    pipe "rft-faultmap --map '$D/map8.csv' '$T/basic.rft' | rft-alloc | rft-duty > '$T/b.duty'"
    run -0 pipe "rft-vth --by fault --format tsv base='$T/b.duty' dcpatch='$T/d.duty' | grep -E '	(entries_used|avg_1%|avg_off%|avg_stress%|longest_1%)	'"
    # the baseline writes whole registers into faulty entries too; DC-Patch
    # stores only codes in the usable blocks of entry 1 and nothing in entry
    # 3, whose cells count (off, unused) as they do in the baseline: every
    # class compares the same cells
    assert_output "$(printf '%s\n' \
        'reliable	entries_used	6	6		' \
        'reliable	avg_1%	8.64	6.63	23.18	' \
        'reliable	avg_off%	0.00	0.00		' \
        'reliable	avg_stress%	96.04	95.58	0.48	' \
        'reliable	longest_1%	96.15	84.62	12.00	' \
        'faulty:usable	entries_used	1	1		' \
        'faulty:usable	avg_1%	10.10	0.55	94.53	' \
        'faulty:usable	avg_off%	0.00	0.00		' \
        'faulty:usable	avg_stress%	99.16	99.97	-0.81	' \
        'faulty:usable	longest_1%	92.31	96.15	-4.17	' \
        'faulty:dead	entries_used	2	1		' \
        'faulty:dead	avg_1%	8.22	0.00	100.00	' \
        'faulty:dead	avg_off%	0.00	66.67		' \
        'faulty:dead	avg_stress%	97.03	33.33	65.65	' \
        'faulty:dead	longest_1%	92.31	0.00	100.00	' \
        'all	entries_used	8	7		' \
        'all	avg_1%	8.65	5.01	42.07	' \
        'all	avg_off%	0.00	12.50		' \
        'all	avg_stress%	96.42	84.18	12.69	' \
        'all	longest_1%	96.15	96.15	0.00	')"
    # other faults, or none, are not the same cells
    pipe "rft-faultmap --scenario common '$T/basic.rft' | rft-alloc | rft-duty > '$T/o.duty'"
    run -1 --separate-stderr rft-vth --by fault base="$T/o.duty" "$T/d.duty"
    assert_equal "$stderr" "rft-vth: $T/d.duty: record 2: the fault map of slice 0:0 differs from that of $T/o.duty: compare placements on one undervolted register file"
    rft-alloc "$T/basic.rft" | rft-duty > "$T/n.duty"
    run -1 --separate-stderr rft-vth --by fault "$T/n.duty"
    assert_equal "$stderr" "rft-vth: $T/n.duty: record 1: no fault map for slice 0:0 before its duty map: put rft-faultmap(1) before the placement in every pipeline compared"
}

@test "aging: maps given to rft-dcpatch go into its stream; an earlier placement is dropped" {
    # the stream's own maps (common) are replaced by the map used
    run -0 --separate-stderr pipe "rft-faultmap --scenario common '$T/basic.rft' | rft-alloc | rft-dcpatch --map '$D/map8.csv' -o '$T/x.rft'"
    assert_equal "$stderr" "rft-dcpatch: warning: -: placement records of an earlier stage dropped: DC-Patch places the registers itself"
    diff <(rft-faultmap --csv "$T/x.rft") <(rft-faultmap --csv <(rft-faultmap --map "$D/map8.csv" "$T/basic.rft") | sed 's/^\*,\*,/0,0,/')
    run -1 pipe "rft-view --format json '$T/x.rft' | grep -c '\"kind\": \"alloc\"'"
    assert_output 0
    # a repeated stream keeps each patch before its write
    rft-repeat -n 2 "$T/x.rft" | rft-duty > /dev/null
}
