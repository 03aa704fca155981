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
    # a text output (-o of rft-collect goes through the same temporary name)
    make_suite suite
    rft-batch -j 2 -o out suite > /dev/null 2>&1
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

@test "rft-decode --input-format (preferred), --format kept as its older spelling" {
    rft-synth --writes 100 --seed 3 > s.rft
    rft-view s.rft > t.tsv
    rft-decode --input-format text -o a.rft t.tsv
    rft-decode --format text -o b.rft t.tsv
    rft-decode -f text -o c.rft t.tsv
    cmp <(rft-view a.rft) t.tsv
    cmp a.rft b.rft
    cmp a.rft c.rft
    run -2 --separate-stderr rft-decode --input-format vliw t.tsv
    assert_equal "$stderr" "rft-decode: --input-format: 'vliw' is not one of auto, text, csv, m2s, evg, gem5, nvbit, columns (see rft-decode --help)"
    grep -q 'named so (preferred) or by its older spelling' "$TOP/man/rft-decode.1"
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
