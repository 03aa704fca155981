#!/usr/bin/env bats
# rft-gate: RC (seed 002 5.1) and WC (seed 002 5.3) power states of the
# entries, wake-ups, MOVs, the counters, RC+RAR and bad input.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    A="$FIX/alloc"
    rft-decode "$A/gate.txt" | rft-alloc > g.rft
}

# "cycle wf vreg" and the annotation of every write
gated() { rft-view --kind W "$1" | cut -f2,5,6,72-; }

# one scope's counters as "name value" lines
counters() { rft-gate "${@:2}" --summary -f tsv "$1" | awk -F '\t' -v s="${SCOPE:-total}" '$1 == s { print $2, $3 }'; }

@test "rc: compressible writes switch the entry off, others wake it up" {
    rft-gate --scheme rc g.rft > out.rft
    run gated out.rft
    assert_success
    # v0 ids (off), random (wake), zero (off), divergent while compressed
    # (MOV, wake); v1 stride 256 (delta above 64: on); v2 broken ids (on),
    # zero (off), zero (stays off); v3 divergent, never compressed (on);
    # wavefront 1: v2 random wakes the entry wavefront 0 left off
    assert_output - <<'EOF'
10	0	0	phys=0	on=0
12	0	0	phys=0	flags=wake	on=2048
13	0	0	phys=0	on=0
14	0	0	phys=0	flags=mov+wake	on=2048
15	0	1	phys=1	on=2048
17	0	2	phys=2	on=2048
18	0	2	phys=2	on=0
19	0	2	phys=2	on=0
20	0	3	phys=3	on=2048
23	1	2	phys=2	flags=wake	on=2048
EOF
}

@test "rc counters" {
    run counters g.rft --scheme rc
    assert_success
    assert_output - <<'EOF'
writes 10
reads 3
divergent_writes 2
compressed_writes 4
switch_offs 3
wakeups 3
movs 1
slice_block_writes 40
slice_block_writes_cancelled 4
slice_block_reads 9
slice_block_reads_cancelled 3
ctable_reads 4
ctable_writes 4
ctable_invalidations 3
comp_unit_activations 8
comp_unit_blocks 22
decomp_unit_activations 4
decomp_unit_blocks 10
EOF
}

@test "wc: the cells beyond what BDI stores are off, for each class" {
    rft-gate --scheme wc g.rft > out.rft
    run gated out.rft
    # base 32 bits, 1-byte deltas 32 + 8 x 63, 2-byte deltas 32 + 16 x 63,
    # uncompressed 32 x 64
    assert_output - <<'EOF'
10	0	0	phys=0	on=536
12	0	0	phys=0	flags=wake	on=2048
13	0	0	phys=0	on=32
14	0	0	phys=0	flags=mov+wake	on=2048
15	0	1	phys=1	on=1040
17	0	2	phys=2	on=2048
18	0	2	phys=2	on=32
19	0	2	phys=2	on=32
20	0	3	phys=3	on=2048
23	1	2	phys=2	flags=wake	on=2048
EOF
}

@test "wc counters" {
    run counters g.rft --scheme wc
    assert_output - <<'EOF'
writes 10
reads 3
divergent_writes 2
compressed_writes 5
switch_offs 4
wakeups 3
movs 1
slice_block_writes 32
slice_block_writes_cancelled 12
slice_block_reads 10
slice_block_reads_cancelled 6
ctable_reads 0
ctable_writes 0
ctable_invalidations 0
comp_unit_activations 8
comp_unit_blocks 32
decomp_unit_activations 3
decomp_unit_blocks 12
EOF
}

@test "rft-classify annotations give the same gating as classifying here" {
    rft-decode "$A/gate.txt" | rft-classify | rft-alloc > c.rft
    for s in rc wc; do
        diff <(rft-gate --scheme $s g.rft | rft-view --kind W | awk -F '\t' '{ print $NF }') \
             <(rft-gate --scheme $s c.rft | rft-view --kind W | awk -F '\t' '{ print $NF }')
        diff <(counters g.rft --scheme $s) <(counters c.rft --scheme $s)
    done
}

@test "--deltas any and --bs change what RC compresses" {
    # stride 256 fits when any delta is allowed
    run pipe "rft-gate --deltas any g.rft | rft-view --kind W | sed -n 5p | awk -F '\t' '{ print \$6, \$NF }'"
    assert_output '1 on=0'
    # De 256, Db 2048
    run pipe "rft-gate --max-delta 1024 g.rft | rft-view --kind W | sed -n 5p | awk -F '\t' '{ print \$6, \$NF }'"
    assert_output '1 on=2048'
    run pipe "rft-gate --max-delta 2048 g.rft | rft-view --kind W | sed -n 5p | awk -F '\t' '{ print \$6, \$NF }'"
    assert_output '1 on=0'
    run pipe "rft-gate --bs 1 g.rft | rft-view --kind W | sed -n 1p | awk -F '\t' '{ print \$6, \$NF }'"
    assert_output '0 on=0'
    rft-gate --deltas any g.rft -o out.rft
    rft-view -H --format tsv out.rft | grep -qx $'gate\tscheme=rc bs=8 deltas=any'
    # annotated writes keep their annotation; the options apply to the others
    rft-decode "$A/gate.txt" | rft-classify | rft-alloc > c.rft
    run --separate-stderr rft-gate --deltas any c.rft -o out.rft
    assert_success
    [[ $stderr == *"warning: c.rft: 10 writes were gated by their rft-classify annotation"* ]]
}

