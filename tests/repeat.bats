#!/usr/bin/env bats
# rft-repeat: copies back to back with cycles and kernel indexes shifted;
# allocation records shifted, fault maps once, duty maps refused; stdin read
# N times; impossible counts and overflowing cycles refused.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    small() { rft-decode --lanes 1 --block-lanes 1 --entries 4 "$FIX/duty/hand.tsv"; }
}

@test "two copies of a hand-written trace, with and without a gap" {
    small > t.rft
    # the trace runs 100..200: the copy starts at 201 (+ the gap)
    run -0 pipe 'rft-repeat -n 2 --gap 5 t.rft | rft-view'
    assert_output "$(printf '%s\n' \
        'B	100	0	0	1	2	k	0' \
        'W	100	0	0	1	0	1	00000001	phys=0' \
        'W	150	0	0	1	0	1	00000003	phys=0' \
        'W	160	0	0	1	1	1	ffffffff	phys=1	on=0' \
        'E	200	0	0	1' \
        'B	206	0	0	1	2	k	0' \
        'W	206	0	0	1	0	1	00000001	phys=0' \
        'W	256	0	0	1	0	1	00000003	phys=0' \
        'W	266	0	0	1	1	1	ffffffff	phys=1	on=0' \
        'E	306	0	0	1')"
    run -0 pipe 'rft-repeat t.rft | rft-view | cut -f 1-2 | paste -sd " "'
    assert_output "B	100 W	100 W	150 W	160 E	200 B	201 W	201 W	251 W	261 E	301"
    run -0 pipe 'rft-repeat -n 1 t.rft | rft-view'
    assert_output "$(rft-view t.rft)"
}

@test "N copies: N times the records, new kernels, the header says so" {
    rft-synth --cus 2 --simds 2 --writes 3000 --seed 5 > s.rft
    rft-view --stats --format tsv s.rft > one.tsv
    rft-repeat -n 3 -o r.rft s.rft
    rft-view --stats --format tsv r.rft > three.tsv
    for k in kernels wavefronts writes reads records; do
        a=$(awk -F '\t' -v k=$k '$1 == k { print $2 }' one.tsv)
        b=$(awk -F '\t' -v k=$k '$1 == k { print $2 }' three.tsv)
        [ "$b" -eq $((3 * a)) ] || { echo "$k: $a -> $b"; return 1; }
    done
    f=$(awk -F '\t' '$1 == "first_cycle" { print $2 }' one.tsv)
    l=$(awk -F '\t' '$1 == "last_cycle" { print $2 }' one.tsv)
    run -0 awk -F '\t' '$1 == "last_cycle" { print $2 }' three.tsv
    assert_output $((l + 2 * (l - f + 1)))
    run -0 rft-view -H r.rft
    assert_line --regexp '^repeat +copies=3 gap=0$'
}

@test "standard input gives the bytes a file gives" {
    rft-synth --writes 2000 --seed 2 > s.rft
    rft-repeat -n 4 -o a.rft s.rft
    rft-repeat -n 4 < s.rft > b.rft
    cmp a.rft b.rft
    cat s.rft | rft-repeat -n 4 > c.rft
    cmp a.rft c.rft
}

@test "first-fit placement of the copies is the placement repeated" {
    rft-synth --cus 2 --simds 2 --writes 4000 --seed 9 > s.rft
    # copies never overlap, so first-fit starts each from an empty slice;
    # the allocation records of the placed stream are shifted with it
    pipe 'rft-repeat -n 3 s.rft | rft-alloc --scheme first-fit | rft-view' > a.txt
    pipe 'rft-alloc --scheme first-fit s.rft | rft-repeat -n 3 | rft-view' > b.txt
    grep -q '^# alloc' a.txt
    cmp a.txt b.txt
    # RAR: the copies rotate further (seed 002 5.2), so placements differ
    pipe 'rft-repeat -n 3 s.rft | rft-alloc --scheme rar | rft-view' > c.txt
    pipe 'rft-alloc --scheme rar s.rft | rft-repeat -n 3 | rft-view' > d.txt
    ! cmp -s c.txt d.txt
}

@test "fault maps once, counters in every copy, duty maps refused" {
    rft-synth --cus 2 --writes 2000 --seed 4 > s.rft
    rft-faultmap --scenario common -o f.rft s.rft
    maps() { rft-view "$1" | grep -c '^# record kind 0x12' || true; }
    [ "$(maps f.rft)" -gt 0 ]
    rft-repeat -n 3 -o r.rft f.rft
    [ "$(maps r.rft)" -eq "$(maps f.rft)" ]
    rft-alloc s.rft | rft-gate --scheme rc -o g.rft
    n=$(rft-view g.rft | grep -c '^# counters')
    rft-repeat -n 3 -o r.rft g.rft
    [ "$(rft-view r.rft | grep -c '^# counters')" -eq $((3 * n)) ]
    rft-alloc s.rft | rft-duty -o d.rft
    run -1 --separate-stderr rft-repeat d.rft
    assert_equal "$stderr" "rft-repeat: d.rft: record 1: a duty map: repeat the trace, then compute its map"
}

@test "bad input: counts, overflowing cycles, a truncated stream" {
    small > t.rft
    run -2 rft-repeat -n 0 t.rft
    assert_line --index 0 "rft-repeat: -n: 0 is out of range 1..4294967295 (see rft-repeat --help)"
    run -2 rft-repeat --gap -1 t.rft
    run -2 rft-repeat t.rft t.rft
    printf 'B\t18446744073709551000\t0\t0\t1\t2\tk\t0\nE\t18446744073709551600\t0\t0\t1\n' |
        rft-decode --lanes 1 --block-lanes 1 --entries 4 > big.rft
    run -1 --separate-stderr rft-repeat -n 3 -o out.rft big.rft
    assert_equal "$stderr" "rft-repeat: big.rft: 3 copies of cycles 18446744073709551000 to 18446744073709551600 with a gap of 0 end past cycle 18446744073709551615"
    [ ! -e out.rft ]
    head -c 60 t.rft > cut.rft
    run -1 --separate-stderr rft-repeat -n 2 -o out.rft cut.rft
    [[ $stderr == "rft-repeat: cut.rft: "* ]]
    [ ! -e out.rft ]
}

@test "-o FILE: a run refused after the first copy leaves neither the file nor a temporary" {
    printf 'B\t18446744073709551000\t0\t0\t1\t2\tk\t0\nE\t18446744073709551600\t0\t0\t1\n' |
        rft-decode --lanes 1 --block-lanes 1 --entries 4 > big.rft
    mkdir o
    run -1 --separate-stderr rft-repeat -n 3 -o o/out.rft big.rft
    assert_equal "$stderr" "rft-repeat: big.rft: 3 copies of cycles 18446744073709551000 to 18446744073709551600 with a gap of 0 end past cycle 18446744073709551615"
    run -0 ls -A o
    assert_output ''
}
