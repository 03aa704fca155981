#!/usr/bin/env bats
# Issue 16, one convention across programs.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
}

@test "output names up to NAME_MAX: the temporary suffix does not push them over" {
    local n
    n=$(printf 'x%.0s' $(seq 251))                  # 251 + ".rft" = 255 bytes
    rft-synth --writes 100 --seed 1 -o "$n.rft"
    rft-view --stats "$n.rft" > /dev/null
    rft-alloc -o "$n.rft" "$n.rft"                  # in place: read, then renamed over
    rft-view -H "$n.rft" | grep -q '^alloc '
    # a text output (-o of rft-collect goes through the same temporary name),
    # of a batch of one small trace (the name is tested, not the study)
    mkdir suite
    rft-synth --kernels vecadd --writes 300 --seed 1 -o suite/a.rft
    rft-batch -o out suite > /dev/null 2>&1
    rft-collect -o "$n.tsv" out
    [ -s "$n.tsv" ]
    [ -z "$(ls | grep tmp)" ]
}

@test "a stream is never written to a terminal: an error that says to use -o or a pipe" {
    command -v script >/dev/null || skip "script(1) (bsdutils) is missing"
    rft-synth --writes 100 --seed 1 > s.rft
    for p in "rft-alloc s.rft" "rft run 'duty s.rft'" "rft-duty s.rft"; do
        run -0 script -qec "$p; echo status=\$?" /dev/null
        assert_output --partial "standard output is a terminal: an rft stream is binary (use -o FILE or a pipe)"
        assert_output --partial "status=1"
    done
    # a table to the terminal is fine
    run -0 script -qec "rft-alloc s.rft | rft-duty --summary; echo status=\$?" /dev/null
    assert_output --partial "status=0"
}

@test "progress on stderr when it is a terminal, off with --quiet and when not a terminal" {
    command -v script >/dev/null || skip "script(1) (bsdutils) is missing"
    rft-synth --writes 60000 --seed 1 | rft-alloc > p.rft
    export RFT_PROGRESS_SECONDS=0           # a line every 65536 records
    run -0 script -qec "rft-gate -o /dev/null p.rft" /dev/null
    assert_output --regexp $'^\rrft-gate: 0\\.1M records, [0-9.]+M/s, [0-9]+%, [0-9]+ s left'
    run -0 script -qec "rft-gate --quiet -o /dev/null p.rft" /dev/null
    assert_output ""
    run -0 script -qec "rft run --quiet 'gate p.rft | duty -o /dev/null'" /dev/null
    assert_output ""
    run -0 --separate-stderr rft-gate -o /dev/null p.rft
    assert_equal "$stderr" ""
}

# ---- the same names for the same things ----------------------------------------

# the options of program $1, one a line (its getopt table: tests/help.bats)
options_of() { "$1" --list-options; }