@test "RC+RAR: the compressed Lr9 switches off a different entry on each reassignment" {
    rft-decode --lanes 4 --block-lanes 4 "$A/rar.txt" > rar.rft
    run pipe "rft-alloc --scheme rar rar.rft | rft-gate --scheme rc | rft-view --kind W | awk -F '\t' '\$6 == 9 { print \$5, \$6, \$(NF - 1), \$NF }'"
    assert_output - <<'EOF'
5 9 phys=59 on=0
6 9 phys=50 on=0
7 9 phys=51 on=0
EOF
    run pipe "rft-alloc --scheme first-fit rar.rft | rft-gate --scheme rc | rft-view --kind W | awk -F '\t' '\$6 == 9 { print \$(NF - 1) }' | sort -u"
    assert_output 'phys=59'
}

@test "a counters record per slice, then the total, at the end of the stream" {
    rft-decode --lanes 4 --block-lanes 4 "$A/firstfit.txt" | rft-alloc | rft-gate > out.rft
    run pipe "rft-view out.rft | tail -3 | cut -f1-3,5-6"
    assert_output - <<'EOF'
# counters	stage=rft-gate	scope=slice 0:0	reads=1	divergent_writes=0
# counters	stage=rft-gate	scope=slice 1:2	reads=0	divergent_writes=0
# counters	stage=rft-gate	scope=total	reads=1	divergent_writes=0
EOF
    # gating again replaces them, with a warning
    run --separate-stderr pipe "rft-gate --scheme wc out.rft | rft-view | grep -c '^# counters'"
    assert_output 3
    assert_equal "$stderr" "rft-gate: warning: out.rft: gating again a stream gated with scheme=rc bs=8 deltas=pow2 max-delta=64"
    # the other records pass through
    diff <(rft-view out.rft | grep -v '^# counters' | sed 's/\ton=[0-9]*$//') \
         <(rft-gate --scheme wc out.rft 2>/dev/null | rft-view | grep -v '^# counters' | sed 's/\ton=[0-9]*$//')
}

@test "a stream without physical entries is an error naming the record" {
    rft-decode "$A/gate.txt" > raw.rft
    run -1 --separate-stderr rft-gate raw.rft -o out.rft
    assert_equal "$stderr" "rft-gate: raw.rft: record 3: no physical entries: run rft-alloc first"
    [ ! -e out.rft ]
    run -1 --separate-stderr pipe "rft-gate --scheme wc raw.rft > out.rft"
    run -1 --separate-stderr rft-view out.rft
    [[ $stderr == *"end record"* ]]
    # a read without one too
    printf 'B\t1\t0\t0\t0\t4\nR\t2\t0\t0\t0\t3\n' | rft-decode > r.rft
    run -1 --separate-stderr rft-gate r.rft
    assert_equal "$stderr" "rft-gate: r.rft: record 2: no physical entries: run rft-alloc first"
}

@test "usage errors exit 2" {
    run -2 rft-gate --scheme bdi g.rft
    assert_output --partial "--scheme: 'bdi' is not one of rc, wc"
    run -2 rft-gate --scheme wc --bs 4 g.rft
    assert_output --partial "apply to --scheme rc only"
    run -2 rft-gate --deltas any --max-delta 8 g.rft
    run -2 rft-gate --max-delta 12 g.rft
    run -2 rft-gate --bs 0 g.rft
    run -2 rft-gate --format csv g.rft
    run -2 rft-gate --summary -o - g.rft
    run -2 rft-gate a.rft b.rft
}

@test "bad input exits 1" {
    run -1 --separate-stderr rft-gate nosuch.rft
    [[ $stderr == "rft-gate: nosuch.rft: "* ]]
    head -c 300 g.rft > cut.rft
    run -1 --separate-stderr rft-gate cut.rft
    [[ $stderr == "rft-gate: cut.rft: "* ]]
}

@test "a full disk is an error; numbers do not follow the locale" {
    run -1 --separate-stderr bash -c 'rft-gate g.rft > /dev/full'
    assert_equal "$stderr" "rft-gate: standard output: No space left on device"
    run -1 --separate-stderr bash -c 'rft-gate --summary g.rft > /dev/full'
    run pipe "LC_ALL=C.UTF-8 LC_NUMERIC=de_DE.UTF-8 rft-gate --summary -f csv g.rft | tail -1"
    assert_output 'total,decomp_unit_blocks,10'
}

@test "the reader of the output goes away: quiet end" {
    awk 'BEGIN { print "B\t0\t0\t0\t0\t4"
        for (i = 0; i < 20000; i++) { printf "W\t%d\t0\t0\t0\t%d\tffffffffffffffff", i, i % 4
            for (l = 0; l < 64; l++) printf "\t%08x", (i * 7919 + l * 104729) % 2147483647
            printf "\n" } }' | rft-decode | rft-alloc > big.rft
    run --separate-stderr pipe 'rft-gate big.rft | head -c 100 > /dev/null'
    assert_equal "$stderr" ""
    [[ $status -eq 0 || $status -eq 141 ]]
}
