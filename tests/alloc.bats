#!/usr/bin/env bats
# rft-alloc: first-fit, RAR (seed 002 5.2) and ARGO (seed 004 5.3) window
# placement, the physical entries of writes and reads, the RFT_ALLOC records,
# work-group granularity and bad input.

load test_helper

setup() {
    cd "$BATS_TEST_TMPDIR"
    A="$FIX/alloc"
    for f in rar firstfit full half wg nofit; do
        rft-decode --lanes 4 --block-lanes 4 "$A/$f.txt" > "$f.rft"
    done
}

# "wf vreg phys" of every write and read
placed() { rft-view --kind W,R "$1" | awk -F '\t' '{ print $1, $5, $6, $NF }'; }

@test "RAR worked example: N 10, base 50, Lr9 -> Pr59, reassigned Lr9 -> Pr50" {
    rft-alloc --scheme rar rar.rft > out.rft
    run placed out.rft
    assert_success
    assert_output - <<'EOF'
W 5 9 phys=59
R 5 9 phys=59
W 5 0 phys=50
W 6 9 phys=50
R 6 9 phys=50
W 6 0 phys=51
W 7 9 phys=51
W 7 8 phys=50
EOF
    # the rotation s is in the RFT_ALLOC records
    run pipe "rft-alloc --scheme rar --events rar.rft | awk '\$5 == \"alloc\" && \$6 == 50'"
    assert_output - <<'EOF'
1	0	0	5	alloc	50	10	0	196	0
5	0	0	6	alloc	50	10	1	196	0
9	0	0	7	alloc	50	10	2	196	0
EOF
}

@test "first-fit does not rotate: Lr9 stays at Pr59" {
    run placed <(rft-alloc --scheme first-fit rar.rft)
    assert_success
    assert_output - <<'EOF'
W 5 9 phys=59
R 5 9 phys=59
W 5 0 phys=50
W 6 9 phys=59
R 6 9 phys=59
W 6 0 phys=50
W 7 9 phys=59
W 7 8 phys=58
EOF
}

@test "first-fit: the lowest free base, freed windows reused by any size" {
    run pipe "rft-alloc --events firstfit.rft | cut -f2-9"
    assert_success
    assert_output - <<'EOF'
cu	simd	wf	event	base	n	rot	free
0	0	0	alloc	0	8	0	248
0	0	1	alloc	8	8	0	240
0	0	2	alloc	16	4	0	236
1	2	9	alloc	0	8	0	248
0	0	0	free	0	8	0	244
0	0	3	alloc	0	4	0	240
0	0	4	alloc	4	4	0	236
0	0	5	alloc	20	8	0	228
0	0	1	free	8	8	0	236
0	0	6	alloc	8	6	0	230
0	0	2	free	16	4	0	234
0	0	3	free	0	4	0	238
0	0	4	free	4	4	0	242
0	0	5	free	20	8	0	250
0	0	6	free	8	6	0	256
1	2	9	free	0	8	0	256
EOF
    run placed <(rft-alloc firstfit.rft)
    assert_output - <<'EOF'
W 1 7 phys=15
W 9 7 phys=7
W 3 3 phys=3
W 4 0 phys=4
W 5 0 phys=20
R 5 7 phys=27
W 6 5 phys=13
EOF
}

@test "an RFT_ALLOC record follows every B and E record" {
    run pipe "rft-alloc firstfit.rft | rft-view | grep -v '^[KWR]' | cut -f1-5 | head -12"
    assert_output - <<'EOF'
B	1	0	0	0
# alloc	cycle=1	slice=0:0	wf=0	event=alloc
B	1	0	0	1
# alloc	cycle=1	slice=0:0	wf=1	event=alloc
B	1	0	0	2
# alloc	cycle=1	slice=0:0	wf=2	event=alloc
B	1	1	2	9
# alloc	cycle=1	slice=1:2	wf=9	event=alloc
E	3	0	0	0
# alloc	cycle=3	slice=0:0	wf=0	event=free
B	4	0	0	3
# alloc	cycle=4	slice=0:0	wf=3	event=alloc
EOF
    # 26-byte records (layout in rft-alloc(1), bytes checked by test_alloc)
    rft-alloc --scheme rar rar.rft -o out.rft
    run pipe "rft-view --format json out.rft | grep -c '\"kind\": \"alloc\"'"
    assert_output 16
}