@test "-o on every program that writes a file; --flush wherever --level (a stream); -s with --summary" {
    local p
    for p in "$TOP"/bin/rft-*; do
        [[ -x $p && $p != *.* ]] || continue
        p=${p##*/}
        run -0 options_of "$p"
        assert_line -- -o
        if [[ $output == *$'\n--level\n'* ]]; then
            assert_line -- --flush
        fi
        if [[ $output == *$'\n--summary\n'* ]]; then
            assert_line -- -s
        fi
    done
}

@test "-o FILE of the programs that print: the same bytes as standard output, nothing on failure" {
    rft-synth --writes 400 --seed 2 > s.rft
    pipe 'rft-alloc s.rft | rft-duty > d.rft'
    local P="$TOP/params/seed002-32nm.conf" args
    for args in "rft-view s.rft" "rft-view --stats s.rft" "rft-vth d.rft" "rft-vth --by year --years 2 d.rft" \
                "rft-heal --profile X=20,Y=20,Z=20,W=20,T=20" "rft-energy --show-params --params $P" \
                "rft-faultmap --stats --scenario common --seed 1" "rft-faultmap --csv --scenario common --seed 1 --entries 8"; do
        $args > want.txt
        [[ -s want.txt ]]
        rm -f got.txt
        $args -o got.txt
        cmp want.txt got.txt || fail "$args -o differs"
    done
    # a failure leaves no file, and a full disk is an error
    run -1 --separate-stderr rft-vth -o got2.txt nothere.rft
    [[ ! -e got2.txt ]]
    run -1 --separate-stderr rft-view -o /dev/full s.rft
    assert_equal "$stderr" "rft-view: /dev/full: No space left on device"
    # rft-energy's -o names the table's file, and the scan's with --scan
    rft-energy --scan -o scan.rft d.rft
    rft-view -H scan.rft > /dev/null
}

@test "rft-decode --input-format; -f and --format, its old spellings, still work with a warning" {
    rft-synth --writes 100 --seed 3 > s.rft
    rft-view s.rft > t.tsv
    rft-decode --input-format text -o a.rft t.tsv
    rft-decode --format text -o b.rft t.tsv 2>/dev/null
    rft-decode -f text -o c.rft t.tsv 2>/dev/null
    cmp <(rft-view a.rft) t.tsv
    cmp a.rft b.rft
    cmp a.rft c.rft
    run -2 --separate-stderr rft-decode --input-format vliw t.tsv
    assert_equal "$stderr" "rft-decode: --input-format: 'vliw' is not one of auto, text, csv, m2s, evg, gem5, nvbit, cutracer, columns (see rft-decode --help)"
    grep -q 'the old spellings' "$TOP/man/rft-decode.1"
}

@test "rft-gate -s FILE is --summary=FILE; --flush on rft-faultmap, rft-merge, rft-synth" {
    rft-synth --writes 200 --seed 4 > s.rft
    rft-alloc -o a.rft s.rft
    rft-gate -s one.tsv -f tsv -o g1.rft a.rft
    rft-gate --summary=two.tsv -f tsv -o g2.rft a.rft
    cmp one.tsv two.tsv
    cmp g1.rft g2.rft
    grep -q $'^total\twrites\t' one.tsv
    rft-synth --writes 200 --seed 4 --flush > f.rft
    cmp <(rft-view f.rft) <(rft-view s.rft)
    rft-faultmap --scenario common --seed 1 --flush -o m1.rft s.rft
    rft-faultmap --scenario common --seed 1 -o m2.rft s.rft
    cmp <(rft-view m1.rft) <(rft-view m2.rft)
    pipe 'rft-duty a.rft > d.rft'
    rft-merge --flush -o x1.rft d.rft d.rft
    rft-merge -o x2.rft d.rft d.rft
    cmp <(rft-view x1.rft) <(rft-view x2.rft)
}

# ---- JSON is always valid --------------------------------------------------------

# prints "valid" when every line of standard input is JSON (python3, as the other tests use)
json_lines="python3 -c 'import json, sys; [json.loads(l) for l in sys.stdin]; print(\"valid\")'"

@test "JSON output escapes \" \\ and control characters in kernel names, scopes and metadata" {
    rft-synth --writes 300 --seed 1 | rft-view > t.tsv
    # a kernel named  ve"c\a<U+0001>dd  in a file whose name (metadata) has " and \ too
    sed $'s/vecadd/ve"c\\\\a\001dd/g' t.tsv > 'q"\t.tsv'
    grep -q $'^K\t0\tve"c\\\\a\001dd$' 'q"\t.tsv'
    rft-decode -o s.rft 'q"\t.tsv'
    rft-faultmap --scenario common --seed 1 s.rft | rft-dcpatch -o p.rft
    run -0 pipe "rft-view -f json p.rft | $json_lines"
    assert_output valid
    # the name comes back whole, from the kernel record and a counters scope
    run -0 pipe "rft-view -f json p.rft | python3 -c 'import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r[\"kind\"] == \"K\" and r[\"index\"] == 0: print(repr(r[\"name\"]))
    if r[\"kind\"] == \"counters\" and \"ve\" in r[\"scope\"]: print(repr(r[\"scope\"]))'"
    assert_output $'\'ve"c\\\\a\\x01dd\'\n\'kernel ve"c\\\\a\\x01dd\''
    for cmd in "rft-view -H -f json p.rft" "rft-view --stats -f json p.rft" \
               "rft-dcpatch --scenario common --seed 1 --summary -f json s.rft" "rft-classify --summary -f json s.rft"; do
        run -0 pipe "$cmd | $json_lines"
        assert_output valid
    done
    rft-view -H -f json s.rft | grep -qF '"q\"\\t.tsv"'
    # the study scripts' TSV-to-JSON (examples/stages.sh) escapes the same way
    run -0 pipe ". '$TOP/examples/stages.sh'; printf 'a\tb\n1\tx\"y\\\\z\\001\\r\n' | tsv_json t"
    assert_output '{"table": "t", "a": 1, "b": "x\"y\\z\u0001\u000d"}'
}

@test "rft-view -s: the old spelling of --stats, with a warning; -s is --summary=FILE everywhere else" {
    rft-synth --writes 200 --seed 5 > s.rft
    cmp <(rft-view -s s.rft 2>/dev/null) <(rft-view --stats s.rft)
    run -0 rft-view --help
    assert_line --regexp '^      --stats +Count the records'
    # rft(1)'s conventions point to the table of letters
    grep -A12 '^One name for one thing' "$TOP/man/rft.1" | tr '\n' ' ' | grep -q 'one letter, one meaning everywhere'
    # no program with a summary documents -s as anything but --summary=FILE
    local p
    for p in "$TOP"/bin/rft-*; do
        [[ -x $p && $p != *.* ]] || continue
        run -0 "$p" --list-options
        [[ $output == *$'\n--summary\n'* ]] || continue
        run -0 "$p" --help
        assert_line --regexp '^  -s FILE +The same as --summary=FILE'
    done
}

# ---- --counts: counts in place of percentages, the same rows ---------------------

@test "--counts on rft-faultmap --stats and rft-duty --summary: the counts behind the percentages" {
    run -0 rft-faultmap --stats --counts --scenario clustered --seed 3 --slice 0:0,0:1 -f tsv
    no_notes
    assert_output "$(printf '%s\n' \
        $'slice\torigin\tseed\tentries\tblocks\tbits0\tbits1\tbits2\tbits3\tbits4+\tfaulty_entries\tfaulty\tfaulty_blocks\tfaulty_next' \
        $'0:0\tclustered\t3\t256\t4\t110\t51\t31\t26\t38\t95\t95\t292\t73' \
        $'0:1\tclustered\t3\t256\t4\t110\t51\t31\t26\t38\t95\t95\t292\t73')"
    # the same rows as the percentages: 73 of the 95 (94 when the last entry is faulty)
    run -0 rft-faultmap --stats --scenario clustered --seed 3 --slice 0:0,0:1 -f tsv
    no_notes
    assert_line --index 1 $'0:0\tclustered\t3\t256\t4\t110\t51\t31\t26\t38\t95\t37.11\t292\t76.84'
    assert_line --index 2 $'0:1\tclustered\t3\t256\t4\t110\t51\t31\t26\t38\t95\t37.11\t292\t77.66'
    run -2 --separate-stderr rft-faultmap --counts --scenario common
    assert_equal "$stderr" "rft-faultmap: --format and --counts go with --stats (see rft-faultmap --help)"

    rft-synth --writes 2000 --seed 1 | rft-alloc > a.rft
    rft-duty --summary -f tsv a.rft > pct.tsv
    rft-duty --summary --counts -f tsv a.rft > cnt.tsv
    sed -i '/^# /d' pct.tsv cnt.tsv     # the rows, without the notes
    run -0 cut -f1,5,11,13 cnt.tsv
    assert_line --index 0 $'slice\tcycles\tlongest_0\tlongest_1'
    assert_line --index 1 $'0:0\t26116\t26116\t26116'
    # the same rows and cells but the longest duties; those are cycles of the window
    cmp <(cut -f1-10,12,14 pct.tsv) <(cut -f1-10,12,14 cnt.tsv)
    awk -F '\t' 'NR > 1 { if ($11 > $5 || $13 > $5) exit 1 }' cnt.tsv
    paste pct.tsv cnt.tsv | awk -F '\t' 'NR > 1 && $5 > 0 {
        if (sprintf("%.2f", 100 * $25 / $5) != $11) { print "row " NR ": " $11 " vs " $25 " of " $5; exit 1 } }'
    run -2 --separate-stderr rft-duty --counts a.rft
    assert_equal "$stderr" "rft-duty: --format and --counts shape the --summary report (see rft-duty --help)"
}

@test "--counts on rft-alloc --util and --recovery: entry-cycles and gated cycles behind the percentages" {
    rft-decode --lanes 1 --block-lanes 1 --entries 16 "$FIX/argo/rotate.tsv" > r.rft
    # By hand: ARGO puts four windows of 4 entries at 0-3, 4-7, 8-11, 12-15, 100 cycles
    # each, the span 400 cycles: 4 x 4 x 100 = 1600 entry-cycles (25 % of 16 x 400).
    run -0 rft-alloc --scheme argo --util --counts -o /dev/null r.rft
    no_notes
    assert_output "$(printf '%s\n' \
        $'kernel\tvgprs\tslices\tmax_wf\tpeak_entries\tentries\tunused_windows\tentry_cycles\tslice_cycles' \
        $'k\t4\t1\t1\t4\t16\t3\t1600\t400' \
        $'all\t4\t1\t1\t4\t16\t3\t1600\t400')"
    # A bank of 4 is gated while the three other windows are held: 300 of 400 cycles
    # (75 %), 4 banks x 4 entries x 300 = 4800 gated entry-cycles; a bank of 8 is
    # gated 200 cycles, 2 x 8 x 200 = 3200 (50 %); the slice's one bank never.
    run -0 rft-alloc --scheme argo --recovery --banks 4,8,16 --counts -o /dev/null r.rft
    no_notes
    assert_line --index 0 $'kernel\tbank_entries\tbank_bytes\tslice_cycles\tused_banks\tworst_gated_cycles\tworst_slice_cycles\tworst_bank\tmean_recovery%\tgated_entry_cycles\tentries'
    assert_line --index 1 $'k\t4\t16\t400\t4\t300\t400\t0:0 e0-3\t75.00\t4800\t16'
    assert_line --index 2 $'k\t8\t32\t400\t2\t200\t400\t0:0 e0-7\t50.00\t3200\t16'
    assert_line --index 3 $'k\t16\t64\t400\t1\t0\t400\t0:0 e0-15\t0.00\t0\t16'
    # bank.tsv (8 entries, 1000 cycles): windows of 1 (0-1000), 3 (100-200) and
    # 2 (300-500) entries: 1000 + 300 + 400 = 1700 entry-cycles (21.25 %)
    rft-decode --lanes 1 --block-lanes 1 --entries 8 "$FIX/argo/bank.tsv" > b.rft
    run -0 pipe "rft-alloc --util --counts --format json -o /dev/null b.rft | sed -n 2p"
    assert_output '{"kernel": "k", "vgprs": "1-3", "slices": 1, "max_wf": 2, "peak_entries": 4, "entries": 8, "unused_windows": null, "entry_cycles": 1700, "slice_cycles": 1000}'

    # on several slices and kernels the counts give the percentages back
    rft-synth --writes 2000 --seed 1 > s.rft
    rft-alloc --scheme argo --util=u.tsv --recovery=r.tsv --banks 4,32 -o /dev/null s.rft
    rft-alloc --scheme argo --util=uc.tsv --recovery=rc.tsv --banks 4,32 --counts -o /dev/null s.rft
    sed -i '/^# /d' u.tsv uc.tsv r.tsv rc.tsv   # the rows, without the notes
    paste u.tsv uc.tsv | awk -F '\t' 'NR > 1 {
        if (sprintf("%.2f", 100 * $14 / $15) != $6 || sprintf("%.2f", 100 * $17 / ($15 * $18)) != $8) {
            print "row " NR ": " $0; exit 1 } }'
    paste r.tsv rc.tsv | awk -F '\t' 'NR > 1 {
        if ($5 > 0 && sprintf("%.2f", 100 * $15 / $16) != $6) { print "worst, row " NR ": " $0; exit 1 }
        if (sprintf("%.2f", 100 * $19 / ($20 * $13)) != $9) { print "leak, row " NR ": " $0; exit 1 }
        if ($16 != $13) n++ }       # the worst bank'"'"'s slice is not every span
        END { if (!n) { print "worst_slice_cycles is slice_cycles on every row"; exit 1 } }'
    run -2 --separate-stderr rft-alloc --counts s.rft
    assert_equal "$stderr" "rft-alloc: --counts shapes the --util and --recovery tables (see rft-alloc --help)"
}

