#!/usr/bin/env bats
# Hostile and unlucky input, third round (issue 31): the replay and the
# newer decoders, items 1-4, 9, 12, 13, 19, 20 and rft(5)'s sizes checked
# where a record is read.  Each test fails on the main before the fix.
# The streams come from tests/unit/hostile_gen (`hostile_gen --list`).

load test_helper

GEN="$TOP/tests/unit/hostile_gen"
# a limit of address space, but not under an ASan build (make SAN=1), which
# reserves terabytes of it for its shadow and aborts under ulimit -v
VLIMIT="ulimit -v 400000;"
ldd "$TOP/bin/rft-replay" 2>/dev/null | grep -q libasan && VLIMIT=

setup() {
    cd "$BATS_TEST_TMPDIR"
}

# the stages that replay (rft-energy, rft-heal and rft-dcpatch replay too)
REPLAYS=(
    "rft-replay FILE"
    "rft-energy --scan -o /dev/null FILE"
    "rft-heal --scheme sc FILE"
    "rft run 'replay FILE' 'energy --scan -o /dev/null FILE'"
)

@test "item 1: a kernel index of 2^31 or 2^24 costs what one kernel costs (the replay's table doubled a 32-bit capacity to 0)" {
    local c s
    for c in kernel-2^31 kernel-2^24; do
        "$GEN" "$c" k.rft
        for s in "${REPLAYS[@]}"; do
            # was: a loop without end (2^31), 1.58 GB and 5 s (2^24)
            run bash -c "$VLIMIT timeout 20 ${s//FILE/k.rft} > /dev/null"
            [[ $status == 0 ]] || fail "$c: $s: status $status: $output"
        done
    done
    run -0 pipe "rft-replay -f tsv k.rft | awk -F '\t' '\$1 == \"kernel k\"' | wc -l"
    assert_output 1
}

@test "item 1 again: rft-dcpatch and rft-alloc's utilization keep kernels in a map, not a table by index (2^24: 64 MB, past it refused)" {
    local c
    for c in kernel-2^31 kernel-2^24; do
        "$GEN" "$c" k.rft
        # was: "record 1: kernel index 2147483648", exit 1; 2^24: 68 MB and 0.5 s
        run -0 bash -c "${VLIMIT/400000/200000} rft-faultmap --scenario dispersed k.rft | rft-dcpatch -o /dev/null"
        run -0 pipe "rft-alloc --util -o /dev/null k.rft | awk -F '\t' '\$1 == \"k\"' | wc -l"
        assert_output 1
    done
}

@test "item 1: kernel rows stay in the order of their indexes, whatever order they were met in" {
    z=$(printf ' 0%.0s' {1..64})
    {
        printf 'K 0 second\nK 1 first\n'
        printf 'B 2 0 0 1 8 first 0\nW 3 0 0 1 0 ffffffffffffffff%s\nE 9 0 0 1\n' "$z"
        printf 'B 10 0 0 2 8 second 0\nW 11 0 0 2 0 ffffffffffffffff%s\nE 19 0 0 2\n' "$z"
    } | rft-decode -o two.rft
    run -0 pipe "rft-replay -f tsv two.rft | awk -F '\t' '/^kernel/ { print \$1 }'"
    assert_output $'kernel second\nkernel first'
}

@test "item 2: cycles at or past 2^62 are refused by the replay, not wrapped into a slowdown of 3e19 %" {
    python3 -c "
B = 2**63
z = ' 0' * 64
print(f'K {B} k'); print(f'B {B} 0 0 1 8 k 0')
print(f'W {B + 1} 0 0 1 0 ffffffffffffffff{z}'); print(f'E {B + 20} 0 0 1')" > big.txt
    rft-decode big.txt -o big.rft
    run --separate-stderr -1 rft-replay big.rft
    [ "$stderr" = "rft-replay: big.rft: record 2: cycle 9223372036854775808: the replay counts cycles below 2^62 (rft-replay(1))" ]
    run --separate-stderr -1 rft-replay --add-latency 10 big.rft
    run --separate-stderr -1 rft-energy --scan -o /dev/null big.rft
    [[ $stderr == *"replay: cycle 9223372036854775808: the replay counts cycles below 2^62"* ]]
    # below the limit the replay is exact
    python3 -c "
B = 2**62 - 100
z = ' 0' * 64
print(f'K {B} k'); print(f'B {B} 0 0 1 8 k 0')
print(f'W {B + 1} 0 0 1 0 ffffffffffffffff{z}'); print(f'E {B + 20} 0 0 1')" | rft-decode -o near.rft
    run -0 pipe "rft-replay -f tsv --add-latency 4 near.rft | awk -F '\t' '\$1 == \"total\" { print \$2 }'"
    assert_output 20
}