@test "ARGO on a full slice places exactly as first-fit and never gates a free entry for any time" {
    rft-alloc --scheme first-fit --events=ff.tsv full.rft -o ff.rft
    rft-alloc --scheme argo --events=argo.tsv full.rft -o argo.rft
    # the same physical entries for every access
    diff <(placed ff.rft) <(placed argo.rft)
    # the same windows; only the gated flag differs
    diff <(cut -f1-9 ff.tsv) <(cut -f1-9 argo.tsv)
    run awk -F '\t' 'NR > 1 { print $10 }' argo.tsv
    refute_output --partial 0
    # no entry is free while a cycle passes: at the last event of every
    # cycle but the trace's last, no entry is free
    run awk -F '\t' 'NR > 2 && $1 != pc && pf != 0 { print "free at the end of cycle", pc ": " pf }
        NR > 1 { pc = $1; pf = $9 }' argo.tsv
    assert_output ''
    run pipe "awk -F '\t' 'NR > 1 && \$5 == \"free\" && \$1 < 30' argo.tsv | wc -l"
    assert_output 10
}

@test "ARGO on a half-empty slice rotates round the slice; first-fit does not" {
    run pipe "rft-alloc --scheme first-fit --events half.rft | awk '\$5 == \"alloc\" { print \$4, \$6, \$9, \$10 }'"
    assert_output - <<'EOF'
0 0 192 0
1 64 128 0
2 0 128 0
3 64 128 0
4 0 128 0
EOF
    run pipe "rft-alloc --scheme argo --events half.rft | awk '\$5 == \"alloc\" { print \$4, \$6, \$9, \$10 }'"
    assert_output - <<'EOF'
0 0 192 1
1 64 128 1
2 128 128 1
3 192 128 1
4 0 128 1
EOF
    run placed <(rft-alloc --scheme argo half.rft)
    assert_output 'W 4 1 phys=1'
}

@test "ARGO ring: a window wraps past the last entry; --wrap restart starts again at 0" {
    cat > ring.txt <<'EOF'
K	0	k
B	1	0	0	0	100	k	0
E	2	0	0	0
B	3	0	0	1	100	k	1
E	4	0	0	1
B	5	0	0	2	100	k	2
W	6	0	0	2	55	f	0	0	0	0
W	6	0	0	2	56	f	0	0	0	0
E	7	0	0	2
EOF
    rft-decode --lanes 4 --block-lanes 4 ring.txt > ring.rft
    run placed <(rft-alloc --scheme argo ring.rft)
    assert_output $'W 2 55 phys=255\nW 2 56 phys=0'
    run placed <(rft-alloc --scheme argo --wrap restart ring.rft)
    assert_output $'W 2 55 phys=55\nW 2 56 phys=56'
    run pipe "rft-alloc --scheme argo --events ring.rft | awk '\$5 == \"alloc\" { print \$6 }' | paste -sd' '"
    assert_output '0 100 200'
}

@test "work-group granularity: windows of a group are freed together at its last end" {
    run pipe "rft-alloc --scheme argo --granularity work-group --events wg.rft | cut -f1,4-6,9"
    assert_success
    assert_output - <<'EOF'
cycle	wf	event	base	free
1	0	alloc	0	246
1	1	alloc	10	236
1	2	alloc	20	226
6	3	alloc	30	216
6	4	alloc	40	206
7	0	free	0	216
7	1	free	10	226
8	2	free	20	236
9	3	free	30	246
9	4	free	40	256
EOF
    # argo defaults to work-group; per wavefront, wavefront 0's window is free at once
    run pipe "rft-alloc --scheme argo --granularity wavefront --events wg.rft | awk '\$5 == \"free\" { print \$1, \$4 }' | head -1"
    assert_output '5 0'
    # first-fit defaults to wavefront: wavefront 3 reuses wavefront 0's entries
    run pipe "rft-alloc --events wg.rft | awk '\$4 == 3 && \$5 == \"alloc\" { print \$6 }'"
    assert_output 0
    run pipe "rft-alloc --granularity work-group --events wg.rft | awk '\$4 == 3 && \$5 == \"alloc\" { print \$6 }'"
    assert_output 30
}

