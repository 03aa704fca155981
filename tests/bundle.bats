#!/usr/bin/env bats
# VLIW bundle records (rft(5) kind 0x06) through every stage: the filters
# keep them unchanged and in place, rft-repeat shifts them with their copy,
# rft-duty takes them as trace records (in its span, not in its map), and
# the stages that read duty maps or price a trace are not changed by them.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    BUN="$FIX/bundle/bundles.tsv"
    rft-decode "$BUN" > t.rft
    grep -v '^[#A]' "$BUN" | rft-decode > noa.rft
    grep '^A' "$BUN" > want-a.tsv
}

# the trace records of a stream, kind and cycle a line (stage records left out)
order() { rft-view "$1" | grep -v '^#' | cut -f 1-2; }

@test "rft-alloc, rft-classify, rft-gate, rft-dcpatch, rft-faultmap keep bundles unchanged and in place" {
    grep -v '^#' "$BUN" | cut -f 1-2 > want-order.tsv
    rft-alloc t.rft -o alloc.rft
    rft-classify t.rft -o cls.rft
    rft-gate --scheme rc alloc.rft -o gate.rft
    rft-dcpatch --scenario common alloc.rft -o dcp.rft
    rft-faultmap --scenario common t.rft -o fm.rft
    local f
    for f in alloc cls gate dcp fm; do
        rft-view --kind A "$f.rft" > got-a.tsv
        cmp got-a.tsv want-a.tsv || { echo "$f changed the bundles"; return 1; }
        order "$f.rft" > got-order.tsv
        cmp got-order.tsv want-order.tsv || { echo "$f moved the records"; return 1; }
    done
}

@test "rft-repeat shifts each copy's bundles with its cycles" {
    # the trace spans cycles 0..24: copy 2 starts at 25, copy 3 at 50
    run -0 pipe 'rft-repeat -n 3 t.rft | rft-view --kind A | cut -f 1-2,5,6 | paste -sd " "'
    assert_output "A	4	0	XZT A	8	0	X A	8	1	XYZW A	12	1	XYZWT A	12	1	- A	20	1	YW A	29	0	XZT A	33	0	X A	33	1	XYZW A	37	1	XYZWT A	37	1	- A	45	1	YW A	54	0	XZT A	58	0	X A	58	1	XYZW A	62	1	XYZWT A	62	1	- A	70	1	YW"
    # and the copies read back in cycle order through the text grammar
    run -0 pipe 'rft-repeat -n 3 t.rft | rft-view | rft-decode | rft-view --stats --format tsv | grep bundles'
    assert_output $'bundles\t18'
}

@test "rft-duty takes bundles as trace records: the same map, no bundle in it" {
    rft-alloc t.rft | rft-duty -o d.rft
    rft-alloc noa.rft | rft-duty -o d-noa.rft
    cmp <(rft-view d.rft) <(rft-view d-noa.rft)
    run -0 pipe 'rft-view --stats --format tsv d.rft | grep -E "^(bundles|other_records)"'
    assert_output $'bundles\t0\nother_records\t512'
    # a bundle after the slice's last event stretches the slice's span
    { grep -v '^E' "$BUN"; printf 'A\t30\t1\t0\t1\tX\tffffffffffffffff\nE\t31\t0\t0\t0\nE\t31\t1\t0\t1\n'; } |
        rft-decode | rft-alloc | rft-duty --summary --format tsv > late.tsv
    run -0 awk -F '\t' '$1 == "1:0" { print $3, $4 }' late.tsv
    assert_output "0 31"
}

@test "rft-merge and rft-vth: maps of traces with bundles add up as without them" {
    rft-alloc t.rft | rft-duty -o d.rft
    rft-alloc noa.rft | rft-duty -o d-noa.rft
    rft-merge d.rft d.rft -o m.rft
    rft-merge d-noa.rft d-noa.rft -o m-noa.rft
    cmp <(rft-view m.rft) <(rft-view m-noa.rft)
    rft-vth x=m.rft > v.tsv
    rft-vth x=m-noa.rft > v-noa.tsv
    cmp v.tsv v-noa.tsv
    # a trace is refused as such, bundles included
    run -1 --separate-stderr rft-merge t.rft
    assert_equal "$stderr" "rft-merge: t.rft: record 1: a trace, not a duty map: run rft-duty(1) first"
}

@test "rft-energy: bundles change no figure" {
    rft-alloc t.rft | rft-gate --scheme rc -o g.rft
    rft-alloc noa.rft | rft-gate --scheme rc -o g-noa.rft
    rft-energy --absolute -f tsv rc=g.rft > e.tsv
    rft-energy --absolute -f tsv rc=g-noa.rft > e-noa.tsv
    cmp e.tsv e-noa.tsv
}