@test "items 3 and 20: a begin of 0 registers or of more than the entries is refused where it is read" {
    local c s
    for c in begin-0-regs begin-over-entries; do
        "$GEN" "$c" b.rft
        for s in "rft-replay FILE" "rft-dcpatch --scenario common FILE" "rft-alloc FILE" "rft-view FILE"; do
            run --separate-stderr bash -c "${s//FILE/b.rft} > /dev/null"
            [[ $status == 1 ]] || fail "$c: $s: status $status"
            [[ $stderr == *": b.rft: record 2: begin record of "*" registers (rft(5): 1 to the 256 entries)" ]] ||
                fail "$c: $s: $stderr"
        done
    done
}

@test "item 4: an empty record of an unknown kind passes a threaded rft run whole" {
    "$GEN" unknown-empty u.rft
    run -0 rft run --threads 2 "alloc u.rft | gate -o t2.rft"
    run -0 rft run --threads 1 "alloc u.rft | gate -o t1.rft"
    cmp t1.rft t2.rft
    run -0 pipe "rft-view t2.rft | grep -c '^# record kind 0x40	0 bytes'"
    assert_output 2
}

@test "item 9: --degraded-scs of every SC of a slice or more is refused, naming the slice's SCs" {
    rft-synth --writes 2000 -o g.rft
    run --separate-stderr -1 rft-replay --degraded-scs 16 g.rft
    [ "$stderr" = "rft-replay: g.rft: --degraded-scs 16: a slice of this stream has 16 SCs (its block lanes): at most 15 can rest" ]
    run -1 rft-replay --degraded-scs 40 g.rft
    run -0 rft-replay --degraded-scs 15 g.rft
}

@test "item 12: a trace cycle that --cycles-mhz cannot turn into the GPU's, or past 2^64, is refused" {
    F="$FIX/m2s42"
    sed '0,/^c clk=[0-9]*/s//c clk=18446744073709551000/' "$F/vcmp.trace" > huge.trace
    run --separate-stderr -1 rft-decode --kernel k --local-size 64 --cycles-from huge.trace --cycles-mhz 925,1000 "$F/vcmp.isa"
    [[ $stderr == *"huge.trace:"*": cycle 18446744073709551000 of the trace's clock is past what --cycles-mhz turns into the GPU's (2^64 picoseconds)"* ]] || fail "$stderr"
    sed '0,/^c clk=[0-9]*/s//c clk=99999999999999999999/' "$F/vcmp.trace" > wide.trace
    run --separate-stderr -1 rft-decode --kernel k --local-size 64 --cycles-from wide.trace "$F/vcmp.isa"
    [[ $stderr == *"'c clk=99999999999999999999' is not a cycle"* ]] || fail "$stderr"
}

@test "item 13: records of both units, vmem and lds, are refused, not printed as vmem" {
    "$GEN" write-both-units w.rft
    run --separate-stderr -1 rft-view w.rft
    [[ $stderr == "rft-view: w.rft: record 3: write record of both units, vmem and lds (flags 0x30)" ]] || fail "$stderr"
    "$GEN" unit-both u.rft
    run --separate-stderr -1 rft-replay u.rft
    [[ $stderr == *"record 4: malformed unit record" ]] || fail "$stderr"
    # rft-view keeps it as a record of its own kind, byte for byte, not as vmem
    run -0 rft-view u.rft
    refute_output --partial vmem
}

@test "item 19: an unknown option inside a word names the word, not the program or stage" {
    rft-synth --writes 200 -o ./-x.rft
    run --separate-stderr -2 rft run "alloc -x.rft | duty -o /dev/null"
    [[ $stderr == *"unknown option '-x' in '-x.rft' (a file named so: ./-x.rft)"* ]] || fail "$stderr"
    refute [ "$stderr" = *"'alloc'"* ]
    run --separate-stderr -2 rft-alloc -x.rft
    [[ $stderr == *"unknown option '-x' in '-x.rft'"* ]] || fail "$stderr"
    # ./-x.rft is a file
    run -0 rft run "alloc ./-x.rft | duty -o /dev/null"
}
