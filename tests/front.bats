#!/usr/bin/env bats
# rft: the front end.  `rft CMD ARGS` runs rft-CMD found first beside rft,
# then on PATH; `rft help` lists the commands.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    T="$FIX/decode/basic.tsv"
    VERSION=$(sed -n 's/^#define RFT_VERSION "\(.*\)"/\1/p' "$TOP/lib/rft.h")
}

@test "rft help lists the commands that are built, with a line each" {
    run -0 --separate-stderr rft help
    assert_equal "$stderr" ""
    assert_line --index 0 'rft command [argument ...]'
    assert_line --regexp '^  decode +Text or CSV register-write trace \(plain or zstd-compressed\) to an rft stream$'
    assert_line --regexp '^  view +rft stream to text, TSV, CSV or JSON lines; its header and statistics$'
    local p
    for p in "$TOP"/bin/rft-*; do
        [[ -x $p && $p != *.* ]] || continue
        assert_line --regexp "^  ${p##*/rft-}( |\$)"
    done
}

@test "rft help does not list commands that are not built" {
    mkdir b
    cp "$TOP/bin/rft" "$TOP/bin/rft-view" b/
    run -0 b/rft help
    assert_line --regexp '^  view '
    refute_line --regexp '^  decode '
}

@test "rft view FILE is rft-view FILE" {
    rft-decode "$T" > s.rft
    rft view s.rft > a.tsv
    rft-view s.rft > b.tsv
    cmp a.tsv b.tsv
    cmp a.tsv "$T"
}

@test "rft decode | rft view: a round trip through the front end" {
    run -0 pipe "rft decode '$T' | rft view --format csv > out.csv"
    tr '\t' , < "$T" > want.csv
    cmp out.csv want.csv
}

@test "options and stdin pass through unchanged" {
    rft-decode "$T" > s.rft
    run -0 pipe 'rft view --stats --format tsv - < s.rft'
    assert_line $'writes\t9'
    run -0 rft view --kind K s.rft
    assert_output $'K\t100\tvecadd\nK\t112\tscale'
}

@test "rft finds its commands beside itself, whatever PATH says" {
    rft-decode "$T" > s.rft
    run -0 env PATH=/usr/bin:/bin "$TOP/bin/rft" view --kind K s.rft
    assert_output $'K\t100\tvecadd\nK\t112\tscale'
}

@test "rft runs a command found on PATH when none is beside it" {
    mkdir b p
    cp "$TOP/bin/rft" b/
    printf '#!/bin/sh\necho "hello $*"\n' > p/rft-hello
    chmod +x p/rft-hello
    run -0 env PATH="$PWD/p:/usr/bin:/bin" b/rft hello a 'b c'
    assert_output 'hello a b c'
}

@test "rft help lists an unknown command beside it by name" {
    mkdir b
    cp "$TOP/bin/rft" b/
    printf '#!/bin/sh\necho "hello $#"\n' > b/rft-hello
    chmod +x b/rft-hello
    run -0 b/rft help
    assert_line --regexp '^  hello *$'
    run -0 b/rft hello x y
    assert_output 'hello 2'
}

@test "a command's failure status and message pass through" {
    run -1 --separate-stderr rft view "$FIX/corrupt/bad-magic.rft"
    assert_equal "$stderr" "rft-view: $FIX/corrupt/bad-magic.rft: not an rft stream (bad magic)"
    run -2 --separate-stderr rft view --kind X
    [[ ${stderr_lines[0]} == "rft-view: --kind: 'X' is not one of K, B, W, R, E, A, U (see rft-view --help)" ]]
}

@test "rft view | head -1 ends quietly" {
    awk 'BEGIN { print "B\t0\t0\t0\t0\t4"
        for (i = 0; i < 3000; i++) { printf "W\t%d\t0\t0\t0\t%d\tffffffffffffffff", i, i % 4
            for (l = 0; l < 64; l++) printf "\t%08x", (i * 7919 + l * 104729) % 2147483647
            printf "\n" } }' | rft-decode > big.rft
    run --separate-stderr pipe 'rft view big.rft | head -1'
    assert_equal "$stderr" ""
    assert_output $'B\t0\t0\t0\t0\t4'
    [[ $status -eq 0 || $status -eq 141 ]]
}

@test "rft help CMD is rft-CMD --help" {
    rft-view --help > want.txt
    run -0 rft help view < /dev/null
    assert_output "$(cat want.txt)"
}

@test "rft --help and rft --version" {
    run -0 rft --help
    assert_line --index 0 'rft command [argument ...]'
    run -0 rft --version
    assert_output "rft (rftrace) $VERSION"
}

@test "options after the command belong to the command" {
    run -0 rft view --version
    assert_output "rft-view (rftrace) $VERSION"
}

@test "no command is a usage error" {
    run -2 --separate-stderr rft
    assert_equal "${stderr_lines[0]}" "rft: no command (see rft --help)"
    assert_output ""
}

@test "an unknown command is a usage error" {
    run -2 --separate-stderr rft nosuch
    assert_equal "${stderr_lines[0]}" "rft: 'nosuch' is not an rft command; see 'rft help' (see rft --help)"
    run -2 --separate-stderr rft help nosuch
    assert_equal "${stderr_lines[0]}" "rft: 'nosuch' is not an rft command; see 'rft help' (see rft --help)"
}

@test "a path or an option is not a command" {
    run -2 --separate-stderr rft ../bin/rft-view
    assert_equal "${stderr_lines[0]}" "rft: '../bin/rft-view' is not a command (see rft --help)"
    run -2 --separate-stderr rft -x
    assert_equal "${stderr_lines[0]}" "rft: '-x' is not a command (see rft --help)"
}

@test "rft help to a full disk is an error" {
    run -1 --separate-stderr bash -c 'rft help > /dev/full'
    assert_equal "$stderr" "rft: standard output: No space left on device"
}