@test "the header names the scheme; other records pass through unchanged" {
    rft-alloc --scheme argo firstfit.rft -o out.rft
    rft-view -H --format tsv out.rft | grep -qx $'alloc\tscheme=argo granularity=wavefront wrap=ring'
    rft-view -H --format tsv out.rft | grep -qx $'producer\trft-alloc'
    diff <(rft-view firstfit.rft) <(rft-view --kind K,B,W,R,E out.rft | grep -v '^#' | sed 's/\tphys=[0-9]*$//')
    # allocating again replaces the placement and its records, with a warning
    run --separate-stderr pipe "rft-alloc --scheme rar out.rft | rft-view --format json | grep -c '\"kind\": \"alloc\"'"
    assert_output 16
    assert_equal "$stderr" "rft-alloc: warning: out.rft: re-allocating a stream allocated with scheme=argo granularity=wavefront wrap=ring"
}

@test "a window that does not fit names the slice and the cycle; no end record" {
    run -1 --separate-stderr rft-alloc nofit.rft -o out.rft
    assert_equal "$stderr" "rft-alloc: nofit.rft: record 6: window of 100 registers of wavefront 9 does not fit in slice (2,1) at cycle 3 (56 free entries, largest free run 56)"
    [ ! -e out.rft ]
    run -1 --separate-stderr pipe "rft-alloc --scheme argo nofit.rft > out.rft"
    [[ $stderr == *"record 6: window of 100 registers of wavefront 9 does not fit in slice (2,1)"* ]]
    run -1 --separate-stderr rft-view out.rft
    [[ $stderr == *"end record"* ]]
    # what came before the failure is there
    run pipe "rft-view out.rft 2>/dev/null | grep -c '^W'"
    assert_output 1
}

@test "usage errors exit 2" {
    run -2 rft-alloc --scheme best-fit rar.rft
    assert_output --partial "--scheme: 'best-fit' is not one of first-fit, rar, argo"
    run -2 rft-alloc --granularity kernel rar.rft
    run -2 rft-alloc --scheme rar --wrap ring rar.rft
    assert_output --partial "--wrap applies to --scheme argo only"
    run -2 rft-alloc --format csv rar.rft
    run -2 rft-alloc a.rft b.rft
    run -2 rft-alloc --events=- -o - rar.rft
}

@test "bad input exits 1: missing file, truncated stream, not a stream" {
    run -1 --separate-stderr rft-alloc nosuch.rft
    [[ $stderr == "rft-alloc: nosuch.rft: "* ]]
    head -c 100 rar.rft > cut.rft
    run -1 --separate-stderr rft-alloc cut.rft -o out.rft
    [[ $stderr == "rft-alloc: cut.rft: "* ]]
    echo hello > text.rft
    run -1 --separate-stderr rft-alloc text.rft
}

@test "a full disk is an error" {
    run -1 --separate-stderr bash -c 'rft-alloc rar.rft > /dev/full'
    assert_equal "$stderr" "rft-alloc: standard output: No space left on device"
    run -1 --separate-stderr bash -c 'rft-alloc --events rar.rft > /dev/full'
    assert_equal "$stderr" "rft-alloc: standard output: No space left on device"
}

@test "the reader of the output goes away: quiet end" {
    awk 'BEGIN { print "B\t0\t0\t0\t0\t4"
        for (i = 0; i < 20000; i++) { printf "W\t%d\t0\t0\t0\t%d\tffffffffffffffff", i, i % 4
            for (l = 0; l < 64; l++) printf "\t%08x", (i * 7919 + l * 104729) % 2147483647
            printf "\n" } }' | rft-decode > big.rft
    run --separate-stderr pipe 'rft-alloc --scheme rar big.rft | head -c 100 > /dev/null'
    assert_equal "$stderr" ""
    [[ $status -eq 0 || $status -eq 141 ]]
}

@test "numbers in the events table do not follow the locale" {
    run pipe "LC_ALL=C.UTF-8 LC_NUMERIC=de_DE.UTF-8 rft-alloc --events --format csv rar.rft | sed -n 2p"
    assert_output '1,0,0,0,alloc,0,10,0,246,0'
}