@test "--counts on rft-heal --report profile: instructions and busy cycles behind the shares" {
    rft-decode "$FIX/heal/evg1.txt" -o e.rft
    # By hand (tests/fixtures/heal/evg1.txt): one slice of 16 SCs, a window of 100 cycles,
    # bundles XZT on lanes 0-15, XY on lanes 0-3, X on lanes 0-15, one lane an SC each.
    # X is in 3 bundles of 6 instructions, busy 16 + 4 + 16 = 36 SC-cycles (36 / 1600 =
    # 2.25 %), 3 on SCs 0-3, 2 on the others; SCs 0-3 run 3 bundles, SCs 4-15 run 2.
    run -0 rft-heal --report profile --counts --format tsv e.rft
    no_notes
    assert_line --index 0 $'unit\tinstr\tbusy_cycles\tbusy_min_cycles\tbusy_max_cycles\tunits\twindow_cycles'
    assert_line --index 1 $'PE_X\t3\t36\t2\t3\t16\t100'
    assert_line --index 2 $'PE_Y\t1\t4\t0\t1\t16\t100'
    assert_line --index 3 $'PE_Z\t1\t16\t1\t1\t16\t100'
    assert_line --index 4 $'PE_W\t0\t0\t0\t0\t16\t100'
    assert_line --index 5 $'PE_T\t1\t16\t1\t1\t16\t100'
    assert_line --index 6 $'SC_0\t\t3\t3\t3\t1\t100'
    assert_line --index 10 $'SC_4\t\t2\t2\t2\t1\t100'
    assert_line --index 22 $'SC_all\t\t36\t2\t3\t16\t100'
    (( ${#lines[@]} == 23 ))
    # several slices: the counts give the shares back
    rft-synth --arch evergreen --kernels reduction,sobel --bundles 2000 --cus 3 > s.rft
    rft-heal --report profile --format tsv s.rft | grep -v '^#' > pct.tsv
    rft-heal --report profile --counts --format tsv s.rft | grep -v '^#' > cnt.tsv
    paste pct.tsv cnt.tsv | awk -F '\t' 'NR == 1 { next }
        $1 ~ /^PE/ { all += $7 } { instr[NR] = $7; share[NR] = $2; units = $11 }
        sprintf("%.2f", 100 * $8 / ($11 * $12)) != $3 || sprintf("%.2f", 100 * $9 / $12) != $4 ||
            sprintf("%.2f", 100 * $10 / $12) != $5 { print "row " NR ": " $0; bad = 1 }
        END { for (r in instr) if (share[r] != "" && sprintf("%.2f", 100 * instr[r] / all) != share[r]) bad = 1
              if (units != 48) { print "SC_all: " units " units, not 3 CUs x 16 SCs"; bad = 1 }
              exit bad }'
    run -2 --separate-stderr rft-heal --counts e.rft
    assert_equal "$stderr" "rft-heal: --counts goes with --report profile or slices (see rft-heal --help)"
    run -2 --separate-stderr rft-heal --report profile --counts --profile X=50.7,Y=16.3,Z=9,W=13,T=11
    assert_equal "$stderr" "rft-heal: --counts: a profile given by hand has shares, not counts (see rft-heal --help)"
}

@test "--counts on rft-heal --report slices: the busy cycles of the SCs and PEs behind the shares" {
    local cols=$'slice\tbundles\twrites\tsc_busy_min_cycles\tsc_busy_cycles\tsc_busy_max_cycles'
    cols+=$'\tPE_X_cycles\tPE_Y_cycles\tPE_Z_cycles\tPE_W_cycles\tPE_T_cycles\tunits\twindow_cycles'
    rft-decode "$FIX/heal/evg1.txt" -o e.rft
    # By hand (tests/fixtures/heal/evg1.txt, as above): SCs 0-3 busy 3 cycles, SCs 4-15
    # 2, 36 in all; X busy 16 + 4 + 16, Y 4, Z 16, W none, T 16 SC-cycles; 16 SCs, 100 cycles
    run -0 rft-heal --report slices --counts --format tsv e.rft
    no_notes
    assert_equal "$output" "$cols"$'\n0:0\t3\t0\t2\t36\t3\t36\t4\t16\t0\t16\t16\t100'
    # the shares they make: 2 / 100, 36 / (16 x 100), 3 / 100, ...
    run -0 rft-heal --report slices --format tsv e.rft
    no_notes
    assert_line --index 1 $'0:0\t3\t0\t2.00\t2.25\t3.00\t2.25\t0.25\t1.00\t0.00\t1.00'
    # tests/fixtures/heal/gcn2.txt, busy from writes: 8 wavefronts of 64 lanes, each lane
    # one cycle, so 8 x 4 = 32 cycles on every SC, 512 in all, over cycles 0-200
    rft-decode "$FIX/heal/gcn2.txt" -o g.rft
    run -0 rft-heal --scheme sc --report slices --counts --format json g.rft
    no_notes
    assert_output '{"slice": "0:0", "bundles": 0, "writes": 8, "sc_busy_min_cycles": 32, "sc_busy_cycles": 512, "sc_busy_max_cycles": 32, "PE_X_cycles": 0, "PE_Y_cycles": 0, "PE_Z_cycles": 0, "PE_W_cycles": 0, "PE_T_cycles": 0, "units": 16, "window_cycles": 201}'
    run -0 rft-heal --scheme sc --report slices --format tsv g.rft
    no_notes
    assert_line --index 1 $'0:0\t0\t8\t15.92\t15.92\t15.92\t0.00\t0.00\t0.00\t0.00\t0.00'
    # several slices: the counts give back every share to two decimals
    rft-synth --arch evergreen --kernels reduction,sobel --bundles 2000 --cus 3 > s.rft
    rft-heal --report slices --format tsv s.rft | grep -v '^#' > pct.tsv
    rft-heal --report slices --counts --format tsv s.rft | grep -v '^#' > cnt.tsv
    head -1 cnt.tsv | grep -qx "$cols"
    paste pct.tsv cnt.tsv | awk -F '\t' 'NR == 1 { next }
        { rows++; w = $24; all = $23 * w
          if ($1 != $12 || $2 != $13 || $3 != $14) bad = 1
          if (sprintf("%.2f", 100 * $15 / w) != $4 || sprintf("%.2f", 100 * $16 / all) != $5 ||
              sprintf("%.2f", 100 * $17 / w) != $6) bad = 1
          for (p = 0; p < 5; p++) if (sprintf("%.2f", 100 * $(18 + p) / all) != $(7 + p)) bad = 1
          if (bad && !told++) print "row " NR ": " $0 }
        END { if (rows != 3) { print rows " rows, not 3 slices"; bad = 1 }; exit bad }'
    # the other tables have no counts behind their percentages
    local rep
    for rep in summary units series groups cost; do
        run -2 --separate-stderr rft-heal --scheme sc --report "$rep" --counts g.rft
        assert_equal "$stderr" "rft-heal: --counts goes with --report profile or slices (see rft-heal --help)"
    done
    run -2 --separate-stderr rft-heal --report slices --counts --profile X=50.7,Y=16.3,Z=9,W=13,T=11
    assert_equal "$stderr" "rft-heal: --counts: a profile given by hand has shares, not counts (see rft-heal --help)"
}

@test "undervolt.sh --counts: the writes table of rft-dcpatch in writes, in every format" {
    local uv="$TOP/examples/undervolt.sh"
    rft-decode --entries 8 "$FIX/tables/spill.tsv" -o spill.rft
    # By hand from the shares tests/tables.bats checks on the 24 writes: common 50 % normal,
    # 25 % patched in a reliable entry, 25 % to the LDS: 12, 6 and 6; dispersed 41.67,
    # 20.83 and 37.50 %: 10, 5 and 9
    run -0 "$uv" -S 5 --counts spill.rft --set geometry.entries=8
    assert_line --index 1 --regexp '^scenario +writes +normal +patch_faulty +patch_reliable +lds +mispred '
    assert_line --regexp '^common +24 +12 +0 +6 +6 '
    assert_line --regexp '^dispersed +24 +10 +0 +5 +9 '
    # after the trace it is the script's too, not rft-energy's
    run -0 pipe "'$uv' -S 5 spill.rft --format tsv --counts --set geometry.entries=8 | grep -v '^#' | sed -n 2p | cut -f 1-6"
    assert_output $'common\t24\t12\t0\t6\t6'
    run -0 pipe "'$uv' -S 5 spill.rft --counts --format json --set geometry.entries=8 | grep -v '\"notes\": ' | sed -n 3p"
    assert_output --partial '{"table": "writes", "scenario": "dispersed", "writes": 24, "normal": 10, "patch_faulty": 0, "patch_reliable": 5, "lds": 9, '
    run -0 "$uv" --help
    assert_output --partial ' [--counts] '
    grep -q '^#   --counts  the writes table in writes' "$uv"
}

@test "--help: every line after the description is one option with its whole description" {
    # rft-classify had a '--by' line with no text, its closing note as an option line and
    # --sweep cut off with '...'; rft-decode and rft-heal cut lines off the same way
    local p l
    for p in "$TOP"/bin/rft-*; do
        [[ -x $p && $p != *.* ]] || continue
        run -0 "$p" --help
        while IFS= read -r l; do
            [[ $l =~ ^\ \ (-[A-Za-z0-9]|\ \ \ \ --[a-z]) ]] || fail "${p##*/}: not an option line: '$l'"
            [[ $l =~ [^\ ]\ \ +[^\ ] && $l != *' ' ]] || fail "${p##*/}: an option without its text: '$l'"
            [[ $l != *... ]] || fail "${p##*/}: cut off: '$l'"
        done < <(sed '1,/^$/d' <<<"$output")
    done
    run -0 rft-classify --help
    assert_line '      --sweep            Print, instead of a stream or a summary, the share of writes that fit the pattern for every BS from 1 to 64 under both delta rules, per kernel and in total'
    assert_line '      --counts           Print counts instead of percentages (with --summary or --sweep)'
}
